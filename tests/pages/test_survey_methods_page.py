"""AppTest checks of the survey methods on the Techniques page (issue 14): local
suppression, microaggregation, PRAM and correlated noise added through the widgets."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from apptest_helpers import metric, open_sample
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/4_techniques.py"
SAMPLE = "survey_households.csv"
TABLE = pd.read_csv(ROOT / "sample_data" / SAMPLE)
QI = ["region", "sex", "age_band", "education"]


@pytest.fixture
def page() -> AppTest:
    return open_sample(SAMPLE, QI, PAGE)


def _steps(at: AppTest) -> list[dict]:
    return [dict(s) for s in at.session_state["history"].current.steps]


def test_local_suppression_preview_and_add(page):
    page.selectbox(key="technique").set_value("local_suppression").run()
    page.number_input(key="ls_k").set_value(3)
    page.multiselect(key="ls_importance").set_value(["region", "sex"])
    page.button(key="preview").click().run()
    assert not page.exception, page.exception
    assert int(metric(page, "k, a blank matching any value")) >= 3
    captions = " ".join(c.value for c in page.caption)
    assert "cell(s) blanked" in captions and "localSuppression" in captions
    page.button(key="add_step").click().run()
    assert _steps(page)[-1] == {
        "step": "local_suppression",
        "quasi_identifiers": QI,
        "k": 3,
        "importance": ["region", "sex"],
    }


def test_microaggregation_pram_and_noise_are_added(page):
    page.selectbox(key="technique").set_value("microaggregate").run()
    page.multiselect(key="columns").set_value(["monthly_income", "monthly_spending"]).run()
    page.button(key="add_step").click().run()
    assert not page.exception, page.exception
    page.selectbox(key="technique").set_value("pram").run()
    page.selectbox(key="column").set_value("sex").run()
    page.text_area(key="pram_matrix").input("F: F=0.9, M=0.1\nM: M=0.8, F=0.1")
    page.button(key="add_step").click().run()
    errors = [e.value for e in page.error]
    assert any("row 'M' sums to 0.9" in e for e in errors), errors
    page.text_area(key="pram_matrix").input("F: F=0.9, M=0.1\nM: M=0.9, F=0.1")
    page.button(key="add_step").click().run()
    page.selectbox(key="technique").set_value("correlated_noise").run()
    page.multiselect(key="columns").set_value(["monthly_income"]).run()
    page.button(key="add_step").click().run()
    assert not page.exception, page.exception
    assert [s["step"] for s in _steps(page)] == ["microaggregate", "pram", "correlated_noise"]
    assert _steps(page)[1]["matrix"] == {"F": {"F": 0.9, "M": 0.1}, "M": {"M": 0.9, "F": 0.1}}
