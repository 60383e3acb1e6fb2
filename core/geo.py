"""Coordinates: rounding, grid snapping, random displacement in metres, and spatial k.

GPS locations are indirect identifiers (PDPC guide, Step 1 and Annex B). Annex B rounds
decimal degrees "to the nearest two decimal places (equivalent to accuracy of 1.11 km) or
three decimal place (equivalent to accuracy of 111 m)", e.g. 1.27434, 103.79967 -> 1.274,
103.800. NIST SP 800-188 (Sec. 4.3.5) adds that "identity may be shielded in an urban
environment by adding +/-100 m, whereas a rural environment may require +/-5 km or more",
and that some locations (a house in which a single person lives) are highly identifying.

Distances are on a sphere of radius :data:`EARTH_RADIUS_M` (the IUGG mean radius): the
error against the WGS84 ellipsoid is under 0.5 %, far below any displacement used here.
Displacement uses the exact spherical destination formula, so the haversine distance
between a point and its displaced copy equals the drawn distance at any latitude (metres
per degree of longitude shrink with cos(latitude); no flat-earth approximation).

Everything is vectorised with NumPy; randomness comes from :func:`core.validation.make_rng`.
Missing coordinates stay missing.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import AnonymisationWarning, ParameterError
from core.measures.classes import equivalence_classes
from core.validation import (
    make_rng,
    require_columns,
    require_int,
    require_numeric,
    require_positive,
    shown_value,
)

#: Mean Earth radius (IUGG), metres.
EARTH_RADIUS_M = 6_371_008.8
#: Metres in one degree of latitude (and of longitude at the equator) on that sphere.
METRES_PER_DEGREE = EARTH_RADIUS_M * math.pi / 180.0
#: NIST SP 800-188, Sec. 4.3.5: about 100 m in a city, 5 km or more in the countryside.
NIST_RADII_M: dict[str, float] = {"urban": 100.0, "rural": 5000.0}
#: Percentiles reported for displacement distances.
PERCENTILES = (50, 90, 95, 99)
SPATIAL_METHODS = ("exact", "grid", "decimals", "radius")


# --- helpers ------------------------------------------------------------------------


def _coordinates(df: pd.DataFrame, lat: str, lon: str, technique: str) -> tuple[np.ndarray, ...]:
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


def _with_coordinates(
    df: pd.DataFrame, lat: str, lon: str, new_lat: np.ndarray, new_lon: np.ndarray
) -> pd.DataFrame:
    out = df.copy()
    out[lat] = new_lat
    out[lon] = new_lon
    return out


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


def rounding_accuracy_m(decimals: int, latitude: float = 0.0) -> tuple[float, float]:
    """Size in metres of one step of the last kept decimal: (north-south, east-west).

    PDPC guide, Annex B: 2 decimals ~ 1.11 km, 3 decimals ~ 111 m (north-south, and
    east-west at the equator; east-west shrinks with cos(latitude): in Singapore,
    latitude 1.3, it is 99.97 % of that). A rounded point is at most half a step away
    in each direction.
    """
    decimals = require_int("decimals", decimals, minimum=0)
    step = 10.0**-decimals * METRES_PER_DEGREE
    return step, step * math.cos(math.radians(latitude))


def describe_rounding(decimals: int, latitude: float = 0.0) -> str:
    """One sentence on what rounding to ``decimals`` places means in metres."""
    ns, ew = rounding_accuracy_m(decimals, latitude)
    return (
        f"Rounding to {decimals} decimal place(s) keeps the location to about {_metres(ns)} "
        f"north-south and {_metres(ew)} east-west at latitude {latitude:.2f} (points move at "
        f"most {_metres(math.hypot(ns, ew) / 2)}); PDPC guide, Annex B."
    )


def _metres(value: float) -> str:
    return f"{value / 1000:.2f} km" if value >= 1000 else f"{value:.0f} m"


# --- transformations ------------------------------------------------------------------


def round_coordinates(df: pd.DataFrame, lat: str, lon: str, *, decimals: int = 3) -> pd.DataFrame:
    """Round both coordinates to ``decimals`` places (PDPC guide, Annex B: GPS location).

    2 decimals is about 1.11 km, 3 decimals about 111 m (see :func:`rounding_accuracy_m`).
    """
    decimals = require_int("decimals", decimals, minimum=0)
    if decimals > 6:
        raise ParameterError(
            f"Parameter 'decimals' is {decimals}: 6 places is already about 0.1 m, more "
            "changes nothing. Use 2 (about 1.11 km) or 3 (about 111 m) as Annex B suggests."
        )
    la, lo = _coordinates(df, lat, lon, "Rounding coordinates")
    return _with_coordinates(df, lat, lon, np.round(la, decimals), np.round(lo, decimals))


def _grid_cells(
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


def snap_to_grid(df: pd.DataFrame, lat: str, lon: str, *, cell_m: float) -> pd.DataFrame:
    """Move every point to the centre of its cell in a grid of ``cell_m`` metres.

    A generalisation (PDPC guide, Annex A; Annex B "GPS location") with the same size in
    metres everywhere, unlike decimal rounding whose east-west size shrinks with latitude.
    Every point in a cell gets the same coordinates, so spatial k is the cell count.
    """
    cell_m = require_positive("cell_m", cell_m)
    la, lo = _coordinates(df, lat, lon, "Snapping to a grid")
    _, _, centre_lat, centre_lon = _grid_cells(la, lo, cell_m)
    return _with_coordinates(df, lat, lon, centre_lat, centre_lon)


def _radii(
    df: pd.DataFrame,
    by: str | None,
    radii: Mapping[str, float | Sequence[float]] | None,
    min_m: float,
    max_m: float | None,
) -> tuple[np.ndarray | float, np.ndarray | float]:
    if by is None:
        if max_m is None:
            raise ParameterError(
                "Displacement needs 'max_m' (the largest distance in metres), or 'by' naming a "
                "column such as urban/rural with 'radii' per value (NIST SP 800-188: ~100 m "
                "urban, ~5 km rural)."
            )
        return min_m, max_m
    require_columns(df, by, parameter="by")
    radii = dict(NIST_RADII_M if radii is None else radii)
    if not radii:
        raise ParameterError("Parameter 'radii' is empty: give a distance for each value of 'by'.")
    keys = df[by].astype("str").to_numpy(dtype=object)
    lows = np.full(len(df), np.nan)
    highs = np.full(len(df), np.nan)
    for value, spec in radii.items():
        low, high = (min_m, spec) if np.isscalar(spec) else tuple(spec)
        low = require_positive(f"radii[{value!r}] minimum", low, allow_zero=True)
        high = require_positive(f"radii[{value!r}]", high)
        hit = keys == str(value)
        lows[hit], highs[hit] = low, high
    missing = np.isnan(highs)
    if missing.any():
        if max_m is None:
            row = int(np.flatnonzero(missing)[0])
            raise ParameterError(
                f"Column '{by}' has value {shown_value(df[by].iloc[row])} (row {row + 1}) with no radius in "
                f"'radii' ({', '.join(map(str, radii))}). Add it to 'radii', or give 'max_m' as "
                "the radius for all other values."
            )
        lows[missing], highs[missing] = min_m, max_m
    return lows, highs


def displace_points(
    df: pd.DataFrame,
    lat: str,
    lon: str,
    *,
    max_m: float | None = None,
    min_m: float = 0.0,
    by: str | None = None,
    radii: Mapping[str, float | Sequence[float]] | None = None,
    seed: int | None = None,
) -> pd.DataFrame:
    """Move every point a random distance in a random direction (NIST SP 800-188 4.3.5).

    The new point is uniform over the area of the disc of radius ``max_m`` around the
    original, or of the ring ("donut") between ``min_m`` and ``max_m`` so that no point
    stays almost where it was: distance ``sqrt(U (max^2 - min^2) + min^2)``, bearing uniform.
    With ``by`` (e.g. a column holding "urban"/"rural") the radii come from ``radii``:
    value -> max metres, or value -> [min, max]; by default NIST's 100 m urban and 5 km
    rural. Data perturbation in the guide's terms (Annex A; Annex B "GPS location").
    """
    min_m = require_positive("min_m", min_m, allow_zero=True)
    if max_m is not None:
        max_m = require_positive("max_m", max_m)
        if min_m >= max_m:
            raise ParameterError(
                f"Parameter 'min_m' ({min_m:g}) must be smaller than 'max_m' ({max_m:g})."
            )
    lows, highs = _radii(df, by, radii, min_m, max_m)
    if np.any(np.asarray(lows) >= np.asarray(highs)):
        raise ParameterError("Each minimum radius must be smaller than its maximum radius.")
    la, lo = _coordinates(df, lat, lon, "Displacing points")
    rng = make_rng(seed)
    n = len(df)
    u = rng.random(n)
    bearing = rng.random(n) * (2 * math.pi)
    lows2 = np.square(lows)
    distance = np.sqrt(u * (np.square(highs) - lows2) + lows2)
    new_lat, new_lon = destination(la, lo, distance, bearing)
    return _with_coordinates(df, lat, lon, new_lat, new_lon)


# --- what was done --------------------------------------------------------------------


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
    la0, lo0 = _coordinates(before, lat, lon, "Displacement report")
    la1, lo1 = _coordinates(after, lat, lon, "Displacement report")
    ok = np.isfinite(la0) & np.isfinite(lo0) & np.isfinite(la1) & np.isfinite(lo1)
    la0, lo0, la1, lo1 = la0[ok], lo0[ok], la1[ok], lo1[ok]
    d = haversine_m(la0, lo0, la1, lo1)
    if not d.size:
        return DisplacementReport(0, 0.0, 0.0, 0.0, dict.fromkeys(PERCENTILES, 0.0), 0.0, cell_m, d)
    r0, c0, _, _ = _grid_cells(la0, lo0, cell_m)
    r1, c1, _, _ = _grid_cells(la1, lo1, cell_m)
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


# --- where areas are ----------------------------------------------------------------

#: Column names read as coordinates or area shapes (compared in lower case).
LATITUDE_NAMES = ("latitude", "lat")
LONGITUDE_NAMES = ("longitude", "lon", "lng", "long")
SHAPE_NAMES = ("geometry", "geojson", "shape", "polygon", "boundary")
_SHAPE_TYPES = ("Polygon", "MultiPolygon")


def coordinate_columns(df: pd.DataFrame) -> tuple[str, str] | None:
    """The (latitude, longitude) columns of a table, found by name (e.g. ``lat``/``lon``,
    ``latitude``/``longitude``) among numeric columns; None when there is no such pair."""
    numeric = {
        str(c).strip().lower(): c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])
    }
    lat = next((numeric[n] for n in LATITUDE_NAMES if n in numeric), None)
    lon = next((numeric[n] for n in LONGITUDE_NAMES if n in numeric), None)
    return None if lat is None or lon is None else (str(lat), str(lon))


def shape_column(df: pd.DataFrame) -> str | None:
    """The column holding area shapes (GeoJSON geometry text), found by name, or None."""
    names = {str(c).strip().lower(): str(c) for c in df.columns}
    return next((names[n] for n in SHAPE_NAMES if n in names), None)


def area_shapes(df: pd.DataFrame, column: str) -> list[dict | None]:
    """The GeoJSON Polygon or MultiPolygon of each row of ``column`` (None where empty).

    Coordinates are longitude, latitude in decimal degrees, as GeoJSON (RFC 7946) orders
    them. A value that is not such a geometry raises a :class:`ParameterError` naming the
    row and what to do.
    """
    require_columns(df, column, parameter="shape column")
    shapes: list[dict | None] = []
    for row, value in enumerate(df[column].tolist()):
        if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
            shapes.append(None)
            continue
        try:
            shape = json.loads(value) if isinstance(value, str) else value
        except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested deep
            shape = None
        if isinstance(shape, dict) and shape.get("type") == "Feature":
            shape = shape.get("geometry")
        if not (
            isinstance(shape, dict)
            and shape.get("type") in _SHAPE_TYPES
            and isinstance(shape.get("coordinates"), list)
        ):
            raise ParameterError(
                f"Column '{column}', row {row + 1}: not a GeoJSON Polygon or MultiPolygon "
                f"({str(value)[:40]!r}...). Give each area's shape as GeoJSON geometry text, "
                'e.g. {"type": "Polygon", "coordinates": [[[103.8, 1.3], ...]]} (longitude '
                "first), or leave the cell empty."
            )
        shapes.append(shape)
    return shapes


# --- spatial k ------------------------------------------------------------------------


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
    la, lo = _coordinates(df, lat, lon, "Spatial k")
    size: float | None = None
    if method == "radius":
        size = require_positive("radius_m", radius_m)
        counts, location = _radius_counts(la, lo, size)
    else:
        if method == "grid":
            size = require_positive("cell_m", cell_m)
            row, col, _, _ = _grid_cells(la, lo, size)
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


_PAIR_CHUNK = 4_000_000
#: Pairs per chunk in :func:`_count_near_in_runs`: small enough that its arrays stay in
#: the processor's cache (2 MB each), large enough that the Python overhead is small.
_CACHED_PAIR_CHUNK = 1 << 18


#: Grid cells per radius each way: smaller cells leave fewer pairs near the boundary to
#: check one by one, but make the grid bigger (5 measured fastest at 1M points).
_CELLS_PER_RADIUS = 5
#: Relative margin on hav(r / R): cells counted wholesale are at least this far inside or
#: outside r, so the pair-by-pair test (squared chord) would decide their points the same.
_MARGIN = 1e-6
#: Largest grid, in cells per point (data spread more thinly use the bucket search).
_MAX_CELLS_PER_POINT = 16


def _hav(x: float) -> float:
    return math.sin(x / 2) ** 2


def _column_reach(
    angle: float, d_row: int, height: float, width: float, cos_lo: float, cos_hi: float
) -> tuple[int, int]:
    """Column offsets whose cells are wholly within r (<= inner) or may be (<= outer).

    For cells ``d_row`` rows apart, from hav(d/R) = hav(dlat) + cos(lat1) cos(lat2) hav(dlon)
    with the smallest and largest cos(lat) of the data; -1 means none.
    """
    limit = _hav(angle)  # the radius as an angle (radians of arc)
    near_lat, far_lat = max(abs(d_row) - 1, 0) * height, (abs(d_row) + 1) * height
    inner = outer = -1
    for d_col in range(_CELLS_PER_RADIUS + 2):
        near_lon, far_lon = max(d_col - 1, 0) * width, (d_col + 1) * width
        if _hav(far_lat) + cos_hi**2 * _hav(far_lon) <= limit * (1 - _MARGIN):
            inner = d_col
        if _hav(near_lat) + cos_lo**2 * _hav(near_lon) <= limit * (1 + _MARGIN):
            outer = d_col
    return inner, outer


def _radius_counts(la: np.ndarray, lo: np.ndarray, radius_m: float) -> tuple[np.ndarray, ...]:
    """Neighbours within ``radius_m`` (self included), by runs of grid cells, no pair loop.

    Cells are r / 5 tall (``_CELLS_PER_RADIUS``) and wide enough in longitude that two
    points within r are at most 5 cells apart each way. Points are sorted by cell (row, then column), so for each point
    and each row of cells within r, the cells wholly within r of any point of its cell form
    one run of sorted points (counted with two look-ups in the running count of points per
    cell), and the cells that may hold neighbours two short runs on either side: only the
    pairs in those are checked one by one, with :func:`_count_near_in_runs` exactly as
    :func:`_radius_counts_by_buckets` does (same counts). Data spread too thinly (grid too
    big), radii under 1 m or data near the poles use that function.
    """
    ok = np.isfinite(la) & np.isfinite(lo)
    if not ok.any() or radius_m < 1.0:
        return _radius_counts_by_buckets(la, lo, radius_m)
    a, b = la[ok], lo[ok]
    cells = _CELLS_PER_RADIUS
    angle = radius_m / EARTH_RADIUS_M
    south, west = float(a.min()), float(b.min())
    lats = np.radians(
        np.clip([south - math.degrees(angle), float(a.max()) + math.degrees(angle)], -90.0, 90.0)
    )
    cos_lo = float(np.cos(lats).min())
    cos_hi = 1.0 if lats[0] <= 0 <= lats[1] else float(np.cos(lats).max())
    ratio = math.sin(angle / 2) / max(cos_lo, 1e-12)
    if ratio >= 0.5:  # near a pole (or a huge radius): cells would not be narrow
        return _radius_counts_by_buckets(la, lo, radius_m)
    # radians; cells a little more than r / cells, so that cells + 1 rows (or columns)
    # apart are beyond r by more than the margin and never searched
    height = angle / cells * (1 + 10 * _MARGIN)
    width = 2 * math.asin(ratio) / cells * (1 + 10 * _MARGIN)
    row = np.floor(np.radians(a - south) / height).astype(np.int64)
    col = np.floor(np.radians(b - west) / width).astype(np.int64)
    # padding: rows and columns of empty cells, so every look-up stays in the grid
    n_rows, n_cols = int(row.max()) + 1 + 2 * cells, int(col.max()) + 1 + 2 * (cells + 2)
    if n_rows * n_cols > _MAX_CELLS_PER_POINT * a.size + 1_000_000:
        return _radius_counts_by_buckets(la, lo, radius_m)
    cell = (row + cells) * n_cols + col + cells + 2
    order, cell = _sort_by_cell(cell, n_rows * n_cols)
    # before[c]: points in cells before c, so cells c1..c2 hold points before[c1]..before[c2+1]
    before = np.zeros(n_rows * n_cols + 1, dtype=np.int64)
    np.cumsum(np.bincount(cell, minlength=n_rows * n_cols), out=before[1:])
    lat_s, lon_s = a[order], b[order]
    lat_r, lon_r = np.radians(lat_s), np.radians(lon_s)
    cos_lat = np.cos(lat_r)
    unit = (cos_lat * np.cos(lon_r), cos_lat * np.sin(lon_r), np.sin(lat_r))
    found = np.zeros(a.size, dtype=np.int64)
    for d_row in range(-cells, cells + 1):
        inner, outer = _column_reach(angle, d_row, height, width, cos_lo, cos_hi)
        if outer < 0:
            continue
        centre = cell + d_row * n_cols
        if inner >= 0:
            found += before[centre + inner + 1] - before[centre - inner]
        # each uncertain pair once: rows below, and the right-hand run of the own row
        if d_row < 0:
            continue
        if inner < 0:  # no cell wholly within r: one run across
            runs = [(centre - outer, centre + outer + 1)]
        else:
            runs = [(centre + inner + 1, centre + outer + 1)]
            if d_row > 0:
                runs.append((centre - outer, centre - inner))
        for first_cell, end_cell in runs:
            first = before[first_cell]
            _count_near_in_runs(
                unit, lat_s, lon_s, first, before[end_cell] - first, radius_m, found
            )
    counts = np.zeros(la.size, dtype=np.int64)
    counts[np.flatnonzero(ok)[order]] = found
    if not ok.all():  # missing coordinates: one location of their own
        counts[~ok] = int((~ok).sum())
    return counts, _location_codes(la, lo)


def _sort_by_cell(cell: np.ndarray, n_cells: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the points in cell order (ties in their original order) and the sorted
    cells: one plain sort of ``cell * 2^bits + position``, several times faster than a
    stable argsort of the cells (NumPy sorts integers with SIMD, arg-sorts them without)."""
    bits = max(int(cell.size - 1).bit_length(), 1)
    if int(n_cells).bit_length() + bits > 63:
        order = np.argsort(cell, kind="stable")
        return order, cell[order]
    key = cell << bits
    key |= np.arange(cell.size, dtype=np.int64)
    key.sort()
    return key & ((1 << bits) - 1), key >> bits


def _count_near_in_runs(
    unit: tuple[np.ndarray, ...],
    lat: np.ndarray,
    lon: np.ndarray,
    first: np.ndarray,
    many: np.ndarray,
    radius_m: float,
    found: np.ndarray,
) -> None:
    """Test each point p against points ``first[p]`` .. ``first[p] + many[p] - 1`` (points in
    sorted order) and add every pair within ``radius_m`` to both points' counts in ``found``.

    Squared chord of the unit vectors against chord^2 = 4 hav(r / R); where the chord and
    the haversine could round differently, the haversine decides. Point p's own pairs are
    summed with a running count read at the ends of its run, so only the partners' side
    needs a ``bincount``.
    """
    limit = 4 * math.sin(radius_m / (2 * EARTH_RADIUS_M)) ** 2
    for lo_i, hi_i in _chunks(many, _CACHED_PAIR_CHUNK):
        sizes = many[lo_i:hi_i]
        ends = np.cumsum(sizes)
        total = int(ends[-1])
        # pair -> its point (local): one step up at the end of each run (np.repeat is slower)
        owner = np.cumsum(np.bincount(ends[:-1], minlength=total + 1)[:total])
        j = np.arange(total, dtype=np.int64)
        j += (first[lo_i:hi_i] - (ends - sizes))[owner]
        chord = np.zeros(total)
        step = np.empty(total)
        for axis in unit:
            np.subtract(axis[lo_i:hi_i][owner], axis[j], out=step)
            np.multiply(step, step, out=step)
            chord += step
        near = chord <= limit
        close = np.flatnonzero(
            np.abs(np.subtract(chord, limit, out=step), out=step) <= 1e-9 * limit
        )
        if close.size:
            i = lo_i + owner[close]
            near[close] = haversine_m(lat[i], lon[i], lat[j[close]], lon[j[close]]) <= radius_m
        running = np.zeros(total + 1, dtype=np.int64)
        np.cumsum(near, out=running[1:])
        found[lo_i:hi_i] += running[ends] - running[ends - sizes]
        # partners of a chunk lie between its first run's start and its last run's end
        # (runs start and end in cell order), so count them in that span only
        low, high = int(first[lo_i]), int(first[hi_i - 1] + many[hi_i - 1])
        found[low:high] += np.bincount(j[near] - low, minlength=high - low)


#: Odd 64-bit multipliers (from SplitMix64) that spread both coordinates over all bits.
_MIX_LAT, _MIX_LON = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9)


def _location_codes(la: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """Dense codes of the exact (lat, lon) pairs in order of first appearance, as
    :func:`core.measures.classes.equivalence_classes` numbers them (NaN equals NaN, -0.0 equals 0.0).

    Each pair is mixed into one 64-bit number, which pandas numbers in one fast hashing
    pass; every record is then checked against the first record of its code, and only if
    two different pairs happened to mix to the same number are the pairs hashed whole (as
    complex numbers, about twice as slow)."""
    lat_bits, lon_bits = _canonical_bits(la), _canonical_bits(lo)
    mixed = lat_bits * _MIX_LAT
    mixed ^= (lon_bits + _MIX_LAT) * _MIX_LON
    codes, _ = pd.factorize(mixed)
    codes = codes.astype(np.int64, copy=False)
    if codes.size:
        # codes count up in order of first appearance: a new code exceeds all before it
        is_new = np.empty(codes.size, dtype=bool)
        is_new[0] = True
        np.greater(codes[1:], np.maximum.accumulate(codes)[:-1], out=is_new[1:])
        first = np.flatnonzero(is_new)[codes]
        if (lat_bits[first] == lat_bits).all() and (lon_bits[first] == lon_bits).all():
            return codes
    pair = np.empty(la.size, dtype=np.complex128)
    pair.real, pair.imag = la + 0.0, lo + 0.0
    codes, _ = pd.factorize(pair, use_na_sentinel=False)
    return codes.astype(np.int64, copy=False)


def _canonical_bits(values: np.ndarray) -> np.ndarray:
    """The bits of each float, with every NaN the same and -0.0 as 0.0 (equal values, equal
    bits)."""
    canonical = np.where(np.isnan(values), np.nan, values + 0.0)
    return canonical.view(np.uint64)


def _radius_counts_by_buckets(
    la: np.ndarray, lo: np.ndarray, radius_m: float
) -> tuple[np.ndarray, ...]:
    """Neighbours within ``radius_m`` (self included), via a grid of buckets >= radius wide.

    Two points within r are at most one bucket apart in each direction: buckets are r / R
    radians tall, and wide enough that hav(dlon) cos^2(max |lat|) >= hav(r / R) (from the
    haversine formula), so only the 3 x 3 neighbouring buckets are searched, and candidates
    are checked with the exact haversine distance. Points across the 180th meridian are not
    counted as neighbours.
    """
    n = la.size
    exact = equivalence_classes(pd.DataFrame({"lat": la, "lon": lo}), ["lat", "lon"])
    location = exact.class_of_record
    ok = np.isfinite(la) & np.isfinite(lo)
    counts = np.zeros(n, dtype=np.int64)
    if not ok.all():  # missing coordinates: one location of their own
        counts[~ok] = int((~ok).sum())
    idx = np.flatnonzero(ok)
    if not idx.size:
        return counts, location
    a, b = la[idx], lo[idx]
    dlat = radius_m / EARTH_RADIUS_M * 180.0 / math.pi
    max_lat = min(float(np.abs(a).max()) + dlat, 90.0)
    ratio = math.sin(radius_m / (2 * EARTH_RADIUS_M)) / max(math.cos(math.radians(max_lat)), 1e-12)
    dlon = 360.0 if ratio >= 1 else math.degrees(2 * math.asin(ratio)) * (1 + 1e-9)
    dlat *= 1 + 1e-9
    row = np.floor((a + 90.0) / dlat).astype(np.int64)
    col = np.floor((b + 180.0) / dlon).astype(np.int64) + 1  # +1: col - 1 stays >= 0
    n_cols = int(col.max()) + 2
    key = row * n_cols + col
    order = np.argsort(key, kind="stable")  # points of one bucket are contiguous
    cell_keys, starts, sizes = np.unique(key[order], return_index=True, return_counts=True)
    lat_r, lon_r = np.radians(a[order]), np.radians(b[order])
    unit = (np.cos(lat_r) * np.cos(lon_r), np.cos(lat_r) * np.sin(lon_r), np.sin(lat_r))
    limit = 4 * math.sin(radius_m / (2 * EARTH_RADIUS_M)) ** 2  # chord^2 = 4 hav(d / R)
    found = np.ones(idx.size, dtype=np.int64)  # each point is within r of itself
    # Each pair once: same bucket (j after i), then 4 of the 8 neighbouring buckets.
    for d_row, d_col in ((0, 0), (0, 1), (1, -1), (1, 0), (1, 1)):
        if d_row == d_col == 0:
            cells = other = np.arange(cell_keys.size)
        else:
            pos = np.minimum(
                np.searchsorted(cell_keys, cell_keys + d_row * n_cols + d_col), cell_keys.size - 1
            )
            cells = np.flatnonzero(cell_keys[pos] == cell_keys + d_row * n_cols + d_col)
            other = pos[cells]
        # one row per point of the first bucket: where its partners start and how many
        first = np.repeat(starts[other], sizes[cells])
        point = _ranges(starts[cells], sizes[cells])
        many = np.repeat(sizes[other], sizes[cells])
        if d_row == d_col == 0:  # partners after the point in its own bucket
            many = first + many - point - 1
            first = point + 1
        for lo_i, hi_i in _chunks(many):
            i = np.repeat(point[lo_i:hi_i], many[lo_i:hi_i])
            j = _ranges(first[lo_i:hi_i], many[lo_i:hi_i])
            chord = _squared_chord(unit, i, j)
            near = chord <= limit
            # where the two formulas could round differently, decide with the haversine
            close = np.flatnonzero(np.abs(chord - limit) <= 1e-9 * limit)
            if close.size:
                near[close] = (
                    haversine_m(
                        a[order[i[close]]],
                        b[order[i[close]]],
                        a[order[j[close]]],
                        b[order[j[close]]],
                    )
                    <= radius_m
                )
            found += np.bincount(i[near], minlength=idx.size)
            found += np.bincount(j[near], minlength=idx.size)
    counts[idx[order]] = found
    return counts, location


def _squared_chord(unit: tuple[np.ndarray, ...], i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """|u_i - u_j|^2 for unit vectors given as (x, y, z) arrays, computed in place."""
    chord = np.zeros(i.size)
    step = np.empty(i.size)
    for axis in unit:
        np.subtract(axis[i], axis[j], out=step)
        np.multiply(step, step, out=step)
        chord += step
    return chord


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(s, s + n)`` for each start ``s`` and length ``n``."""
    out = np.arange(int(lengths.sum()), dtype=np.int64)
    out += np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    return out


def _chunks(sizes: np.ndarray, chunk: int = _PAIR_CHUNK) -> list[tuple[int, int]]:
    """Split positions so that each chunk expands to at most ~``chunk`` pairs."""
    if not sizes.size:
        return []
    cum = np.cumsum(sizes)
    bounds = np.searchsorted(cum, np.arange(chunk, int(cum[-1]), chunk))
    edges = [0, *(int(x) + 1 for x in bounds), sizes.size]
    edges = sorted(set(min(e, sizes.size) for e in edges))
    return list(zip(edges[:-1], edges[1:], strict=False))
