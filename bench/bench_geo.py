"""Benchmark: coordinate transformations on 1M points, against plain NumPy baselines.

Usage: ``python bench/bench_geo.py [--rows 1000000] [--repeat 3]``

Target (issue 5): transforming 1M coordinates takes under one second on one core. For
each core function it prints the best of ``--repeat`` runs (whole call: validation, copy of
the table, the transformation) and the ratio to a baseline doing only the arithmetic:

- ``round_coordinates`` vs ``np.round`` on both arrays;
- ``snap_to_grid`` vs the same grid formula written inline;
- ``displace_points`` (ring 20-100 m, exact spherical destination) vs a flat-earth offset
  (``r cos t / M``, ``r sin t / (M cos lat)``), the cheapest correct-to-first-order method;
- ``displacement_report`` vs ``np`` haversine + percentiles;
- ``spatial_k`` (grid cells) vs ``pandas.groupby`` on the cells;
- ``spatial_k`` (100 m radius, runs of grid cells, issue 15) vs the bucket search it
  replaced (``_radius_counts_by_buckets``, still the fallback for thinly spread data);
  brute force is O(n^2), so there is no cheap arithmetic baseline.

Set ``OMP_NUM_THREADS=1`` (done below) so NumPy uses one core.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import best_wall_and_cpu  # noqa: E402

from core.geo import (  # noqa: E402
    METRES_PER_DEGREE,
    displace_points,
    displacement_report,
    round_coordinates,
    snap_to_grid,
    spatial_k,
)
from core.geo.radius import _radius_counts_by_buckets  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.rows
    rng = np.random.default_rng(0)
    lat = rng.uniform(1.22, 1.47, n)  # Singapore
    lon = rng.uniform(103.6, 104.05, n)
    df = pd.DataFrame(
        {"lat": lat, "lon": lon, "area": np.where(rng.random(n) < 0.8, "urban", "rural")}
    )
    moved = displace_points(df, "lat", "lon", max_m=100, min_m=20, seed=1)

    def np_round():
        return np.round(lat, 3), np.round(lon, 3)

    def np_grid():
        dlat = 100 / METRES_PER_DEGREE
        row = np.floor((lat + 90) / dlat)
        c = row * dlat - 90 + dlat / 2
        dlon = 100 / (METRES_PER_DEGREE * np.cos(np.radians(c)))
        return c, (np.floor((lon + 180) / dlon) + 0.5) * dlon - 180

    def np_flat_displace():
        g = np.random.default_rng(1)
        r = np.sqrt(g.random(n) * (100**2 - 20**2) + 20**2)
        t = g.random(n) * 2 * np.pi
        return lat + r * np.cos(t) / METRES_PER_DEGREE, lon + r * np.sin(t) / (
            METRES_PER_DEGREE * np.cos(np.radians(lat))
        )

    def np_report():
        a, b = moved["lat"].to_numpy(), moved["lon"].to_numpy()
        p1, p2 = np.radians(lat), np.radians(a)
        h = (
            np.sin((p2 - p1) / 2) ** 2
            + np.cos(p1) * np.cos(p2) * np.sin(np.radians(b - lon) / 2) ** 2
        )
        d = 2 * 6_371_008.8 * np.arcsin(np.sqrt(h))
        return d.mean(), np.percentile(d, [50, 90, 95, 99])

    def pandas_cells():
        dlat = 500 / METRES_PER_DEGREE
        row = np.floor((lat + 90) / dlat)
        dlon = 500 / (METRES_PER_DEGREE * np.cos(np.radians(row * dlat - 90 + dlat / 2)))
        col = np.floor((lon + 180) / dlon)
        return pd.DataFrame({"r": row, "c": col}).groupby(["r", "c"])["r"].transform("size")

    cases = [
        (
            "round_coordinates (3 dp)",
            lambda: round_coordinates(df, "lat", "lon", decimals=3),
            np_round,
        ),
        ("snap_to_grid (100 m)", lambda: snap_to_grid(df, "lat", "lon", cell_m=100), np_grid),
        (
            "displace_points (20-100 m)",
            lambda: displace_points(df, "lat", "lon", max_m=100, min_m=20, seed=1),
            np_flat_displace,
        ),
        (
            "displace_points (urban/rural)",
            lambda: displace_points(df, "lat", "lon", by="area", seed=1),
            np_flat_displace,
        ),
        ("displacement_report", lambda: displacement_report(df, moved, "lat", "lon"), np_report),
        (
            "spatial_k (500 m grid)",
            lambda: spatial_k(df, "lat", "lon", cell_m=500, warn=False),
            pandas_cells,
        ),
        (
            "spatial_k (100 m radius)",
            lambda: spatial_k(df, "lat", "lon", radius_m=100, warn=False),
            lambda: _radius_counts_by_buckets(lat, lon, 100.0),
        ),
    ]
    print(f"{n:,} coordinates, best of {args.repeat} (one core; load {os.getloadavg()[0]:.1f})")
    print(
        f"{'operation':32} {'core s':>8} {'CPU s':>7} {'baseline s':>11} {'CPU s':>7} {'ratio':>7}"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, core, baseline in cases:
            t_core, c_core = best_wall_and_cpu(core, args.repeat)
            t_base, c_base = best_wall_and_cpu(baseline, args.repeat)
            print(
                f"{name:32} {t_core:8.3f} {c_core:7.3f} {t_base:11.3f} {c_base:7.3f} "
                f"{t_core / t_base:6.1f}x"
            )


if __name__ == "__main__":
    main()
