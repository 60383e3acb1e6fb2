"""The README's five-minute tour runs as written: each command exits 0 and says what the
README says it does, so the tour cannot drift from the code."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from core.cli import main

ROOT = Path(__file__).resolve().parents[2]


def tour_commands() -> list[list[str]]:
    """The arguments of each ``python -m core`` command of the tour, as bash expands them."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = readme.split("\n## A five-minute tour\n")[1].split("\n## ")[0]
    script = "\n".join(re.findall(r"```bash\n(.*?)```", tour, flags=re.DOTALL))
    script = script.replace(".venv/bin/python -m core", "arguments_of")
    prelude = 'arguments_of() { printf "%s\\037" "$@"; printf "\\n"; }\n'
    printed = subprocess.run(
        ["bash", "-c", prelude + script], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    return [line.rstrip("\x1f").split("\x1f") for line in printed.splitlines()]


def test_the_tour_runs_as_the_readme_says(tmp_path, monkeypatch, capsys):
    (tmp_path / "tests").mkdir()
    (tmp_path / "sample_data").symlink_to(ROOT / "sample_data")
    (tmp_path / "tests" / "data").symlink_to(ROOT / "tests" / "data")
    monkeypatch.chdir(tmp_path)
    commands = tour_commands()
    assert [argv[0] for argv in commands] == [
        "classify",
        "risk",
        "reid-risk",
        "search",
        "apply",
        "verify",
        "log",
    ]
    said = {}
    for argv in commands:
        assert main(argv) == 0, argv
        captured = capsys.readouterr()
        said[argv[0]] = captured.out + captured.err
    assert "indirect" in said["classify"]
    assert "the table is 1-anonymous" in said["risk"]  # every record one of a kind
    assert "k of at least" in said["reid-risk"]
    assert "k = 5, at most 1.00% of records suppressed" in said["search"]
    assert (tmp_path / "recipe.yaml").is_file()
    for written in ("released.csv", "report.md", "release.zip", "tour.anon.db"):
        assert (tmp_path / written).is_file(), written
    assert "release 1: reproduced" in said["verify"]
    assert "release.zip: release 1 is in this workspace" in said["verify"]
