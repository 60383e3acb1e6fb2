"""Local suppression against sdcMicro's figures (tests/testthat/test_localSuppression.R of
cran/sdcMicro, data rebuilt with R's random numbers) and hand-worked cases."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core.errors import ColumnNotFoundError, ParameterError
from core.privacy import k_anonymity
from core.survey_risk import sample_frequencies
from core.techniques import local_suppression
from core.techniques.cell_suppression import plan_local_suppression, suppression_order

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from r_random import RRandom  # noqa: E402


def _sdcmicro_sample() -> pd.DataFrame:
    """test_localSuppression.R: set.seed(3); runif(30, 1, 100) as Var1-Var3, then
    round(runif(10, 1, 3)), round(runif(10, 1, 2)), round(runif(10, 1, 4))."""
    rng = RRandom(3)
    numbers = rng.runif(30, 1, 100)
    return pd.DataFrame(
        {
            "Var1": numbers[:10],
            "Var2": numbers[10:20],
            "Var3": numbers[20:],
            "Var4": np.round(rng.runif(10, 1, 3)),
            "Var5": np.round(rng.runif(10, 1, 2)),
            "Var6": np.round(rng.runif(10, 1, 4)),
        }
    )


def test_two_keys_k2_matches_sdcmicro():
    # "dataframe without missing, k = 2, importance=NULL": sum(totalSupps) == 2.
    result = plan_local_suppression(_sdcmicro_sample(), ["Var4", "Var5"], k=2)
    assert result.total_suppressed == 2


def test_importance_order_matches_sdcmicro():
    # "k = 2, importance=c(3,2,1)" on Var3:5: sum(totalSupps) == 10. Importance 1 is kept
    # longest, so the order from most important is Var5, Var4, Var3.
    df = _sdcmicro_sample()
    result = plan_local_suppression(
        df, ["Var3", "Var4", "Var5"], k=2, importance=["Var5", "Var4", "Var3"]
    )
    assert result.total_suppressed == 10
    assert result.suppression_order == ("Var3", "Var4", "Var5")
    assert result.k_wildcard >= 2


def test_hand_worked_one_cell_instead_of_one_record():
    # (F, 30) is alone; its nearest records (F, 40) differ only in age, so blanking its
    # age makes it match both (F, 40) records: one cell, k = 3 with a blank as wildcard.
    # Age has more distinct values than sex, so it is the less important by default.
    df = pd.DataFrame({"sex": ["M", "M", "F", "F", "F"], "age": [30, 30, 40, 40, 30]})
    result = plan_local_suppression(df, ["sex", "age"], k=2)
    assert result.suppressed == {"sex": 0, "age": 1}
    assert result.table["age"].isna().tolist() == [False, False, False, False, True]
    assert result.table["age"].dtype == "Int64"  # whole numbers stay whole
    assert result.k_wildcard == 2  # the M, 30 pair; the blank joins the F records (3)
    assert result.k_missing_as_value == 1  # (F, missing) is a class of its own
    # With sex named least important, the cell blanked is the sex of that record.
    by_sex = plan_local_suppression(df, ["sex", "age"], k=2, importance=["age", "sex"])
    assert by_sex.suppressed == {"sex": 1, "age": 0}


def test_reaches_k_with_wildcards_and_fewer_cells_than_record_suppression(adult):
    qis = ["sex", "race", "marital-status", "education", "workclass"]
    before = adult.copy()
    result = plan_local_suppression(adult, qis, k=5)
    pd.testing.assert_frame_equal(adult, before)  # input untouched
    fk = sample_frequencies(result.table, qis, missing="sdcmicro").fk
    assert fk.min() >= 5 and result.k_wildcard == fk.min()
    below = int((adult.groupby(qis)["sex"].transform("size") < 5).sum())
    # A blank only ever adds matches, so only records below k are touched, and far fewer
    # cells are lost than by deleting those records (all their quasi-identifier cells).
    touched = int(result.table[qis].isna().any(axis=1).sum())
    assert 0 < touched <= below
    assert result.total_suppressed < below * len(qis) / 2
    assert result.table.columns.tolist() == adult.columns.tolist()
    assert (result.table.drop(columns=qis) == adult.drop(columns=qis)).all().all()


def test_already_k_anonymous_table_is_unchanged():
    df = pd.DataFrame({"a": ["x", "x", "y", "y"], "b": [1, 1, 2, 2]})
    assert k_anonymity(df, ["a", "b"]) == 2
    result = plan_local_suppression(df, ["a", "b"], k=2)
    assert result.total_suppressed == 0
    pd.testing.assert_frame_equal(local_suppression(df, ["a", "b"], k=2), df)


def test_default_order_more_values_suppressed_first():
    df = pd.DataFrame({"few": [1, 2, 1, 2], "many": [1, 2, 3, 4], "also_few": [1, 1, 2, 2]})
    # Ties (few, also_few: 2 values each) go to the one named later first, as sdcMicro.
    assert suppression_order(df, ["few", "many", "also_few"]) == ("many", "also_few", "few")


def test_bad_parameters_are_refused():
    df = pd.DataFrame({"a": [1, 2], "b": [1, 1]})
    with pytest.raises(ParameterError, match="'k'"):
        plan_local_suppression(df, ["a", "b"], k=3)
    with pytest.raises(ParameterError, match="'k'"):
        plan_local_suppression(df, ["a", "b"], k=0)
    with pytest.raises(ParameterError, match="importance"):
        plan_local_suppression(df, ["a", "b"], k=2, importance=["c"])
    with pytest.raises(ColumnNotFoundError, match="quasi_identifiers"):
        plan_local_suppression(df, ["a", "z"], k=2)
