"""Excel (.xlsx) workbooks: the zip archive checked against zip bombs before openpyxl opens
it, the chosen sheet read cell by cell within :data:`MAX_XLSX_CELLS`.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from typing import Any

import numpy as np
import pandas as pd

from core.errors import DataReadError, parser_message
from core.io.header import apply_header
from core.io.numbers import to_number_or_text

#: Limits on what a workbook may unpack to (a .xlsx file is a zip archive of XML parts):
#: the sum of the parts' sizes, the compression ratio of any part larger than 1 MiB (real
#: sheets compress about 5-20 to 1; a zip bomb thousands to 1), and the cells: counted on
#: the XML of all sheets before openpyxl opens the workbook, and again while the chosen
#: sheet is read, as rows x widest row (the table it becomes). Larger: CSV or Parquet.
MAX_XLSX_UNCOMPRESSED_BYTES = 256 * 2**20
MAX_XLSX_COMPRESSION_RATIO = 100
MAX_XLSX_CELLS = 5_000_000
_RATIO_CHECK_FROM_BYTES = 2**20


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


def read_excel(data: bytes, display: str, sheet_name: int | str) -> tuple[pd.DataFrame, str]:
    """The table on one sheet of the workbook ``data`` and the sheet's name."""
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
    df = apply_header(body, names, f"{display}' sheet '{sheet}")
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
    return to_number_or_text(text)
