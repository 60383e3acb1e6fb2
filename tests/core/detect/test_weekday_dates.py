"""A day of the month after a weekday, without a year: "Tue 14/10", "Wednesday 3rd",
"Sat 21st" (HIPAA Safe Harbor identifier C, §164.514(b)(2)(i)(C): every element of a
date but the year), issue 26. The weekday says a date follows, as "on" or "seen" do.
Every sentence was written by hand for this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _dates(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "DATE"]


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("Dressing changed Tue 14/10, wound clean.", "14/10"),
        ("Home visit booked Wednesday 5/3 at 2pm.", "5/3"),
        ("Family meeting Thu 09/01.", "09/01"),
        ("Parcel returned to sender on Sat 21st.", "Sat 21st"),
        ("He missed his shift Wednesday 3rd, no call.", "Wednesday 3rd"),
        ("Fell in the garden tues 22nd, bruised hip.", "tues 22nd"),
    ],
)
def test_a_day_after_a_weekday_is_a_date(text: str, date: str) -> None:
    assert any(date in found for found in _dates(text)), _dates(text)


@pytest.mark.parametrize(
    "text",
    [
        "She sat 3/5 papers and passed.",  # "sat" in lower case is the verb
        "Came 2nd in the race on Sun.",  # an ordinal without a weekday before it
        "Mon 120/80 BP recorded.",  # a blood pressure
        "Sunday 1st dose of the vaccine given.",  # "1st dose": a dose's order
    ],
)
def test_other_numbers_near_a_weekday_stay(text: str) -> None:
    assert _dates(text) == []
