"""UK NHS numbers and Indian Aadhaar numbers (issue 26): found with their published checks
in free text (with or without a label) and in a column, and random numbers of the same
shape are not.

The checks, written out by hand (not by the code under test):

* NHS number 943 476 5919 (the NHS Data Dictionary's example): weights 10..2 on the first
  nine digits: 9x10 + 4x9 + 3x8 + 4x7 + 7x6 + 6x5 + 5x4 + 9x3 + 1x2 = 90 + 36 + 24 + 28
  + 42 + 30 + 20 + 27 + 2 = 299; 299 = 11 x 27 + 2; check 11 - 2 = 9: the last digit.
  401 023 213: 4x10 + 0 + 1x8 + 0 + 2x6 + 3x5 + 2x4 + 1x3 + 3x2 = 40 + 8 + 12 + 15 + 8
  + 3 + 6 = 92 = 11 x 8 + 4, check 11 - 4 = 7: 401 023 2137. A remainder of 1 gives 10,
  never issued (123 456 789, worked in the test below).
* Aadhaar, Verhoeff's check (tables d and p of Verhoeff 1969): Wikipedia's worked example
  "2363" (digits from the right 3, 6, 3, 2): c = d[0][p0(3)=3] = 3; d[3][p1(6)=3] = 1;
  d[1][p2(3)=3] = 4; d[4][p3(2)=1] = 0: valid. UIDAI's 12-digit example as printed in
  python-stdnum's documentation: 2341 2341 2346 is valid, 2341 2341 2347 is not.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.detect import find_entities
from core.detect.national_ids import valid_aadhaar, valid_nhs
from core.schema import suggest_roles


def _nhs_check(nine: str) -> int | None:
    """The NHS check digit by the published rule, written independently of the code."""
    total = sum(int(d) * w for d, w in zip(nine, range(10, 1, -1), strict=True))
    check = 11 - total % 11
    return None if check == 10 else check % 11


def test_nhs_worked_examples() -> None:
    assert valid_nhs("943 476 5919")
    assert valid_nhs("9434765919")
    assert valid_nhs("4010232137")
    assert not valid_nhs("9434765918")
    # only one last digit of ten passes
    assert [d for d in "0123456789" if valid_nhs(f"943476591{d}")] == ["9"]
    # 123 456 789: 10 + 18 + 24 + 28 + 30 + 30 + 28 + 24 + 18 = 210 = 11 x 19 + 1,
    # 11 - 1 = 10: no NHS number starts 123456789, whatever its last digit
    assert not any(valid_nhs(f"123456789{d}") for d in "0123456789")
    # 100 000 000: 1x10 = 10, 11 - 10 = 1
    assert valid_nhs("1000000001")
    # 110 000 000: 10 + 9 = 19 = 11 + 8, 11 - 8 = 3
    assert valid_nhs("1100000003")
    # a remainder of 0 gives 11, written 0: 000 000 000 sums to 0, 11 - 0 = 11 -> 0
    assert valid_nhs("0000000000")


def test_aadhaar_worked_examples() -> None:
    assert valid_aadhaar("2341 2341 2346")
    assert valid_aadhaar("234123412346")
    assert not valid_aadhaar("234123412347")
    assert not valid_aadhaar("134123412346")  # no Aadhaar starts with 0 or 1
    # only one last digit of ten passes
    assert [d for d in "0123456789" if valid_aadhaar(f"23412341234{d}")] == ["6"]


def test_agrees_with_python_stdnum() -> None:
    stdnum_nhs = pytest.importorskip("stdnum.gb.nhs")
    stdnum_aadhaar = pytest.importorskip("stdnum.in_.aadhaar")
    rng = np.random.default_rng(26)
    for number in rng.integers(10**9, 10**10 - 1, size=3000):
        text = str(number)
        assert valid_nhs(text) == bool(stdnum_nhs.is_valid(text)), text
    for number in rng.integers(10**11, 10**12 - 1, size=3000):
        text = str(number)
        assert valid_aadhaar(text) == bool(stdnum_aadhaar.is_valid(text)), text


def _nhs_numbers(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        # England and Wales issue from 400 000 000 and from 600 000 000 (not 5xx)
        nine = str(
            rng.choice(
                [rng.integers(400_000_000, 499_999_999), rng.integers(600_000_000, 799_999_999)]
            )
        )
        check = _nhs_check(nine)
        if check is not None:
            out.append(f"{nine}{check}")
    return out


def _aadhaar_numbers(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        text = str(rng.integers(2 * 10**11, 10**12 - 1))
        if valid_aadhaar(text):  # checked against stdnum in the test above
            out.append(text)
    return out


def test_nhs_in_free_text_spaced_bare_and_after_its_label() -> None:
    note = "NHS number 943 476 5919 seen today; her brother's NHS no. 4010232137 too."
    found = {(e.kind, e.text) for e in find_entities(note)}
    assert ("nhs", "943 476 5919") in found
    assert ("nhs", "4010232137") in found
    # bare, without a label: read when it passes the check (no phone label)
    for number in _nhs_numbers(20, 5):
        kinds = [(e.kind, e.text) for e in find_entities(f"pt {number} reviewed")]
        assert kinds == [("nhs", number)], kinds


def test_aadhaar_in_free_text_spaced_and_bare() -> None:
    note = "Aadhaar 2341 2341 2346 on file; her husband's is 234123412346."
    found = {(e.kind, e.text) for e in find_entities(note)}
    assert found == {("aadhaar", "2341 2341 2346"), ("aadhaar", "234123412346")}
    for number in _aadhaar_numbers(20, 6):
        kinds = [(e.kind, e.text) for e in find_entities(f"uid {number} checked")]
        assert kinds == [("aadhaar", number)], kinds


def test_wrong_checks_are_not_nhs_or_aadhaar_in_free_text() -> None:
    note = "batch 943 476 5918 and lot 2341 2341 2347, run 234123412347 done"
    kinds = {e.kind for e in find_entities(note)}
    assert "nhs" not in kinds and "aadhaar" not in kinds


def test_columns_of_nhs_and_aadhaar_are_national_ids_and_random_digits_are_not() -> None:
    nhs = _nhs_numbers(60, 7)
    aadhaar = _aadhaar_numbers(60, 8)
    rng = np.random.default_rng(9)
    table = pd.DataFrame(
        {
            "c1": nhs,
            "c2": [f"{x[:3]} {x[3:6]} {x[6:]}" for x in nhs],
            "c3": [int(x) for x in nhs],
            "c4": aadhaar,
            "c5": [f"{x[:4]} {x[4:8]} {x[8:]}" for x in aadhaar],
            "c6": [str(x) for x in rng.integers(10**9, 10**10 - 1, 60)],
            "c7": [str(x) for x in rng.integers(2 * 10**11, 10**12 - 1, 60)],
        }
    )
    roles = {s.column: s for s in suggest_roles(table)}
    for column in ("c1", "c2", "c3"):
        assert roles[column].kind == "national_id", roles[column].reason
        assert "NHS" in roles[column].reason
    for column in ("c4", "c5"):
        assert roles[column].kind == "national_id", roles[column].reason
        assert "Aadhaar" in roles[column].reason
    # random digits pass each check about 1 time in 10: not a national-ID column
    assert roles["c6"].kind != "national_id"
    assert roles["c7"].kind != "national_id"
