"""The work stays (issue 29): opening the dashboard never replaces the project the
workspace holds, an upload is kept by default, and the same file uploaded again brings
back its roles and recipe.

Reported: after a restart the app reopened on the sample table and wrote a new, empty
recipe version ("v7 · new data set 'singapore_people.csv'"), and uploading the same file
again did not bring back its roles or recipe.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.schema import Role
from core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
UPLOAD = ("mine.csv", b"id,age,town\n1,31,Bedok\n2,45,Yishun\n3,45,Bedok\n", "text/csv")


def _new_session() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    assert not at.exception, at.exception
    return at


def _upload(at: AppTest, upload=UPLOAD) -> None:
    at.switch_page("pages/1_data.py").run()
    at.file_uploader(key="upload").set_value(upload).run()
    assert not at.exception, at.exception


def _classify_and_add_a_step(at: AppTest) -> None:
    at.session_state["roles"] = {"id": Role.DIRECT, "age": Role.INDIRECT, "town": Role.INDIRECT}
    at.switch_page("pages/2_classify.py").run()
    at.button(key="save_roles").click().run()
    at.switch_page("pages/4_techniques.py").run()
    at.selectbox(key="technique").set_value("mask").run()
    at.selectbox(key="column").set_value("town").run()
    at.radio(key="mask_mode").set_value("keep").run()
    at.number_input(key="keep_first").set_value(2)
    at.button(key="add_step").click().run()
    assert not at.exception, at.exception
    assert len(at.session_state["history"].current.steps) == 1


def _recipe_messages(path: Path) -> list[str]:
    with Workspace(path) as ws:
        return [v.message for v in ws.recipe_versions()]


def test_an_upload_is_kept_by_default_and_the_project_reopens(own_workspace):
    at = _new_session()
    _upload(at)
    caption = " ".join(c.value for c in at.caption)
    assert "kept in the workspace" in caption  # said at the upload, with the choice not to
    assert at.checkbox(key="data_keep_rows").value is True
    _classify_and_add_a_step(at)
    versions = _recipe_messages(own_workspace)

    again = _new_session()  # the browser closed, the server restarted
    assert again.session_state["source_name"] == "mine.csv"
    assert again.session_state["original"]["town"].tolist() == ["Bedok", "Yishun", "Bedok"]
    assert again.session_state["roles"]["age"] == Role.INDIRECT
    assert again.session_state["history"].current.steps[0]["step"] == "mask"
    assert _recipe_messages(own_workspace) == versions  # opening wrote no new version


def test_opening_never_replaces_a_project_it_cannot_reopen(own_workspace):
    """The rows were not kept (the user said so): the app shows the sample to look at, but
    writes nothing, so the workspace still points at the user's project."""
    at = _new_session()
    at.switch_page("pages/1_data.py").run()
    at.checkbox(key="data_keep_rows").uncheck().run()
    _upload(at)
    _classify_and_add_a_step(at)
    messages = _recipe_messages(own_workspace)
    with Workspace(own_workspace) as ws:
        before = (ws.revision(), ws.settings()["current_data"], ws.settings()["current_recipe"])

    again = _new_session()
    assert again.session_state["source_name"] != "mine.csv"
    assert any("rows are not stored" in w.value for w in again.sidebar.warning)
    for page in ("pages/1_data.py", "pages/5_risk.py", "pages/7_report.py"):
        again.switch_page(page).run()
        assert not again.exception, again.exception
    with Workspace(own_workspace) as ws:
        after = (ws.revision(), ws.settings()["current_data"], ws.settings()["current_recipe"])
    assert after == before  # no "new data set 'singapore_people.csv'" version
    assert _recipe_messages(own_workspace) == messages  # no "new data set" version

    # The same file uploaded again: its roles and recipe come back.
    _upload(again)
    assert again.session_state["source_name"] == "mine.csv"
    assert again.session_state["roles"]["town"] == Role.INDIRECT
    assert again.session_state["history"].current.steps[0]["step"] == "mask"
    assert any("roles and recipe" in s.value for s in again.success)


def test_the_first_change_on_the_sample_shown_makes_it_the_project(own_workspace):
    """The sample shown beside a project that cannot be reopened is recorded once the user
    works on it (one transaction: the data set, its empty recipe, then the change)."""
    at = _new_session()
    at.switch_page("pages/1_data.py").run()
    at.checkbox(key="data_keep_rows").uncheck().run()
    _upload(at)
    again = _new_session()
    assert again.session_state["source_name"] == "singapore_people.csv"
    with Workspace(own_workspace) as ws:
        assert ws.settings()["current_data"]["name"] == "mine.csv"
    again.session_state["roles"] = {"name": Role.DIRECT}
    again.switch_page("pages/2_classify.py").run()
    again.button(key="save_roles").click().run()
    assert not again.exception, again.exception
    with Workspace(own_workspace) as ws:
        settings = ws.settings()
        assert settings["current_data"]["sha256"] == again.session_state["data_sha256"]
        assert settings["current_data"]["name"] == "singapore_people.csv"
        assert ws.roles(again.session_state["data_sha256"])["name"] == "direct"
        assert ws.recipe_version(settings["current_recipe"]).message == (
            "new data set 'singapore_people.csv'"
        )
