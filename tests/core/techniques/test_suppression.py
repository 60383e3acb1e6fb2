"""Tests for core/techniques/suppression.py (PDPC guide, Annex A: suppression; Annex C)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ColumnNotFoundError, ParameterError, RecipeError
from core.techniques.generalisation import generalise_edges, generalise_mapping
from core.techniques.suppression import remove_columns, suppress_below_k, suppress_records

# PDPC guide, Annex C example: people taking taxis (serial number as index)
TAXI = pd.DataFrame(
    {
        "Age": [21, 38, 25, 34, 30, 29, 38, 32, 25, 23, 31],
        "Gender": ["Female", "Male", "Female", "Male", "Female", "Female"]
        + ["Male", "Male", "Female", "Female", "Male"],
        "Occupation": [
            "Assistant Data Protection Officer",
            "Lead IT Consultant",
            "Banker",
            "Database Administrator",
            "Chief Privacy Officer",
            "Regional Data Protection Officer",
            "Programmer",
            "IT Analyst",
            "Deputy Data Protection Officer",
            "Manager, DPO Office",
            "UX Designer",
        ],
        "Trips": [15, 2, 8, 3, 1, 5, 3, 4, 2, 11, 0],
    },
    index=pd.RangeIndex(1, 12, name="Serial number"),
)

# the guide's occupation groups
OCCUPATION_GROUPS = {
    "Assistant Data Protection Officer": "Data Protection Officer",
    "Chief Privacy Officer": "Data Protection Officer",
    "Regional Data Protection Officer": "Data Protection Officer",
    "Deputy Data Protection Officer": "Data Protection Officer",
    "Manager, DPO Office": "Data Protection Officer",
    "Lead IT Consultant": "IT",
    "Database Administrator": "IT",
    "Programmer": "IT",
    "IT Analyst": "IT",
    "UX Designer": "IT",
}


def test_guide_annex_c_taxi_example_suppresses_only_the_banker():
    generalised = generalise_edges(
        TAXI, "Age", edges=[20, 30, 40], labels=["21 to 30", "31 to 40"], right=True
    )
    generalised = generalise_mapping(generalised, "Occupation", mapping=OCCUPATION_GROUPS)
    # the guide's table after generalisation (before suppression)
    assert generalised["Age"].tolist() == ["21 to 30", "31 to 40", "21 to 30", "31 to 40"] + [
        "21 to 30",
        "21 to 30",
        "31 to 40",
        "31 to 40",
        "21 to 30",
        "21 to 30",
        "31 to 40",
    ]
    assert generalised.loc[3, "Occupation"] == "Banker"
    out = suppress_below_k(generalised, ["Age", "Gender", "Occupation"], k=5)
    assert out.index.tolist() == [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]
    pdt.assert_frame_equal(out, generalised.drop(index=3))
    sizes = out.groupby(["Age", "Gender", "Occupation"]).size()
    assert sorted(sizes.tolist()) == [5, 5]


def test_suppress_below_k_of_one_keeps_everything():
    pdt.assert_frame_equal(suppress_below_k(TAXI, ["Age"], k=1), TAXI)


def test_suppress_below_k_rejects_bad_k():
    with pytest.raises(ParameterError, match="'k'"):
        suppress_below_k(TAXI, ["Age"], k=0)


def test_remove_columns():
    out = remove_columns(TAXI, ["Occupation", "Trips"])
    assert out.columns.tolist() == ["Age", "Gender"]
    assert remove_columns(TAXI, "Age").columns.tolist() == ["Gender", "Occupation", "Trips"]
    with pytest.raises(ColumnNotFoundError, match="'Name'"):
        remove_columns(TAXI, ["Name"])


def test_suppress_records_conditions():
    assert suppress_records(TAXI, column="Occupation", equals="Banker").index.tolist() == [
        1,
        2,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        11,
    ]
    assert suppress_records(TAXI, column="Age", isin=[38, 25]).index.tolist() == [
        1,
        4,
        5,
        6,
        8,
        10,
        11,
    ]
    # Age < 25: rows 1 (21) and 10 (23); Age > 34: rows 2 and 7 (38)
    assert suppress_records(TAXI, column="Age", less_than=25).index.tolist() == [
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
        11,
    ]
    assert 2 not in suppress_records(TAXI, column="Age", greater_than=34).index
    assert len(suppress_records(TAXI, column="Age", greater_than=34)) == 9


def test_suppress_records_keeps_missing_values():
    df = pd.DataFrame({"a": [1.0, np.nan, 10.0]})
    assert suppress_records(df, column="a", greater_than=5).index.tolist() == [0, 1]
    assert suppress_records(df, column="a", less_than=5).index.tolist() == [1, 2]


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"equals": 1, "isin": [1]},
        {"less_than": 3, "greater_than": 5},
        {"isin": "Banker"},
        {"less_than": "3"},
    ],
)
def test_suppress_records_needs_exactly_one_valid_condition(kwargs):
    with pytest.raises(ParameterError):
        suppress_records(TAXI, column="Age", **kwargs)


def test_suppress_records_numeric_condition_on_text_names_row():
    with pytest.raises(ParameterError, match="row 1"):
        suppress_records(TAXI, column="Gender", less_than=3)


small_tables = st.integers(0, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.sampled_from(["a", "b", "c", None]), min_size=n, max_size=n),
        st.lists(st.integers(0, 3), min_size=n, max_size=n),
    )
)


@settings(max_examples=50, deadline=None)
@given(table=small_tables, k=st.integers(1, 6))
def test_property_suppress_below_k_leaves_classes_of_at_least_k(table, k):
    letters, numbers = table
    df = pd.DataFrame({"x": letters, "y": numbers, "z": range(len(numbers))})
    before = df.copy()
    out = suppress_below_k(df, ["x", "y"], k=k)
    pdt.assert_frame_equal(df, before)  # input never mutated
    sizes = out.groupby(["x", "y"], dropna=False).size()
    assert (sizes >= k).all()
    # nothing removed that was in a class of k or more (sizes computed independently)
    full_sizes = df.groupby(["x", "y"], dropna=False)["z"].transform("size")
    assert set(out["z"]) == set(df.loc[full_sizes >= k, "z"])


@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.one_of(st.none(), st.integers(-5, 5)), max_size=20))
def test_property_suppress_records_never_mutates(values):
    df = pd.DataFrame({"a": pd.array(values, dtype="Int64"), "b": range(len(values))})
    before = df.copy()
    suppress_records(df, column="a", less_than=0)
    suppress_records(df, column="a", equals=1)
    remove_columns(df, "b")
    pdt.assert_frame_equal(df, before)


# --- classes failing privacy models (ARX semantics) ----------------------------------------

# Hand-made: class A (3 records, one disease), class B (4 records, two diseases, 3:1),
# class C (2 records, two diseases). Whole table: flu 6/9, cold 3/9.
MODELS = pd.DataFrame(
    {
        "zip": ["A"] * 3 + ["B"] * 4 + ["C"] * 2,
        "disease": ["flu"] * 3 + ["flu", "flu", "flu", "cold"] + ["cold", "cold"],
    }
)


def test_suppress_failing_classes_by_hand():
    from core.techniques.suppression import suppress_failing_classes

    def kept(**models):
        return sorted(set(suppress_failing_classes(MODELS, ["zip"], **models)["zip"]))

    l2 = {"sensitive": "disease", "l": 2}
    assert kept(l_diversity=l2) == ["B"]  # A has one value; C has one value (cold, cold)
    assert kept(k=3) == ["A", "B"]
    assert kept(k=3, l_diversity=l2) == ["B"]  # failing either model removes the class
    # Equal-distance EMD: A = 0.5 (|1 - 6/9| + |0 - 3/9|) = 1/3; B: 0.5 (|3/4 - 2/3| +
    # |1/4 - 1/3|) = 1/12; C = 2/3. t = 0.34 keeps A and B.
    assert kept(t_closeness={"sensitive": "disease", "t": 0.34}) == ["A", "B"]
    # alpha: largest share A 1, B 3/4, C 1.
    assert kept(alpha_k={"sensitive": "disease", "alpha": 0.8}) == ["B"]
    # beta (basic): gain of flu in A (1 - 2/3) / (2/3) = 0.5; cold in C (1 - 1/3) / (1/3) = 2.
    assert kept(beta_likeness={"sensitive": "disease", "beta": 1}) == ["A", "B"]
    # delta: A |ln(1 / (2/3))| = 0.405; B max(|ln(0.75 / (2/3))|, |ln(0.25 / (1/3))|) =
    # 0.288; C |ln(1 / (1/3))| = 1.099.
    assert kept(delta_disclosure={"sensitive": "disease", "delta": 0.9}) == ["A", "B"]
    assert kept(delta_disclosure={"sensitive": "disease", "delta": 0.4}) == ["B"]
    # recursive (c,2): r1 < c * r2; B: 3 < c * 1 needs c > 3.
    rec = {"sensitive": "disease", "l": 2, "kind": "recursive", "c": 3.5}
    assert kept(l_diversity=rec) == ["B"]
    assert kept(l_diversity={**rec, "c": 3}) == []
    pdt.assert_frame_equal(MODELS, MODELS.copy())  # input unchanged


def test_suppress_failing_classes_rejects_bad_models():
    from core.techniques.suppression import suppress_failing_classes

    with pytest.raises(ParameterError, match="l_diversity.*sensitive"):
        suppress_failing_classes(MODELS, ["zip"], l_diversity={"l": 2})
    with pytest.raises(ParameterError, match="does not take 'x'"):
        suppress_failing_classes(MODELS, ["zip"], t_closeness={"sensitive": "disease", "x": 1})
    with pytest.raises(ParameterError, match="needs 't'"):
        suppress_failing_classes(MODELS, ["zip"], t_closeness={"sensitive": "disease"})
    with pytest.raises(ColumnNotFoundError, match="zipp"):
        suppress_failing_classes(MODELS, ["zipp"], k=2)
    with pytest.raises(ColumnNotFoundError, match="diseas"):
        suppress_failing_classes(MODELS, ["zip"], alpha_k={"sensitive": "diseas", "alpha": 0.5})
    with pytest.raises(ParameterError, match="'c'"):
        suppress_failing_classes(
            MODELS, ["zip"], l_diversity={"sensitive": "disease", "l": 2, "kind": "recursive"}
        )


def test_recipe_step_with_models_resolves_to_failing_classes():
    from core.techniques.registry import resolve

    call = resolve(
        {
            "step": "suppress_records",
            "below_k": 2,
            "quasi_identifiers": ["zip"],
            "l_diversity": {"sensitive": "disease", "l": 2},
        }
    )
    assert call.function == "suppress_failing_classes"
    assert call.kwargs == {"k": 2, "l_diversity": {"sensitive": "disease", "l": 2}}
    with pytest.raises(RecipeError, match="go with 'below_k'"):
        resolve(
            {
                "step": "suppress_records",
                "where": {"column": "zip", "equals": "A"},
                "alpha_k": {"sensitive": "disease", "alpha": 0.5},
            }
        )
