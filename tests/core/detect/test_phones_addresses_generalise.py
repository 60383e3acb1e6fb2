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


def _touches(text: str, kind: str, string: str) -> bool:
    start = text.index(string)
    end = start + len(string)
    return any(
        _GROUP.get(e.kind, e.kind) == kind and e.start < end and start < e.end
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
