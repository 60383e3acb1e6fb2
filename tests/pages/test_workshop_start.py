"""Starting the workshop over a project (issue 29): the button asks first when work is at
stake. Cancelling left the project changed: the button's callback had already turned
training mode on and written the guide's Annex D values over the project's assumptions
and Step 5 checklist. Cancel now leaves everything as it was; confirming starts the
workshop from the guide's values (PDPC guide, Annex D, Scenario #1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest_helpers import app_py_on_every_rerun, load_sample  # noqa: F401 (a fixture)
from streamlit.testing.v1 import AppTest

from core.schema import Role
from core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("app_py_on_every_rerun")  # the sidebar's toggle too
MINE = "survey_respondents.csv"
#: The guide's example values, as Annex D's worked example states them (Scenario #1).
GUIDE_ANNEX_D = {
    "controls": "medium",
    "motivation": "medium",
    "acquaintance": 0.0,
    "breach": 0.0,
    "harm": "medium",
}
PROJECT_ANNEX_D = {**GUIDE_ANNEX_D, "motivation": "high", "harm": "high"}


def _a_project_of_ones_own(own_workspace: Path) -> AppTest:
    """A project with its own roles, Annex D assumptions and Step 5 controls, recorded."""
    at = load_sample(MINE, {"age": Role.INDIRECT, "sex": Role.INDIRECT})
    at.switch_page("pages/2_classify.py").run()
    at.button(key="save_roles").click().run()
    with Workspace(own_workspace) as ws:  # as Risk and Report record them
        ws.set_setting("annex_d", PROJECT_ANNEX_D)
        ws.set_setting("controls_in_place", ["a control of this project"])
    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)  # reopened
    again.run()
    again.switch_page("pages/1_data.py").run()
    assert not again.exception, again.exception
    assert again.session_state["annex_d"] == PROJECT_ANNEX_D
    return again


def _state(at: AppTest, own_workspace: Path) -> tuple:
    with Workspace(own_workspace) as ws:
        settings, revision = ws.settings(), ws.revision()
    return (
        at.session_state["source_name"],
        at.session_state["training_mode"],
        at.session_state["annex_d"],
        at.session_state["controls_in_place"],
        revision,
        settings,
    )


def test_cancelling_the_workshop_leaves_the_project_as_it_was(own_workspace):
    at = _a_project_of_ones_own(own_workspace)
    before = _state(at, own_workspace)
    assert before[1] is False  # training mode off
    at.button(key="workshop_start").click().run()
    assert any("This replaces" in w.value for w in at.warning)  # it asks first
    at.button(key="workshop_start_no").click().run()
    assert not at.exception, at.exception
    assert _state(at, own_workspace) == before
    assert not any("This replaces" in w.value for w in at.warning)


def test_confirming_the_workshop_starts_from_the_guides_values(own_workspace):
    at = _a_project_of_ones_own(own_workspace)
    at.button(key="workshop_start").click().run()
    at.button(key="workshop_start_yes").click().run()
    assert not at.exception, at.exception
    assert at.session_state["source_name"] == "guide_annex_c_taxi.csv"
    assert at.session_state["training_mode"] is True
    assert at.session_state["annex_d"] == GUIDE_ANNEX_D
    assert at.session_state["controls_in_place"] is None
    assert at.session_state["history"].current.steps == ()  # a fresh recipe
    with Workspace(own_workspace) as ws:
        settings = ws.settings()
        assert settings["annex_d"] == GUIDE_ANNEX_D
        assert settings["controls_in_place"] is None
        assert settings["current_data"]["name"] == "guide_annex_c_taxi.csv"
        # the project set aside stays in the workspace's history
        assert MINE in [d["name"] for d in ws.datasets()]
