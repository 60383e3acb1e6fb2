"""Issue 28's layout rules hold for the whole project (scripts/check_architecture.py).

Each rule has its own test so a failure names the rule. The checker itself is tested on small
hand-made packages in a temporary folder: a rule that cannot fail proves nothing.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _checker():
    spec = importlib.util.spec_from_file_location(
        "check_architecture", ROOT / "scripts/check_architecture.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_architecture"] = module
    spec.loader.exec_module(module)
    return module


CHECK = _checker()


def test_no_module_over_800_lines():
    assert CHECK.oversized_modules() == []


def test_at_most_ten_fmt_skip_markers():
    assert CHECK.fmt_skip_count() <= 10


def test_no_import_of_another_modules_private_name():
    assert CHECK.private_imports() == []


def test_no_import_cycle_function_level_imports_included():
    assert CHECK.import_cycles() == []


def test_readme_is_under_200_lines():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) < 200


@pytest.fixture
def toy_project(tmp_path, monkeypatch):
    """A project of three modules where a cycle hides in a function-level import and one
    module imports another's private name."""
    core = tmp_path / "core"
    core.mkdir()
    (core / "__init__.py").write_text("")
    (core / "a.py").write_text("from core.b import public\n\n\ndef f():\n    return public\n")
    (core / "b.py").write_text("public = 1\n\n\ndef g():\n    from core.a import f\n    return f\n")
    (core / "c.py").write_text("from core.b import _hidden\n" + "x = 1\n" * 801)
    (tmp_path / "app.py").write_text("import core.a  # fmt" + ": skip\n")
    monkeypatch.setattr(CHECK, "ROOT", tmp_path)
    return tmp_path


def test_the_checker_finds_each_breach_in_a_toy_project(toy_project):
    assert CHECK.import_cycles() == ["import cycle: core.a <-> core.b"]
    assert CHECK.private_imports() == ["core/c.py imports the private name core.b._hidden"]
    assert CHECK.oversized_modules() == ["core/c.py: 802 lines (at most 800)"]
    assert CHECK.fmt_skip_count() == 1
