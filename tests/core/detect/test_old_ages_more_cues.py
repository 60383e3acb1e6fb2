"""Ages over 89 written in more ways (HIPAA §164.514(b)(2)(i)(C): every age over 89 becomes
the one category "90 or older"), issue 26: a person and a verb of being before the number
("she's 96", "my gran is 98"), a sex glued to it at the start of a clause ("93M from
home"), "y"/"yrs" before a sex or the clause's end, in words ("ninety-three"), after
"died at", hedged ("age maybe 92"), in Malay and Indonesian ("umur 94"), and a second
age listed after a first ("aged 90 or 91"). Every note below was written by hand for this
file; the expected spans are the numbers, read off the note."""

import pandas as pd
import pytest

from core.detect import find_entities
from core.detect.text import redact_series

OLD = [
    ("ED triage: 93M from nursing home, fever and confusion.", ["93"]),
    ("Handover - 97F, unwitnessed fall, on warfarin.", ["97"]),
    ("Rx: Mdm Koh, 92y F, paracetamol 500mg prn.", ["92"]),
    ("dispensed to R. Lakshmi, 90 yrs, tab metformin 500 bd", ["90"]),
    ("pt 101 y/o, lives alone", ["101"]),
    ("my grandmother is 98 and still gardens", ["98"]),
    ("she's 95 next month, we are planning a party", ["95"]),
    ("I am 91 this year and I walk every day", ["91"]),
    ("He would have been 100 on Sunday.", ["100"]),
    ("Dad turned ninety-two in March.", ["ninety-two"]),
    ("Q: how old is she? A: ninety-four come June.", ["ninety-four"]),
    ("aged one hundred and two, the oldest in the village", ["one hundred and two"]),
    ("Her husband died at 96 in his sleep.", ["96"]),
    ("unknown DOB, age maybe 92 per neighbour", ["92"]),
    ("age approx 95, no ID on him", ["95"]),
    ("Pasien Ibu Sumarni, umur 94, sesak napas.", ["94"]),
    ("nenek usia 97 th, tinggal sendiri", ["97"]),
    ("aged 90 or 91, she was not sure", ["90", "91"]),
    ("age maybe 93, 96 - nobody knows", ["93", "96"]),
    ("Mr Alfred Pike is 93 and lives alone.", ["93"]),
    ("Handover: 92F - actually 95 per daughter, fall at home.", ["92", "95"]),
    ("Seen Mrs Maud Ellery (3/9/1931) - 94. bloods taken", ["94"]),
    ("PNR 5KQ2LD: LIM/MEI LING MRS (91) wheelchair assistance", ["91"]),
]


@pytest.mark.parametrize(("note", "ages"), OLD)
def test_an_age_over_89_written_another_way_is_found(note, ages):
    assert [e.text for e in find_entities(note) if e.kind == "age_over_89"] == ages


NOT_AGES = [
    "T: 101F, HR 96, RR 20",  # a temperature in Fahrenheit after a clause start
    "Temp 99F, settled overnight.",
    "Sales $93M for the year.",  # millions of money
    "Room 92F is on level 9.",  # a room, not at a clause's start
    "she is 95% sure of the date",  # a share
    "he was 92 kg at admission",  # a weight
    "HR is 96 and regular",  # no person before the verb
    "SpO2 was 94 on air",
    "she's almost 90 now",  # under 90 (89): not an identifier
    "I am 90 minutes away",  # a time
    "ninety-two percent adherence",  # a share in words
    "ordered ninety tablets",
    "come back at 93 Jalan Besar",  # an address number
    "aged 45 or 91 tablets",  # the first age is under 90: nothing listed after it
    "he worked there 90 yrs ago",  # a span of years, not his age
    "SGD 95M, 93F2 code",
]


@pytest.mark.parametrize("note", NOT_AGES)
def test_numbers_that_are_not_ages_over_89_stay(note):
    assert [e.text for e in find_entities(note) if e.kind == "age_over_89"] == []


def test_many_texts_read_together_give_the_same_ages():
    notes = pd.Series([n for n, _ in OLD] + NOT_AGES)
    redacted, _ = redact_series(notes, lambda e: f"[{e.label}]")
    one_by_one = [sum(e.kind == "age_over_89" for e in find_entities(n)) for n in notes]
    assert redacted.str.count(r"\[AGE 90\+\]").tolist() == one_by_one
    assert sum(one_by_one) == sum(len(ages) for _, ages in OLD)
