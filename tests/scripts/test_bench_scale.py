"""bench/bench_scale.py runs end to end on small tables (every engine's figures checked
equal by the benchmark itself) and fits the growth exponent it reports (issue 15)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import bench_scale  # noqa: E402


def test_growth_exponent_by_hand():
    # time = 3 * rows: slope 1; time = rows**2 / 10: slope 2; log-log least squares
    assert bench_scale.growth_exponent([10, 100, 1000], [30, 300, 3000]) == pytest.approx(1.0)
    assert bench_scale.growth_exponent([10, 100], [10, 1000]) == pytest.approx(2.0)


def test_bench_scale_runs_and_prints_exponents(tmp_path, capsys):
    pytest.importorskip("duckdb")
    argv = [
        "--rows",
        "2000,4000",
        "--engines",
        "pandas,duckdb",
        "--formats",
        "csv",
        "--folder",
        str(tmp_path),
    ]
    assert bench_scale.main(argv) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for rows in ("2,000", "4,000"):
        assert any(line.split()[:3] == [rows, "csv", "duckdb"] for line in lines), out
        assert any(line.split()[:3] == [rows, "csv", "pandas"] for line in lines), out
    exponents = [line for line in lines if " a = " in line]
    fitted = {tuple(line.split()[:2]) for line in exponents}
    assert fitted >= {("csv", "duckdb"), ("csv", "pandas"), ("csv", "GROUP")}, out
    assert all(line.endswith("(2 sizes)") for line in exponents), out
