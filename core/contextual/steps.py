"""Recipe steps that coarsen or suppress contextual measures (Witkowski 2007, Sections 2, 4.b).

:func:`recode_absolute`, :func:`recode_percentile` and :func:`suppress_contextual` change the
released records; :func:`coarsening_step` and :func:`suppression_step` write the recipe steps
that release what :func:`core.contextual.risk.assess` assessed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from core.contextual.coding import (
    Scale,
    absolute_codes,
    infer_scale,
    percentile_codes,
    percentile_edges,
)
from core.contextual.data import ContextualData, area_key_text, checked_columns
from core.contextual.options import (
    TOP_BOTTOM,
    TOP_BOTTOM_LABELS,
    Coarsening,
    check_groups,
    check_width,
)
from core.errors import ParameterError
from core.validation import require_columns, require_numeric


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def recode_absolute(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    width: float | str,
    scale: str = "auto",
    bounds: Mapping[str, Sequence[float]] | None = None,
) -> pd.DataFrame:
    """Absolute recoding of contextual measures (Witkowski 2007, Section 4.b).

    ``width`` in percentage points (1, 5, 10, 15, 20) gives labels ``"[70, 80)"`` (the last
    category closed: ``"[90, 100]"``); ``"top_bottom_25"`` gives Bottom-25% / Other /
    Top-25%. ``scale``: ``"percent"`` (0-100), ``"proportion"`` (0-1), ``"range"``
    (``bounds[column] = [lower, upper]``, by default the column's min and max) or ``"auto"``.
    Empty values stay empty. Returns a new table; the input is not changed.
    """
    check_width(width)
    columns = require_columns(df, columns, parameter="columns")
    out = df.copy()
    for column in columns:
        values = require_numeric(df, column, technique="Absolute recoding").to_numpy()
        if bounds and column in bounds:
            lower, upper = (float(b) for b in bounds[column])
            if not upper > lower:
                raise ParameterError(
                    f"bounds for '{column}' must be [lower, upper] with upper > lower."
                )
            sc = Scale(lower, upper, "range")
        else:
            sc = infer_scale(values, scale)
        codes = absolute_codes(values, width, sc)
        if width == TOP_BOTTOM:
            labels = list(TOP_BOTTOM_LABELS)
        else:
            n_bins = math.ceil(100 / float(width))
            span = (sc.upper - sc.lower) / 100.0
            cuts = [sc.lower + i * float(width) * span for i in range(n_bins)] + [sc.upper]
            labels = [
                f"[{_fmt(cuts[i])}, {_fmt(cuts[i + 1])}{']' if i == n_bins - 1 else ')'}"
                for i in range(n_bins)
            ]
        text = np.asarray(labels, dtype=object)[np.maximum(codes, 0)]
        out[column] = pd.Series(np.where(codes < 0, None, text), index=df.index).astype("str")
    return out


def recode_percentile(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    groups: int | str = 10,
    edges: Mapping[str, Sequence[float]] | None = None,
) -> pd.DataFrame:
    """Percentile recoding of contextual measures (Witkowski 2007, endnote 2).

    ``edges[column]`` are the cut points, taken over the population of areas (use
    :func:`percentile_edges` on the area table, as the dashboard does); without them the cut
    points come from the values in ``df`` itself. Labels: ``"P3 of 10 [66.15, 76.14)"``.
    """
    check_groups(groups)
    columns = require_columns(df, columns, parameter="columns")
    out = df.copy()
    n_groups = 3 if groups == TOP_BOTTOM else int(groups)
    for column in columns:
        values = require_numeric(df, column, technique="Percentile recoding").to_numpy()
        cuts = (
            list(edges[column]) if edges and column in edges else percentile_edges(values, groups)
        )
        if len(cuts) != n_groups - 1 or any(b < a for a, b in itertools.pairwise(cuts)):
            raise ParameterError(
                f"Percentile recoding of '{column}' into {n_groups} groups needs {n_groups - 1} "
                f"increasing cut points, got {cuts!r}."
            )
        codes = percentile_codes(values, cuts)
        bounds = ["-inf", *(_fmt(c) for c in cuts), "inf"]
        if groups == TOP_BOTTOM:
            names = list(TOP_BOTTOM_LABELS)
        else:
            names = [f"P{i + 1} of {n_groups}" for i in range(n_groups)]
        labels = [f"{names[i]} [{bounds[i]}, {bounds[i + 1]})" for i in range(n_groups)]
        text = np.asarray(labels, dtype=object)[np.maximum(codes, 0)]
        out[column] = pd.Series(np.where(codes < 0, None, text), index=df.index).astype("str")
    return out


def suppress_contextual(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    area_column: str,
    areas: Sequence[object],
) -> pd.DataFrame:
    """Local suppression: empty the contextual values of respondents in ``areas`` (Section 2).

    The paper withholds the contextual data of geographic units that are still easily
    pinpointed after recoding; :func:`suppress_until_safe` finds them.
    """
    columns = require_columns(df, columns, parameter="columns")
    require_columns(df, area_column, parameter="area_column")
    keys = area_key_text(df[area_column])
    hide = keys.isin(set(area_key_text(pd.Series(list(areas), dtype=object)))).to_numpy()
    out = df.copy()
    for column in columns:
        series = out[column]
        if pd.api.types.is_integer_dtype(series) or pd.api.types.is_bool_dtype(series):
            series = series.astype("float64")
        out[column] = series.mask(hide)
    return out


def coarsening_step(
    data: ContextualData, coarsening: Coarsening, columns: Sequence[str] | None = None
) -> dict[str, object] | None:
    """The recipe step that releases ``columns`` as ``coarsening`` assesses them.

    Scales (absolute) and cut points (percentile) are taken from the area table and written
    into the step, so the released records are recoded exactly as the intruder's master
    file was in :func:`assess`. ``None`` for exact values (nothing to do).
    """
    columns = checked_columns(data, columns)
    if coarsening.method == "exact":
        return None
    if coarsening.method == "absolute":
        bounds = {}
        for c in columns:
            scale = infer_scale(data.areas[c])
            bounds[c] = [float(scale.lower), float(scale.upper)]
        return {
            "step": "contextual_absolute",
            "columns": list(columns),
            "width": coarsening.width,
            "bounds": bounds,
        }
    edges = {c: percentile_edges(data.areas[c], coarsening.groups) for c in columns}
    return {
        "step": "contextual_percentile",
        "columns": list(columns),
        "groups": coarsening.groups,
        "edges": edges,
    }


def suppression_step(
    areas: Sequence[str], columns: Sequence[str], area_column: str
) -> dict[str, object]:
    """The recipe step for local suppression of ``areas`` (Section 2)."""
    return {
        "step": "contextual_suppress",
        "columns": list(columns),
        "area_column": area_column,
        "areas": [str(a) for a in areas],
    }
