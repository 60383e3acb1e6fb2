"""Dates written "day month-word year" in Spanish, French, German, Malay, Indonesian,
Portuguese, Italian and Dutch (issue 26): found in free text (HIPAA §164.514(b)(2)(i)(C),
every element of a date but the year), read in a column, and not found in look-alikes.
Every example below is written by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from core.dates import parse_dates
from core.detect import find_entities
from core.schema import suggest_roles


@pytest.mark.parametrize(
    ("note", "date"),
    [
        ("Nació el 5 de mayo de 1990 en Sevilla.", "5 de mayo de 1990"),
        ("ingresó el 12 de diciembre del 1985", "12 de diciembre del 1985"),
        ("née le 5 mai 1990 à Lyon", "5 mai 1990"),
        ("né le 1er janvier 1979", "1er janvier 1979"),
        ("geboren am 5. Mai 1990 in Köln", "5. Mai 1990"),
        ("Aufnahme am 3. März 1988", "3. März 1988"),
        ("lahir pada 5 Mei 1990 di Ipoh", "5 Mei 1990"),
        ("lahir 17 Agustus 1985 di Bandung", "17 Agustus 1985"),
        ("nasceu em 5 de maio de 1990", "5 de maio de 1990"),
        ("nato il 3 maggio 1987", "3 maggio 1987"),
        ("geboren op 12 maart 1990", "12 maart 1990"),
    ],
)
def test_a_date_with_its_year_is_found_whole(note: str, date: str) -> None:
    found = [(e.kind, e.text) for e in find_entities(note)]
    assert ("date", date) in found


@pytest.mark.parametrize(
    ("note", "date"),
    [
        ("cita el 5 de mayo", "5 de mayo"),
        ("revu le 14 juillet", "14 juillet"),
        ("Termin am 5. Mai", "5. Mai"),
        ("datang 9 Oktober", "9 Oktober"),
    ],
)
def test_a_day_and_month_without_a_year_is_found(note: str, date: str) -> None:
    assert ("date", date) in [(e.kind, e.text) for e in find_entities(note)]


@pytest.mark.parametrize(
    "note",
    ["página 5 de 10", "Section 5. Mac users", "take 2 may help", "Level 5 Mars rover"],
)
def test_no_date_in_look_alikes(note: str) -> None:
    assert "date" not in [e.kind for e in find_entities(note)]


@pytest.mark.parametrize(
    ("written", "day"),
    [
        ("5 de mayo de 1990", "1990-05-05"),
        ("12 de diciembre del 1985", "1985-12-12"),
        ("1er janvier 1979", "1979-01-01"),
        ("5. Mai 1990", "1990-05-05"),
        ("5 de maio de 1990", "1990-05-05"),
        ("3 maggio 1987", "1987-05-03"),
        ("12 maart 1990", "1990-03-12"),
    ],
)
def test_a_cell_is_read_as_its_day(written: str, day: str) -> None:
    assert parse_dates(pd.Series([written]), "fecha").iloc[0] == pd.Timestamp(day)


@pytest.mark.parametrize(
    "values",
    [
        [
            "5 de mayo de 1990",
            "12 de diciembre de 1985",
            "1 de enero de 1979",
            "30 de junio de 2001",
        ],
        ["5. März 1990", "12. Dezember 1985", "1. Januar 1979", "30. Juni 2001"],
        ["1er février 1990", "12 décembre 1985", "1er janvier 1979", "30 juin 2001"],
    ],
)
def test_a_column_of_them_without_a_telling_header_is_dates(values: list[str]) -> None:
    suggestion = suggest_roles(pd.DataFrame({"c9": values * 5}))[0]
    assert suggestion.kind in ("date", "date_of_birth")
