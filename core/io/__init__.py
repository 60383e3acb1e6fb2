"""Read and write tables: CSV/TSV/TXT, Excel (.xlsx) and Parquet.

The guide's Step 1 ("Know your data") starts from the dataset as the organisation holds
it, usually a spreadsheet export. :func:`read_table` accepts a path, raw bytes or an
uploaded file and turns every problem into a :class:`~core.errors.DataReadError` whose
message names the file (and the row or column) and says what to do.

How values are read
-------------------
* Delimited text is read **as text first** (``dtype=str``). Only the empty string is a
  missing value: words such as ``NA``, ``null`` or ``None`` are kept as written, because in
  personal data they can be real values (``NA`` is Namibia's country code).
* A column is then converted to numbers only when *every* non-missing value is a plain
  decimal number (``12``, ``-3.5``, ``1e3``) and **none** of them
  - starts with a leading zero followed by a digit (postal code ``018956``, ``007``),
  - starts with ``+`` (telephone number ``+6591234567``), or
  - has 16 digits or more (card and account numbers would lose precision as floats).
  Such columns stay text, so identifiers survive a round trip. Thousands separators
  (``13,000``), currency signs and dates are left as text too; convert them explicitly.
* Header names are stripped of surrounding spaces. Duplicate or blank names are errors,
  except that a column with a blank name *and no values at all* (the trailing delimiter
  some spreadsheet programs write) is dropped.
* Excel cells keep the type Excel stored (number, date, text); text-only columns follow
  the same leading-zero rule. Parquet columns keep their stored types.

The way a file was read is recorded in ``df.attrs["source"]`` as
``{"name", "format", "sep", "encoding", "sheet"}`` so the dashboard and the report can
show it.

Modules: :mod:`core.io.reading` (:func:`read_table`, choosing the format),
:mod:`core.io.files` (the bytes and their limits), :mod:`core.io.text` (encoding and
delimiter), :mod:`core.io.delimited` and :mod:`core.io.quick_text` (delimited text),
:mod:`core.io.excel`, :mod:`core.io.parquet`, :mod:`core.io.header` (header checks),
:mod:`core.io.numbers` (the text/number rule) and :mod:`core.io.writing` (safe writers).
This package re-exports their public names, so ``from core.io import read_table`` works.
"""

from core.io.delimited import MAX_CELL_CHARS
from core.io.excel import MAX_XLSX_CELLS, MAX_XLSX_COMPRESSION_RATIO, MAX_XLSX_UNCOMPRESSED_BYTES
from core.io.files import FIFO_IDLE_TIMEOUT_S, MAX_FILE_BYTES, read_bytes
from core.io.header import MAX_COLUMNS, require_unique_names, require_width
from core.io.parquet import MAX_PARQUET_CELLS, MAX_PARQUET_UNPACKED_BYTES
from core.io.reading import READ_FORMATS, read_table
from core.io.text import DELIMITERS
from core.io.writing import (
    CSV_CHUNK_ROWS,
    WRITE_FORMATS,
    output_format,
    stream_table,
    table_to_bytes,
    write_table,
)

__all__ = [
    "CSV_CHUNK_ROWS",
    "DELIMITERS",
    "FIFO_IDLE_TIMEOUT_S",
    "MAX_CELL_CHARS",
    "MAX_COLUMNS",
    "MAX_FILE_BYTES",
    "MAX_PARQUET_CELLS",
    "MAX_PARQUET_UNPACKED_BYTES",
    "MAX_XLSX_CELLS",
    "MAX_XLSX_COMPRESSION_RATIO",
    "MAX_XLSX_UNCOMPRESSED_BYTES",
    "READ_FORMATS",
    "WRITE_FORMATS",
    "output_format",
    "read_bytes",
    "read_table",
    "require_unique_names",
    "require_width",
    "stream_table",
    "table_to_bytes",
    "write_table",
]
