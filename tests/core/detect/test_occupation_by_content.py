"""Occupation by content (issue 26): a column of job titles under a header that says
nothing (``c7``) is a quasi-identifier with the reason "values are occupations", also in a
small table where no title repeats (it was called near-unique and direct); a column of
distinct values that are not occupations is not.
"""

from __future__ import annotations

import pandas as pd

from core.schema import Role, suggest_roles

# Written for this test (titles as people write them in Singapore, the UK, the US, India).
JOBS = [
    "Hawker",
    "Taxi driver",
    "Staff nurse",
    "Software engineer",
    "Civil servant",
    "Chartered accountant",
    "Police officer",
    "Security guard",
    "Pharmacist",
    "Physiotherapist",
    "Bank teller",
    "Insurance agent",
    "Electrician",
    "Plumber",
    "Lawyer",
    "Dentist",
    "Social worker",
    "Librarian",
    "Journalist",
    "Teacher, secondary school",
    "Engineer, manufacturing",
    "Polytechnic lecturer",
    "Radiographer",
    "Architect",
]


def test_distinct_job_titles_without_a_header_are_occupations() -> None:
    suggestion = suggest_roles(pd.DataFrame({"c7": JOBS}))[0]
    assert suggestion.kind == "job_title", suggestion
    assert suggestion.role == Role.INDIRECT
    assert "are occupations" in suggestion.reason


def test_repeated_job_titles_keep_being_occupations() -> None:
    suggestion = suggest_roles(pd.DataFrame({"c7": JOBS * 5}))[0]
    assert (suggestion.kind, suggestion.role) == ("job_title", Role.INDIRECT)
    assert "are occupations" in suggestion.reason


def test_distinct_things_that_are_no_occupations_are_not() -> None:
    things = [f"Widget {c}" for c in "ABCDEFGHIJKLMNOPQRST"]
    assert suggest_roles(pd.DataFrame({"c7": things}))[0].kind != "job_title"
    # fewer than 10 distinct titles, none repeated: too little to tell
    assert suggest_roles(pd.DataFrame({"c7": JOBS[:6]}))[0].kind != "job_title"
