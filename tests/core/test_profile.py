"""Tests for core/profile.py: numbers worked out by hand in each test."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.pandas import column, data_frames

from core.io import read_table
from core.profile import PROFILE_COLUMNS, profile


def small() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "name": ["Alex", "Bosco", "Charlene", None],
            "age": [25, 54, 42, 25],
            "income": [1000.5, np.nan, 3000.5, 2000.0],
            "sex": ["M", "M", "F", "F"],
        }
    )


def row(result: pd.DataFrame, name: str) -> pd.Series:
    return result.set_index("column").loc[name]


def test_one_row_per_column_in_order():
    result = profile(small())
    assert list(result.columns) == list(PROFILE_COLUMNS)
    assert list(result["column"]) == ["name", "age", "income", "sex"]


def test_text_column_counts():
    r = row(profile(small()), "name")
    assert r["type"] == "text"
    assert r["missing"] == 1  # the None
    assert r["distinct"] == 3  # Alex, Bosco, Charlene
    assert r["uniqueness"] == 1.0  # 3 distinct / 3 present
    assert r["examples"] == "Alex, Bosco, Charlene"
    assert math.isnan(r["min"]) and math.isnan(r["mean"])


def test_integer_column_statistics():
    r = row(profile(small()), "age")
    assert r["type"] == "integer"
    assert r["missing"] == 0
    assert r["distinct"] == 3  # 25, 54, 42
    assert r["uniqueness"] == 0.75  # 3 / 4
    assert (r["min"], r["max"]) == (25.0, 54.0)
    assert r["mean"] == (25 + 54 + 42 + 25) / 4  # 36.5


def test_number_column_ignores_missing():
    r = row(profile(small()), "income")
    assert r["type"] == "number"
    assert r["missing"] == 1
    assert r["distinct"] == 3
    assert r["uniqueness"] == 1.0
    assert r["mean"] == (1000.5 + 3000.5 + 2000.0) / 3  # 2000.333...
    assert (r["min"], r["max"]) == (1000.5, 3000.5)


def test_low_uniqueness_and_examples_limit():
    r = row(profile(small(), examples=1), "sex")
    assert r["distinct"] == 2
    assert r["uniqueness"] == 0.5  # 2 / 4
    assert r["examples"] == "M"


def test_all_missing_column_and_empty_table():
    df = pd.DataFrame({"x": [None, None]}, dtype=object)
    r = row(profile(df), "x")
    assert r["missing"] == 2 and r["distinct"] == 0
    assert math.isnan(r["uniqueness"])
    empty = profile(pd.DataFrame())
    assert empty.empty and list(empty.columns) == list(PROFILE_COLUMNS)


def test_guide_step1_sample():
    # Example 2 of the guide's Step 1: 5 customers, two share the postal code 570150.
    df = read_table("sample_data/guide_step1_customers.csv")
    result = profile(df)
    assert row(result, "Postal code")["distinct"] == 4
    assert row(result, "Gender")["distinct"] == 2
    assert row(result, "Name")["uniqueness"] == 1.0


@settings(max_examples=40, deadline=None)
@given(
    data_frames(
        [
            column("a", elements=st.one_of(st.floats(-1e6, 1e6), st.just(np.nan))),
            column("b", elements=st.sampled_from(["x", "y", None])),
        ]
    )
)
def test_input_never_mutated_and_counts_add_up(df):
    before = df.copy()
    result = profile(df)
    pd.testing.assert_frame_equal(df, before)
    for name in ("a", "b"):
        r = row(result, name)
        assert r["missing"] == int(df[name].isna().sum())
        assert r["distinct"] <= len(df) - r["missing"]
