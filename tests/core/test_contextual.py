"""Tests of core.contextual: locational disclosure risk (Witkowski 2007, Sections 3.b and 4.d).

Every expected number is worked out by hand in the comments, or computed with a plain
pandas group-by written here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.contextual import (
    TOP_BOTTOM,
    Coarsening,
    Thresholds,
    absolute_codes,
    assess,
    combined_view,
    infer_scale,
    percentile_codes,
    percentile_edges,
    prepare,
    recode_absolute,
    recode_percentile,
    suppress_contextual,
    suppress_until_safe,
    sweep,
)
from core.errors import ColumnNotFoundError, ParameterError
from core.io import read_table
from core.recipe import Recipe, apply_recipe

ROOT = Path(__file__).resolve().parents[2]

# Five areas, one measure x. Matchsets on exact x: {A, B, E} (x=10), {C} (x=20), {D} (x=30).
AREAS = pd.DataFrame(
    {
        "area": ["A", "B", "C", "D", "E"],
        "population": [500, 500, 5000, 500, 500],
        "x": [10.0, 10.0, 20.0, 30.0, 10.0],
    }
)
# Six respondents: r1, r2 in A; r3 in B; r4, r5 in C; r6 in D; nobody in E.
RECORDS = pd.DataFrame(
    {
        "id": ["r1", "r2", "r3", "r4", "r5", "r6"],
        "area": ["A", "A", "B", "C", "C", "D"],
        "sex": ["F", "F", "M", "F", "M", "F"],
    }
)
SMALL = Thresholds(t1=3, t3=2, t5=1000)


def test_hand_worked_components_and_lr():
    # T1 = 3, T3 = 2, T5 = 1000.
    # Matchset sizes: A, B, E -> 3; C -> 1; D -> 1. Pinpointed (< 3): C and D = 2 areas.
    # Sample matches: x=10 -> r1, r2, r3 = 3; x=20 -> r4, r5 = 2; x=30 -> r6 = 1.
    # Sample unique (< 2): r6.
    # At risk = sample unique OR (pinpointed AND population < 1000):
    #   r1-r3 safe (matchset 3, 3 matches); r4, r5 pinpointed but C has 5000 people and 2
    #   sample matches -> protected; r6 sample unique (and pinpointed, small) -> at risk.
    # LR = 1/6. In pinpointed areas: r4, r5, r6 = 3/6; protected: r4, r5 = 2/6.
    data = prepare(RECORDS, AREAS, contextual=["x"], area_key="area")
    result = assess(data, thresholds=SMALL)
    assert result.lr == pytest.approx(1 / 6)
    assert result.pinpointed_areas == 2
    assert result.respondents_in_pinpointed == pytest.approx(3 / 6)
    assert result.respondents_sample_unique == pytest.approx(1 / 6)
    assert result.respondents_pinpointed_or_unique == pytest.approx(3 / 6)
    assert result.respondents_protected == pytest.approx(2 / 6)
    assert result.record_at_risk.tolist() == [False] * 5 + [True]
    assert result.at_risk_areas() == ["D"]
    table = result.areas.set_index("area")
    assert table["matchset_size"].to_dict() == {"A": 3, "B": 3, "C": 1, "D": 1, "E": 3}
    assert table["respondents"].to_dict() == {"A": 2, "B": 1, "C": 2, "D": 1, "E": 0}


def test_without_t5_protection_the_pinpointed_area_counts():
    # Same table, T5 = 10,000: C (5000 people) is no longer protected -> r4, r5, r6 at risk.
    data = prepare(RECORDS, AREAS, contextual=["x"], area_key="area")
    result = assess(data, thresholds=Thresholds(t1=3, t3=2, t5=10_000))
    assert result.lr == pytest.approx(3 / 6)


def test_weights_give_weighted_share():
    # Weights 1,1,1,1,1,5: at risk only r6 -> LR = 5 / (5 + 5) = 0.5.
    records = RECORDS.assign(w=[1, 1, 1, 1, 1, 5])
    data = prepare(records, AREAS, contextual=["x"], area_key="area", weight="w")
    assert assess(data, thresholds=SMALL).lr == pytest.approx(0.5)


def test_merged_values_without_key_use_smallest_population_of_the_matchset():
    # A now has 5000 people, T1 = 4, so the x=10 matchset (A, B, E: 3 areas) is pinpointed.
    # With the key: r1, r2 live in A (5000 >= 1000, 3 sample matches) -> protected;
    #   r3 in B (500) -> at risk; r6 sample unique -> at risk; r4, r5 protected. LR = 2/6.
    # Without the key the area is unknown; the smallest area of {A, B, E} has 500 people,
    #   so r1, r2, r3 are all at risk, plus r6: LR = 4/6.
    areas = AREAS.assign(population=[5000, 500, 5000, 500, 500])
    t = Thresholds(t1=4, t3=2, t5=1000)
    keyed = prepare(RECORDS, areas, contextual=["x"], area_key="area")
    assert assess(keyed, thresholds=t).lr == pytest.approx(2 / 6)
    merged = RECORDS.drop(columns="area").assign(x=[10.0, 10, 10, 20, 20, 30])
    unkeyed = prepare(merged, areas, contextual=["x"], area_key="area")
    assert assess(unkeyed, thresholds=t).lr == pytest.approx(4 / 6)


def test_two_variables_and_sweep_over_subsets():
    # y splits the x=10 matchset: A, B have y=1, E has y=2. T1 = 2, T3 = 1, T5 = 10**9.
    # x alone: matchsets {A,B,E}=3, {C}=1, {D}=1 -> pinpointed C, D; respondents r4-r6 = 3/6.
    # y alone: y = [1, 1, 1, 1, 2] -> {A,B,C,D}=4, {E}=1; nobody lives in E -> LR 0.
    # x + y: {A,B}=2, {C}=1, {D}=1, {E}=1 -> r4, r5, r6 at risk -> 3/6.
    areas = AREAS.assign(y=[1.0, 1, 1, 1, 2])
    data = prepare(RECORDS, areas, contextual=["x", "y"], area_key="area")
    table = sweep(data, thresholds=Thresholds(t1=2, t3=1, t5=10**9), options=[Coarsening()])
    lr = dict(zip(table["variables"], table["lr"], strict=True))
    assert lr == pytest.approx({"x": 3 / 6, "y": 0.0, "x + y": 3 / 6})
    pinpointed = dict(zip(table["variables"], table["pinpointed_areas"], strict=True))
    assert pinpointed == {"x": 2, "y": 1, "x + y": 3}


def test_sweep_has_every_option_for_every_subset():
    areas = AREAS.assign(y=[1.0, 1, 1, 1, 2], z=[3.0, 4, 5, 6, 7])
    data = prepare(RECORDS, areas, contextual=["x", "y", "z"], area_key="area")
    table = sweep(data)
    # 7 non-empty subsets of 3 variables x 13 options (exact + 6 absolute + 6 percentile)
    assert len(table) == 7 * 13
    assert set(table["method"]) == {"exact", "absolute", "percentile"}


def test_combined_view_k_within_matchsets():
    # Personal QI: sex. Within x=10: r1 F, r2 F (k=2), r3 M (k=1); x=20: r4 F, r5 M (k=1
    # each); x=30: r6 F (k=1). T3 = 2: r3, r4, r5, r6 fail C_i,j -> LR = 4/6, k = 1.
    data = prepare(RECORDS, AREAS, contextual=["x"], area_key="area")
    view = combined_view(data, RECORDS, ["sex"], thresholds=SMALL)
    assert view.k == 1
    assert view.record_k.tolist() == [2, 2, 1, 1, 1, 1]
    assert view.records_below_t3 == 4
    assert view.lr == pytest.approx(4 / 6)
    assert view.lr_contextual_only == pytest.approx(1 / 6)


def test_suppressing_the_at_risk_area_removes_its_risk():
    data = prepare(RECORDS, AREAS, contextual=["x"], area_key="area")
    assert assess(data, thresholds=SMALL, suppressed_areas=["D"]).lr == 0.0


def test_suppression_repeats_until_safe():
    # X (5000 people) and Y (500) share x=1; T1 = 3 so both are pinpointed. One respondent
    # each: 2 sample matches -> C holds; X is protected by population, Y is at risk.
    # Suppress Y -> X's values now have 1 sample match -> at risk -> suppress X. LR then 0.
    areas = pd.DataFrame({"area": ["X", "Y"], "population": [5000, 500], "x": [1.0, 1.0]})
    records = pd.DataFrame({"area": ["X", "Y"]})
    data = prepare(records, areas, contextual=["x"], area_key="area")
    suppressed, after = suppress_until_safe(data, thresholds=SMALL)
    assert suppressed == ["Y", "X"]
    assert after.lr == 0.0


# --------------------------------------------------------------------------- coarsening


def test_absolute_codes_follow_the_papers_table():
    percent = infer_scale(np.array([0.0, 100.0]))
    # 72% in 10% categories -> [70, 80) (Section 4.b example); 100% closes the last category.
    assert absolute_codes(np.array([72.0, 100.0, 9.99]), 10, percent).tolist() == [7, 9, 0]
    # 15%: 0-14, 15-29, ..., 75-89, 90-100 -> 7 categories, 90 and 100 in the last (code 6).
    assert absolute_codes(np.array([89.9, 90.0, 100.0]), 15, percent).tolist() == [5, 6, 6]
    # Proportions: 0.29 is 29% (not 28.999...%).
    proportion = infer_scale(np.array([0.0, 0.5]))
    assert proportion.kind == "proportion"
    assert absolute_codes(np.array([0.29, 0.07]), 1, proportion).tolist() == [29, 7]
    # Top/Bottom-25%: below 25 bottom (0), 75 or more top (2), other (1); NaN -> -1.
    codes = absolute_codes(np.array([24.9, 25.0, 74.9, 75.0, np.nan]), TOP_BOTTOM, percent)
    assert codes.tolist() == [0, 1, 1, 2, -1]


def test_recode_absolute_labels_and_range_scale():
    df = pd.DataFrame({"share": [72.0, 100.0, np.nan], "income": [1000.0, 5500.0, 10000.0]})
    out = recode_absolute(df, ["share", "income"], width=10)
    assert out["share"].tolist()[:2] == ["[70, 80)", "[90, 100]"]
    assert out["share"].isna().tolist() == [False, False, True]
    # income spans 1000-10000: 10% categories of 900 each; 5500 is 50% of the range.
    assert out["income"].tolist() == ["[1000, 1900)", "[5500, 6400)", "[9100, 10000]"]
    assert df["share"].iloc[0] == 72.0  # input unchanged


def test_percentile_edges_by_hand():
    # Values 1..10 into 5 groups: groups start at positions ceil(j*10/5) = 2, 4, 6, 8
    # -> cut points 3, 5, 7, 9 -> groups {1,2}, {3,4}, {5,6}, {7,8}, {9,10}.
    values = np.arange(1.0, 11.0)
    edges = percentile_edges(values, 5)
    assert edges == [3.0, 5.0, 7.0, 9.0]
    assert percentile_codes(values, edges).tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    out = recode_percentile(pd.DataFrame({"v": values}), "v", groups=5, edges={"v": edges})
    assert out["v"].iloc[0] == "P1 of 5 [-inf, 3)"


def test_recipe_steps_run_through_the_registry():
    df = pd.DataFrame({"area": ["A", "B"], "x": [12.0, 57.0]})
    recipe = Recipe(
        steps=(
            {"step": "contextual_absolute", "columns": ["x"], "width": 20},
            {
                "step": "contextual_suppress",
                "columns": ["x"],
                "area_column": "area",
                "areas": ["B"],
            },
        )
    )
    out = apply_recipe(df, recipe).data
    assert out["x"].iloc[0] == "[0, 20)"
    assert pd.isna(out["x"].iloc[1])
    pct = apply_recipe(
        df,
        Recipe(
            steps=(
                {
                    "step": "contextual_percentile",
                    "columns": "x",
                    "groups": 2,
                    "edges": {"x": [50.0]},
                },
            )
        ),
    ).data
    assert pct["x"].tolist() == ["P1 of 2 [-inf, 50)", "P2 of 2 [50, inf)"]


def test_suppress_contextual_empties_only_listed_areas():
    df = pd.DataFrame({"area": [1, 2, 1], "x": [1, 2, 3]})
    out = suppress_contextual(df, "x", area_column="area", areas=["1"])
    assert out["x"].isna().tolist() == [True, False, True]
    assert df["x"].tolist() == [1, 2, 3]


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("areas", "records", "error", "words"),
    [
        (AREAS.drop(columns="area"), RECORDS, ColumnNotFoundError, ["'area'", "area table"]),
        (
            AREAS,
            RECORDS.assign(area=["A", "A", "B", "C", "Z", "Q"]),
            ParameterError,
            ["2 respondent(s)", "'Z'", "'Q'", "row 5", "area table"],
        ),
        (
            AREAS.assign(x=["10", "10", "20", "thirty", "10"]),
            RECORDS,
            ParameterError,
            ["'x'", "row 4", "'thirty'"],
        ),
        (
            AREAS.assign(area=["A", "B", "C", "A", "E"]),
            RECORDS,
            ParameterError,
            ["duplicated", "'A'", "1, 4", "one row per area"],
        ),
        (
            AREAS.assign(x=[10.0, None, 20, 30, 10]),
            RECORDS,
            ParameterError,
            ["empty", "'x'", "row 2", "'B'"],
        ),
        (AREAS.assign(population=[5, -1, 5, 5, 5]), RECORDS, ParameterError, ["negative", "row 2"]),
        (AREAS, RECORDS.drop(columns="area"), ColumnNotFoundError, ["neither", "'area'", "merge"]),
    ],
)
def test_bad_inputs_give_documented_errors(areas, records, error, words):
    with pytest.raises(error) as caught:
        prepare(records, areas, contextual=["x"], area_key="area")
    for word in words:
        assert word in str(caught.value)


def test_bad_parameters():
    with pytest.raises(ParameterError, match="width"):
        Coarsening("absolute", width=0)
    with pytest.raises(ParameterError, match="groups"):
        Coarsening("percentile", groups=1)
    with pytest.raises(ParameterError, match="t1"):
        Thresholds(t1=0)


# --------------------------------------------------------------------------- independent check


def test_sample_data_lr_matches_a_pandas_groupby():
    areas = read_table(ROOT / "sample_data" / "singapore_areas.csv")
    records = read_table(ROOT / "sample_data" / "survey_respondents.csv")
    cols = ["share_poverty", "share_degree"]
    # 10% absolute categories by hand: floor(value / 10), 100 goes to the top category 9
    coded = areas[["subzone", "population"]].copy()
    for c in cols:
        coded[c] = np.minimum(np.floor(areas[c] / 10), 9)
    coded["matches"] = coded.groupby(cols)["subzone"].transform("size")
    merged = records[["subzone"]].merge(coded, on="subzone", how="left")
    merged["sample"] = merged.groupby(cols)["subzone"].transform("size")
    risk = (merged["sample"] < 3) | ((merged["matches"] < 20) & (merged["population"] < 100_000))
    data = prepare(records, areas, contextual=cols, area_key="subzone")
    result = assess(data, coarsening=Coarsening("absolute", width=10))
    assert result.lr == pytest.approx(risk.mean())
    assert result.pinpointed_areas == int((coded["matches"] < 20).sum())


# --------------------------------------------------------------------------- properties

percent_values = st.lists(
    st.floats(0, 100, allow_nan=False, allow_subnormal=False), min_size=1, max_size=60
)


@settings(max_examples=60, deadline=None)
@given(values=percent_values, other=st.integers(0, 3), t1=st.integers(1, 12))
def test_nested_coarsenings_never_increase_pinpointed_areas(values, other, t1):
    n = len(values)
    areas = pd.DataFrame(
        {
            "area": [f"a{i}" for i in range(n)],
            "population": 1,
            "x": values,
            "y": [(v * 7 + other * 13) % 100 for v in values],
        }
    )
    data = prepare(areas[["area"]], areas, contextual=["x", "y"], area_key="area")
    counts = [
        assess(
            data, coarsening=Coarsening("absolute", width=w), thresholds=Thresholds(t1=t1)
        ).pinpointed_areas
        for w in (1, 5, 10, 20)
    ]
    assert counts == sorted(counts, reverse=True)


@settings(max_examples=80, deadline=None)
@given(
    values=st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=200, unique=True),
    groups=st.integers(2, 30),
)
def test_percentile_recoding_gives_equal_sized_groups(values, groups):
    v = np.asarray(values, dtype=float) / 7
    codes = percentile_codes(v, percentile_edges(v, groups))
    sizes = np.bincount(codes, minlength=groups)
    assert sizes.size == groups
    assert sizes.max() - sizes.min() <= 1


@settings(max_examples=60, deadline=None)
@given(
    distinct=st.lists(st.integers(0, 100), min_size=1, max_size=5, unique=True),
    t1=st.integers(1, 6),
    extra=st.integers(0, 3),
    per_area=st.integers(3, 5),
)
def test_lr_is_zero_when_every_area_has_t1_look_alikes(distinct, t1, extra, per_area):
    # every value repeated t1 + extra times among areas; each area has >= T3 = 3 respondents
    x = np.repeat(np.asarray(distinct, dtype=float), t1 + extra)
    areas = pd.DataFrame({"area": np.arange(x.size), "population": 10, "x": x})
    records = pd.DataFrame({"area": np.repeat(areas["area"].to_numpy(), per_area)})
    data = prepare(records, areas, contextual=["x"], area_key="area")
    result = assess(data, thresholds=Thresholds(t1=t1))
    assert result.pinpointed_areas == 0
    assert result.lr == 0.0


@settings(max_examples=30, deadline=None)
@given(values=percent_values, width=st.sampled_from([1, 5, 10, 15, 20, TOP_BOTTOM]))
def test_recoding_never_mutates_input(values, width):
    df = pd.DataFrame({"x": values})
    before = df.copy()
    recode_absolute(df, "x", width=width)
    recode_percentile(df, "x", groups=4)
    pd.testing.assert_frame_equal(df, before)
