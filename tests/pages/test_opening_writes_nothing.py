"""Opening the dashboard writes nothing (issue 29).

Reported: a brand-new workspace recorded the sample table on first open ("new data set
'singapore_people.csv'" in History and the audit log) although the user had done nothing.
A fresh workspace shows the sample; the first real change records it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest_helpers import app_py_on_every_rerun  # noqa: F401 (a fixture)
from streamlit.testing.v1 import AppTest

from core.schema import Role
from core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))


def _record(path: Path) -> tuple[list[str], list[tuple[str, str]], dict]:
    """What the workspace holds: recipe versions, audit entries, settings."""
    if not path.exists():
        return [], [], {}
    with Workspace(path) as ws:
        return (
            [v.message for v in ws.recipe_versions()],
            [(e["action"], e["object"]) for e in ws.audit_entries()],
            ws.settings(),
        )


def test_opening_a_new_workspace_and_visiting_every_page_records_nothing(own_workspace):
    assert not own_workspace.exists()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["source_name"] == "singapore_people.csv"
    at.run()  # a rerun
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)
    versions, audit, settings = _record(own_workspace)
    assert versions == []  # no "new data set 'singapore_people.csv'" version
    assert audit == []
    assert "current_data" not in settings

    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)  # a restart
    again.run()
    assert not again.exception, again.exception
    assert _record(own_workspace)[:2] == ([], [])


def test_the_first_real_change_records_the_sample_once(own_workspace):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.session_state["roles"] = {"name": Role.DIRECT}
    at.switch_page("pages/2_classify.py").run()
    at.button(key="save_roles").click().run()
    assert not at.exception, at.exception
    versions, audit, settings = _record(own_workspace)
    assert versions == ["new data set 'singapore_people.csv'"]
    assert settings["current_data"]["name"] == "singapore_people.csv"
    sha = settings["current_data"]["sha256"]
    actions = [action for action, _ in audit]
    assert ("dataset", f"dataset:{sha}") in audit and ("roles", f"dataset:{sha}") in audit
    assert actions.count("dataset") == 1 and actions.count("recipe") == 1


def test_a_file_opened_by_anon_data_is_recorded_at_the_first_change_only(
    own_workspace, tmp_path, monkeypatch
):
    path = tmp_path / "mine.csv"
    path.write_text("id,age,town\n1,31,Bedok\n2,45,Yishun\n")
    monkeypatch.setenv("ANON_DATA", str(path))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["source_name"] == "mine.csv"
    at.switch_page("pages/5_risk.py").run()
    assert _record(own_workspace)[:2] == ([], [])
    at.session_state["roles"] = {"id": Role.DIRECT}
    at.switch_page("pages/2_classify.py").run()
    at.button(key="save_roles").click().run()
    versions, _, settings = _record(own_workspace)
    assert versions == ["new data set 'mine.csv'"]
    assert settings["current_data"]["source_path"] == str(path)


@pytest.mark.usefixtures("app_py_on_every_rerun")
def test_two_tabs_on_a_new_workspace_record_the_sample_once(own_workspace):
    """Both tabs show the sample unrecorded; the first change records it, and the other
    tab, following, does not record it a second time (no second "new data set" version,
    which would also have pointed the workspace at its own recipe)."""
    first = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    second = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    first.run(), second.run()
    first.session_state["roles"] = {"name": Role.DIRECT}
    first.switch_page("pages/2_classify.py").run()
    first.button(key="save_roles").click().run()
    second.switch_page("pages/2_classify.py").run()  # takes the roles over
    assert second.session_state["roles"] == first.session_state["roles"]
    second.number_input(key="k_target").set_value(7).run()
    assert not second.exception, second.exception
    versions, audit, settings = _record(own_workspace)
    assert versions == ["new data set 'singapore_people.csv'"]
    assert settings["k"] == 7
    assert [action for action, _ in audit].count("dataset") == 1
