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
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import datetime as dt
import io
import os
import re
import select
import stat
import zipfile
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pandas as pd

from core.errors import AnonymisationError, DataReadError, ParameterError, parser_message
from core.progress import ProgressFn, no_progress
from core.spreadsheet_safety import formula_like, neutralise_for_csv, text_only

__all__ = [
    "DELIMITERS",
    "READ_FORMATS",
    "WRITE_FORMATS",
    "read_bytes",
    "read_table",
    "table_to_bytes",
    "write_table",
]

DELIMITERS = (",", ";", "\t", "|")
"""Delimiters recognised automatically, in order of preference on a tie."""

READ_FORMATS = {
    ".csv": "csv",
    ".tsv": "csv",
    ".tab": "csv",
    ".txt": "csv",
    ".xlsx": "excel",
    ".xlsm": "excel",
    ".parquet": "parquet",
    ".pq": "parquet",
}
WRITE_FORMATS = ("csv", "tsv", "xlsx", "parquet")

#: Largest file read (a path, upload or bytes); a FIFO that sends nothing for
#: FIFO_IDLE_TIMEOUT_S seconds is abandoned. Devices such as /dev/zero are refused.
MAX_FILE_BYTES = 2**30
FIFO_IDLE_TIMEOUT_S = 5.0

#: Limits on what a workbook may unpack to (a .xlsx file is a zip archive of XML parts):
#: the sum of the parts' sizes, the compression ratio of any part larger than 1 MiB (real
#: sheets compress about 5-20 to 1; a zip bomb thousands to 1), and the cells: counted on
#: the XML of all sheets before openpyxl opens the workbook, and again while the chosen
#: sheet is read, as rows x widest row (the table it becomes). Larger: CSV or Parquet.
MAX_XLSX_UNCOMPRESSED_BYTES = 256 * 2**20
MAX_XLSX_COMPRESSION_RATIO = 100
MAX_XLSX_CELLS = 5_000_000
_RATIO_CHECK_FROM_BYTES = 2**20

#: Limits on what a Parquet file may unpack to. Its column encodings (dictionary, run
#: length) and compression let a file of a few KiB stand for billions of cells or one long
#: value repeated millions of times, so the cells are checked on the file's metadata and
#: the decoded size (text measured through its dictionaries) before any column is
#: decoded into the table. Larger tables: the DuckDB or Spark engine (README, "Scale").
MAX_PARQUET_CELLS = 500_000_000
MAX_PARQUET_UNPACKED_BYTES = 8 * 2**30

#: Longest text cell read from a delimited file or Parquet. The csv module's own limit
#: (131,072 characters) is lifted, so long free-text notes load; beyond this, an error
#: names the row and column.
MAX_CELL_CHARS = 10 * 2**20
#: Most columns read (a spreadsheet's limit, 16,384). Each column costs work of its own:
#: a 700 KB CSV of 80,000 one-digit columns took 18 s and 785 MB to read.
MAX_COLUMNS = 16_384
_CSV_FIELD_LIMIT = 2**31 - 1  # the csv module's limit is a C long; ours is checked after

_SAMPLE_CHARS = 64_000
_SAMPLE_LINES = 200
#: Bytes of a text file decoded to detect its delimiter and header: enough for
#: _SAMPLE_CHARS characters of UTF-8 (at most 4 bytes each) and one more.
_HEAD_BYTES = 4 * (_SAMPLE_CHARS + 1)
#: pyarrow parses text in blocks of this size on its threads; a record longer than a block
#: sends the file to the slower reading, whose blocks hold the longest record.
_QUICK_BLOCK_BYTES = 1 << 20
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
_NUMBER = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
_KEEP_AS_TEXT = re.compile(r"^(?:[+-]?0\d|\+)")
_MAX_DIGITS = 15
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


# --------------------------------------------------------------------------- reading


def read_table(
    source: str | Path | bytes | bytearray | memoryview | Any,
    *,
    sep: str | None = None,
    encoding: str | None = None,
    sheet_name: int | str = 0,
    name: str | None = None,
) -> pd.DataFrame:
    """Read a CSV/TSV/TXT, Excel (.xlsx) or Parquet table (PDPC guide, Step 1: know your data).

    Parameters
    ----------
    source:
        A filesystem path, the raw bytes of a file, or a binary file-like object such as a
        Streamlit ``UploadedFile`` (anything with ``getvalue()`` or ``read()``).
    sep:
        Delimiter of a text file; detected among ``, ; tab |`` when ``None``. ``"\\t"``
        typed as two characters is accepted for a tab.
    encoding:
        Text encoding; detected when ``None`` (UTF-8 with or without BOM, UTF-16/32 by BOM,
        then cp1252, then latin-1).
    sheet_name:
        Excel sheet, by position (0 = first) or name.
    name:
        File name used in messages, and to choose the format by its extension when
        ``source`` has none (bytes, or an object without ``.name``).

    Returns a new DataFrame; ``df.attrs["source"]`` records name, format, sep, encoding and
    sheet. Raises :class:`DataReadError` for every problem, with a message naming the file.
    """
    data, display, suffix = _load(source, name)
    if not _size(data):
        raise DataReadError(
            f"File '{display}' is empty (0 bytes). Choose the file that contains the data, "
            "or export the table again."
        )
    kind = _detect_format(_head(data, 8), suffix, display)
    if kind == "excel":
        df, sheet = _read_excel(_all_bytes(data), display, sheet_name)
        info = {"sep": None, "encoding": None, "sheet": sheet}
    elif kind == "parquet":
        df = _read_parquet(_all_bytes(data), display)
        info = {"sep": None, "encoding": None, "sheet": None}
    else:
        df, used_sep, used_encoding = _read_utf8_text(data, display, sep, encoding) or _read_text(
            _all_bytes(data), display, sep, encoding
        )
        info = {"sep": used_sep, "encoding": used_encoding, "sheet": None}
    df.attrs["source"] = {"name": display, "format": kind, **info}
    return df


def read_bytes(source: str | Path | bytes | Any, *, name: str | None = None) -> bytes:
    """All bytes of ``source`` (a path, bytes, or a file-like object), within the limits
    :func:`read_table` applies: at most :data:`MAX_FILE_BYTES`, no device or socket, a
    FIFO abandoned when idle. For files that are not tables (hierarchies)."""
    data, _, _ = _load(source, name)
    return _all_bytes(data)


def _load(source: Any, name: str | None) -> tuple[bytes | _RegularFile, str, str]:
    """The bytes of ``source`` (a regular file: a handle that reads them when needed), the
    name to show in messages, and the extension to use."""
    if isinstance(source, (str, Path)):
        path = Path(source).expanduser()
        display = name or str(source)
        data = _open_path(path, display)
        suffix = path.suffix or Path(name or "").suffix
        return data, display, suffix.lower()
    if isinstance(source, (bytes, bytearray, memoryview)):
        display = name or "uploaded data"
        return _within_size(bytes(source), display), display, Path(name or "").suffix.lower()
    if hasattr(source, "getvalue") or hasattr(source, "read"):
        own_name = getattr(source, "name", None)
        display = name or (str(own_name) if isinstance(own_name, (str, Path)) else "uploaded file")
        try:
            raw = (
                source.getvalue()
                if hasattr(source, "getvalue")
                else source.read(MAX_FILE_BYTES + 1)
            )
        except (OSError, ValueError) as exc:
            raise DataReadError(
                f"File '{display}' could not be read ({exc}). Upload or open it again."
            ) from exc
        if isinstance(raw, str):  # a text-mode stream: treat its text as UTF-8
            raw = raw.encode("utf-8")
        suffix = Path(str(own_name or "")).suffix or Path(name or "").suffix
        return _within_size(bytes(raw), display), display, suffix.lower()
    raise DataReadError(
        f"Cannot read a table from a {type(source).__name__}: give a file path, the file's "
        "bytes, or an uploaded file."
    )


def _within_size(data: bytes, display: str) -> bytes:
    _check_size(len(data), display)
    return data


def _check_size(size: int, display: str) -> None:
    if size > MAX_FILE_BYTES:
        raise DataReadError(
            f"File '{display}' is larger than {MAX_FILE_BYTES // 2**20:,} MiB, the most this tool "
            "reads. Take a sample or split the table, or remove columns you do not release."
        )


class _RegularFile:
    """A regular file, read when and as far as needed: its first bytes to detect the format,
    encoding and delimiter, a stream for pyarrow's parser (which reads it on its own
    threads while it parses), or all its bytes. Its size was checked when it was opened."""

    def __init__(self, path: Path, size: int, display: str) -> None:
        self.path, self.size, self.display = path, size, display

    def head(self, count: int) -> bytes:
        with self._errors(), self.path.open("rb") as file:
            return file.read(count)

    def read_all(self) -> bytes:
        with self._errors(), self.path.open("rb") as file:
            return _within_size(file.read(MAX_FILE_BYTES + 1), self.display)

    @contextlib.contextmanager
    def arrow_stream(self, offset: int):
        """The file from byte ``offset`` to the size it had when opened (a file that grows
        meanwhile is not read beyond the size checked)."""
        import pyarrow as pa

        with self._errors(), pa.OSFile(str(self.path)) as file:
            yield file.get_stream(offset, max(self.size - offset, 0))

    @contextlib.contextmanager
    def _errors(self):
        try:
            yield
        except OSError as exc:
            raise _unreadable(self.display, exc) from exc


def _unreadable(display: str, exc: OSError) -> DataReadError:
    return DataReadError(
        f"File '{display}' could not be opened ({exc.strerror or exc}). Check that you "
        "may read it and that no other program locks it."
    )


def _size(data: bytes | _RegularFile) -> int:
    return data.size if isinstance(data, _RegularFile) else len(data)


def _head(data: bytes | _RegularFile, count: int) -> bytes:
    return data.head(count) if isinstance(data, _RegularFile) else data[:count]


def _all_bytes(data: bytes | _RegularFile) -> bytes:
    return data.read_all() if isinstance(data, _RegularFile) else data


def _open_path(path: Path, display: str) -> bytes | _RegularFile:
    """A regular file up to MAX_FILE_BYTES (read later), or a FIFO's bytes (read now, with
    an idle time-out).

    Devices (``/dev/zero`` would never end), sockets and folders are refused. The type is
    checked before opening, because opening a FIFO without a writer blocks forever.
    """
    try:
        status = path.stat()
    except FileNotFoundError:
        raise DataReadError(
            f"File '{display}' not found. Check the path and the spelling of the file name."
        ) from None
    except OSError as exc:
        raise _unreadable(display, exc) from exc
    mode = status.st_mode
    if stat.S_ISDIR(mode):
        raise DataReadError(f"'{display}' is a folder, not a file. Choose a file inside it.")
    if stat.S_ISREG(mode):
        _check_size(status.st_size, display)
        return _RegularFile(path, status.st_size, display)
    if not stat.S_ISFIFO(mode):
        raise DataReadError(
            f"'{display}' is not a regular file (it is a device or a socket, which may never "
            "end). Save the table to a file and give that file's path."
        )
    try:
        return _within_size(_read_fifo(path, display), display)
    except OSError as exc:
        raise _unreadable(display, exc) from exc


def _read_fifo(path: Path, display: str) -> bytes:
    """Read a named pipe (or ``<(command)``) until its writer closes it.

    Opened without blocking; if no data arrives for FIFO_IDLE_TIMEOUT_S seconds (no writer,
    or a stalled one), a clear error is raised instead of waiting forever.
    """
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    chunks: list[bytes] = []
    size = 0
    try:
        while True:
            ready, _, _ = select.select([descriptor], [], [], FIFO_IDLE_TIMEOUT_S)
            if not ready:
                raise DataReadError(
                    f"'{display}' is a named pipe (FIFO) and nothing was written to it for "
                    f"{FIFO_IDLE_TIMEOUT_S:g} seconds. Start the program that writes to it "
                    "first, or save the table to a file and give that file's path."
                )
            try:
                chunk = os.read(descriptor, 2**20)
            except BlockingIOError:
                continue
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                return b"".join(chunks) + chunk  # _within_size names the limit
            chunks.append(chunk)
    finally:
        os.close(descriptor)


def _detect_format(data: bytes, suffix: str, display: str) -> str:
    if suffix == ".xls" or (not suffix and data.startswith(b"\xd0\xcf\x11\xe0")):
        raise DataReadError(
            f"File '{display}' is in the old Excel 97-2003 format (.xls), which is not "
            "supported. Open it in Excel or LibreOffice and save it as .xlsx or CSV."
        )
    if suffix:
        if suffix not in READ_FORMATS:
            known = ", ".join(sorted(READ_FORMATS))
            raise DataReadError(
                f"File '{display}' has the extension '{suffix}', which is not supported. "
                f"Supported extensions: {known}. Save the table in one of these formats."
            )
        return READ_FORMATS[suffix]
    if data.startswith(b"PK\x03\x04"):
        return "excel"
    if data.startswith(b"PAR1"):
        return "parquet"
    return "csv"


# ----------------------------------------------------------------------- delimited text


def _decode(data: bytes, display: str, encoding: str | None) -> tuple[str, str]:
    """Decode ``data``; return the text and the name of the encoding used."""
    if encoding is not None:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError as exc:
            raise DataReadError(
                f"Unknown encoding '{encoding}' for file '{display}'. Use a name such as "
                "'utf-8', 'cp1252' or 'latin-1', or leave it empty to detect it."
            ) from exc
        if codec == "utf-8" and data.startswith(codecs.BOM_UTF8):
            codec = "utf-8-sig"
        try:
            return data.decode(codec), encoding
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            bad = data[exc.start : exc.start + 1].hex()
            raise DataReadError(
                f"File '{display}' cannot be decoded as '{encoding}': byte 0x{bad} at byte "
                f"offset {exc.start} (line {line}) is not valid in that encoding. Leave the "
                "encoding empty to detect it, or try 'utf-8', 'cp1252' or 'latin-1'."
            ) from exc
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(codec), codec
            except UnicodeDecodeError as exc:
                raise DataReadError(
                    f"File '{display}' starts with a {codec.upper()} byte-order mark but byte "
                    f"offset {exc.start} is not valid {codec.upper()}. The file is probably "
                    "damaged: export it again."
                ) from exc
    for codec in ("utf-8", "cp1252", "latin-1"):
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes every byte")  # pragma: no cover


def _normalise_sep(sep: str, display: str) -> str:
    if sep in ("\\t", "tab", "TAB"):
        return "\t"
    if not isinstance(sep, str) or len(sep) != 1 or sep in '"\r\n':
        raise DataReadError(
            f"Delimiter {sep!r} for file '{display}' is not usable: give a single character "
            "such as ',' ';' '|' or a tab, or leave it empty to detect it."
        )
    return sep


def _sample_lines(text: str) -> list[str]:
    sample = text[:_SAMPLE_CHARS]
    lines = sample.splitlines()
    if len(text) > _SAMPLE_CHARS and len(lines) > 1:
        lines = lines[:-1]  # the last line of a truncated sample may be cut in half
    return [line for line in lines if line.strip()][:_SAMPLE_LINES]


def _field_counts(lines: list[str], sep: str) -> list[int]:
    return [len(row) for row in csv.reader(lines, delimiter=sep)]


def _detect_sep(text: str) -> str:
    """Pick the delimiter: the one candidate that splits every sample line into the same
    number of fields (more than one); of several, the one giving the most fields (a tie:
    the first of :data:`DELIMITERS`); of none, the one splitting the header line into the
    most fields (the full check then names the first line that differs).

    Fields are counted by the csv module, so a delimiter inside quotes does not count.
    ``csv.Sniffer`` is not used: its regular expressions backtrack without bound on quotes
    (a 270-byte file took 38 s, a 62 KB one minutes); counting is linear in the sample."""
    lines = _sample_lines(text)
    if not lines:
        return ","
    consistent: dict[str, int] = {}
    for candidate in DELIMITERS:
        counts = _field_counts(lines, candidate)
        if counts and counts[0] > 1 and all(c == counts[0] for c in counts):
            consistent[candidate] = counts[0]
    if consistent:
        return max(consistent, key=lambda c: (consistent[c], -DELIMITERS.index(c)))
    in_header = {c: _field_counts(lines[:1], c)[0] for c in DELIMITERS}
    best = max(DELIMITERS, key=lambda c: (in_header[c], -DELIMITERS.index(c)))
    return best if in_header[best] > 1 else ","


def _first_bad_line(text: str, sep: str, expected: int) -> tuple[int, int] | None:
    """(line number, field count) of the first record whose field count differs."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    counts = np.fromiter(map(len, reader), dtype=np.int64)
    bad = np.flatnonzero((counts != expected) & (counts != 0))
    if bad.size == 0:
        return None
    target = int(bad[0])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    start = 1
    for index, _row in enumerate(reader):
        if index == target:
            return start, int(counts[target])
        start = reader.line_num + 1
    return None  # pragma: no cover


def _read_utf8_text(
    data: bytes | _RegularFile, display: str, sep: str | None, encoding: str | None
) -> tuple[pd.DataFrame, str, str] | None:
    """The quick way through UTF-8 text, which most exports are: only the file's head is
    decoded (to detect the delimiter and read the header), and pyarrow's parser reads the
    rest straight from the file or the bytes, checking that it is UTF-8 as it parses.

    It gives the table :func:`_read_text` would give, or ``None`` when that function must
    decide: another encoding, a head it does not settle (a header longer than the head,
    a delimiter absent from it, blank or binary content), a row longer than a parser block,
    or any problem, whose message :func:`_read_text` words (naming the line or byte).
    """
    import pyarrow as pa

    if encoding is not None:
        try:
            if codecs.lookup(encoding).name != "utf-8":
                return None
        except LookupError:
            return None
    size = _size(data)
    head = _head(data, _HEAD_BYTES)
    whole = len(head) >= size
    if any(head.startswith(bom) for bom, _ in _BOMS if bom != codecs.BOM_UTF8):
        return None  # UTF-16 or UTF-32
    skip = len(codecs.BOM_UTF8) if head.startswith(codecs.BOM_UTF8) else 0
    try:  # a character cut at the end of the head is completed by the rest of the file
        text = codecs.getincrementaldecoder("utf-8")().decode(head[skip:], final=whole)
    except UnicodeDecodeError:
        return None
    if "\x00" in text or not text or text.isspace():
        return None
    if sep is None:
        # the head holds more than the _SAMPLE_CHARS characters the detection samples, so
        # it chooses as on the whole text
        used_sep = _detect_sep(text)
    else:
        used_sep = _normalise_sep(sep, display)
        if used_sep not in text:
            return None
    complete_lines = text if whole else text[: text.rfind("\n") + 1]
    _lift_csv_field_limit()
    reader = csv.reader(_lines(complete_lines), delimiter=used_sep)
    try:
        header = next((row for row in reader if row), None)
    except csv.Error:
        return None
    if header is None or (not whole and reader.line_num >= complete_lines.count("\n")):
        return None  # the header may go on beyond the head
    require_width(len(header), display)
    try:
        if isinstance(data, _RegularFile):
            with data.arrow_stream(skip) as stream:
                table = _arrow_csv(stream, used_sep, len(header), _QUICK_BLOCK_BYTES)
        else:
            table = _arrow_csv(
                pa.BufferReader(memoryview(data)[skip:]), used_sep, len(header), _QUICK_BLOCK_BYTES
            )
    except (pa.ArrowException, DataReadError):
        return None
    if _holds_nul(table):
        return None
    used_encoding = encoding if encoding is not None else ("utf-8-sig" if skip else "utf-8")
    return _frame_from_text_columns(table, header, display, size), used_sep, used_encoding


def _holds_nul(table: Any) -> bool:
    """Whether any value of the parsed text holds a NUL byte (binary data)."""
    texts = (chunk.buffers()[2] for column in table.columns for chunk in column.chunks)
    return any(text and np.frombuffer(text, np.uint8).min() == 0 for text in texts)


def _read_text(
    data: bytes, display: str, sep: str | None, encoding: str | None
) -> tuple[pd.DataFrame, str, str]:
    """Any encoding: the whole file is decoded (detecting the encoding), checked, and
    given to pyarrow's parser as UTF-8. Every problem is named here."""
    text, used_encoding = _decode(data, display, encoding)
    _lift_csv_field_limit()
    if "\x00" in text:
        raise DataReadError(
            f"File '{display}' contains binary data (NUL bytes), so it is not a text table. "
            "If it is an Excel or Parquet file, give it the right extension (.xlsx, .parquet)."
        )
    if not text or text.isspace():  # without copying the text
        raise DataReadError(
            f"File '{display}' contains only blank lines: there is no header and no data. "
            "Choose the file that contains the data."
        )
    if sep is None:
        used_sep = _detect_sep(text)
    else:
        used_sep = _normalise_sep(sep, display)
        if used_sep not in text:
            detected = _detect_sep(text)
            hint = (
                f" The file seems to use {_DELIMITER_NAMES.get(detected, repr(detected))} "
                f"({detected!r})."
                if detected in text
                else ""
            )
            raise DataReadError(
                f"The delimiter {used_sep!r} does not occur in file '{display}'.{hint} Give "
                "the right delimiter, or leave it empty to detect it."
            )

    try:
        header = next((row for row in csv.reader(_lines(text), delimiter=used_sep) if row), [])
    except csv.Error as exc:  # e.g. a carriage return alone inside the header's line
        raise DataReadError(
            f"File '{display}': the header row cannot be read ({exc}). Lines must end with a "
            "line feed (Windows or Unix line ends); save the file again as CSV."
        ) from exc
    require_width(len(header), display)
    utf8 = data if used_encoding in ("utf-8", "utf-8-sig") else text.encode("utf-8")
    del text  # the parser reads the bytes; the decoded text is not needed any more
    if utf8.startswith(codecs.BOM_UTF8):
        utf8 = utf8[len(codecs.BOM_UTF8) :]
    table = _parse_csv(utf8, display, used_sep, header)
    return _frame_from_text_columns(table, header, display, len(utf8)), used_sep, used_encoding


def _frame_from_text_columns(
    table: Any, header: list[str], display: str, size: int
) -> pd.DataFrame:
    """The DataFrame of the parsed text: the text/number rule per column (module doc), the
    header checks, and the cell-length limit."""
    import pyarrow as pa
    import pyarrow.compute as pc

    # A cell has at most as many characters as bytes: a chunk whose text is within the limit
    # in bytes, or whose longest value is, needs no count of characters.
    maybe_too_long = size > MAX_CELL_CHARS and any(
        chunk.buffers()[2].size > MAX_CELL_CHARS
        and (pc.max(pc.binary_length(chunk)).as_py() or 0) > MAX_CELL_CHARS
        for column in table.columns
        for chunk in column.chunks
        if chunk.buffers()[2] is not None
    )
    with ThreadPoolExecutor(max_workers=2) as pool:  # pyarrow and NumPy release the GIL
        columns = list(pool.map(lambda c: _numbers_or_none(c) or c, table.columns))
    df = pa.table(columns, names=table.column_names).to_pandas(split_blocks=True)
    df = _apply_header(df, [h.strip() for h in header], display)
    if maybe_too_long:
        _check_cell_lengths(df, display)
    return df


def _lift_csv_field_limit() -> None:
    if csv.field_size_limit() < _CSV_FIELD_LIMIT:
        csv.field_size_limit(_CSV_FIELD_LIMIT)  # process-wide; MAX_CELL_CHARS is ours


def _lines(text: str):
    """The lines of ``text`` one at a time, without copying the whole text (the header may
    follow blank lines and hold quoted line breaks, so the csv module reads the lines)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end + 1
        yield text[start:end]
        start = end


def _arrow_csv(source: Any, sep: str, width: int, block_bytes: int, bad: list | None = None) -> Any:
    """Every field of the delimited text in ``source`` as text, the header row skipped
    (pyarrow's multi-threaded parser; only "" is missing). A record whose field count is
    not ``width`` makes it raise ``ArrowInvalid`` (and is appended to ``bad``), as does a
    record longer than ``block_bytes``."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    def refuse(row: Any) -> str:
        if bad is not None:
            bad.append(row)
        return "error"

    placeholders = [f"_c{i}" for i in range(width)]
    return pa_csv.read_csv(
        source,
        read_options=pa_csv.ReadOptions(
            # the header is read by the csv module
            skip_rows=0,
            column_names=placeholders,
            block_size=block_bytes,
        ),
        parse_options=pa_csv.ParseOptions(
            delimiter=sep, newlines_in_values=True, invalid_row_handler=refuse
        ),
        convert_options=pa_csv.ConvertOptions(
            # large_string is the type pandas' text columns hold: to_pandas need not convert
            column_types=dict.fromkeys(placeholders, pa.large_string()),
            null_values=[""],
            strings_can_be_null=True,
            quoted_strings_can_be_null=True,
        ),
    ).slice(1)  # the header row


def _parse_csv(utf8: bytes, display: str, sep: str, header: list[str]) -> Any:
    """:func:`_arrow_csv` on the whole text, in blocks that hold the longest record; a
    record whose field count differs from the header's is refused with its line number."""
    import pyarrow as pa

    bad: list[Any] = []
    try:
        return _arrow_csv(
            io.BytesIO(utf8),
            sep,
            len(header),
            max(_QUICK_BLOCK_BYTES, min(len(utf8) + 1, 64 << 20)),
            bad,
        )
    except (pa.ArrowInvalid, pa.ArrowException) as exc:
        if bad:
            problem = _first_bad_line(utf8.decode("utf-8"), sep, len(header))
            if problem is not None:
                line, found = problem
                raise DataReadError(
                    f"File '{display}': line {line} has {found} field(s) but the header has "
                    f"{len(header)} (delimiter {sep!r}). Check that line for a missing or extra "
                    f"delimiter or an unclosed quote, or choose another delimiter."
                ) from exc
        raise DataReadError(
            f"File '{display}' could not be parsed as a table with delimiter {sep!r} "
            f"({parser_message(exc)}). Check the delimiter and the quotes in the file."
        ) from exc


def _check_cell_lengths(df: pd.DataFrame, display: str) -> None:
    """Refuse a text cell longer than :data:`MAX_CELL_CHARS`, naming its row and column."""
    for column in df.columns:
        series = df[column]
        if not (pd.api.types.is_string_dtype(series) or series.dtype == object):
            continue
        try:
            lengths = series.str.len()
        except AttributeError:  # an object column that holds no text
            continue
        too_long = (lengths > MAX_CELL_CHARS).to_numpy(dtype=bool, na_value=False)
        if too_long.any():
            row = int(too_long.nonzero()[0][0])
            raise DataReadError(
                f"File '{display}': the cell in row {row + 1}, column {str(column)!r} holds "
                f"{int(lengths.iloc[row]):,} characters, more than the {MAX_CELL_CHARS:,} this "
                "tool reads in one cell. Shorten or remove that text (free text rarely belongs "
                "in an anonymised release), or split it over several columns."
            )


# ---------------------------------------------------------------------- header, types


def require_width(columns: int, display: str) -> None:
    """Refuse a table of more than :data:`MAX_COLUMNS` columns, before it is built."""
    if columns > MAX_COLUMNS:
        raise DataReadError(
            f"File '{display}' has {columns:,} columns, more than the {MAX_COLUMNS:,} this tool "
            "reads (a spreadsheet's limit). Keep the columns you need, or check the delimiter."
        )


def require_unique_names(names: list[str], display: str) -> None:
    """Refuse a header that names a column twice (after stripping spaces): a reader would
    keep one of the two, or both under one name, and count the wrong one."""
    seen: dict[str, int] = {}
    for n in names:
        seen[n] = seen.get(n, 0) + 1
    duplicates = [n for n, count in seen.items() if count > 1]
    if duplicates:
        listed = ", ".join(repr(d) for d in duplicates)
        raise DataReadError(
            f"File '{display}': the column name(s) {listed} appear more than once in the "
            "header. Rename the columns so that every name is unique."
        )


def _apply_header(df: pd.DataFrame, names: list[str], display: str) -> pd.DataFrame:
    """Check the header names, drop empty unnamed columns, refuse a table without rows."""
    blank_empty = [
        i for i, n in enumerate(names) if n == "" and df.iloc[:, i].isna().all() and len(df)
    ]
    if blank_empty:
        keep = [i for i in range(len(names)) if i not in blank_empty]
        df = df.iloc[:, keep]
        names = [names[i] for i in keep]
    blank = [i + 1 for i, n in enumerate(names) if n == ""]
    if blank:
        where = ", ".join(str(i) for i in blank)
        raise DataReadError(
            f"File '{display}': column(s) number {where} have no name in the header row. "
            "Give every column a name in the first row."
        )
    require_unique_names(names, display)
    if len(df) == 0:
        raise DataReadError(
            f"File '{display}' has a header row ({len(names)} column(s)) but no data rows. "
            "Choose the file that contains the records."
        )
    df = df.copy(deep=False)  # renaming needs no copy of the data
    df.columns = names
    return df.reset_index(drop=True)


def _to_number_or_text(values: pd.Series) -> pd.Series:
    """Convert a text column to numbers when it is entirely numeric (see module doc)."""
    import pyarrow as pa

    array = pa.array(values.astype(object).where(values.notna(), None), type=pa.string())
    numbers = _numbers_or_none(array)
    if numbers is None:
        return values
    return pd.Series(numbers.to_pandas(), index=values.index, name=values.name)


def _numbers_or_none(array: Any) -> Any:
    """The pyarrow text ``array`` as int64 (no missing values) or float64 numbers when
    every present value is a plain decimal number with no leading zero, no ``+`` and at
    most 15 digits (module doc); ``None`` when it stays text. Vectorised in pyarrow."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if array.null_count == len(array):
        return None
    # Judge a sample first: text columns and identifiers with leading zeros fail at once.
    if not _plain_numbers(pc.utf8_trim_whitespace(array.slice(0, 1000).drop_null())):
        return None
    whole = _canonical_integers(array)
    if whole is not None:
        return whole if array.null_count == 0 else pc.cast(whole, pa.float64())
    if not _plain_numbers(pc.utf8_trim_whitespace(pc.unique(array.drop_null()))):
        return None
    trimmed = pc.utf8_trim_whitespace(array)
    if array.null_count == 0:
        try:
            return pc.cast(trimmed, pa.int64())
        except pa.ArrowInvalid:
            pass  # decimals or exponents: floats, as pandas.to_numeric gives
    return pc.cast(trimmed, pa.float64())


def _plain_numbers(stripped: Any) -> bool:
    """Every value of the pyarrow text array is a number that the rules let be a number."""
    import pyarrow.compute as pc

    if len(stripped) == 0:
        return True
    return bool(
        pc.all(pc.match_substring_regex(stripped, _NUMBER.pattern)).as_py()
        and not pc.any(pc.match_substring_regex(stripped, _KEEP_AS_TEXT.pattern)).as_py()
        and pc.max(pc.count_substring_regex(stripped, r"\d")).as_py() <= _MAX_DIGITS
    )


_MINUS, _PLUS, _ZERO = b"-+0"


def _canonical_integers(array: Any) -> Any:
    """The array as int64 when every present value is written exactly as Python writes
    the integer (optional '-', no leading zero, no '+', no spaces, at most 15 digits): the
    common case, checked by one cast and a look at each value's first bytes and length.

    The cast accepts only an optional '-' then digits, or a '0x' hexadecimal literal; both
    a leading zero and '0x' start with '0', so refusing a '0' (or '-0') that is not the
    whole value leaves digits written as Python writes them. Values the check refuses go
    to the general rule in :func:`_numbers_or_none`."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        numbers = pc.cast(array, pa.int64())
    except pa.ArrowInvalid:
        return None
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    for chunk in chunks:
        if len(chunk) == chunk.null_count:
            continue
        starts, lengths, data = _value_extents(chunk)
        first = data[starts]
        minus = first == _MINUS
        if (
            (first == _PLUS).any()
            or ((first == _ZERO) & (lengths > 1)).any()
            or (lengths - minus > _MAX_DIGITS).any()
            or (minus.any() and (data[starts[minus] + 1] == _ZERO).any())
        ):
            return None
    return numbers


def _value_extents(chunk: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start offsets and byte lengths of the present values of a pyarrow string array,
    and its bytes, read from its buffers without copying the text."""
    import pyarrow as pa

    if pa.types.is_large_string(chunk.type):
        width = np.int64
    else:
        width = np.int32
        if not pa.types.is_string(chunk.type):  # e.g. a string view from DuckDB
            chunk = chunk.cast(pa.string())
    _, offsets, data = chunk.buffers()
    item = np.dtype(width).itemsize
    bounds = np.frombuffer(offsets, width, count=len(chunk) + 1, offset=chunk.offset * item)
    starts, lengths = bounds[:-1], np.diff(bounds)
    if chunk.null_count:
        present = chunk.is_valid().to_numpy(zero_copy_only=False)
        starts, lengths = starts[present], lengths[present]
    return starts, lengths, np.frombuffer(data, np.uint8)


# ------------------------------------------------------------------------------ Excel


#: What zipfile raises on a damaged archive or member (a fuzzed workbook raised each).
_DAMAGED_ZIP = (zipfile.BadZipFile, ValueError, OSError, EOFError, zlib.error, NotImplementedError)


def _damaged_xlsx(display: str, exc: BaseException) -> DataReadError:
    return DataReadError(
        f"File '{display}' is not a readable Excel .xlsx workbook (it may be damaged or in "
        f"another format: {parser_message(exc)}). Open it in Excel or LibreOffice and save it again as .xlsx "
        "or CSV."
    )


def _check_xlsx_archive(data: bytes, display: str) -> None:
    """Refuse a workbook whose zip members would decompress to too much (a zip bomb).

    Only the zip's directory is read: each member's declared size (Python's zipfile never
    inflates a member beyond it) and its compressed size. Nothing is decompressed here.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except _DAMAGED_ZIP as exc:
        raise _damaged_xlsx(display, exc) from exc
    total = sum(member.file_size for member in members)
    if total > MAX_XLSX_UNCOMPRESSED_BYTES:
        raise DataReadError(
            f"File '{display}' would unpack to {total / 2**20:,.0f} MiB, more than the "
            f"{MAX_XLSX_UNCOMPRESSED_BYTES // 2**20} MiB this tool reads from a workbook. Save "
            "the sheet as CSV or Parquet, or split it."
        )
    for member in members:
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > _RATIO_CHECK_FROM_BYTES and ratio > MAX_XLSX_COMPRESSION_RATIO:
            raise DataReadError(
                f"File '{display}': part {member.filename!r} is compressed {ratio:,.0f} to 1, "
                f"more than the {MAX_XLSX_COMPRESSION_RATIO} to 1 of a real workbook (it looks "
                "like a zip bomb). Open it in Excel or LibreOffice and save it again, or save "
                "the sheet as CSV."
            )
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        cells = 0
        for member in members:
            if member.filename.lower().endswith(".xml"):
                try:
                    cells += _count_cell_elements(archive, member)
                except _DAMAGED_ZIP as exc:  # a member whose bytes are damaged
                    raise _damaged_xlsx(display, exc) from exc
            if cells > MAX_XLSX_CELLS:
                raise DataReadError(
                    f"File '{display}' holds more than {MAX_XLSX_CELLS:,} cells, the most this "
                    "tool reads from a workbook (all sheets together). Save the sheet as CSV or "
                    "Parquet, or split the workbook."
                )


def _count_cell_elements(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> int:
    """The number of ``<c>`` (cell) elements in one XML part, counted in 1 MiB chunks.

    openpyxl parses every sheet that lacks a ``<dimension>`` element in full as soon as
    the workbook is opened, so cells are counted on the raw XML first: a plain byte count
    per chunk (about a second for five million cells, constant memory). The tag's
    namespace prefix, if any, is taken from the part's root element.
    """
    count = 0
    with archive.open(member) as source:
        chunk = source.read(2**20)
        root = re.search(rb"<(?:([A-Za-z_][\w.-]*):)?[A-Za-z_][\w.-]*[\s>/]", chunk)
        prefix = root.group(1) + b":" if root and root.group(1) else b""
        tags = [b"<" + prefix + b"c" + end for end in (b" ", b">", b"/", b"\t", b"\n", b"\r")]
        tail = b""
        while chunk:
            buffer = tail + chunk
            count += sum(buffer.count(tag) for tag in tags)
            # a tag cut by the chunk's end is counted whole in the next buffer; one that
            # ends inside the kept tail was counted here and cannot fit in the tail again
            tail = buffer[-(len(prefix) + 2) :]
            chunk = source.read(2**20)
    return count


def _excel_cell(cell: Any) -> Any:
    """A cell's value as pandas' openpyxl reader gives it ('' when empty, NaN for errors)."""
    value = cell.value
    if value is None:
        return ""
    if cell.data_type == "e":
        return np.nan
    if cell.data_type == "n":
        whole = int(value)
        return whole if whole == value else float(value)
    return value


def _sheet_rows(sheet: Any, where: str) -> list[list[Any]]:
    """The sheet's cell values row by row, refused beyond :data:`MAX_XLSX_CELLS`.

    The sheet's declared dimension is ignored (it may be wrong, or claim millions of rows):
    the extent is counted while reading. Rows are padded to the widest row afterwards, so
    the grid that counts is rows x widest row, checked after every row.
    """
    sheet.reset_dimensions()
    rows: list[list[Any]] = []
    width = 1
    last_with_data = -1
    for number, row in enumerate(sheet.rows, start=1):
        values = [_excel_cell(cell) for cell in row]
        while values and values[-1] == "":
            values.pop()
        if values:
            last_with_data = number - 1
            width = max(width, len(values))
        if number * width > MAX_XLSX_CELLS:
            raise DataReadError(
                f"Sheet '{where}' has more than {MAX_XLSX_CELLS:,} cells (row {number:,} x "
                f"{width:,} columns so far), the most this tool reads from a workbook. Save "
                "the sheet as CSV or Parquet, or delete the unused rows and columns."
            )
        rows.append(values)
    return rows[: last_with_data + 1]


def _read_excel(data: bytes, display: str, sheet_name: int | str) -> tuple[pd.DataFrame, str]:
    _check_xlsx_archive(data, display)
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    except Exception as exc:  # openpyxl raises many types on damaged content
        raise DataReadError(
            f"File '{display}' is not a readable Excel .xlsx workbook (it may be damaged or "
            f"in another format: {parser_message(exc)}). Open it in Excel or LibreOffice and save it again "
            "as .xlsx or CSV."
        ) from exc
    try:
        sheets = [worksheet.title for worksheet in book.worksheets]
        if isinstance(sheet_name, bool) or not isinstance(sheet_name, (int, str)):
            raise DataReadError(
                f"Sheet {sheet_name!r} for file '{display}' must be a sheet name or a position "
                f"(0 = first). Sheets: {', '.join(repr(s) for s in sheets)}."
            )
        if isinstance(sheet_name, int):
            if not 0 <= sheet_name < len(sheets):
                raise DataReadError(
                    f"File '{display}' has {len(sheets)} sheet(s), so there is no sheet at "
                    f"position {sheet_name} (0 = first). Sheets: "
                    f"{', '.join(repr(s) for s in sheets)}."
                )
            sheet = sheets[sheet_name]
        else:
            if sheet_name not in sheets:
                raise DataReadError(
                    f"File '{display}' has no sheet named '{sheet_name}'. Sheets: "
                    f"{', '.join(repr(s) for s in sheets)}."
                )
            sheet = sheet_name
        try:
            rows = _sheet_rows(book[sheet], f"{sheet}' of file '{display}")
        except DataReadError:
            raise
        except Exception as exc:  # openpyxl raises many types on damaged content
            raise DataReadError(
                f"Sheet '{sheet}' of file '{display}' could not be read ({parser_message(exc)}). The workbook "
                "may be damaged: open it in Excel or LibreOffice and save it again."
            ) from exc
    finally:
        book.close()
    width = max((len(row) for row in rows), default=0)
    raw = pd.DataFrame([row + [""] * (width - len(row)) for row in rows], dtype=object)
    raw = raw.replace("", np.nan)
    raw = raw.dropna(how="all").dropna(axis=1, how="all")
    if raw.empty:
        raise DataReadError(
            f"Sheet '{sheet}' of file '{display}' is empty. Choose the sheet that holds the "
            "table (sheet_name)."
        )
    names = ["" if pd.isna(v) else _cell_name(v) for v in raw.iloc[0]]
    body = raw.iloc[1:].reset_index(drop=True)
    body.columns = [f"_c{i}" for i in range(body.shape[1])]
    df = _apply_header(body, names, f"{display}' sheet '{sheet}")
    columns = {c: _excel_column(df[c]) for c in df.columns}
    out = pd.DataFrame(columns, index=df.index)
    return out, sheet


def _cell_name(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _excel_column(values: pd.Series) -> pd.Series:
    present = values.dropna()
    if present.empty:
        return values.astype(float)
    kinds = {type(v) for v in present}
    if all(issubclass(k, (int, float, np.integer, np.floating)) for k in kinds) and not any(
        issubclass(k, bool) for k in kinds
    ):
        return pd.to_numeric(values.where(values.notna(), np.nan))
    if all(issubclass(k, (pd.Timestamp, np.datetime64)) or k.__name__ == "datetime" for k in kinds):
        return pd.to_datetime(values)
    text = values.map(lambda v: v if pd.isna(v) else _cell_name(v) if isinstance(v, float) else v)
    text = text.astype(str).where(values.notna(), np.nan).astype("str")
    return _to_number_or_text(text)


# ---------------------------------------------------------------------------- Parquet


def _read_parquet(data: bytes, display: str) -> pd.DataFrame:
    import pyarrow.parquet as pq
    import pyarrow.types as pa_types

    try:
        schema = pq.read_schema(io.BytesIO(data))
    except Exception as exc:  # pyarrow raises ArrowInvalid, OSError, ... on damaged files
        raise DataReadError(
            f"File '{display}' is not a readable Parquet file (it may be damaged or in another "
            f"format: {parser_message(exc)}). Export the table again."
        ) from exc
    require_width(len(schema.names), display)
    require_unique_names([str(n).strip() for n in schema.names], display)
    nested = [str(f.name) for f in schema if pa_types.is_nested(f.type)]
    if nested:  # checked on the schema, before the data is read
        listed = ", ".join(repr(n) for n in nested)
        raise DataReadError(
            f"File '{display}': column(s) {listed} hold nested values (lists, structs or "
            "maps), which a table of one value per cell cannot hold. Flatten them into plain "
            "columns first (e.g. one column per struct field), or drop them."
        )
    try:
        rows = pq.read_metadata(io.BytesIO(data)).num_rows
        if rows * len(schema) > MAX_PARQUET_CELLS:
            raise DataReadError(
                f"File '{display}' holds {rows * len(schema):,} cells ({rows:,} rows x "
                f"{len(schema):,} columns), more than the {MAX_PARQUET_CELLS:,} this tool "
                "reads into memory. Use --engine duckdb (or spark), or select fewer rows "
                "or columns first."
            )
        text = [f.name for f in schema if _is_text(f.type)]
        # Text stays dictionary-encoded until its decoded size is known to be within bounds.
        table = pq.read_table(io.BytesIO(data), read_dictionary=text)
        unpacked = table.nbytes - sum(table[name].nbytes for name in text)
        unpacked += sum(_decoded_text_bytes(table[name]) for name in text)
        if unpacked > MAX_PARQUET_UNPACKED_BYTES:
            raise DataReadError(
                f"File '{display}' would unpack to {unpacked:,} bytes, more than the "
                f"{MAX_PARQUET_UNPACKED_BYTES:,} this tool reads into memory (a file of "
                f"{len(data):,} bytes: its values repeat through dictionaries or "
                "compression). Use --engine duckdb (or spark), or check where the file "
                "came from."
            )
        table = _decode_dictionaries(table, text)
    except DataReadError:
        raise
    except Exception as exc:  # pyarrow raises ArrowInvalid, OSError, ... on damaged files
        raise DataReadError(
            f"File '{display}' is not a readable Parquet file (it may be damaged or in another "
            f"format: {parser_message(exc)}). Export the table again."
        ) from exc
    names = [str(n).strip() for n in table.column_names]
    placeholder = table.rename_columns([f"_c{i}" for i in range(len(names))])
    try:
        body = placeholder.to_pandas()
    except Exception as exc:
        raise DataReadError(
            f"File '{display}' holds column types that cannot be converted to a table ({parser_message(exc)})."
        ) from exc
    body.attrs = {}
    return _apply_header(body, names, display)


def _is_text(arrow_type) -> bool:
    import pyarrow.types as pa_types

    if pa_types.is_dictionary(arrow_type):
        arrow_type = arrow_type.value_type
    return (
        pa_types.is_string(arrow_type)
        or pa_types.is_large_string(arrow_type)
        or (pa_types.is_binary(arrow_type) or pa_types.is_large_binary(arrow_type))
    )


def _decoded_text_bytes(column) -> int:
    """Bytes of text ``column`` (dictionary-encoded) holds once every index is decoded."""
    import pyarrow.compute as pc

    total = 0
    for chunk in column.chunks:
        lengths = pc.binary_length(chunk.dictionary).fill_null(0).to_numpy().astype(np.int64)
        indices = chunk.indices.fill_null(0).to_numpy()
        uses = np.bincount(indices, minlength=len(lengths))  # how often each value is used
        total += int(uses @ lengths) + 8 * len(chunk)  # text, then offsets and validity
    return total


def _decode_dictionaries(table, text: list[str]):
    """``table`` with its text columns as plain text again, as Parquet without dictionaries
    reads (a dictionary column would become a pandas Categorical)."""
    for name in text:
        column = table[name]
        if hasattr(column.type, "value_type"):
            position = table.schema.get_field_index(name)
            table = table.set_column(position, name, column.cast(column.type.value_type))
    return table


# ---------------------------------------------------------------------------- writing


def table_to_bytes(df: pd.DataFrame, fmt: str, *, header: bool = True) -> bytes:
    """The table as a file's bytes for a download: ``fmt`` in csv, tsv, xlsx, parquet.

    CSV/TSV are UTF-8 without byte-order mark, without the index. Text columns stay text in
    xlsx and parquet, so identifiers with leading zeros survive the round trip. No cell or
    column name is written as a live formula (:mod:`core.spreadsheet_safety`): in CSV/TSV a
    text cell such as ``=1+1`` becomes ``'=1+1``; in xlsx it is a text cell. The same table
    always gives the same bytes (xlsx carries fixed timestamps). ``header=False`` leaves
    out the CSV/TSV header row (a later batch of a table written batch by batch).
    """
    buffer = io.BytesIO()
    stream_table(buffer, df, fmt, header=header)
    return buffer.getvalue()


# CSV/TSV are encoded this many rows at a time: progress is heard and Ctrl-C is honoured
# while a large release is written, and no second copy of the whole text is held.
CSV_CHUNK_ROWS = 100_000


def stream_table(
    handle: BinaryIO,
    df: pd.DataFrame,
    fmt: str,
    progress: ProgressFn | None = None,
    *,
    header: bool = True,
) -> None:
    """Write the table to a binary file ``handle``: the bytes of :func:`table_to_bytes`.

    CSV/TSV go out in chunks of rows (``progress`` hears the share of rows written);
    xlsx and parquet are encoded whole, then written.
    """
    fmt = str(fmt).lower().lstrip(".")
    if fmt in ("excel", "xls"):
        fmt = "xlsx"
    if fmt not in WRITE_FORMATS:
        raise ParameterError(
            f"Parameter 'fmt' must be one of {', '.join(WRITE_FORMATS)}, got {fmt!r}."
        )
    report = progress or no_progress
    plain = df.copy(deep=False)  # attrs dropped on a shallow copy: the data is not copied
    plain.attrs = {}
    if fmt in ("csv", "tsv"):
        safe = neutralise_for_csv(plain)
        # Python < 3.12 leaves a field holding a lone carriage return unquoted, and a
        # spreadsheet then starts a new row there (where "=..." would be a live formula);
        # such a table is written with every text field quoted.
        quoting = csv.QUOTE_NONNUMERIC if _has_carriage_return(safe) else csv.QUOTE_MINIMAL
        sep = "," if fmt == "csv" else "\t"
        rows = len(safe)
        for start in range(0, max(rows, 1), CSV_CHUNK_ROWS):
            part = safe.iloc[start : start + CSV_CHUNK_ROWS]
            text = part.to_csv(
                index=False,
                header=header and start == 0,
                sep=sep,
                lineterminator="\n",
                quoting=quoting,
            )
            handle.write(text.encode("utf-8"))
            done = min(start + CSV_CHUNK_ROWS, rows)
            report(done / rows if rows else 1.0, f"{done:,} of {rows:,} records written")
        return
    if fmt == "xlsx":
        handle.write(_xlsx_bytes(plain))
        report(1.0, "table written")
        return
    buffer = io.BytesIO()
    try:
        plain.columns = [str(c) for c in plain.columns]
        plain.to_parquet(buffer, index=False, engine="pyarrow")
    except (ValueError, TypeError, ImportError) as exc:
        raise AnonymisationError(
            f"The table cannot be saved as {fmt} ({exc}). Choose another format, e.g. csv."
        ) from exc
    handle.write(buffer.getbuffer())
    report(1.0, "table written")


def _has_carriage_return(df: pd.DataFrame) -> bool:
    if any(isinstance(name, str) and "\r" in name for name in df.columns):
        return True
    return any(
        text_only(df.iloc[:, i]).str.contains("\r", regex=False).fillna(False).any()
        for i in range(df.shape[1])
    )


# Fixed so that the same table always gives the same .xlsx bytes (issue 11): the
# workbook's created/modified properties and the date of every zip entry.
_XLSX_TIMESTAMP = dt.datetime(2000, 1, 1)
_ZIP_TIMESTAMP = (1980, 1, 1, 0, 0, 0)


def _xlsx_cells(sheet: Any, values: pd.Series) -> list[Any]:
    """One column's cells for openpyxl. Text is always a text cell: openpyxl would store
    ``=...`` as a formula and ``#N/A`` as an error value, so those become explicit text
    cells, and formula-like text (:mod:`core.spreadsheet_safety`) carries Excel's quote
    prefix so that it stays text even when edited."""
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE

    if isinstance(values.dtype, pd.DatetimeTZDtype):
        raise AnonymisationError(
            f"Column '{values.name}' holds dates with a time zone, which .xlsx cannot store. "
            "Choose csv or parquet, or convert the dates to local time first."
        )
    cells = values.astype(object).where(values.notna(), None).tolist()
    formula = formula_like(values).to_numpy()
    text = text_only(values)
    illegal = text.str.contains(ILLEGAL_CHARACTERS_RE.pattern).fillna(False).to_numpy(bool)
    if illegal.any():
        raise AnonymisationError(
            f"Column '{values.name}' holds a control character that .xlsx cannot store "
            f"(row {int(illegal.argmax()) + 1}). Choose csv or parquet, or remove it."
        )
    special = formula | text.isin(ERROR_CODES).to_numpy(bool)
    for index in np.flatnonzero(special):
        cell = WriteOnlyCell(sheet, value=cells[index])
        cell.data_type = "s"
        cell.quotePrefix = bool(formula[index])
        cells[index] = cell
    return cells


def _xlsx_bytes(df: pd.DataFrame) -> bytes:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("Sheet1")
    header = pd.Series(list(df.columns), dtype=object, name="(column names)")
    columns = [_xlsx_cells(sheet, df.iloc[:, i].rename(df.columns[i])) for i in range(df.shape[1])]
    buffer = io.BytesIO()
    try:
        sheet.append(_xlsx_cells(sheet, header))
        for row in zip(*columns, strict=True):
            sheet.append(row)
        book.save(buffer)
    except (ValueError, TypeError) as exc:
        raise AnonymisationError(
            f"The table cannot be saved as xlsx ({exc}). Choose another format, e.g. csv."
        ) from exc
    return _fixed_zip_dates(buffer.getvalue())


def _fixed_zip_dates(data: bytes) -> bytes:
    """The same workbook with every zip entry dated :data:`_ZIP_TIMESTAMP` and the document
    properties (openpyxl stamps the time of saving) dated :data:`_XLSX_TIMESTAMP`."""
    from openpyxl.packaging.core import DocumentProperties
    from openpyxl.xml.constants import ARC_CORE
    from openpyxl.xml.functions import tostring

    properties = DocumentProperties(created=_XLSX_TIMESTAMP, modified=_XLSX_TIMESTAMP)
    fixed = {ARC_CORE: tostring(properties.to_tree())}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.infolist():
            info = zipfile.ZipInfo(entry.filename, date_time=_ZIP_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16
            target.writestr(info, fixed.get(entry.filename) or source.read(entry.filename))
    return out.getvalue()


def output_format(path: str | Path) -> str:
    """The format a table written to ``path`` gets, from its extension (csv, tsv, xlsx, parquet)."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt == "pq":
        fmt = "parquet"
    if fmt not in WRITE_FORMATS:
        raise ParameterError(
            f"Cannot write '{path}': the extension must be one of "
            f"{', '.join('.' + f for f in WRITE_FORMATS)}."
        )
    return fmt


def write_table(df: pd.DataFrame, path: str | Path) -> Path:
    """Write ``df`` to ``path``; the format follows the extension (.csv, .tsv, .xlsx, .parquet).

    Returns the path written. See :func:`table_to_bytes` for the details of each format.
    """
    path = Path(path).expanduser()
    data = table_to_bytes(df, output_format(path))
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise AnonymisationError(
            f"Cannot write '{path}' ({exc.strerror or exc}). Check that the folder exists and "
            "that you may write in it."
        ) from exc
    return path
