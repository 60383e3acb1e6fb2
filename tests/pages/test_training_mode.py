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
    # Issue 29: the guide's text suppresses the banker (serial number 3), its printed table
    # still lists it; shown after suppression, the two groups have 5 records each (k = 5).
    assert after["Serial number"].tolist() == [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]
    assert after["Age"].tolist()[:3] == ["21 to 30", "31 to 40", "31 to 40"]
    groups = after.groupby(["Age", "Gender", "Occupation"]).size()
    assert groups.tolist() == [5, 5]


def test_start_the_workshop_loads_the_taxi_table_and_lists_the_tasks():
    at = open_app()  # the Data page is the default one
    at.button(key="workshop_start").click().run()
    assert not at.exception, at.exception
    assert at.session_state["source_name"] == "guide_annex_c_taxi.csv"
    # the tasks are listed in training mode only (the button turned it on), as a numbered
    # list whose long lines wrap (a table cut them off)
    listed = " ".join(m.value for m in at.markdown)
    pages = re.findall(r"\d\. \*\*([A-Za-z-]+)\*\*:", listed)
    assert pages == ["Classify", "De-identify", "Risk", "Techniques", "Risk", "Report"]
    # the guide's steps 1, 2, 4, 3, 4, 5


def test_each_page_shows_its_own_workshop_task():
    """Issue 29: the tasks showed only on Data; each page now shows its own at the top."""
    at = open_app()
    at.button(key="workshop_start").click().run()
    expected = {
        "pages/2_classify.py": ["Workshop task 1 of 6"],
        "pages/3_deidentify.py": ["Workshop task 2 of 6"],
        "pages/5_risk.py": ["Workshop task 3 of 6", "Workshop task 5 of 6"],
        "pages/4_techniques.py": ["Workshop task 4 of 6"],
        "pages/7_report.py": ["Workshop task 6 of 6"],
    }
    for path, tasks in expected.items():
        at.session_state["training_mode"] = True
        at.switch_page(path).run()
        assert not at.exception, (path, at.exception)
        shown = [box.value.split(":")[0] for box in at.info if box.value.startswith("Workshop")]
        assert shown == tasks, (path, shown)


def test_task_3_says_where_k_1_comes_from():
    """Issue 29: 'every age is unique' was wrong (25 and 38 appear twice); every occupation
    is different, which alone makes each record one of a kind."""
    taxi = pd.read_csv(ROOT / "sample_data" / "guide_annex_c_taxi.csv")
    assert taxi["Age"].duplicated().any() and not taxi["Occupation"].duplicated().any()
    at = open_app()
    at.button(key="workshop_start").click().run()
    at.session_state["training_mode"] = True
    at.switch_page("pages/5_risk.py").run()
    task = next(box.value for box in at.info if box.value.startswith("Workshop task 3"))
    assert "every occupation is different" in task and "every age is unique" not in task
