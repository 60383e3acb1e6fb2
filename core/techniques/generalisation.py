"""Generalisation, also called recoding (PDPC guide, Annex A: Generalisation).

"A deliberate reduction in the precision of data", e.g. an age into an age range, an
address into a road name or a zone, a date of birth into a month or a year (Annex B).
Every function returns a new table whose generalised column holds text labels; missing
values stay missing.

Label formats (whole-number bounds):

- a band ``[20, 30)`` is written ``"20-29"`` (both ends included, as people read it);
- bottom coding: values below ``bottom`` become ``"<20"``;
- top coding: values at or above ``top`` become ``">=60"`` (the guide's "the first and the
  last range may be a larger range ... top/bottom coding").

With fractional bounds a band is written as an interval, ``"[20.5, 30.5)"``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from core._text import as_text, format_number
from core.dates import to_dates
from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.validation import (
    require_anchor,
    require_choice,
    require_columns,
    require_numeric,
    require_step,
    shown_value,
)

DATE_UNITS = ("week", "month", "quarter", "year")


def generalise_bands(
    df: pd.DataFrame,
    column: str,
    *,
    width: float,
    start: float | None = None,
    bottom: float | None = None,
    top: float | None = None,
) -> pd.DataFrame:
    """Replace numbers by equal-width ranges (PDPC guide, Annex A: Generalisation; Annex B:
    "generalise the age/height/weight to ranges of 5 or 10").

    Bands are ``[start + i*width, start + (i+1)*width)``. ``start`` anchors the grid; by
    default it is ``bottom`` if given, else the largest multiple of ``width`` not above the
    smallest value (so width 10 gives 20-29, 30-39, ...). Values below ``bottom`` become
    ``"<bottom"``, values at or above ``top`` become ``">=top"``; a band cut by ``top`` ends
    just below it (``top=65`` gives ``"60-64"``). Labels: see the module docstring.
    Non-numeric values raise :class:`ParameterError` naming the first bad row.
    """
    numbers = require_numeric(df, column, technique="Generalisation into bands")
    width = require_step("width", width)
    bottom = _optional_number("bottom", bottom)
    top = _optional_number("top", top)
    start = None if start is None else require_anchor("start", start)
    if bottom is not None and top is not None and bottom >= top:
        raise ParameterError(f"Parameter 'bottom' ({bottom:g}) must be below 'top' ({top:g}).")
    values = numbers.to_numpy()
    if start is None:
        if bottom is not None:
            start = bottom
        else:
            present = values[~np.isnan(values)]
            start = math.floor(present.min() / width) * width if present.size else 0.0
    band = np.floor(np.round((values - start) / width, 9))
    labels = {}
    for index in np.unique(band[~np.isnan(band)]):
        low = start + index * width
        high = low + width
        if bottom is not None:
            low = max(low, bottom)
        if top is not None:
            high = min(high, top)
        labels[index] = _range_label(low, high, right=False)
    out = pd.Series(band, index=df.index).map(labels).astype("str")
    if bottom is not None:
        out = out.mask(numbers < bottom, f"<{format_number(bottom)}")
    if top is not None:
        out = out.mask(numbers >= top, f">={format_number(top)}")
    return _replace(df, column, out)


def generalise_edges(
    df: pd.DataFrame,
    column: str,
    *,
    edges: Sequence[float],
    labels: Sequence[str] | None = None,
    right: bool = False,
) -> pd.DataFrame:
    """Replace numbers by custom ranges cut at ``edges`` (PDPC guide, Annex A:
    Generalisation, e.g. ages into <20, 21-30, ..., >60).

    With ``right=False`` band ``i`` is ``[edges[i], edges[i+1])``; with ``right=True`` it is
    ``(edges[i], edges[i+1]]``. Use ``-inf``/``inf`` as first/last edge for open-ended
    bands. Default labels: ``"20-29"`` (``right=False``) or ``"21-30"`` (``right=True``) for
    whole-number edges, ``"<20"``/``">=60"`` (or ``"<=20"``/``">60"``) for open ends,
    intervals such as ``"[2.5, 5)"`` otherwise. ``labels`` (one per band, repeats allowed)
    replace them. A value outside all bands raises :class:`ParameterError` naming its row.
    """
    numbers = require_numeric(df, column, technique="Generalisation into ranges")
    edges = _edges(edges)
    n_bands = len(edges) - 1
    if labels is None:
        labels = [_edge_label(edges[i], edges[i + 1], right=right) for i in range(n_bands)]
    else:
        labels = [str(label) for label in labels]
        if len(labels) != n_bands:
            raise ParameterError(
                f"Parameter 'labels' needs one label per band: {len(edges)} edges make "
                f"{n_bands} bands, but {len(labels)} labels were given."
            )
    values = numbers.to_numpy()
    side = "left" if right else "right"
    band = np.searchsorted(edges, values, side=side) - 1
    present = ~np.isnan(values)
    outside = present & ((band < 0) | (band >= n_bands))
    if outside.any():
        row = int(outside.nonzero()[0][0])
        raise ParameterError(
            f"Column '{column}' has {int(outside.sum())} value(s) outside the edges "
            f"{format_number(edges[0])}..{format_number(edges[-1])}, the first in row {row + 1} "
            f"({shown_value(df[column].iloc[row])}). Widen the first/last edge (e.g. -inf or inf)."
        )
    label_array = np.asarray(labels, dtype=object)
    out = np.full(len(values), np.nan, dtype=object)
    out[present] = label_array[band[present]]
    return _replace(df, column, pd.Series(out, index=df.index).astype("str"))


def top_bottom_code(
    df: pd.DataFrame,
    column: str,
    *,
    bottom: float | None = None,
    top: float | None = None,
) -> pd.DataFrame:
    """Top and bottom coding (PDPC guide, Annex A: Generalisation, "the first and the last
    range may be a larger range ... this is often referred to as top/bottom coding").

    Values below ``bottom`` become ``"<bottom"``, values at or above ``top`` become
    ``">=top"``; the others are kept, written as text (``42``, ``2.5``), because the column
    now mixes numbers and labels. At least one of ``bottom``/``top`` is required.
    """
    numbers = require_numeric(df, column, technique="Top/bottom coding")
    bottom = _optional_number("bottom", bottom)
    top = _optional_number("top", top)
    if bottom is None and top is None:
        raise ParameterError("Top/bottom coding needs 'bottom', 'top' or both.")
    if bottom is not None and top is not None and bottom >= top:
        raise ParameterError(f"Parameter 'bottom' ({bottom:g}) must be below 'top' ({top:g}).")
    out = as_text(numbers)
    if bottom is not None:
        out = out.mask(numbers < bottom, f"<{format_number(bottom)}")
    if top is not None:
        out = out.mask(numbers >= top, f">={format_number(top)}")
    return _replace(df, column, out.astype("str"))


def generalise_mapping(
    df: pd.DataFrame,
    column: str,
    *,
    mapping: Mapping[object, object],
    other: object = None,
) -> pd.DataFrame:
    """Replace categories by groups with a user-made table (PDPC guide, Annex A:
    Generalisation; Annex B: job titles to a taxonomy, rare races to "Others", addresses to
    road names or zones).

    Values found in ``mapping`` are replaced; the others are kept, or replaced by ``other``
    when it is given (e.g. ``other="Others"``). Missing values stay missing.
    """
    require_columns(df, column)
    if not isinstance(mapping, Mapping) or not mapping:
        raise ParameterError(
            f"Parameter 'mapping' must be a non-empty table of value -> group, got {mapping!r}."
        )
    series = df[column]
    known = series.isin(list(mapping.keys()))
    out = series.astype(object).where(~known, series.map(mapping))
    if other is not None:
        out = out.where(known | series.isna(), other)
    out = out.where(series.notna(), np.nan)
    return _replace(df, column, out.infer_objects())


def generalise_hierarchy(
    df: pd.DataFrame, column: str, *, hierarchy: Hierarchy, level: int
) -> pd.DataFrame:
    """Replace each value by its ancestor at ``level`` of a hierarchy (PDPC guide, Annex A:
    Generalisation; hierarchies in the ARX format, see :mod:`core.hierarchy`).

    Level 0 leaves values unchanged (as text), the top level is usually ``*``. A value
    missing from the hierarchy raises :class:`ParameterError` naming it and its row.
    """
    require_columns(df, column)
    if not isinstance(hierarchy, Hierarchy):
        raise ParameterError(
            "Parameter 'hierarchy' must be a Hierarchy (see core.hierarchy.read_hierarchy), "
            f"got {type(hierarchy).__name__}."
        )
    return _replace(df, column, hierarchy.generalise(df[column], level))


def generalise_by_rule(
    df: pd.DataFrame, column: str, *, rule: Mapping[str, object], level: int
) -> pd.DataFrame:
    """Replace each value by its ancestor at ``level`` of the hierarchy a *rule* builds
    from the column (PDPC guide, Annex A: Generalisation; :mod:`core.hierarchy_rules`).

    ``rule`` is plain data (``{kind: dates, levels: [month, year]}``): the same labels as
    the hierarchy file the builder would write, with no list of original values, so a
    recipe that a recipient receives can say exactly how a column was generalised.
    """
    from core.hierarchy_rules import HierarchyRule  # imports the builders (core.hierarchy)

    require_columns(df, column)
    checked = HierarchyRule.from_mapping(rule)
    present = df[column].dropna()
    if present.empty:  # nothing to generalise: missing values stay missing
        return _replace(df, column, as_text(df[column]))
    hierarchy = checked.build(present, name=str(column))
    return _replace(df, column, hierarchy.generalise(df[column], level))


def generalise_date(
    df: pd.DataFrame, column: str, *, unit: str, dayfirst: bool = False
) -> pd.DataFrame:
    """Reduce dates to a week, month, quarter or year (PDPC guide, Annex B: "generalise the
    date of birth to year, or month and year").

    Labels: week ``"2003-W05"`` (ISO week and ISO year), month ``"2003-02"``, quarter
    ``"2003-Q1"``, year ``"2003"``. Text is parsed with pandas; ``dayfirst=True`` reads
    ``"01/02/2003"`` as 1 February. A value that cannot be read as a date raises
    :class:`ParameterError` naming the first such row. Missing values stay missing.
    """
    require_columns(df, column)
    unit = require_choice("unit", unit, DATE_UNITS)
    dates = to_dates(df[column], column, dayfirst=bool(dayfirst))
    valid = dates.notna()
    if unit == "year":
        text = dates.dt.year.astype("Int64").astype("str")
    elif unit == "month":
        text = dates.dt.strftime("%Y-%m")
    elif unit == "quarter":
        text = (
            dates.dt.year.astype("Int64").astype("str")
            + "-Q"
            + dates.dt.quarter.astype("Int64").astype("str")
        )
    else:
        iso = dates.dt.isocalendar()
        text = iso["year"].astype("str") + "-W" + iso["week"].astype("str").str.zfill(2)
    out = pd.Series(np.nan, index=df.index, dtype="str")
    out[valid] = text[valid].astype("str")
    return _replace(df, column, out)


def generalise_dates(df: pd.DataFrame, columns: str | Sequence[str], *, unit: str) -> pd.DataFrame:
    """Generalise several date columns to week, month, quarter or year (Annex B; HIPAA).

    A loop over :func:`generalise_date`, which defines the labels.
    """
    out = df
    for column in require_columns(df, columns, parameter="columns"):
        out = generalise_date(out, column, unit=unit)
    return out if out is not df else df.copy()


def _replace(df: pd.DataFrame, column: str, values: pd.Series) -> pd.DataFrame:
    out = df.copy()
    out[column] = values.array  # positional: no index alignment
    return out


def _optional_number(name: str, value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise ParameterError(f"Parameter '{name}' must be a number, got {value!r}.")
    if not np.isfinite(value):
        raise ParameterError(f"Parameter '{name}' must be a finite number, got {value!r}.")
    return float(value)


def _edges(edges: Sequence[float]) -> np.ndarray:
    try:
        array = np.asarray(list(edges), dtype=float)
    except (TypeError, ValueError) as error:
        raise ParameterError(f"Parameter 'edges' must be a list of numbers, got {edges!r}.") from (
            error
        )
    if array.ndim != 1 or array.size < 2 or np.isnan(array).any():
        raise ParameterError(
            f"Parameter 'edges' needs at least two numbers (one band), got {list(edges)!r}."
        )
    if not (np.diff(array) > 0).all():
        raise ParameterError(f"Parameter 'edges' must be strictly increasing, got {list(edges)!r}.")
    return array


def _is_whole(value: float) -> bool:
    return bool(np.isfinite(value) and float(value).is_integer())


def _range_label(low: float, high: float, *, right: bool) -> str:
    """Label of ``[low, high)`` (``right=False``) or ``(low, high]`` (``right=True``)."""
    if _is_whole(low) and _is_whole(high):
        first, last = (int(low) + 1, int(high)) if right else (int(low), int(high) - 1)
        if first == last:
            return str(first)
        return f"{first}-{last}"
    opening, closing = ("(", "]") if right else ("[", ")")
    return f"{opening}{format_number(low)}, {format_number(high)}{closing}"


def _edge_label(low: float, high: float, *, right: bool) -> str:
    if np.isinf(low) and np.isinf(high):
        return "*"
    if np.isinf(low):
        return f"{'<=' if right else '<'}{format_number(high)}"
    if np.isinf(high):
        return f"{'>' if right else '>='}{format_number(low)}"
    return _range_label(low, high, right=right)
