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


def _set_k(at: AppTest, k: int) -> None:
    at.switch_page("pages/2_classify.py").run()
    at.number_input(key="k_target").set_value(k).run()
    assert not at.exception, at.exception


def _add_mask(at: AppTest, keep_first: int) -> None:
    at.switch_page("pages/4_techniques.py").run()
    at.selectbox(key="technique").set_value("mask").run()
    at.selectbox(key="column").set_value("town").run()
    at.radio(key="mask_mode").set_value("keep").run()
    at.number_input(key="keep_first").set_value(keep_first)
    at.button(key="add_step").click().run()
    assert not at.exception, at.exception


def test_history_restores_a_version_with_its_roles_and_settings(own_workspace):
    at = _new_session()
    _upload(at)
    _set_k(at, 3)
    _classify_and_add_a_step(at)  # v: one mask step, town and age indirect, k = 3
    with Workspace(own_workspace) as ws:
        one_step = ws.settings()["current_recipe"]
    at.session_state["roles"] = {"id": Role.DIRECT, "age": Role.OTHER, "town": Role.INDIRECT}
    at.switch_page("pages/2_classify.py").run()
    at.button(key="save_roles").click().run()
    _add_mask(at, 1)  # a second step
    _set_k(at, 2)
    assert len(at.session_state["history"].current.steps) == 2

    at.switch_page("pages/12_history.py").run()
    at.selectbox(key="hist_v_old").set_value(one_step).run()
    at.button(key="hist_restore").click().run()
    assert not at.exception, at.exception
    steps = at.session_state["history"].current.steps
    assert [s["keep_first"] for s in steps] == [2]
    assert at.session_state["roles"]["age"] == Role.INDIRECT  # as it was then
    assert at.session_state["k_target_value"] == 3
    # said once in the sidebar (this AppTest reruns the page alone, without app.py's sidebar)
    assert at.session_state["workspace_sync_note"].startswith(
        f"Restored the recipe, roles and settings of version {one_step};"
    )
    with Workspace(own_workspace) as ws:
        restore = [e for e in ws.audit_entries() if e["action"] == "restore"]
        assert len(restore) == 1 and restore[0]["object"] == f"recipe:{one_step}"
        assert ws.verify_chain().ok
        current = ws.recipe_version(ws.settings()["current_recipe"])
        assert current.message == f"restored from v{one_step}"
        assert current.yaml == ws.recipe_version(one_step).yaml
        assert ws.settings()["k"] == 3
    again = _new_session()  # and it stays after a restart
    assert [s["keep_first"] for s in again.session_state["history"].current.steps] == [2]
    at.switch_page("pages/2_classify.py").run()
    assert not at.exception, at.exception


def test_history_refuses_a_version_made_for_another_data_set(own_workspace):
    at = _new_session()
    _upload(at)
    _classify_and_add_a_step(at)
    with Workspace(own_workspace) as ws:
        mine = ws.settings()["current_recipe"]
    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value("guide_annex_c_taxi.csv")
    at.button(key="load_sample").click().run()
    at.button(key="load_sample_yes").click().run()  # it asks first: work is at stake
    at.switch_page("pages/12_history.py").run()
    at.selectbox(key="hist_v_old").set_value(mine).run()
    at.button(key="hist_restore").click().run()
    assert not at.exception, at.exception
    assert any("was made for the data set 'mine.csv'" in e.value for e in at.error)
    assert at.session_state["source_name"] == "guide_annex_c_taxi.csv"
    assert at.session_state["history"].current.steps == ()


SEX_HIERARCHY = b"Male;*\nFemale;*\n"  # ARX format, made for the taxi table's Gender


def _upload_gender_hierarchy(at: AppTest) -> None:
    at.switch_page("pages/9_tradeoffs.py").run()
    at.multiselect(key="to_qi").set_value(["Gender"]).run()
    at.selectbox(key="to_kind_Gender").set_value("upload").run()
    at.file_uploader(key="to_up_Gender").set_value(("sex.csv", SEX_HIERARCHY, "text/csv")).run()
    assert not at.exception, at.exception


def test_a_kept_hierarchy_stays_with_its_data_set_and_a_mismatch_is_said(own_workspace):
    """Issue 29: a hierarchy chosen for 'sex' on adult.csv followed the column name onto a
    survey table, whose 'F' it did not know. The taxi table's Gender is Male/Female, the
    Step 1 customers' Gender is M/F."""
    at = _new_session()
    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value("guide_annex_c_taxi.csv")
    at.button(key="load_sample").click().run()
    at.session_state["roles"] = {"Age": Role.INDIRECT, "Gender": Role.INDIRECT}
    _upload_gender_hierarchy(at)
    assert not at.warning  # it knows every value of this table's Gender
    taxi = at.session_state["data_sha256"]
    with Workspace(own_workspace) as ws:  # kept under the data set it was chosen for
        assert ws.settings()["tradeoff_hierarchies"][taxi]["Gender"]["kind"] == "upload"

    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value("guide_step1_customers.csv")
    at.button(key="load_sample").click().run()
    at.button(key="load_sample_yes").click().run()
    at.session_state["roles"] = {"Gender": Role.INDIRECT}
    at.switch_page("pages/9_tradeoffs.py").run()
    at.multiselect(key="to_qi").set_value(["Gender"]).run()
    assert at.selectbox(key="to_kind_Gender").value == "auto"  # not the taxi table's choice

    _upload_gender_hierarchy(at)  # the same file on the other table: said where it is chosen
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert any("does not know 2 value(s) of 'Gender'" in w and "'F'" in w for w in warnings)

    at.switch_page("pages/1_data.py").run()  # back to the taxi table: its choice is there
    at.selectbox(key="sample").set_value("guide_annex_c_taxi.csv")
    at.button(key="load_sample").click().run()
    at.button(key="load_sample_yes").click().run()
    assert at.session_state["data_sha256"] == taxi
    at.switch_page("pages/9_tradeoffs.py").run()
    at.multiselect(key="to_qi").set_value(["Gender"]).run()
    assert at.selectbox(key="to_kind_Gender").value == "upload"
    assert not at.warning, [w.value for w in at.warning]
