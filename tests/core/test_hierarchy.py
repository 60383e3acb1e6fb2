"""Tests for core/hierarchy.py (ARX-format generalisation hierarchies)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest

from core.errors import DataReadError, ParameterError
from core.hierarchy import Hierarchy, read_hierarchy, write_hierarchy
from core.techniques.generalisation import generalise_hierarchy


def _rows(path) -> dict[str, list[str]]:
    """The file read independently with the csv module: value -> [level 0, 1, ...]."""
    with open(path, newline="", encoding="utf-8") as handle:
        return {row[0]: row for row in csv.reader(handle, delimiter=";") if row}


def test_adult_age_hierarchy_matches_the_file(adult_hierarchies_dir):
    path = adult_hierarchies_dir / "adult_hierarchy_age.csv"
    rows = _rows(path)
    h = read_hierarchy(path)
    assert h.height == len(rows["39"]) - 1
    ages = pd.Series([39, 39, 39, 39], name="age")
    for level in range(h.height + 1):
        assert h.generalise(ages, level).tolist() == [rows["39"][level]] * 4
    assert h.generalise(ages, h.height).iloc[0] == "*"
    assert len(h.values) == len(rows)


def test_adult_table_generalises_completely(adult, adult_hierarchies_dir):
    """Every age and education in adult.csv is in its hierarchy; compare with the csv map."""
    for column in ("age", "education"):
        path = adult_hierarchies_dir / f"adult_hierarchy_{column}.csv"
        rows = _rows(path)
        h = read_hierarchy(path)
        sample = adult[column].iloc[:500]
        out = generalise_hierarchy(adult.iloc[:500], column, hierarchy=h, level=1)[column]
        assert out.tolist() == [rows[str(value)][1] for value in sample]


def test_missing_value_names_value_and_row():
    h = Hierarchy(pd.DataFrame([["a", "A", "*"], ["b", "A", "*"]]))
    with pytest.raises(ParameterError, match=r"'zz' in column 'v' \(row 3\)"):
        h.generalise(pd.Series(["a", "b", "zz", "yy"], name="v"), 1)


def test_missing_values_stay_missing_and_numbers_match_as_text():
    h = Hierarchy(pd.DataFrame([["39", "35-39", "*"], ["40", "40-44", "*"]]))
    out = h.generalise(pd.Series([39.0, np.nan, 40.0]), 1)
    assert out.tolist()[0] == "35-39"
    assert pd.isna(out.iloc[1])
    assert out.iloc[2] == "40-44"


def test_level_out_of_range():
    h = Hierarchy(pd.DataFrame([["a", "*"]]))
    assert h.height == 1
    with pytest.raises(ParameterError, match="between 0 and 1"):
        h.generalise(pd.Series(["a"]), 2)
    with pytest.raises(ParameterError, match="'level'"):
        h.generalise(pd.Series(["a"]), -1)


def test_round_trip(tmp_path, adult_hierarchies_dir):
    original = read_hierarchy(adult_hierarchies_dir / "adult_hierarchy_education.csv")
    target = tmp_path / "education.csv"
    write_hierarchy(original, target)
    again = read_hierarchy(target)
    pdt.assert_frame_equal(again.levels, original.levels)
    # the written file is byte-for-byte ARX-style: no header, no index
    first = target.read_text(encoding="utf-8").splitlines()[0]
    assert first == ";".join(original.levels.iloc[0])


def test_round_trip_other_separator(tmp_path):
    h = Hierarchy(pd.DataFrame([["NA", "Unknown", "*"], ["x;y", "Other", "*"]]))
    write_hierarchy(h, tmp_path / "h.csv", sep=",")
    again = read_hierarchy(tmp_path / "h.csv", sep=",")
    pdt.assert_frame_equal(again.levels, h.levels)
    assert again.values == ["NA", "x;y"]  # "NA" is text, not a missing value


def test_read_from_buffer():
    h = read_hierarchy(io.StringIO("Male;*\nFemale;*\n"))
    assert h.generalise(pd.Series(["Female"]), 1).tolist() == ["*"]


def test_bad_hierarchies(tmp_path):
    with pytest.raises(ParameterError, match="'a' twice"):
        Hierarchy(pd.DataFrame([["a", "*"], ["a", "*"]]))
    with pytest.raises(ParameterError, match="row 2, level 1"):
        read_hierarchy(io.StringIO("a;A;*\nb;;*\n"))
    with pytest.raises(DataReadError, match="does not exist"):
        read_hierarchy(tmp_path / "missing.csv")
    empty = tmp_path / "empty.csv"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(DataReadError):
        read_hierarchy(empty)


def test_levels_are_copied_not_shared():
    levels = pd.DataFrame([["a", "*"]])
    h = Hierarchy(levels)
    levels.iloc[0, 1] = "changed"
    assert h.generalise(pd.Series(["a"]), 1).tolist() == ["*"]


def test_integers_become_the_text_of_their_float_with_or_without_the_fast_path():
    from core._text import as_text, format_number

    values = [39, -5, 0, 2**53, -(2**53)]
    assert as_text(pd.Series(values)).tolist() == [
        "39",
        "-5",
        "0",
        "9007199254740992",
        "-9007199254740992",
    ]
    assert as_text(pd.Series([1, 2], dtype=np.uint8)).tolist() == ["1", "2"]
    # Beyond 2**53 a float cannot hold the integer: the text is the float's, as before.
    big = pd.Series([2**60 + 1])
    assert as_text(big).tolist() == [format_number(float(2**60 + 1))] == ["1152921504606847000"]
    assert as_text(pd.Series([], dtype="int64")).tolist() == []


# --- Hostile hierarchy files (issue 27): read_table's limits apply -----------------------


@pytest.mark.parametrize("as_upload", [False, True])
def test_a_line_of_thousands_of_levels_is_refused_at_once(tmp_path, as_upload):
    """20,001 cells on one line took 13 s (an 800 KB line: a minute and 1.8 GB)."""
    import time

    text = "a" + ";b" * 20_000 + "\n"
    path = tmp_path / "wide.csv"
    path.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(DataReadError, match=r"20,001 levels.*at most 100"):
        read_hierarchy(io.BytesIO(text.encode()) if as_upload else path)
    assert time.perf_counter() - started < 2


def test_a_device_is_not_read_as_a_hierarchy():
    """/dev/zero never ends: pandas read it until memory ran out."""
    with pytest.raises(DataReadError, match="not a regular file"):
        read_hierarchy("/dev/zero")


def test_a_hierarchy_larger_than_read_table_reads_is_refused(tmp_path, monkeypatch):
    import core.io.files

    monkeypatch.setattr(core.io.files, "MAX_FILE_BYTES", 64)
    big = "".join(f"v{i};*\n" for i in range(20))  # 150 bytes
    (tmp_path / "big.csv").write_text(big, encoding="utf-8")
    for source in (tmp_path / "big.csv", io.BytesIO(big.encode()), io.StringIO(big)):
        with pytest.raises(DataReadError, match="larger than"):
            read_hierarchy(source)
    assert read_hierarchy(io.StringIO(big[:50])).values == [f"v{i}" for i in range(10)]
