"""Ages over 89 written right after a person's name or a kinship word, without the word
"aged" or "years old" (HIPAA §164.514(b)(2)(i)(C)), issue 26: "Mrs Wong, 96, lives
alone", "Mr Peter Hollis 92 - fall at home", "Auntie Rosa (99)", "(grandmother, 91)". The
name says whose number it is, so the number is an age. Every note below was written by
hand for this test; the expected span is the number itself, read off the note."""

import pandas as pd
import pytest

from core.detect import find_entities
from core.detect.text import redact_series

AFTER_A_NAME = [
    ("Statement taken from Mrs Agnes Wong, 96, at her flat.", "96"),
    ("Mr Peter Hollis 92 - fall at home, no head injury.", "92"),
    ("Reviewed Mdm Siti Aminah, 104, bed-bound since March.", "104"),
    ("Ms Teresa Villanueva (99) lives with her niece.", "99"),
    ("visited Mrs Olive Tremayne 91 and her son", "91"),
    ("carer for his dad (father, 93) since the stroke", "93"),
    ("Lives with her mum (mother, 90), who has dementia.", "90"),
]


@pytest.mark.parametrize(("note", "age"), AFTER_A_NAME)
def test_an_age_over_89_after_a_name_or_kin_word_is_found(note, age):
    found = [e.text for e in find_entities(note) if e.kind == "age_over_89"]
    assert found == [age]


NOT_AGES = [
    "Mr Peter Hollis 92 Jalan Besar is his shop.",  # an address number after the name
    "Mr Peter Hollis, 95/60 at triage.",  # a blood pressure
    "Mrs Agnes Wong, 91 mg daily.",  # a dose
    "Mr Peter Hollis 92.5 kg on the ward scale.",  # a weight
    "Mr Peter Hollis, 89, lives alone.",  # under 90: not an identifier
    "Mr Peter Hollis 90-95 range noted.",  # a range
    "(page, 93) of the report",  # no kinship word
]


@pytest.mark.parametrize("note", NOT_AGES)
def test_other_numbers_after_a_name_stay(note):
    assert [e for e in find_entities(note) if e.kind == "age_over_89"] == []


def test_many_texts_read_together_give_the_same_ages_after_names():
    notes = pd.Series([n for n, _ in AFTER_A_NAME] + NOT_AGES)
    redacted, changed = redact_series(notes, lambda e: f"[{e.label}]")
    one_by_one = [sum(e.kind == "age_over_89" for e in find_entities(n)) for n in notes]
    assert redacted.str.count(r"\[AGE 90\+\]").tolist() == one_by_one
    assert sum(one_by_one) == len(AFTER_A_NAME)
