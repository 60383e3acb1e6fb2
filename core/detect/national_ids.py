"""National identity numbers of Malaysia, Indonesia, the Philippines, Australia, Hong
Kong, New Zealand, Spain and France: their shapes and the checks each country publishes
(issue 26).

A re-identifier joins on these numbers as on an NRIC (PDPC guide, Step 1: a national
identity number is a direct identifier; HIPAA §164.514(b)(2)(i)(R), any other unique
identifying number). Each validator applies what the issuing authority defines, so that a
run of random digits of the right length is not taken for one:

=========  ==================================================================  ==========
kind       shape and check                                                     random
                                                                                digits pass
=========  ==================================================================  ==========
mykad      Malaysia MyKad ``YYMMDD-PB-###G``: a real date of birth and a       about 1 in 3
           place-of-birth code ``PB`` of JPN's list (no check digit exists)
nik        Indonesia NIK, 16 digits: province code of the Ministry of Home     about 1 in 40
           Affairs' list, regency and district not 00, birth day (+40 for
           women) and month of a real date, serial not 0000 (no check digit)
psn        Philippine PhilSys Number, 12 digits written 4-4-4: PSA publishes   shape only
           no check digit, so only the grouped form is read (not a trunk 0
           and a valid mobile of Indonesia or Germany, 08xx-xxxx-xxxx)
ird        New Zealand IRD number, 8-9 digits (10-150 million), weights        1 in 11
           3,2,7,6,5,4,3,2 on the 8 base digits, check = 11 - (sum mod 11),
           0 for 0; a 10 is recomputed with 7,4,3,2,5,2,7,6 (10 again:
           invalid); read in free text written NN-NNN-NNN or NNN-NNN-NNN
tfn        Australian tax file number, 9 digits, weights 1,4,3,7,5,8,6,9,10,   1 in 11
           sum divisible by 11
medicare   Australian Medicare card number, 10 digits (11 with the person's    1 in 10
           reference number), first digit 2-6, 9th digit = weights
           1,3,7,9,1,3,7,9 on the first 8, sum mod 10
hkid       Hong Kong identity card, 1-2 letters, 6 digits, check digit        1 in 11
           (0-9 or A): letters A=10..Z=35, a blank first letter 36, weights
           9..2, (11 - sum mod 11) mod 11, 10 written A
dni        Spain DNI, 8 digits and a letter, and NIE, X/Y/Z (read 0/1/2), 7    1 in 23
           digits and a letter: the letter is TRWAGMYFPDXBNJZSQVHLCKE at
           the number mod 23
nir        France NIR (numéro de sécurité sociale), 15 digits: sex, year,     1 in 97
           month, département (2A/2B for Corsica, read 19/18), commune,
           order, and a key = 97 - (the first 13 digits mod 97)
nhs        UK NHS number, 10 digits (printed 3-3-4): weights 10..2 on the     1 in 11
           first 9, check = 11 - (sum mod 11), 11 read as 0, 10 never issued
aadhaar    India Aadhaar (UIDAI), 12 digits (printed 4-4-4), first digit      1 in 10
           2-9, the last a Verhoeff check digit; never a palindrome
=========  ==================================================================  ==========

Sources: JPN (Jabatan Pendaftaran Negara), "Kod Negeri / Kod Negara" (the place-of-birth
codes of the MyKad number); Indonesia's Permendagri 72/2019 on region codes (and the 2022
Papua provinces 93-96); Philippine Statistics Authority, PhilSys (RA 11055); the ATO's
tax file number algorithm and Services Australia's Medicare card number check, as
reproduced by python-stdnum (``stdnum.au.tfn``) and presidio's ``AuTfnRecognizer`` /
``AuMedicareRecognizer``; the Hong Kong Immigration Department's HKID check digit (as in
``stdnum``'s references); Spain's Real Decreto 1553/2005 (DNI) and the Ministerio del
Interior's published control-letter rule (also for the NIE); INSEE's NIR and its key
(as in ``stdnum.es.dni``, ``stdnum.es.nie`` and ``stdnum.fr.nir``); NHS Digital's NHS
Data Dictionary, "NHS Number" (the modulus 11 check); UIDAI's Aadhaar numbering (12
digits, no leading 0 or 1, Verhoeff's 1969 dihedral-group check digit, as in
``stdnum.in_.aadhaar``); Inland Revenue's IRD number check digit (its "Resident
Withholding Tax and IRD number validation" specification, as in ``stdnum.nz.ird``). The arithmetic is written out in ``tests/core/detect/test_national_ids.py``.

A number with no check digit (MyKad, NIK, PhilSys) is judged by its date and codes; in
free text the bare MyKad, TFN and Medicare digits are read only after their name
(:data:`core.detect.patterns.RECORD_PREFIX`: "KP 850812145678", "TFN 123456782"); a
DNI/NIE in free text is read with its letter in capitals, joined or after a hyphen
("12345678-Z"), a NIR bare or in its printed groups ("1 85 05 78 006 084 36"). An NHS
number is read in free text printed 3-3-4 with spaces ("943 476 5919"; not after a 0, a
phone's trunk prefix: "012 345 6789"), bare after "NHS"
("NHS no. 9434765919"), or bare alone when it starts with 4, 6 or 7 (England and Wales
issue numbers from 400 000 0000 and 600 000 0000; US and Indian phones have the same
shape, so 1 bare phone number in 11 of those ranges is labelled an ID instead). An Aadhaar
is read printed 4-4-4 or as 12 bare digits (its check before PhilSys, which has none).
"""

from __future__ import annotations

import datetime as dt
import re

import phonenumbers

__all__ = [
    "NATIONAL_ID_SHAPES",
    "birth_date_of",
    "valid_aadhaar",
    "valid_dni",
    "valid_hkid",
    "valid_ird",
    "valid_medicare",
    "valid_mykad",
    "valid_nhs",
    "valid_nik",
    "valid_nir",
    "valid_psn",
    "valid_tfn",
]

# JPN's place-of-birth codes: 01-16 and 21-59 the states of Malaysia, 60-93 countries and
# regions abroad (69, 70, 73, 80, 81 unused), 98 stateless, 99 refugees.
_MYKAD_PLACES = frozenset(
    [f"{n:02d}" for n in (*range(1, 17), *range(21, 69), 71, 72, *range(74, 80), *range(82, 94))]
    + ["98", "99"]
)
# Indonesia's province codes (Permendagri 72/2019; 93-96 the Papua provinces of 2022).
_NIK_PROVINCES = frozenset(
    f"{n}"
    for n in (
        *range(11, 20),
        21,
        *range(31, 37),
        51,
        52,
        53,
        *range(61, 66),
        *range(71, 77),
        81,
        82,
        *range(91, 97),
    )
)
_TFN_WEIGHTS = (1, 4, 3, 7, 5, 8, 6, 9, 10)
_MEDICARE_WEIGHTS = (1, 3, 7, 9, 1, 3, 7, 9)
_HKID_WEIGHTS = (9, 8, 7, 6, 5, 4, 3, 2)


def _digits(text: str) -> str:
    return re.sub(r"[\s./-]", "", text)


def _real_date(yy: int, month: int, day: int) -> bool:
    """A day that exists in 19yy or 20yy (29 February of '00 is real in 2000)."""
    for century in (1900, 2000):
        try:
            dt.date(century + yy, month, day)
            return True
        except ValueError:
            continue
    return False


def birth_date_of(text: str) -> tuple[int, int, int] | None:
    """(yy, month, day) of a MyKad's first six digits, None when they are no date."""
    digits = _digits(text)
    if len(digits) < 6 or not digits[:6].isdigit():
        return None
    yy, month, day = int(digits[:2]), int(digits[2:4]), int(digits[4:6])
    return (yy, month, day) if _real_date(yy, month, day) else None


def valid_mykad(text: str) -> bool:
    """Malaysia MyKad: 12 digits, a real date of birth YYMMDD, a place-of-birth code of
    JPN's list; separators '-' or ' ' between the three parts allowed."""
    digits = _digits(text)
    return (
        len(digits) == 12
        and digits.isdigit()
        and birth_date_of(digits) is not None
        and digits[6:8] in _MYKAD_PLACES
    )


def valid_nik(text: str) -> bool:
    """Indonesia NIK: province, regency, district, birth date DDMMYY (day + 40 for
    women), serial."""
    digits = _digits(text)
    if len(digits) != 16 or not digits.isdigit():
        return False
    day, month, yy = int(digits[6:8]), int(digits[8:10]), int(digits[10:12])
    day = day - 40 if day > 40 else day
    return (
        digits[:2] in _NIK_PROVINCES
        and digits[2:4] != "00"
        and digits[4:6] != "00"
        and _real_date(yy, month, day)
        and digits[12:] != "0000"
    )


# Countries whose mobiles, with their trunk 0, are 12 digits printed 4-4-4 as a PhilSys
# number is: Indonesia (0812-3456-7890) and Germany (0151 2345 6789).
_MOBILES_4_4_4 = ("ID", "DE")


def _national_mobile(text: str) -> bool:
    """A number written with a trunk 0 that libphonenumber knows as valid in one of
    :data:`_MOBILES_4_4_4` (its metadata ships inside the package)."""
    for region in _MOBILES_4_4_4:
        try:
            if phonenumbers.is_valid_number(phonenumbers.parse(text, region)):
                return True
        except phonenumbers.NumberParseException:
            return False
    return False


def valid_psn(text: str) -> bool:
    """Philippine PhilSys Number written 4-4-4 (one separator, the same twice): PSA
    publishes no check digit, so the grouping is the evidence; a trunk 0 that makes it a
    valid Indonesian or German mobile (0813-2277-9140) says it is a phone instead."""
    value = text.strip()
    if re.fullmatch(r"[0-9]{4}([ -])[0-9]{4}\1[0-9]{4}", value) is None:
        return False
    return not (value.startswith("0") and _national_mobile(value))


_IRD_WEIGHTS = (3, 2, 7, 6, 5, 4, 3, 2)
_IRD_WEIGHTS_AGAIN = (7, 4, 3, 2, 5, 2, 7, 6)


def valid_ird(text: str) -> bool:
    """New Zealand IRD number: 8 or 9 digits between 10 and 150 million; the base (all
    but the last digit, padded to 8) weighted 3,2,7,6,5,4,3,2: a remainder mod 11 of 0
    gives the check 0, another 11 less it; a 10 is recomputed with 7,4,3,2,5,2,7,6 and
    is invalid if 10 again (Inland Revenue's published check)."""
    digits = _digits(text)
    if not 8 <= len(digits) <= 9 or not digits.isascii() or not digits.isdigit():
        return False
    if not 10_000_000 < int(digits) < 150_000_000:
        return False
    base, check = digits[:-1].rjust(8, "0"), int(digits[-1])
    for weights in (_IRD_WEIGHTS, _IRD_WEIGHTS_AGAIN):
        remainder = sum(int(d) * w for d, w in zip(base, weights, strict=True)) % 11
        expected = 0 if remainder == 0 else 11 - remainder
        if expected != 10:
            return expected == check
    return False


def valid_tfn(text: str) -> bool:
    """Australian TFN: 9 digits whose weighted sum (1,4,3,7,5,8,6,9,10) is divisible by 11."""
    digits = _digits(text)
    if len(digits) != 9 or not digits.isdigit():
        return False
    return sum(int(d) * w for d, w in zip(digits, _TFN_WEIGHTS, strict=True)) % 11 == 0


def valid_medicare(text: str) -> bool:
    """Australian Medicare card number: first digit 2-6, 9th digit the weighted sum
    (1,3,7,9,1,3,7,9) of the first 8 mod 10, then the issue number (and optionally the
    person's reference number)."""
    digits = _digits(text)
    if len(digits) not in (10, 11) or not digits.isdigit() or digits[0] not in "23456":
        return False
    total = sum(int(d) * w for d, w in zip(digits[:8], _MEDICARE_WEIGHTS, strict=True))
    return total % 10 == int(digits[8])


def valid_hkid(text: str) -> bool:
    """Hong Kong identity card: 1-2 letters, 6 digits, check digit 0-9 or A (10), in
    brackets or not."""
    value = re.sub(r"\s", "", text).upper()  # "Z 683365 (A)" as printed on some forms
    match = re.fullmatch(r"([A-Z]{1,2})([0-9]{6})\(?([0-9A])\)?", value)
    if match is None:
        return False
    letters, digits, check = match.groups()
    values = [36 if c == " " else ord(c) - ord("A") + 10 for c in letters.rjust(2)]
    values += [int(d) for d in digits]
    expected = (11 - sum(v * w for v, w in zip(values, _HKID_WEIGHTS, strict=True)) % 11) % 11
    return check == ("A" if expected == 10 else str(expected))


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def valid_dni(text: str) -> bool:
    """Spain DNI (8 digits and a letter) or NIE (X, Y or Z, 7 digits and a letter; X, Y, Z
    count as 0, 1, 2): the letter is :data:`_DNI_LETTERS` at the number mod 23."""
    value = re.sub(r"[\s.-]", "", text).upper()
    match = re.fullmatch(r"([XYZ][0-9]{7}|[0-9]{8})([A-Z])", value)
    if match is None:
        return False
    number, letter = match.groups()
    number = str("XYZ".index(number[0])) + number[1:] if number[0] in "XYZ" else number
    return _DNI_LETTERS[int(number) % 23] == letter


def valid_nir(text: str) -> bool:
    """France NIR: 13 characters (sex 1-4, 7 or 8, year, month, département, commune,
    order; Corsica's 2A and 2B read as 19 and 18) and a 2-digit key = 97 - (number mod
    97)."""
    value = re.sub(r"\s", "", text).upper()
    match = re.fullmatch(r"([123478][0-9]{4}(?:[0-9]{2}|2A|2B)[0-9]{6})([0-9]{2})", value)
    if match is None:
        return False
    number, key = match.groups()
    number = number[:5] + {"2A": "19", "2B": "18"}.get(number[5:7], number[5:7]) + number[7:]
    return 97 - int(number) % 97 == int(key)


_NHS_WEIGHTS = (10, 9, 8, 7, 6, 5, 4, 3, 2)


def valid_nhs(text: str) -> bool:
    """UK NHS number: 10 digits; the weighted sum (10..2) of the first 9 gives the check
    11 - (sum mod 11), 11 written 0; a remainder giving 10 is never issued."""
    digits = _digits(text)
    if len(digits) != 10 or not digits.isascii() or not digits.isdigit():
        return False
    check = 11 - sum(int(d) * w for d, w in zip(digits[:9], _NHS_WEIGHTS, strict=True)) % 11
    return check != 10 and check % 11 == int(digits[9])


# Verhoeff's check (the dihedral group D5): _VERHOEFF_D is its multiplication table,
# _VERHOEFF_P the position permutations (row i is the permutation applied i times).
_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 0, 6, 7, 8, 9, 5),
    (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7),
    (4, 0, 1, 2, 3, 9, 5, 6, 7, 8),
    (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2),
    (7, 6, 5, 9, 8, 2, 1, 0, 4, 3),
    (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 5, 7, 6, 2, 8, 3, 0, 9, 4),
    (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7),
    (9, 4, 5, 3, 1, 2, 6, 8, 7, 0),
    (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5),
    (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)


def _verhoeff_ok(digits: str) -> bool:
    """Verhoeff's check: the digits read from the right, each permuted by its position,
    multiplied in D5, end at 0."""
    check = 0
    for position, digit in enumerate(reversed(digits)):
        check = _VERHOEFF_D[check][_VERHOEFF_P[position % 8][int(digit)]]
    return check == 0


def valid_aadhaar(text: str) -> bool:
    """India Aadhaar: 12 digits, the first 2-9, the last Verhoeff's check digit; UIDAI
    issues no palindrome."""
    digits = _digits(text)
    return (
        len(digits) == 12
        and digits.isascii()
        and digits.isdigit()
        and digits[0] not in "01"
        and digits != digits[::-1]
        and _verhoeff_ok(digits)
    )


#: kind -> (expression for free text, expression for a whole cell, description, validator).
#: Free text reads MyKad, PhilSys, TFN and Medicare numbers only written out (hyphens,
#: spaces), NIK (always written bare) by its checks; a cell may hold the bare digits (a
#: column is judged on 80% of its values, far above what random digits pass).
NATIONAL_ID_SHAPES = {
    # before PhilSys: both are printed 4-4-4, and only Aadhaar has a check
    "aadhaar": (
        r"[2-9][0-9]{3}([ -])[0-9]{4}\1[0-9]{4}|[2-9][0-9]{11}",
        r"[2-9][0-9]{3} ?[0-9]{4} ?[0-9]{4}|[2-9][0-9]{3}-[0-9]{4}-[0-9]{4}",
        "an Indian Aadhaar number (Verhoeff check digit)",
        valid_aadhaar,
    ),
    "nhs": (
        r"(?:(?P<nhs_label>(?i:NHS)(?:\s+(?i:No\.?|Number|#))?\s*[:#.]?\s*(?:(?:is|was)\s+)?))?"
        r"(?P<value>[1-9][0-9]{2} [0-9]{3} [0-9]{4}|(?(nhs_label)[0-9]{10}|[467][0-9]{9}))",
        r"[0-9]{3} ?[0-9]{3} ?[0-9]{4}|[0-9]{3}-[0-9]{3}-[0-9]{4}",
        "a UK NHS number (modulus 11 check digit)",
        valid_nhs,
    ),
    "mykad": (
        r"[0-9]{6}-[0-9]{2}-[0-9]{4}",
        r"[0-9]{6}[- ]?[0-9]{2}[- ]?[0-9]{4}",
        "a Malaysian MyKad number (a real birth date and a JPN place-of-birth code)",
        valid_mykad,
    ),
    "nik": (
        # bare, or printed 4-4-4-4 as on a KTP card ("3578 0617 0875 0003")
        r"[1-9][0-9]{15}|[1-9][0-9]{3}([ -])[0-9]{4}\1[0-9]{4}\1[0-9]{4}",
        r"[1-9][0-9]{15}",
        "an Indonesian NIK (province code, birth date and serial)",
        valid_nik,
    ),
    "psn": (
        # (not the first 12 digits of a 16-digit number printed 4-4-4-4: a NIK)
        r"[0-9]{4}([ -])[0-9]{4}\1[0-9]{4}(?![ -][0-9])",
        r"[0-9]{4} [0-9]{4} [0-9]{4}|[0-9]{4}-[0-9]{4}-[0-9]{4}",
        "a Philippine PhilSys number written 4-4-4",
        valid_psn,
    ),
    "tfn": (
        r"[0-9]{3} [0-9]{3} [0-9]{3}",
        r"[0-9]{3} ?[0-9]{3} ?[0-9]{3}",
        "an Australian tax file number (weighted check, mod 11)",
        valid_tfn,
    ),
    "medicare": (
        r"[2-6][0-9]{3} [0-9]{5} [0-9](?:[ -]?[0-9])?",
        r"[2-6][0-9]{3} ?[0-9]{5} ?[0-9]{1,2}",
        "an Australian Medicare card number (weighted check digit)",
        valid_medicare,
    ),
    "hkid": (
        # the letters, digits and bracketed check may stand apart: "Z 683365 (A)"
        r"[A-Z]{1,2}[0-9]{6}\(?[0-9A]\)?|[A-Z]{1,2} ?[0-9]{6} ?\([0-9A]\)|[A-Z]{1,2}[0-9]{6} [0-9A]",
        r"[A-Za-z]{1,2}[0-9]{6}\(?[0-9Aa]\)?",
        "a Hong Kong identity card number (check digit)",
        valid_hkid,
    ),
    "ird": (
        r"[0-9]{2,3}-[0-9]{3}-[0-9]{3}",
        r"[0-9]{2,3}-?[0-9]{3}-?[0-9]{3}",
        "a New Zealand IRD number (check digit, mod 11)",
        valid_ird,
    ),
    "dni": (
        r"[0-9]{8}-?[A-Z]|[XYZ]-?[0-9]{7}-?[A-Z]",
        r"[0-9]{8}[- ]?[A-Za-z]|[XYZxyz][- ]?[0-9]{7}[- ]?[A-Za-z]",
        "a Spanish DNI or NIE number (control letter, mod 23)",
        valid_dni,
    ),
    "nir": (
        r"[123478] ?[0-9]{2} ?[0-9]{2} ?(?:[0-9]{2}|2[AB]) ?[0-9]{3} ?[0-9]{3} ?[0-9]{2}",
        r"[123478] ?[0-9]{2} ?[0-9]{2} ?(?:[0-9]{2}|2[ABab]) ?[0-9]{3} ?[0-9]{3} ?[0-9]{2}",
        "a French social security number (NIR, key mod 97)",
        valid_nir,
    ),
}
