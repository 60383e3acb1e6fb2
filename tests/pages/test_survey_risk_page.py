"""AppTest checks of the Survey risk page (issue 14) on sample_data/survey_households.csv.

Expected figures are computed here with a plain pandas group-by and the Benedetti-
Franconi formulas written out, not with core.survey_risk or core.suda.
"""

from __future__ import annotations

import json
import math
import re
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import metric, open_sample, shown
from streamlit.testing.v1 import AppTest

from core.schema import Role

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/15_survey_risk.py"
SAMPLE = "survey_households.csv"
TABLE = pd.read_csv(ROOT / "sample_data" / SAMPLE)
QI = ["region", "sex", "age_band", "education"]


def approx_risk(f: int, big_f: float) -> float:
    """sdcMicro indivRisk, method "approx", by hand."""
    if f >= big_f:
        return 1 / f
    p = f / big_f
    if f == 1:
        return p / (1 - p) * math.log(1 / p)
    if f == 2:
        return p / (1 - p) - (p / (1 - p)) ** 2 * math.log(1 / p)
    return p / (f - (1 - p))


@pytest.fixture
def page() -> AppTest:
    return open_sample(SAMPLE, QI, PAGE)


def test_weighted_risk_and_special_uniques(page):
    page.selectbox(key="survey_weights").set_value("weight").run()
    assert not page.exception, page.exception
    groups = TABLE.groupby(QI)
    f = groups["weight"].transform("size")
    big_f = groups["weight"].transform("sum")
    risks = [approx_risk(int(a), float(b)) for a, b in zip(f, big_f, strict=True)]
    assert float(metric(page, "Expected re-identifications")) == pytest.approx(sum(risks), abs=0.05)
    # A risk shows three significant digits (core.formatting): within 0.5 in the third.
    assert metric(page, "Global risk") == f"{sum(risks) / len(TABLE):.3g}"
    # SUDA2: exactly the records unique on all quasi-identifiers have an MSU.
    uniques = int((f == 1).sum())
    assert metric(page, "Records with a minimal sample unique") == f"{uniques:,}"
    captions = " ".join(c.value for c in page.caption)
    assert "sdcMicro" in captions and "Source: PDPC guide, Step 4" in captions
    # The table of special uniques: the first has the highest DIS-SUDA score, and its
    # record is unique on all quasi-identifiers.
    table = page.dataframe[-1].value
    assert table["DIS-SUDA score"].is_monotonic_decreasing
    first = table.iloc[0]
    assert int((TABLE[QI] == first[QI]).all(axis=1).sum()) == 1


def test_household_risk_and_bad_household(page):
    page.selectbox(key="survey_weights").set_value("weight").run()
    page.selectbox(key="survey_household").set_value("household_id").run()
    assert not page.exception, page.exception
    household = float(metric(page, "Expected re-identifications, by household"))
    assert household >= float(metric(page, "Expected re-identifications"))
    # SUDA2 up to triples: records alone on some triple of quasi-identifiers (no record is
    # alone on a single value or a pair here, so every MSU found is a triple).
    page.number_input(key="suda_max").set_value(3).run()
    assert not page.exception, page.exception
    alone = pd.concat(
        [TABLE.groupby(list(pair))["sex"].transform("size") == 1 for pair in combinations(QI, 3)],
        axis=1,
    ).any(axis=1)
    assert 0 < alone.sum() < len(TABLE)
    assert metric(page, "Records with a minimal sample unique") == f"{int(alone.sum()):,}"


def test_model_risk_figures(page):
    page.selectbox(key="survey_weights").set_value("weight").run()
    assert not page.exception, page.exception
    # Main-effects log-linear model by hand: lambda = n * prod_j (n_j / n) per key, and for
    # each sample unique exp(-(1 - 1/weight) * lambda).
    n = len(TABLE)
    lam = n * np.prod([TABLE[c].map(TABLE[c].value_counts()) / n for c in QI], axis=0)
    unique = TABLE.groupby(QI)["sex"].transform("size") == 1
    expected = np.exp(-(1 - 1 / TABLE["weight"]) * lam)[unique].sum()
    shown = float(metric(page, "Sample uniques expected unique in the population"))
    assert shown == pytest.approx(expected, abs=0.05)


def test_bad_weights_are_one_clear_error(page):
    # Children have an income of 0: not a sampling weight (each record stands for >= 1).
    page.selectbox(key="survey_weights").set_value("monthly_income").run()
    assert not page.exception, page.exception
    errors = [e.value for e in page.error]
    assert errors and "monthly_income" in errors[0] and "at least 1" in errors[0]


def test_column_names_from_the_data_are_escaped(tmp_path, monkeypatch):
    # A column named as a Markdown image must show as text (issue 11, item 8), also in
    # the sentences that name the quasi-identifier driving the special uniques.
    image = "![b](http://evil.example/x.png)"
    path = tmp_path / "evil.csv"
    pd.DataFrame({image: list("abcdef"), "sex": list("FFMMFM"), "w": [2] * 6}).to_csv(
        path, index=False
    )
    monkeypatch.setenv("ANON_DATA", str(path))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    at.session_state["roles"] = {image: Role.INDIRECT, "sex": Role.INDIRECT}
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    shown = [e.value for kind in ("markdown", "caption", "error") for e in getattr(at, kind)]
    assert any("contributes most" in text for text in shown)
    assert not [text for text in shown if "![b](" in text]


def test_figures_read_as_the_rest_of_the_app():
    # Issue 17, "Numbers": one formatter. Without sampling weights every record stands for
    # itself, so each group of f_k records adds f_k * (1 / f_k) = 1 expected
    # re-identification: the expected re-identifications are the number of groups.
    qi = ["date_of_birth", "postal_code"]
    at = open_sample("singapore_people.csv", qi, PAGE)
    people = pd.read_csv(ROOT / "sample_data" / "singapore_people.csv", dtype=str)
    sizes = people.groupby(qi)["sex"].transform("size")
    groups = people.groupby(qi).ngroups
    assert groups >= 1000  # so the figure needs a thousands separator
    assert metric(at, "Expected re-identifications") == f"{groups:,}"  # not "9998.0"
    # A risk above 0.05 is a group of fewer than 20 records: all of them here, exactly.
    assert (sizes < 20).all()
    assert metric(at, "Records above 0.05") == "100%"  # not "100.0%"
    captions = " ".join(c.value for c in at.caption)
    assert f"about {groups:,} of the {len(people):,} records" in captions
    assert not re.search(r"\d\.0\b", captions), captions


def _reads_as_three_significant_digits(text: str, number: float) -> bool:
    """The app's rule for a measured figure, by hand: from 100 up the whole number with
    thousands separators, below that three significant digits (0.00754, 12.3)."""
    if abs(number) >= 100:
        return text == f"{round(number):,}"
    return float(text) == float(f"{number:.3g}")


def test_record_tables_show_figures_as_every_page_does(page):
    """Counts with separators, estimates and risks to three significant digits, the
    quasi-identifiers as they are; the grid still holds the numbers (it sorts on them)."""
    page.selectbox(key="survey_weights").set_value("weight").run()
    assert not page.exception, page.exception
    for frame, counts, measures in (
        (page.dataframe[0], ["f_k (records)"], ["F_k (people)", "individual risk"]),
        (page.dataframe[-1], ["smallest MSU"], ["SUDA score", "DIS-SUDA score"]),
    ):
        text, numbers = shown(frame), frame.value
        assert text[QI].values.tolist() == numbers[QI].astype(str).values.tolist()
        for column in counts:
            assert text[column].tolist() == [f"{int(n):,}" for n in numbers[column]]
        for column in measures:
            assert pd.api.types.is_float_dtype(numbers[column])
            pairs = zip(text[column], numbers[column], strict=True)
            assert all(_reads_as_three_significant_digits(t, n) for t, n in pairs), column
    # the small-number branch is exercised: DIS-SUDA scores here are below 0.01 (0.00754)
    assert any(t.startswith("0.00") for t in shown(page.dataframe[-1])["DIS-SUDA score"])


def test_each_quasi_identifiers_suda_bar_carries_its_contribution(page):
    """Issue 29 (bar labels missing): the SUDA contribution bars were 18 px rows in which
    Vega dropped every other name, and no bar said its figure. Each bar now carries its
    contribution, in rows tall enough for every name (ui.charts.labelled_bars)."""
    [chart] = [c for c in page.get("vega_lite_chart") if "contribution" in c.proto.spec]
    spec = json.loads(chart.proto.spec)
    [label] = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    assert label["encoding"]["text"]["field"] == "contribution (%)"
    assert spec["height"] >= 24 * len(QI)
