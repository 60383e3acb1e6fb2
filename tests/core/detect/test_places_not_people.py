"""Places written in notes are not people (issue 26): "from Madrid", "in Hong Kong",
"Pt from Kuala Lumpur" were redacted as names. A place that is also a name stays a name
where people are written ("spoke to Jordan", "Pt Paris Hilton", "Mdm Jordan").
"""

from __future__ import annotations

import pytest

from core.detect import find_entities
from core.detect.place_names import place_names


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.kind == "name"]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Moved from Madrid last year", []),
        ("lives in Hong Kong now", []),
        ("Pt from Kuala Lumpur", []),
        ("Visited Paris with Anna Lee", ["Anna Lee"]),
        ("Jordan Smith went to Jordan", ["Jordan Smith"]),
        ("Met Sydney in Sydney", ["Met Sydney"]),
        ("Pt stays at Sydney with her son", []),
        ("Ravi moved from Pune to Mumbai", ["Ravi"]),
    ],
)
def test_places_are_not_names(text: str, names: list[str]) -> None:
    assert _names(text) == names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Spoke to Jordan today", ["Jordan"]),
        ("Call from Sydney re meds", ["Sydney"]),
        ("Pt Paris Hilton seen", ["Paris Hilton"]),
        ("Mdm Jordan seen", ["Jordan"]),
        ("Tan Ah Kow shouted at Jordan in the ward", ["Tan Ah Kow", "Jordan"]),
    ],
)
def test_a_place_that_is_a_name_stays_a_name_where_people_are_written(
    text: str, names: list[str]
) -> None:
    assert _names(text) == names


def test_the_gazetteer_holds_world_cities_and_singapore_areas() -> None:
    places = place_names()
    for place in ("madrid", "paris", "hong kong", "kuala lumpur", "bukit timah", "tokyo"):
        assert place in places, place
    # built from GeoNames towns of 15,000 people or more: tens of thousands of names
    assert len(places) > 30_000
