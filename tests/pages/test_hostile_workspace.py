"""A workspace someone sent is hostile (issue 27, High 1; issue 25): opening it in the
dashboard writes no file, anywhere. Hierarchy names stored in it were written as paths
(an absolute name or one with ``..`` landed outside the app, e.g. a ``.pth`` file that runs
code at the next Python start); hierarchies are now read from the workspace itself."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest
from damaged_workspace import damage_the_datasets_page
from streamlit.testing.v1 import AppTest

from core.recipe import Recipe
from core.workspace import Workspace, sha256_text

ROOT = Path(__file__).resolve().parents[2]
AGE = "\n".join(f"{age};{age // 10 * 10}s;*" for age in range(20, 60)) + "\n"


def _hostile_workspace(path: Path, targets: list[Path]) -> None:
    """A workspace whose hierarchies are named by paths outside the app (one absolute,
    one climbing out of the app's folder with ``..``), as a crafted file would have them
    (written with plain SQL: the Workspace API refuses such names now)."""
    table = pd.DataFrame({"age": [25, 27, 33, 35, 41, 44], "sex": list("FMFMFM")})
    with Workspace(path) as ws:
        sha = ws.add_dataset(table, name="people.csv", store_data=True)
        ws.set_setting("current_data", {"sha256": sha, "name": "people.csv", "source_path": None})
        names = [str(targets[0]), os.path.relpath(targets[1], ROOT)]
        with ws.transaction() as conn:
            for name in names:
                conn.execute(
                    "INSERT INTO hierarchies (name, column_name, sha256, content, created_at) "
                    "VALUES (?, 'age', ?, ?, '2026-01-01')",
                    (name, sha256_text(AGE), AGE),
                )
        version = ws.add_recipe_version(
            Recipe(
                ({"step": "generalise", "column": "age", "hierarchy": names[1], "level": 1},), 7, {}
            ).to_yaml(),
            message="crafted",
        )
        ws.set_setting("current_recipe", version.id)


def _session() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    assert not at.exception, at.exception
    return at


def test_opening_a_workspace_writes_no_hierarchy_file_anywhere(tmp_path, monkeypatch):
    targets = [tmp_path / "site-packages" / "evil.pth", tmp_path / "climbed" / "evil.pth"]
    workspace = tmp_path / "sent.anon.db"
    _hostile_workspace(workspace, targets)
    monkeypatch.setenv("ANON_WORKSPACE", str(workspace))
    at = _session()  # the dashboard continues from the workspace (restore_from_workspace)
    for target in targets:
        assert not target.exists() and not target.parent.exists(), target
    # The recipe's step still runs: its hierarchy is read from the workspace, not a file.
    assert at.session_state["history"].current.steps[0]["step"] == "generalise"
    assert not at.session_state["original"].empty


def test_history_open_workspace_writes_no_hierarchy_file(tmp_path):
    targets = [tmp_path / "a" / "evil.pth", tmp_path / "b" / "evil.pth"]
    workspace = tmp_path / "sent.anon.db"
    _hostile_workspace(workspace, targets)
    at = _session()  # on the test's own (empty) workspace
    at.switch_page("pages/12_history.py").run()
    at.text_input(key="hist_path").set_value(str(workspace))
    at.button(key="hist_open").click().run()
    assert not at.exception, at.exception
    for target in targets:
        assert not target.exists() and not target.parent.exists(), target


def test_another_sessions_hierarchies_are_followed_without_a_file(tmp_path, monkeypatch):
    """_follow: a hierarchy another session (or a crafted file) adds is taken over on the
    next rerun, and still nothing is written."""
    workspace = tmp_path / "shared.anon.db"
    monkeypatch.setenv("ANON_WORKSPACE", str(workspace))
    at = _session()
    target = tmp_path / "later" / "evil.pth"
    with Workspace(workspace) as ws, ws.transaction() as conn:
        conn.execute(
            "INSERT INTO hierarchies (name, column_name, sha256, content, created_at) "
            "VALUES (?, 'age', ?, ?, '2026-01-01')",
            (str(target), sha256_text(AGE), AGE),
        )
        ws.log("hierarchy", f"hierarchy:{target}", {})
    at.run()
    assert not at.exception, at.exception
    assert not target.exists() and not target.parent.exists()


@pytest.mark.parametrize(
    "name",
    [
        "/tmp/evil.pth",
        "../../evil.pth",
        "hierarchies/../x.csv",
        "hierarchies/a b.csv",
        "hierarchies/x.pth",
    ],
)
def test_the_workspace_refuses_a_hierarchy_name_that_is_not_a_bundle_name(tmp_path, name):
    from core.workspace import WorkspaceError

    with Workspace(tmp_path / "w.anon.db") as ws, pytest.raises(WorkspaceError, match="name"):
        ws.put_hierarchy(name, AGE, column="age")


def test_history_names_a_record_changed_under_an_intact_log(tmp_path, monkeypatch):
    """k edited in the risk table (the audit log untouched, so its chain still holds):
    History says which row no longer matches its audit entry (issue 27, High 2)."""
    import sqlite3

    workspace = tmp_path / "edited.anon.db"
    with Workspace(workspace) as ws:
        ws.add_risk(data_sha256="d" * 64, quasi_identifiers=["age"], k=2, p_reid=0.5)
    with sqlite3.connect(workspace) as conn:
        conn.execute("UPDATE risk_computations SET k = 50")
    monkeypatch.setenv("ANON_WORKSPACE", str(workspace))
    at = _session()
    at.switch_page("pages/12_history.py").run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert any(
        "risk computation 1: k is 50 in its table but 2 in its audit entry" in e for e in errors
    ), errors


def test_a_damaged_workspace_is_one_line_in_the_dashboard(tmp_path, monkeypatch):
    """A workspace with a damaged page (SQLITE_CORRUPT where the data sets are kept): the
    dashboard starts on the sample and says why in one line; History says the file is
    damaged instead of 'intact' (issue 27: every SQLite error becomes one line)."""
    workspace = tmp_path / "damaged.anon.db"
    with Workspace(workspace) as ws:
        sha = ws.add_dataset(pd.DataFrame({"a": range(2000)}), name="t.csv", store_data=True)
        ws.set_setting("current_data", {"sha256": sha, "name": "t.csv", "source_path": None})
    damage_the_datasets_page(workspace)
    monkeypatch.setenv("ANON_WORKSPACE", str(workspace))
    at = _session()
    warnings = [w.value for w in at.sidebar.warning]
    assert any("is damaged (database disk image is malformed)" in w for w in warnings), warnings
    at.switch_page("pages/12_history.py").run()
    assert not at.exception, at.exception
    shown = [e.value for e in at.error] + [s.value for s in at.success]
    assert any("damaged" in text for text in shown) and not any("intact" in t for t in shown)
