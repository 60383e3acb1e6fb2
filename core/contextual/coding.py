"""Integer codes of contextual measures under each coarsening (Witkowski 2007, Section 4.b).

Exact values, absolute recoding into categories of a scale, and percentile recoding with cut
points taken over the areas (endnote 2). The measures (:mod:`core.contextual.risk`) and the
recipe steps (:mod:`core.contextual.steps`) share these codes, so the released records are
recoded exactly as the intruder's master file was assessed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.contextual.data import ContextualData
from core.contextual.options import SCALES, TOP_BOTTOM, Coarsening, check_groups
from core.errors import ParameterError
from core.validation import require_choice

_ROUND = 9  # decimals kept before flooring, so 0.29 * 100 / 1 lands in the 29% category


@dataclass(frozen=True)
class Scale:
    """What 0% and 100% mean for a measure when recoding into absolute categories."""

    lower: float
    upper: float
    kind: str  # percent, proportion or range


def infer_scale(values: pd.Series | np.ndarray, scale: str = "auto") -> Scale:
    """Shares in 0-1 are proportions, in 0-100 percentages, anything else spans its range.

    The paper recodes percentages (Section 4.b). For other measures (median income) the
    categories are shares of the observed range over all areas ("range").
    """
    require_choice("scale", scale, SCALES)
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    lo, hi = (float(v.min()), float(v.max())) if v.size else (0.0, 1.0)
    if scale == "auto":
        scale = (
            "proportion" if lo >= 0 and hi <= 1 else "percent" if lo >= 0 and hi <= 100 else "range"
        )
    if scale == "proportion":
        return Scale(0.0, 1.0, "proportion")
    if scale == "percent":
        return Scale(0.0, 100.0, "percent")
    if hi <= lo:
        hi = lo + 1.0
    return Scale(lo, hi, "range")


def _percent_of_scale(values: np.ndarray, scale: Scale) -> np.ndarray:
    return np.round((values - scale.lower) / (scale.upper - scale.lower) * 100.0, _ROUND)


def absolute_codes(values: np.ndarray, width: float | str, scale: Scale) -> np.ndarray:
    """Category number of each value under absolute recoding (Section 4.b table).

    ``width`` w gives categories [0, w), [w, 2w), ... with the last one closed at 100%
    (15%: 0-14, ..., 75-89, 90-100). ``"top_bottom_25"``: 0 = below 25%, 2 = 75% or more,
    1 = other. Values outside the scale are top/bottom coded. NaN gives -1.
    """
    values = np.asarray(values, dtype=float)
    pct = _percent_of_scale(values, scale)
    if width == TOP_BOTTOM:
        codes = np.where(pct < 25, 0, np.where(pct >= 75, 2, 1))
    else:
        n_bins = math.ceil(100 / float(width))
        codes = np.clip(np.floor(np.round(pct / float(width), _ROUND)), 0, n_bins - 1)
    return np.where(np.isnan(values), -1, codes).astype(np.int64)


def percentile_edges(values: pd.Series | np.ndarray, groups: int | str) -> list[float]:
    """Cut points of percentile recoding over the areas (endnote 2).

    With n areas sorted, group j starts at the ceil(j * n / g)-th value, so with distinct
    values every group has floor(n/g) or ceil(n/g) areas. ``"top_bottom_25"``: cuts at the
    25th and 75th percentiles (bottom quartile, middle half, top quartile).
    """
    check_groups(groups)
    v = np.sort(np.asarray(values, dtype=float))
    v = v[~np.isnan(v)]
    if v.size == 0:
        raise ParameterError("Percentile recoding needs at least one value to take cut points.")
    n = v.size
    fractions = (0.25, 0.75) if groups == TOP_BOTTOM else [j / groups for j in range(1, groups)]
    positions = [min(math.ceil(round(f * n, _ROUND)), n - 1) for f in fractions]
    return [float(v[p]) for p in positions]


def percentile_codes(values: np.ndarray, edges: Sequence[float]) -> np.ndarray:
    """Group number of each value given the cut points (a value equal to a cut goes up)."""
    values = np.asarray(values, dtype=float)
    codes = np.searchsorted(np.asarray(edges, dtype=float), values, side="right")
    return np.where(np.isnan(values), -1, codes).astype(np.int64)


def _exact_codes(
    area_values: np.ndarray, group_values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    both = np.concatenate([area_values, group_values])
    codes, _ = pd.factorize(both, use_na_sentinel=True)
    codes = codes.astype(np.int64)
    return codes[: area_values.size], codes[area_values.size :]


def measure_codes(
    data: ContextualData, column: str, option: Coarsening
) -> tuple[np.ndarray, np.ndarray]:
    """Codes of one measure for all areas and for the respondent groups (-1 = suppressed)."""
    area = data.areas[column].to_numpy(dtype=float)
    group = data.group_values[column].to_numpy(dtype=float)
    if option.method == "exact":
        return _exact_codes(area, group)
    if option.method == "absolute":
        scale = infer_scale(area)
        return absolute_codes(area, option.width, scale), absolute_codes(group, option.width, scale)
    edges = percentile_edges(area, option.groups)
    return percentile_codes(area, edges), percentile_codes(group, edges)
