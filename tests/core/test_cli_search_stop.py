"""Ctrl-C during `python -m core search` (issue 30): the best solution found so far is
printed, labelled "stopped after N of M nodes: the best found so far, possibly not the
optimum", no recipe is written, and the exit status is an interrupted command's (130)."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

import core.search.run
from core import cli
from core.hierarchy import masking_hierarchy, write_hierarchy

ROOT = Path(__file__).resolve().parents[2]
QI8 = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass"]
QI8 += ["occupation"]


def test_ctrl_c_in_the_search_prints_the_best_so_far_labelled(
    adult_hierarchies_dir, monkeypatch, capsys, tmp_path
):
    """Ctrl-C simulated where the search reports its progress (after 200 nodes)."""
    searching = core.search.run.search

    def interrupted_at_200(*args, progress, **kwargs):
        def report(fraction: float, text: str) -> None:
            progress(fraction, text)
            if " 200 of " in f" {text}":
                raise KeyboardInterrupt

        return searching(*args, progress=report, **kwargs)

    monkeypatch.setattr(core.search.run, "search", interrupted_at_200)
    folder = adult_hierarchies_dir
    recipe = tmp_path / "recipe.yaml"
    args = [
        "search",
        str(folder / "adult.csv"),
        "--k",
        "5",
        "--max-suppressed",
        "0.01",
        *(f"--hierarchy={c}={folder / f'adult_hierarchy_{c}.csv'}" for c in QI8),
        "--recipe-out",
        str(recipe),
    ]
    assert cli.main([*args, "--json"]) == 130
    got = json.loads(capsys.readouterr().out)
    assert got["stopped"] is True and got["nodes_checked"] == 200
    assert got["lattice_size"] == 6480  # 2 * 5 * 2 * 3 * 4 * 3 * 3 * 3 levels
    assert got["best_so_far"]["k"] >= 5 and got["best_so_far"]["suppressed"] <= 301
    assert got["explanation"].startswith(
        "Stopped after 200 of 6,480 nodes: the best found so far, possibly not the optimum."
    )
    assert cli.main(args) == 130
    text = capsys.readouterr().out
    assert text.startswith("Stopped after 200 of 6,480 nodes") and "No recipe was written" in text
    assert not recipe.exists()


def test_sigint_to_a_long_search_exits_130_with_the_best_so_far(tmp_path):
    """A real Ctrl-C (SIGINT) to a child process searching 200,000 records: sent once the
    progress bar shows nodes being checked."""
    rng = np.random.default_rng(7)
    codes = {f"c{i}": [f"{v:05d}" for v in rng.integers(0, 100_000, 200_000)] for i in range(6)}
    table = pd.DataFrame(codes)
    data = tmp_path / "codes.csv"
    table.to_csv(data, index=False)
    flags = []
    for column in table:
        path = tmp_path / f"{column}.csv"
        write_hierarchy(masking_hierarchy(table[column], name=column), path)
        flags.append(f"--hierarchy={column}={path}")
    child = subprocess.Popen(
        [sys.executable, "-m", "core", "search", str(data), "--k", "5", "--progress", *flags],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    seen, deadline = b"", time.monotonic() + 120
    while b"nodes checked" not in seen:
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, seen
        ready, _, _ = select.select([child.stderr], [], [], 0.5)
        if ready:
            seen += os.read(child.stderr.fileno(), 4096)
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, (stdout, stderr)
    out = stdout.decode()
    assert out.startswith("Stopped after "), out
    assert "of 46,656 nodes: the best found so far, possibly not the optimum." in out  # 6^6
    assert "Traceback" not in (seen + stderr).decode()
