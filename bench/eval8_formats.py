"""Identifier, phone and postal formats of the eighth evaluation set of issue 26 (eval8).

Written from the published rules; the formats eval6 already wrote down (Singapore NRIC/FIN,
Malaysian MyKad, Canadian SIN, South African ID, Australian TFN, Irish PPSN, and the
postal codes of Singapore, Malaysia, Australia, Canada, Ireland and South Africa) are
reused from ``bench/eval6_formats.py`` rather than copied. Every identifier
``bench/make_eval8.py`` writes is checked by :func:`check_identifier`: python-stdnum (an
independent implementation) where stdnum has the format, the rule written here where it
has not; every phone by libphonenumber.

- **Pakistan CNIC** (NADRA): ``PPPPP-NNNNNNN-G``, 13 digits, the first a province (1-7),
  the last odd for a man, even for a woman (no published check digit; stdnum checks
  province and gender digit).
- **Sri Lanka NIC** (Department for Registration of Persons): old ``YYDDDSSSSV`` (9 digits
  and V or X), new ``YYYYDDDSSSSS`` (12 digits); ``DDD`` the day of the year of birth, plus
  500 for a woman (the last digit's check rule is not published: shape and day only).
- **Thailand ID** (Department of Provincial Administration): 13 digits, the first 1-8;
  check = (11 - sum of digits 1-12 weighted 13 down to 2, mod 11) mod 10.
- **UAE Emirates ID** (ICP): ``784-YYYY-NNNNNNN-C``, 784 the country, the birth year, seven
  digits and a Luhn check over the 15 digits.
- **Ghana Card PIN** (National Identification Authority): ``GHA-NNNNNNNNN-C`` (no published
  check: shape only); **Ghana TIN** (GRA): ``P00`` and 7 characters, check = sum of
  digits 2-10 weighted 1-9, mod 11 (10 written X), checked by stdnum.
- **Vietnam CCCD** (citizen identity card, Ministry of Public Security): 12 digits, a
  province code (001-096), a century-and-sex digit (0 man / 1 woman born 1900-1999, 2 / 3
  born 2000-2099), the last two digits of the birth year and six more (no check digit).
- **Bangladesh NID** (Election Commission): 10 digits (smart card) or 17 (the older card:
  the birth year, a district code and a serial); shape only.
- **Jamaica TRN** (Tax Administration Jamaica): 9 digits, an individual's starting 1;
  shape only.
- **Phones**: each country's national number plan, digits drawn here and kept only when
  libphonenumber's ``is_valid_number`` agrees; written as people type them.
- **Postal codes**: Pakistan, Thailand and Vietnam 5 digits (Vietnam's 2018 codes, 6 digits
  before), Sri Lanka 5, Bangladesh 4, Ghana's GhanaPost GPS digital address
  (``GA-183-8164``), Jamaica's and the UAE's none in daily use (a P.O. Box instead).
"""

from __future__ import annotations

import datetime as dt
import random
import re
import string

import phonenumbers

from bench import eval5_formats as e5
from bench import eval6_formats as e6
from bench.check_digits import luhn_check, nric_check
from bench.eval_build import phone_region

#: Lengths of the national significant number and the leading digits of mobile and fixed
#: lines, per region (the national number plans; libphonenumber has the last word).
PLANS: dict[str, tuple[tuple[int, ...], tuple[str, ...], tuple[str, ...]]] = {
    "SG": ((8,), ("8", "9"), ("6",)),
    "ZA": ((9,), ("72", "82", "83", "73", "76", "79", "60", "61"), ("11", "21", "31", "12")),
    "GH": ((9,), ("24", "54", "55", "59", "20", "50", "26", "27"), ("302", "322")),
    "PK": ((10,), ("300", "301", "321", "333", "345", "312"), ("42", "21", "51")),
    "BD": ((10,), ("171", "181", "191", "161", "151", "131"), ("2",)),
    "LK": ((9,), ("70", "71", "72", "75", "76", "77", "78"), ("11", "81", "21")),
    "VN": ((9, 10), ("90", "91", "98", "97", "93", "35", "38", "70", "86"), ("24", "28")),
    "TH": ((8, 9), ("81", "86", "89", "62", "63", "91", "95"), ("2",)),
    "CA": ((10,), ("416", "647", "604", "514", "403", "613", "902", "780"), ()),
    "JM": ((10,), ("876",), ()),
    "IE": ((9,), ("83", "85", "86", "87", "89"), ("1", "21", "61", "91")),
    "AU": ((9,), ("4",), ("2", "3", "7", "8")),
    "MY": ((9, 10), ("12", "13", "16", "17", "19", "11"), ("3", "4", "7")),
    "AE": ((8, 9), ("50", "52", "54", "55", "56", "58"), ("4", "2")),
}
REGIONS = tuple(PLANS)
_KIND = phonenumbers.PhoneNumberType
#: The lines a person gives as theirs (not toll-free, premium or shared-cost numbers).
_PERSONAL_LINES = (_KIND.MOBILE, _KIND.FIXED_LINE, _KIND.FIXED_LINE_OR_MOBILE)


# --- identifiers ------------------------------------------------------------------------
nric = e5.nric  # a Singapore NRIC/FIN drawn as eval5 draws it (prefix, 7 digits, letter)


def digits_of(value: str) -> str:
    return re.sub(r"\D", "", value)


def cnic(rng: random.Random, male: bool) -> str:
    locality = f"{rng.choice('1234567')}{rng.randint(0, 9999):04d}"
    serial = f"{rng.randint(0, 9_999_999):07d}"
    return f"{locality}-{serial}-{rng.choice('13579' if male else '2468')}"


def lk_nic(rng: random.Random, born: dt.date, male: bool, new: bool) -> str:
    day = born.timetuple().tm_yday + (0 if male else 500)
    if new:
        return f"{born.year}{day:03d}{rng.randint(0, 99_999):05d}"
    return f"{born.year % 100:02d}{day:03d}{rng.randint(0, 9999):04d}{rng.choice('VVVX')}"


def lk_nic_ok(value: str) -> bool:
    """Shape and day of year of a Sri Lankan NIC (old or new)."""
    v = value.replace(" ", "").upper()
    m = re.fullmatch(r"(\d{2})(\d{3})\d{4}[VX]", v) or re.fullmatch(r"(\d{4})(\d{3})\d{5}", v)
    if not m:
        return False
    day = int(m.group(2))
    day = day - 500 if day > 500 else day
    return 1 <= day <= 366


def thai_check(twelve: str) -> int:
    return (11 - sum(int(d) * w for d, w in zip(twelve, range(13, 1, -1), strict=True)) % 11) % 10


def thai_id(rng: random.Random) -> str:
    twelve = str(rng.randint(1, 8)) + "".join(rng.choice(string.digits) for _ in range(11))
    n = f"{twelve}{thai_check(twelve)}"
    return f"{n[0]}-{n[1:5]}-{n[5:10]}-{n[10:12]}-{n[12]}"


def emirates_id(rng: random.Random, born: dt.date) -> str:
    fourteen = f"784{born.year}{rng.randint(0, 9_999_999):07d}"
    return f"{fourteen[:3]}-{fourteen[3:7]}-{fourteen[7:]}-{luhn_check(fourteen)}"


def ghana_card(rng: random.Random) -> str:
    return f"GHA-{rng.randint(100_000_000, 799_999_999)}-{rng.randint(0, 9)}"


def vn_cccd(rng: random.Random, born: dt.date, male: bool) -> str:
    province = rng.choice(["001", "079", "048", "031", "092", "038", "040", "075"])
    century = (0 if born.year < 2000 else 2) + (0 if male else 1)
    return f"{province}{century}{born.year % 100:02d}{rng.randint(0, 999_999):06d}"


def vn_cccd_ok(value: str) -> bool:
    v = digits_of(value)
    return len(v) == 12 and 1 <= int(v[:3]) <= 96 and v[3] in "0123"


def bd_nid(rng: random.Random, born: dt.date) -> str:
    if rng.random() < 0.6:
        return f"{rng.randint(1, 9)}{rng.randint(0, 999_999_999):09d}"
    district = rng.choice(["26", "15", "93", "47", "61", "81"])  # Dhaka, Chattogram...
    return f"{born.year}{district}{rng.randint(0, 99_999_999_999):011d}"


def jm_trn(rng: random.Random) -> str:
    n = f"1{rng.randint(0, 99_999_999):08d}"
    return f"{n[:3]}-{n[3:6]}-{n[6:]}"


def national_id(rng: random.Random, country: str, male: bool, born: dt.date) -> str:
    """A national identifier of ``country`` as people write it (several forms)."""
    yymmdd = born.strftime("%y%m%d")
    if country == "SG":
        foreign = rng.random() < 0.2
        prefix = ("G" if foreign else "T") if born.year >= 2000 else ("F" if foreign else "S")
        # A citizen born from 1968 on has the last two digits of the birth year first.
        year = f"{born.year % 100:02d}" if born.year >= 1968 and not foreign else ""
        seven = year + "".join(rng.choice(string.digits) for _ in range(7 - len(year)))
        v = f"{prefix}{seven}{nric_check(prefix, seven)}"
        return rng.choice([v, v, v.lower(), f"{v[0]} {v[1:8]} {v[8]}"])
    if country == "ZA":
        v = e6.za_id(rng, yymmdd, male)
        return rng.choice([v, v, f"{v[:6]} {v[6:10]} {v[10:]}"])
    if country == "PK":
        v = cnic(rng, male)
        return rng.choice([v, v, v.replace("-", "")])
    if country == "LK":
        return lk_nic(rng, born, male, new=born.year >= 1990 or rng.random() < 0.3)
    if country == "TH":
        v = thai_id(rng)
        return rng.choice([v, v, v.replace("-", ""), v.replace("-", " ")])
    if country == "AE":
        return emirates_id(rng, born)
    if country == "GH":
        return ghana_card(rng)
    if country == "VN":
        return vn_cccd(rng, born, male)
    if country == "BD":
        return bd_nid(rng, born)
    if country == "JM":
        return jm_trn(rng)
    if country == "CA":
        return e6.sin(rng)
    if country == "IE":
        return e6.pps(rng)
    if country == "AU":
        return e6.tfn(rng) if rng.random() < 0.5 else e6.medicare(rng)
    if country == "MY":
        return e6.mykad(rng, yymmdd, male)
    raise ValueError(f"no identifier for {country!r}")


def classify_id(value: str, country: str = "") -> str:
    """Which identifier ``value`` is: from its shape when only one format has it, else from
    ``country`` (13 digits: South Africa, Pakistan or Thailand; 12: Sri Lanka, Vietnam or
    Malaysia; 9: Canada, Australia or Jamaica...)."""
    raw = value.strip().upper()
    v = re.sub(r"[\s\-()./]", "", raw)
    shapes = (
        ("nric", r"[STFGM]\d{7}[A-Z]"),
        ("ghana_card", r"GHA\d{10}"),
        ("ghana_tin", r"P00[A-Z0-9]{8}"),
        ("lk_nic", r"\d{9}[VX]"),
        ("emirates_id", r"784(19|20)\d{10}"),
        ("ppsn", r"\d{7}[A-W][A-Z]?"),
        ("driver_licence", r"[A-Z]\d{14}"),  # Ontario: its last six digits the birth date
        ("passport", r"[A-Z]{1,2}\d{7,8}[A-Z]?"),  # no published check: shape only
    )
    for kind, shape in shapes:
        if re.fullmatch(shape, v):
            return kind
    if re.fullmatch(r"\d{5}-\d{7}-\d", raw):
        return "cnic"
    if re.fullmatch(r"\d{6}-\d{2}-\d{4}", raw):
        return "mykad"
    if re.fullmatch(r"\d[- ]\d{4}[- ]\d{5}[- ]\d{2}[- ]\d", raw):
        return "thai_id"
    by_country = {
        "ZA": "za_id",
        "PK": "cnic",
        "TH": "thai_id",
        "LK": "lk_nic",
        "VN": "vn_cccd",
        "MY": "mykad",
        "BD": "bd_nid",
        "JM": "jm_trn",
        "CA": "sin",
        "AU": "tfn" if len(v) == 9 else "medicare",
        "SG": "nric",
        "IE": "ppsn",
        "GH": "ghana_card",
        "AE": "emirates_id",
    }
    return by_country.get(country, "unknown")


def check_identifier(value: str, country: str = "") -> str:
    """The identifier's type when it passes every check there is for it; ValueError if not.

    ``country`` settles the shapes several countries share (13 digits: South Africa,
    Pakistan, Thailand; 12: Sri Lanka, Vietnam; 10 or 17: Bangladesh; 9: Canada,
    Australia, Jamaica)."""
    from stdnum import luhn
    from stdnum.au import tfn
    from stdnum.ca import sin
    from stdnum.gh import tin
    from stdnum.ie import pps
    from stdnum.my import nric as mykad
    from stdnum.pk import cnic as pk_cnic
    from stdnum.th import pin
    from stdnum.za import idnr

    from bench.make_eval7 import nric_ok

    kind = classify_id(value, country)
    d = digits_of(value)
    checks = {
        "nric": lambda: nric_ok(value),
        "za_id": lambda: idnr.is_valid(d),
        "cnic": lambda: pk_cnic.is_valid(d),
        "thai_id": lambda: pin.is_valid(d) and int(d[12]) == thai_check(d[:12]),
        "lk_nic": lambda: lk_nic_ok(value),
        "vn_cccd": lambda: vn_cccd_ok(value),
        "bd_nid": lambda: len(d) in (10, 17) and d[0] != "0",
        "emirates_id": lambda: len(d) == 15 and luhn.is_valid(d),
        "ghana_card": lambda: bool(re.fullmatch(r"GHA-?\d{9}-?\d", value.strip().upper())),
        "ghana_tin": lambda: tin.is_valid(value),
        "jm_trn": lambda: len(d) == 9 and d[0] == "1",
        "sin": lambda: sin.is_valid(d),
        "tfn": lambda: tfn.is_valid(d),
        "ppsn": lambda: pps.is_valid(value.replace(" ", "")),
        "mykad": lambda: mykad.is_valid(d),
        "medicare": lambda: medicare_ok(value),
        "passport": lambda: True,
        "driver_licence": lambda: ontario_licence_ok(value),
    }
    if kind not in checks or not checks[kind]():
        raise ValueError(
            f"identifier {value!r} ({kind}, {country or 'no country'}) fails its check"
        )
    return kind


def ontario_licence_ok(value: str) -> bool:
    """An Ontario driver's licence ``A1234-12345-12345``: the last six digits are the birth
    date YYMMDD, the month plus 50 for a woman."""
    d = digits_of(value)
    month, day = int(d[-4:-2]), int(d[-2:])
    return len(d) == 14 and (1 <= month <= 12 or 51 <= month <= 62) and 1 <= day <= 31


def medicare_ok(value: str) -> bool:
    d = digits_of(value)
    weights = (1, 3, 7, 9, 1, 3, 7, 9)
    return (
        len(d) in (10, 11)
        and d[0] in "23456"
        and sum(int(x) * w for x, w in zip(d[:8], weights, strict=True)) % 10 == int(d[8])
    )


# --- phones -------------------------------------------------------------------------------
def phone(rng: random.Random, region: str, mobile: bool) -> phonenumbers.PhoneNumber:
    """A number of ``region``'s plan that libphonenumber calls valid."""
    lengths, mobiles, fixed = PLANS[region]
    heads = mobiles if mobile or not fixed else fixed
    code = phonenumbers.country_code_for_region(region)
    for _ in range(10_000):
        head = rng.choice(heads)
        length = rng.choice(lengths)
        digits = head + "".join(rng.choice(string.digits) for _ in range(length - len(head)))
        number = phonenumbers.PhoneNumber(country_code=code, national_number=int(digits))
        if (
            phonenumbers.is_valid_number(number)
            and phonenumbers.region_code_for_number(number) == region
            and phonenumbers.number_type(number) in _PERSONAL_LINES
        ):
            return number
    raise RuntimeError(f"no valid {region} number drawn")


def write_phone(rng: random.Random, number: phonenumbers.PhoneNumber, region: str) -> str:
    """The number as people type it: national or international format, E.164, or a local
    habit (dashes in Pakistan and Bangladesh, dots in Vietnam and Canada...)."""
    d = str(number.national_number)
    options = e5.usual_writings(number)
    if phonenumbers.number_type(number) == _KIND.FIXED_LINE:
        return rng.choice(options)  # the local habits below are the mobiles' groupings
    local = {
        "SG": [d, f"{d[:4]} {d[4:]}", f"+65-{d}"],
        "PK": [f"0{d[:3]}-{d[3:]}", f"0092 {d[:3]} {d[3:]}"],
        "BD": [f"0{d[:4]}-{d[4:]}", f"+88 0{d}"],
        "VN": [f"0{d[:3]}.{d[3:6]}.{d[6:]}", f"0{d}"],
        "TH": [f"0{d[:2]}-{d[2:5]}-{d[5:]}"],
        "LK": [f"0{d}", f"0{d[:2]} {d[2:]}"],
        "GH": [f"0{d}", f"+233 (0){d}"],
        "ZA": [f"0{d[:2]} {d[2:5]} {d[5:]}", f"+27{d}"],
        "CA": [f"{d[:3]}.{d[3:6]}.{d[6:]}", f"1-{d[:3]}-{d[3:6]}-{d[6:]}"],
        "JM": [f"1 ({d[:3]}) {d[3:6]}-{d[6:]}", f"{d[:3]}-{d[3:6]}-{d[6:]}"],
        "IE": [f"0{d}", f"00353 {d}"],
        "AU": [f"0{d}", f"+61 (0){d[:1]} {d[1:5]} {d[5:]}"],
        "MY": [f"0{d[:2]}-{d[2:]}"],
        "AE": [f"0{d[:2]}-{d[2:]}", f"00971 {d}"],
    }
    return rng.choice(options + local.get(region, []))


def check_phone(value: str, country: str = "") -> str:
    """The region a phone is valid in (libphonenumber), trying ``country`` first, then the
    set's other countries; ValueError if none."""
    return phone_region(value, (country, *REGIONS) if country else REGIONS)


# --- postal codes ---------------------------------------------------------------------------
def postal(rng: random.Random, country: str) -> str:
    """A postal code of ``country`` ("" where none is in daily use)."""
    if country in ("SG", "MY", "AU", "CA", "IE", "ZA"):
        return e6.postal(rng, country)
    if country == "PK":
        return str(rng.choice([54000, 54590, 74200, 75500, 44000, 46000, 25000, 38000]))
    if country == "LK":
        return f"{rng.choice([10, 11, 20, 40, 80, 10350, 10120]):05d}"
    if country == "BD":
        return str(rng.choice([1205, 1207, 1212, 1229, 4000, 4203, 3100, 6000]))
    if country == "TH":
        return str(rng.choice([10110, 10330, 10400, 50200, 83000, 40000, 20150]))
    if country == "VN":
        return str(rng.choice([10000, 11300, 70000, 72400, 50000, 55000]))
    if country == "GH":
        district = rng.choice(["GA", "GA", "AK", "CC", "GT", "TV"])
        return f"{district}-{rng.randint(1, 999):03d}-{rng.randint(1000, 9999)}"
    return ""
