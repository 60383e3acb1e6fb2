"""Benchmark: a differentially private 20-cell cross-tabulation against a plain groupby.

Usage: ``python bench/bench_dp.py [--rows 1000000] [--repeat 3]``

Synthetic table (seeded): ``sex`` (2 values) x ``region`` (10 values) = 20 cells, plus an
``income`` column and 1% of records with a region outside the listed categories. It times:
- ``core.dp``: :func:`core.dp.dp_release` with counts and the clipped sum and mean of
  income (three queries' worth of work: one count, one sum, OpenDP noise on both);
- ``pandas baseline``: ``df.groupby(["sex", "region"])["income"].agg(["size", "sum",
  "mean"])`` — exact, no clipping, no noise, no absent cells.
It prints the best time of ``--repeat`` runs and the ratio core / baseline. The goal is
under one second for 1M rows.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import best_of  # noqa: E402

from core.dp import dp_release  # noqa: E402

SEXES = ["F", "M"]
REGIONS = [f"R{i:02d}" for i in range(10)]


def make_table(rows: int, seed: int = 8) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    regions = np.array([*REGIONS, "elsewhere"])
    weights = np.array([0.099] * 10 + [0.01])
    return pd.DataFrame(
        {
            "sex": pd.Series(rng.choice(SEXES, rows), dtype="str"),
            "region": pd.Series(rng.choice(regions, rows, p=weights), dtype="str"),
            "income": rng.lognormal(8.3, 0.6, rows).round(),
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    df = make_table(args.rows)
    categories = {"sex": SEXES, "region": REGIONS}

    def core() -> None:
        dp_release(
            df,
            ["sex", "region"],
            categories=categories,
            epsilon=1.0,
            means="income",
            bounds={"income": (0, 20000)},
        )

    def baseline() -> None:
        df.groupby(["sex", "region"])["income"].agg(["size", "sum", "mean"])

    core()  # warm up: OpenDP library load and measurement construction
    t_core = best_of(core, args.repeat)[0]
    t_base = best_of(baseline, args.repeat)[0]
    print(f"rows: {args.rows:,}; cells: {len(SEXES) * len(REGIONS)}")
    print(f"core.dp (DP counts + clipped sums + means): {t_core * 1000:8.1f} ms")
    print(f"pandas groupby baseline (exact):           {t_base * 1000:8.1f} ms")
    print(f"ratio core / baseline: {t_core / t_base:.2f}")
    print("goal: under 1 second ->", "met" if t_core < 1.0 else "NOT met")


if __name__ == "__main__":
    main()
