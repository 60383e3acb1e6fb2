"""A day and a month in digits next to a time of day, without a year: "scan 6/3 9.15am",
"seen 4pm 27/10" (HIPAA Safe Harbor identifier C, §164.514(b)(2)(i)(C)), issue 26. The
time says the numbers are a date, as "on" or "seen" do. Every sentence was written by
hand for this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _dates(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "DATE"]


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("MRI booked 6/3 9.15am, fasting from midnight.", "6/3"),
        ("Dental check 14/02 10:30 at the polyclinic.", "14/02"),
        ("Fell at home abt 4pm 27/10, found by son.", "27/10"),
        ("Bus left 7.45am 03/09 with the group.", "03/09"),
    ],
)
def test_a_day_and_month_by_a_time_is_a_date(text: str, date: str) -> None:
    assert date in _dates(text), _dates(text)


@pytest.mark.parametrize(
    "text",
    [
        "Pain 7/10 at 10pm, settled with paracetamol.",  # a score, the time after "at"
        "Took 1/2 tab 8am and 1/2 tab 8pm.",  # half a tablet
    ],
)
def test_scores_and_doses_near_a_time_stay(text: str) -> None:
    assert _dates(text) == [], _dates(text)
