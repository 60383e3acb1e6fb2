"""core.io's text/number rule on the pyarrow path: the fast integer check and the regex
check must agree with the rule in the module docstring, value by value."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.io import read_table


def _column(values: list[str]) -> pd.Series:
    text = "v\n" + "\n".join(f'"{v}"' for v in values) + "\n"
    return read_table(text.encode(), name="t.csv")["v"]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["12", "-3", "0"], [12, -3, 0]),  # canonical integers: int64
        (["-0", "7"], [0, 7]),  # '-0' is a plain number, not a leading zero
        ([" 12", "3 "], [12, 3]),  # spaces around a number
        (["12", ""], [12.0, np.nan]),  # a blank makes it float, as pandas.to_numeric
        (["1e3", "2"], [1000.0, 2.0]),
        (["999999999999999", "1"], [999999999999999, 1]),  # 15 digits
    ],
)
def test_numbers(values, expected):
    column = _column(values)
    assert pd.api.types.is_numeric_dtype(column)
    assert column.tolist() == pytest.approx(expected, nan_ok=True)
    assert (column.dtype == np.int64) == all(isinstance(v, int) for v in expected)


@pytest.mark.parametrize(
    "values",
    [
        ["018956", "123"],  # leading zero: a postal code
        ["-01", "5"],
        ["+6591234567", "5"],  # telephone number
        ["1234567890123456", "1"],  # 16 digits: a card number
        ["12", "1,000"],  # thousands separator
        ["12", "NA"],  # NA is a value (Namibia), not missing
        ["0x1F", "5"],  # hexadecimal: pyarrow's cast to int64 reads it as 31
        ["-0x1F", "5"],
    ],
)
def test_text_stays_text(values):
    column = _column(values)
    assert column.tolist() == values


def test_leading_zero_after_the_first_thousand_rows_keeps_the_column_text():
    values = [str(i) for i in range(1, 1500)] + ["0042"]
    column = _column(values)
    assert column.tolist() == values
