"""core.birthdate: observed vs modelled uniqueness on date of birth, sex and locality."""

from __future__ import annotations

import pandas as pd
import pytest

from core.birthdate import (
    birthday_curves,
    cell_shares_from_table,
    date_like_columns,
    observed_uniqueness,
)
from core.errors import ColumnNotFoundError, ParameterError

P = 364 / 365


def _table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "dob": ["1980-01-02", "1980-01-02", "1980-05-06", "1981-01-02", "1980-01-02", None],
            "sex": ["F", "F", "F", "F", "M", "F"],
            "postal": ["123456", "123999", "124000", "123111", "123456", "123456"],
        }
    )


def test_observed_and_predicted_by_hand() -> None:
    df = _table()
    before = df.copy()
    result = observed_uniqueness(
        df, date_of_birth="dob", sex="sex", locality="postal", locality_prefix=2
    )
    pd.testing.assert_frame_equal(df, before)
    # locality "12" for all; rows 0 and 1 share (1980-01-02, F): 3 of 5 readable are unique
    assert (result.records, result.skipped, result.observed_unique) == (5, 1, 3)
    assert result.observed_share == pytest.approx(3 / 5)
    # cells (year, sex): (1980, F) has 3 records, (1981, F) 1, (1980, M) 1
    assert result.predicted_share == pytest.approx((3 * P**2 + 1 + 1) / 5)
    assert result.localities == 1


def test_whole_locality_values() -> None:
    result = observed_uniqueness(_table(), date_of_birth="dob", sex="sex", locality="postal")
    # every readable record has its own postal code except rows 0 and 4 (different sex)
    assert result.observed_unique == 5
    assert result.localities == 4


def test_day_first_dates_and_missing_column() -> None:
    df = pd.DataFrame({"dob": ["02/01/1980", "02/01/1980"], "sex": ["F", "F"], "town": ["A", "A"]})
    result = observed_uniqueness(df, date_of_birth="dob", sex="sex", locality="town")
    assert result.observed_unique == 0 and result.predicted_share == pytest.approx(P)
    with pytest.raises(ColumnNotFoundError):
        observed_uniqueness(df, date_of_birth="dob", sex="gender", locality="town")


def test_two_digit_birth_years_are_in_the_past() -> None:
    # 02/01/42 is the same birth as 02/01/1942 (pandas alone reads 2042): one class of two.
    df = pd.DataFrame({"dob": ["02/01/42", "02/01/1942"], "sex": ["F", "F"], "town": ["A", "A"]})
    result = observed_uniqueness(df, date_of_birth="dob", sex="sex", locality="town")
    assert result.observed_unique == 0


def test_date_like_columns() -> None:
    df = _table().assign(n=[1, 2, 3, 4, 5, 6], when=pd.to_datetime(["2020-01-01"] * 6))
    assert date_like_columns(df) == ["dob", "when"]


def test_birthday_curves_match_eq_1_by_hand() -> None:
    curves = birthday_curves(300).set_index(["population", "q"])["probability"]
    assert curves[(250, 1)] == pytest.approx(P**249)
    assert curves[(250, 2)] == pytest.approx(249 * (1 / 365) * P**248)
    assert curves[(3, 4)] == 0.0


def test_cell_shares_from_counts() -> None:
    shares = cell_shares_from_table(pd.DataFrame({"share": [10, 30, 60]}))
    assert shares.tolist() == pytest.approx([0.1, 0.3, 0.6])
    with pytest.raises(ParameterError, match="row 2"):
        cell_shares_from_table(pd.DataFrame({"share": [1, -1]}))
    with pytest.raises(ParameterError):
        cell_shares_from_table(pd.DataFrame({"share": [0, 0]}))
