"""The column-wide scan (one search per expression over all the texts) finds exactly what
the scanner finds one text at a time (core.detect.text._find_many against _find)."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from core.detect import register_pattern, unregister_pattern
from core.detect.text import _find, _find_many, entity_kinds, redact_series, resolve_kinds
from scripts import make_pii_data

# Texts where a match could run from one text into the next once they are joined by a
# newline (the record-code and address expressions allow white space), texts in other
# scripts, empty texts and texts with no possible entity.
EDGE_TEXTS = [
    "MRN",
    "A1234567 seen today",
    "MRN\nA1234567",
    "Blk 5",
    "Jalan Besar",
    "Blk 5\nJalan Besar Singapore 208787",
    "Call",
    "Siti",
    "Call\nSiti",
    "spoke to",
    "siti on the phone",
    "a@b.co\nTan Ah Kow",
    "tel\n07911 123456",
    "",
    " ",
    "nothing here at all",
    "患者 陈伟 电话 +65 9123 4567",
    "Ｍr Ｔan",  # full-width letters
    "ſpoke to siti",  # long s: Python folds it to "s" under IGNORECASE
    "Seen by Dr Lim\non 2024-03-05",
    "+65 9123\n4567",
]


def _notes(n: int, seed: int) -> list[str]:
    return [note.text for note in make_pii_data.labelled_notes(n, seed)]


def _hand_written() -> list[str]:
    from bench.detect_notes import NOTES as FIRST
    from bench.detect_notes_heldout import NOTES as HELD_OUT

    return [text for text, _ in (*FIRST, *HELD_OUT)]


@pytest.mark.parametrize("kinds", [None, "name", ("phone", "date"), ("address", "id")])
def test_the_column_scan_equals_the_scan_of_each_text(kinds):
    texts = _notes(1500, seed=404) + _hand_written() + EDGE_TEXTS
    chosen = resolve_kinds(kinds)
    one_by_one = [_find(text, chosen, "SG") for text in texts]
    assert _find_many(texts, chosen, "SG") == one_by_one
    assert sum(map(len, one_by_one)) > 100  # the texts do hold entities of these kinds


def test_a_match_running_into_the_next_text_is_read_text_by_text():
    # Joined by a newline, "MRN" and "A1234567" would read as one record number.
    texts = ["MRN", "A1234567 seen"]
    assert _find_many(texts, entity_kinds(), "SG") == [[], []]
    assert [e.text for e in _find_many(["MRN: A1234567"], entity_kinds(), "SG")[0]] == ["A1234567"]


def test_registered_patterns_are_read_text_by_text():
    register_pattern("staff_no", r"STF-[0-9]{5}", label="ID")
    try:
        texts = ["staff STF-12345 on duty", "STF-", "-99999", "no staff number"]
        chosen = entity_kinds()
        assert _find_many(texts, chosen, "SG") == [_find(t, chosen, "SG") for t in texts]
        assert [e.kind for e in _find_many(texts, chosen, "SG")[0]] == ["staff_no"]
    finally:
        unregister_pattern("staff_no")


def test_redaction_of_a_column_is_the_redaction_of_each_cell():
    texts = _notes(300, seed=405) + EDGE_TEXTS
    column = pd.Series(texts + [None, texts[0]], dtype=object)
    out, changed = redact_series(column, lambda e: f"[{e.label}]")
    for before, after, was_changed in zip(column, out, changed, strict=True):
        if before is None:
            assert after is None and not was_changed
            continue
        pieces, position = [], 0
        for entity in _find(before, entity_kinds(), "SG"):
            pieces += [before[position : entity.start], f"[{entity.label}]"]
            position = entity.end
        expected = "".join(pieces) + before[position:]
        assert after == expected and was_changed == bool(pieces)


def test_a_text_with_a_lone_surrogate_is_scanned_alone_not_a_crash():
    # Broken UTF-16 read as text cannot go to pyarrow; it is read alone, the others together.
    texts = ["Call Tan Ah Kow on 9123 4567", "bad \ud800 Mr Lim"]
    chosen = entity_kinds()
    found = _find_many(texts, chosen, "SG")
    assert found == [_find(t, chosen, "SG") for t in texts]
    assert [e.text for e in found[1]] == ["Lim"]


@pytest.mark.parametrize("kind", ["ipv6", "mac"])
def test_the_looser_form_keeps_every_text_the_expression_matches(kind):
    # The RE2 filter may keep too much, never too little: any text in which the kind's
    # own expression finds a match must be kept (random texts of hex digits, colons,
    # dashes and spaces, where the addresses and their look-alikes live).
    import pyarrow as pa
    import pyarrow.compute as pc

    from core.detect.patterns import PATTERNS
    from core.detect.text import _LOOSER

    rng = random.Random(6)

    def group() -> str:
        size = 2 if rng.random() < 0.8 else rng.randint(1, 4)  # a MAC's pairs, IPv6's groups
        return "".join(rng.choice("0123456789abcdefABCDEFg") for _ in range(size))

    def shaped() -> str:  # groups joined by mostly one separator: addresses and near misses
        usual = rng.choice([":", "-", "::"])
        parts = [group()]
        for _ in range(rng.randint(0, 8)):
            parts += [usual if rng.random() < 0.85 else rng.choice([":", "-", " ", "::"]), group()]
        return rng.choice(["", "x", " ", ":"]) + "".join(parts) + rng.choice(["", " ", ":", "g"])

    texts = [shaped() for _ in range(20_000)]
    texts += ["fe80::1", "::1", "2001:db8::", "2001:0db8:85a3:0000:0000:8a2e:0370:7334"]
    texts += ["00:1a:2b:3c:4d:5e", "00-1A-2B-3C-4D-5E"]
    kept = pc.match_substring_regex(pa.array(texts), _LOOSER[kind]).to_pylist()
    matched = [PATTERNS[kind].regex.search(t) is not None for t in texts]
    assert all(k for k, m in zip(kept, matched, strict=True) if m)
    assert sum(matched) > 100  # the texts hold many addresses of the kind


def test_record_numbers_and_addresses_are_found_in_a_long_column_as_in_each_text():
    # A column of over 20,000 characters is filtered by RE2 before the record-number
    # expression reads it; the filter once lacked the "=" the expression allows
    # ("Account = 48213377"), so the column scan missed what each text's scan found.
    texts = [
        f"Visit {i}: the weather was fine, nothing of note, all calm today. " * 3
        for i in range(120)
    ]
    texts += ["Account = 48213377 on file", "MRN = A1234567 kept", "SSN is 219099999"]
    texts += [
        "agent: and ID? | customer: 31 022 447 | agent: thanks",
        "Ka Ho of Flat C, Kwai Chung",
    ]
    assert sum(map(len, texts)) > 20_000
    alone = [[(e.kind, e.text) for e in _find(t, entity_kinds(), "SG")] for t in texts]
    together = [
        [(e.kind, e.text) for e in found] for found in _find_many(texts, entity_kinds(), "SG")
    ]
    assert together == alone
    assert ("record_code", "48213377") in alone[-5]
    assert ("record_code", "31 022 447") in alone[-2] and (
        "address",
        "Flat C, Kwai Chung",
    ) in alone[-1]


def test_the_record_word_filter_keeps_every_text_the_expression_matches():
    # As for IP and MAC addresses above: texts built from record words, separators and
    # values, and words that hold a record word inside ("said", "paid", "Maidstone").
    import pyarrow as pa
    import pyarrow.compute as pc

    from core.detect.ascii_form import NOT_PLAIN
    from core.detect.patterns import PATTERNS
    from core.detect.text import _LOOSER

    rng = random.Random(8)
    words = ["MRN", "ssn", "Account No.", "a/c", "ID", "Ref", "NRIC", "Policy", "PAN", "lic"]
    words += ["said", "paid", "Maidstone", "avid", "x", "-", "SIN", "sin", "NI No"]
    between = ["", " ", ": ", " = ", " is ", " was ", "#", " (", "-", " :: "]
    between += [" for WFF query: ", " of the car owner: ", "? | customer: ", " ?|client:"]
    values = ["48213377", "A1234567", "219099999", "046 454 286", "AB", "12", "x9y8z7"]
    texts = [
        "".join(rng.choice(pieces) for pieces in (words, between, values, [" ", "", "a", "-"]))
        for _ in range(20_000)
    ]
    texts = [rng.choice(["", "the ", "x", "-", "é "]) + t for t in texts]
    array = pa.array(texts)
    # the scan keeps every text beyond ASCII whatever the filter says
    kept = pc.or_(
        pc.match_substring_regex(array, _LOOSER["record_code"]),
        pc.match_substring_regex(array, NOT_PLAIN),
    ).to_pylist()
    matched = [PATTERNS["record_code"].regex.search(t) is not None for t in texts]
    missed = [t for t, k, m in zip(texts, kept, matched, strict=True) if m and not k]
    assert not missed, missed[:5]
    assert sum(matched) > 1_000
