"""Digits glued to a letter code by a hyphen are that code's number, not a phone (issue 26,
false alarms): "order PO-2024-776512", "INV-0311-482957", "claim CL-88123456". A phone
after its own cue written the same way ("Tel-6123 4567", "HP-9123 4567") stays a phone.
Every sentence and number was written by hand for this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _phones(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "PHONE"]


@pytest.mark.parametrize(
    "text",
    [
        "Customer chased order PO-2024-776512 twice.",
        "Paid INV-0311-482957 by card.",
        "ticket SR-2023-554018 closed",
    ],
)
def test_a_code_number_is_not_a_phone(text: str) -> None:
    assert _phones(text) == []


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("Reach her on Tel-6123 4567 after 6pm.", "6123 4567"),
        ("HP-9123 4567 (son)", "9123 4567"),
        ("call 415-938-1277 today", "415-938-1277"),
    ],
)
def test_a_phone_after_its_cue_stays(text: str, phone: str) -> None:
    assert phone in _phones(text), _phones(text)
