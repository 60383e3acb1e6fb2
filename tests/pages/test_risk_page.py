"""AppTest checks of the Risk page (PDPC guide, Step 4 and Annex D) on the Annex C taxi table."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import load_sample, metric
from streamlit.testing.v1 import AppTest

from core.figure_names import RECORD_RISK
from core.recipe import EditHistory, Recipe
from core.schema import Role

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/5_risk.py"
TAXI = "guide_annex_c_taxi.csv"
TAXI_TABLE = pd.read_csv(ROOT / "sample_data" / TAXI)
QI = ["Age", "Gender"]
TRIPS = "Average number of trips per week"


def generalise_age_on_techniques_page(at: AppTest) -> None:
    """Annex C: Age into the guide's 10-year intervals, through the Techniques page widgets."""
    at.switch_page("pages/4_techniques.py").run()
    at.selectbox(key="technique").set_value("generalise").run()
    at.selectbox(key="column").set_value("Age").run()
    at.radio(key="gen_mode").set_value("edges").run()
    at.text_input(key="edges").input("21, 31, 41")
    at.text_input(key="labels").input("21 to 30, 31 to 40")
    at.button(key="add_step").click().run()
    assert not at.exception, at.exception


@pytest.fixture(scope="module")
def generalised() -> pd.DataFrame:
    """The guide's Annex C Age column by hand: 21-30 -> '21 to 30', 31-40 -> '31 to 40'."""
    return TAXI_TABLE.assign(Age=np.where(TAXI_TABLE["Age"] <= 30, "21 to 30", "31 to 40"))


@pytest.fixture
def risk_page() -> AppTest:
    at = load_sample(TAXI, {c: Role.INDIRECT for c in QI})
    generalise_age_on_techniques_page(at)
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def test_without_quasi_identifiers_the_page_points_to_classify():
    at = load_sample(TAXI, {})
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    assert "No indirect identifiers" in at.warning[0].value
    assert not [m for m in at.metric if m.label == "k"]


def test_renders_on_the_default_sample():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    qi = ["sex", "race", "postal_code"]
    at.session_state["roles"] = {c: Role.INDIRECT for c in qi}
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    people = pd.read_csv(ROOT / "sample_data" / "singapore_people.csv", dtype=str)
    sizes = people.groupby(qi).size()
    assert metric(at, "k") == str(sizes.min())
    assert metric(at, "Unique records") == f"{int((sizes == 1).sum()):,}"


def test_figures_after_generalising_age(risk_page, generalised):
    at = risk_page
    sizes = generalised.groupby(QI).size()
    k = int(sizes.min())
    assert k == 5  # the guide: 21 to 30 / Female has 6 records, 31 to 40 / Male has 5
    assert metric(at, "k") == str(k)
    assert metric(at, "Classes") == str(len(sizes))
    assert metric(at, "Unique records") == str(int((sizes == 1).sum()))
    assert metric(at, "Records below k = 5") == str(int(sizes[sizes < 5].sum()))
    # 1/k under the one name it has on every page (issue 29, core.figure_names)
    assert float(metric(at, RECORD_RISK.name)) == pytest.approx(1 / k)
    # shown to three significant digits (core.formatting): 2/11 reads 0.182
    assert metric(at, "Average prosecutor risk") == f"{len(sizes) / 11:.3g}"

    at.number_input(key="risk_k_target").set_value(6).run()
    assert metric(at, "Records below k = 6") == "5"  # the 31 to 40 / Male class
    below = at.dataframe[0].value
    assert below["class size"].tolist() == [5] * 5
    assert sorted(below["Serial number"]) == [2, 4, 7, 8, 11]


def test_l_diversity_with_a_sensitive_column(risk_page, generalised):
    at = risk_page
    at.selectbox(key="risk_sensitive").set_value(TRIPS).run()
    assert not at.exception, at.exception
    distinct = generalised.groupby(QI)[TRIPS].nunique()
    assert metric(at, "Distinct l-diversity") == str(distinct.min())  # 31 to 40: 2,3,3,4,0
    # three captions explain l, entropy l and t from the same source: it is named once
    sources = [c.value for c in at.caption if "Step 4 footnote 11; Annex C" in c.value]
    assert len(sources) == 1

    def entropy(values: pd.Series) -> float:
        share = values.value_counts(normalize=True).to_numpy()
        return float(np.exp(-(share * np.log(share)).sum()))

    # three significant digits, as every measured figure (core.formatting; issue 17)
    assert (
        metric(at, "Entropy l-diversity")
        == f"{generalised.groupby(QI)[TRIPS].apply(entropy).min():.3g}"
    )


def test_entropy_l_of_a_lone_record_reads_one():
    # On the taxi table as the guide prints it, some Age x Gender group holds one record:
    # its entropy l-diversity is exp(0) = 1, shown as "1" like any whole figure, not "1.00"
    # (one formatter, issue 17).
    at = load_sample(TAXI, {c: Role.INDIRECT for c in QI})
    at.switch_page(PAGE).run()
    at.selectbox(key="risk_sensitive").set_value(TRIPS).run()
    assert not at.exception, at.exception
    assert TAXI_TABLE.groupby(QI).size().min() == 1
    assert metric(at, "Entropy l-diversity") == "1"


def test_count_axes_have_thousands_separators():
    # Issue 17, "Numbers": 10,000 on an axis as in the figures, not 10000.
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.session_state["roles"] = {c: Role.INDIRECT for c in ("sex", "race", "postal_code")}
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    specs = [chart.proto.spec for chart in at.get("vega_lite_chart")]
    assert any("Unique records without it" in spec for spec in specs)
    assert not [spec for spec in specs if '"format": "d"' in spec or '"format":"d"' in spec]


def test_annex_d_verdict_and_insider_table(risk_page, generalised):
    at = risk_page
    k = int(generalised.groupby(QI).size().min())
    at.selectbox(key="controls").set_value("medium").run()
    at.selectbox(key="motivation").set_value("high").run()
    assert not at.exception, at.exception
    # Annex D table: medium controls, high motivation -> P(insider attack) = 0.3.
    assert float(metric(at, "P(attempt)")) == pytest.approx(0.3)
    assert float(metric(at, "Annex D P(re-ID)")) == pytest.approx(0.3 / k)
    assert float(metric(at, "Threshold")) == 0.1  # medium harm, Annex D
    assert metric(at, "Acceptable") == "yes"  # 0.06 <= 0.1
    assert metric(at, "Minimum k") == "3"  # smallest k with 0.3 / k <= 0.1

    # Rows of the editor in the guide's order: high, medium, low, none; edit (medium, high).
    at.session_state["insider_table"] = {
        "edited_rows": {1: {"high": 0.45}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception, at.exception
    assert float(metric(at, "P(attempt)")) == pytest.approx(0.45)
    assert float(metric(at, "Annex D P(re-ID)")) == pytest.approx(0.45 / k)

    at.session_state["insider_table"] = {
        "edited_rows": {1: {"high": 1.5}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert any("between 0 and 1" in e.value for e in at.error)
    assert float(metric(at, "P(attempt)")) == pytest.approx(0.45)  # the bad value is not used

    at.selectbox(key="harm").set_value("custom").run()
    at.number_input(key="harm_custom").set_value(0.05).run()
    assert metric(at, "Acceptable") == "no"  # 0.45 / 5 = 0.09 > 0.05
    assert metric(at, "Minimum k") == "9"  # smallest k with 0.45 / k <= 0.05


# --- names that do not fit the table (issue 11, item 3) ----------------------------------


def test_quasi_identifier_unknown_to_the_table_is_an_error_not_dropped() -> None:
    # A misspelt (or stale) role must not let k be computed on Age and Gender alone.
    at = load_sample(
        TAXI, {"Age": Role.INDIRECT, "Gender": Role.INDIRECT, "Occupaton": Role.INDIRECT}
    )
    at.switch_page(PAGE).run()
    assert not at.exception
    assert any("'Occupaton'" in e.value and "Classify" in e.value for e in at.error)
    assert not [m for m in at.metric if m.label == "k"]


def test_sensitive_column_unknown_to_the_table_is_an_error() -> None:
    at = load_sample(TAXI, {"Age": Role.INDIRECT, "Gender": Role.INDIRECT})
    at.session_state["sensitive_column"] = "Salary"  # e.g. kept from another table
    at.switch_page(PAGE).run()
    assert not at.exception
    assert any("'Salary'" in e.value and "Classify" in e.value for e in at.error)
    assert not [m for m in at.metric if m.label == "k"]


def test_quasi_identifier_removed_by_the_recipe_is_named() -> None:
    roles = {"Age": Role.INDIRECT, "Gender": Role.INDIRECT, "Occupation": Role.INDIRECT}
    at = load_sample(TAXI, roles)
    remove = {"step": "remove", "columns": ["Occupation"]}
    at.session_state["history"] = EditHistory(Recipe(steps=(remove,), seed=1))
    at.switch_page(PAGE).run()
    assert not at.exception
    assert not any("Occupation" in e.value for e in at.error)  # removed is not an error
    captions = [c.value for c in at.caption]
    assert any("Occupation was removed by the recipe (step 1, remove)" in c for c in captions)
    expected = TAXI_TABLE.groupby(QI).size().min()  # k on Age and Gender, by pandas
    assert metric(at, "k") == str(expected)


def test_title_l_diversity_flag_tie_and_training_tables(risk_page, generalised):
    at = risk_page
    assert at.title[0].value == "Risk"  # as in the menu
    # Leaving out Age leaves Gender (6 women, 5 men); leaving out Gender leaves the age
    # bands (6 aged 21 to 30, 5 aged 31 to 40): k = 5 and no unique record either way.
    advice = next(c.value for c in at.caption if c.value.startswith("Leaving out"))
    assert advice.startswith("Leaving out any one of 'Age', 'Gender' gives the same figures")
    # Occupation as the sensitive column: each group has several occupations, no flag.
    at.selectbox(key="risk_sensitive").set_value("Occupation").run()
    assert not [e for e in at.error if "l-diversity = 1" in e.value]
    at.session_state["training_mode"] = True  # the sidebar toggle (not drawn by AppTest here)
    at.run()
    example = next(d.value for d in at.dataframe if "k of its group" in d.value.columns)
    # The guide's Step 4 example: groups of 2, 4 and 3 identical records, overall k = 2.
    assert example["k of its group"].tolist() == [2, 2, 4, 4, 4, 4, 3, 3, 3]
    insider = next(d.value for d in at.dataframe if "Medium" in d.value.columns)
    assert insider.index.tolist() == ["High", "Medium", "Low", "None"]  # the guide's order
    assert insider.loc["High"].tolist() == [0.03, 0.05, 0.1]
    harm = next(d.value for d in at.dataframe if "Risk threshold" in d.value.columns)
    assert harm.values.tolist() == [["Low", 0.2], ["Medium", 0.1], ["High", 0.01]]


def test_a_group_with_one_sensitive_value_is_flagged_on_the_page():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    # Date of birth and sex make most records unique: a group of one has one diagnosis.
    at.session_state["roles"] = {"date_of_birth": Role.INDIRECT, "sex": Role.INDIRECT}
    at.switch_page(PAGE).run()
    at.selectbox(key="risk_sensitive").set_value("diagnosis").run()
    assert not at.exception, at.exception
    assert metric(at, "Distinct l-diversity") == "1"
    assert any("l-diversity = 1" in e.value and "diagnosis" in e.value for e in at.error)


def test_population_uniqueness_with_a_population_size():
    """Zayatz's estimate (ARX ModelZayatz) by hand on the taxi table (7 unique records of
    11), N = 100:
    h(1; N, K, n) = K C(N - K, n - 1) / C(N, n); P = c1 h(1; N, 1, n) / sum_K c_K h(1; N, K, n);
    population uniques = c1 P / (n / N)."""
    from math import comb

    from core.formatting import fmt_probability

    at = load_sample(TAXI, {c: Role.INDIRECT for c in QI})
    at.switch_page(PAGE).run()
    assert not [m for m in at.metric if m.label == "Population uniqueness"]  # not set yet
    at.number_input(key="risk_population").set_value(5).run()  # fewer than the records
    assert "at least the" in at.error[0].value
    at.selectbox(key="risk_population_model").set_value("zayatz").run()
    at.number_input(key="risk_population").set_value(100).run()
    assert not at.exception, at.exception
    sizes = TAXI_TABLE.groupby(QI).size().tolist()
    n, big_n = sum(sizes), 100
    c1 = sizes.count(1)

    def h(k: int) -> float:
        return k * comb(big_n - k, n - 1) / comb(big_n, n)

    p = c1 * h(1) / sum(h(k) for k in sizes)
    expected = c1 * p / (n / big_n) / big_n
    assert c1 > 0
    assert metric(at, "Population uniqueness") == fmt_probability(expected)
    assert metric(at, "Sampling fraction") == fmt_probability(n / big_n)
    assert "Zayatz" in at.info[-1].value or any("Zayatz" in i.value for i in at.info)


def test_the_impact_can_be_skipped_and_is_off_by_default_on_large_tables(monkeypatch):
    from ui.state import risk as risk_state

    at = load_sample(TAXI, {c: Role.INDIRECT for c in QI})
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    heading = "Which quasi-identifier drives the risk?"
    assert at.checkbox(key="risk_impact").value is True  # 11 records: on
    assert heading in [h.value for h in at.subheader]
    at.checkbox(key="risk_impact").uncheck().run()
    assert heading not in [h.value for h in at.subheader]
    assert metric(at, "k") == "1"  # the figures stay: the raw Age makes people unique

    monkeypatch.setattr(risk_state, "IMPACT_AUTO_ROWS", 10)  # the taxi table's 11 is "large"
    large = load_sample(TAXI, {c: Role.INDIRECT for c in QI})
    large.switch_page(PAGE).run()
    assert not large.exception, large.exception
    assert large.checkbox(key="risk_impact").value is False
    assert heading not in [h.value for h in large.subheader]


def test_the_population_size_is_echoed_with_thousands_separators():
    at = load_sample(TAXI, {c: Role.INDIRECT for c in QI})
    at.switch_page(PAGE).run()
    at.number_input(key="risk_population").set_value(5_600_000).run()
    assert any(c.value == "5,600,000 people" for c in at.caption), [c.value for c in at.caption]


def test_the_registry_s_other_models_are_shown_with_a_sensitive_column(risk_page, generalised):
    """delta, beta and alpha (core.measures.models): each the largest over the groups,
    worked out here with pandas on the Annex C table (Age generalised as the guide does)."""
    at = risk_page
    at.selectbox(key="risk_sensitive").set_value(TRIPS).run()
    assert not at.exception, at.exception
    table = generalised[TRIPS].value_counts(normalize=True)
    group = generalised.groupby(QI)[TRIPS].value_counts(normalize=True)
    table_share = table.reindex(group.index.get_level_values(TRIPS)).to_numpy()
    expected = {
        "(α,k)-anonymity": group.max(),
        "δ-disclosure privacy": np.abs(np.log(group.to_numpy() / table_share)).max(),
        "β-likeness": ((group.to_numpy() - table_share) / table_share).max(),
    }
    for label, value in expected.items():
        assert float(metric(at, label).replace(",", "")) == pytest.approx(value, rel=5e-3)


def _text_layers(spec: str) -> list[dict]:
    """The text marks of a layered Vega-Lite chart (its bars' labels)."""
    layers = json.loads(spec).get("layer", [])
    return [layer for layer in layers if (layer.get("mark") or {}).get("type") == "text"]


def test_the_driving_quasi_identifier_bars_carry_their_figures():
    """Issue 29: "Which quasi-identifier drives the risk" had bars and no figures."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.session_state["roles"] = {c: Role.INDIRECT for c in ("sex", "race")}
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    specs = [c.proto.spec for c in at.get("vega_lite_chart") if "without it" in c.proto.spec]
    assert len(specs) == 2
    for spec in specs:
        [label] = _text_layers(spec)
        assert label["encoding"]["text"]["field"] in ("k_without", "uniques_without")
        assert label["encoding"]["text"]["format"] == ",d"
        # whole ticks: k = 1 read "0 0 0 0 1 1 1" along the axis without them
        assert label["encoding"]["x"]["axis"]["tickMinStep"] == 1
