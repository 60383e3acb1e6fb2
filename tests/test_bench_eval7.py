"""The eval7 held-out set (bench/data/eval7/, notes only) is consistent.

No detector runs here: the labels are checked against the hand-written notes, and the
identifier rules of ``bench/make_eval7.py`` against published examples worked by hand.
"""

from __future__ import annotations

import pytest

from bench.make_eval7 import (
    DATA,
    DIRECT_KINDS,
    KINDS,
    ORIGINS,
    check_spans,
    hkid_ok,
    nhs_ok,
    nric_ok,
    parse_notes,
)
from tests import bench_set_checks as checks

spans, notes = checks.spans_and_notes_fixtures(DATA)


def test_notes_csv_and_spans_csv_are_what_notes_txt_says(spans, notes):
    texts, marked = parse_notes((DATA / "notes.txt").read_text("utf-8"))
    checks.assert_csv_is_what_notes_txt_says(spans, notes, texts, marked)
    assert notes["note"].tolist() == list(range(len(texts)))


def test_every_span_cuts_out_its_text_and_the_checks_pass(spans, notes):
    checks.assert_spans_sit_on_their_text(spans, notes, KINDS, ORIGINS, DIRECT_KINDS)
    counts = check_spans(notes["text"].tolist(), [tuple(s) for s in spans.itertuples(index=False)])
    for kind in ("nric", "aadhaar", "nhs", "ssn", "ird", "hkid", "nik"):
        assert counts["ids"][kind] >= 3, kind


def test_at_least_120_distinct_notes_and_every_kind_and_origin(spans, notes):
    checks.assert_distinct_notes_with_every_kind_and_origin(
        spans, notes, KINDS, ORIGINS, at_least=120
    )


def test_a_wrong_check_digit_or_an_overlap_is_refused():
    with pytest.raises(ValueError, match="fails its check"):
        check_spans(["ic S1234567E"], [(0, 3, 12, "id", "", True, "S1234567E")])
    with pytest.raises(ValueError, match="overlaps"):
        check_spans(
            ["Amy Lim"],
            [(0, 0, 7, "name", "x", True, "Amy Lim"), (0, 4, 7, "name", "x", True, "Lim")],
        )
    with pytest.raises(ValueError, match="not over 89"):
        check_spans(["aged 89"], [(0, 5, 7, "age", "", False, "89")])


def test_check_rules_on_examples_worked_by_hand():
    # NRIC S1234567D: 1*2+2*7+3*6+4*5+5*4+6*3+7*2 = 106, 106 mod 11 = 7, "JZIHGFEDCBA"[7] = D
    assert nric_ok("S1234567D") and nric_ok("S 1234567 D") and not nric_ok("S1234567E")
    # T: +4 -> 110 mod 11 = 0 -> J
    assert nric_ok("T1234567J")
    # HKID A123456(3): 36*9 + 10*8 + 1*7+2*6+3*5+4*4+5*3+6*2 = 481, 481 mod 11 = 8, 11-8 = 3
    assert hkid_ok("A123456(3)") and hkid_ok("A123456 (3)") and not hkid_ok("A123456(4)")
    # NHS 943 476 5919: 9*10+4*9+3*8+4*7+7*6+6*5+5*4+9*3+1*2 = 299, 299 mod 11 = 2, 11-2 = 9
    assert nhs_ok("943 476 5919") and not nhs_ok("943 476 5918")
