"""Identifiers after their label and words that are no person (issue 26), each written by
hand: India's Aadhaar and PAN, the UK's NI number with hyphens, licence numbers; Malay
institutions written before their name; other languages' everyday words in lower case."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _found(note: str) -> list[tuple[str, str]]:
    return [(e.label, e.text) for e in find_entities(note)]


@pytest.mark.parametrize(
    ("note", "value"),
    [
        ("aadhaar no 234567890124 verified", "234567890124"),
        ("UID 876543210987 on the card", "876543210987"),
        ("PAN no. ABCPE1234F for the claim", "ABCPE1234F"),
        ("Driving licence no. MH1220110012345 seen", "MH1220110012345"),
        ("SS# 219099999 confirmed", "219099999"),
        ("nino AB-12-34-56-C", "AB-12-34-56-C"),
        ("NINO: JG103792A", "JG103792A"),
        ("his SSN is 219099999 per the form", "219099999"),
        ("MRN was 12345678 before the merge", "12345678"),
        ("SSN on file: 219.09.9999", "219.09.9999"),
    ],
)
def test_an_identifier_after_its_label_is_an_id(note: str, value: str) -> None:
    assert ("ID", value) in _found(note)


def test_the_label_itself_is_no_name() -> None:
    assert [label for label, _ in _found("Aadhaar: 4567 8901 2346")] == ["ID"]


@pytest.mark.parametrize(
    "note",
    [
        "Dirujuk ke Hospital Sultanah Aminah semalam.",
        "Rawatan susulan di Pusat Perubatan Universiti Malaya.",
        "Bayaran kepada Syarikat Maju Jaya.",
        "Resit dihantar melalui emel.",
    ],
)
def test_malay_institutions_and_admin_words_are_no_person(note: str) -> None:
    assert [label for label, _ in _found(note)] == []


def test_lower_case_words_of_other_languages_are_no_name() -> None:
    # "kini", "oleh", "dia", "akan" are Malay function words that some name lists also hold
    assert _found("dia kata dia akan datang, sudah dimaklumkan kini oleh jururawat") == []


def test_a_person_after_a_malay_institution_is_still_found_with_a_title() -> None:
    assert ("NAME", "Siti Aminah") in _found("Di Klinik Bedok, Puan Siti Aminah ditemui.")
