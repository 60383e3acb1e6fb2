"""Capitalised words that name a storm, a stadium, a hospital written "Hosp" or a
chemist's shop are no person (issue 26, eval8 development: such words were redacted as
names). A person's name beside them is still found. Sentences written by hand.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    "text",
    [
        "Relief after Hurricane Beryl: 300 tarpaulins and water sent.",
        "Typhoon Agnes closed the port for two days.",
        "Parking at Stadium Hang Jebat from 6pm, permit needed.",
        "Visitor log (Margaret Hosp), ward 5, quiet night.",
        "Stock bought from Lionel Chemists, Accra, on credit.",
    ],
)
def test_storms_venues_and_shops_are_not_names(text: str) -> None:
    assert _names(text) == []


def test_a_person_beside_them_is_still_a_name() -> None:
    text = "After Cyclone Winston, Mr Josaia Ratu asked for tarpaulins."
    assert any("Josaia Ratu" in found for found in _names(text))
