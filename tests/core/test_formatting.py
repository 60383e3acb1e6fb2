"""The one number formatter (issue 17, "Numbers"); expected texts written by hand."""

from __future__ import annotations

import math

import pytest

from core.formatting import (
    fmt_change,
    fmt_count,
    fmt_number,
    fmt_percent,
    fmt_probability,
    fmt_value,
    json_figures,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [(14021, "14,021"), (95000, "95,000"), (95000.0, "95,000"), (0, "0"), (7.6, "8"), (None, "-")],
)
def test_counts_have_thousands_separators(value, text):
    assert fmt_count(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.004918, "0.00492"),  # the 0.004918 vs 0.0049: three significant digits
        (0.0049, "0.0049"),  # trailing zeros are not invented
        (0.05, "0.05"),
        (1.0, "1"),
        (0.2, "0.2"),
        (1 / 3, "0.333"),
        (0.09996, "0.1"),
        (math.nan, "-"),
    ],
)
def test_probabilities_have_three_significant_digits(value, text):
    assert fmt_probability(value) == text


def test_numbers_keep_whole_digits_and_units():
    assert fmt_number(1234567.8) == "1,234,568"
    assert fmt_number(123.45) == "123"
    assert fmt_number(12.345) == "12.3"
    assert fmt_number(0.000123) == "0.000123"
    assert fmt_number(120, unit="m") == "120 m"
    assert fmt_number(-2.5) == "-2.5"
    assert fmt_number(math.inf) == "∞"


@pytest.mark.parametrize(
    ("share", "text"),
    [
        (1.0, "100%"),  # exact: no ".0"
        (0.25, "25%"),
        (0.0342, "3.4%"),
        (0.0013, "0.13%"),
        (0.5005, "50%"),  # 50.05 -> one decimal: "50.0" is shown without the ".0"
        (0.99999, ">99.9%"),  # never "100%" when not all
        (0.00001, "<0.01%"),  # never "0%" when not none
        (0.0, "0%"),
        (None, "-"),
    ],
)
def test_percentages_use_the_precision_they_need(share, text):
    assert fmt_percent(share) == text


def test_value_picks_the_kind():
    assert fmt_value(14021) == "14,021"
    assert fmt_value(3.0) == "3"
    assert fmt_value(0.004918) == "0.00492"
    assert fmt_value("x") == "x"
    assert fmt_value(None) == "-"


def test_a_change_within_float_rounding_reads_zero():
    # Issue 29: the sidebar showed "↓ -1.39e-17 against the threshold 0.1" for an Annex D
    # P(re-ID) of 0.6 / 6 (P(attempt) 0.6, k = 6), which is the threshold 0.1 itself.
    assert 0.6 / 6 - 0.1 != 0  # the float difference the old delta printed
    assert fmt_change(0.6 / 6, 0.1) == "0"
    assert fmt_change(0.05, 0.1) == "-0.05"
    assert fmt_change(0.3, 0.1) == "+0.2"
    assert fmt_change(12.5, 10, 4) == "+2.5"


def test_figures_written_to_json_lose_only_the_float_noise():
    # Issue 29: report.json held 0.09999999999999999 (0.6 / 6 written as Python holds it).
    data = {"p": 0.6 / 6, "k": 6, "rows": [1 / 3, "x", None, True], "nan": float("inf")}
    assert json_figures(data) == {
        "p": 0.1,
        "k": 6,
        "rows": [0.3333333333, "x", None, True],
        "nan": float("inf"),
    }
