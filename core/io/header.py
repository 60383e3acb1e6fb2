"""Checks of a table's header common to every format: how many columns, unique and
non-blank names, and at least one data row.
"""

from __future__ import annotations

import pandas as pd

from core.errors import DataReadError

#: Most columns read (a spreadsheet's limit, 16,384). Each column costs work of its own:
#: a 700 KB CSV of 80,000 one-digit columns took 18 s and 785 MB to read.
MAX_COLUMNS = 16_384


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


def apply_header(df: pd.DataFrame, names: list[str], display: str) -> pd.DataFrame:
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
