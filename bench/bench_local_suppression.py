"""Benchmark: local suppression (sdcMicro's heuristic) on the adult table, k = 5.

Usage: ``python bench/bench_local_suppression.py [--qis 4,6,8]``

For the first 4..8 quasi-identifiers of adult, with age as recorded and with age in
10-year bands, times :func:`core.techniques.cell_suppression.plan_local_suppression`
and prints the cells it blanks, next to the baseline it replaces: record suppression
(``suppress_below_k``: delete every record below k, i.e. all its quasi-identifier cells).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import best_of  # noqa: E402

from core.techniques.cell_suppression import plan_local_suppression  # noqa: E402
from core.techniques.suppression import suppress_below_k  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qis", default="4,5,6,7,8", help="numbers of quasi-identifiers")
    args = parser.parse_args()
    raw = pd.read_csv(ADULT / "adult.csv", sep=";")
    banded = raw.assign(age=raw["age"] // 10 * 10)
    print(f"adult: {len(raw):,} records, k = 5")
    print(
        "| age | QIs | records below k | local suppression | cells blanked | k (wildcard) "
        "| record suppression | cells deleted |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, df in (("as recorded", raw), ("10-year bands", banded)):
        for m in map(int, args.qis.split(",")):
            qis = QI[:m]
            seconds, result = best_of(
                lambda df=df, qis=qis: plan_local_suppression(df, qis, k=5), 1
            )
            base_seconds, kept = best_of(lambda df=df, qis=qis: suppress_below_k(df, qis, k=5), 3)
            below = len(df) - len(kept)
            print(
                f"| {label} | {m} | {below:,} | {seconds:.2f} s | {result.total_suppressed:,} "
                f"| {result.k_wildcard} | {base_seconds:.3f} s | {below * m:,} |"
            )


if __name__ == "__main__":
    main()
