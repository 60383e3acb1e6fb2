"""Benchmark: the Step 4 risk report against plain baselines, run side by side.

Usage: ``python bench/bench_risk.py [--rows 30000,1000000,10000000] [--repeat 3]``

For each table size (8 quasi-identifiers and a sensitive attribute, synthetic, seeded;
text columns held as :func:`core.io.read_table` returns them, pandas' ``str`` dtype, not
Categorical) it times:
- ``core``: :func:`core.risk.risk_report` as the CLI and the dashboard run it (k, uniques,
  records below k, max/average prosecutor risk, class-size distribution, the
  per-quasi-identifier impact, l-diversity and t-closeness of the sensitive attribute);
- ``core -impact``: the same without the impact (``risk --no-impact``);
- ``numpy baseline``: a plain NumPy group-by written by hand: ``pd.factorize`` each
  column, combine the codes into one key, ``np.unique(..., return_inverse=True,
  return_counts=True)``, then k and the uniques;
- ``pandas baseline``: ``df.groupby(qi).transform("size")`` then k and the uniques;
- ``per-row Python``: a ``collections.Counter`` over the rows' tuples (skipped above
  1M rows, where it takes minutes).
It prints the best time of ``--repeat`` runs and the ratios core / baseline.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import best_of  # noqa: E402

from core.risk import risk_report  # noqa: E402

QUASI_IDENTIFIERS = [
    "age",
    "sex",
    "race",
    "marital_status",
    "education",
    "country",
    "workclass",
    "occupation",
]
SENSITIVE = "income"


def synthetic_table(rows: int, seed: int = 7) -> pd.DataFrame:
    """A census-like table: 3 integer and 5 text quasi-identifiers, a text sensitive column."""
    rng = np.random.default_rng(seed)

    def category(prefix: str, n: int, skew: float) -> pd.Series:
        weights = 1 / np.arange(1, n + 1) ** skew
        codes = rng.choice(n, size=rows, p=weights / weights.sum())
        labels = np.array([f"{prefix}{i}" for i in range(n)], dtype=object)
        return pd.Series(labels[codes]).astype("str")  # the reader's dtype for text

    return pd.DataFrame(
        {
            "age": rng.integers(17, 91, size=rows),
            "sex": rng.integers(0, 2, size=rows),
            "race": rng.integers(0, 5, size=rows),
            "marital_status": category("m", 7, 1.0),
            "education": category("e", 16, 0.8),
            "country": category("c", 41, 1.5),
            "workclass": category("w", 8, 1.2),
            "occupation": category("o", 14, 0.5),
            "income": category("i", 2, 0.3),
        }
    )


def numpy_baseline(df: pd.DataFrame) -> tuple[int, int]:
    key = np.zeros(len(df), dtype=np.int64)
    for column in QUASI_IDENTIFIERS:
        codes, uniques = pd.factorize(df[column])
        key = key * len(uniques) + codes
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    size = counts[inverse]
    return int(counts.min()), int((size == 1).sum())


def pandas_baseline(df: pd.DataFrame) -> tuple[int, int]:
    size = df.groupby(QUASI_IDENTIFIERS, observed=True)["age"].transform("size")
    return int(size.min()), int((size == 1).sum())


def python_baseline(df: pd.DataFrame) -> tuple[int, int]:
    rows = list(zip(*(df[c].tolist() for c in QUASI_IDENTIFIERS), strict=True))
    counts = Counter(rows)
    return min(counts.values()), sum(1 for r in rows if counts[r] == 1)


def core_report(df: pd.DataFrame) -> tuple[int, int]:
    report = risk_report(df, QUASI_IDENTIFIERS, k_threshold=5, sensitive=SENSITIVE)
    return report.k, report.uniques


def core_report_without_impact(df: pd.DataFrame) -> tuple[int, int]:
    report = risk_report(df, QUASI_IDENTIFIERS, k_threshold=5, sensitive=SENSITIVE, impact=False)
    return report.k, report.uniques


def best_time(function, df: pd.DataFrame, repeat: int) -> tuple[float, tuple[int, int]]:
    return best_of(lambda: function(df), repeat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="30000,1000000,10000000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(
        f"{'rows':>11} {'core s':>8} {'-impact s':>9} {'numpy s':>8} {'pandas s':>9} "
        f"{'python s':>9} {'core/numpy':>10} {'core/pandas':>11} {'python/core':>11}"
    )
    for rows in (int(r) for r in args.rows.split(",")):
        df = synthetic_table(rows)
        t_core, r_core = best_time(core_report, df, args.repeat)
        t_quick, r_quick = best_time(core_report_without_impact, df, args.repeat)
        assert r_quick == r_core
        t_numpy, r_numpy = best_time(numpy_baseline, df, args.repeat)
        t_pandas, r_pandas = best_time(pandas_baseline, df, args.repeat)
        assert r_core == r_numpy == r_pandas, (r_core, r_numpy, r_pandas)
        if rows <= 1_000_000:
            t_python, r_python = best_time(python_baseline, df, 1)
            assert r_python == r_core
            python_text, speedup = f"{t_python:9.3f}", f"{t_python / t_core:10.1f}x"
        else:
            python_text, speedup = f"{'skipped':>9}", f"{'-':>11}"
        print(
            f"{rows:>11,} {t_core:8.3f} {t_quick:9.3f} {t_numpy:8.3f} {t_pandas:9.3f} {python_text} "
            f"{t_core / t_numpy:10.2f} {t_core / t_pandas:11.2f} {speedup}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
