"""A line (or a whole cell) that is only a lower-case name (issue 26, eval8 development):
a given name alone ("priyanka"), or a given name of the world list before a surname no
list holds ("tendai mutasa"). Lower-case words are everyday words of many languages, so
a given name alone counts only when it is a sure one (no everyday word, not only a
surname), and a given name of the world list only as the first of two to four words that
are no English, function or never-a-name word and no place.

The names were written by hand for this test (Zimbabwean, Thai, Nigerian, South African,
Maori, Indian), not taken from a test generator; the negatives likewise.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities

ALONE = ["priyanka", "nikhil", "kiran", "ravi"]
GIVEN_THEN_NEW_SURNAME = [
    "tendai mutasa",
    "tatenda chikwanha",
    "nyasha chivasa",
    "pornthip sukjai",
    "somchai pakdee",
    "apinya srisai",
    "thandiwe nxumalo",
    "lindiwe mabuza",
    "zanele khanye",
    "mpho letsholo",
    "hemi tawhiri",
    "amaka chukwuemeka",
]
# Lower-case words alone on a line that are no person: dishes, greetings, phrases of
# other languages (some of their words are census surnames or world given names).
NOT_NAMES = [
    "gracias",
    "haka",
    "laksa",
    "biryani",
    "teh halia",
    "kencing manis",
    "masala dosa",
    "paneer tikka",
    "nyama choma",
    "demam panas",
    "jollof rice",
    "terima kasih",
    "selamat pagi",
    "noted thanks",
    "see you tomorrow",
    "ang mo kio",
]


def _names(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "NAME"]


@pytest.mark.parametrize("name", ALONE + GIVEN_THEN_NEW_SURNAME)
def test_a_lower_case_name_alone_in_a_cell_is_found(name: str) -> None:
    assert _names(name) == [name]


@pytest.mark.parametrize("name", ["nyasha chivasa", "priyanka"])
def test_a_lower_case_name_alone_on_a_line_of_a_note_is_found(name: str) -> None:
    note = f"Next of kin\n{name}\nCall before 5pm."
    assert name in _names(note)


def test_the_same_words_inside_a_sentence_need_a_cue() -> None:
    # No line of their own: running lower-case text is not read as names without a cue.
    assert _names("we talked about tendai mutasa's plan at length") == []


@pytest.mark.parametrize("text", NOT_NAMES)
def test_lower_case_lines_of_other_things_are_not_names(text: str) -> None:
    assert _names(text) == []
