"""Malay and Indonesian month names in dates (issue 26): "12 Ogos 1985" is a date of
birth for Step 1, the free-text scanner and Safe Harbor's identifier C."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from core.dates import english_month_names, parse_dates
from core.detect import find_entities
from core.safe_harbor import apply_safe_harbor
from core.schema import suggest_roles


@pytest.mark.parametrize(
    ("written", "day"),
    [
        ("12 Ogos 1985", "1985-08-12"),  # ms
        ("12 Agustus 1985", "1985-08-12"),  # id
        ("3 Mac 1950", "1950-03-03"),  # ms
        ("3 Maret 1950", "1950-03-03"),  # id
        ("1 Januari 2000", "2000-01-01"),
        ("29 Februari 1996", "1996-02-29"),
        ("7 Mei 1977", "1977-05-07"),
        ("30 Jun 1981", "1981-06-30"),
        ("30 Juni 1981", "1981-06-30"),
        ("4 Julai 1969", "1969-07-04"),
        ("4 Juli 1969", "1969-07-04"),
        ("15 SEPTEMBER 1990", "1990-09-15"),
        ("9 Oktober 1944", "1944-10-09"),
        ("11 November 1918", "1918-11-11"),
        ("25 Disember 2001", "2001-12-25"),
        ("25 desember 2001", "2001-12-25"),
        ("2 Okt. 1970", "1970-10-02"),
        ("Marso 12, 1986", "1986-03-12"),  # tl
        ("2 Disyembre 1933", "1933-12-02"),  # tl
        ("9 Setyembre 1975", "1975-09-09"),  # tl
        ("12 marzo 1985", "1985-03-12"),  # es
        ("12 août 1985", "1985-08-12"),  # fr
        ("1 février 2000", "2000-02-01"),  # fr
        ("3. März 1990", "1990-03-03"),  # de
        ("24 Dezember 1960", "1960-12-24"),  # de
    ],
)
def test_each_month_is_read(written: str, day: str) -> None:
    parsed = parse_dates(pd.Series([written]), "tarikh_lahir")
    assert parsed.iloc[0] == pd.Timestamp(day)


def test_month_words_are_replaced_whole_only() -> None:
    values = pd.Series(["12 Ogos 1985", "Desa Mac Ritchie", 12, None, "dismissed"])
    out = english_month_names(values)
    assert out.tolist()[:2] == ["12 Aug 1985", "Desa Mar Ritchie"]
    assert out.iloc[2] == 12 and out.iloc[3] is None and out.iloc[4] == "dismissed"


def test_a_column_of_malay_dates_is_a_date_of_birth_and_safe_harbor_keeps_the_year() -> None:
    table = pd.DataFrame(
        {"c9": ["12 Ogos 1985", "3 Mac 1950", "21 Disember 1990", "9 Julai 1962", "14 Mei 1931"]}
    )
    (suggestion,) = suggest_roles(table)
    assert suggestion.kind == "date_of_birth"
    out = apply_safe_harbor(table, reference_date=dt.date(2026, 1, 1)).data["c9"]
    # 45 CFR 164.514(b)(2)(i)(C): the year only; born 14 May 1931, 94 on 1 Jan 2026: no year
    assert out.tolist()[:4] == ["1985", "1950", "1990", "1962"]
    assert pd.isna(out.iloc[4]) or "1931" not in str(out.iloc[4])


def test_in_free_text() -> None:
    text = "Lahir 12 Ogos 1985; datang 3 Maret 2024, temujanji 18 Disember. Mei Ling sihat."
    dates = [e.text for e in find_entities(text) if e.kind == "date"]
    assert dates == ["12 Ogos 1985", "3 Maret 2024", "18 Disember"]
