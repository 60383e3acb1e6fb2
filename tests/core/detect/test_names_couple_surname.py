"""A given name that is also an everyday word, joined by "and"/"&" to a full name, shares
that surname (issue 26): "parents Dawn and Peter Okafor", "Hope & Daniel Whitcombe",
"Mark and Julie Taylor" (HIPAA §164.514(b)(2)(i)(A), names). Alone such a word is not a
name ("Dawn", "Hope"); two things joined by "and" are not people ("Rose and Crown Hotel").
Every sentence was written by hand for this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("parents Dawn and Peter Okafor came to the meeting", "Dawn"),
        ("Hope & Daniel Whitcombe booked the hall.", "Hope"),
        ("Guardians: Grace and Simon Tremlett, 14 Ash Road", "Grace"),
    ],
)
def test_the_first_given_name_of_a_couple_is_a_name(text: str, name: str) -> None:
    assert name in _names(text), _names(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Lunch at the Rose and Crown Hotel on Friday.", "Rose"),
        ("Dawn and Dusk Cafe opens at 8.", "Dawn"),
        ("Hope and Faith Church runs the food bank.", "Hope"),
    ],
)
def test_things_joined_by_and_stay(text: str, word: str) -> None:
    assert word not in _names(text), _names(text)
