"""The privacy models as targets of Explore trade-offs: every model of the registry is
offered (issue 28: one list of models), each searched for gives solutions that meet it,
and a sensitive column named in Step 1 switches l-diversity on (issue 30)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from apptest_helpers import load_sample, open_sample
from streamlit.testing.v1 import AppTest

from core.errors import ParameterError
from core.measures.models.base import ClassTable, Parameter, PrivacyModel
from core.measures.models.registry import MODELS
from core.schema import Role
from ui.model_inputs import switch_key, widget_key

PAGE = "pages/9_tradeoffs.py"
TAXI = "guide_annex_c_taxi.csv"
TAXI_TABLE = pd.read_csv(Path(__file__).parents[2] / "sample_data" / TAXI)
#: The numeric hierarchy's bands of Age by level (level 5 is '*').
WIDTHS = {1: 5, 2: 10, 3: 20, 4: 40}


def _keys(at: AppTest) -> set[str]:
    """The keys of every input on the page."""
    kinds = ("number_input", "selectbox", "checkbox", "toggle", "text_input", "multiselect")
    return {element.key for kind in kinds for element in getattr(at, kind) if element.key}


def _age_band(level: int) -> pd.Series:
    """The taxi table's Age at ``level`` of the numeric hierarchy, by hand (5: '*')."""
    if level == 5:
        return pd.Series("*", index=TAXI_TABLE.index)
    return TAXI_TABLE["Age"] // WIDTHS[level] if level else TAXI_TABLE["Age"]


def _gender_by_age_band(level: int) -> pd.DataFrame:
    """Share of each gender in each Age band of the taxi table at ``level`` (pandas)."""
    return pd.crosstab(_age_band(level), TAXI_TABLE["Gender"], normalize="index")


def _alpha_by_hand(level: int) -> float:
    """(α,k): the largest share one gender takes in an Age band."""
    return float(_gender_by_age_band(level).to_numpy().max())


def _beta_by_hand(level: int) -> float:
    """β-likeness: the largest (share in a band - share in the table) / share in the table."""
    table_share = TAXI_TABLE["Gender"].value_counts(normalize=True)
    gain = (_gender_by_age_band(level) - table_share) / table_share
    return float(gain.to_numpy().max())


def _search_age_by_gender(tmp_path, switch: str, key: str, value: float) -> AppTest:
    """Age generalised in bands of 5, 10, 20, 40 years, Gender sensitive, nothing removed,
    the least height, with the model behind ``switch`` at ``key`` = ``value``."""
    at = open_sample(TAXI, ["Age"], PAGE)
    at.selectbox(key="to_kind_Age").set_value("numeric").run()
    at.number_input(key="to_k").set_value(1)
    at.number_input(key="to_supp").set_value(0.0)
    at.selectbox(key="to_measure").set_value("height")
    at.selectbox(key="to_sensitive").set_value("Gender").run()
    at.toggle(key=switch).set_value(True).run()
    at.number_input(key=key).set_value(value).run()
    assert not at.error, [e.value for e in at.error]
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    return at


def _chosen_level(at: AppTest) -> int:
    """The Age level of the option the page chose (``Age:3``)."""
    return int(at.selectbox(key="to_candidate").value.split(":")[1])


def test_every_model_of_the_registry_is_offered(tmp_path):
    """A model in MODELS that the page does not offer fails here: its switch (or, for
    k-anonymity, the target k) and, once switched on, its main parameter's input."""
    at = open_sample(TAXI, ["Age", "Gender"], PAGE)
    at.selectbox(key="to_sensitive").set_value("Occupation").run()
    for model in MODELS.values():
        if model.main.field == "k":  # k-anonymity: the page's target k
            assert widget_key(model.main) in _keys(at)
            continue
        assert switch_key(model) in _keys(at), f"{model.label} is not offered"
        at.toggle(key=switch_key(model)).set_value(True).run()
        assert not at.exception, at.exception
        assert widget_key(model.main) in _keys(at), f"{model.label}: no input for its level"


class _GammaModel(PrivacyModel):
    """A model that exists only in this test: no class holds more than gamma records."""

    name = "gamma_cap"
    label = "gamma-cap"
    title = "γ-cap"
    parameters = (
        Parameter(
            "gamma", "gamma", "the most records a class may hold", example=7, cli={"type": int}
        ),
    )
    needs_sensitive = False
    words = "no class holds more than gamma records (a test model)"
    figure_words = "the largest class"

    def check(self, settings):
        gamma = settings.get("gamma")
        if gamma is not None and gamma < 1:
            raise ParameterError(f"Parameter 'gamma' must be at least 1, got {gamma}.")

    def failing(self, settings, table: ClassTable):
        return table.sizes > settings["gamma"]

    def figure(self, table: ClassTable):
        return table.largest(table.sizes)

    def describe(self, settings):
        return f"gamma-cap gamma = {settings['gamma']}"


def test_a_model_added_to_the_registry_appears_with_no_page_edit(tmp_path, monkeypatch):
    """One registry line is enough: the page offers the new model, and its own check's
    message shows next to its input."""
    monkeypatch.setitem(MODELS, "gamma_cap", _GammaModel())
    at = open_sample(TAXI, ["Age", "Gender"], PAGE)
    at.toggle(key="to_model_gamma_cap").set_value(True).run()
    assert at.number_input(key="to_gamma").value == 7
    at.number_input(key="to_gamma").set_value(0).run()
    assert not at.exception, at.exception
    assert any("Parameter 'gamma' must be at least 1, got 0." in e.value for e in at.error)
    at.button(key="to_run").click().run()
    assert "tradeoff_result" not in at.session_state


def test_a_bad_parameter_is_named_next_to_its_input(tmp_path):
    """The model's own check judges the inputs: α above 1 is refused in its group and the
    search does not run."""
    at = open_sample(TAXI, ["Age"], PAGE)
    at.selectbox(key="to_sensitive").set_value("Gender").run()
    at.toggle(key="to_model_alpha_k").set_value(True).run()
    at.number_input(key="to_alpha").set_value(1.5).run()
    assert any("'alpha'" in e.value for e in at.error), [e.value for e in at.error]
    at.button(key="to_run").click().run()
    assert any("not well set" in e.value for e in at.error)
    assert "tradeoff_result" not in at.session_state


def test_a_beta_likeness_target_gives_solutions_that_meet_it(tmp_path):
    """β = 1 on Gender (6 women, 5 men): bands of 5 years leave 38, 38 (two men, gain
    (1 - 5/11) / (5/11) = 1.2 > 1); bands of 10 years give at most 5/6 (0.83)."""
    at = _search_age_by_gender(tmp_path, "to_model_beta_likeness", "to_beta", 1.0)
    result = at.session_state["tradeoff_result"][0]
    assert result.target.beta == 1.0 and result.target.sensitive == "Gender"
    meets = [level for level in range(5) if _beta_by_hand(level) <= 1.0]
    level = _chosen_level(at)
    assert level == min(meets) == 2
    chosen = next(c for c in result.candidates if c.levels["Age"] == level)
    assert chosen.suppressed == 0
    assert chosen.sensitive_figures["beta"] == pytest.approx(_beta_by_hand(level))
    assert chosen.sensitive_figures["beta"] <= 1.0
    for candidate in result.candidates:  # every option offered meets it
        assert _beta_by_hand(candidate.levels["Age"]) <= 1.0 + 1e-12


def test_an_alpha_k_target_gives_solutions_that_meet_it(tmp_path):
    """α = 0.6 on Gender: every band below 20 years holds a band of one gender (share 1);
    the band 20-39 holds everyone, 6/11 = 0.55 women."""
    at = _search_age_by_gender(tmp_path, "to_model_alpha_k", "to_alpha", 0.6)
    result = at.session_state["tradeoff_result"][0]
    assert result.target.alpha == 0.6
    meets = [level for level in range(5) if _alpha_by_hand(level) <= 0.6]
    level = _chosen_level(at)
    assert level == min(meets) == 3
    chosen = next(c for c in result.candidates if c.levels["Age"] == level)
    assert chosen.suppressed == 0
    assert chosen.sensitive_figures["alpha"] == pytest.approx(6 / 11)
    assert chosen.sensitive_figures["alpha"] == pytest.approx(_alpha_by_hand(level))
    captions = " ".join(c.value for c in at.caption)
    assert "On 'Gender' in the kept groups: at least 2 distinct values" in captions
    assert "largest share of one value (alpha) 55%" in captions  # 6/11
    for candidate in result.candidates:
        assert _alpha_by_hand(candidate.levels["Age"]) <= 0.6 + 1e-12


def test_a_sensitive_column_from_step_1_switches_l_diversity_on(tmp_path):
    """Issue 30: the sidebar says l-diversity = 1 from Classify on; the page opens the
    attribute-disclosure models, says why, and the search runs with l = 2, so every kept
    group holds two occupations at least (checked with pandas)."""
    roles = {"Age": Role.INDIRECT, "Gender": Role.INDIRECT, "Occupation": Role.TARGET}
    at = load_sample(TAXI, roles)
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="to_sensitive").value == "Occupation"
    assert any("the sidebar shows l-diversity = 1" in i.value for i in at.info)
    assert at.toggle(key="to_model_l_diversity").value is True
    at.selectbox(key="to_kind_Age").set_value("numeric").run()
    at.number_input(key="to_supp").set_value(50.0)
    at.number_input(key="to_k").set_value(1)
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    result = at.session_state["tradeoff_result"][0]
    assert result.target.l == 2 and result.target.sensitive == "Occupation"
    chosen = result.optimum
    age, gender = chosen.levels["Age"], chosen.levels["Gender"]
    table = TAXI_TABLE.assign(
        Age=_age_band(age), Gender=TAXI_TABLE["Gender"] if gender == 0 else "*"
    )
    distinct = table.groupby(["Age", "Gender"])["Occupation"].transform("nunique")
    assert (distinct < 2).sum() == chosen.suppressed  # the single-record groups go
    assert chosen.sensitive_figures["l_distinct"] >= 2


def test_a_parameter_is_asked_only_when_it_counts(tmp_path):
    """l-diversity's c counts for recursive l only, its estimator for entropy l only (their
    ``when``): the page asks each then, and a recursive (c,l) search carries c to the
    target (the l-diversity check needs c for recursive l)."""
    at = open_sample(TAXI, ["Age"], PAGE)
    at.selectbox(key="to_sensitive").set_value("Gender").run()
    at.toggle(key="to_model_l_diversity").set_value(True).run()
    assert not {"to_c", "to_entropy_estimator"} & _keys(at)  # distinct l
    at.selectbox(key="to_l_kind").set_value("entropy").run()
    assert "to_entropy_estimator" in _keys(at) and "to_c" not in _keys(at)
    at.selectbox(key="to_l_kind").set_value("recursive").run()
    assert "to_c" in _keys(at) and "to_entropy_estimator" not in _keys(at)
    at.number_input(key="to_c").set_value(2.0)
    at.selectbox(key="to_kind_Age").set_value("numeric")
    at.number_input(key="to_supp").set_value(100.0).run()
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    target = at.session_state["tradeoff_result"][0].target
    assert (target.l_kind, target.l, target.c) == ("recursive", 2, 2.0)
