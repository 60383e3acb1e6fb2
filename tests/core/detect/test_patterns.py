"""core.detect.patterns: each identifier kind with positive and negative examples."""

from __future__ import annotations

import pandas as pd
import pytest

from core.detect import find_entities, register_pattern, unregister_pattern
from core.detect.patterns import PATTERNS, full_match_mask, valid_nino, valid_ssn
from core.errors import ParameterError
from core.identifiers import make_nrics


def kinds_in(text: str) -> list[tuple[str, str]]:
    return [(e.kind, e.text) for e in find_entities(text)]


@pytest.mark.parametrize(
    ("kind", "good", "bad"),
    [
        ("email", ["ann.lee+x@mail.example.org", "x@y.com"], ["ann@", "@example.org", "a@b"]),
        ("url", ["https://example.org/a?b=1", "www.example.com"], ["example", "http:/x"]),
        ("ipv4", ["12.120.210.88", "0.0.0.0"], ["256.1.1.1", "1.2.3", "1.2.3.4.5"]),
        ("ipv6", ["2001:db8::ff00:42:8329", "fe80::1"], ["12:34", "abcd"]),
        (
            "mac",
            ["00:1A:2B:3C:4D:5E", "00-1a-2b-3c-4d-5e"],
            ["00:1A:2B:3C:4D", "00:1A-2B:3C:4D:5E"],
        ),
        (
            "ssn",
            ["123-45-6789", "078-05-1120"],
            [
                "000-12-3456",
                "666-12-3456",
                "900-12-3456",
                "123-00-4567",
                "123-45-0000",
                "123-45 6789",
            ],
        ),
        (
            "nino",
            ["AB123456C", "AB 12 34 56 C"],
            ["QQ123456C", "BG123456A", "AO123456A", "AB123456E", "DA123456A"],
        ),
        ("vehicle_plate", ["SMF1234A", "SBA12B"], ["SMF12345A", "smf1234a"]),
        ("date", ["2024-01-31", "31/01/2024", "31 Jan 2024", "January 31, 2024"], ["2024", "Jan"]),
        ("postal_code", ["806799"], ["80679", "8067990"]),
        ("money", ["$13,000", "SGD 200"], ["13000"]),
    ],
)
def test_whole_cell_kinds(kind, good, bad):
    values = pd.Series(good + bad, dtype="str")
    mask = full_match_mask(values, kind)
    assert mask.tolist() == [True] * len(good) + [False] * len(bad)


def test_nric_needs_the_right_check_letter():
    rng = __import__("numpy").random.default_rng(3)
    good = make_nrics(rng, 20, prefixes="STFGM")
    # Change the check letter: a wrong letter is never accepted.
    bad = [n[:-1] + ("A" if n[-1] != "A" else "B") for n in good]
    mask = full_match_mask(pd.Series(good + bad, dtype="str"), "nric")
    assert mask.sum() == 20 and mask[:20].all()


def test_ssn_rules_by_hand():
    # Area 000, 666 and 900-999 are never issued; group 00 and serial 0000 neither (SSA).
    assert valid_ssn("123-45-6789")
    for bad in ["000-12-3456", "666-12-3456", "987-65-4321", "123-00-6789", "123-45-0000"]:
        assert not valid_ssn(bad), bad


def test_nino_prefix_rules_by_hand():
    assert valid_nino("AB123456C") and valid_nino("ZY123456A")
    for bad in ["DA123456A", "AD123456A", "AO123456A", "GB123456A", "NK123456A", "ZZ123456A"]:
        assert not valid_nino(bad), bad


def test_patterns_inside_text():
    text = (
        "SSN 123-45-6789 (not 000-12-3456), NINO AB 12 34 56 C, see https://x.example/a, "
        "IP 192.168.1.10 or fe80::1, MAC 00:1A:2B:3C:4D:5E, car SMF1234A, seen 3 Feb 2024, "
        "MRN: A1234567, mail ann@x.example."
    )
    found = kinds_in(text)
    assert ("ssn", "123-45-6789") in found
    assert all(t != "000-12-3456" for _, t in found)
    assert ("nino", "AB 12 34 56 C") in found
    assert ("url", "https://x.example/a") in found
    assert ("ipv4", "192.168.1.10") in found and ("ipv6", "fe80::1") in found
    assert ("mac", "00:1A:2B:3C:4D:5E") in found
    assert ("vehicle_plate", "SMF1234A") in found
    assert ("date", "3 Feb 2024") in found
    # The record number only: the word "MRN" stays readable after redaction.
    assert ("record_code", "A1234567") in found
    assert ("email", "ann@x.example") in found


def test_no_entities_in_plain_words():
    assert kinds_in("the patient felt better after a week of rest and fluids") == []
    assert kinds_in("version 2 of the form, page 3") == []


def test_register_pattern_is_used_everywhere_and_checked():
    try:
        register_pattern(
            "passport_sg", r"[EK][0-9]{7}[A-Z]", description="a Singapore passport number"
        )
        assert ("passport_sg", "E1234567N") in kinds_in("passport E1234567N issued")
        assert kinds_in("code XE1234567NX") == []  # not inside a longer word
        from core.schema import suggest_roles

        df = pd.DataFrame({"c1": [f"K{i:07d}A" for i in range(20)]})
        (s,) = suggest_roles(df)
        assert s.kind == "passport_sg" and "registered pattern" in s.reason
    finally:
        unregister_pattern("passport_sg")
    assert "passport_sg" not in PATTERNS
    with pytest.raises(ParameterError, match="built in"):
        register_pattern("email", r"x")
    with pytest.raises(ParameterError, match="invalid"):
        register_pattern("broken", r"([")
    with pytest.raises(ParameterError, match="empty"):
        register_pattern("empty", r"x*")
    with pytest.raises(ParameterError, match="label"):
        register_pattern("lower", r"x", label="id")
