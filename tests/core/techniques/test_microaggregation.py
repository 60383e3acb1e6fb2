"""Microaggregation (MDAV and individual ranking) on hand-worked cases.

sdcMicro's own tests (tests/testthat/test_microaggregation.R) only check shapes on
random data, so the figures here are worked by hand from its definition (src/Mdav.cpp).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.errors import ParameterError
from core.privacy import k_anonymity
from core.techniques import microaggregate
from core.techniques.microaggregation import mdav_groups


def test_mdav_one_column_by_hand():
    # Centroid 59/7 = 8.43; farthest is 20, grouped with its 2 nearest (12, 11): mean
    # 14.33. Only 4 records remain (< 2k = 6), so they form the last group: mean 4.
    df = pd.DataFrame({"x": [1, 2, 3, 10, 11, 12, 20]})
    out = microaggregate(df, "x", k=3)
    assert out["x"].tolist() == pytest.approx([4, 4, 4, 4, 43 / 3, 43 / 3, 43 / 3])
    assert df["x"].tolist() == [1, 2, 3, 10, 11, 12, 20]  # input untouched


def test_mdav_two_groups_per_round_by_hand():
    # 9 records, k = 3: centroid 5; farthest 0 (first of the tie 0/10 at distance 25)...
    # 0 takes {0, 1, 2}; the farthest from 0 is 10, which takes {10, 9, 8}; the last
    # three {4, 5, 6} form the last group.
    df = pd.DataFrame({"x": [0, 1, 2, 4, 5, 6, 8, 9, 10]})
    out = microaggregate(df, "x", k=3)
    assert out["x"].tolist() == pytest.approx([1, 1, 1, 5, 5, 5, 9, 9, 9])


def test_mdav_scales_columns_by_variance():
    # Each column is divided by its standard deviation, so stating income in cents
    # instead of dollars (or age in days) cannot change the groups.
    rng = np.random.default_rng(3)
    values = np.column_stack([rng.integers(18, 90, 60), rng.normal(3000, 800, 60)])
    groups = mdav_groups(values, 4)
    assert np.array_equal(mdav_groups(values * [365.0, 100.0], 4), groups)


def test_mdav_is_k_anonymous_on_its_columns_and_keeps_means(adult):
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"age": adult["age"][:3000], "x": rng.normal(size=3000)})
    out = microaggregate(df, ["age", "x"], k=5)
    assert k_anonymity(out, ["age", "x"]) >= 5
    assert out.mean().tolist() == pytest.approx(df.mean().tolist())


def test_individual_ranking_by_hand():
    # Sorted: 1 2 3 | 10 11 12 20 (the last group takes the remainder).
    df = pd.DataFrame({"x": [20, 1, 12, 2, 11, 3, 10], "y": [1, 2, 3, 4, 5, 6, np.nan]})
    out = microaggregate(df, ["x", "y"], k=3, method="individual_ranking")
    assert out["x"].tolist() == pytest.approx([13.25, 2, 13.25, 2, 13.25, 2, 13.25])
    # y: 1 2 3 | 4 5 6; the missing value stays missing.
    assert out["y"].tolist()[:6] == [2, 2, 2, 5, 5, 5] and np.isnan(out["y"].iloc[6])


def test_missing_values_stay_missing_in_mdav():
    df = pd.DataFrame({"x": [1, 2, np.nan, 10, 11, 12], "y": [1, 1, 1, 5, 5, 5]})
    out = microaggregate(df, ["x", "y"], k=3)
    assert np.isnan(out["x"].iloc[2])
    assert out["x"].iloc[0] == pytest.approx(1.5)  # mean of the present 1 and 2


def test_bad_parameters_are_refused():
    df = pd.DataFrame({"x": [1, 2], "t": ["a", "b"]})
    with pytest.raises(ParameterError, match="'k'"):
        microaggregate(df, "x", k=3)
    with pytest.raises(ParameterError, match="method"):
        microaggregate(df, "x", k=1, method="pca")
    with pytest.raises(ParameterError, match="needs numbers"):
        microaggregate(df, "t", k=1)
