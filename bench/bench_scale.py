"""Benchmark: the Step 4 risk report per engine against DuckDB's bare GROUP BY, same run.

Usage: ``python bench/bench_scale.py [--rows 1000000] [--engines pandas,duckdb,spark]
[--no-impact] [--folder DIR] [--formats csv,parquet]``

Writes the synthetic table of bench_risk (8 quasi-identifiers, a sensitive attribute,
text columns) as CSV and as Parquet, then for each format times, each in a fresh process
(so the peak resident memory is that of the command alone):
- ``pandas``: what ``python -m core risk FILE --qi ... --sensitive income`` does:
  :func:`core.io.read_table`, then :func:`core.risk.risk_report` (impact, l, t);
- ``duckdb`` / ``spark``: :func:`core.engines.frequency_table`, then ``risk_report`` on
  it with ``counts=`` (the same figures, checked equal to pandas');
- ``bare GROUP BY``: DuckDB's ``SELECT qi..., income, count(*) ... GROUP BY ALL`` alone,
  the floor any engine-based report pays, fetched as one Arrow table; twice: without a
  memory limit (``GROUP BY``) and with the engine's own ``MEMORY_LIMIT`` (``GROUP BY
  lim``; the engine caps DuckDB so the whole process stays within its memory goal, and
  then DuckDB spills to disk where the unlimited run does not);
- ``polars``: Polars' lazy ``group_by(...).len()`` on the same file (streaming), when
  Polars is installed (``pip install polars``; only this benchmark uses it).
The table is generated in chunks of 5M rows (seeded per chunk) and written with pyarrow,
so 50M rows need no 50M-row frame in memory; ``--folder`` keeps the files for another run.
It prints seconds (imports and Spark's JVM start not included), peak RSS (MiB; for Spark
the Python driver only, not the JVM), the ratios to both bare GROUP BYs and the machine's
1-minute load average when the line was measured (other work slows every figure).
Given several ``--rows``, it ends with each engine's growth exponent: the slope of
log(seconds) and of log(peak MiB) against log(rows), fitted by least squares over the
sizes (1 is linear; the bare GROUP BY's own exponent is printed beside it). pandas is
skipped for files over 1 GiB, which :func:`core.io.read_table` refuses.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_risk import QUASI_IDENTIFIERS, SENSITIVE, synthetic_table  # noqa: E402

from core.io import MAX_FILE_BYTES  # noqa: E402

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
engine, path, impact = sys.argv[1], sys.argv[2], sys.argv[3] == "impact"
if engine not in ("bare", "bare-limited", "polars"):  # this project's process settings
    from core.process import tune_for_large_tables
    tune_for_large_tables()  # as python -m core does, before NumPy is imported
qis = {qis!r}
import duckdb  # imports are not timed
from core.engines import frequency_table
from core.io import read_table
from core.risk import risk_report
if engine == "spark":
    from core.engines.spark_engine import spark_session
    spark_session()  # starting the JVM is timed apart: it is paid once per session
start = time.perf_counter()
if engine in ("bare", "bare-limited"):
    from core.engines.duckdb_engine import MEMORY_LIMIT
    limit = {{"memory_limit": MEMORY_LIMIT}} if engine == "bare-limited" else {{}}
    con = duckdb.connect(config=limit)  # limited: the engine's own memory limit
    con.execute("SET enable_progress_bar = false")  # it would be drawn on stdout
    source = "read_parquet(?)" if path.endswith(".parquet") else "read_csv(?, all_varchar = true)"
    cols = ", ".join('"' + c + '"' for c in [*qis, {sensitive!r}])
    result = con.sql(f"SELECT {{cols}}, count(*) FROM {{source}} GROUP BY ALL",
                     params=[path])
    rows = (getattr(result, "to_arrow_table", None) or result.fetch_arrow_table)()
    figures = {{"classes_with_sensitive": rows.num_rows}}
elif engine == "polars":
    import polars as pl
    scan = (pl.scan_parquet(path) if path.endswith(".parquet")
            else pl.scan_csv(path, infer_schema=False))
    rows = scan.group_by([*qis, {sensitive!r}]).len().collect(engine="streaming")
    figures = {{"classes_with_sensitive": rows.height}}
else:
    if engine == "pandas":
        report = risk_report(read_table(path), qis, sensitive={sensitive!r}, impact=impact)
    else:
        freq = frequency_table(path, [*qis, {sensitive!r}], engine=engine)
        report = risk_report(freq.table, qis, sensitive={sensitive!r}, counts=freq.counts,
                             impact=impact)
    data = report.to_dict()
    figures = {{k: data[k] for k in ("records", "classes", "k", "uniques", "records_below_k",
                                    "l_distinct", "t_closeness")}}
seconds = time.perf_counter() - start
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
           resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
print(json.dumps({{"seconds": seconds, "peak_mib": peak, "figures": figures}}))
"""


CHUNK_ROWS = 5_000_000


def write_files(rows: int, folder: Path, formats: list[str]) -> dict[str, Path]:
    """The synthetic table as CSV and/or Parquet, generated and written chunk by chunk."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv
    import pyarrow.parquet as pq

    files = {fmt: folder / f"people-{rows}.{fmt}" for fmt in formats}
    if all(path.exists() for path in files.values()):
        return files  # kept from an earlier run (--folder)
    writers: dict[str, object] = {}
    try:
        for number, start in enumerate(range(0, rows, CHUNK_ROWS)):
            chunk = synthetic_table(min(CHUNK_ROWS, rows - start), seed=7 + number)
            table = pa.Table.from_pandas(chunk, preserve_index=False)
            del chunk
            if "csv" in files:
                if "csv" not in writers:
                    writers["csv"] = pa_csv.CSVWriter(files["csv"], table.schema)
                writers["csv"].write_table(table)
            if "parquet" in files:
                if "parquet" not in writers:
                    writers["parquet"] = pq.ParquetWriter(files["parquet"], table.schema)
                writers["parquet"].write_table(table)
    finally:
        for writer in writers.values():
            writer.close()
    return files


def run(engine: str, path: Path, *, impact: bool = True) -> dict:
    code = CHILD.format(root=str(ROOT), qis=QUASI_IDENTIFIERS, sensitive=SENSITIVE)
    done = subprocess.run(
        [sys.executable, "-c", code, engine, str(path), "impact" if impact else "no-impact"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{engine} on {path.name} failed:\n{done.stderr[-2000:]}")
    last = [line for line in done.stdout.splitlines() if line.startswith("{")][-1]
    return json.loads(last)


def growth_exponent(rows: list[int], values: list[float]) -> float:
    """Least-squares slope of log(values) on log(rows): ``values ~ rows ** exponent``."""
    x, y = np.log(np.asarray(rows, float)), np.log(np.asarray(values, float))
    return float(np.polyfit(x, y, 1)[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1000000")
    parser.add_argument("--engines", default="pandas,duckdb,spark")
    parser.add_argument("--formats", default="csv,parquet")
    parser.add_argument(
        "--no-impact",
        action="store_true",
        help="skip the per-quasi-identifier impact (the CLI's --no-impact)",
    )
    parser.add_argument("--folder", help="write (and reuse) the generated files here")
    args = parser.parse_args(argv)
    engines = args.engines.split(",")
    polars = importlib.util.find_spec("polars") is not None
    print(
        f"{'rows':>11} {'format':>8} {'engine':>12} {'seconds':>8} {'peak MiB':>9} "
        f"{'/ GROUP BY':>10} {'/ limited':>9} {'load':>5}"
    )
    measured: dict[tuple[str, str], list[tuple[int, dict]]] = defaultdict(list)
    for rows in (int(r) for r in args.rows.split(",")):
        with tempfile.TemporaryDirectory() as scratch:
            files = write_files(rows, Path(args.folder or scratch), args.formats.split(","))
            for fmt, path in files.items():
                bare = run("bare", path)
                limited = run("bare-limited", path)

                def show(
                    engine: str, result: dict, rows=rows, fmt=fmt, bare=bare, limited=limited
                ) -> None:
                    print(
                        f"{rows:>11,} {fmt:>8} {engine:>12} {result['seconds']:8.2f} "
                        f"{result['peak_mib']:9.0f} "
                        f"{result['seconds'] / bare['seconds']:10.2f} "
                        f"{result['seconds'] / limited['seconds']:9.2f} "
                        f"{os.getloadavg()[0]:5.1f}",
                        flush=True,
                    )

                show("GROUP BY", bare)
                show("GROUP BY lim", limited)
                measured[fmt, "GROUP BY"].append((rows, bare))
                if polars:
                    show("polars", run("polars", path))
                results = {}
                for engine in engines:  # each printed as soon as it is measured
                    if engine == "pandas" and path.stat().st_size > MAX_FILE_BYTES:
                        print(
                            f"{rows:>11,} {fmt:>8} {engine:>12}  skipped: read_table "
                            "refuses files over 1 GiB",
                            flush=True,
                        )
                        continue
                    results[engine] = run(engine, path, impact=not args.no_impact)
                    show(engine, results[engine])
                    measured[fmt, engine].append((rows, results[engine]))
                reference = next(iter(results.values()))["figures"]
                for engine, result in results.items():
                    assert result["figures"] == reference, (engine, result, reference)
    sizes = {fmt_engine: runs for fmt_engine, runs in measured.items() if len(runs) > 1}
    if sizes:
        print(f"\ngrowth exponent over {args.rows} rows (seconds ~ rows^a, peak ~ rows^b)")
        for (fmt, engine), runs in sizes.items():
            counts = [rows for rows, _ in runs]
            a = growth_exponent(counts, [result["seconds"] for _, result in runs])
            b = growth_exponent(counts, [result["peak_mib"] for _, result in runs])
            print(f"{fmt:>8} {engine:>12}  a = {a:4.2f}  b = {b:4.2f}  ({len(runs)} sizes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
