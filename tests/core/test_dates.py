"""Tests of core.dates against NIST SP 800-188 4.3.4 and hand calculations."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.dates import age_from_dob, perturb_ages, perturb_intervals, shift_dates
from core.errors import ParameterError
from core.recipe import Recipe, apply_recipe
from core.techniques.generalisation import generalise_dates


def visits() -> pd.DataFrame:
    """Admissions and discharges of three patients (NIST's example is the first row)."""
    return pd.DataFrame(
        {
            "patient": ["p1", "p1", "p2", "p3", "p3", "p3"],
            "admitted": [
                "1776-07-04",
                "1777-01-10",
                "2020-02-28",
                "2023-12-30",
                None,
                "2024-03-01",
            ],
            "discharged": [
                "1776-07-09",
                "1777-01-12",
                "2020-03-01",
                "2024-01-02",
                "2024-02-10",
                "2024-03-01",
            ],
        }
    )


def as_dates(series: pd.Series) -> pd.Series:
    return pd.to_datetime(series)


def person_intervals(df: pd.DataFrame) -> dict[str, list[int]]:
    """Days from each person's first date to each of their dates (by hand, with pandas)."""
    long = df.melt(id_vars="patient", value_vars=["admitted", "discharged"]).dropna()
    long["value"] = pd.to_datetime(long["value"])
    first = long.groupby("patient")["value"].transform("min")
    long["days"] = (long["value"] - first).dt.days
    return {p: g.sort_index()["days"].tolist() for p, g in long.groupby("patient")}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), keep_weekday=st.booleans())
def test_shifting_keeps_every_interval_of_one_person(seed, keep_weekday):
    df = visits()
    out = shift_dates(
        df,
        ["admitted", "discharged"],
        by="patient",
        max_days=400,
        keep_weekday=keep_weekday,
        seed=seed,
    )
    assert person_intervals(out) == person_intervals(df)
    # NIST's example: admitted July 4, discharged July 9 -> still 5 days apart.
    assert (as_dates(out.loc[0, "discharged"]) - as_dates(out.loc[0, "admitted"])).days == 5


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_weekday_is_kept_when_asked(seed):
    df = visits()
    out = shift_dates(df, ["admitted", "discharged"], by="patient", keep_weekday=True, seed=seed)
    for column in ("admitted", "discharged"):
        before, after = as_dates(df[column]), as_dates(out[column])
        assert before.dt.day_of_week.equals(after.dt.day_of_week)
        moved = (after - before).dt.days.dropna()
        assert (moved % 7 == 0).all() and (moved != 0).all()


def test_offsets_stay_within_bounds_and_differ_between_people():
    n = 2000
    df = pd.DataFrame({"id": np.arange(n), "d": ["2020-06-15"] * n})
    out = shift_dates(df, "d", by="id", min_days=10, max_days=30, seed=3)
    moved = (as_dates(out["d"]) - pd.Timestamp("2020-06-15")).dt.days
    assert moved.abs().between(10, 30).all()
    assert (moved > 0).any() and (moved < 0).any()  # both directions occur
    assert moved.nunique() == 42  # every offset in -30..-10 and 10..30 is drawn


def test_shift_never_mutates_and_keeps_missing_and_datetimes():
    df = visits().assign(admitted=lambda d: pd.to_datetime(d["admitted"]))
    before = df.copy()
    out = shift_dates(df, ["admitted"], by="patient", seed=1)
    pd.testing.assert_frame_equal(df, before)
    assert pd.api.types.is_datetime64_any_dtype(out["admitted"])
    assert out["admitted"].isna().tolist() == df["admitted"].isna().tolist()


def test_keep_weekday_needs_a_whole_week():
    with pytest.raises(ParameterError, match="whole week"):
        shift_dates(visits(), "admitted", max_days=5, keep_weekday=True, seed=1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), max_days=st.integers(1, 10))
def test_interval_perturbation_keeps_the_order_of_events(seed, max_days):
    df = visits()
    out = perturb_intervals(
        df, ["admitted", "discharged"], by="patient", max_days=max_days, seed=seed
    )
    for patient, group in df.groupby("patient"):
        old = pd.to_datetime(group[["admitted", "discharged"]].stack()).to_numpy()
        new = pd.to_datetime(out.loc[group.index, ["admitted", "discharged"]].stack()).to_numpy()
        order = np.argsort(old, kind="stable")
        gaps_old = np.diff(old[order]).astype("timedelta64[D]").astype(int)
        gaps_new = np.diff(new[order]).astype("timedelta64[D]").astype(int)
        assert new[order][0] == old[order][0], patient  # first date stays
        assert ((gaps_new > 0) == (gaps_old > 0)).all()  # order kept, ties stay ties
        assert (np.abs(gaps_new - gaps_old) <= max_days).all()


def test_generalise_dates_reuses_the_guide_labels():
    out = generalise_dates(visits(), ["admitted", "discharged"], unit="quarter")
    assert out.loc[0, "admitted"] == "1776-Q3" and out.loc[2, "discharged"] == "2020-Q1"


# --- ages --------------------------------------------------------------------------


def test_age_from_date_of_birth_by_hand():
    df = pd.DataFrame({"dob": ["1990-06-15", "1990-06-16", "2000-02-29", "1930-01-01", None]})
    out = age_from_dob(df, "dob", reference_date="2025-06-15")
    # 1990-06-15: 35th birthday today -> 35; one day younger -> 34; 29 Feb 2000 -> 25;
    # born 1930 -> 95 -> top-coded "90+" (HIPAA Safe Harbor).
    assert out["age"].tolist()[:4] == ["35", "34", "25", "90+"]
    assert pd.isna(out["age"].iloc[4])
    assert "dob" not in out.columns
    numbers = age_from_dob(df, "dob", reference_date="2025-02-28", top=None, keep_dob=True)
    assert numbers["age"].iloc[2] == 24  # 29 February birthday not yet reached on 28 February
    assert list(numbers.columns) == ["dob", "age"]


def test_age_from_dob_refuses_births_after_the_reference_date():
    with pytest.raises(ParameterError, match="row 1"):
        age_from_dob(pd.DataFrame({"dob": ["2030-01-01"]}), "dob", reference_date="2025-01-01")


def test_two_digit_birth_years_are_in_the_past():
    # dd/mm/yy: pandas alone reads '31' as 2031 and '42' as 2042, births after the reference
    # date. A birth cannot be in the future, so such a year is in the previous century.
    df = pd.DataFrame({"dob": ["15/08/31", "01/01/05", "02/01/42", "02/01/35", "28/11/26"]})
    out = age_from_dob(df, "dob", reference_date="2026-11-28", top=None)
    # By hand on 2026-11-28: 1931-08-15 -> 95; 2005-01-01 -> 21; 1942-01-02 -> 84;
    # 1935-01-02 -> 91; 2026-11-28 (born today, not after it) -> 0.
    assert out["age"].tolist() == [95, 21, 84, 91, 0]
    top_coded = age_from_dob(df, "dob", reference_date="2026-11-28")
    assert top_coded["age"].tolist() == ["90+", "21", "84", "90+", "0"]


def test_a_four_digit_future_birth_is_still_refused():
    # Only a year written with two digits is ambiguous; 2042 written in full is an error.
    with pytest.raises(ParameterError, match="row 1"):
        age_from_dob(pd.DataFrame({"dob": ["02/01/2042"]}), "dob", reference_date="2026-11-28")


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_age_perturbation_follows_nist(seed):
    ages = np.arange(0, 100)
    df = pd.DataFrame({"age": ages})
    out = perturb_ages(df, "age", max_years=2, above=25, milestones=(62, 65), margin=1, seed=seed)
    new = out["age"].to_numpy()
    assert (new[ages <= 25] == ages[ages <= 25]).all()  # 25 and under: untouched
    protected = [61, 62, 63, 64, 65, 66]  # milestones and their neighbours
    assert (new[protected] == protected).all()
    assert (np.abs(new - ages) <= 2).all()
    others = (ages > 25) & ~np.isin(ages, protected)
    assert (new[others] > 25).all()
    assert not np.isin(new[others], protected).any()  # nobody moved into a milestone zone
    assert ((new[others] < 62) == (ages[others] < 62)).all()  # nobody crosses a milestone


def test_age_perturbation_changes_ages_and_leaves_labels():
    df = pd.DataFrame({"age": ["40", "90+", None, "30"] * 50})
    out = perturb_ages(df, "age", seed=8)
    assert (out["age"][df["age"] == "90+"] == "90+").all()
    assert out["age"].isna().sum() == 50
    changed = out["age"][df["age"] == "40"].astype(int)
    assert changed.between(38, 42).all() and changed.nunique() > 1


def test_date_steps_run_from_a_recipe():
    recipe = Recipe(
        steps=(
            {
                "step": "date_shift",
                "columns": ["admitted", "discharged"],
                "by": "patient",
                "keep_weekday": True,
            },
            {
                "step": "age_from_dob",
                "column": "admitted",
                "reference_date": "2025-01-01",
                "top": None,
                "new_column": "years",
            },
            {"step": "age_perturb", "column": "years"},
        ),
        seed=5,
    )
    out = apply_recipe(visits(), recipe).data
    assert "years" in out.columns and "admitted" not in out.columns


def test_slash_dates_are_read_day_first_as_the_guide_writes_them():
    """PDPC guide, Step 1 Example 1 writes dates of birth day first (08/01/1971 for Sandy
    Thomas, 31/12/1973 for Bosco Wood). On 1 March 2025, 8 January 1971 makes her 54 (born
    in January); read month first (1 August 1971) she would be 53. No pandas format
    warning reaches the user."""
    import warnings

    staff = pd.DataFrame({"Date of birth": ["08/01/1971", "15/05/1976", "31/12/1973"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = age_from_dob(staff, "Date of birth", reference_date="2025-03-01", top=None)
    # 8 Jan 1971 -> 54; 15 May 1976 -> 48 (birthday not reached); 31 Dec 1973 -> 51.
    assert out["age"].tolist() == [54, 48, 51]
