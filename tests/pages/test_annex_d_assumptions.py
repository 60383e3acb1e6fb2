"""Annex D's assumptions (issue 29): one source for the extent of mitigating controls
(the Step 5 checklist on Report sets what Risk shows), and the workshop starts from the
guide's values, not from the assumptions another project left in the workspace."""

from __future__ import annotations

from pathlib import Path

from apptest_helpers import load_sample, metric
from streamlit.testing.v1 import AppTest

from core.figure_names import P_ATTEMPT
from core.formatting import fmt_probability
from core.release.report import controls_for
from core.schema import Role
from core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
TAXI = "guide_annex_c_taxi.csv"


def _risk_controls(at: AppTest):
    at.switch_page("pages/5_risk.py").run()
    assert not at.exception, at.exception
    return next(s for s in at.selectbox if s.label == "Mitigating controls")


def test_the_step_5_checklist_sets_the_controls_risk_uses(own_workspace):
    at = load_sample(TAXI, {"Age": Role.INDIRECT, "Gender": Role.INDIRECT})
    at.switch_page("pages/2_classify.py").run()
    at.button(key="save_roles").click().run()  # kept for the restart below
    before = _risk_controls(at)
    assert before.value == "medium" and not before.disabled  # the guide's example, set on Risk

    at.switch_page("pages/7_report.py").run()
    recommended = controls_for(at.selectbox(key="use_case").value)
    boxes = [c for c in at.checkbox if c.key and c.key.startswith("control_")]
    assert len(boxes) == len(recommended)
    for box in boxes:
        box.check()
    at.run()
    assert not at.exception, at.exception
    said = " ".join(c.value for c in at.caption)
    assert f"{len(recommended)} of {len(recommended)} controls in place" in said
    assert "**high**" in said

    shown = _risk_controls(at)
    assert shown.value == "high" and shown.disabled  # one source: the checklist
    with Workspace(own_workspace) as ws:  # the command line reads the same level
        assert ws.settings()["annex_d"]["controls"] == "high"
        assert len(ws.settings()["controls_in_place"]) == len(recommended)

    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)  # a restart
    again.run()
    assert _risk_controls(again).value == "high"
    again.switch_page("pages/7_report.py").run()
    assert all(c.value for c in again.checkbox if c.key and c.key.startswith("control_"))


def test_the_workshop_starts_from_the_guides_values(own_workspace):
    at = load_sample(TAXI, {"Age": Role.INDIRECT, "Gender": Role.INDIRECT})
    at.session_state["annex_d"] = {"controls": "low", "motivation": "high", "harm": "high"}
    at.session_state["annex_d_insider_table"] = {
        level: {m: 0.9 for m in ("low", "medium", "high")}
        for level in ("high", "medium", "low", "none")
    }
    at.session_state["controls_in_place"] = []  # another project: nothing in place
    at.switch_page("pages/1_data.py").run()
    at.button(key="workshop_start").click().run()
    if any(b.key == "workshop_start_yes" for b in at.button):
        at.button(key="workshop_start_yes").click().run()
    assert not at.exception, at.exception
    assert at.session_state["annex_d"] == {
        "controls": "medium",
        "motivation": "medium",
        "acquaintance": 0.0,
        "breach": 0.0,
        "harm": "medium",
    }
    assert at.session_state["annex_d_insider_table"] is None  # the guide's Scenario #1 table
    assert at.session_state["controls_in_place"] is None
    with Workspace(own_workspace) as ws:
        assert ws.settings()["annex_d"]["controls"] == "medium"


def test_an_edited_insider_table_is_kept_and_reset(own_workspace):
    """The Scenario #1 table edited on Risk is one of the project's assumptions: kept in
    the workspace (a restart reopens it), and "Back to the guide's values" records that."""
    at = load_sample(TAXI, {"Age": Role.INDIRECT, "Gender": Role.INDIRECT})
    at.switch_page("pages/2_classify.py").run()
    at.button(key="save_roles").click().run()
    edited = {
        level: {"low": 0.5, "medium": 0.6, "high": 0.7} for level in ("high", "medium", "low")
    } | {"none": {"low": 1.0, "medium": 1.0, "high": 1.0}}
    with Workspace(own_workspace) as ws:  # as the Risk page's editor records it
        ws.set_setting("annex_d_insider_table", edited)

    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)  # a restart
    again.run()
    assert again.session_state["annex_d_insider_table"] == edited
    again.switch_page("pages/5_risk.py").run()
    assert not again.exception, again.exception
    # medium controls, medium motivation: 0.6 from the edited table (the guide's is 0.25)
    assert metric(again, P_ATTEMPT.name) == fmt_probability(0.6)
    again.button(key="insider_reset").click().run()
    assert again.session_state["annex_d_insider_table"] is None
    with Workspace(own_workspace) as ws:
        assert ws.settings()["annex_d_insider_table"] is None


def test_another_workspace_starts_from_its_own_assumptions(own_workspace, tmp_path):
    """Issue 29: Annex D assumptions carried over between projects. Opening another
    workspace on History kept this one's assumptions, target k and sign-off in the session,
    so the other project's Risk page, sidebar and release check used them; it starts from
    its own settings (the guide's values when it has none), and this project's come back."""
    at = load_sample(TAXI, {"Age": Role.INDIRECT, "Gender": Role.INDIRECT})
    at.switch_page("pages/2_classify.py").run()
    at.button(key="save_roles").click().run()
    with Workspace(own_workspace) as ws:  # this project's own assumptions
        ws.set_setting("annex_d", {"controls": "low", "motivation": "high", "harm": "high"})
        ws.set_setting("k", 9)
        ws.set_setting("sign_off", {"prepared_by": "Tan Mei Ling"})
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    assert _risk_controls(at).value == "low"

    at.switch_page("pages/12_history.py").run()
    at.text_input(key="hist_path").set_value(str(tmp_path / "other.anon.db")).run()
    at.button(key="hist_open").click().run()
    assert not at.exception, at.exception
    at.session_state["roles"] = {"race": Role.INDIRECT, "sex": Role.INDIRECT}
    shown = _risk_controls(at)
    assert shown.value == "medium"  # the guide's example, not the other project's 'low'
    assert at.selectbox(key="motivation").value == "medium"
    assert at.selectbox(key="harm").value == "medium"
    at.switch_page("pages/2_classify.py").run()
    assert at.number_input(key="k_target").value == 5
    at.switch_page("pages/7_report.py").run()
    assert at.text_input(key="signoff_prepared_by").value == ""

    at.switch_page("pages/12_history.py").run()  # back to the first project: its own
    at.text_input(key="hist_path").set_value(str(own_workspace)).run()
    at.button(key="hist_open").click().run()
    assert not at.exception, at.exception
    assert _risk_controls(at).value == "low"
    at.switch_page("pages/2_classify.py").run()
    assert at.number_input(key="k_target").value == 9
