"""The coordinate techniques: rounding to decimals (PDPC guide, Annex B: 2 decimals is
about 1.11 km, 3 about 111 m), snapping to a grid of equal size in metres, and random
displacement within a disc or ring (NIST SP 800-188 4.3.5: about 100 m urban, 5 km rural).
Each returns a new table; missing coordinates stay missing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.geo.sphere import METRES_PER_DEGREE, checked_coordinates, destination, grid_cells
from core.validation import (
    make_rng,
    require_columns,
    require_int,
    require_positive,
    shown_value,
)

#: NIST SP 800-188, Sec. 4.3.5: about 100 m in a city, 5 km or more in the countryside.
NIST_RADII_M: dict[str, float] = {"urban": 100.0, "rural": 5000.0}


def _with_coordinates(
    df: pd.DataFrame, lat: str, lon: str, new_lat: np.ndarray, new_lon: np.ndarray
) -> pd.DataFrame:
    out = df.copy()
    out[lat] = new_lat
    out[lon] = new_lon
    return out


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
    la, lo = checked_coordinates(df, lat, lon, "Rounding coordinates")
    return _with_coordinates(df, lat, lon, np.round(la, decimals), np.round(lo, decimals))


def snap_to_grid(df: pd.DataFrame, lat: str, lon: str, *, cell_m: float) -> pd.DataFrame:
    """Move every point to the centre of its cell in a grid of ``cell_m`` metres.

    A generalisation (PDPC guide, Annex A; Annex B "GPS location") with the same size in
    metres everywhere, unlike decimal rounding whose east-west size shrinks with latitude.
    Every point in a cell gets the same coordinates, so spatial k is the cell count.
    """
    cell_m = require_positive("cell_m", cell_m)
    la, lo = checked_coordinates(df, lat, lon, "Snapping to a grid")
    _, _, centre_lat, centre_lon = grid_cells(la, lo, cell_m)
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
    la, lo = checked_coordinates(df, lat, lon, "Displacing points")
    rng = make_rng(seed)
    n = len(df)
    u = rng.random(n)
    bearing = rng.random(n) * (2 * math.pi)
    lows2 = np.square(lows)
    distance = np.sqrt(u * (np.square(highs) - lows2) + lows2)
    new_lat, new_lon = destination(la, lo, distance, bearing)
    return _with_coordinates(df, lat, lon, new_lat, new_lon)
