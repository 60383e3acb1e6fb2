"""Benchmark: the lattice search against ARX, case by case, in the same run.

Usage::

    python bench/bench_search.py --arx-classpath "out:$ARX_CLASSPATH" [--repeat 5] [--only cup]

Tables, each with ARX's hierarchies and measured with ARX's loss (``arx_loss``,
``Metric.createLossMetric()``):

- ``adult``: tests/data/adult, 30,162 records, 8 quasi-identifiers (6,480 nodes);
- ``cup``: the KDD Cup 1998 table of ARX's benchmark (arx-deidentifier/anonbench's
  ``BenchmarkSetup``: 63,441 records, quasi-identifiers AGE, GENDER, INCOME, MINRAMNT,
  NGIFTALL, STATE, ZIP with its hierarchies; 9,000 nodes), vendored gzipped in
  bench/data/cup (see its README).

Each is also *replicated*: its records repeated ``copies`` times (adult x33: 995,346 records;
cup x4: 253,764; cup x16: 1,015,056) with k multiplied by ``copies``, so every class is
``copies`` times as large and the verdict of every node, the optimum and its loss are those
of the original table: the same search on ``copies`` times the records. Targets: k = 5 with
no suppression, k = 5 with at most 1% suppressed and (adult) k = 5 + distinct 2-diversity of
salary-class with at most 1% suppressed (ARX's semantics: classes failing either model are
suppressed).

ARX's side is bench/arx/BenchSearch.java (ARX built from its source, see its header), one JVM
started once and driven from here: every case is first run ``--warmup`` times on both sides,
then each timed round runs the case here and then in ARX, so both see the same load. Timed:
:func:`core.search.search` (table and hierarchies read and replicated before) against
``ARXAnonymizer.anonymize`` (the same). Printed per case: the best and median of this
process's CPU time against the ARX calling thread's CPU time, and of wall time against
ARX's wall time around ``anonymize``; the ratio of each round (this project's time over
ARX's in the same round), min-median-max; ARX's JVM process CPU time (its JIT and garbage
collector threads included) for reference; and whether ARX found the same optimum with the
same loss. A ratio below 1 means this project is faster. Without ``--arx-classpath``
(or ``$ARX_CLASSPATH``) only this project's side is timed.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.hierarchy import read_hierarchy  # noqa: E402
from core.search import Target, search  # noqa: E402


@dataclass(frozen=True)
class Table:
    """One benchmark table: its file, its hierarchies' prefix and its quasi-identifiers."""

    path: Path
    hierarchy_prefix: Path
    qis: tuple[str, ...]
    text: bool  # read every column as text (cup's ZIP codes keep their leading zeros)

    def read(self) -> tuple[pd.DataFrame, dict]:
        if self.text:
            df = pd.read_csv(self.path, sep=";", dtype=str, keep_default_na=False)
        else:
            df = pd.read_csv(self.path, sep=";")
        hierarchies = {}
        for qi in self.qis:
            path = Path(f"{self.hierarchy_prefix}{qi}.csv")
            if path.exists():
                hierarchies[qi] = read_hierarchy(path)
            else:
                with gzip.open(f"{path}.gz") as handle:
                    hierarchies[qi] = read_hierarchy(handle)
        return df, hierarchies


ADULT = ROOT / "tests" / "data" / "adult"
CUP = ROOT / "bench" / "data" / "cup"
TABLES = {
    "adult": Table(
        ADULT / "adult.csv",
        ADULT / "adult_hierarchy_",
        (
            "sex",
            "age",
            "race",
            "marital-status",
            "education",
            "native-country",
            "workclass",
            "occupation",
        ),
        text=False,
    ),
    "cup": Table(
        CUP / "cup.csv.gz",
        CUP / "cup_hierarchy_",
        ("AGE", "GENDER", "INCOME", "MINRAMNT", "NGIFTALL", "STATE", "ZIP"),
        text=True,
    ),
}
# (table, copies, suppression, sensitive attribute for distinct 2-diversity or None)
CASES = [
    ("adult", 1, 0.0, None),
    ("adult", 1, 0.01, None),
    ("adult", 1, 0.01, "salary-class"),
    ("cup", 1, 0.0, None),
    ("cup", 1, 0.01, None),
    ("cup", 4, 0.0, None),
    ("cup", 4, 0.01, None),
    ("adult", 33, 0.0, None),
    ("adult", 33, 0.01, None),
    ("adult", 33, 0.01, "salary-class"),
    ("cup", 16, 0.0, None),
    ("cup", 16, 0.01, None),
]
K = 5


def case_name(table: str, copies: int, suppression: float, sensitive: str | None) -> str:
    rows = f" x{copies}" if copies > 1 else ""
    model = f"k={K}" + (" + distinct 2-diversity" if sensitive else "")
    return f"{table}{rows}, {model}, {'0%' if suppression == 0 else f'<={suppression:.0%}'}"


class Arx:
    """The ARX harness (bench/arx/BenchSearch.java), one JVM for the whole run."""

    def __init__(self, classpath: str):
        self.process = subprocess.Popen(
            ["java", "-Xmx4g", "-cp", classpath, "BenchSearch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, *fields) -> list[str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("\t".join(str(f) for f in fields) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().split()
        if not answer or answer[0] == "error":
            raise RuntimeError(f"ARX harness: {' '.join(answer) or 'no answer'}")
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        self.process.wait(timeout=60)


def timed(fn):
    cpu, wall = time.process_time(), time.perf_counter()
    result = fn()
    return result, (time.process_time() - cpu) * 1e3, (time.perf_counter() - wall) * 1e3


def spread(values: list[float]) -> str:
    return f"{min(values):.2f}-{statistics.median(values):.2f}-{max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds per case")
    parser.add_argument("--warmup", type=int, default=2, help="untimed rounds per case first")
    parser.add_argument("--only", default="", help="only the cases whose name contains this")
    parser.add_argument("--arx-classpath", default=os.environ.get("ARX_CLASSPATH", ""))
    args = parser.parse_args()
    arx = Arx(args.arx_classpath) if args.arx_classpath else None
    print(
        f"load average {os.getloadavg()[0]:.1f}; {args.warmup} warm-up and {args.repeat} timed "
        "rounds per case, each round this project then ARX; ms: best / median"
    )
    loaded: dict[tuple[str, int], tuple[pd.DataFrame, dict]] = {}
    for table_name, copies, suppression, sensitive in CASES:
        name = case_name(table_name, copies, suppression, sensitive)
        if args.only not in name:
            continue
        table = TABLES[table_name]
        if (table_name, copies) not in loaded:
            df, hierarchies = table.read()
            if copies > 1:
                df = pd.concat([df] * copies, ignore_index=True)
            loaded = {(table_name, copies): (df, hierarchies)}  # one table in memory at a time
            if arx is not None:
                arx.ask(
                    "load",
                    f"{table_name}{copies}",
                    table.path,
                    table.hierarchy_prefix,
                    copies,
                    ",".join(table.qis),
                )
        df, hierarchies = loaded[(table_name, copies)]
        k = K * copies
        target = Target(
            k=k, max_suppressed=suppression, sensitive=sensitive, l=2 if sensitive else None
        )
        arx_args = ("run", f"{table_name}{copies}", k, suppression, sensitive or "-", 2)
        ours: list[tuple[float, float]] = []
        theirs: list[tuple[float, float, float]] = []  # thread CPU, wall, process CPU
        for round_ in range(args.warmup + args.repeat):
            result, cpu, wall = timed(
                lambda: search(df, hierarchies, target, measure="arx_loss")  # noqa: B023
            )
            answer = arx.ask(*arx_args) if arx is not None else None
            if round_ >= args.warmup:
                ours.append((cpu, wall))
                if answer is not None:
                    theirs.append((float(answer[1]), float(answer[3]), float(answer[2])))
        optimum = result.optimum
        print(
            f"\n{name}: {len(df):,} records, {result.lattice_size:,} nodes, "
            f"{result.evaluated} evaluated, {result.solutions} solutions"
        )
        print(f"  optimum {optimum.label()}, ARX loss {optimum.measures['arx_loss']:.6f}")
        cpus, walls = [c for c, _ in ours], [w for _, w in ours]
        print(
            f"  this project: CPU {min(cpus):.0f} / {statistics.median(cpus):.0f}, "
            f"wall {min(walls):.0f} / {statistics.median(walls):.0f}"
        )
        if arx is None:
            continue
        levels = ",".join(str(optimum.levels[q]) for q in table.qis)
        same = answer[5] == levels and abs(float(answer[6]) - optimum.measures["arx_loss"]) < 1e-9
        arx_cpus, arx_walls = [c for c, _, _ in theirs], [w for _, w, _ in theirs]
        arx_process = [p for _, _, p in theirs]
        print(
            f"  ARX         : CPU {min(arx_cpus):.0f} / {statistics.median(arx_cpus):.0f}, "
            f"wall {min(arx_walls):.0f} / {statistics.median(arx_walls):.0f}, JVM process CPU "
            f"{min(arx_process):.0f} / {statistics.median(arx_process):.0f}; optimum "
            f"{answer[5]} loss {answer[6]}: {'the same' if same else 'DIFFERENT'}"
        )
        cpu_ratios = [a / b for a, b in zip(cpus, arx_cpus, strict=True)]
        wall_ratios = [a / b for a, b in zip(walls, arx_walls, strict=True)]
        print(
            f"  ratio to ARX per round (min-median-max): CPU {spread(cpu_ratios)}, "
            f"wall {spread(wall_ratios)}; best to best: CPU {min(cpus) / min(arx_cpus):.2f}, "
            f"wall {min(walls) / min(arx_walls):.2f}"
        )
    if arx is not None:
        arx.close()


if __name__ == "__main__":
    main()
