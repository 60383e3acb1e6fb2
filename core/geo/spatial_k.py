"""Spatial k (NIST SP 800-188 4.3.5): how many records share each record's location,
exactly, in a grid cell, at rounded coordinates or within a radius, and a warning when a
location (nearly) identifies a person, as a house where one person lives does.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import AnonymisationWarning, ParameterError
from core.geo.radius import radius_counts
from core.geo.sphere import checked_coordinates, grid_cells
from core.measures.classes import equivalence_classes
from core.validation import (
    require_int,
    require_positive,
)

SPATIAL_METHODS = ("exact", "grid", "decimals", "radius")


@dataclass(frozen=True, eq=False)
class SpatialK:
    """For each record, how many records share its location (NIST SP 800-188 4.3.5).

    ``counts[i]`` includes record ``i`` itself, like an equivalence class size (PDPC guide,
    Annex C), so 1 means the location alone singles the person out. ``location[i]`` is
    the id of record ``i``'s location (its cell, or its exact coordinates for "radius").
    Records with missing coordinates form one location of their own.
    """

    method: str
    size: float | None  # cell_m, decimals or radius_m
    k: int
    counts: np.ndarray
    location: np.ndarray

    @property
    def n_records(self) -> int:
        return int(self.counts.size)

    @property
    def min_count(self) -> int:
        return int(self.counts.min()) if self.counts.size else 0

    def below(self, k: int | None = None) -> np.ndarray:
        """Records whose location is shared by fewer than ``k`` records."""
        return self.counts < (self.k if k is None else k)

    @property
    def records_below(self) -> int:
        return int(self.below().sum())

    @property
    def n_locations(self) -> int:
        return int(np.unique(self.location).size) if self.location.size else 0

    @property
    def locations_below(self) -> int:
        """Distinct locations shared by fewer than k records."""
        return int(np.unique(self.location[self.below()]).size)

    @property
    def unique_records(self) -> int:
        return int((self.counts == 1).sum())

    def describe_method(self) -> str:
        if self.method == "grid":
            return f"same {self.size:g} m grid cell"
        if self.method == "decimals":
            return f"same coordinates rounded to {self.size:g} decimals"
        if self.method == "radius":
            return f"within {self.size:g} m"
        return "exactly the same coordinates"

    @property
    def warning(self) -> str | None:
        """A plain warning when some locations (nearly) identify a person, else None."""
        if not self.records_below:
            return None
        return (
            f"{self.records_below:,} record(s) at {self.locations_below:,} location(s) share "
            f"their location ({self.describe_method()}) with fewer than {self.k} records, "
            f"{self.unique_records:,} with nobody: the location alone nearly identifies a "
            "person (NIST SP 800-188 4.3.5, e.g. a house where one person lives). Use a "
            "larger grid, fewer decimals or a larger displacement, or suppress those records."
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "method": self.method,
            "size": self.size,
            "k": self.k,
            "n_records": self.n_records,
            "n_locations": self.n_locations,
            "min_count": self.min_count,
            "records_below_k": self.records_below,
            "locations_below_k": self.locations_below,
            "unique_records": self.unique_records,
            "warning": self.warning,
        }


def spatial_k(
    df: pd.DataFrame,
    lat: str,
    lon: str,
    *,
    k: int = 5,
    cell_m: float | None = None,
    decimals: int | None = None,
    radius_m: float | None = None,
    warn: bool = True,
) -> SpatialK:
    """How many records share each record's location, and which fall below ``k``.

    At most one of: ``cell_m`` (same cell of a grid of that size), ``decimals`` (same
    rounded coordinates), ``radius_m`` (within that many metres, haversine, counted with a
    grid of buckets so the cost grows with the number of close pairs, not n^2). With none,
    records must share exactly the same coordinates (use this on already rounded or snapped
    data). Emits an :class:`AnonymisationWarning` when locations fall below ``k``.
    """
    k = require_int("k", k, minimum=1)
    chosen = [
        name
        for name, v in (("grid", cell_m), ("decimals", decimals), ("radius", radius_m))
        if v is not None
    ]
    if len(chosen) > 1:
        raise ParameterError(
            "Give at most one of 'cell_m', 'decimals' and 'radius_m' for spatial k."
        )
    method = chosen[0] if chosen else "exact"
    la, lo = checked_coordinates(df, lat, lon, "Spatial k")
    size: float | None = None
    if method == "radius":
        size = require_positive("radius_m", radius_m)
        counts, location = radius_counts(la, lo, size)
    else:
        if method == "grid":
            size = require_positive("cell_m", cell_m)
            row, col, _, _ = grid_cells(la, lo, size)
            keys = pd.DataFrame({"row": row, "col": col})
        elif method == "decimals":
            size = require_int("decimals", decimals, minimum=0)
            keys = pd.DataFrame({"lat": np.round(la, int(size)), "lon": np.round(lo, int(size))})
        else:
            keys = pd.DataFrame({"lat": la, "lon": lo})
        classes = equivalence_classes(keys, list(keys.columns))
        counts, location = classes.size_of_record, classes.class_of_record
    result = SpatialK(method, size, k, np.asarray(counts, dtype=np.int64), location)
    if warn and result.warning:
        warnings.warn(result.warning, AnonymisationWarning, stacklevel=2)
    return result
