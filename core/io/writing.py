"""Write tables safely: CSV/TSV, xlsx and Parquet bytes where no cell or column name is a
live formula (:mod:`core.spreadsheet_safety`), the same table always giving the same bytes.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pandas as pd

from core.errors import AnonymisationError, ParameterError
from core.progress import ProgressFn, no_progress
from core.spreadsheet_safety import formula_like, neutralise_for_csv, text_only

WRITE_FORMATS = ("csv", "tsv", "xlsx", "parquet")


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
