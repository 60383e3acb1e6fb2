"""Names and phone numbers found from the words around them (issue 16, in-text recall).

Every sentence here is written for the test, apart from the benchmark's note sets.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities
from core.detect.names import find_names


def _names(text: str) -> list[str]:
    return [text[s:e] for s, e in find_names(text)]


def _phones(text: str) -> list[str]:
    return [e.text for e in find_entities(text, kinds="phone")]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("spoke to farah this morning about the bill", "farah"),  # lower-case known name
        ("Talked with kelvin, he is fine", "kelvin"),
        ("Contact Marguerite after lunch", "Marguerite"),  # lone name not in the list
        ("Please call Thaddeus back", "Thaddeus"),
        ("Emailed Wilhelmina the summary", "Wilhelmina"),
        ("seen with mdm rosnah", "rosnah"),  # after a title, any word that is no function word
        ("mr tan said yes", "tan"),  # an everyday word after a title
        ("Her nephew Bartholomew drove her in", "Bartholomew"),
        ("Uncle Ah Seng will pick her up", "Ah Seng"),
        ("patient TAN AH KOW admitted", "TAN AH KOW"),  # capitals after a relation word
        ("Contact Thaddeus about the scan", "Thaddeus"),
    ],
)
def test_a_cue_word_marks_the_name_after_it(text, name):
    assert name in _names(text)


def test_a_relation_word_in_capitals_is_the_cue_not_part_of_the_name():
    text = "Husband Kumaravel s/o Rajoo signed."
    assert _names(text) == ["Kumaravel s/o Rajoo"]


def test_a_capitalised_name_stops_before_the_lower_case_words_after_it():
    assert _names("Mdm Lee Bee Hoon came alone") == ["Lee Bee Hoon"]


@pytest.mark.parametrize(
    "text",
    [
        "call Monday to book",  # weekday
        "Contact January intake office",  # month
        "please call Pharmacy for the refill",  # a service, not a person
        "asked Panadol dose to be halved",  # medicines
        "Contact Metformin supplier",
        "call May 3 if worse",  # an everyday word alone (May is a date here)
        "ask Will to sign",  # everyday word alone after a verb
        "Contact Orchard Road branch",  # street words
        "call the ward",  # lower-case words that are no name
        "spoke to nurse on duty",
        "the dr said rest",  # "dr" in lower case is a doctor, not a title before a name
        "emailed them the form",
        "called back later",
        "told Grab driver to wait",  # a company before a service word
        "emailed Medisave team the form",
        "spoke to Income agent",
        "spoke to GP about it",  # capitals after a verb are an acronym
        "met Social Worker today",  # roles
        "contact Ambulance if worse",
    ],
)
def test_cue_words_do_not_turn_common_words_into_names(text):
    names = [e.text for e in find_entities(text) if e.kind == "name"]
    assert names == []


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("Brother in Leeds: +44 7700 900456", "+44 7700 900456"),  # possible, not in use
        ("Leeds number 07700 900456", "07700 900456"),  # UK drama mobile range
        ("old London line 020 7946 0999", "020 7946 0999"),  # UK drama London range
        ("US office (415) 555-0123", "(415) 555-0123"),  # US 555-01xx
        ("mobile 012-345 6789 (Malaysia)", "012-345 6789"),  # a Malaysian mobile, cued
        ("tel 07911 123456", "07911 123456"),  # a UK mobile in national format, cued
    ],
)
def test_unlisted_and_foreign_phone_numbers(text, phone):
    assert _phones(text) == [phone]


@pytest.mark.parametrize(
    "text",
    [
        "Order 07911 123456 shipped",  # a code word before a foreign national number
        "Invoice 012-345 6789 paid",
        "+999 1234 5678 9",  # no such country code
        "Account no. 123-456789-001",  # an account number stays an ID
        "tel 12",  # too short to be a number
    ],
)
def test_numbers_that_are_not_phones(text):
    # Since issue 26 a number valid in another country's national format is a phone
    # without a cue ("07700 901456" is a valid Indian mobile, "(415) 555-0234" a valid US
    # number for libphonenumber): those two cases moved to test_phones_addresses_generalise.
    assert _phones(text) == []
