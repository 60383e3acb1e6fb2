"""ASCII forms of the scan's case-insensitive expressions (core.detect.ascii_form): the same
matches as the expression itself on plain texts, and plain texts only read by them."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

from core.detect.ascii_form import NOT_PLAIN, ascii_form
from core.detect.names import CUED_NAME
from core.detect.patterns import PATTERNS
from core.detect.text import _find, _find_many, entity_kinds
from scripts import make_pii_data

ROOT = Path(__file__).resolve().parents[3]
SCAN_EXPRESSIONS = {
    "date": PATTERNS["date"].regex,
    "record_code": PATTERNS["record_code"].regex,
    "url": PATTERNS["url"].regex,
    "cued_name": CUED_NAME,
}


def test_only_four_letters_beyond_ascii_fold_to_an_ascii_letter():
    # The module's premise, over every code point: under Unicode and IGNORECASE, no
    # character beyond ASCII but U+0130, U+0131, U+017F and U+212A matches an ASCII one.
    others = re.compile(
        "[\x80-\u012f\u0132-\u017e\u0180-\u2129\u212b-" + chr(sys.maxunicode) + "]", re.I
    )
    assert [chr(c) for c in range(128) if others.match(chr(c))] == []
    for letter, ascii_letters in [("İ", "Ii"), ("ı", "Ii"), ("ſ", "Ss"), ("K", "Kk")]:
        folded = re.compile(letter, re.I)
        assert [chr(c) for c in range(128) if folded.match(chr(c))] == sorted(ascii_letters)


@pytest.mark.parametrize(
    "pattern",
    [
        "(?i)ſ",  # matches "s" under Unicode, nothing ASCII under re.ASCII
        "(?i)[^ſ]",
        "(?i)[a-rſ]",
        "(?i)x[\u0100-\u017e]",  # a range holding İ, ı and ſ
        "(?i)a\u212a",  # the Kelvin sign matches "k"
    ],
)
def test_an_expression_whose_ascii_form_could_differ_gets_none(pattern):
    regex = re.compile(pattern)
    assert ascii_form(regex) is None
    # Under Unicode each finds something in this ASCII text.
    assert regex.search("as ik ak xs xi") is not None


def test_a_class_holding_the_ascii_letter_too_has_an_ascii_form():
    assert ascii_form(re.compile("(?i)[a-zſ]+")) is not None
    assert ascii_form(re.compile("[a-z]+")) is None  # not read in either case: not worth it


def _plain_texts() -> list[str]:
    table = pd.read_csv(
        ROOT / "bench/data/independent_pii/dev_table.csv", dtype=str, keep_default_na=False
    )
    notes = table["txt"].tolist() + [n.text for n in make_pii_data.labelled_notes(400, 9)]
    notes += [n.lower() for n in notes[:300]] + [n.upper() for n in notes[:300]]
    rng = random.Random(26)
    pieces = ["MRN", ": ", "A1234567", " 12 May ", "2024-03-05", "spoke to ", "Siti", "mr tan"]
    pieces += ["www.x.sg", " no. ", "\t", "\n", "Acct", "#", "de ", "marzo", "1990", "s", "k"]
    notes += ["".join(rng.choice(pieces) for _ in range(12)) for _ in range(2000)]
    return [n for n in notes if not re.search(NOT_PLAIN, n)]


@pytest.mark.parametrize("name", sorted(SCAN_EXPRESSIONS))
def test_the_ascii_form_matches_as_the_expression_on_plain_texts(name):
    regex = SCAN_EXPRESSIONS[name]
    fast = ascii_form(regex)
    assert fast is not None
    texts = _plain_texts()
    found = 0
    for text in texts:
        expected = [(m.span(), m.groups()) for m in regex.finditer(text)]
        assert [(m.span(), m.groups()) for m in fast.finditer(text)] == expected, text
        found += len(expected)
    assert found > 20


def test_texts_that_are_not_plain_are_read_by_the_expression_itself():
    # Python reads the separators \x1c-\x1f as white space under Unicode only, and folds
    # "ſ" to "s": the column scan must find what the one-text scan finds.
    texts = [
        "MRN\x1cA1234567 seen",
        "MRN\x1fA1234567",
        "ſpoke to siti today",
        "Acct\x1d No. 12345678",
        "MRN: A1234567",
        "spoke to siti",
    ]
    chosen = entity_kinds()
    expected = [_find(text, chosen, "SG") for text in texts]
    assert _find_many(texts, chosen, "SG") == expected
    assert any(e.kind == "record_code" for e in expected[0])
