"""Benchmark: whole commands as a person runs them, against a bare anchor in the same run.

Usage: ``python bench/bench_commands.py [--rows 1000000] [--repeat 5] [--folder DIR]
[--formats csv,parquet] [--only startup,risk,duckdb]``

Every figure here is a whole process: Python's start, the imports, reading the file and the
work, timed from outside with ``time.perf_counter`` around ``subprocess.run`` (issue 31: the
in-process figures of bench_risk.py and bench_scale.py leave out what a user waits for). Each
round runs the anchor and then the command (alternating, so a busy machine slows both
alike); the median seconds of ``--repeat`` rounds (5 unless told) are printed with the median
and range of the per-round ratio command / anchor, the same in CPU seconds (user and system,
read from ``wait4``: the work done, which a busy shared machine disturbs less than the
wall clock) with the median CPU seconds over the anchor, the largest peak resident memory
of each process, and the 1-minute load average.

- ``startup``: ``python -m core --help`` and each command's ``--help`` against
  ``python -c "import pandas"`` (what any pandas tool pays before it starts);
- ``risk``: ``python -m core risk FILE --qi <8 columns> --sensitive income`` (the default
  figures, impact included) and ``--no-impact``, against a bare pandas + NumPy script in a
  fresh process: ``pd.read_csv(engine="pyarrow")`` (or ``pd.read_parquet``), ``pd.factorize``
  each quasi-identifier, combine the codes into one key, ``np.unique(return_counts=True)``,
  then k and the uniques;
- ``duckdb``: ``python -m core risk FILE ... --engine duckdb`` against a fresh process running
  DuckDB's bare ``SELECT qi..., income, count(*) ... GROUP BY ALL`` fetched as Arrow.

The synthetic table is bench_risk's (8 quasi-identifiers, seeded), written by bench_scale.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bench_risk import QUASI_IDENTIFIERS, SENSITIVE  # noqa: E402
from bench_scale import write_files  # noqa: E402

sys.path.insert(0, str(ROOT))
from core.cli.commands import COMMANDS  # noqa: E402

PANDAS_ANCHOR = r"""
import sys
import numpy as np
import pandas as pd
path, qis = sys.argv[1], sys.argv[2].split(",")
if path.endswith(".parquet"):
    df = pd.read_parquet(path, columns=qis)
else:
    df = pd.read_csv(path, engine="pyarrow", usecols=qis)
key, radix = np.zeros(len(df), dtype=np.int64), 1
for column in qis:
    codes, uniques = pd.factorize(df[column])
    if radix * len(uniques) >= 2**62:  # only when the mixed radix would overflow
        _, key = np.unique(key, return_inverse=True)
        radix = int(key.max()) + 1
    key = key * len(uniques) + codes
    radix *= len(uniques)
_, counts = np.unique(key, return_counts=True)
print(int(counts.min()), int((counts == 1).sum()))
"""

DUCKDB_ANCHOR = r"""
import sys
import duckdb
path, columns = sys.argv[1], sys.argv[2].split(",")
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
source = "read_parquet(?)" if path.endswith(".parquet") else "read_csv(?, all_varchar = true)"
cols = ", ".join('"' + c + '"' for c in columns)
result = con.sql(f"SELECT {cols}, count(*) FROM {source} GROUP BY ALL", params=[path])
table = (getattr(result, "to_arrow_table", None) or result.fetch_arrow_table)()
print(table.num_rows)
"""


def seconds_of(command: list[str]) -> tuple[float, float, float]:
    """Wall-clock seconds of one whole process, its CPU seconds (user and system, all its
    threads) and its peak resident memory in MiB (``wait4``'s ``ru_maxrss`` of that one
    process); a failure stops the benchmark with its error."""
    with tempfile.TemporaryFile(mode="w+") as errors:
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own resources
        elapsed = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode not in (0, 3):  # 3: the risk command's "k below target" exit
            errors.seek(0)
            raise SystemExit(f"{' '.join(command[:4])} failed:\n{errors.read()[-2000:]}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def alternate(pairs: dict[str, list[str]], anchor: list[str], repeat: int) -> dict[str, list]:
    """Seconds of each command and of the anchor, run in alternation ``repeat`` times: for
    each command, a list of (its (wall, CPU, peak MiB), the anchor's just before) per round."""
    rounds: dict[str, list] = {name: [] for name in pairs}
    for _ in range(repeat):
        for name, command in pairs.items():
            before = seconds_of(anchor)
            rounds[name].append((seconds_of(command), before))
    return rounds


def show(title: str, rounds: dict[str, list], anchor_name: str) -> None:
    """Per command: median wall seconds, the median and range of its ratio to the anchor
    run just before it in the same round (a burst of load touches both), and the same in
    CPU seconds with the median difference to the anchor (CPU time counts the work done,
    not the waiting for a busy machine's cores; it adds up a command's threads), and the
    largest peak resident memory of its runs."""
    load = os.getloadavg()[0]
    anchors = [anchor for pairs in rounds.values() for _, anchor in pairs]
    print(f"\n{title} (1-minute load {load:.2f}; median of {len(anchors)} runs)")
    print(
        f"  {'':<44} {'wall':>8}  {'ratio':>6}  {'(range)':<11}  {'CPU':>7}  ratio  over anchor"
        "  peak RSS"
    )
    wall = statistics.median(a[0] for a in anchors)
    cpu = statistics.median(a[1] for a in anchors)
    peak = max(a[2] for a in anchors)
    print(
        f"  {anchor_name:<44} {wall:7.3f}s   1.00x  {'':<11}  {cpu:6.3f}s  1.00x"
        f"  {'':>11}  {peak:6.0f} MiB"
    )
    for name, pairs in rounds.items():
        ratios = [run[0] / anchor[0] for run, anchor in pairs]
        cpu_ratios = [run[1] / anchor[1] for run, anchor in pairs]
        over = statistics.median(run[1] - anchor[1] for run, anchor in pairs)
        print(
            f"  {name:<44} {statistics.median(r[0] for r, _ in pairs):7.3f}s"
            f"  {statistics.median(ratios):5.2f}x  ({min(ratios):.2f}-{max(ratios):.2f})"
            f"  {statistics.median(r[1] for r, _ in pairs):6.3f}s"
            f"  {statistics.median(cpu_ratios):4.2f}x  {over:+.3f}s"
            f"  {max(r[2] for r, _ in pairs):6.0f} MiB"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--folder", type=Path, help="keep the generated files here")
    parser.add_argument("--formats", default="csv,parquet")
    parser.add_argument("--only", default="startup,risk,duckdb")
    args = parser.parse_args(argv)
    parts = set(args.only.split(","))
    python = sys.executable
    core = [python, "-m", "core"]
    if "startup" in parts:
        commands = {"python -m core --help": [*core, "--help"]}
        for name in COMMANDS:
            commands[f"python -m core {name} --help"] = [*core, name, "--help"]
        rounds = alternate(
            commands,
            [python, "-c", "import pandas"],
            args.repeat,
        )
        show("Start-up of a command", rounds, 'python -c "import pandas"')
    if not parts & {"risk", "duckdb"}:
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.folder or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        files = write_files(args.rows, folder, args.formats.split(","))
        qis = ",".join(QUASI_IDENTIFIERS)
        for fmt, path in files.items():
            risk = [*core, "risk", str(path), "--qi", qis, "--sensitive", SENSITIVE]
            if "risk" in parts:
                rounds = alternate(
                    {"risk (default figures)": risk, "risk --no-impact": [*risk, "--no-impact"]},
                    [python, "-c", PANDAS_ANCHOR, str(path), qis],
                    args.repeat,
                )
                show(f"risk, {args.rows:,} rows, {fmt}", rounds, "bare pandas + NumPy script")
            if "duckdb" in parts:
                rounds = alternate(
                    {"risk --engine duckdb": [*risk, "--engine", "duckdb"]},
                    [python, "-c", DUCKDB_ANCHOR, str(path), f"{qis},{SENSITIVE}"],
                    args.repeat,
                )
                show(
                    f"risk --engine duckdb, {args.rows:,} rows, {fmt}",
                    rounds,
                    "bare DuckDB GROUP BY",
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
