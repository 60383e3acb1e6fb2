"""Identity numbers after their name in other countries' words (issue 26): the Irish PPS
number ("PPSN 1234567TA"), the Canadian social insurance number ("SIN 046 454 286",
"S.I.N. 046-454-286"), the Philippine SSS and UMID numbers ("SSS 03-9876543-2",
"UMID 0028-1122334-5") and licences written "lic" ("lic D12-34-567890"). PDPC guide,
Step 1: a national identity number is a direct identifier; HIPAA §164.514(b)(2)(i)(R).
Every sentence and number was written by hand for this test."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _ids(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "ID"]


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Client (PPSN 1234567TA) asked for a refund.", "1234567TA"),
        ("PPS No. 7654321W on the claim form.", "7654321W"),
        ("Applicant SIN 046 454 286, moved from Halifax.", "046 454 286"),
        ("Her S.I.N. 046-454-286 is on file.", "046-454-286"),
        ("Social Insurance Number: 123-456-782", "123-456-782"),
        ("member's SSS 03-9876543-2 needs updating", "03-9876543-2"),
        ("found a UMID 0028-1122334-5 in the lobby", "0028-1122334-5"),
        ("driver lic D12-34-567890 suspended", "D12-34-567890"),
    ],
)
def test_a_number_after_its_countrys_id_word_is_an_id(text: str, number: str) -> None:
    assert number in _ids(text), _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "He confessed his sin 3 times.",  # the word, in lower case, before a short number
        "Plot sin 45 against cos 45.",  # trigonometry
        "a tin of 12345 beads",
    ],
)
def test_the_same_letters_as_words_stay(text: str) -> None:
    assert _ids(text) == []


def test_the_id_word_is_not_taken_for_a_name():
    names = [
        e.text for e in find_entities("Intake: Mei Ling, SIN 046 454 286.") if e.label == "NAME"
    ]
    assert "SIN" not in names
