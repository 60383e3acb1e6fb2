"""Identifier, phone and postal formats of the sixth evaluation set of issue 26 (eval6).

Written for eval6 from the published rules (the Singapore NRIC/FIN check letter is the one
``bench/eval5_formats.py`` already writes down, reused rather than copied); every identifier
``bench/make_eval6.py`` writes is checked against python-stdnum (an independent
implementation) where stdnum has the format, and every phone against libphonenumber.

- **Malaysia MyKad** (JPN): ``YYMMDD-PB-###G``, the date of birth, a place-of-birth code
  (01-16 for the states) and four digits, the last odd for a man, even for a woman.
- **Australia TFN** (ATO): 9 digits weighted 1 4 3 7 5 8 6 9 10, the sum a multiple of 11.
- **Australia Medicare card** (Services Australia): 10 digits, the first 2-6; digits 1-8
  weighted 1 3 7 9 1 3 7 9, the sum mod 10 is digit 9; digit 10 the issue number; an
  individual reference number 1-9 may follow.
- **Ireland PPSN** (Department of Social Protection): 7 digits, a check letter and an
  optional second letter (``W`` or ``A``-``Z``); digits weighted 8 down to 2, plus 9 times
  the second letter's place in the alphabet, mod 23 indexes ``WABCDEFGHIJKLMNOPQRSTUV``.
- **Canada SIN** (Service Canada): 9 digits with the Luhn check, the first not 0 or 8.
- **South Africa ID number** (Department of Home Affairs): ``YYMMDD``, four digits of
  gender (0000-4999 women, 5000-9999 men), citizenship (0 citizen, 1 permanent resident),
  ``8``, and a Luhn check digit.
- **Philippines PhilSys card number** (PSA): 16 digits written 4-4-4-4 (no public check).
- **Postal codes**: Singapore 6 digits; Malaysia 5; Australia, the Philippines and South
  Africa 4; Canada ``A1A 1A1`` (Canada Post: no D F I O Q U, no W Z first); Ireland's
  Eircode, a routing key (a letter and two digits, or ``D6W``) and a unique identifier of 4
  characters from ``0-9ACDEFHKNPRTVWXY``.
- **Phones**: each country's national number plan (Singapore's 8/9 mobiles and 6 fixed
  lines, Malaysia's 01x mobiles, Australia's 04 mobiles and area codes, and so on), the
  digits drawn here and kept only when libphonenumber's ``is_valid_number`` agrees;
  written as people type them, nationally or internationally.
"""

from __future__ import annotations

import random
import string

import phonenumbers

from bench.check_digits import luhn_check, nric_check
from bench.eval5_formats import usual_writings

_TFN_WEIGHTS = (1, 4, 3, 7, 5, 8, 6, 9, 10)
_MEDICARE_WEIGHTS = (1, 3, 7, 9, 1, 3, 7, 9)
_PPS_LETTERS = "WABCDEFGHIJKLMNOPQRSTUV"
_CA_LETTERS = "ABCEGHJKLMNPRSTVXY"
_EIRCODE_CHARS = "0123456789ACDEFHKNPRTVWXY"
_EIRCODE_KEYS = ("D02", "D04", "D08", "D15", "D6W", "A94", "H91", "T12", "V94", "X91", "F92")
#: National number plans: region -> (mobile prefixes, fixed-line prefixes).
#: Lengths of the national significant number (without the trunk 0) per region.
_LENGTHS = {
    "SG": (8,),
    "MY": (8, 9, 10),
    "AU": (9,),
    "PH": (9, 10),
    "IE": (8, 9),
    "CA": (10,),
    "ZA": (9,),
}
_PLANS = {
    "SG": (("8", "9"), ("6",)),
    "MY": (("12", "13", "16", "17", "19", "11"), ("3", "4", "7")),
    "AU": (("4",), ("2", "3", "7", "8")),
    "PH": (("917", "918", "927", "939", "966", "995"), ("2",)),
    "IE": (("83", "85", "86", "87", "89"), ("1", "21", "61", "91")),
    "CA": (("416", "604", "514", "403", "613", "902"), ()),
    "ZA": (("72", "82", "83", "73", "60"), ("11", "21", "31", "12")),
}


def nric(rng: random.Random, prefix: str | None = None) -> str:
    prefix = prefix or rng.choice("SSSTTFG")
    digits = "".join(rng.choice(string.digits) for _ in range(7))
    return f"{prefix}{digits}{nric_check(prefix, digits)}"


def mykad(rng: random.Random, born_yymmdd: str, male: bool) -> str:
    place = f"{rng.randint(1, 16):02d}"
    three = f"{rng.randint(0, 999):03d}"
    last = rng.choice("13579" if male else "02468")
    return f"{born_yymmdd}-{place}-{three}{last}"


def tfn(rng: random.Random) -> str:
    while True:
        eight = str(rng.randint(1, 9)) + "".join(rng.choice(string.digits) for _ in range(7))
        partial = sum(int(d) * w for d, w in zip(eight, _TFN_WEIGHTS, strict=False))
        for last in range(10):
            if (partial + last * _TFN_WEIGHTS[8]) % 11 == 0:
                number = f"{eight}{last}"
                return f"{number[:3]} {number[3:6]} {number[6:]}"


def medicare(rng: random.Random) -> str:
    eight = str(rng.randint(2, 6)) + "".join(rng.choice(string.digits) for _ in range(7))
    check = sum(int(d) * w for d, w in zip(eight, _MEDICARE_WEIGHTS, strict=True)) % 10
    issue = rng.randint(1, 5)
    return f"{eight[:4]} {eight[4:]}{check} {issue}"


def pps(rng: random.Random) -> str:
    seven = "".join(rng.choice(string.digits) for _ in range(7))
    second = rng.choice(["", "", "A", "W"])
    total = sum(int(d) * w for d, w in zip(seven, range(8, 1, -1), strict=True))
    if second and second != "W":
        total += 9 * (ord(second) - ord("A") + 1)
    return f"{seven}{_PPS_LETTERS[total % 23]}{second}"


def sin(rng: random.Random) -> str:
    eight = str(rng.choice([1, 2, 3, 4, 5, 6, 7, 9])) + "".join(
        rng.choice(string.digits) for _ in range(7)
    )
    number = f"{eight}{luhn_check(eight)}"
    sep = rng.choice([" ", "-", " ", ""])
    return f"{number[:3]}{sep}{number[3:6]}{sep}{number[6:]}"


def za_id(rng: random.Random, born_yymmdd: str, male: bool) -> str:
    gender = rng.randint(5000, 9999) if male else rng.randint(0, 4999)
    twelve = f"{born_yymmdd}{gender:04d}{rng.choice('0001')}8"
    return f"{twelve}{luhn_check(twelve)}"


def philsys(rng: random.Random) -> str:
    digits = "".join(rng.choice(string.digits) for _ in range(16))
    return "-".join(digits[i : i + 4] for i in range(0, 16, 4))


def postal(rng: random.Random, country: str) -> str:
    if country == "SG":
        return f"{rng.choice([10, 15, 16, 27, 31, 35, 46, 51, 54, 55, 59, 64, 73, 75, 79])}{rng.randint(0, 9999):04d}"
    if country == "MY":
        return f"{rng.choice([40, 41, 43, 47, 50, 52, 56, 68, 80, 81, 88, 93, 10, 11])}{rng.randint(0, 999):03d}"
    if country == "AU":
        return f"{rng.choice([2000, 2010, 2150, 2250, 3000, 3121, 3350, 4000, 4217, 5000, 6000, 6160, 7000, 2600, 870]):04d}"  # NT codes start with 0 (0870)
    if country == "PH":
        return f"{rng.choice([1000, 1100, 1200, 1600, 1700, 4000, 4100, 6000, 8000, 1440])}"
    if country == "ZA":
        return f"{rng.choice([2000, 2196, 8001, 7700, 4001, 181, 6001, 9301, 1200, 3201]):04d}"
    if country == "CA":
        first = rng.choice("ABCEGHJKLMNPRSTVXY")
        return (
            f"{first}{rng.randint(0, 9)}{rng.choice(_CA_LETTERS)} "
            f"{rng.randint(0, 9)}{rng.choice(_CA_LETTERS)}{rng.randint(0, 9)}"
        )
    if country == "IE":
        unique = "".join(rng.choice(_EIRCODE_CHARS) for _ in range(4))
        if unique[0].isdigit():
            unique = rng.choice("ACDEFHKNPRTVWXY") + unique[1:]
        return f"{rng.choice(_EIRCODE_KEYS)} {unique}"
    raise ValueError(f"no postal format for {country!r}")


def phone(rng: random.Random, region: str, mobile: bool) -> phonenumbers.PhoneNumber:
    """A number of ``region``'s plan that libphonenumber calls valid."""
    mobiles, fixed = _PLANS[region]
    heads = mobiles if mobile or not fixed else fixed
    example = phonenumbers.example_number(region)
    for _ in range(10_000):
        head = rng.choice(heads)
        length = rng.choice(_LENGTHS[region])
        digits = head + "".join(rng.choice(string.digits) for _ in range(length - len(head)))
        number = phonenumbers.PhoneNumber(
            country_code=example.country_code, national_number=int(digits)
        )
        if phonenumbers.is_valid_number(number):
            return number
    raise RuntimeError(f"no valid {region} number drawn")


def write_phone(rng: random.Random, number: phonenumbers.PhoneNumber, region: str) -> str:
    """The number as people type it: the national or international format, E.164, or a
    local habit (no spaces in Singapore, dashes in Malaysia, dots in Canada...)."""
    digits = str(number.national_number)
    options = usual_writings(number)
    if region == "SG":
        options += [digits, f"{digits[:4]} {digits[4:]}", f"(65) {digits}"]
    elif region == "MY":
        options += [f"0{digits[:2]}-{digits[2:]}", f"+60 {digits[:2]}-{digits[2:5]} {digits[5:]}"]
    elif region == "AU":
        options += [f"0{digits}", f"+61 (0){digits[:1]} {digits[1:5]} {digits[5:]}"]
    elif region == "PH":
        options += [f"0{digits}", f"0{digits[:3]}-{digits[3:6]}-{digits[6:]}"]
    elif region == "IE":
        options += [f"0{digits}", f"00353 {digits}"]
    elif region == "CA":
        options += [
            f"{digits[:3]}.{digits[3:6]}.{digits[6:]}",
            f"1-{digits[:3]}-{digits[3:6]}-{digits[6:]}",
        ]
    elif region == "ZA":
        options += [f"0{digits[:2]} {digits[2:5]} {digits[5:]}", f"+27{digits}"]
    return rng.choice(options)
