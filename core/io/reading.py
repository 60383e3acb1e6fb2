"""Read a table: :func:`read_table` finds the file's format and hands it to the reader of
that format (delimited text, Excel, Parquet), recording how it was read.

Separate from the readers so that each format's limits and checks live in one module of
their own; this module only chooses among them (PDPC guide, Step 1: know your data).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

import pandas as pd

from core.errors import DataReadError
from core.io.delimited import read_text
from core.io.excel import read_excel
from core.io.files import all_bytes, data_head, data_size, load_source
from core.io.parquet import read_parquet
from core.io.quick_text import read_utf8_text

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


def read_table(
    source: str | Path | bytes | bytearray | memoryview | Any,
    *,
    sep: str | None = None,
    encoding: str | None = None,
    sheet_name: int | str = 0,
    name: str | None = None,
    coded: Collection[str] = (),
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
    coded:
        Columns to return as pandas Categoricals of their values, for callers that only
        group and count them, such as the risk report: a Parquet file's text columns
        straight from the file's dictionaries (its other columns keep their stored types),
        a delimited file's columns coded by the parser as it reads them, each column's
        text/number rule judged on its distinct values. Names not in the file, and Excel,
        are read as usual. Decoding or converting every row's text and coding it again is
        skipped; every value, group and count is the one the plain column gives.

    Returns a new DataFrame; ``df.attrs["source"]`` records name, format, sep, encoding and
    sheet. Raises :class:`DataReadError` for every problem, with a message naming the file.
    """
    data, display, suffix = load_source(source, name)
    if not data_size(data):
        raise DataReadError(
            f"File '{display}' is empty (0 bytes). Choose the file that contains the data, "
            "or export the table again."
        )
    kind = _detect_format(data_head(data, 8), suffix, display)
    if kind == "excel":
        df, sheet = read_excel(all_bytes(data), display, sheet_name)
        info = {"sep": None, "encoding": None, "sheet": sheet}
    elif kind == "parquet":
        df = read_parquet(all_bytes(data), display, coded)
        info = {"sep": None, "encoding": None, "sheet": None}
    else:
        df, used_sep, used_encoding = read_utf8_text(
            data, display, sep, encoding, coded
        ) or read_text(all_bytes(data), display, sep, encoding, coded)
        info = {"sep": used_sep, "encoding": used_encoding, "sheet": None}
    df.attrs["source"] = {"name": display, "format": kind, **info}
    return df


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
