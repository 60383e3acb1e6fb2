"""National identity numbers of Malaysia, Indonesia, the Philippines, Australia and Hong
Kong (issue 26): valid numbers whose checks are worked out by hand below, and look-alikes
(one digit changed, an impossible date, an unused code) refused."""

from __future__ import annotations

import pandas as pd

from core.detect import find_entities
from core.detect.national_ids import (
    valid_hkid,
    valid_medicare,
    valid_mykad,
    valid_nik,
    valid_psn,
    valid_tfn,
)
from core.schema import Role, suggest_roles


def test_tfn_by_hand() -> None:
    # 123 456 782, weights 1,4,3,7,5,8,6,9,10:
    # 1*1 + 2*4 + 3*3 + 4*7 + 5*5 + 6*8 + 7*6 + 8*9 + 2*10
    # = 1 + 8 + 9 + 28 + 25 + 48 + 42 + 72 + 20 = 253 = 11 * 23   -> valid
    assert valid_tfn("123 456 782")
    assert valid_tfn("123456782")
    # last digit 3: 253 + 10 = 263 = 11 * 23 + 10                 -> invalid
    assert not valid_tfn("123456783")
    # 876 543 210: 8 + 28 + 18 + 35 + 20 + 24 + 12 + 9 + 0 = 154 = 11 * 14 -> valid
    assert valid_tfn("876 543 210")
    # two digits swapped: 786 543 210: 7 + 32 + 18 + 35 + 20 + 24 + 12 + 9 + 0 = 157 -> invalid
    assert not valid_tfn("786 543 210")
    assert not valid_tfn("12345678")  # 8 digits
    assert not valid_tfn("1234567820")  # 10 digits


def test_medicare_by_hand() -> None:
    # 2123 45670 1: weights 1,3,7,9,1,3,7,9 on 2,1,2,3,4,5,6,7:
    # 2 + 3 + 14 + 27 + 4 + 15 + 42 + 63 = 170, 170 mod 10 = 0 = 9th digit  -> valid
    assert valid_medicare("2123 45670 1")
    assert valid_medicare("21234567011")  # with the person's reference number
    assert not valid_medicare("2123 45671 1")  # 9th digit 1, not 0
    # 2950 31471 1: 2 + 27 + 35 + 0 + 3 + 3 + 28 + 63 = 161 -> 1 = 9th digit -> valid
    assert valid_medicare("2950314711")
    # first digit 1 is never issued (2-6), even with a right check digit:
    # 1123 4567 ?: 1 + 3 + 14 + 27 + 4 + 15 + 42 + 63 = 169 -> 9
    assert not valid_medicare("1123456791")
    assert not valid_medicare("212345670")  # 9 digits


def test_hkid_by_hand() -> None:
    # A123456(3): one letter, so a blank (36) first; weights 9..2:
    # 36*9 + 10*8 + 1*7 + 2*6 + 3*5 + 4*4 + 5*3 + 6*2
    # = 324 + 80 + 7 + 12 + 15 + 16 + 15 + 12 = 481; 481 mod 11 = 8; 11 - 8 = 3 -> (3)
    assert valid_hkid("A123456(3)")
    assert valid_hkid("A1234563")
    assert not valid_hkid("A123456(4)")
    # Z683365(A): 324 + 35*8 + 6*7 + 8*6 + 3*5 + 3*4 + 6*3 + 5*2
    # = 324 + 280 + 42 + 48 + 15 + 12 + 18 + 10 = 749; 749 mod 11 = 1; 11 - 1 = 10 -> A
    assert valid_hkid("Z683365(A)")
    assert not valid_hkid("Z683365(0)")
    # two letters: AB987654(?): 10*9 + 11*8 + 9*7 + 8*6 + 7*5 + 6*4 + 5*3 + 4*2
    # = 90 + 88 + 63 + 48 + 35 + 24 + 15 + 8 = 371; 371 mod 11 = 8; 11 - 8 = 3 -> (3)
    assert valid_hkid("AB987654(3)")
    assert not valid_hkid("AB987654(2)")
    assert not valid_hkid("ABC98765(4)")


def test_mykad_date_and_place_of_birth() -> None:
    # 850812-14-5678: 12 Aug 1985, place 14 (Kuala Lumpur): valid, no check digit exists
    assert valid_mykad("850812-14-5678")
    assert valid_mykad("850812145678")
    assert valid_mykad("000229-10-1234")  # 29 Feb 2000 is real
    assert not valid_mykad("850231-14-5678")  # 31 Feb
    assert not valid_mykad("851312-14-5678")  # month 13
    assert not valid_mykad("850812-17-5678")  # 17: no place of JPN's list
    assert not valid_mykad("850812-00-5678")
    assert not valid_mykad("850812-70-5678")
    assert not valid_mykad("85081214567")  # 11 digits


def test_nik_province_date_serial() -> None:
    # 31 74 05 | 57 08 79 | 0003: DKI Jakarta (31), regency 74, district 05, day 57 = 17 + 40
    # (a woman), August, '79, serial 3
    assert valid_nik("3174055708790003")
    assert valid_nik("3273120303850012")  # Jawa Barat, a man born 3 March '85
    assert not valid_nik("2074055708790003")  # 20: no province
    assert not valid_nik("3100055708790003")  # regency 00
    assert not valid_nik("3174053208790003")  # day 32
    assert not valid_nik("3174055713790003")  # month 13
    assert not valid_nik("3174055708790000")  # serial 0000
    assert not valid_nik("5412345678901234")  # a card-like number: 54 is no province


def test_psn_grouped_only() -> None:
    assert valid_psn("4821-0937-5516")
    assert valid_psn("4821 0937 5516")
    assert not valid_psn("4821-0937 5516")  # two different separators
    assert not valid_psn("482109375516")  # no check digit: the grouping is the evidence


def test_found_in_text_with_their_names_and_shapes() -> None:
    text = (
        "Pt KP 850812-14-5678, NIK 3174055708790003, TFN 123 456 782, Medicare 2123 45670 1, "
        "HKID A123456(3), PSN 4821-0937-5516."
    )
    found = {(e.kind, e.text) for e in find_entities(text)}
    for kind, value in [
        ("mykad", "850812-14-5678"),
        ("nik", "3174055708790003"),
        ("tfn", "123 456 782"),
        ("medicare", "2123 45670 1"),
        ("hkid", "A123456(3)"),
        ("psn", "4821-0937-5516"),
    ]:
        assert any(k == kind and v == value for k, v in found), (kind, found)


def test_random_digits_are_not_ids_in_text() -> None:
    # wrong check digits in the right shapes: nothing is an ID
    text = "codes 123 456 783, 2123 45671 1, A123456(4), 850231-14-5678 and 2074055708790003"
    assert not [e for e in find_entities(text) if e.label == "ID"]


def test_step1_columns_of_each_kind() -> None:
    table = pd.DataFrame(
        {
            "c1": ["850812-14-5678", "920101-10-1234", "750315-08-5523", "010203-01-2244"],
            "c2": ["3174055708790003", "3273120303850012", "3578026112900021", "3374080906620007"],
            "c3": ["876 543 210", "123456782", "876543210", "123 456 782"],
            "c4": ["2123 45670 1", "2950314711", "2123456701", "2950 31471 1"],
            "c5": ["A123456(3)", "Z683365(A)", "AB987654(3)", "a123456(3)"],
            "c6": ["4821-0937-5516", "7302-1184-6690", "5519-2260-3847", "9047-3318-2205"],
        }
    )
    for suggestion in suggest_roles(table):
        assert suggestion.kind == "national_id", suggestion
        assert suggestion.role == Role.DIRECT


def test_lot_numbers_starting_with_a_recent_date_are_not_mykad() -> None:
    """12 digits starting with a real date and a valid place code, but all dated within a
    year or two: lot numbers, not MyKad numbers of people born over a generation."""
    lots = [
        f"2{4 + i % 2}{(i % 12) + 1:02d}{(i % 28) + 1:02d}{(i * 7) % 60 + 1:02d}{i:04d}"
        for i in range(60)
    ]
    assert sum(map(valid_mykad, lots)) >= 0.8 * len(lots)  # each alone passes as a MyKad
    (suggestion,) = suggest_roles(pd.DataFrame({"lot": lots}))
    assert suggestion.kind != "national_id"
