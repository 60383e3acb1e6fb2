"""Phones, addresses and organisations in free text the detectors were not tuned on (issue 26).

Every sentence is written for this test in the style of the issue's examples (people from
Singapore, the US, the UK and India); none comes from a test generator. Each case failed
on the scanner before the fix it names.
"""

from __future__ import annotations

import pytest

from core.detect import find_entities

_GROUP = {"nric": "id", "ssn": "id", "nino": "id", "record_code": "id"}


def _found(text: str) -> list[tuple[str, str]]:
    return [(_GROUP.get(e.kind, e.kind), e.text) for e in find_entities(text)]


def _has(text: str, kind: str, string: str) -> bool:
    """A found entity of ``kind`` covers the whole of ``string``."""
    start = text.index(string)
    end = start + len(string)
    return any(
        _GROUP.get(e.kind, e.kind) == kind and e.start <= start and end <= e.end
        for e in find_entities(text)
    )


# --- phones in other countries' national formats ----------------------------------------


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("her number 415.938.1277 works", "415.938.1277"),
        ("Reach the son at (202) 555-0147 tonight", "(202) 555-0147"),
        ("Landline 020 7946 0018 (London)", "020 7946 0018"),
        ("UK mobile 07700 900461", "07700 900461"),
        ("brother in Pune 98765 43210", "98765 43210"),
        ("+91-98765-43210 is the wife", "+91-98765-43210"),
        ("aunt at 0412 345 678 in Perth", "0412 345 678"),
        ("Kuala Lumpur office 03-2141 5566", "03-2141 5566"),
        ("left a message, 312-555-0187", "312-555-0187"),
        ("contacted on 9988 1122 no reply", "9988 1122"),
        ("ph 6543 21 09 after 6pm", "6543 21 09"),
        ("Leeds number 07700 901456", "07700 901456"),  # valid in India's national format
        ("(415) 555-0234", "(415) 555-0234"),  # valid in the US, though a 555 number
    ],
)
def test_phones_of_several_countries_are_found_without_a_country_code(text, phone):
    assert _has(text, "phone", phone)


@pytest.mark.parametrize(
    "text",
    [
        "Lot 24117830 recalled by the maker",
        "batch 30119874 expired",
        "invoice 4471-2290 settled",
        "dose 500 mg on 2024-03-18",
        "paid $1,250,000.00 in 2019",
        "BP 132/84 pulse 72 temp 36.8",
        "ref 20240318 for the claim",
        "Order 0412 345 678 shipped",
        "invoice no. 98765 43210 paid",
    ],
)
def test_code_numbers_amounts_and_dates_are_not_phones(text):
    assert not any(e.kind == "phone" for e in find_entities(text))


# --- addresses --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "address"),
    [
        (
            "Lives at 1600 Pennsylvania Ave NW, Washington, DC 20500 now",
            "1600 Pennsylvania Ave NW, Washington, DC 20500",
        ),
        (
            "Moved to 221B Baker Street, London NW1 6XE last year",
            "221B Baker Street, London NW1 6XE",
        ),
        ("Address: Flat 12, MG Road, Bengaluru 560001.", "Flat 12, MG Road, Bengaluru 560001"),
        ("home visit at blk 7 toa payoh lor 1 #02-33 done", "blk 7 toa payoh lor 1 #02-33"),
        ("stays at 23 Lorong 5 Toa Payoh", "23 Lorong 5 Toa Payoh"),
        ("stays at Blk 40 Lor 2 Geylang #03-11", "Blk 40 Lor 2 Geylang #03-11"),
        ("shop at 45 jalan sultan #01-02", "45 jalan sultan #01-02"),
        ("posted to 12 Cavenagh 229603", "12 Cavenagh 229603"),
        ("lives at 30 Bukit Timah Singapore 259712", "30 Bukit Timah Singapore 259712"),
    ],
)
def test_street_addresses_of_several_countries_are_found_whole(text, address):
    assert _has(text, "address", address)


@pytest.mark.parametrize(
    "text",
    [
        "ok lor 2 more days then review",
        "took 5 steps and sat down",
        "see page 12 #3-4",
        "Level 3 Ward 12 bed 5",
        "the 3 brothers live in jalan besar area",
    ],
)
def test_numbers_and_words_that_are_not_addresses(text):
    assert not any(e.kind == "address" for e in find_entities(text))


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("ravi sharma, 9876543210, ravi@example.com", "9876543210"),  # Indian mobile, bare
        ("Tried 2025550143 twice", "2025550143"),  # a US number, bare, after "tried"
    ],
)
def test_a_bare_ten_digit_mobile_is_a_phone(text, phone):
    assert _has(text, "phone", phone)


@pytest.mark.parametrize("text", ["epoch 1700000000 logged", "order 9876543210 shipped"])
def test_other_bare_ten_digit_numbers_are_not_phones(text):
    assert not any(e.kind == "phone" for e in find_entities(text))


@pytest.mark.parametrize(
    ("text", "address"),
    [
        (
            "pick up at H.No. 12, Gandhi Colony, Nashik - 422001 today",
            "H.No. 12, Gandhi Colony, Nashik - 422001",
        ),
        (
            "letter from 7/21, Lotus Towers, Station Road, Thane West, Thane 400601.",
            "7/21, Lotus Towers, Station Road, Thane West, Thane 400601",
        ),
        ("returned from 45/2, Green Acres, Link Road", "45/2, Green Acres, Link Road"),
        (
            "moved to 8812 Willow Creek Trail, Austin, TX 78701",
            "8812 Willow Creek Trail, Austin, TX 78701",
        ),
        (
            "lives at 19 Old Mill Ferry Apt. 4, Dover, DE 19901",
            "19 Old Mill Ferry Apt. 4, Dover, DE 19901",
        ),
    ],
)
def test_indian_and_more_us_street_addresses(text, address):
    assert _has(text, "address", address)


def test_a_bare_ten_digit_run_counting_up_is_no_indian_mobile():
    # "1234567890" is valid for libphonenumber as an Indian fixed line; bare, only a
    # mobile (6-9...) is read as a phone.
    assert not any(e.kind == "phone" for e in find_entities("sample 1234567890 used"))
