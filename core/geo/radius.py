"""Counting the neighbours within a radius of every point without a loop over pairs:
runs of sorted grid cells counted wholesale, only the pairs near the radius checked one by
one (squared chord, the haversine where they could round differently); a bucket search
for data spread thinly or near the poles.

Separate from :mod:`core.geo.spatial_k` because it is the one costly part (about n log n
plus the close pairs), measured by ``bench/bench_geo.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from core.geo.sphere import EARTH_RADIUS_M, haversine_m
from core.measures.classes import equivalence_classes

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


def radius_counts(la: np.ndarray, lo: np.ndarray, radius_m: float) -> tuple[np.ndarray, ...]:
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
