"""Tests of core.risk: Annex D formulas, prosecutor/journalist risk, uniqueness."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from core.errors import ParameterError
from core.risk import (
    INSIDER_ATTACK_TABLE,
    annex_d_risk,
    journalist_class_population,
    locality_unique_share,
    max_population_for_unique_share,
    p_shares_birthday,
    risk_report,
    risk_threshold,
    smallest_k,
    unique_count_distribution,
    uniqueness,
)

STEP4 = pd.DataFrame(
    {
        "postal_code": ["22xxxx"] * 2 + ["10xxxx"] * 4 + ["58xxxx"] * 3,
        "age": ["21 to 25"] * 2 + ["41 to 45"] * 4 + ["56 to 60"] * 3,
    }
)


def test_annex_d_insider_table_is_the_guides():
    assert INSIDER_ATTACK_TABLE["high"] == {"low": 0.03, "medium": 0.05, "high": 0.1}
    assert INSIDER_ATTACK_TABLE["medium"] == {"low": 0.2, "medium": 0.25, "high": 0.3}
    assert INSIDER_ATTACK_TABLE["low"] == {"low": 0.4, "medium": 0.5, "high": 0.6}
    assert set(INSIDER_ATTACK_TABLE["none"].values()) == {1.0}


def test_annex_d_thresholds():
    assert [risk_threshold(h) for h in ("low", "medium", "high")] == [0.2, 0.1, 0.01]
    assert risk_threshold(0.05) == 0.05
    assert risk_threshold("0.05") == 0.05
    with pytest.raises(ParameterError, match="harm"):
        risk_threshold("severe")


def test_annex_d_insider_scenario_by_hand():
    # Medium controls, high motivation: P(attempt) = 0.3; k = 5: P(re-ID) = 0.3 / 5 = 0.06.
    result = annex_d_risk(5, controls="medium", motivation="high", harm="medium")
    assert result.p_attempt == 0.3
    assert result.p_reid == pytest.approx(0.06)
    assert result.acceptable  # 0.06 <= 0.1
    assert result.min_k == 3  # 0.3 / 3 = 0.1 is the first k at or under 0.1
    assert result.driving_scenario == "deliberate insider attack"


def test_annex_d_takes_the_largest_scenario():
    # High controls, low motivation: insider 0.03; acquaintance 0.5 wins; 0.5 / 10 = 0.05 > 0.01
    result = annex_d_risk(
        10, controls="high", motivation="low", acquaintance=0.5, breach=0.27, harm="high"
    )
    assert result.p_attempt == 0.5
    assert result.driving_scenario == "recognition by an acquaintance"
    assert result.p_reid == pytest.approx(0.05)
    assert not result.acceptable
    assert result.min_k == 50  # 0.5 / 50 = 0.01
    assert "Annex D" in result.explanation()


def test_annex_d_no_controls_means_certain_attempt():
    result = annex_d_risk(3, controls="none", motivation="low", harm="low")
    assert result.p_reid == pytest.approx(1 / 3)
    assert not result.acceptable
    assert result.min_k == 5  # 1/5 = 0.2


def test_annex_d_custom_insider_table():
    table = {c: {m: 0.02 for m in ("low", "medium", "high")} for c in INSIDER_ATTACK_TABLE}
    result = annex_d_risk(1, controls="low", motivation="high", insider_table=table, harm=0.05)
    assert result.p_insider == 0.02
    assert result.acceptable


@pytest.mark.parametrize(
    "kwargs, word",
    [
        (dict(k=0, controls="low", motivation="low"), "'k'"),
        (dict(k=3, controls="some", motivation="low"), "'controls'"),
        (dict(k=3, controls="low", motivation="extreme"), "'motivation'"),
        (dict(k=3, controls="low", motivation="low", breach=1.5), "'breach'"),
    ],
)
def test_annex_d_bad_parameters_are_named(kwargs, word):
    k = kwargs.pop("k")
    with pytest.raises(ParameterError, match=word):
        annex_d_risk(k, **kwargs)


def test_smallest_k_avoids_floating_point_traps():
    assert smallest_k(0.3, 0.1) == 3  # 0.3 / 0.1 is 2.9999999999999996 in floats
    assert smallest_k(0.05, 0.2) == 1


def test_risk_report_on_the_step4_example():
    report = risk_report(STEP4, ["postal_code", "age"], k_threshold=3)
    assert (report.records, report.classes, report.k) == (9, 3, 2)
    assert report.uniques == 0
    assert report.records_below_k == 2
    assert report.max_risk == pytest.approx(1 / 2)
    # Average prosecutor risk: (2 * 1/2 + 4 * 1/4 + 3 * 1/3) / 9 = 3 / 9
    assert report.avg_risk == pytest.approx(3 / 9)
    assert report.records_at_max_risk == 2
    data = report.to_dict()
    for key in ("records", "classes", "k", "uniques", "records_below_k", "max_risk", "avg_risk"):
        assert key in data
    assert "Step 4" in report.explanations()["k"]


def test_risk_report_with_sensitive_attribute():
    df = STEP4.assign(show=["a", "a", "b", "c", "b", "b", "d", "d", "e"])
    report = risk_report(df, ["postal_code", "age"], sensitive="show")
    assert report.l_distinct == 1  # the 22xxxx pair both watch "a"
    assert report.l_entropy == pytest.approx(1.0)
    assert report.to_dict()["t_closeness"] == pytest.approx(report.t_closeness)


def test_journalist_risk_uses_population_counts():
    sample = pd.DataFrame({"sex": ["F", "M", "M"], "age": [30, 40, 50]})
    population = pd.DataFrame({"sex": ["F", "M", "M"], "age": [30, 40, 60], "people": [4, 10, 7]})
    people = journalist_class_population(sample, population, ["sex", "age"], count_column="people")
    assert people.tolist() == [4, 10, 1]  # (M, 50) is not in the population: counted as 1
    report = risk_report(
        sample, ["sex", "age"], population=population, population_count_column="people"
    )
    assert report.journalist_max_risk == pytest.approx(1.0)
    assert report.journalist_avg_risk == pytest.approx((1 / 4 + 1 / 10 + 1) / 3)


def test_uniqueness_matches_the_papers_statements():
    # Gibbon & Aisbett, Section 2: "A population of 250 gives a 50% chance of being uniquely
    # identified. A population of around 2500 is needed to reduce ... to 0.1%."
    assert uniqueness(250).p_unique == pytest.approx(0.5, abs=0.01)
    assert uniqueness(2500).p_unique == pytest.approx(0.001, abs=0.0002)
    # Section 4: a cell of about 20 gives 95% uniques, about 1100 reduces this to 5%.
    assert uniqueness(20).expected_unique_share == pytest.approx(0.95, abs=0.005)
    assert uniqueness(1100).expected_unique_share == pytest.approx(0.05, abs=0.002)
    # Section 3: cells of 80 (8000 people, 1% per cell) -> about 0.8; of 30 -> over 0.9.
    assert uniqueness(80).p_unique == pytest.approx(0.8, abs=0.01)
    assert uniqueness(30).p_unique > 0.9


def test_p_q_is_a_binomial_probability():
    # Eq. (1) by hand for N = 3, q = 2: C(2,1) * (1/365) * (364/365)
    assert p_shares_birthday(3, 2) == pytest.approx(2 * (1 / 365) * (364 / 365))
    assert sum(p_shares_birthday(40, q) for q in range(1, 41)) == pytest.approx(1.0)


def _brute_force_unique_counts(n: int, days: int) -> list[float]:
    """Enumerate every assignment of n birthdays to ``days`` days: an independent check.
    Each of the days**n assignments is a row; a person is unique when no one else in the
    row has their day (compared pairwise, all rows at once)."""
    birthdays = np.indices((days,) * n).reshape(n, -1).T
    same_day = birthdays[:, :, None] == birthdays[:, None, :]
    uniques = (same_day.sum(axis=2) == 1).sum(axis=1)
    return (np.bincount(uniques, minlength=n + 1) / days**n).tolist()


@pytest.mark.parametrize("n, days", [(5, 7), (6, 5), (4, 30)])
def test_unique_count_distribution_matches_brute_force(n, days):
    assert unique_count_distribution(n, days=days).tolist() == pytest.approx(
        _brute_force_unique_counts(n, days), abs=1e-12
    )


def test_unique_count_distribution_known_values():
    # All of N people unique = the classic birthday problem: prod (1 - i/365), i < N.
    dist = unique_count_distribution(23)
    assert dist[23] == pytest.approx(math.prod(1 - i / 365 for i in range(23)))
    assert dist[22] == 0.0  # exactly N-1 uniques is impossible (paper, footnote 2)


def test_expected_unique_share_is_the_mean_of_the_distribution():
    dist = unique_count_distribution(300)
    mean_share = float((dist * np.arange(301)).sum() / 300)
    assert mean_share == pytest.approx(uniqueness(300).expected_unique_share, rel=1e-9)


def test_table_1_ninety_five_percent_at_confidence_0_95():
    # Gibbon & Aisbett, Table 1: 95% of the group unique with confidence 0.95 up to N = 6.
    assert max_population_for_unique_share(0.95, 0.95, search_up_to=60) == 6


def test_locality_share_with_equal_cells():
    # 100 equal cells in a locality of 8000: 80 people per cell -> (364/365)^79 each.
    share = locality_unique_share(8000, [0.01] * 100)
    assert share == pytest.approx((364 / 365) ** 79)
    with pytest.raises(ParameterError, match="add up to 1"):
        locality_unique_share(8000, [0.5, 0.2])


def test_journalist_population_matches_int_sample_to_float_population_values():
    # Issue 14: a population column with one gap is read as float (30.0); the sample's int
    # 30 is the same age. By hand: (30, M) matches two population rows, (40, F) one.
    sample = pd.DataFrame({"age": [30, 40], "sex": ["M", "F"]})
    population = pd.DataFrame({"age": [30.0, 30.0, 40.0, np.nan], "sex": ["M", "M", "F", "F"]})
    people = journalist_class_population(sample, population, ["age", "sex"])
    assert people.tolist() == [2.0, 1.0]


def test_attribute_disclosure_flags_a_group_with_one_sensitive_value():
    # Group (30, M) has disease flu twice: l = 1 although k = 2 (Step 4 footnote 11).
    df = pd.DataFrame(
        {
            "age": [30, 30, 40, 40],
            "sex": ["M", "M", "F", "F"],
            "disease": ["flu", "flu", "flu", "cold"],
        }
    )
    report = risk_report(df, ["age", "sex"], sensitive="disease")
    assert report.k == 2 and report.l_distinct == 1
    assert report.attribute_disclosure().startswith("l-diversity = 1: at least one group")
    diverse = df.assign(disease=["flu", "cold", "flu", "cold"])
    assert risk_report(diverse, ["age", "sex"], sensitive="disease").attribute_disclosure() is None
    assert risk_report(df, ["age", "sex"]).attribute_disclosure() is None


def test_risk_report_gives_every_privacy_model_s_figure_by_hand():
    """Classes a: x, y and b: x, x; the table: x 3/4, y 1/4 (worked by hand). delta: the
    largest |ln(q / p)| is y in a, ln(0.5 / 0.25) = ln 2; beta: the largest (q - p) / p is y
    in a, (0.5 - 0.25) / 0.25 = 1; alpha: b is all x, 1; t (equal distance): b, 0.5 (|1 -
    0.75| + |0 - 0.25|) = 0.25; k 2, distinct l 1. k-map needs a population: None."""
    df = pd.DataFrame({"g": ["a", "a", "b", "b"], "s": ["x", "y", "x", "x"]})
    report = risk_report(df, ["g"], sensitive="s")
    figures = report.to_dict()["privacy_models"]
    assert figures == pytest.approx(
        {
            "k_anonymity": 2,
            "l_diversity": 1,
            "t_closeness": 0.25,
            "delta_disclosure": math.log(2),
            "beta_likeness": 1.0,
            "alpha_k": 1.0,
            "k_map": None,
        }
    )
    rows = report.model_rows()  # what k, l_distinct and t_closeness do not show already
    assert [name for name, *_ in rows] == ["delta_disclosure", "beta_likeness", "alpha_k"]
    assert all("PDPC guide" in words for *_, words in rows)
