"""Benchmark: dashboard reruns on a 100,000-row table (target: under one second each).

Usage: ``python bench/bench_dashboard.py [--rows 100000] [--repeat 3] [--load-rows 1000000]``

Generates the Singapore-style sample at the given size (seeded), opens the dashboard on
it through Streamlit's AppTest (``ANON_DATA``), confirms the guide's usual indirect
identifiers, then times a rerun of every page after the first load, with one recipe
step in place. Each time is the best of ``--repeat`` reruns. As a baseline in the same
run it times a plain pandas ``groupby(...).size()`` over the same quasi-identifiers,
the least work any risk figure needs.

``--load-rows N`` (issue 15: a 1M-row table shown in at most 2 s) times instead what the
Data page does between an upload and its first table: the functions it calls in order
(``core.io.read_table`` on the uploaded bytes, the file's sha256, the 100-row preview as
Streamlit sends it), on the synthetic table of bench_risk as CSV, with pandas' own pyarrow
CSV reader as the baseline. The role suggestions (Step 1) are computed when a page first
asks for them, after the preview; they are timed on their own line.

``--risk-rows N`` (issue 31: k on Risk within 1 s of saving the roles) times, on bench_risk's
table as a CSV opened through ``ANON_DATA``, the rerun that shows k in the sidebar once the
roles are set (its 8 quasi-identifiers, ``income`` the target) and then the click on Risk
until the page is drawn, app.py included on every rerun as the server runs it. Each round
is a fresh process (a cold server's first click: the first use of a library counts); as
the anchor, a pandas ``groupby(...).size()`` on the same quasi-identifiers in that process.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from core.schema import Role  # noqa: E402
from scripts.make_sample_data import make_people  # noqa: E402

PAGES = [
    "pages/1_data.py",
    "pages/2_classify.py",
    "pages/3_deidentify.py",
    "pages/4_techniques.py",
    "pages/5_risk.py",
    "pages/6_uniqueness.py",
    "pages/7_report.py",
]
QUASI_IDENTIFIERS = ["date_of_birth", "sex", "race", "postal_code"]


def time_first_table(rows: int, repeat: int) -> float:
    """Seconds from an uploaded CSV's bytes to the Data page's first table (best of
    ``repeat``); prints each part and pandas' pyarrow reader as the baseline."""
    import io

    import pandas as pd
    import pyarrow as pa

    sys.path.insert(0, str(ROOT / "bench"))
    from bench_risk import synthetic_table

    from core.io import read_table
    from core.schema import suggest_roles
    from core.workspace import sha256_bytes

    buffer = io.BytesIO()
    synthetic_table(rows).to_csv(buffer, index=False)
    data = buffer.getvalue()
    parts = {
        "read_table": lambda: read_table(data, name="people.csv"),
        "sha256": lambda: sha256_bytes(data),
        "preview": lambda: pa.Table.from_pandas(df.head(100)),  # what st.dataframe sends
    }
    best = dict.fromkeys(parts, float("inf"))
    for _ in range(repeat):
        for name, part in parts.items():
            t0 = time.perf_counter()
            value = part()
            best[name] = min(best[name], time.perf_counter() - t0)
            if name == "read_table":
                df = value
    baseline = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        pd.read_csv(io.BytesIO(data), engine="pyarrow", dtype_backend="pyarrow")
        baseline = min(baseline, time.perf_counter() - t0)
    total = sum(best.values())
    t0 = time.perf_counter()
    suggest_roles(df)
    later = time.perf_counter() - t0
    print(
        f"rows: {rows:,} ({len(data) / 2**20:.0f} MiB CSV); pandas pyarrow read_csv "
        f"baseline: {baseline:.2f} s"
    )
    for name, seconds in best.items():
        print(f"{name:<16} {seconds:7.2f} s")
    print(f"{'(suggest_roles)':<16} {later:7.2f} s (after the first table, on first use)")
    verdict = "within" if total <= 2 else "OVER"
    print(
        f"{'first table':<16} {total:7.2f} s ({verdict} 2 s; {total / baseline:.1f}x the bare read)"
    )
    return total


def risk_click_round(path: Path) -> tuple[float, float, float]:
    """One round in this process: (seconds of the rerun that shows k in the sidebar once
    the roles are set, seconds of the click on Risk, seconds of the pandas group count)."""
    from streamlit.runtime.scriptrunner import script_runner

    sys.path.insert(0, str(ROOT / "bench"))
    from bench_risk import QUASI_IDENTIFIERS as QI

    def run_main_script(main_script_path: str) -> None:  # app.py on every rerun, as served
        code = compile(Path(main_script_path).read_text(), main_script_path, "exec")
        exec(code, {"__name__": "__main__", "__file__": main_script_path})

    script_runner._mpa_v1 = run_main_script
    os.environ["ANON_DATA"] = str(path)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.session_state["roles"] = {**{c: Role.INDIRECT for c in QI}, "income": Role.TARGET}
    t0 = time.perf_counter()
    at.run()
    roles_saved = time.perf_counter() - t0
    t0 = time.perf_counter()
    at.switch_page("pages/5_risk.py").run()
    click = time.perf_counter() - t0
    assert not at.exception, at.exception
    assert [m.value for m in at.metric if m.label == "k"], "the Risk page drew no k"
    from core.io import read_table

    data = read_table(path)  # what the dashboard holds: the same reader on the same file
    t0 = time.perf_counter()
    data.groupby(QI).size().min()
    return roles_saved, click, time.perf_counter() - t0


def time_risk_click(rows: int, repeat: int) -> None:
    """Medians over ``repeat`` fresh processes of :func:`risk_click_round`."""
    import statistics
    import subprocess

    sys.path.insert(0, str(ROOT / "bench"))
    from bench_risk import synthetic_table

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.csv"
        synthetic_table(rows).to_csv(path, index=False)
        rounds = []
        for _ in range(repeat):
            done = subprocess.run(
                [sys.executable, __file__, "--risk-round", str(path)],
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            )
            rounds.append([float(x) for x in done.stdout.split()[-3:]])
    roles, click, anchor = (statistics.median(r[i] for r in rounds) for i in range(3))
    print(f"rows: {rows:,}; {repeat} fresh processes, medians (load {os.getloadavg()[0]:.1f})")
    print(f"{'roles set -> k in the sidebar':<32} {roles:6.2f} s")
    print(f"{'click on Risk -> page drawn':<32} {click:6.2f} s  ({click / anchor:.1f}x the anchor)")
    print(f"{'pandas groupby().size() anchor':<32} {anchor:6.2f} s")
    print(
        "each round (roles, click, anchor): "
        + "; ".join(" ".join(f"{x:.2f}" for x in r) for r in rounds)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--load-rows", type=int, help="time the first table of an upload")
    parser.add_argument("--risk-rows", type=int, help="time the click on Risk after the roles")
    parser.add_argument("--risk-round", type=Path, help=argparse.SUPPRESS)  # one round's process
    args = parser.parse_args(argv)
    if args.risk_round:
        print(*(f"{seconds:.4f}" for seconds in risk_click_round(args.risk_round)))
        return 0
    if args.risk_rows:
        time_risk_click(args.risk_rows, args.repeat)
        return 0
    if args.load_rows:
        time_first_table(args.load_rows, args.repeat)
        return 0
    people = make_people(rows=args.rows)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "people.csv"
        people.to_csv(path, index=False)
        os.environ["ANON_DATA"] = str(path)
        start = time.perf_counter()
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
        at.run()
        first_load = time.perf_counter() - start
        assert not at.exception, at.exception
        at.session_state["roles"] = {c: Role.INDIRECT for c in QUASI_IDENTIFIERS}
        at.session_state["history"].push(
            at.session_state["history"].current.add(
                {"step": "generalise", "column": "date_of_birth", "date_unit": "year"}
            )
        )
        baseline = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            people.groupby(QUASI_IDENTIFIERS).size().min()
            baseline = min(baseline, time.perf_counter() - t0)
        print(
            f"rows: {args.rows:,}; first load: {first_load:.2f} s; "
            f"pandas groupby baseline: {baseline:.3f} s"
        )
        print(f"{'page':<24} {'rerun s':>8} {'/ baseline':>11}")
        worst = 0.0
        for page in PAGES:
            at.switch_page(page)
            at.run()  # first visit builds the page's own caches
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                at.run()
                best = min(best, time.perf_counter() - t0)
            assert not at.exception, (page, at.exception)
            worst = max(worst, best)
            print(f"{page:<24} {best:8.3f} {best / baseline:11.1f}")
        print(f"slowest rerun: {worst:.3f} s ({'under' if worst < 1 else 'OVER'} one second)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
