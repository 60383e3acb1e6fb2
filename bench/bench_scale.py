"""Benchmark: the Step 4 risk report per engine against DuckDB's bare GROUP BY, same run.

Usage: ``python bench/bench_scale.py [--rows 1000000] [--engines pandas,duckdb,spark]``

Writes the synthetic table of bench_risk (8 quasi-identifiers, a sensitive attribute,
text columns) as CSV and as Parquet, then for each format times, each in a fresh process
(so the peak resident memory is that of the command alone):
- ``pandas``: what ``python -m core risk FILE --qi ... --sensitive income`` does:
  :func:`core.io.read_table`, then :func:`core.risk.risk_report` (impact, l, t);
- ``duckdb`` / ``spark``: :func:`core.engines.frequency_table`, then ``risk_report`` on
  it with ``counts=`` (the same figures, checked equal to pandas');
- ``bare GROUP BY``: DuckDB's ``SELECT qi..., income, count(*) ... GROUP BY ALL`` alone,
  the floor any engine-based report pays.
It prints seconds (imports and Spark's JVM start not included), peak RSS (MiB; for Spark
the Python driver only, not the JVM) and the ratio to the bare GROUP BY. Polars is not installed in this project, so it is not shown.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_risk import QUASI_IDENTIFIERS, SENSITIVE, synthetic_table  # noqa: E402

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
engine, path = sys.argv[1], sys.argv[2]
qis = {qis!r}
import duckdb  # imports are not timed
from core.engines import frequency_table
from core.io import read_table
from core.risk import risk_report
if engine == "spark":
    from core.engines.spark_engine import spark_session
    spark_session()  # starting the JVM is timed apart: it is paid once per session
start = time.perf_counter()
if engine == "bare":
    source = "read_parquet(?)" if path.endswith(".parquet") else "read_csv(?, all_varchar = true)"
    cols = ", ".join('"' + c + '"' for c in [*qis, {sensitive!r}])
    result = duckdb.sql(f"SELECT {{cols}}, count(*) FROM {{source}} GROUP BY ALL",
                        params=[path])
    rows = (getattr(result, "to_arrow_table", None) or result.fetch_arrow_table)()
    figures = {{"classes_with_sensitive": rows.num_rows}}
else:
    if engine == "pandas":
        report = risk_report(read_table(path), qis, sensitive={sensitive!r})
    else:
        freq = frequency_table(path, [*qis, {sensitive!r}], engine=engine)
        report = risk_report(freq.table, qis, sensitive={sensitive!r}, counts=freq.counts)
    data = report.to_dict()
    figures = {{k: data[k] for k in ("records", "classes", "k", "uniques", "records_below_k",
                                    "l_distinct", "t_closeness")}}
seconds = time.perf_counter() - start
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
           resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
print(json.dumps({{"seconds": seconds, "peak_mib": peak, "figures": figures}}))
"""


def run(engine: str, path: Path) -> dict:
    code = CHILD.format(root=str(ROOT), qis=QUASI_IDENTIFIERS, sensitive=SENSITIVE)
    done = subprocess.run([sys.executable, "-c", code, engine, str(path)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{engine} on {path.name} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1000000")
    parser.add_argument("--engines", default="pandas,duckdb,spark")
    args = parser.parse_args(argv)
    engines = args.engines.split(",")
    print(f"{'rows':>11} {'format':>8} {'engine':>8} {'seconds':>8} {'peak MiB':>9} "
          f"{'/ GROUP BY':>10}")  # fmt: skip
    for rows in (int(r) for r in args.rows.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            df = synthetic_table(rows)
            files = {"csv": Path(folder) / "people.csv", "parquet": Path(folder) / "people.parquet"}
            df.to_csv(files["csv"], index=False)
            df.to_parquet(files["parquet"], index=False)
            del df
            for fmt, path in files.items():
                bare = run("bare", path)
                results = {engine: run(engine, path) for engine in engines}
                reference = next(iter(results.values()))["figures"]
                for engine, result in results.items():
                    assert result["figures"] == reference, (engine, result, reference)
                for engine, result in [("GROUP BY", bare), *results.items()]:
                    print(f"{rows:>11,} {fmt:>8} {engine:>8} {result['seconds']:8.2f} "
                          f"{result['peak_mib']:9.0f} "
                          f"{result['seconds'] / bare['seconds']:10.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
