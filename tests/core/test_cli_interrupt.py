"""The command line under long work: a progress bar on stderr only, and Ctrl-C leaves no
partial output (issue 15, Must have 6)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

import core.progress
from core import cli

ROOT = Path(__file__).resolve().parents[2]
STEP4 = ROOT / "sample_data" / "guide_step4_k_example.csv"


def test_progress_goes_to_stderr_and_json_stdout_stays_clean(monkeypatch, capsys):
    monkeypatch.setattr(core.progress, "BAR_DELAY", 0.0)  # draw even for this quick run
    qi = ",".join(pd.read_csv(STEP4).columns[:2])
    code = cli.main(["risk", str(STEP4), "--qi", qi, "--json", "--progress"])
    captured = capsys.readouterr()
    assert code == 0
    assert json.loads(captured.out)["records"] == 9  # stdout is the JSON alone
    assert "risk:" in captured.err and "%|" in captured.err and "reading" in captured.err
    assert captured.err.endswith("\n")  # the bar's line is ended


def test_no_progress_without_a_terminal_or_the_option(monkeypatch, capsys):
    monkeypatch.setattr(core.progress, "BAR_DELAY", 0.0)
    qi = ",".join(pd.read_csv(STEP4).columns[:2])
    assert cli.main(["risk", str(STEP4), "--qi", qi, "--json"]) == 0
    assert capsys.readouterr().err == ""  # pytest's stderr is not a terminal


def _big_table(path: Path, rows: int) -> None:
    """A table whose release takes a while to write: a long text column, two sexes."""
    note = "x" * 400
    body = "".join(f"{i},{'MF'[i % 2]},{note}\n" for i in range(rows))
    path.write_text("id,sex,note\n" + body)


def test_ctrl_c_while_apply_writes_leaves_no_output_and_no_temporary_file(tmp_path):
    data, out = tmp_path / "people.csv", tmp_path / "released.csv"
    _big_table(data, 200_000)  # ~80 MB: its release takes long enough to catch mid-write
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(
        "seed: 1\nquasi_identifiers: [sex]\nk: 2\ndirect_identifiers: []\n"
        "steps:\n  - {step: remove, columns: [id]}\n"
    )
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "core",
            "apply",
            str(data),
            "--recipe",
            str(recipe),
            "--out",
            str(out),
        ],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".released.csv.*.tmp")):
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the temporary file never appeared"
        time.sleep(0.002)
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, (stdout, stderr, os.listdir(tmp_path))
    assert stderr.startswith("error: interrupted (Ctrl-C)")
    assert len(stderr.strip().splitlines()) == 1, stderr  # one line, no traceback
    left = sorted(os.listdir(tmp_path))
    assert left == ["people.csv", "recipe.yaml"], (left, stderr)  # nothing else
