"""National identity numbers of South Africa, Thailand, the UAE, Ireland, Canada, Sri
Lanka, Vietnam, Pakistan, Ghana and Bangladesh: their published structures and checks
(issue 26; the first countries are in :mod:`core.detect.national_ids`).

A national identity number is a direct identifier (PDPC guide, Step 1; HIPAA
§164.514(b)(2)(i)(R), any other unique identifying number). Each validator applies the
structure the issuer publishes, so that a run of random digits of the right length is
rarely taken for one:

=========  ==================================================================  ==========
kind       shape and check                                                     random
                                                                                digits pass
=========  ==================================================================  ==========
za_id      South Africa ID, 13 digits ``YYMMDD SSSS C A Z``: a real birth      about 1 in 60
           date, citizenship C 0-2, Luhn check digit Z
th_id      Thailand ID, 13 digits (printed 1-4-5-2-1), first 1-8, check        1 in 10
           = (11 - sum of digit i times 13 - i) mod 11, mod 10
emirates   UAE Emirates ID, 15 digits ``784-YYYY-NNNNNNN-C``: 784 (the         1 in 10 after
           country), a birth year, Luhn check digit                            784-19/20
ppsn       Ireland PPS number, 7 digits, a check letter (W, A-V = weighted      1 in 23
           sum mod 23, weights 8..2, a second letter A/B/H counted x 9)
           and maybe a second letter (A, B, H; W, T, X on old numbers)
sin        Canada SIN, 9 digits printed 3-3-3, first not 0 or 8, Luhn          1 in 10
lk_nic     Sri Lanka NIC: old 9 digits and V/X, ``YY DDD SSS C``; new 12       about 1 in 100
           digits ``YYYY DDD SSSS C`` (issued from age 15); DDD the day of the year of birth (1-366,
           +500 for women); no check digit is published
cccd       Vietnam CCCD (citizen identity card), 12 digits: a province code    about 1 in 500
           of the General Statistics Office's list, a century-and-sex digit
           (0/1 the 1900s, 2/3 the 2000s), the birth year, 6 digits
cnic       Pakistan CNIC printed ``NNNNN-NNNNNNN-N`` (NADRA; the first digit   shape only
           the province 1-7; no check digit is published)
ghana      Ghana Card ``GHA-NNNNNNNNN-N`` (National Identification Authority)  shape only
bd_nid     Bangladesh NID of 17 digits: the birth year and 13 digits (the      shape and year
           10- and 13-digit forms are read after "NID" only)
=========  ==================================================================  ==========

Sources: South Africa's Identification Act 68 of 1997 and the Department of Home Affairs'
number layout (as in ``stdnum.za.idnr``); Thailand's Department of Provincial
Administration's 13-digit citizen number and its check (``stdnum.th.pin``); the UAE's
Federal Authority for Identity and Citizenship's ID layout (784, year of birth, a
serial, a Luhn check digit); Ireland's Department of Social Protection, PPS numbers
(``stdnum.ie.pps``); Employment and Social Development Canada, SIN (``stdnum.ca.sin``);
Sri Lanka's Department for Registration of Persons, the 2016 12-digit NIC and its old
9-digit-and-letter form; Vietnam's Circular 07/2016/TT-BCA (the 12-digit number: GSO
province code, century and sex, year of birth); NADRA's CNIC layout; the Ghana Card of
the NIA; Bangladesh's Election Commission NID (17-digit smart-card form from the birth
year). Numbers with no check digit are read only in their printed shape or with their
dates and codes. The arithmetic is written out in ``tests/core/detect/test_world_ids.py``.
"""

from __future__ import annotations

import datetime as dt
import re

__all__ = [
    "UNCHECKED_WORLD_IDS",
    "WORLD_ID_LOOSER",
    "WORLD_ID_NAMES",
    "WORLD_ID_SHAPES",
    "luhn_ok",
    "valid_bd_nid",
    "valid_cccd",
    "valid_emirates_id",
    "valid_lk_nic",
    "valid_ppsn",
    "valid_sin",
    "valid_th_id",
    "valid_za_id",
]


def _digits(text: str) -> str:
    return re.sub(r"[\s-]", "", text)


def luhn_ok(digits: str) -> bool:
    """Luhn's check (ISO/IEC 7812-1): from the right, every second digit doubled (less 9
    above 9); the sum ends in 0."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _real_day(year: int, month: int, day: int) -> bool:
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True


def _this_year() -> int:
    return dt.date.today().year


def valid_za_id(text: str) -> bool:
    """South Africa ID: 13 digits, a real birth date YYMMDD (19yy or 20yy), citizenship
    0 (citizen), 1 (permanent resident) or 2 (refugee), the last a Luhn check digit."""
    digits = _digits(text)
    if len(digits) != 13 or not digits.isascii() or not digits.isdigit():
        return False
    yy, month, day = int(digits[:2]), int(digits[2:4]), int(digits[4:6])
    real = _real_day(1900 + yy, month, day) or _real_day(2000 + yy, month, day)
    return real and digits[10] in "012" and luhn_ok(digits)


def valid_th_id(text: str) -> bool:
    """Thailand ID: 13 digits, the first 1-8; check = (11 - sum(digit_i x (13 - i)) mod
    11) mod 10 over the first 12."""
    digits = _digits(text)
    if len(digits) != 13 or not digits.isascii() or not digits.isdigit():
        return False
    if digits[0] not in "12345678":
        return False
    total = sum(int(d) * (13 - i) for i, d in enumerate(digits[:12]))
    return (11 - total % 11) % 10 == int(digits[12])


def valid_emirates_id(text: str) -> bool:
    """UAE Emirates ID: 15 digits, 784 then a birth year (1900 to this year), a serial
    and a Luhn check digit."""
    digits = _digits(text)
    if len(digits) != 15 or not digits.isascii() or not digits.isdigit():
        return False
    return digits.startswith("784") and 1900 <= int(digits[3:7]) <= _this_year() and luhn_ok(digits)


_PPS_LETTERS = "WABCDEFGHIJKLMNOPQRSTUV"


def valid_ppsn(text: str) -> bool:
    """Ireland PPS number: 7 digits, a check letter and maybe a second letter (A, B or H
    since 2013; W, T or X on old numbers, not counted). The check letter is
    :data:`_PPS_LETTERS` at (sum of the digits weighted 8..2, plus 9 x the second
    letter's place in that list) mod 23."""
    value = re.sub(r"\s", "", text).upper()
    match = re.fullmatch(r"([0-9]{7})([A-W])([ABHWTX]?)", value)
    if match is None:
        return False
    digits, check, second = match.groups()
    total = sum(int(d) * (8 - i) for i, d in enumerate(digits))
    total += 9 * _PPS_LETTERS.index(second) if second in ("A", "B", "H") else 0
    return _PPS_LETTERS[total % 23] == check


def valid_sin(text: str) -> bool:
    """Canada SIN: 9 digits, the first not 0 or 8 (never issued to people), Luhn."""
    digits = _digits(text)
    if len(digits) != 9 or not digits.isascii() or not digits.isdigit():
        return False
    return digits[0] not in "08" and luhn_ok(digits)


def _day_of_year_ok(days: int, year: int) -> bool:
    days = days - 500 if days > 500 else days
    return 1 <= days <= (366 if year % 4 == 0 else 365)


# The Registration of Persons Act issues an NIC from the age of 15: a 12-digit number
# starting with a recent year is a date-stamped code ("Lot 202503118842"), not an NIC.
_NIC_AGE = 15


def valid_lk_nic(text: str) -> bool:
    """Sri Lanka NIC: old form 9 digits and V or X (``YY DDD SSS C``), new form 12
    digits (``YYYY DDD SSSS C``, the year 1900 to this year); DDD is the day of the
    year of birth, 500 added for women."""
    value = re.sub(r"\s", "", text).upper()
    old = re.fullmatch(r"([0-9]{2})([0-9]{3})[0-9]{4}[VX]", value)
    if old is not None:
        return _day_of_year_ok(int(old.group(2)), 1900 + int(old.group(1)))
    new = re.fullmatch(r"((?:19|20)[0-9]{2})([0-9]{3})[0-9]{5}", value)
    if new is None:
        return False
    year = int(new.group(1))
    return year <= _this_year() - _NIC_AGE and _day_of_year_ok(int(new.group(2)), year)


# The General Statistics Office's province codes (the first 3 digits of a CCCD).
_CCCD_PROVINCES = frozenset(
    f"{n:03d}"
    for n in (
        *(1, 2, 4, 6, 8, 10, 11, 12, 14, 15, 17, 19, 20, 22, 24, 25, 26, 27),
        *(30, 31, 33, 34, 35, 36, 37, 38, 40, 42, 44, 45, 46, 48, 49, 51, 52, 54, 56),
        *(58, 60, 62, 64, 66, 67, 68, 70, 72, 74, 75, 77, 79, 80, 82, 83, 84, 86, 87),
        *(89, 91, 92, 93, 94, 95, 96),
    )
)


def valid_cccd(text: str) -> bool:
    """Vietnam CCCD: 12 digits, a GSO province code, a century-and-sex digit (0 or 1
    for the 1900s, 2 or 3 for the 2000s up to this year) and the birth year."""
    digits = _digits(text)
    if len(digits) != 12 or not digits.isascii() or not digits.isdigit():
        return False
    if digits[:3] not in _CCCD_PROVINCES or digits[3] not in "0123":
        return False
    year = (1900 if digits[3] in "01" else 2000) + int(digits[4:6])
    return year <= _this_year()


def valid_bd_nid(text: str) -> bool:
    """Bangladesh 17-digit NID: the birth year (1900 to this year) and 13 digits."""
    digits = _digits(text)
    return (
        len(digits) == 17
        and digits.isascii()
        and digits.isdigit()
        and 1900 <= int(digits[:4]) <= _this_year()
    )


def _shape_only(text: str) -> bool:
    return True


#: kind -> (expression for free text, expression for a whole cell, description, validator),
#: as :data:`core.detect.national_ids.NATIONAL_ID_SHAPES`.
WORLD_ID_SHAPES = {
    "za_id": (
        r"[0-9]{13}|[0-9]{6} [0-9]{4} [0-9]{3}",
        r"[0-9]{13}|[0-9]{6} [0-9]{4} [0-9]{3}",
        "a South African ID number (birth date, Luhn check digit)",
        valid_za_id,
    ),
    "th_id": (
        r"[1-8][0-9]{12}|[1-8]([ -])[0-9]{4}\1[0-9]{5}\1[0-9]{2}\1[0-9]",
        r"[1-8][0-9]{12}|[1-8] [0-9]{4} [0-9]{5} [0-9]{2} [0-9]|[1-8]-[0-9]{4}-[0-9]{5}-[0-9]{2}-[0-9]",
        "a Thai ID number (check digit, mod 11)",
        valid_th_id,
    ),
    "emirates": (
        r"784-[0-9]{4}-[0-9]{7}-[0-9]|784[0-9]{12}",
        r"784-?[0-9]{4}-?[0-9]{7}-?[0-9]",
        "a UAE Emirates ID number (birth year, Luhn check digit)",
        valid_emirates_id,
    ),
    "ppsn": (
        r"[0-9]{7}[A-W][ABHWTX]?",
        r"[0-9]{7}[A-Wa-w][ABHWTXabhwtx]?",
        "an Irish PPS number (check letter, mod 23)",
        valid_ppsn,
    ),
    "sin": (
        r"[1-79][0-9]{2}([ -])[0-9]{3}\1[0-9]{3}",
        r"[1-79][0-9]{2} [0-9]{3} [0-9]{3}|[1-79][0-9]{2}-[0-9]{3}-[0-9]{3}",
        "a Canadian social insurance number (Luhn check digit)",
        valid_sin,
    ),
    "lk_nic": (
        r"[0-9]{9}[VX]|(?:19|20)[0-9]{10}",
        r"[0-9]{9}[VXvx]|(?:19|20)[0-9]{10}",
        "a Sri Lankan NIC number (year and day of birth)",
        valid_lk_nic,
    ),
    "cccd": (
        r"0[0-9]{11}",
        r"0[0-9]{11}",
        "a Vietnamese citizen identity (CCCD) number (province code, birth year)",
        valid_cccd,
    ),
    "cnic": (
        r"[1-7][0-9]{4}-[0-9]{7}-[0-9]",
        r"[1-7][0-9]{4}-[0-9]{7}-[0-9]",
        "a Pakistani CNIC number (printed 5-7-1)",
        _shape_only,
    ),
    "ghana_card": (
        r"GHA-[0-9]{9}-[0-9]",
        r"(?i:GHA)-[0-9]{9}-[0-9]",
        "a Ghana Card number (GHA-, 9 digits, 1 digit)",
        _shape_only,
    ),
    "bd_nid": (
        r"(?:19|20)[0-9]{15}",
        r"(?:19|20)[0-9]{15}",
        "a Bangladeshi 17-digit NID number (birth year and 13 digits)",
        valid_bd_nid,
    ),
}

#: For each kind, a looser RE2 expression every text it matches also matches (as
#: ``core.detect.text._LOOSER``: pyarrow keeps the texts worth searching at C speed).
WORLD_ID_LOOSER = {
    "za_id": "[0-9]{6} ?[0-9]{4} ?[0-9]{3}",
    "th_id": "[1-8][ -]?[0-9]{4}[ -]?[0-9]{5}[ -]?[0-9]{2}[ -]?[0-9]",
    "emirates": "784-?[0-9]{4}-?[0-9]{7}-?[0-9]",
    "ppsn": "[0-9]{7}[A-W]",
    "sin": "[1-79][0-9]{2}[ -][0-9]{3}[ -][0-9]{3}",
    "lk_nic": "[0-9]{9}[VX]|(?:19|20)[0-9]{10}",
    "cccd": "0[0-9]{11}",
    "cnic": "[1-7][0-9]{4}-[0-9]{7}-[0-9]",
    "ghana_card": "GHA-[0-9]{9}-[0-9]",
    "bd_nid": "(?:19|20)[0-9]{15}",
}

#: Each kind's short name, as a column's evidence lists it.
WORLD_ID_NAMES = {
    "za_id": "South African ID",
    "th_id": "Thai ID",
    "emirates": "Emirates ID",
    "ppsn": "Irish PPSN",
    "sin": "Canadian SIN",
    "lk_nic": "Sri Lankan NIC",
    "cccd": "Vietnamese CCCD",
    "cnic": "Pakistani CNIC",
    "ghana_card": "Ghana Card",
    "bd_nid": "Bangladeshi NID",
}
#: The kinds read by their shape alone (no check digit is published): a column of them
#: whose values repeat is a code (core.detect.columns).
UNCHECKED_WORLD_IDS = frozenset({"cnic", "ghana_card", "bd_nid"})
