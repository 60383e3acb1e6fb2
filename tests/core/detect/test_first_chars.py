"""core.detect.first_chars.gated: the look-ahead admits every character a match can start
with (same matches), and the expression is left alone when that set is unknown. The
expected look-aheads below are read off each expression by hand."""

from __future__ import annotations

import re

import pytest

from core.detect.first_chars import gated
from core.detect.patterns import PATTERNS


@pytest.mark.parametrize(
    ("expression", "look_ahead"),
    [
        (r"(?<![\w@])(?:ab|[0-9]c)", "(?=[0123456789a])"),  # look-behind skipped, branch
        (r"(?:Blk\s+)?[0-9]{1,4}", "(?=[0123456789B])"),  # optional prefix: what follows too
        (r"[a-c]?-?x", "(?=[\\-abcx])"),  # two optional parts in a row
        (r"(?i:blk)[0-9]", "(?=(?i:[b]))"),  # a letter in either case
        (r"#[0-9]{2}", "(?=[\\#])"),
        # a branch of look-behinds only takes no character: the digits that follow start
        # the match (the date expression's "seen on 12/05" branch left it ungated)
        (r"(?:(?<=\bon )|(?<=seen: ))[0-9]{2}", "(?=[0123456789])"),
        (r"(?:x|)y", "(?=[xy])"),  # an empty alternative: what follows too
    ],
)
def test_the_look_ahead_holds_every_first_character(expression: str, look_ahead: str) -> None:
    assert gated(re.compile(expression)).pattern == look_ahead + expression


@pytest.mark.parametrize(
    "expression",
    [
        r"\w+@",  # a class of any letter: unknown set
        r"[^ ]x",  # a negated class
        r"(?:a)?",  # may match nothing
        r"\bname",  # a word boundary: not read
        r"[a-z]+ [a-z]+",  # every lower-case letter: nothing to gain
    ],
)
def test_an_unknown_or_too_wide_first_character_leaves_the_expression(expression: str) -> None:
    regex = re.compile(expression)
    assert gated(regex) is regex


NOTES = [
    "NRIC S1234567D, call 9123 4567 on 18 May 2024; email a.tan@example.com",
    "Mdm Tan at Blk 512 Bedok North Ave 2 #11-204 Singapore 460512; MRN 12345678",
    "SSN 123-45-6789, NI number AB 12 34 56 C, Aadhaar 2345 6789 0123, www.example.org",
    "ıstanbul Kelvin ſam KELVIN 12-34-56-78-9A-BC 192.168.0.1 fe80::1 $1,200 SGD 30",
]


@pytest.mark.parametrize("kind", sorted(PATTERNS))
def test_the_gated_expression_matches_what_the_expression_matches(kind: str) -> None:
    regex = PATTERNS[kind].regex
    for note in NOTES:
        assert [m.span() for m in gated(regex).finditer(note)] == [
            m.span() for m in regex.finditer(note)
        ], (kind, note)


def test_the_date_expression_is_gated_and_finds_the_same_dates() -> None:
    regex = PATTERNS["date"].regex
    fast = gated(regex)
    assert fast is not regex  # its branch of look-behinds no longer hides the first characters
    text = "seen on 12/05, review 3/11; DOB 1990-02-03 and 5 May; BP 120/80, on 2/3 of days"
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in regex.finditer(text)]
    assert len(list(regex.finditer(text))) >= 3
