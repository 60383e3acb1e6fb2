"""Capitalised words that name a place or a business, not a person (issue 26, false
alarms): a saint's name after "St"/"St."/"Saint" ("St Bernadette's Church", "at St.
Vincent's"), an Irish county after "Co." ("Ballina, Co. Mayo"), a Malay foundation after
"Yayasan", and a firm named by "Brothers"/"Motors" ("Lim Brothers", "Kenmare Motors").
A person's name elsewhere in the same sentence is still found. Every sentence was written
by hand for this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("Mass at the Church of St Bernadette on Sunday.", "Bernadette"),
        ("taken by ambulance to St. Vincent's in the city", "Vincent"),
        ("grew up near Saint Patrick's Cathedral", "Patrick"),
        ("family farm outside Ballina, Co. Mayo, since 1950", "Mayo"),
        ("she won a bursary from Yayasan Sejahtera last year", "Yayasan Sejahtera"),
        ("a van from Lim Brothers blocked the lane", "Lim Brothers"),
        ("quote from Kenmare Motors for the clutch", "Kenmare Motors"),
    ],
)
def test_the_place_or_firm_is_not_a_name(text: str, place: str) -> None:
    assert not any(place in name or name in place for name in _names(text)), _names(text)


def test_a_person_beside_them_is_still_found() -> None:
    text = "Deirdre Molloy rang from Ballina, Co. Mayo about St Bernadette's raffle."
    assert "Deirdre Molloy" in _names(text)
