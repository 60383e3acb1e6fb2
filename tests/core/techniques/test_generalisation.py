"""Tests for core/techniques/generalisation.py (PDPC guide, Annex A: Generalisation)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ColumnNotFoundError, ParameterError
from core.hierarchy import Hierarchy
from core.techniques.generalisation import (
    generalise_bands,
    generalise_date,
    generalise_edges,
    generalise_hierarchy,
    generalise_mapping,
    top_bottom_code,
)

# PDPC guide, Annex A, Generalisation example (13 people)
PEOPLE = pd.DataFrame(
    {
        "Person": [357703, 233121, 938637, 591493, 202626, 888948, 175878]
        + [312304, 214025, 271714, 341338, 529057, 390438],
        "Age": [24, 31, 44, 29, 23, 75, 28, 50, 30, 37, 22, 25, 39],
        "Address": [
            "700 Toa Payoh Lorong 5",
            "800 Ang Mo Kio Avenue 12",
            "900 Jurong East Street 70",
            "750 Toa Payoh Lorong 5",
            "5 Tampines Street 90",
            "1 Stonehenge Road",
            "10 Tampines Street 90",
            "50 Jurong East Street 70",
            "720 Toa Payoh Lorong 5",
            "830 Ang Mo Kio Avenue 12",
            "15 Tampines Street 90",
            "18 Tampines Street 90",
            "840 Ang Mo Kio Avenue 12",
        ],
    },
    index=pd.RangeIndex(1, 14, name="Serial number"),
)
GUIDE_AGES = ["21-30", "31-40", "41-50", "21-30", "21-30", "> 60", "21-30"] + [
    "41-50",
    "21-30",
    "31-40",
    "21-30",
    "21-30",
    "31-40",
]
GUIDE_ADDRESSES = [
    "Toa Payoh Lorong 5",
    "Ang Mo Kio Avenue 12",
    "Jurong East Street 70",
    "Toa Payoh Lorong 5",
    "Tampines Street 90",
    "Stonehenge Road",
    "Tampines Street 90",
    "Jurong East Street 70",
    "Toa Payoh Lorong 5",
    "Ang Mo Kio Avenue 12",
    "Tampines Street 90",
    "Tampines Street 90",
    "Ang Mo Kio Avenue 12",
]


def test_guide_annex_a_ages_into_custom_ranges():
    out = generalise_edges(
        PEOPLE,
        "Age",
        edges=[-np.inf, 20, 30, 40, 50, 60, np.inf],
        labels=["< 20", "21-30", "31-40", "41-50", "51-60", "> 60"],
        right=True,  # the guide puts 30 in 21-30 and 50 in 41-50
    )
    assert out["Age"].tolist() == GUIDE_AGES
    pdt.assert_index_equal(out.index, PEOPLE.index)


def test_guide_annex_a_default_labels_for_the_same_edges():
    out = generalise_edges(PEOPLE, "Age", edges=[-np.inf, 20, 30, 40, 50, 60, np.inf], right=True)
    expected = [label.replace("> ", ">").replace("< ", "<=") for label in GUIDE_AGES]
    assert out["Age"].tolist() == expected


def test_guide_annex_a_address_keeps_the_road_name():
    # the rule "drop the block/house number": everything after the first space
    mapping = {address: address.split(" ", 1)[1] for address in PEOPLE["Address"].unique()}
    out = generalise_mapping(PEOPLE, "Address", mapping=mapping)
    assert out["Address"].tolist() == GUIDE_ADDRESSES


def test_guide_annex_b_five_year_ranges():
    """Annex B: 24 -> 21 to 25, 39 -> 36 to 40, 18 -> 16 to 20."""
    df = pd.DataFrame({"age": [24, 39, 18]})
    out = generalise_edges(df, "age", edges=list(range(0, 105, 5)), right=True)
    assert out["age"].tolist() == ["21-25", "36-40", "16-20"]


def test_guide_annex_b_race_others():
    df = pd.DataFrame({"race": ["Indian", "Chinese", "Chinese", "Malay", "Eurasian"]})
    out = generalise_mapping(df, "race", mapping={"Chinese": "Chinese"}, other="Others")
    assert out["race"].tolist() == ["Others", "Chinese", "Chinese", "Others", "Others"]


def test_mapping_keeps_unmapped_values_and_missing():
    df = pd.DataFrame({"job": ["CEO", "Nurse", None, "CFO"]})
    out = generalise_mapping(df, "job", mapping={"CEO": "C-level", "CFO": "C-level"})
    assert out["job"].tolist()[:2] == ["C-level", "Nurse"]
    assert pd.isna(out["job"].iloc[2])
    assert out["job"].iloc[3] == "C-level"
    out = generalise_mapping(df, "job", mapping={"CEO": "C-level"}, other="Other")
    assert pd.isna(out["job"].iloc[2])
    with pytest.raises(ParameterError, match="mapping"):
        generalise_mapping(df, "job", mapping={})


def test_bands_labels():
    df = pd.DataFrame({"age": [20, 29, 30, 45, 59, 60, 99, np.nan]})
    out = generalise_bands(df, "age", width=10)
    assert out["age"].tolist()[:7] == ["20-29", "20-29", "30-39", "40-49", "50-59"] + [
        "60-69",
        "90-99",
    ]
    assert pd.isna(out["age"].iloc[7])


def test_bands_bottom_and_top_coding():
    df = pd.DataFrame({"age": [5, 19, 20, 29, 59, 60, 95]})
    out = generalise_bands(df, "age", width=10, bottom=20, top=60)
    assert out["age"].tolist() == ["<20", "<20", "20-29", "20-29", "50-59", ">=60", ">=60"]


def test_band_cut_by_top_ends_below_it():
    df = pd.DataFrame({"age": [60, 64, 65]})
    assert generalise_bands(df, "age", width=10, start=0, top=65)["age"].tolist() == [
        "60-64",
        "60-64",
        ">=65",
    ]


def test_bands_start_anchors_the_grid():
    df = pd.DataFrame({"age": [24, 25, 34, 35]})
    assert generalise_bands(df, "age", width=10, start=5)["age"].tolist() == [
        "15-24",
        "25-34",
        "25-34",
        "35-44",
    ]


def test_bands_fractional_width_uses_interval_labels():
    df = pd.DataFrame({"x": [0.1, 0.6]})
    assert generalise_bands(df, "x", width=0.5, start=0)["x"].tolist() == ["[0, 0.5)", "[0.5, 1)"]


def test_bands_reject_text_naming_the_row():
    df = pd.DataFrame({"age": ["20", "thirty", "40"]})
    with pytest.raises(ParameterError, match=r"row 2 \('thirty'\)"):
        generalise_bands(df, "age", width=10)


@pytest.mark.parametrize(
    "kwargs",
    [{"width": 0}, {"width": -5}, {"width": 10, "bottom": 60, "top": 20}, {"width": "10"}],
)
def test_bands_bad_parameters(kwargs):
    with pytest.raises(ParameterError):
        generalise_bands(pd.DataFrame({"age": [1]}), "age", **kwargs)


def test_edges_errors():
    df = pd.DataFrame({"age": [10, 50]})
    with pytest.raises(ParameterError, match="row 2"):
        generalise_edges(df, "age", edges=[0, 20, 40])
    with pytest.raises(ParameterError, match="increasing"):
        generalise_edges(df, "age", edges=[0, 40, 20])
    with pytest.raises(ParameterError, match="one label per band"):
        generalise_edges(df, "age", edges=[0, 20, 60], labels=["young"])
    with pytest.raises(ColumnNotFoundError):
        generalise_edges(df, "Age", edges=[0, 100])


def test_edges_right_false_is_left_closed():
    df = pd.DataFrame({"x": [0, 9, 10, 19]})
    assert generalise_edges(df, "x", edges=[0, 10, 20])["x"].tolist() == ["0-9", "0-9"] + [
        "10-19",
        "10-19",
    ]


def test_top_bottom_code():
    df = pd.DataFrame({"income": [500, 2500.5, 12000, np.nan]})
    out = top_bottom_code(df, "income", bottom=1000, top=10000)
    assert out["income"].tolist()[:3] == ["<1000", "2500.5", ">=10000"]
    assert pd.isna(out["income"].iloc[3])
    assert top_bottom_code(df, "income", top=10000)["income"].tolist()[0] == "500"
    with pytest.raises(ParameterError):
        top_bottom_code(df, "income")


def test_hierarchy_technique_delegates_to_hierarchy():
    h = Hierarchy(pd.DataFrame([["a", "A", "*"], ["b", "A", "*"], ["c", "C", "*"]]))
    df = pd.DataFrame({"v": ["a", "c", None]})
    out = generalise_hierarchy(df, "v", hierarchy=h, level=1)
    assert out["v"].tolist()[:2] == ["A", "C"]
    assert pd.isna(out["v"].iloc[2])
    with pytest.raises(ParameterError, match="Hierarchy"):
        generalise_hierarchy(df, "v", hierarchy={"a": "A"}, level=1)


DATES = pd.DataFrame({"dob": ["1 Feb 2003", "15 Aug 1990", "30 Dec 1998", None]})


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        # Annex B: 1 Feb 2003 -> Feb 2003, 15 Aug 1990 -> Aug 1990, 30 Dec 1998 -> Dec 1998
        ("month", ["2003-02", "1990-08", "1998-12"]),
        ("year", ["2003", "1990", "1998"]),
        ("quarter", ["2003-Q1", "1990-Q3", "1998-Q4"]),
    ],
)
def test_guide_annex_b_dates(unit, expected):
    out = generalise_date(DATES, "dob", unit=unit)
    assert out["dob"].tolist()[:3] == expected
    assert pd.isna(out["dob"].iloc[3])


def test_date_weeks_match_the_iso_calendar():
    out = generalise_date(DATES, "dob", unit="week")
    days = [dt.date(2003, 2, 1), dt.date(1990, 8, 15), dt.date(1998, 12, 30)]
    expected = [f"{d.isocalendar()[0]}-W{d.isocalendar()[1]:02d}" for d in days]
    assert out["dob"].tolist()[:3] == expected


def test_date_dayfirst():
    df = pd.DataFrame({"d": ["01/02/2003", "13/02/2003"]})
    assert generalise_date(df, "d", unit="month", dayfirst=True)["d"].tolist() == [
        "2003-02",
        "2003-02",
    ]
    df = pd.DataFrame({"d": ["01/02/2003"]})
    assert generalise_date(df, "d", unit="month")["d"].tolist() == ["2003-01"]


def test_date_mixed_formats_and_datetime_columns():
    df = pd.DataFrame({"d": ["2003-02-01", "15 Aug 1990"]})
    assert generalise_date(df, "d", unit="year")["d"].tolist() == ["2003", "1990"]
    df = pd.DataFrame({"d": pd.to_datetime(["2003-02-01", None])})
    out = generalise_date(df, "d", unit="month")["d"]
    assert out.iloc[0] == "2003-02"
    assert pd.isna(out.iloc[1])


def test_date_errors_name_the_row():
    df = pd.DataFrame({"d": ["2003-02-01", "2003-02-02", "someday"]})
    with pytest.raises(ParameterError, match=r"row 3 \('someday'\)"):
        generalise_date(df, "d", unit="year")
    with pytest.raises(ParameterError, match="'unit'"):
        generalise_date(df, "d", unit="day")


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(-200, 200), min_size=1, max_size=30),
    width=st.integers(1, 20),
    factor=st.integers(1, 5),
)
def test_property_wider_nested_bands_never_add_distinct_values(values, width, factor):
    """Bands of width ``factor * width`` on the same grid (start 0) are unions of bands of
    width ``width``, so they cannot produce more distinct labels. (Widths that are not
    multiples of each other are not comparable: {3, 5} is one band of width 3 starting at 3
    but two bands of width 4 starting at 0.)"""
    df = pd.DataFrame({"v": values})
    narrow = generalise_bands(df, "v", width=width, start=0)["v"].nunique()
    wide = generalise_bands(df, "v", width=width * factor, start=0)["v"].nunique()
    assert wide <= narrow
    # and the default start is aligned to the width, so the same holds without start
    assert (
        generalise_bands(df, "v", width=width * factor)["v"].nunique()
        <= generalise_bands(df, "v", width=width)["v"].nunique()
    )


@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.one_of(st.none(), st.floats(-1e6, 1e6)), min_size=1, max_size=20))
def test_property_generalisers_never_mutate_and_keep_missing(values):
    df = pd.DataFrame({"v": values, "w": range(len(values))})
    before = df.copy()
    outs = [
        generalise_bands(df, "v", width=7.5, bottom=-100, top=100),
        generalise_edges(df, "v", edges=[-np.inf, 0, np.inf]),
        top_bottom_code(df, "v", bottom=-10, top=10),
        generalise_mapping(df, "v", mapping={0.0: "zero"}, other="other"),
    ]
    pdt.assert_frame_equal(df, before)
    for out in outs:
        assert out["v"].isna().tolist() == df["v"].isna().tolist()
        pdt.assert_series_equal(out["w"], df["w"])
