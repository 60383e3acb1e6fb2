"""The sphere every distance is measured on (radius :data:`EARTH_RADIUS_M`, the IUGG mean
radius: under 0.5 % from the WGS84 ellipsoid), the checked coordinates of a table, the
great-circle distance, the exact destination formula, and a grid of cells of equal size
in metres.

Separate because the transformations, the displacement report and spatial k all measure
on it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.validation import (
    require_columns,
    require_numeric,
)

#: Mean Earth radius (IUGG), metres.
EARTH_RADIUS_M = 6_371_008.8
#: Metres in one degree of latitude (and of longitude at the equator) on that sphere.
METRES_PER_DEGREE = EARTH_RADIUS_M * math.pi / 180.0


def checked_coordinates(
    df: pd.DataFrame, lat: str, lon: str, technique: str
) -> tuple[np.ndarray, ...]:
    """Latitude and longitude as float arrays, checked to lie on the globe."""
    require_columns(df, [lat, lon], parameter="lat/lon")
    la = require_numeric(df, lat, technique=technique).to_numpy(dtype=float)
    lo = require_numeric(df, lon, technique=technique).to_numpy(dtype=float)
    for name, values, bound in ((lat, la, 90.0), (lon, lo, 180.0)):
        bad = np.abs(values) > bound
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise ParameterError(
                f"{technique}: column '{name}' has {int(bad.sum())} value(s) outside "
                f"-{bound:g}..{bound:g}, the first in row {row + 1} ({values[row]!r}). "
                "Coordinates must be decimal degrees (latitude first); check the columns "
                "are not swapped."
            )
    return la, lo


def haversine_m(
    lat1: np.ndarray | float,
    lon1: np.ndarray | float,
    lat2: np.ndarray | float,
    lon2: np.ndarray | float,
) -> np.ndarray:
    """Great-circle distance in metres between points given in decimal degrees."""
    p1, p2 = np.radians(lat1), np.radians(lat2)
    dp = p2 - p1
    dl = np.radians(np.asarray(lon2, dtype=float) - np.asarray(lon1, dtype=float))
    h = np.sin(dp / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(np.clip(h, 0.0, 1.0)))


def destination(
    lat: np.ndarray, lon: np.ndarray, distance_m: np.ndarray, bearing_rad: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The point ``distance_m`` away from (lat, lon) along ``bearing_rad`` (0 = north)."""
    phi1, lam1 = np.radians(lat), np.radians(lon)
    delta = np.asarray(distance_m, dtype=float) / EARTH_RADIUS_M
    sin_phi1, cos_phi1 = np.sin(phi1), np.cos(phi1)
    sin_d, cos_d = np.sin(delta), np.cos(delta)
    sin_phi2 = np.clip(sin_phi1 * cos_d + cos_phi1 * sin_d * np.cos(bearing_rad), -1.0, 1.0)
    lam2 = lam1 + np.arctan2(np.sin(bearing_rad) * sin_d * cos_phi1, cos_d - sin_phi1 * sin_phi2)
    lon2 = (np.degrees(lam2) + 540.0) % 360.0 - 180.0
    return np.degrees(np.arcsin(sin_phi2)), lon2


def grid_cells(
    la: np.ndarray, lo: np.ndarray, cell_m: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Row and column of an (about) cell_m x cell_m grid, and the cell centres.

    Rows are bands of equal latitude height; within a row, columns are cell_m wide at the
    row's central latitude, so cells keep their size in metres away from the equator.
    """
    dlat = cell_m / METRES_PER_DEGREE
    row = np.floor((la + 90.0) / dlat)
    centre_lat = np.clip(row * dlat - 90.0 + dlat / 2, -90.0, 90.0)
    cos = np.maximum(np.cos(np.radians(centre_lat)), 1e-6)
    dlon = np.minimum(cell_m / (METRES_PER_DEGREE * cos), 360.0)
    col = np.floor((lo + 180.0) / dlon)
    centre_lon = np.clip(col * dlon - 180.0 + dlon / 2, -180.0, 180.0)
    return row, col, centre_lat, centre_lon
