"""Released tables carry no live formulas: the one rule every table writer applies.

A spreadsheet program reads a text cell that begins with ``=``, ``+``, ``-`` or ``@`` (or
a tab or carriage return before one) as a formula, which can fetch web content, run
commands through DDE or leak other cells ("CSV injection", OWASP). A value chosen by
whoever filled in the original data, or a column name, must reach the recipient as the
text it was, never as a formula. The rule here follows OWASP's CSV injection guidance:

* a cell is *formula-like* when it is **text** that begins with one of
  :data:`FORMULA_STARTS`, and it is not a plain number (``-5``, ``+3.2``, ``-1e5`` stay
  as written; a number column is never touched);
* in CSV/TSV a formula-like cell gets a single quote in front (``'=1+1``), which
  spreadsheet programs show as the text ``=1+1`` and which a reader of the file can see;
* in ``.xlsx`` a formula-like cell is stored as a text cell with Excel's own "quote
  prefix" mark, so the value is unchanged and stays text even when the cell is edited.

Column names follow the same rule. Parquet has no formulas and is written unchanged.
:func:`formula_like_counts` tells the report how many cells of which columns this
concerned, so the recipient knows that ``'=1+1`` in a CSV was the value ``=1+1``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

__all__ = [
    "CSV_PREFIX",
    "FORMULA_STARTS",
    "formula_like",
    "formula_like_counts",
    "formula_like_name",
    "formula_like_summary",
    "neutralise_for_csv",
    "text_only",
]

#: First characters that make spreadsheet programs read a text cell as a formula (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: What CSV cells and column names that look like formulas are prefixed with.
CSV_PREFIX = "'"

_STARTS = "[" + re.escape("".join(FORMULA_STARTS)) + "]"
# ASCII digits only: a spreadsheet does not read other scripts' digits as a number.
_PLAIN_NUMBER = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_PLAIN_NUMBER_RE = re.compile(_PLAIN_NUMBER)


def formula_like_name(name: object) -> bool:
    """Whether a column name (or any single value) is text a spreadsheet reads as a formula."""
    return (
        isinstance(name, str)
        and name.startswith(FORMULA_STARTS)
        and _PLAIN_NUMBER_RE.fullmatch(name) is None
    )


def text_only(values: pd.Series) -> pd.Series:
    """The text cells of ``values`` (every other cell missing), ready for ``.str`` methods.

    Text columns (string dtype, or object columns holding only text) are returned as they
    are; only a column mixing text with other values is looked at cell by cell.
    """
    if isinstance(values.dtype, pd.CategoricalDtype):
        values = values.astype(object)
    if isinstance(values.dtype, pd.StringDtype):
        return values
    if pd.api.types.is_object_dtype(values.dtype):
        kind = pd.api.types.infer_dtype(values, skipna=True)
        if kind in ("string", "empty"):
            return values
        if kind in ("mixed", "mixed-integer"):
            is_text = values.map(_is_text, na_action="ignore").fillna(False).astype(bool)
            return values.where(is_text, None)
    return pd.Series(None, index=values.index, dtype=object)


def _is_text(value: object) -> bool:
    return isinstance(value, str)


def formula_like(values: pd.Series) -> pd.Series:
    """A boolean mask: the text cells of ``values`` a spreadsheet would read as formulas.

    Only text is ever flagged: numbers, dates, booleans and missing values are False, and
    so is text that is a plain number such as ``-5`` or ``+3.2``.
    """
    text = text_only(values)
    starts = text.str.startswith(FORMULA_STARTS).fillna(False).to_numpy(dtype=bool, copy=True)
    candidates = np.flatnonzero(starts)
    if candidates.size:  # the number test only on the few cells that start like a formula
        number = text.iloc[candidates].str.fullmatch(_PLAIN_NUMBER).fillna(False)
        starts[candidates[number.to_numpy(dtype=bool)]] = False
    return pd.Series(starts, index=values.index)


def formula_like_cell_counts(df: pd.DataFrame) -> list[int]:
    """Per column position: how many cells (not the name) look like formulas; a table read
    batch by batch adds these up."""
    return [int(formula_like(df.iloc[:, position]).sum()) for position in range(df.shape[1])]


def formula_like_counts(df: pd.DataFrame, cells: Sequence[int] | None = None) -> dict[str, int]:
    """Per column (by name): how many cells, the column name included, look like formulas.

    Only columns with at least one such cell are listed, in table order. ``cells`` are the
    :func:`formula_like_cell_counts` of the whole table when ``df`` holds only its columns.
    """
    cells = formula_like_cell_counts(df) if cells is None else cells
    counts: dict[str, int] = {}
    for name, cell_count in zip(df.columns, cells, strict=True):
        count = int(cell_count) + formula_like_name(name)
        if count:
            counts[str(name)] = count
    return counts


def neutralise_for_csv(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` whose formula-like text cells and names start with a single quote.

    The OWASP rule for CSV files (see the module notes); ``df`` itself is not changed.
    """
    out = df.copy()
    for position in range(df.shape[1]):
        values = df.iloc[:, position]
        rows = np.flatnonzero(formula_like(values).to_numpy())
        if rows.size:
            if isinstance(values.dtype, pd.CategoricalDtype):
                values = values.astype(object)
            changed = values.copy()
            changed.iloc[rows] = (CSV_PREFIX + values.iloc[rows].astype(str)).to_numpy()
            out.isetitem(position, changed)
    out.columns = [CSV_PREFIX + c if formula_like_name(c) else c for c in df.columns]
    return out


def formula_like_summary(counts: dict[str, int], *, quote: Callable[[str], str] = repr) -> str:
    """One plain sentence for the report about :func:`formula_like_counts`.

    ``quote`` writes a column name (the Markdown report passes its escaping helper).
    """
    if not counts:
        return (
            "No cell or column name of the released table begins like a spreadsheet formula, "
            "so CSV and .xlsx files hold every value exactly as written."
        )
    total = sum(counts.values())
    where = ", ".join(f"{quote(name)} ({count})" for name, count in counts.items())
    return (
        f"{total} text cell(s) or column name(s) begin with =, +, -, @, a tab or a carriage "
        f"return and could run as spreadsheet formulas, in: {where}. CSV/TSV files written by "
        f"this tool put a single quote in front of them (a cell {CSV_PREFIX}=1+1 holds the "
        "value =1+1); .xlsx files store them unchanged as text cells (OWASP CSV injection)."
    )
