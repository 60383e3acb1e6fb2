"""What a coordinate technique did: how far each point moved (haversine metres) and how
many points kept their grid cell, compared record by record.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.geo.sphere import checked_coordinates, grid_cells, haversine_m
from core.validation import (
    require_positive,
)

#: Percentiles reported for displacement distances.
PERCENTILES = (50, 90, 95, 99)


@dataclass(frozen=True, eq=False)
class DisplacementReport:
    """How far points actually moved (haversine metres) and how many kept their cell."""

    n_points: int
    mean_m: float
    max_m: float
    min_m: float
    percentiles_m: dict[int, float]
    same_cell_share: float
    cell_m: float
    distances_m: np.ndarray  # per compared point, for histograms

    def to_dict(self) -> dict[str, object]:
        return {
            "n_points": self.n_points,
            "mean_m": self.mean_m,
            "max_m": self.max_m,
            "min_m": self.min_m,
            "percentiles_m": {f"p{p}": v for p, v in self.percentiles_m.items()},
            "same_cell_share": self.same_cell_share,
            "cell_m": self.cell_m,
        }

    def explanation(self) -> str:
        if not self.n_points:
            return "No point with coordinates before and after to compare."
        return (
            f"{self.n_points:,} points moved {self.mean_m:,.0f} m on average (median "
            f"{self.percentiles_m[50]:,.0f} m, 95% within {self.percentiles_m[95]:,.0f} m, at "
            f"most {self.max_m:,.0f} m); {self.same_cell_share:.0%} stayed in their "
            f"{self.cell_m:g} m grid cell."
        )


def displacement_report(
    before: pd.DataFrame,
    after: pd.DataFrame,
    lat: str,
    lon: str,
    *,
    cell_m: float = 100.0,
) -> DisplacementReport:
    """Compare coordinates before and after a transformation, record by record.

    Records are matched by index (records removed in between are skipped); points missing
    on either side are left out. ``same_cell_share`` is the share of points still in the
    same cell of a ``cell_m`` grid: a high share means the change hides little at that scale.
    """
    cell_m = require_positive("cell_m", cell_m)
    if not after.index.isin(before.index).all():
        raise ParameterError(
            "The transformed table has records that are not in the original (its index "
            "differs): compare tables that come from the same original."
        )
    before = before.loc[after.index]
    la0, lo0 = checked_coordinates(before, lat, lon, "Displacement report")
    la1, lo1 = checked_coordinates(after, lat, lon, "Displacement report")
    ok = np.isfinite(la0) & np.isfinite(lo0) & np.isfinite(la1) & np.isfinite(lo1)
    la0, lo0, la1, lo1 = la0[ok], lo0[ok], la1[ok], lo1[ok]
    d = haversine_m(la0, lo0, la1, lo1)
    if not d.size:
        return DisplacementReport(0, 0.0, 0.0, 0.0, dict.fromkeys(PERCENTILES, 0.0), 0.0, cell_m, d)
    r0, c0, _, _ = grid_cells(la0, lo0, cell_m)
    r1, c1, _, _ = grid_cells(la1, lo1, cell_m)
    same = float(np.mean((r0 == r1) & (c0 == c1)))
    pct = np.percentile(d, PERCENTILES)
    return DisplacementReport(
        int(d.size),
        float(d.mean()),
        float(d.max()),
        float(d.min()),
        {p: float(v) for p, v in zip(PERCENTILES, pct, strict=True)},
        same,
        cell_m,
        d,
    )
