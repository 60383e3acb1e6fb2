"""Benchmark: SUDA2 (minimal sample uniques, SUDA/DIS-SUDA scores) on the adult table.

Usage: ``python bench/bench_suda.py [--repeat 3] [--baseline-max 5]``

Times :func:`core.suda.suda2` for the first 3..8 quasi-identifiers of adult (all MSU
sizes) and, in the same run, a brute-force baseline: one pandas ``groupby().transform``
per subset of quasi-identifiers, then per record a Python check of every unique subset
against its immediate subsets (what a straightforward implementation does). The
baseline is run up to ``--baseline-max`` quasi-identifiers (it grows much faster) and its
scores are compared with core's.
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import best_of  # noqa: E402

from core.suda import msu_weights, suda2  # noqa: E402

ADULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "adult"
QI = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
]


def brute_force_scores(df: pd.DataFrame, qis: list[str]) -> np.ndarray:
    """SUDA score per record by listing every subset and checking minimality per record."""
    m = len(qis)
    weights = msu_weights(m)
    unique: dict[frozenset[str], set[int]] = {}
    for size in range(1, m + 1):
        for subset in combinations(qis, size):
            sizes = df.groupby(list(subset), dropna=False)[subset[0]].transform("size")
            unique[frozenset(subset)] = set(np.flatnonzero(sizes.to_numpy() == 1).tolist())
    score = np.zeros(len(df))
    for subset, rows in unique.items():
        for row in rows:
            if len(subset) == 1 or all(row not in unique[subset - {c}] for c in subset):
                score[row] += weights[len(subset) - 1]
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline-max", type=int, default=5)
    args = parser.parse_args()
    df = pd.read_csv(ADULT / "adult.csv", sep=";")
    print(f"adult: {len(df):,} records; SUDA2 with all MSU sizes, best of {args.repeat}")
    print("| QIs | subsets | records with an MSU | core | brute force | brute / core |")
    print("|---:|---:|---:|---:|---:|---:|")
    for m in range(3, len(QI) + 1):
        qis = QI[:m]
        seconds, result = best_of(lambda qis=qis: suda2(df, qis), args.repeat)
        brute = "(skipped)"
        ratio = "–"
        if m <= args.baseline_max:
            brute_seconds, scores = best_of(lambda qis=qis: brute_force_scores(df, qis), 1)
            if not np.allclose(scores, result.score):
                raise SystemExit(f"brute force and core disagree with {m} quasi-identifiers")
            brute, ratio = f"{brute_seconds:.2f} s", f"{brute_seconds / seconds:.0f}×"
        print(
            f"| {m} | {2**m - 1} | {result.records_with_msu:,} | {seconds:.3f} s | {brute} "
            f"| {ratio} |"
        )


if __name__ == "__main__":
    main()
