"""For comparison, not for release: the exact table on the same cells, and the guide's
aggregation with small cells suppressed (PDPC guide, Annex A: Data aggregation), so the
data holder can judge what the noise costs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from core.dp.cells import as_columns, category_grid
from core.techniques.aggregation import aggregate
from core.validation import (
    require_columns,
    require_int,
    require_numeric,
)


def exact_cross_tab(
    df: pd.DataFrame,
    by: str | Iterable[str],
    *,
    categories: Mapping[str, Sequence[Any]],
    sums: str | Iterable[str] | None = None,
    means: str | Iterable[str] | None = None,
) -> pd.DataFrame:
    """The true counts, sums and means on the same cells, without clipping or noise.

    NOT FOR RELEASE: this is the data holder's reference to judge the noisy table.
    """
    by = require_columns(df, by, parameter="by")
    sums, means = as_columns(sums), as_columns(means)
    grid = category_grid(df, by, categories)
    n_cells = len(grid.keys)
    table = grid.keys.copy()
    counts = np.bincount(grid.cell, minlength=n_cells + 1)[:n_cells]
    table["count"] = counts
    for column in dict.fromkeys([*sums, *means]):
        values = require_numeric(df, column, technique="Sum").fillna(0.0).to_numpy()
        total = np.bincount(grid.cell, weights=values, minlength=n_cells + 1)[:n_cells]
        if column in sums:
            table[f"{column}_sum"] = total
        if column in means:
            with np.errstate(divide="ignore", invalid="ignore"):
                table[f"{column}_mean"] = np.where(counts > 0, total / counts, np.nan)
    return table


def suppressed_cross_tab(
    df: pd.DataFrame,
    by: str | Iterable[str],
    *,
    categories: Mapping[str, Sequence[Any]],
    sums: str | Iterable[str] | None = None,
    means: str | Iterable[str] | None = None,
    min_cell: int = 5,
) -> tuple[pd.DataFrame, str | None]:
    """The guide's release for comparison: aggregation with small cells suppressed.

    PDPC guide, Annex A: Data aggregation. Runs :func:`core.techniques.aggregate` on the
    records inside the category lists, puts its groups on the same cells as the DP table,
    and blanks every cell of fewer than ``min_cell`` records (empty cells included), as
    the guide advises ("watch out for groups having too few records"). Column
    ``suppressed`` marks them. Returns the table and the guide's small-cell warning text.
    """
    by = require_columns(df, by, parameter="by")
    min_cell = require_int("min_cell", min_cell, minimum=0)
    sums, means = as_columns(sums), as_columns(means)
    grid = category_grid(df, by, categories)
    n_cells = len(grid.keys)
    inside = grid.cell < n_cells
    work = grid.keys.iloc[grid.cell[inside]].reset_index(drop=True)  # user's labels
    values = list(dict.fromkeys([*sums, *means]))
    for column in values:
        work[column] = df[column].to_numpy()[inside]
    stats = ["count", *(["sum"] if sums else []), *(["mean"] if means else [])]
    groups = aggregate(work, by, values=values, stats=stats, min_cell=0)
    keep = ["count", *(f"{c}_sum" for c in sums), *(f"{c}_mean" for c in means)]
    groups = grid.keys.merge(groups[[*by, *keep]], on=by, how="left")
    groups["count"] = groups["count"].fillna(0)
    table = groups.astype({c: float for c in keep})
    counts = table["count"].to_numpy()
    small = counts < min_cell
    few = int((small & (counts > 0)).sum())
    table.loc[small, keep] = np.nan
    table["suppressed"] = small
    # The groups are counted, never named: their values are what could identify someone.
    message = (
        f"{few} group(s) have fewer than {min_cell} records and could identify someone; "
        "their cells are blanked (marked in 'suppressed'). Merge them (wider bands) or "
        "suppress them before release (PDPC guide, Annex A: Data aggregation)."
        if few
        else None
    )
    return table, message
