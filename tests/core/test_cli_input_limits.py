"""Hostile or oversized inputs through the command line (issue 11, "fail fast").

Each refusal must exit with status 2, print exactly one line on stderr, and write nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "guide_step4_k_example.csv"


def assert_refused(capsys: pytest.CaptureFixture, argv: list[str], out: Path, *words: str):
    """Run the CLI; check exit code 2, one 'error:' line naming ``words``, no ``out``."""
    code = main(argv)
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for word in words:
        assert word in lines[0]
    assert not out.exists()
    assert not list(out.parent.glob(out.name + "*"))


def test_apply_refuses_a_billion_laughs_recipe(tmp_path, capsys):
    # nine levels of nine aliases, 9**9 (387 million) strings once expanded, in a field
    # that recipes accept
    levels = "abcdefghi"
    lines = ["description:", f"  a: &a [{','.join(['lol'] * 9)}]"]
    for old, new in zip(levels, levels[1:], strict=False):
        lines.append(f"  {new}: &{new} [{','.join(['*' + old] * 9)}]")
    lines += ["steps: [{step: remove, columns: [Favourite show]}]", ""]
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("\n".join(lines), encoding="utf-8")
    assert recipe.stat().st_size < 500
    out = tmp_path / "out.csv"
    argv = ["apply", str(SAMPLE), "--recipe", str(recipe), "--out", str(out)]
    assert_refused(capsys, argv, out, "anchor or alias")
