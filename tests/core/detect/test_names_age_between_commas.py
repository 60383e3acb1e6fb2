"""A name no list knows, followed by the person's age between commas ("Kgosi Mothibi,
91, bedridden"): the age says a person is meant, as "47M" or "dob" after a name do
(issue 26, eval8 development). A place or a street before a number between commas is
not read as a name. Sentences written by hand for this test.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("home visit: Kgosi Mothibi, 91, bedridden; daughter cooks.", "Kgosi Mothibi"),
        ("Ward round - Tavita Leauma, 67, stable overnight.", "Tavita Leauma"),
    ],
)
def test_an_unknown_name_before_an_age_between_commas_is_found(text: str, name: str) -> None:
    assert name in _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "Delivered to Clementi Avenue, 12, second floor.",
        "Stock count: Blue Widgets, 40, reorder soon.",
        "Budget for Kuala Lumpur, 30, approved.",
    ],
)
def test_other_capitalised_words_before_a_number_between_commas_are_not(text: str) -> None:
    assert _names(text) == []


@pytest.mark.parametrize("age", ["ninety-one", "eighty six", "seventy"])
def test_an_age_in_words_between_commas_names_a_person_too(age: str) -> None:
    text = f"home visit: Kgosi Mothibi, {age}, frail; daughter cooks."
    assert "Kgosi Mothibi" in _names(text)
