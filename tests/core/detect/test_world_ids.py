"""National IDs of South Africa, Thailand, the UAE, Ireland, Canada, Sri Lanka, Vietnam,
Pakistan, Ghana and Bangladesh (issue 26, eval8's weak ID recall): found in free text by
their published structure and check, and digits of the same shape failing the check are
not. The values are made up; each check digit is worked out here by hand or by
python-stdnum (a test-only dependency), never by the code under test.

Worked by hand:

* Luhn (South Africa ID, Emirates ID, Canada SIN). SIN 046 454 286 (ESDC's example,
  first digit 0 never issued to a person) is read only for the sum; 130 692 544: from the
  right 4, 4x2=8, 5, 2x2=4, 9, 6x2=12->3, 0, 3x2=6, 1: 4+8+5+4+9+3+0+6+1 = 40, ends in 0.
* Thailand 1-1037-00123-45-?: 1x13 + 1x12 + 0x11 + 3x10 + 7x9 + 0x8 + 0x7 + 1x6 + 2x5
  + 3x4 + 4x3 + 5x2 = 13+12+0+30+63+0+0+6+10+12+12+10 = 168 = 11x15 + 3; (11-3) mod 10
  = 8: 1103700123458.
* PPSN 1234567: 1x8 + 2x7 + 3x6 + 4x5 + 5x4 + 6x3 + 7x2 = 8+14+18+20+20+18+14 = 112 =
  23x4 + 20; WABCDEFGHIJKLMNOPQRSTUV[20] = T: 1234567T (and 1234567TW, W not counted);
  with the 2013 letter A (place 1): 112 + 9 = 121 = 23x5 + 6 -> F: 1234567FA.
"""

from __future__ import annotations

import datetime as dt

import pytest
from stdnum import luhn
from stdnum.ca import sin as stdnum_sin
from stdnum.ie import pps as stdnum_pps
from stdnum.th import pin as stdnum_pin
from stdnum.za import idnr as stdnum_za

from core.detect import find_entities
from core.detect.world_ids import (
    valid_bd_nid,
    valid_cccd,
    valid_emirates_id,
    valid_lk_nic,
    valid_ppsn,
    valid_sin,
    valid_th_id,
    valid_za_id,
)


def _ids(text: str) -> list[str]:
    return [text[e.start : e.end] for e in find_entities(text) if e.label == "ID"]


def _za(first12: str) -> str:
    return first12 + luhn.calc_check_digit(first12)


def test_hand_worked_checks_agree_with_stdnum() -> None:
    assert stdnum_sin.is_valid("130692544") and valid_sin("130 692 544")
    assert stdnum_pin.is_valid("1103700123458") and valid_th_id("1-1037-00123-45-8")
    assert stdnum_pps.is_valid("1234567T") and valid_ppsn("1234567T")
    assert stdnum_pps.is_valid("1234567TW") and valid_ppsn("1234567TW")
    assert stdnum_pps.is_valid("1234567FA") and valid_ppsn("1234567FA")


@pytest.mark.parametrize("wrong", ["130692545", "830692544"])
def test_sin_wrong_check_or_first_digit(wrong: str) -> None:
    assert not valid_sin(wrong)


def test_ppsn_wrong_letter() -> None:
    assert not valid_ppsn("1234567U")
    assert not valid_ppsn("1234567TA")


def test_thai_wrong_check() -> None:
    assert not valid_th_id("1103700123459")
    assert not valid_th_id("9103700123458")  # first digit 9 is not issued


def test_south_african_id_date_citizenship_luhn() -> None:
    good = _za("850214512308")  # born 14 Feb 1985, serial 5123, citizen 0, 8
    assert stdnum_za.is_valid(good) and valid_za_id(good)
    assert valid_za_id(f"{good[:6]} {good[6:10]} {good[10:]}")
    assert not valid_za_id(_za("851314512308"))  # month 13
    assert not valid_za_id(_za("850214512378"))  # citizenship 7
    bad = good[:-1] + str((int(good[-1]) + 1) % 10)
    assert not valid_za_id(bad)


def test_emirates_id_year_and_luhn() -> None:
    good = _emirates("78419876543210")
    assert valid_emirates_id(f"{good[:3]}-{good[3:7]}-{good[7:14]}-{good[14]}")
    assert not valid_emirates_id(good[:-1] + str((int(good[-1]) + 1) % 10))
    assert not valid_emirates_id(_emirates("78418876543210"))  # birth year 1887
    assert not valid_emirates_id(_emirates("78519876543210"))  # not 784


def _emirates(first14: str) -> str:
    return first14 + luhn.calc_check_digit(first14)


def test_sri_lanka_nic_day_of_year() -> None:
    assert valid_lk_nic("853651234V")  # 1985, day 365
    assert valid_lk_nic("857051234x")  # day 705 = a woman born on day 205
    assert not valid_lk_nic("853701234V")  # day 370
    assert valid_lk_nic("198536512345")
    assert not valid_lk_nic("198537012345")
    assert not valid_lk_nic("218536512345")  # year 2185
    # issued from the age of 15: a lot number stamped with a recent date is no NIC
    assert not valid_lk_nic(f"{dt.date.today().year - 1}03118842")


def test_vietnam_cccd_province_and_year() -> None:
    assert valid_cccd("001085012345")  # Hà Nội, a man born 1985
    assert valid_cccd("079301012345")  # Hồ Chí Minh City, a woman born 2001
    assert not valid_cccd("003085012345")  # 003 is no province code
    assert not valid_cccd("001585012345")  # century digit 5: born after 2100
    assert not valid_cccd("001399012345")  # 2099: not yet born


def test_bangladesh_17_digit_nid() -> None:
    assert valid_bd_nid("19852694412345678")
    assert not valid_bd_nid("18852694412345678")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("complainant Thabo Nkosi ({za}) states", "{za}"),
        ("staff ID {za_spaced}; UIF missing", "{za_spaced}"),
        ("employee Somchai, ID 1-1037-00123-45-8, salary", "1-1037-00123-45-8"),
        ("employee Somchai, ID 1 1037 00123 45 8, salary", "1 1037 00123 45 8"),
        ("OP: Emirates ID? CALLER: {eid} no that's", "{eid}"),
        ("a man identified as Ciarán Byrne (1234567T) was", "1234567T"),
        ("Can I have your SIN? CLIENT: 130 692 544 AGENT:", "130 692 544"),
        ("certify that K. Perera, NIC 853651234V, is", "853651234V"),
        ("pt R. Kumari, NIC 198536512345; RCT", "198536512345"),
        ("father Trần Văn An, CCCD 001085012345. Address", "001085012345"),
        ("Lê Thị Hoa; 02/09/1992; 079301012345; email", "079301012345"),
        ("CUSTOMER: Ali Raza, CNIC 35202-1234567-1 AGENT:", "35202-1234567-1"),
        ("Nii Quaye, Ghana Card GHA-123456789-0, reported", "GHA-123456789-0"),
        ("AGENT: NID? CALLER: 19852694412345678 AGENT:", "19852694412345678"),
    ],
)
def test_found_in_free_text(text: str, value: str) -> None:
    za = _za("850214512308")
    fill = {"za": za, "za_spaced": f"{za[:6]} {za[6:10]} {za[10:]}", "eid": _eid_printed()}
    assert value.format(**fill) in _ids(text.format(**fill))


def _eid_printed() -> str:
    good = _emirates("78419876543210")
    return f"{good[:3]}-{good[3:7]}-{good[7:14]}-{good[14]}"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("nominee husband Md. Rahim (NID 8486501234). Leave", "8486501234"),
        ("Delroy Brown, TRN 123-456-789, of Kingston", "123-456-789"),
        ("HR note: Kofi Mensah, TIN P0012345678, transferred", "P0012345678"),
        ("the CNIC 35202-1234567-1 was", "35202-1234567-1"),
    ],
)
def test_read_after_their_name(text: str, value: str) -> None:
    assert value in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "the batch 1103700123459 was lost",  # Thai shape, wrong check, no SA date
        "order 853701234V shipped",  # no day 370
        "invoice 003085012345 paid",  # no province 003
        "ratio 130-692-545 noted",  # SIN shape, Luhn fails
    ],
)
def test_same_shape_failing_the_check_is_not_an_id(text: str) -> None:
    assert _ids(text) == []


def test_columns_of_these_ids_are_national_id_columns() -> None:
    """Step 1 (PDPC guide: a national identity number is a direct identifier): a column
    of South African IDs, of Sri Lankan NICs, and one of random 13 digits (about 1 in 10
    pass the Thai check, 1 in 60 the South African) that is not."""
    import numpy as np
    import pandas as pd

    from core.schema import suggest_roles

    rng = np.random.default_rng(7)
    za = []
    for _ in range(200):
        year, month, day = rng.integers(40, 99), rng.integers(1, 13), rng.integers(1, 29)
        za.append(_za(f"{year:02d}{month:02d}{day:02d}{rng.integers(0, 10000):04d}08"))
    nic = [
        f"{rng.integers(40, 99):02d}{rng.integers(1, 366):03d}{rng.integers(0, 10000):04d}V"
        for _ in range(200)
    ]
    noise = [f"{rng.integers(10**12, 10**13)}" for _ in range(200)]
    roles = {s.column: s for s in suggest_roles(pd.DataFrame({"a": za, "b": nic, "c": noise}))}
    assert roles["a"].kind == "national_id" and "South African" in roles["a"].reason
    assert roles["b"].kind == "national_id" and "Sri Lankan" in roles["b"].reason
    assert roles["c"].kind != "national_id"
