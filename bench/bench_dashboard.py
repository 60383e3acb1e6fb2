"""Benchmark: dashboard reruns on a 100,000-row table (target: under one second each).

Usage: ``python bench/bench_dashboard.py [--rows 100000] [--repeat 3]``

Generates the Singapore-style sample at the given size (seeded), opens the dashboard on
it through Streamlit's AppTest (``ANON_DATA``), confirms the guide's usual indirect
identifiers, then times a rerun of every page after the first load, with one recipe
step in place. Each time is the best of ``--repeat`` reruns. As a baseline in the same
run it times a plain pandas ``groupby(...).size()`` over the same quasi-identifiers,
the least work any risk figure needs.
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
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
        print(f"rows: {args.rows:,}; first load: {first_load:.2f} s; "
              f"pandas groupby baseline: {baseline:.3f} s")  # fmt: skip
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
