"""Two sessions (two browser tabs) on one workspace file (issue 12): the workspace is the
single source of truth of the state, every rerun takes over what another session or the
CLI changed, and the session is told. The rule: each write replaces the workspace's
pointer (last writer wins); the other session takes it over on its next rerun, before its
page acts, so its next change builds on the latest version."""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest_helpers import app_py_on_every_rerun  # noqa: F401 (a fixture)
from streamlit.testing.v1 import AppTest

from core.recipe import Recipe
from core.workspace import Workspace
from ui.state import following, loading

ROOT = Path(__file__).resolve().parents[2]
TAXI = "guide_annex_c_taxi.csv"
TECHNIQUES = "pages/4_techniques.py"
CLASSIFY = "pages/2_classify.py"
pytestmark = pytest.mark.usefixtures("app_py_on_every_rerun")


def _session() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    assert not at.exception, at.exception
    return at


def _session_on_the_recorded_sample() -> AppTest:
    """A session whose user picked the sample on Data, so it is the workspace's project
    (opening the app alone records nothing, issue 29)."""
    at = _session()
    at.switch_page("pages/1_data.py").run()
    at.button(key="load_sample").click().run()
    assert not at.exception, at.exception
    return at


def _rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _sidebar_text(at: AppTest) -> str:
    return "\n".join(m.value for m in (*at.sidebar.markdown, *at.sidebar.info))


def _steps(at: AppTest) -> tuple:
    return at.session_state["history"].current.steps


def _current_recipe(path: Path) -> int:
    with Workspace(path) as ws:
        return ws.settings()["current_recipe"]


def _add_mask_step(at: AppTest, column: str, keep_first: int) -> None:
    at.switch_page(TECHNIQUES).run()
    at.selectbox(key="technique").set_value("mask").run()
    at.selectbox(key="column").set_value(column).run()
    at.radio(key="mask_mode").set_value("keep").run()
    at.number_input(key="keep_first").set_value(keep_first)
    at.button(key="add_step").click().run()
    assert not at.exception, at.exception


def test_a_recipe_change_in_one_tab_shows_in_the_other_on_its_next_rerun(own_workspace):
    first = _session()
    first.switch_page("pages/1_data.py").run()
    first.selectbox(key="sample").set_value(TAXI)
    first.button(key="load_sample").click().run()
    second = _session()  # a second tab: it opens where the workspace is
    assert second.session_state["source_name"] == TAXI and _steps(second) == ()

    _add_mask_step(first, "Occupation", 2)
    mask_occupation = _steps(first)
    assert len(mask_occupation) == 1
    _rerun(second)  # its next rerun: the new version is taken over, and it is told so
    assert _steps(second) == mask_occupation
    version = _current_recipe(own_workspace)
    assert f"The recipe changed in another session: now version {version}." in [
        i.value for i in second.sidebar.info
    ]
    assert "**Recipe:** 1 step(s)" in _sidebar_text(second)
    _rerun(second)  # told once: nothing changed since
    assert not second.sidebar.info

    # The second tab's own change builds on the version it took over; the first follows.
    _add_mask_step(second, "Gender", 1)
    both = _steps(second)
    assert both[:1] == mask_occupation and len(both) == 2
    _rerun(first)
    assert _steps(first) == both
    with Workspace(own_workspace) as ws:
        assert Recipe.from_yaml(ws.recipe_version(_current_recipe(own_workspace)).yaml).steps == (
            both
        )
    # Undo in the first tab is a change like any other: the second takes it over.
    first.button(key="undo").click().run()
    assert _steps(first) == mask_occupation
    _rerun(second)
    assert _steps(second) == mask_occupation


def test_a_setting_changed_elsewhere_is_taken_over_not_written_back(own_workspace):
    first = _session()
    first.switch_page(CLASSIFY).run()
    second = _session()
    second.switch_page(CLASSIFY).run()
    assert first.number_input(key="k_target").value == 5
    second.number_input(key="k_target").set_value(7).run()
    with Workspace(own_workspace) as ws:
        assert ws.settings()["k"] == 7
    _rerun(first)  # its widget still held 5: it is drawn again from the workspace's 7
    assert first.number_input(key="k_target").value == 7
    assert first.session_state["k_target_value"] == 7
    with Workspace(own_workspace) as ws:
        assert ws.settings()["k"] == 7  # the first tab did not write its old 5 back


def test_roles_written_by_another_program_show_on_the_next_rerun(own_workspace):
    at = _session_on_the_recorded_sample()
    assert not at.sidebar.metric  # no quasi-identifiers yet: no k
    with Workspace(own_workspace) as ws:  # e.g. another session, or a script on the file
        sha = ws.settings()["current_data"]["sha256"]
        ws.set_roles(sha, {"sex": "indirect", "race": "indirect"}, author="other")
    _rerun(at)
    assert {c: r.value for c, r in at.session_state["roles"].items()} == {
        "sex": "indirect",
        "race": "indirect",
    }
    table = at.session_state["original"]
    smallest = int(table.groupby(["sex", "race"]).size().min())  # k by hand
    assert next(m.value for m in at.sidebar.metric if m.label == "k (smallest group)") == str(
        smallest
    )


def test_a_data_set_opened_in_another_tab_is_followed(own_workspace):
    first = _session()
    second = _session()
    first.switch_page("pages/1_data.py").run()
    first.selectbox(key="sample").set_value(TAXI)
    first.button(key="load_sample").click().run()
    _rerun(second)
    assert second.session_state["source_name"] == TAXI
    assert second.session_state["original"].equals(first.session_state["original"])
    assert f"The data set changed in another session: now '{TAXI}'." in [
        i.value.replace("\\", "") for i in second.sidebar.info
    ]


def test_an_unkept_upload_in_another_tab_is_not_followed(own_workspace):
    first = _session()
    second = _session()
    before = second.session_state["source_name"]
    first.switch_page("pages/1_data.py").run()
    first.checkbox(key="data_keep_rows").uncheck().run()  # kept by default (issue 29)
    upload = ("mine.csv", b"id,town\n1,Bedok\n2,Yishun\n", "text/csv")
    first.file_uploader(key="upload").set_value(upload).run()
    assert first.session_state["source_name"] == "mine.csv"
    _rerun(second)  # the rows live only in the first tab: the second keeps its table
    assert second.session_state["source_name"] == before
    assert any("rows are neither stored" in i.value for i in second.sidebar.info)


def test_a_recipe_taken_over_asks_for_a_key_this_session_lacks(own_workspace, monkeypatch):
    monkeypatch.delenv("ANON_TAB_KEY", raising=False)
    at = _session_on_the_recorded_sample()
    step = {"step": "pseudonymise", "column": "nric", "method": "hmac", "key_env": "ANON_TAB_KEY"}
    with Workspace(own_workspace) as ws:  # another tab, which has the key, added the step
        seed = Recipe.from_yaml(ws.recipe_version(ws.settings()["current_recipe"]).yaml).seed
        version = ws.add_recipe_version(Recipe([step], seed).to_yaml(), message="add step 1")
        ws.set_setting("current_recipe", version.id)
    at.switch_page(TECHNIQUES).run()
    assert not at.exception, at.exception
    assert _steps(at) == (step,)
    assert any("ANON_TAB_KEY" in e.value and "not set in this session" in e.value for e in at.error)


def test_a_hierarchy_choice_changed_elsewhere_redraws_the_trade_off_widgets(own_workspace):
    at = _session()
    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value(TAXI)
    at.button(key="load_sample").click().run()
    at.switch_page("pages/9_tradeoffs.py").run()
    at.multiselect(key="to_qi").set_value(["Age", "Gender"]).run()
    assert at.selectbox(key="to_kind_Age").value == "auto"
    with Workspace(own_workspace) as ws:  # another tab chose suppression for Age
        choices = ws.settings().get("tradeoff_hierarchies", {})  # none yet: all "auto"
        ws.set_setting("tradeoff_hierarchies", {**choices, "Age": {"kind": "suppress"}})
    _rerun(at)
    assert at.selectbox(key="to_kind_Age").value == "suppress"
    with Workspace(own_workspace) as ws:  # not overwritten by this tab's old "auto"
        assert ws.settings()["tradeoff_hierarchies"]["Age"] == {"kind": "suppress"}


def test_roles_saved_elsewhere_redraw_the_role_pickers(own_workspace):
    at = _session_on_the_recorded_sample()
    at.switch_page(CLASSIFY).run()
    columns = list(at.session_state["original"].columns)
    sex = columns.index("sex")
    at.segmented_control[sex].set_value("other").run()  # picked here, not saved
    with Workspace(own_workspace) as ws:  # another tab saved roles
        sha = ws.settings()["current_data"]["sha256"]
        ws.set_roles(sha, {"sex": "indirect", "race": "indirect"}, author="other")
    _rerun(at)
    assert at.segmented_control[sex].value == "indirect"
    assert any("Roles confirmed for 2 of" in s.value for s in at.success)


def test_a_tab_that_kept_its_table_never_takes_over_a_recipe_for_another(own_workspace):
    uploader = _session()
    other = _session()  # on the sample, like the uploader before its upload
    uploader.switch_page("pages/1_data.py").run()
    uploader.checkbox(key="data_keep_rows").uncheck().run()  # kept by default (issue 29)
    upload = ("mine.csv", b"id,town\n1,Bedok\n2,Yishun\n", "text/csv")
    uploader.file_uploader(key="upload").set_value(upload).run()
    _rerun(other)  # it cannot read the upload's rows: it keeps the sample
    _add_mask_step(other, "occupation", 2)  # a step on the sample's occupation column
    with Workspace(own_workspace) as ws:  # the last writer set the data set with the recipe
        assert ws.settings()["current_data"]["name"] == "singapore_people.csv"
    _rerun(uploader)  # it follows both, never the sample's recipe on its own upload
    assert uploader.session_state["source_name"] == "singapore_people.csv"
    assert _steps(uploader) == _steps(other)
    assert any("now 'singapore" in i.value.replace("\\", "") for i in uploader.sidebar.info)


def test_a_rerun_never_reads_the_data_file_again(own_workspace, monkeypatch):
    at = _session_on_the_recorded_sample()
    at.switch_page(CLASSIFY).run()
    reads: list[str] = []
    for module in (following, loading):  # the modules of ui.state that read data files
        monkeypatch.setattr(module, "read_table", lambda *a, **k: reads.append("read_table"))
        monkeypatch.setattr(module, "sha256_file", lambda *a, **k: reads.append("sha256_file"))
    monkeypatch.setattr(Workspace, "dataset_table", lambda *a, **k: reads.append("stored"))
    _rerun(at)  # nothing changed
    with Workspace(own_workspace) as ws:  # another tab changed the settings and the roles
        ws.set_setting("k", 9)
        ws.set_roles(ws.settings()["current_data"]["sha256"], {"sex": "indirect"}, author="x")
    _rerun(at)
    assert at.session_state["k_target_value"] == 9 and reads == []
