"""The cells of a release and the bounds of its sums: every combination of the user's
categories (never read off the data) with each record's cell, the clipping bounds checked,
and both read from the command line's text.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.formatting import fmt_count

#: Most cells a release may have (every combination of the categories is one).
MAX_CELLS = 200_000


@dataclass(frozen=True)
class Grid:
    """The cells of a release: their keys and the cell of each record."""

    keys: pd.DataFrame  # one row per cell, in the order of the user's lists
    cell: np.ndarray  # cell index per record; len(keys) for records outside the lists


def category_grid(df: pd.DataFrame, by: list[str], categories: Mapping[str, Sequence[Any]]) -> Grid:
    """Every combination of the user's ``categories`` of the ``by`` columns as a cell (at
    most :data:`MAX_CELLS`), and the cell of each record (one extra cell for the rest)."""
    if not isinstance(categories, Mapping):
        raise ParameterError(
            "Parameter 'categories' must map each grouping column to its list of categories, "
            "e.g. {'sex': ['F', 'M']}."
        )
    cell = np.zeros(len(df), dtype=np.int64)
    outside = np.zeros(len(df), dtype=bool)
    lists: list[list[Any]] = []
    for column in by:
        values = categories.get(column)
        if values is None or isinstance(values, str) or len(list(values)) == 0:
            raise ParameterError(
                f"Grouping column '{column}' needs its list of categories in 'categories' "
                f"(e.g. {{'{column}': [...]}}). List every value that may occur, from "
                "knowledge of the domain (a code list, a census classification), not from the "
                "data: values read off the data would reveal that someone has them."
            )
        values = list(values)
        if len({str(v) for v in values}) != len(values):
            raise ParameterError(f"The categories of '{column}' contain duplicates: {values}.")
        codes = _codes(df[column], values)
        cell = cell * len(values) + np.maximum(codes, 0)
        outside |= codes < 0
        lists.append(values)
    n_cells = math.prod(len(v) for v in lists)
    if n_cells > MAX_CELLS:
        raise ParameterError(
            f"The categories make {fmt_count(n_cells)} cells (more than "
            f"{fmt_count(MAX_CELLS)}); group into fewer categories first (generalise), or "
            "release fewer columns at once."
        )
    cell[outside] = n_cells
    index = pd.MultiIndex.from_product(lists, names=by)
    return Grid(index.to_frame(index=False), cell)


def _codes(series: pd.Series, values: list[Any]) -> np.ndarray:
    """Position of each record's value in ``values`` (-1 if absent or missing)."""
    numeric_lists = all(isinstance(v, Real) and not isinstance(v, bool) for v in values)
    if numeric_lists and pd.api.types.is_numeric_dtype(series):
        codes = pd.Index(values).get_indexer(series)
    else:  # compare as text, so "1" on the command line matches the number 1
        text = series.astype("str").where(series.notna())
        codes = pd.Index([str(v) for v in values]).get_indexer(text)
    return np.asarray(codes, dtype=np.int64)


#: Largest clipping bound (in size): the noise grows with hi - lo, which must stay finite.
MAX_BOUND = 1e15


def require_bounds(bounds: Mapping[str, Any] | None, column: str) -> tuple[float, float]:
    """The clipping bounds (lo, hi) of ``column``, checked: given, finite, lo < hi, at most
    :data:`MAX_BOUND` in size."""
    pair = (bounds or {}).get(column)
    if pair is None:
        raise ParameterError(
            f"Column '{column}' needs clipping bounds (lo, hi) in 'bounds', e.g. "
            f"{{'{column}': [0, 20000]}}. Choose them from what the values can plausibly be, "
            "never from the data's own minimum and maximum: those would leak the most extreme "
            "person's value. Values outside the bounds are clipped to them."
        )
    try:
        lo, hi = (float(x) for x in pair)
    except (TypeError, ValueError):
        raise ParameterError(
            f"Bounds of '{column}' must be two numbers (lo, hi), got {pair!r}."
        ) from None
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
        raise ParameterError(
            f"Bounds of '{column}' must be finite with lo < hi, got ({lo:g}, {hi:g})."
        )
    if max(abs(lo), abs(hi)) > MAX_BOUND:
        # hi - lo sets the noise: (-1e308, 1e308) overflowed to an infinite scale
        raise ParameterError(
            f"Bounds of '{column}' must be at most {MAX_BOUND:g} in size, got ({lo:g}, {hi:g}); "
            "noise as wide as such bounds would leave no figure worth releasing."
        )
    return lo, hi


def as_columns(value: str | Iterable[str] | None) -> list[str]:
    """A column name, several, or none, as a list."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def cells_label(grid: Grid) -> str:
    """The grouping columns of the cells, as a query's name reads them."""
    return ", ".join(map(str, grid.keys.columns))


def parse_categories(items: Iterable[str]) -> dict[str, list[str]]:
    """``["sex=F|M,race=Chinese|Malay"]`` -> ``{"sex": ["F", "M"], "race": [...]}``.

    Columns are separated by commas (or given in separate ``--categories`` options),
    categories by ``|``. Categories are compared with the data as text.
    """
    result: dict[str, list[str]] = {}
    for item in items:
        for part in item.split(","):
            if not part.strip():
                continue
            column, sep, values = part.partition("=")
            listed = [v.strip() for v in values.split("|") if v.strip()]
            if not sep or not column.strip() or not listed:
                raise ParameterError(
                    f"Cannot read categories {part!r}: write column=value|value|..., e.g. "
                    "--categories 'sex=F|M,race=Chinese|Malay|Indian|Others'."
                )
            result[column.strip()] = listed
    return result


def parse_bounds(items: Iterable[str], columns: Iterable[str]) -> dict[str, tuple[float, float]]:
    """``["0,20000"]`` (every measured column) or ``["income=0,20000"]`` -> bounds."""
    columns = list(columns)
    result: dict[str, tuple[float, float]] = {}
    for item in items:
        column, sep, pair = item.rpartition("=")
        try:
            lo, hi = (float(x) for x in pair.split(","))
        except ValueError:
            raise ParameterError(
                f"Cannot read bounds {item!r}: write lo,hi (e.g. --bounds=0,20000) or "
                "column=lo,hi; use '--bounds=-10,10' (with '=') for a negative lower bound."
            ) from None
        for target in [column] if sep else columns:
            result[target] = (lo, hi)
    return result
