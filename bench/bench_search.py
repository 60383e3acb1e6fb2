"""Benchmark: the trade-off search on the adult table (8 quasi-identifiers, k=5, 1%).

Usage: ``python bench/bench_search.py [--repeat 3]``

Times :func:`core.search.search` (exact: predictive tagging + branch and bound) and,
in the same run, two plain baselines:
- ``no pruning``: the same search with every lattice node evaluated (``method="exhaustive"``);
- ``pandas per node``: one ``df.groupby(qi).size()`` on the generalised table, timed,
  times the number of nodes the exact search evaluated (what the same visit order would
  cost with a pandas group-by per node), and times the whole lattice.
Prints the levels chosen, the information loss (loss metric) and records suppressed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.hierarchy import read_hierarchy  # noqa: E402
from core.search import Target, search  # noqa: E402

ADULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "adult"
QI = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass",
      "occupation"]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    df = pd.read_csv(ADULT / "adult.csv", sep=";")
    hierarchies = {c: read_hierarchy(ADULT / f"adult_hierarchy_{c}.csv") for c in QI}
    target = Target(k=5, max_suppressed=0.01)

    best = None
    for _ in range(args.repeat):
        result = search(df, hierarchies, target, measure="loss")
        best = result if best is None or result.seconds < best.seconds else best
    o = best.optimum
    print(f"adult: {len(df):,} records, {len(QI)} quasi-identifiers, lattice of "
          f"{best.lattice_size:,} nodes, target {target.describe()}")  # fmt: skip
    print(f"core exact search : {best.seconds:.3f} s (best of {args.repeat}), "
          f"{best.evaluated} nodes evaluated, {best.solutions} solutions, "
          f"{len(best.frontier)} minimal")  # fmt: skip
    print(f"  optimum (loss)  : {o.label()}")
    print(f"  loss {o.measures['loss']:.4f}, precision loss {o.measures['precision']:.4f}, "
          f"suppressed {o.suppressed} ({o.share_suppressed:.2%}), k {o.k}")  # fmt: skip
    print(f"  per column loss : "
          f"{', '.join(f'{c} {v:.2f}' for c, v in o.column_loss.items())}")  # fmt: skip

    full = search(df, hierarchies, target, measure="loss", method="exhaustive")
    same = full.optimum.levels == o.levels
    print(f"no pruning        : {full.seconds:.3f} s ({full.evaluated:,} nodes), "
          f"same optimum: {same}; ratio {full.seconds / best.seconds:.1f}x")  # fmt: skip

    levels = dict(o.levels)
    table = df.copy()
    for column, level in levels.items():
        table[column] = hierarchies[column].generalise(df[column], level)
    started = time.perf_counter()
    for _ in range(5):
        table.groupby(QI).size()
    per_node = (time.perf_counter() - started) / 5
    visited = per_node * best.evaluated
    print(f"pandas per node   : {per_node * 1e3:.1f} ms per group-by; x {best.evaluated} "
          f"nodes = {visited:.2f} s ({visited / best.seconds:.1f}x); whole lattice "
          f"{per_node * best.lattice_size:.1f} s")  # fmt: skip
    greedy = search(df, hierarchies, target, measure="loss", method="greedy")
    print(f"greedy fallback   : {greedy.seconds:.3f} s, {greedy.evaluated} nodes, loss "
          f"{greedy.optimum.measures['loss']:.4f} ({greedy.optimum.label()})")  # fmt: skip


if __name__ == "__main__":
    main()
