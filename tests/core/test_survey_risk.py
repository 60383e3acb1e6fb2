"""core.survey_risk against sdcMicro's own test suite (tests/testthat/test_freqCalc.R,
test_indivRisk.R, test_calcRisks.R of cran/sdcMicro) and hand calculations."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from core.errors import ColumnNotFoundError, ParameterError
from core.survey_risk import household_risk, individual_risk, sample_frequencies, survey_risk

WEIGHTS = [18.0, 45.5, 39.0, 17.0, 92.0, 8.0, 123.5, 51.0]


def _sdcmicro_table(a, b, c) -> pd.DataFrame:
    return pd.DataFrame({"A": a, "B": b, "C": c, "weight": WEIGHTS})


# sdcMicro's "sample_Data <- array(c(...), dim = c(8, 3))", column by column.
COMPLETE = _sdcmicro_table(
    [2, 3, 2, 2, 3, 3, 1, 2], [3, 3, 3, 3, 3, 3, 4, 3], [1, 3, 1, 2, 1, 1, 1, 1]
)
# test_freqCalc.R "with missing values": C has two gaps.
FREQCALC_MISSING = _sdcmicro_table(
    [2, 3, 2, 2, 3, 3, 1, 2], [3, 3, 3, 3, 3, 3, 4, 3], [1, 3, np.nan, 2, 1, 1, np.nan, 1]
)
# test_indivRisk.R "with missing": A and C have gaps.
WITH_MISSING = _sdcmicro_table(
    [2, 3, 2, 2, 3, 3, 1, np.nan], [3, 3, 3, 3, 3, 3, 4, 3], [1, 3, np.nan, 2, 1, 1, np.nan, 1]
)
QIS = ["A", "B", "C"]


def test_freqcalc_weighted_matches_sdcmicro():
    freq = sample_frequencies(COMPLETE, QIS, weights="weight")
    assert freq.Fk.tolist() == [108.0, 45.5, 108.0, 17.0, 100.0, 100.0, 123.5, 108.0]
    assert freq.fk.tolist() == [3, 1, 3, 1, 2, 2, 1, 3]


def test_freqcalc_missing_values_sdcmicro_rule():
    # sdcMicro lets a missing value match anything (test_freqCalc.R, "with missing values").
    freq = sample_frequencies(FREQCALC_MISSING, QIS, weights="weight", missing="sdcmicro")
    assert freq.Fk.tolist() == [108.0, 45.5, 125.0, 56.0, 100.0, 100.0, 123.5, 108.0]
    assert freq.fk.tolist() == [3, 1, 4, 2, 2, 2, 1, 3]


def test_wildcard_rule_agrees_with_brute_force_pairs():
    rng = np.random.default_rng(7)
    df = pd.DataFrame(rng.integers(0, 3, size=(60, 3)).astype(float), columns=QIS)
    df = df.mask(rng.random(df.shape) < 0.2)
    df["weight"] = rng.uniform(1, 20, len(df))
    freq = sample_frequencies(df, QIS, weights="weight", missing="sdcmicro")
    values = df[QIS].to_numpy()
    for i in range(len(df)):
        match = [
            all(
                np.isnan(x) or np.isnan(y) or x == y
                for x, y in zip(values[i], values[j], strict=True)
            )
            for j in range(len(df))
        ]
        assert freq.fk[i] == sum(match)
        assert freq.Fk[i] == pytest.approx(df["weight"][match].sum())


def test_missing_value_is_its_own_value_by_default():
    freq = sample_frequencies(WITH_MISSING, QIS, weights="weight")
    # Row 3 (2, 3, NaN) shares its key with nobody when NaN is a value of its own.
    assert freq.fk[2] == 1 and freq.Fk[2] == 39.0


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        (
            "approx",
            [
                0.01369863,
                0.08579129,
                0.01369863,
                0.17707583,
                0.01877883,
                0.01877883,
                0.03931625,
                0.01369863,
            ],
        ),
        (
            "exact",
            [
                0.01355297,
                0.08579129,
                0.01355297,
                0.17707583,
                0.01877883,
                0.01877883,
                0.03931625,
                0.01355297,
            ],
        ),
    ],
)
def test_indivrisk_weighted_matches_sdcmicro(method, expected):
    freq = sample_frequencies(COMPLETE, QIS, weights="weight")
    assert individual_risk(freq, method=method) == pytest.approx(expected, abs=5e-9)
    assert individual_risk(freq, method=method, qual=2) == pytest.approx(
        [2 * r for r in expected], abs=1e-8
    )


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        (
            "approx",
            [
                0.013698630,
                0.085791288,
                0.010554090,
                0.032466112,
                0.009836066,
                0.009836066,
                0.039316254,
                0.005973716,
            ],
        ),
        (
            "exact",
            [
                0.013552968,
                0.085791288,
                0.010504889,
                0.032466112,
                0.009756889,
                0.009756889,
                0.039316254,
                0.005962551,
            ],
        ),
    ],
)
def test_indivrisk_with_missing_matches_sdcmicro(method, expected):
    freq = sample_frequencies(WITH_MISSING, QIS, weights="weight", missing="sdcmicro")
    assert individual_risk(freq, method=method) == pytest.approx(expected, abs=5e-9)


def test_unweighted_risk_is_one_over_class_size():
    freq = sample_frequencies(COMPLETE, QIS)
    assert individual_risk(freq) == pytest.approx([1 / 3, 1, 1 / 3, 1, 0.5, 0.5, 1, 1 / 3])


def test_individual_risk_formula_for_a_unique_by_hand():
    # f = 1, F = 4: p = 0.25, r = p/(1-p) * log(1/p) = (1/3) * log 4.
    df = pd.DataFrame({"a": ["x"], "w": [4.0]})
    risk = survey_risk(df, ["a"], weights="w")
    assert risk.individual[0] == pytest.approx(math.log(4) / 3)


def test_global_risk_and_expected_reidentifications_match_calcrisks():
    # test_calcRisks.R "sdc without missing": individual risks 0.5,1,0.5,1,1,0.5,1,0.5,1,1
    # (no weights) give global risk 0.8 and 8 expected re-identifications.
    df = pd.DataFrame({"k": [1, 2, 1, 3, 4, 5, 6, 5, 7, 8]})
    risk = survey_risk(df, ["k"], weights=None)
    assert risk.individual.tolist() == [0.5, 1.0, 0.5, 1.0, 1.0, 0.5, 1.0, 0.5, 1.0, 1.0]
    assert risk.global_risk == pytest.approx(0.8)
    assert risk.expected_reidentifications == pytest.approx(8)


def test_household_risk_is_one_minus_product_over_members():
    # Household h1: 0.5 and 0.2 -> 1 - 0.5 * 0.8 = 0.6 for both; h2 alone keeps 0.1.
    risk = household_risk(np.array([0.5, 0.2, 0.1]), pd.Series(["h1", "h1", "h2"]))
    assert risk == pytest.approx([0.6, 0.6, 0.1])


def test_threshold_share_and_dict():
    df = pd.DataFrame({"k": [1, 1, 2], "hh": [1, 2, 2]})
    risk = survey_risk(df, ["k"], weights=None, household="hh", threshold=0.6)
    data = risk.to_dict()
    assert data["share_above_threshold"] == pytest.approx(1 / 3)  # only the unique (1.0)
    assert data["expected_reidentifications"] == pytest.approx(2.0)
    assert data["household_expected_reidentifications"] == pytest.approx(0.5 + 1 + 1)


def test_bad_weights_and_columns_are_named():
    df = pd.DataFrame({"a": [1, 2], "w": [3.0, 0.5]})
    with pytest.raises(ParameterError, match="row 2"):
        survey_risk(df, ["a"], weights="w")
    with pytest.raises(ColumnNotFoundError, match="wieght"):
        survey_risk(df, ["a"], weights="wieght")


def test_household_id_that_splits_nothing_is_refused():
    df = pd.DataFrame({"k": [1, 1, 2], "hh": ["x", "x", "x"]})
    with pytest.raises(ParameterError, match="'household'.*one value") as error:
        survey_risk(df, ["k"], weights=None, household="hh")
    assert "\n" not in str(error.value)
