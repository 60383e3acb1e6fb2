"""Tests of core.utility with hand-computed entropies and changes."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from core.utility import column_loss, entropy, utility_report


def test_entropy_by_hand():
    assert entropy(pd.Series(["a", "b", "a", "b"])) == pytest.approx(1.0)
    assert entropy(pd.Series(["a", "a"])) == 0.0
    # shares 1/2, 1/4, 1/4 -> 0.5*1 + 2*0.25*2 = 1.5 bits
    assert entropy(pd.Series(["a", "a", "b", "c"])) == pytest.approx(1.5)


def test_generalisation_loss_by_hand():
    before = pd.Series([21, 24, 31, 38], name="age")  # 4 distinct: 2 bits
    after = pd.Series(["21-30", "21-30", "31-40", "31-40"], name="age")  # 2 bands: 1 bit
    loss = column_loss(before, after)
    assert loss.entropy_loss == pytest.approx(0.5)
    assert loss.changed == 1.0
    assert (loss.distinct_before, loss.distinct_after) == (4, 2)
    assert loss.mean_abs_change is None  # not numeric after


def test_perturbation_figures_by_hand():
    before = pd.Series([160, 177, 158], name="height")
    after = pd.Series([160, 175, 160], name="height")  # base-5 rounding, guide Annex A
    loss = column_loss(before, after)
    assert loss.changed == pytest.approx(2 / 3)
    assert loss.mean_abs_change == pytest.approx((0 + 2 + 2) / 3)
    assert loss.mean_shift == pytest.approx((0 - 2 + 2) / 3)


def test_suppressed_rows_are_not_counted_as_changed():
    before = pd.DataFrame({"a": ["x", "y", "z"], "b": [1, 2, 3]})
    after = before.drop(index=1)
    report = utility_report(before, after)
    assert report.records_suppressed == 1
    assert report.share_suppressed == pytest.approx(1 / 3)
    assert all(c.changed == 0 for c in report.columns)


def test_removed_column_loses_everything():
    before = pd.DataFrame({"name": ["Alex", "Bosco"], "age": [25, 54]})
    report = utility_report(before, before.drop(columns="name"))
    by_column = {c.column: c for c in report.columns}
    assert by_column["name"].status == "removed"
    assert by_column["name"].entropy_loss == 1.0
    assert by_column["age"].status == "unchanged"
    assert math.isclose(by_column["age"].entropy_loss, 0.0)
    assert "removed" in by_column["name"].explanation()


def test_il1s_by_hand_as_sdcmicro():
    # sdcMicro dUtility(method="IL1s"): sum |x - x'| / (sqrt(2) * sd(x)), sd with n - 1.
    # x = 1, 2, 3, 4 (sd = sqrt(5/3)); only the last moves, by 2.
    before = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "y": [10.0, 10.0, 20.0, 20.0]})
    after = pd.DataFrame({"x": [1.0, 2.0, 3.0, 6.0], "y": [10.0, 10.0, 20.0, 20.0]})
    report = utility_report(before, after)
    x = report.columns[0]
    expected = 2 / (math.sqrt(2) * math.sqrt(5 / 3))
    assert x.il1s == pytest.approx(expected)
    assert x.il1s_mean == pytest.approx(expected / 4)
    assert report.columns[1].il1s == 0
    assert report.il1s == pytest.approx(expected)
    assert "IL1s" in x.explanation()


def test_blanks_from_local_suppression_count_as_changed():
    before = pd.DataFrame({"age": [30, 30, 40, 41], "sex": ["M", "M", "F", "F"]})
    after = before.assign(age=pd.array([30, 30, 40, None], dtype="Int64"))
    report = utility_report(before, after)
    age = report.columns[0]
    assert age.changed == pytest.approx(0.25)
    assert age.il1s == 0  # the blank has no value to compare: left out, as sdcMicro
    assert report.columns[1].changed == 0


def test_unchanged_column_explains_loss_from_suppressed_records():
    # a: x, x, y, z (H = 1.5 bits); record 3 (z) suppressed leaves x, x, y:
    # H = -(2/3 log2 2/3 + 1/3 log2 1/3) = 0.9183, loss = 1 - 0.9183 / 1.5 = 38.8%.
    before = pd.DataFrame({"a": ["x", "x", "y", "z"]})
    loss = utility_report(before, before.drop(index=3)).columns[0]
    assert loss.status == "unchanged"
    assert loss.explanation() == (
        "'a' is unchanged in the records kept; the 38.8% of its information lost is from "
        "the suppressed records."
    )
