"""Ages over 89 after a person's name written in words, with a sex glued to them, or as
a field of a record line separated by semicolons (HIPAA §164.514(b)(2)(i)(C); issue 26,
eval8 left 9 of 21): "Mr Ravi Pillai, ninety-three, bedbound", "Pt TAN MEI HUA, 92F,
NH resident", "27/10;Lim Bee Hoon;96;Blk 5". Notes written by hand for this test; the
expected span is the age as written."""

import pytest

from core.detect import find_entities


def _ages(note: str) -> list[str]:
    return [e.text for e in find_entities(note) if e.kind == "age_over_89"]


@pytest.mark.parametrize(
    ("note", "age"),
    [
        ("Home visit: Mr Ravi Pillai, ninety-three, bedbound since May.", "ninety-three"),
        ("claim by insured Mary Jones, ninety, of 12 Elm Road", "ninety"),
        ("dental chart: Pt TAN MEI HUA, 92F, NH resident", "92"),
        ("delivery list: 27/10;Lim Bee Hoon;96;Blk 5 Marsiling Dr", "96"),
        ("2) Agnes Fernandez, ninety-four (honorary), c/o the home", "ninety-four"),
    ],
)
def test_age_after_a_name_found(note: str, age: str) -> None:
    assert _ages(note) == [age]


@pytest.mark.parametrize(
    "note",
    [
        "Mrs Agnes Wong, 95F temperature spike",  # glued F then no clause end: not read
        "Mr Ravi Pillai, ninety minutes late",
        "Lim Bee Hoon;96 mg;Blk 5",
    ],
)
def test_other_numbers_after_a_name_stay(note: str) -> None:
    assert _ages(note) == []
