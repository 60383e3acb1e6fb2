"""Tests for core/techniques/swapping.py (PDPC guide, Annex A: Swapping)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ColumnNotFoundError, ParameterError
from core.techniques.swapping import swap

# PDPC guide, Annex A, Swapping example (customer records), plus a longer numeric table
CUSTOMERS = pd.DataFrame(
    {
        "Person": list("ABCDE"),
        "Job title": ["University lecturer", "Salesman", "Lawyer", "IT professional", "Nurse"],
        "Date of birth": ["3 Jan 1970", "5 Feb 1972", "7 Mar 1985", "10 Apr 1990", "13 May 1995"],
        "Membership type": ["Silver", "Platinum", "Gold", "Silver", "Silver"],
        "Average visits per month": [0, 5, 2, 1, 2],
    }
)
SWAPPED = ["Job title", "Date of birth", "Membership type", "Average visits per month"]
LONG = pd.DataFrame({"a": np.arange(50), "b": np.arange(50) * 10, "c": list("xy") * 25})


def test_guide_example_each_column_keeps_its_values():
    out = swap(CUSTOMERS, SWAPPED, seed=7)
    for column in SWAPPED:
        assert sorted(out[column]) == sorted(CUSTOMERS[column])
        assert out[column].dtype == CUSTOMERS[column].dtype
    pdt.assert_series_equal(out["Person"], CUSTOMERS["Person"])
    pdt.assert_index_equal(out.index, CUSTOMERS.index)


def test_same_seed_same_output_different_seed_different_output():
    pdt.assert_frame_equal(swap(LONG, ["a", "b"], seed=1), swap(LONG, ["a", "b"], seed=1))
    assert not swap(LONG, ["a"], seed=1)["a"].equals(swap(LONG, ["a"], seed=2)["a"])


def test_columns_are_swapped_independently_or_together():
    apart = swap(LONG, ["a", "b"], seed=3)
    # independent permutations of 50 rows: the pairs (a, b = 10a) are broken somewhere
    assert not (apart["b"] == apart["a"] * 10).all()
    together = swap(LONG, ["a", "b"], seed=3, together=True)
    assert (together["b"] == together["a"] * 10).all()
    assert not together["a"].equals(LONG["a"])
    assert sorted(together["a"]) == list(range(50))


def test_missing_values_move_with_the_others():
    df = pd.DataFrame({"v": [1.0, np.nan, 3.0, np.nan, 5.0]})
    out = swap(df, "v", seed=0)
    assert out["v"].isna().sum() == 2
    assert sorted(out["v"].dropna()) == [1.0, 3.0, 5.0]


def test_errors():
    with pytest.raises(ColumnNotFoundError, match="'Age'"):
        swap(CUSTOMERS, ["Age"])
    with pytest.raises(ParameterError, match="seed"):
        swap(CUSTOMERS, ["Job title"], seed=-1)


def test_empty_table():
    out = swap(LONG.iloc[:0], ["a"], seed=1)
    assert out.empty


@settings(max_examples=50, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), st.text(max_size=3)), min_size=1, max_size=30),
    seed=st.integers(0, 2**32),
    together=st.booleans(),
)
def test_property_multiset_preserved_and_input_untouched(values, seed, together):
    df = pd.DataFrame({"s": values, "n": range(len(values))})
    before = df.copy()
    out = swap(df, ["s", "n"], seed=seed, together=together)
    pdt.assert_frame_equal(df, before)
    assert sorted(out["n"]) == sorted(df["n"])
    key = out["s"].fillna("<missing>").value_counts().sort_index()
    assert key.equals(df["s"].fillna("<missing>").value_counts().sort_index())
    if together:
        assert (
            out["s"].fillna("<missing>").to_numpy()
            == df["s"].fillna("<missing>").to_numpy()[out["n"].to_numpy()]
        ).all()
