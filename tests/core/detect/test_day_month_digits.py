"""Dates written day and month in digits without a year, after a word that says a date
follows ("seen on 12/05", "review 3/11", "on 05-06"): HIPAA Safe Harbor identifier C
(§164.514(b)(2)(i)(C)) covers every element of a date but the year, so the day and month
are redacted (issue 26). Fractions, scores, ratios, blood pressures and doses that look
the same ("BP 120/80", "scored 3/5", "2/3 of patients", "on 1/2 tablet") are not dates.

Every sentence was written by hand for this test.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _dates(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "DATE"]


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("Pt seen on 12/05 for a dressing change.", "12/05"),
        ("Plan: review 3/11 with the bloods.", "3/11"),
        ("Came back on 05-06, wound clean.", "05-06"),
        ("Admitted 28/2 after a fall at home.", "28/2"),
        ("Discharged on 7/1, TCU 14/1 at SOC.", "7/1"),
        ("Discharged on 7/1, TCU 14/1 at SOC.", "14/1"),
        ("Next appt 21/09 at 10am.", "21/09"),
        ("Appointment: 9/12", "9/12"),
        ("Last visit 30-04, no complaints.", "30-04"),
        ("Follow-up on 2/3 in clinic.", "2/3"),
        ("Surgery scheduled for 15/08.", "15/08"),
        ("Vaccinated on 11/11; next dose due 11/12.", "11/12"),
        ("Birthday 04/07, turning 40.", "04/07"),
        ("DOB 31/12 (year not given)", "31/12"),
    ],
)
def test_a_day_and_month_after_a_date_word_is_a_date(text: str, date: str) -> None:
    assert date in _dates(text)


@pytest.mark.parametrize(
    "text",
    [
        "BP 120/80, HR 72.",
        "She scored 3/5 on the memory test.",
        "2/3 of patients improved.",
        "Pain 7/10 on arrival, 3/10 after analgesia.",
        "Power 4/5 in the left arm.",
        "Started on 1/2 tablet at night.",
        "Improved on 2/3 of days this week.",
        "Took 1/4 of the dose.",
        "GCS 15/15, alert.",
        "Visual acuity 6/9 right eye, 6/12 left.",
        "Ratio 3/4 for the mix.",
        "Seen on ward 12/5 bed 3.",
        "Dose changed on 10-20 mg range.",
        "Review in 2-3 weeks.",
    ],
)
def test_fractions_scores_and_ratios_are_not_dates(text: str) -> None:
    assert _dates(text) == []
