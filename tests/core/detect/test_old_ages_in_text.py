"""Ages over 89 inside free text (HIPAA §164.514(b)(2)(i)(C): all ages over 89 are
aggregated into one category of 90 or older), issue 26. Every note below is written by
hand; the expected span is the number itself, read off the note."""

import pandas as pd
import pytest

from core.detect import find_entities
from core.detect.text import redact_series
from core.techniques.redaction import redact_text

OLD = [
    ("Hajah Zaiton, 91 this year, lives alone.", "91"),
    ("Patient aged 92 with hip fracture.", "92"),
    ("Seen a 94-year-old man in clinic.", "94"),
    ("94yo F with cough.", "94"),
    ("94 y/o female, dizzy.", "94"),
    ("Age: 97. Lives with son.", "97"),
    ("Mdm Lim (95F) admitted for fall.", "95"),
    ("Mr Tan (93 M) reviewed.", "93"),
    ("She is 95 years old and independent.", "95"),
    ("He turned 90 last week.", "90"),
    ("Mother is 101 years of age.", "101"),
    ("A 96 year old woman.", "96"),
    ("Now 92 yrs old.", "92"),
    ("at the age of 99 she moved", "99"),
    ("AGE 90", "90"),
]


@pytest.mark.parametrize(("note", "age"), OLD)
def test_an_age_over_89_is_found_as_its_number(note, age):
    found = [e for e in find_entities(note) if e.kind == "age_over_89"]
    assert [e.text for e in found] == [age]
    assert found[0].label == "AGE 90+"


YOUNG_OR_NOT_AGES = [
    "Patient aged 89 with hip fracture.",  # 89: not an identifier (HIPAA keeps ages < 90)
    "a 45-year-old man, 45yo, 45 y/o, age: 45, (45F)",
    "Metformin 90 mg twice daily.",
    "BP 95/60, pulse 92, SpO2 94%.",
    "Transferred to room 91 on ward 9.",
    "Adherence 90% this year.",
    "Born in 1990, moved in 1995.",
    "Infant aged 90 days, weight 4 kg.",
    "Knee flexion turned 90 degrees.",
    "Temperature 95F overnight.",
    "Paid 90 this year in fees.",
]


@pytest.mark.parametrize("note", YOUNG_OR_NOT_AGES)
def test_ages_under_90_and_other_numbers_stay(note):
    assert [e for e in find_entities(note) if e.kind == "age_over_89"] == []


def test_redaction_writes_the_single_90_plus_category():
    notes = pd.Series(["Hajah Zaiton, 91 this year.", "a 45-year-old man", None])
    out = redact_text(pd.DataFrame({"note": notes}), "note", kinds="age_over_89")["note"]
    assert out.tolist()[:2] == ["Hajah Zaiton, [AGE 90+] this year.", "a 45-year-old man"]
    assert pd.isna(out.iloc[2])


def test_many_texts_read_together_give_the_same_spans_as_one_by_one():
    notes = pd.Series([n for n, _ in OLD] + YOUNG_OR_NOT_AGES)
    redacted, changed = redact_series(notes, lambda e: f"[{e.label}]", kinds=["age_over_89"])
    one_by_one = [sum(e.kind == "age_over_89" for e in find_entities(n)) for n in notes]
    assert changed.tolist() == [n > 0 for n in one_by_one]
    assert redacted.str.count(r"\[AGE 90\+\]").tolist() == one_by_one
