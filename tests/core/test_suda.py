"""core.suda against sdcMicro's figures (tests/testthat/test_suda2.R of cran/sdcMicro),
hand calculations and a brute-force search of every subset."""

from __future__ import annotations

import time
from itertools import combinations
from math import factorial

import numpy as np
import pandas as pd
import pytest
from r_random import RRandom

from core.errors import ColumnNotFoundError, ParameterError
from core.suda import dis_suda, msu_weights, suda2

# test_suda2.R "suda2 book example" (Templ 2017): scores of rows 5-8 are 4, 2, 6, 8.
BOOK = pd.DataFrame(
    {
        "age": ["20s"] * 7 + ["60s"],
        "gender": ["male"] * 4 + ["female"] * 3 + ["male"],
        "income": ["50k+", "50k+"] + ["50k-"] * 6,
        "education": ["highschool"] * 4
        + ["university", "highschool", "middleschool", "university"],
    }
)

# test_suda2.R "suda2 sdc guideline": scores 0, 0, 6, 0, 12, 0, 6, 10, 0, 0.
GUIDELINE = pd.DataFrame(
    {
        "Residence": ["Urban"] * 4 + ["Rural"] + ["Urban"] * 5,
        "Gender": [
            "Female",
            "Female",
            "Female",
            "Male",
            "Female",
            "Male",
            "Female",
            "Male",
            "Female",
            "Female",
        ],
        "Education": [
            "Secondary incomplete",
            "Secondary incomplete",
            "Primary incomplete",
            "Secondary complete",
            "Secondary complete",
            "Secondary complete",
            "Primary complete",
            "Post-secondary",
            "Secondary incomplete",
            "Secondary incomplete",
        ],
        "Labor": [
            "Employed",
            "Employed",
            "Non-LF",
            "Employed",
            "Unemployed",
            "Employed",
            "Non-LF",
            "Unemployed",
            "Non-LF",
            "Non-LF",
        ],
    }
)

# test_suda2.R "suda2 simple example contribution" 1-4.
SIMPLE = pd.DataFrame({"a": [2, 1, 1], "b": [0, 3, 0], "c": [0, 6, 0]})


def test_book_example_scores_match_sdcmicro():
    result = suda2(BOOK, list(BOOK.columns))
    assert result.score[4:].tolist() == [4, 2, 6, 8]
    # By hand, row 8 (60s, male, 50k-, university): {age} alone (weight 3! = 6) and
    # {gender, education} (weight 2! = 2); rows 1-4 come in identical pairs, score 0.
    assert result.msu_counts[7].tolist() == [1, 1, 0, 0]
    assert result.score[:4].tolist() == [0, 0, 0, 0]


def test_sdc_guideline_scores_match_sdcmicro():
    result = suda2(GUIDELINE, list(GUIDELINE.columns))
    assert result.score.tolist() == [0, 0, 6, 0, 12, 0, 6, 10, 0, 0]


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (["a", "b", "c"], [50, 37.5, 37.5]),
        (["a", "c", "b"], [50, 37.5, 37.5]),
        (["c", "a", "b"], [37.5, 50, 37.5]),
        (["c", "b", "a"], [37.5, 37.5, 50]),
    ],
)
def test_attribute_contribution_matches_sdcmicro(order, expected):
    result = suda2(SIMPLE, order)
    assert list(result.attribute_contribution.values()) == pytest.approx(expected)
    assert list(result.attribute_contribution) == order


def test_record_contributions_by_hand():
    # Row 1 (2,0,0): {a} (weight 2). Row 2 (1,3,6): {b}, {c} (2 each, score 4).
    # Row 3 (1,0,0): {a,b} and {a,c} (1 each, score 2): a is in both, so its share is 1.
    result = suda2(SIMPLE, ["a", "b", "c"])
    assert result.score.tolist() == [2, 4, 2]
    assert result.contribution.tolist() == [[1, 0, 0], [0, 0.5, 0.5], [1, 0.5, 0.5]]


def test_weights_elliot_and_ihsn():
    assert msu_weights(4).tolist() == [6, 2, 1, 1]  # (M - s)!
    # IHSN: (2^(M-s) - 1) * s! (M-s)! / M!; M = 3, s = 1: 3 * 1 * 2 / 6 = 1.
    assert msu_weights(3, original_scores=False).tolist() == pytest.approx([1, 1 / 3, 0])


def test_dis_score_by_hand():
    # Book example: pairs are rows 1-2 and 3-4 (P = 4), M = 4 so Q = 1.2, F = 0.01.
    result = suda2(BOOK, list(BOOK.columns))
    q = 1.2
    adjust = sum(s**-q for s in (4, 2, 6, 8))
    expected = [1 / (1 + 4 * 0.99 / 0.01 / (s**q * adjust)) for s in (4, 2, 6, 8)]
    assert result.dis_score[4:] == pytest.approx(expected)
    assert result.dis_score[:4].tolist() == [0, 0, 0, 0]
    # Without any class of exactly two, every scored record gets 1.
    assert dis_suda(np.array([0.0, 3.0, 1.0]), 0, 3, 0.01).tolist() == [0, 1, 1]


def _brute_force(df: pd.DataFrame, qis: list[str], max_size: int) -> np.ndarray:
    weights = [factorial(len(qis) - s) for s in range(1, len(qis) + 1)]
    unique = {}
    for size in range(1, max_size + 1):
        for subset in combinations(qis, size):
            sizes = df.groupby(list(subset), dropna=False)[subset[0]].transform("size")
            has_all = df[list(subset)].notna().all(axis=1)
            unique[frozenset(subset)] = set(np.flatnonzero((sizes == 1) & has_all))
    score = np.zeros(len(df))
    for subset, rows in unique.items():
        for row in rows:
            if len(subset) == 1 or all(row not in unique[subset - {c}] for c in subset):
                score[row] += weights[len(subset) - 1]
    return score


@pytest.mark.parametrize("max_size", [1, 2, 3, 5])
def test_matches_brute_force_on_random_table_with_gaps(max_size):
    rng = np.random.default_rng(7)
    df = pd.DataFrame({c: rng.integers(0, 3 + i, 300) for i, c in enumerate("pqrst")})
    df = df.astype(float)
    df.loc[rng.random(300) < 0.05, "q"] = np.nan
    result = suda2(df, list("pqrst"), max_size=max_size)
    assert result.score == pytest.approx(_brute_force(df, list("pqrst"), max_size))
    assert result.msu_counts.shape == (300, max_size)


def test_missing_value_is_never_part_of_an_msu():
    df = pd.DataFrame({"a": [1, 1, np.nan], "b": [1, 1, 1], "c": [1, 1, 1]})
    assert suda2(df, ["a", "b", "c"]).score.tolist() == [0, 0, 0]


def test_adult_eight_quasi_identifiers_in_seconds(adult):
    qis = [
        "sex",
        "age",
        "race",
        "marital-status",
        "education",
        "native-country",
        "workclass",
        "occupation",
    ]
    start = time.perf_counter()
    result = suda2(adult, qis)
    assert time.perf_counter() - start < 10
    uniques = adult.groupby(qis)["sex"].transform("size").to_numpy() == 1
    # Exactly the records unique on all eight have an MSU.
    assert np.array_equal(result.score > 0, uniques)
    assert sum(result.attribute_contribution.values()) > 100  # MSUs share attributes


def test_input_unchanged_and_summary():
    before = BOOK.copy()
    result = suda2(BOOK, list(BOOK.columns))
    pd.testing.assert_frame_equal(BOOK, before)
    summary = result.to_dict()
    assert summary["records_with_msu"] == 4
    # Row 5: {gender, education}, {age, education}; row 6: {gender, education};
    # row 7: {education}; row 8: {age}, {gender, education}.
    assert summary["msus_by_size"] == {"1": 2, "2": 4, "3": 0, "4": 0}
    assert "one quasi-identifier alone" in result.explanations()["records_with_msu"]


@pytest.mark.parametrize("max_size", [0, 5, -1])
def test_max_size_out_of_range_is_refused(max_size):
    with pytest.raises(ParameterError, match="max_size"):
        suda2(BOOK, list(BOOK.columns), max_size=max_size)


def test_bad_dis_fraction_and_columns_are_refused():
    with pytest.raises(ParameterError, match="dis_fraction"):
        suda2(BOOK, ["age", "gender"], dis_fraction=0)
    with pytest.raises(ColumnNotFoundError, match="quasi_identifiers"):
        suda2(BOOK, ["age", "nope"])


def test_sdcmicro_random_table_scores_and_contributions():
    # test_suda2.R "sdc without missing, DisFraction = default": set.seed(3), then
    # runif(30, 1, 100) (numeric columns, unused) and three rounded key variables.
    rng = RRandom(3)
    rng.runif(30, 1, 100)
    keys = pd.DataFrame(
        {
            "Var4": np.round(rng.runif(10, 1, 4)),
            "Var5": np.round(rng.runif(10, 1, 6)),
            "Var6": np.round(rng.runif(10, 1, 3)),
        }
    )
    result = suda2(keys, ["Var4", "Var5", "Var6"])
    assert result.score.tolist() == [0, 1, 0, 2, 2, 0, 4, 0, 3, 2]
    assert result.contribution[:, 0] == pytest.approx(
        [0, 0, 0, 0, 0.5, 0, 0.5, 0, 0.666666666666667, 0.5]
    )


def test_r_random_numbers_are_those_printed_in_sdcmicro_tests():
    # test_suda2.R: set.seed(3); runif(30, 1, 100) as a 10 x 3 array, column 3.
    expected = [
        23.5919862471055,
        2.51765935891308,
        13.7691743019968,
        10.2448109227698,
        24.4516157396138,
        79.3235935377888,
        60.3734250029083,
        91.1046233826783,
        56.4820308389608,
        75.8147721474525,
    ]
    assert RRandom(3).runif(30, 1, 100)[20:] == pytest.approx(expected, rel=1e-12)
