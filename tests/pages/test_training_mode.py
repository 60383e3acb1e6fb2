"""Training mode: every page has its box, and the guide's worked examples appear as tables
where they belong (issue 17, "Training mode and the guide's worked examples")."""

from __future__ import annotations

import re

import pandas as pd
from apptest_helpers import ROOT, open_app

from core.schema import Role

MENU = re.findall(r'st\.Page\("([^"]+)", title="([^"]+)"', (ROOT / "app.py").read_text())


def _training_app():
    at = open_app()
    at.session_state["roles"] = {"sex": Role.INDIRECT, "race": Role.INDIRECT}
    at.session_state["training_mode"] = True  # the sidebar toggle
    return at


def _frames(at) -> list[pd.DataFrame]:
    return [d.value for d in at.dataframe]


def test_every_page_has_a_training_box():
    at = _training_app()
    without = []
    for path, title in MENU:
        # (AppTest does not draw the sidebar after switch_page, so its toggle's value is
        # dropped after a run: set it again for each page.)
        at.session_state["training_mode"] = True
        at.switch_page(path).run()
        assert not at.exception, (path, at.exception)
        if not at.info:  # state.explain's training text is an st.info box
            without.append(title)
    assert without == [], without


def test_every_page_teaches_before_any_role_is_confirmed():
    """Issue 29: Risk, Survey risk and History showed no training box until the roles were
    confirmed (History's only box was "No release yet"): a workshop meets them that way."""
    at = open_app()
    without = []
    for path, title in MENU:
        at.session_state["training_mode"] = True
        at.switch_page(path).run()
        assert not at.exception, (path, at.exception)
        if not any(box.icon == ":material/school:" for box in at.info):
            without.append(title)
    assert without == [], without


def test_locations_page_shows_annex_b_examples_and_the_tool_agrees():
    at = _training_app()
    at.switch_page("pages/8_locations_dates.py").run()
    assert not at.exception, at.exception
    gps = next(f for f in _frames(at) if "After (guide, 3 decimals)" in f.columns)
    assert gps["After (this tool)"].tolist() == gps["After (guide, 3 decimals)"].tolist()
    dob = next(f for f in _frames(at) if "After (guide, month and year)" in f.columns)
    # the guide writes "Feb 2003", the tool "2003-02": the same month and year
    as_month = pd.to_datetime(dob["After (guide, month and year)"], format="%b %Y")
    assert as_month.dt.strftime("%Y-%m").tolist() == dob["After (this tool)"].tolist()


def test_techniques_page_shows_the_annex_c_taxi_before_and_after():
    at = _training_app()
    at.switch_page("pages/4_techniques.py").run()
    assert not at.exception, at.exception
    taxi = [f for f in _frames(at) if "Average number of trips per week" in f.columns]
    before, after = taxi[0], taxi[1]
    assert before["Age"].astype(str).tolist()[:3] == ["21", "38", "25"]
    assert after["Age"].tolist()[:3] == ["21 to 30", "31 to 40", "21 to 30"]


def test_start_the_workshop_loads_the_taxi_table_and_lists_the_tasks():
    at = open_app()  # the Data page is the default one
    at.button(key="workshop_start").click().run()
    assert not at.exception, at.exception
    assert at.session_state["source_name"] == "guide_annex_c_taxi.csv"
    # the task table is shown in training mode only: the button turned it on
    tasks = next(f for f in _frames(at) if "task" in f.columns)
    assert tasks["page"].tolist() == [
        "Classify",
        "De-identify",
        "Risk",
        "Techniques",
        "Risk",
        "Report",
    ]  # the guide's steps 1, 2, 4, 3, 4, 5
