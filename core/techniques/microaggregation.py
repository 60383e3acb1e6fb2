"""Microaggregation of numeric quasi-identifiers (sdcMicro ``microaggregation``; PDPC
guide, Annex A: Data aggregation applied record by record).

Records are put in groups of at least k similar records and each value is replaced by
its group's mean, so every released combination of these values is shared by k records
(k-anonymity on them, Annex C) while the column means are kept exactly.

- **MDAV** (maximum distance to average vector, Domingo-Ferrer and Mateo-Sanz 2002; as
  sdcMicro's ``mdav``): the columns are compared together, each scaled by its variance.
  While at least 2k records remain: take the record r farthest from the centroid of the
  remaining records, group it with its k - 1 nearest records; then (if at least k records
  would still remain) take the record s farthest from r and group it with its k - 1
  nearest. The last k to 2k - 1 records form one group. A missing value stays missing;
  in distances it counts as the column's full range (sdcMicro's penalty); means ignore it.
  Ties between equally distant records go to the one earlier in the table.
- **Individual ranking** (sdcMicro's ``onedims``): each column separately is sorted and cut
  into groups of k consecutive values, the last group taking the remainder (k to 2k - 1
  values); missing values stay missing. It keeps more detail but protects less: the
  combination of several columns is not grouped.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.validation import require_choice, require_columns, require_int, require_numeric

MICROAGGREGATION_METHODS = ("mdav", "individual_ranking")


def _k_nearest(distance: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k smallest distances; ties go to the earlier position."""
    if distance.size <= k:
        return np.arange(distance.size)
    kth = np.partition(distance, k - 1)[k - 1]
    closer = np.flatnonzero(distance < kth)
    tied = np.flatnonzero(distance == kth)
    return np.concatenate([closer, tied[: k - closer.size]])


def mdav_groups(values: np.ndarray, k: int) -> np.ndarray:
    """Group number of each row of ``values`` (rows x columns, NaN = missing) by MDAV.

    Each step scans the records still ungrouped (one pass per column, on compacted
    arrays), so the cost is about n^2 / k array operations, not per-record Python.
    """
    n, m = values.shape
    variance = np.nanvar(values, axis=0) if n else np.zeros(m)
    scale = np.where(variance > 0, 1.0 / np.sqrt(np.where(variance > 0, variance, 1.0)), 1.0)
    scale = np.where(np.isnan(scale), 1.0, scale)
    scaled = values * scale  # squared distances on these are variance-weighted
    with np.errstate(all="ignore"):
        spread = np.nanmax(scaled, axis=0) - np.nanmin(scaled, axis=0) if n else np.zeros(m)
    penalty = np.where(np.isfinite(spread), spread, 0.0) ** 2
    has_gaps = np.isnan(scaled).any(axis=0)
    columns = [np.ascontiguousarray(scaled[:, j]) for j in range(m)]
    alive = np.arange(n)
    group = np.full(n, -1, dtype=np.int64)
    next_group = 0

    def distances(point: list[float]) -> np.ndarray:
        total = np.zeros(alive.size)
        for j, column in enumerate(columns):
            if np.isnan(point[j]):  # a gap against a value costs the column's range
                total += np.where(np.isnan(column), 0.0, penalty[j])
            elif has_gaps[j]:
                squared = (column - point[j]) ** 2
                total += np.where(np.isnan(squared), penalty[j], squared)
            else:
                total += (column - point[j]) ** 2
        return total

    def take(position: int) -> None:
        nonlocal alive, columns, next_group
        point = [column[position] for column in columns]
        chosen = _k_nearest(distances(point), k)
        group[alive[chosen]] = next_group
        next_group += 1
        keep = np.ones(alive.size, dtype=bool)
        keep[chosen] = False
        alive = alive[keep]
        columns = [column[keep] for column in columns]

    while alive.size >= 2 * k:
        with np.errstate(all="ignore"):
            centroid = [
                np.nanmean(column) if not np.isnan(column).all() else np.nan for column in columns
            ]
        r = int(np.argmax(distances(centroid)))
        r_point = [column[r] for column in columns]
        s_row = alive[int(np.argmax(distances(r_point)))]
        two_groups = alive.size - 2 * k >= k
        take(r)
        if two_groups:
            take(int(np.flatnonzero(alive == s_row)[0]))
    if alive.size:
        group[alive] = next_group
    return group


def _group_means(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    present = ~np.isnan(values)
    n_groups = int(group.max()) + 1 if group.size else 0
    out = np.full(values.shape, np.nan)
    for j in range(values.shape[1]):
        sums = np.bincount(
            group, weights=np.where(present[:, j], values[:, j], 0.0), minlength=n_groups
        )
        counts = np.bincount(group, weights=present[:, j], minlength=n_groups)
        means = np.divide(sums, counts, out=np.full(n_groups, np.nan), where=counts > 0)
        out[:, j] = np.where(present[:, j], means[group], np.nan)
    return out


def _ranking_groups(column: np.ndarray, k: int) -> np.ndarray:
    """Groups of k consecutive values in sorted order, the last taking the remainder."""
    group = np.full(column.size, -1, dtype=np.int64)
    rows = np.flatnonzero(~np.isnan(column))
    if rows.size == 0:
        return np.zeros(column.size, dtype=np.int64)
    ranked = rows[np.argsort(column[rows], kind="stable")]
    n_groups = max(rows.size // k, 1)
    group[ranked] = np.minimum(np.arange(rows.size) // k, n_groups - 1)
    group[group < 0] = 0  # missing cells: any group, their mean is not used
    return group


def microaggregate(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    k: int = 3,
    method: str = "mdav",
) -> pd.DataFrame:
    """Replace numeric values by the mean of their group of at least ``k`` records."""
    columns = require_columns(df, columns, parameter="columns")
    k = require_int("k", k, minimum=1)
    method = require_choice("method", method, MICROAGGREGATION_METHODS)
    values = np.column_stack(
        [require_numeric(df, c, technique="Microaggregation").to_numpy() for c in columns]
    )
    if len(df) < k:
        raise ParameterError(
            f"Parameter 'k' ({k}) is larger than the number of records ({len(df)}): "
            "microaggregation needs groups of at least k records."
        )
    if method == "mdav":
        aggregated = _group_means(values, mdav_groups(values, k))
    else:
        aggregated = np.column_stack(
            [
                _group_means(values[:, [j]], _ranking_groups(values[:, j], k))[:, 0]
                for j in range(values.shape[1])
            ]
        )
    out = df.copy()
    for j, column in enumerate(columns):
        out[column] = aggregated[:, j]
    return out
