"""Tests for scripts/make_sample_data.py and the committed sample_data/singapore_people.csv."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core.identifiers import valid_nric_mask
from core.io import read_table
from scripts import make_sample_data as msd

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "sample_data" / "singapore_people.csv"


COLUMNS = [
    "nric",
    "name",
    "date_of_birth",
    "sex",
    "race",
    "postal_code",
    "latitude",
    "longitude",
    "occupation",
    "diagnosis",
    "income",
    "email",
    "mobile",
]


@pytest.fixture(scope="module")
def people() -> pd.DataFrame:
    return read_table(COMMITTED)


def test_same_seed_gives_identical_bytes(tmp_path):
    a = msd.main(["--seed", "7", "--rows", "300", "--out", str(tmp_path / "a.csv")])
    b = msd.main(["--seed", "7", "--rows", "300", "--out", str(tmp_path / "b.csv")])
    c = msd.main(["--seed", "8", "--rows", "300", "--out", str(tmp_path / "c.csv")])
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()


def test_committed_file_is_the_default_output(tmp_path):
    out = msd.main(["--out", str(tmp_path / "default.csv")])
    assert out.read_bytes() == COMMITTED.read_bytes()


def test_row_count_and_columns(people, tmp_path):
    assert len(people) == 10_000
    assert list(people.columns) == COLUMNS
    small = read_table(msd.main(["--rows", "123", "--out", str(tmp_path / "s.csv")]))
    assert len(small) == 123


def test_all_nrics_valid_and_prefix_follows_birth_year(people):
    assert valid_nric_mask(people["nric"]).all()
    born_2000s = people["date_of_birth"].str[:4].astype(int) >= 2000
    assert (people["nric"].str[0] == np.where(born_2000s, "T", "S")).all()


def test_coordinates_inside_singapore_box(people):
    assert people["latitude"].between(1.25, 1.45).all()
    assert people["longitude"].between(103.62, 104.0).all()


def test_postal_codes_are_six_digit_text_with_real_sectors(people):
    codes = people["postal_code"]
    assert pd.api.types.is_string_dtype(codes)
    assert codes.str.fullmatch(r"\d{6}").all()
    sector = codes.str[:2].astype(int)
    # Singapore postal sectors run 01-82; there is no sector 74
    assert sector.between(1, 82).all() and not (sector == 74).any()
    assert codes.str.startswith("0").any()  # leading zeros survived writing and reading


def test_ages_between_18_and_90(people):
    dob = pd.to_datetime(people["date_of_birth"], format="%Y-%m-%d")
    ref = pd.Timestamp("2024-01-01")
    had_birthday = (dob.dt.month < ref.month) | (
        (dob.dt.month == ref.month) & (dob.dt.day <= ref.day)
    )
    age = ref.year - dob.dt.year - (~had_birthday).astype(int)
    assert age.min() >= 18 and age.max() <= 90


def test_race_shares_close_to_census(people):
    shares = people["race"].value_counts(normalize=True)
    # target 74/13/9/4 %; 10,000 draws -> standard error below 0.5 percentage points
    for race, target in [("Chinese", 0.74), ("Malay", 0.13), ("Indian", 0.09), ("Others", 0.04)]:
        assert abs(shares[race] - target) < 0.02


def test_other_columns_look_right(people):
    assert set(people["sex"]) == {"F", "M"}
    assert people["occupation"].nunique() == 20
    assert people["diagnosis"].nunique() == 15
    counts = people["diagnosis"].value_counts()
    assert counts.iloc[0] > 5 * counts.iloc[-1]  # skewed
    assert (people["income"] % 10 == 0).all() and (people["income"] > 0).all()
    assert people["email"].str.fullmatch(r"[a-z.]+\d+@[a-z.]+").all()
    assert people["mobile"].astype(str).str.fullmatch(r"[89]\d{7}").all()


def test_rows_must_be_positive():
    from core.errors import ParameterError

    with pytest.raises(ParameterError, match="rows"):
        msd.make_people(0)
