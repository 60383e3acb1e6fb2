"""Identifier, phone and postal formats of the fifth evaluation set of issue 26 (eval5).

Written for eval5 from the published rules, not from any detector of ``core/detect`` nor
from the earlier sets' generators; ``bench/make_eval5.py`` checks every identifier it
writes against python-stdnum (an independent implementation) where stdnum has the format.

- **Singapore NRIC/FIN** (ICA): a prefix letter (S, T citizens and PRs; F, G foreigners),
  7 digits, a check letter: the digits weighted 2 7 6 5 4 3 2, plus 4 for T and G, mod 11
  indexes ``JZIHGFEDCBA`` (S, T) or ``XWUTRQPNMLK`` (F, G).
- **US SSN** (SSA, randomisation of 25 June 2011): area 001-899 but not 666, group 01-99,
  serial 0001-9999.
- **UK NHS number** (NHS Data Dictionary): 10 digits; the first 9 weighted 10 down to 2,
  check digit 11 - (sum mod 11), 11 -> 0, 10 is never issued.
- **Aadhaar** (UIDAI): 12 digits, the first 2-9, the last a Verhoeff check digit.
- **Spanish DNI** (Real Decreto 1553/2005): 8 digits and the letter
  ``TRWAGMYFPDXBNJZSQVHLCKE``\\[number mod 23\\].
- **French NIR** (INSEE): sex, year, month, department, commune, order (13 digits) and a
  key 97 - (number mod 97).
- **Postal codes**: Singapore 6 digits (the first two the postal sector 01-82, SingPost);
  US ZIP 5 digits (USPS Publication 28); UK postcodes as Royal Mail's PAF guide writes them
  (outward code ``A9``, ``A99``, ``AA9``, ``AA99``, ``A9A``, ``AA9A``, a space, inward
  ``9AA``, the inward letters never C I K M O V); Indian PIN 6 digits, the first 1-8
  (India Post zones).
- **Phones**: libphonenumber's example numbers per region and type
  (``phonenumbers.example_number_for_type``), the last digits varied until
  ``is_valid_number`` holds, written the ways people type them.
"""

from __future__ import annotations

import random
import string

import phonenumbers

# The check digits are bench/check_digits.py's, written apart from core/detect on purpose.
from bench.check_digits import nhs_check, nric_check, verhoeff_check

_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
_UK_INWARD_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"


def nric(rng: random.Random, prefix: str | None = None) -> str:
    prefix = prefix or rng.choice("SSSSTTFG")
    digits = "".join(rng.choice(string.digits) for _ in range(7))
    return f"{prefix}{digits}{nric_check(prefix, digits)}"


def ssn(rng: random.Random) -> str:
    area = rng.choice([a for a in range(1, 900) if a != 666])
    return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def nhs(rng: random.Random) -> str:
    while True:
        nine = "".join(rng.choice(string.digits) for _ in range(9))
        check = nhs_check(nine)
        if check is not None and nine[0] != "0":
            number = f"{nine}{check}"
            return f"{number[:3]} {number[3:6]} {number[6:]}"


def aadhaar(rng: random.Random) -> str:
    eleven = str(rng.randint(2, 9)) + "".join(rng.choice(string.digits) for _ in range(10))
    number = f"{eleven}{verhoeff_check(eleven)}"
    return f"{number[:4]} {number[4:8]} {number[8:]}"


def dni(rng: random.Random) -> str:
    number = rng.randint(10_000_000, 79_999_999)
    return f"{number}{_DNI_LETTERS[number % 23]}"


def nir(rng: random.Random, male: bool, born_year: int, born_month: int) -> str:
    department = rng.choice(["75", "69", "13", "33", "59", "67", "31", "44", "06", "92"])
    body = (
        f"{1 if male else 2}{born_year % 100:02d}{born_month:02d}{department}"
        f"{rng.randint(1, 999):03d}{rng.randint(1, 999):03d}"
    )
    key = 97 - int(body) % 97
    return f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:13]} {key:02d}"


def uk_postcode(rng: random.Random) -> str:
    area = rng.choice(["B", "M", "L", "S", "G", "E", "N", "W", "BS", "LS", "NG", "CF", "EH", "SW"])
    district = str(rng.randint(1, 20 if len(area) == 1 else 28))
    if len(area) == 1 and rng.random() < 0.1:
        district = f"{rng.randint(1, 9)}{rng.choice('ABCDEFGHJKPSTUW')}"
    inward = f"{rng.randint(0, 9)}{rng.choice(_UK_INWARD_LETTERS)}{rng.choice(_UK_INWARD_LETTERS)}"
    return f"{area}{district} {inward}"


def sg_postcode(rng: random.Random, block: int | None = None) -> str:
    sector = rng.choice([31, 32, 33, 38, 40, 46, 52, 56, 57, 60, 64, 65, 68, 73, 76, 82])
    if block is not None:
        return f"{sector}{block % 10_000:04d}"
    return f"{sector}{rng.randint(0, 9999):04d}"


def us_zip(rng: random.Random) -> str:
    return f"{rng.randint(1001, 99950):05d}"


def in_pin(rng: random.Random) -> str:
    return f"{rng.randint(1, 8)}{rng.randint(0, 99999):05d}"


def phone(rng: random.Random, region: str, mobile: bool) -> phonenumbers.PhoneNumber:
    """A valid number of ``region`` near libphonenumber's example number of that type."""
    kind = (
        phonenumbers.PhoneNumberType.MOBILE if mobile else phonenumbers.PhoneNumberType.FIXED_LINE
    )
    example = phonenumbers.example_number_for_type(region, kind)
    national = str(example.national_number)
    while True:
        head = national[:2]
        if region == "SG":  # mobiles start 8 or 9, fixed lines 6
            head = rng.choice("89") if mobile else "6"
        tail = "".join(rng.choice(string.digits) for _ in range(len(national) - len(head)))
        number = phonenumbers.PhoneNumber(
            country_code=example.country_code, national_number=int(head + tail)
        )
        if region == "US":  # 555-01xx is fictional: use a real-looking exchange
            digits = f"{rng.randint(201, 989)}{rng.randint(201, 989)}{rng.randint(0, 9999):04d}"
            number = phonenumbers.PhoneNumber(country_code=1, national_number=int(digits))
        if phonenumbers.is_valid_number(number):
            return number


def usual_writings(number: phonenumbers.PhoneNumber) -> list[str]:
    """The ways every set writes a phone: the national format (twice: the commonest),
    the international one and E.164; each set's builder adds its countries' habits."""
    fmt = phonenumbers.PhoneNumberFormat
    national = phonenumbers.format_number(number, fmt.NATIONAL)
    return [
        national,
        national,
        phonenumbers.format_number(number, fmt.INTERNATIONAL),
        phonenumbers.format_number(number, fmt.E164),
    ]


def write_phone(rng: random.Random, number: phonenumbers.PhoneNumber, region: str) -> str:
    """The number as people type it: national, international, E.164 or with other
    separators (dots in the US, no space in Singapore, dashes in India)."""
    digits = str(number.national_number)
    options = usual_writings(number)
    if region == "US":
        options += [
            f"{digits[:3]}.{digits[3:6]}.{digits[6:]}",
            f"{digits[:3]}-{digits[3:6]}-{digits[6:]}",
        ]
    elif region == "SG":
        options += [digits, f"+65-{digits[:4]}-{digits[4:]}", f"{digits[:4]}-{digits[4:]}"]
    elif region == "IN":
        options += [f"+91-{digits}", f"0{digits[:5]}-{digits[5:]}", digits]
    elif region == "GB":
        options += [f"0{digits}", f"(0{digits[:4]}) {digits[4:]}"]
    return rng.choice(options)
