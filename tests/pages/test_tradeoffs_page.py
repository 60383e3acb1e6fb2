"""AppTest checks of the Explore trade-offs page (PDPC guide, Step 3 and Annex C)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pandas as pd
from streamlit.testing.v1 import AppTest

from core.hierarchy import read_hierarchy
from core.schema import Role

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/9_tradeoffs.py"
TAXI = "guide_annex_c_taxi.csv"
TAXI_TABLE = pd.read_csv(ROOT / "sample_data" / TAXI)
QI = ["Age", "Gender"]


def taxi_page(tmp_path: Path) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value(TAXI)
    at.button(key="load_sample").click().run()
    at.session_state["roles"] = {c: Role.INDIRECT for c in QI}
    at.session_state["hierarchy_dir"] = str(tmp_path)
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def _k_by_hand(age: int, gender: int) -> int:
    """k of the taxi table with Age in bands (1 = 5, 2 = 10, 3 = 20, 4 = 40 years, 5 = *)
    and Gender kept (0) or '*' (1), by pandas groupby."""
    widths = {1: 5, 2: 10, 3: 20, 4: 40}
    table = TAXI_TABLE.copy()
    if age:
        table["Age"] = "*" if age == 5 else table["Age"] // widths[age]
    if gender:
        table["Gender"] = "*"
    return int(table.groupby(QI).size().min())


def test_search_chart_and_apply(tmp_path):
    at = taxi_page(tmp_path)
    assert at.multiselect(key="to_qi").value == QI
    at.selectbox(key="to_kind_Age").set_value("numeric").run()
    assert at.text_input(key="to_w_Age").value == "5, 10, 20, 40"
    at.number_input(key="to_k").set_value(2)
    at.number_input(key="to_supp").set_value(0.0)
    at.selectbox(key="to_measure").set_value("height")
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    assert at.success, "no search result shown"
    lowest = min(a + g for a, g in itertools.product(range(6), range(2)) if _k_by_hand(a, g) >= 2)
    candidate = at.selectbox(key="to_candidate").value  # e.g. "Age:2 Gender:0"
    age, gender = (int(part.split(":")[1]) for part in candidate.split())
    assert age + gender == lowest and _k_by_hand(age, gender) >= 2
    assert [m.value for m in at.metric if m.label == "Records suppressed"] == ["0"]
    charts = at.get("vega_lite_chart")
    assert len(charts) == 2 and "max_risk" in charts[0].proto.spec  # Pareto, per-column loss
    assert any("Annex C" in c.value for c in at.caption)
    at.button(key="to_apply").click().run()
    assert not at.exception, at.exception
    steps = at.session_state["history"].current.steps
    generalised = [s for s in steps if s["step"] == "generalise"]
    assert {s["column"] for s in generalised} == {
        c for c, lvl in zip(QI, (age, gender), strict=True) if lvl
    }
    for step in generalised:
        assert read_hierarchy(Path(step["hierarchy"])).height >= step["level"]


def test_missing_upload_shows_error(tmp_path):
    at = taxi_page(tmp_path)
    at.selectbox(key="to_kind_Age").set_value("upload").run()
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    assert any("Upload a hierarchy" in e.value for e in at.error)
