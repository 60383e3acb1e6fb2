"""Hand examples for the hierarchy builders of core/hierarchy.py (PDPC guide, Annex A)."""

from __future__ import annotations

import pandas as pd
import pytest

from core.errors import ParameterError
from core.hierarchy import (
    build_hierarchy,
    date_hierarchy,
    grouping_hierarchy,
    masking_hierarchy,
    numeric_hierarchy,
    read_hierarchy,
    store_hierarchy,
    write_hierarchy,
)


def _row(h, value: str) -> list[str]:
    table = h.levels
    return table[table[0] == value].iloc[0].tolist()


def test_numeric_intervals_of_growing_width():
    h = numeric_hierarchy(pd.Series([39, 17, 90, 39]), (5, 10, 20, 40))
    # Anchored at 0 (largest multiple of 40 not above 17): 39 is in [35,40), [30,40), ...
    assert _row(h, "39") == ["39", "35-39", "30-39", "20-39", "0-39", "*"]
    assert _row(h, "17") == ["17", "15-19", "10-19", "0-19", "0-39", "*"]
    assert _row(h, "90") == ["90", "90-94", "90-99", "80-99", "80-119", "*"]
    assert h.height == 5 and len(h.values) == 3
    with pytest.raises(ParameterError, match="whole multiple"):
        numeric_hierarchy([1, 2], (5, 8))
    with pytest.raises(ParameterError, match="not one"):
        numeric_hierarchy(["x"], (5,))


def test_date_hierarchy_month_year():
    h = date_hierarchy(["2003-02-15", "1999-12-31"], ("month", "quarter", "year", "decade"))
    assert _row(h, "2003-02-15") == ["2003-02-15", "2003-02", "2003-Q1", "2003", "2000s", "*"]
    assert _row(h, "1999-12-31") == ["1999-12-31", "1999-12", "1999-Q4", "1999", "1990s", "*"]
    with pytest.raises(ParameterError, match="not a date"):
        date_hierarchy(["2003-02-15", "soon"])
    with pytest.raises(ParameterError, match="fine to coarse"):
        date_hierarchy(["2003-02-15"], ("year", "month"))


def test_masking_hierarchy_postal_code():
    h = masking_hierarchy(["235546", "12"])
    assert _row(h, "235546") == ["235546", "23554*", "2355**", "235***", "23****", "2*****", "*"]
    assert _row(h, "12") == ["12", "1*", "**", "**", "**", "**", "*"]


def test_grouping_hierarchy_from_mappings():
    h = grouping_hierarchy(
        ["Tamil", "Malay", "Hokkien"],
        [{"Tamil": "Indian", "Hokkien": "Chinese"}, {"Indian": "Asian", "Chinese": "Asian"}],
    )
    assert _row(h, "Tamil") == ["Tamil", "Indian", "Asian", "*"]
    assert _row(h, "Malay") == ["Malay", "Malay", "Malay", "*"]  # not listed: kept
    other = grouping_hierarchy(["a", "b"], {"a": "A"}, other="rest")
    assert _row(other, "b") == ["b", "rest", "*"]


def test_builders_round_trip_through_arx_files(tmp_path):
    h = numeric_hierarchy(range(20, 30), (5, 10))
    path = tmp_path / "age.csv"
    write_hierarchy(h, path)
    assert path.read_text().splitlines()[0] == "20;20-24;20-29;*"
    back = read_hierarchy(path)
    assert back.levels.equals(h.levels)
    first = store_hierarchy(h, tmp_path / "store", stem="age")
    again = store_hierarchy(h, tmp_path / "store", stem="age")
    assert first == again and read_hierarchy(first).levels.equals(h.levels)


def test_build_hierarchy_auto_picks_a_builder():
    ages = build_hierarchy(pd.Series([17, 39, 90], name="age"))
    assert _row(ages, "39") == ["39", "35-39", "30-39", "20-39", "0-39", "*"]
    codes = build_hierarchy(pd.Series(["235546", "123456"], name="postal"))
    assert _row(codes, "235546")[1:3] == ["23554*", "2355**"]
    sex = build_hierarchy(pd.Series(["M", "F"], name="sex"))
    assert _row(sex, "F") == ["F", "*"]
    with pytest.raises(ParameterError, match="kind"):
        build_hierarchy(pd.Series(["M"]), "nope")


def test_masking_hierarchy_matches_masking_each_value_by_hand():
    """The vectorised builder against the rule written value by value (an independent
    method): varied lengths, characters beyond ASCII, a value longer than the height."""
    values = ["235546", "12", "5", "S1234567D", "Tân Ah Kôw", "ab"]
    h = masking_hierarchy(values, char="#")
    for level in range(1, h.height):
        expected = [v[: max(len(v) - level, 0)] + "#" * min(level, len(v)) for v in h.values]
        assert h.levels[level].tolist() == expected, level
    assert set(h.levels[h.height]) == {"*"} and h.height == len("Tân Ah Kôw")
    short = masking_hierarchy(["235546", "12"], height=3)  # a rule's height: * at level 3
    assert short.levels.iloc[0].tolist() == ["235546", "23554*", "2355**", "*"]
