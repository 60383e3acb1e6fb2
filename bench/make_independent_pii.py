"""Writes the independent labelled table of issue 26 (bench/data/independent_pii/).

A table as a new user's data looks: people from Singapore, the US, the UK and India, 20
columns under headers that say little (``c1``, ``tel``, ``loc``, ``ref``...), and a
free-text column whose personal-data spans are labelled exactly. It is built by a method
apart from the one the detectors were developed on (``scripts/make_pii_data.py`` and
``bench/detect_notes*.py`` are not used, nor are the detectors' word lists):

- names and addresses from Faker (MIT; locales en_US, en_GB, en_IN, en_PK, zh_CN
  romanised, pt_PT) and from presidio-evaluator's published FakeNameGenerator identities
  (CC BY-SA 3.0 US; ``bench/data/fakenamegenerator_people.csv``);
- Singapore names, streets and the other lists of ``bench/independent_sources.py``,
  written by hand;
- phone numbers, NRIC/FIN (with their check letter), SSN, NINO and Aadhaar (with its
  Verhoeff digit) built from each country's published numbering rules;
- notes from about 150 hand-written templates (``HAND_NOTES``) and the 79 usable
  presidio-evaluator templates (``bench/data/presidio_evaluator_templates.txt``).

Two parts: ``dev`` (500 people; the detector developers may read it) and ``test`` (1,500
people; only ever measured). Every list of words and every template belongs to one part
only (:func:`split_of`), so the test part holds names, streets and sentences the dev part
never shows.

Seeded and deterministic for a given Faker version (pinned in bench/requirements-bench.txt):
``python bench/make_independent_pii.py`` rewrites the vendored files; the benchmark reads
them and never needs Faker.
"""

from __future__ import annotations

import csv
import datetime as dt
import random
import re
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import independent_sources as src  # noqa: E402
from bench.check_digits import nric_check, verhoeff_check  # noqa: E402
from bench.eval_build import ascii_fold, pick  # noqa: E402

DATA = ROOT / "bench" / "data"
OUT = DATA / "independent_pii"
SEED = 26
PEOPLE = {"dev": 500, "test": 1500}
REFERENCE_DATE = dt.date(2026, 1, 1)
COLUMNS = (
    "c1",
    "c2",
    "c3",
    "k1",
    "k2",
    "tel",
    "c7",
    "loc",
    "pc",
    "d1",
    "n1",
    "g",
    "c13",
    "c14",
    "ref",
    "c16",
    "c17",
    "n2",
    "d2",
    "txt",
)
COUNTRY_NAMES = {"SG": "Singapore", "US": "United States", "GB": "United Kingdom", "IN": "India"}
COUNTRIES = (("SG", 0.4), ("US", 0.2), ("GB", 0.2), ("IN", 0.2))
ORIGINS = {
    "SG": (
        ("Chinese", 0.60),
        ("Malay", 0.15),
        ("Indian", 0.15),
        ("Eurasian", 0.05),
        ("Western", 0.05),
    ),
    "US": (("Western", 0.76), ("Chinese", 0.12), ("Indian", 0.12)),
    "GB": (("Western", 0.76), ("Indian", 0.16), ("Chinese", 0.08)),
    "IN": (("Indian", 0.92), ("Eurasian", 0.04), ("Western", 0.04)),
}
# Labelled placeholders of the note templates -> span kind.
LABELLED = {
    **dict.fromkeys(
        (
            "name",
            "name_lc",
            "name_uc",
            "first",
            "first_lc",
            "formal",
            "mother",
            "father",
            "spouse",
            "child",
            "child_lc",
            "nok",
            "nok_lc",
            "doctor",
            "staff",
            "staff2",
        ),
        "name",
    ),
    **dict.fromkeys(("phone", "phone2", "phone_intl"), "phone"),
    **dict.fromkeys(("nric", "nric_sp", "nric2", "nino", "aadhaar"), "id"),
    **dict.fromkeys(("ssn", "ssn_bare"), "ssn"),
    **dict.fromkeys(("email", "email2"), "email"),
    **dict.fromkeys(("addr", "addr2", "addr_lc", "street", "postal"), "address"),
    **dict.fromkeys(("dob", "date", "date_long", "daymonth"), "date"),
    # An 8-digit number after "ref", "claim", "invoice": an account number (a Safe Harbor
    # identifier) or a batch code, the note does not say: neither scored nor a false alarm.
    "ref": "ref",
}
_ONLY_IN = {"ssn": "US", "ssn_bare": "US", "nino": "GB", "aadhaar": "IN", "addr_lc": "SG"}
# presidio-evaluator placeholders -> ours (the first {{person}} is the patient's name...).
_PRESIDIO = {
    "person": "name",
    "name": "name",
    "name_male": "name",
    "name_female": "name",
    "first_name": "first",
    "first_name_male": "first",
    "first_name_female": "first",
    "first_name_nonbinary": "first",
    "last_name": "formal",
    "last_name_male": "formal",
    "last_name_female": "formal",
    "phone_number": "phone",
    "email": "email",
    "address": "addr",
    "date_of_birth": "dob",
    "date_time": "date",
    "ssn": "ssn",
    "prefix": "title",
    "prefix_male": "title",
    "prefix_female": "title",
    "day_of_week": "weekday",
    "job": "job",
}
_SECOND = {
    "name": "nok",
    "first": "staff",
    "formal": "staff",
    "addr": "addr2",
    "phone": "phone2",
    "email": "email2",
    "dob": "date",
    "date": "date_long",
    "ssn": "ssn",
}


def split_of(item: str) -> str:
    """The part a word or template belongs to: a quarter of them to ``dev``, by a hash."""
    return "dev" if zlib.crc32(item.encode("utf-8")) % 4 == 0 else "test"


@dataclass
class Name:
    full: str
    first: str
    formal: str
    origin: str
    given: str = ""
    surname: str = ""


@dataclass
class Person:
    country: str
    origin: str
    gender: str
    name: Name
    age: int
    dob: dt.date
    values: dict[str, str] = field(default_factory=dict)


class Sources:
    """Names, places and numbers for one part, from Faker, FakeNameGenerator and by hand."""

    def __init__(self, split: str, seed: int) -> None:
        from faker import Faker  # bench-only: bench/requirements-bench.txt

        self.split = split
        self.rng = random.Random(f"{seed}-{split}")
        self.fakers = {}
        for i, loc in enumerate(("en_US", "en_GB", "en_IN", "en_PK", "zh_CN", "pt_PT")):
            fake = Faker(loc)
            fake.seed_instance(seed * 100 + i + (0 if split == "dev" else 50))
            self.fakers[loc] = fake
        self.fng = [
            row
            for row in csv.DictReader((DATA / "fakenamegenerator_people.csv").open())
            if split_of(row["Surname"]) == split
        ]
        self.fng_address = {
            c: [r for r in self.fng if r["CountryFull"] == name]
            for c, name in (("US", "United States"), ("GB", "United Kingdom"))
        }

        def mine(items):
            """This part's share of a hand list (a list too short to share stays whole)."""
            part = [x for x in items if split_of(x) == split]
            return part if len(part) >= 3 else list(items)

        self.cn_surnames = mine(src.CHINESE_SURNAMES)
        self.cn_syllables = mine(src.CHINESE_GIVEN_SYLLABLES)
        self.malay = {"M": mine(src.MALAY_MALE), "F": mine(src.MALAY_FEMALE)}
        self.malay_fathers = mine(src.MALAY_FATHER)
        self.tamil = {"M": mine(src.TAMIL_MALE), "F": mine(src.TAMIL_FEMALE)}
        self.sikh = mine(src.SIKH_GIVEN)
        self.eurasian = mine(src.EURASIAN_SURNAMES)
        self.sg_towns = mine(src.SG_TOWNS)
        self.sg_bare = mine(src.SG_BARE_STREETS)
        self.india_localities = [
            x for x in src.INDIA_LOCALITIES if split_of(x[0]) == split
        ] or list(src.INDIA_LOCALITIES)
        self.india_buildings = mine(src.INDIA_BUILDINGS)
        self.india_roads = mine(src.INDIA_ROADS)
        self.batches = [str(self.rng.randrange(10_000_000, 99_999_999)) for _ in range(40)]

    # -- words from Faker, kept to this part's half of the vocabulary --
    def faker_word(self, locale: str, method: str) -> str:
        fake = self.fakers[locale]
        for _ in range(200):
            word = ascii_fold(getattr(fake, method)())
            if word and split_of(word) == self.split:
                return word
        raise RuntimeError(f"no {method} of {locale} in part {self.split}")

    def western_first(self, gender: str, locale: str = "en_US") -> str:
        return self.faker_word(locale, "first_name_female" if gender == "F" else "first_name_male")

    # -- names per origin --
    def name(self, origin: str, gender: str, country: str) -> Name:
        return getattr(self, f"_{origin.lower()}")(gender, country)

    def _chinese(self, gender: str, country: str) -> Name:
        rng = self.rng
        surname = (
            rng.choice(self.cn_surnames)
            if rng.random() < 0.75
            else self.faker_word("zh_CN", "last_romanized_name")
        )
        pair = " ".join(rng.sample(self.cn_syllables, 2))
        english = self.western_first(gender, "en_GB" if country != "US" else "en_US")
        style = rng.random()
        if style < 0.40:
            return Name(f"{surname} {pair}", pair, surname, "Chinese", pair, surname)
        if style < 0.55:
            given = self.faker_word("zh_CN", "first_romanized_name")
            return Name(f"{surname} {given}", given, surname, "Chinese", given, surname)
        if style < 0.70:
            return Name(
                f"{english} {surname} {pair}", english, surname, "Chinese", english, surname
            )
        if style < 0.82:
            return Name(f"{english} {surname}", english, surname, "Chinese", english, surname)
        if style < 0.94:
            return Name(f"{pair} {surname}", pair, surname, "Chinese", pair, surname)
        hyphen = pair.replace(" ", "-", 1)
        return Name(f"{surname} {hyphen}", hyphen, surname, "Chinese", hyphen, surname)

    def _malay(self, gender: str, country: str) -> Name:
        rng = self.rng
        own = self.malay["F" if gender == "F" else "M"]
        given = rng.choice(own)
        if rng.random() < 0.35:
            given = f"{given} {rng.choice(own)}" if given in ("Muhammad", "Nur", "Siti") else given
        if rng.random() < 0.25:  # Arabic-derived given names of Faker's en_PK
            given = self.western_first(gender, "en_PK")
        father = (
            rng.choice(self.malay_fathers)
            if rng.random() < 0.7
            else self.faker_word("en_PK", "first_name_male")
        )
        link = rng.choices(
            [
                "bin" if gender != "F" else "binti",
                "Bin" if gender != "F" else "Binte",
                "b." if gender != "F" else "bte",
                "",
            ],
            [0.55, 0.1, 0.05, 0.3],
        )[0]
        full = f"{given} {link} {father}" if link else f"{given} {father}"
        formal = given.split()[-1]
        return Name(full, given, formal, "Malay", given, father)

    def _indian(self, gender: str, country: str) -> Name:
        rng = self.rng
        style = rng.random() if country in ("SG", "GB") else rng.random() * 0.6
        if style < 0.45:
            given = self.western_first(gender, "en_IN")
            surname = self.faker_word("en_IN", "last_name")
            return Name(f"{given} {surname}", given, surname, "Indian", given, surname)
        if style < 0.60:
            given = rng.choice(self.sikh)
            surname = "Kaur" if gender == "F" else "Singh"
            return Name(f"{given} {surname}", given, given, "Indian", given, surname)
        given = rng.choice(self.tamil["F" if gender == "F" else "M"])
        father = rng.choice(self.tamil["M"])
        if style < 0.85:
            link = (
                ("d/o" if gender == "F" else "s/o")
                if rng.random() < 0.8
                else ("D/O" if gender == "F" else "S/O")
            )
            return Name(f"{given} {link} {father}", given, given, "Indian", given, father)
        return Name(f"{father[0]}. {given}", given, given, "Indian", given, father)

    def _eurasian(self, gender: str, country: str) -> Name:
        given = self.western_first(gender, "en_GB")
        surname = (
            self.rng.choice(self.eurasian)
            if self.rng.random() < 0.7
            else self.faker_word("pt_PT", "last_name")
        )
        return Name(f"{given} {surname}", given, surname, "Eurasian", given, surname)

    def _western(self, gender: str, country: str) -> Name:
        rng = self.rng
        rows = [r for r in self.fng if r["Gender"] == ("female" if gender == "F" else "male")]
        if rng.random() < 0.5 and rows:
            row = rng.choice(rows)
            given, surname = ascii_fold(row["GivenName"]), ascii_fold(row["Surname"])
        else:
            locale = "en_US" if country == "US" else "en_GB"
            given = self.western_first(gender, locale)
            surname = self.faker_word(locale, "last_name")
        full = f"{given} {surname}"
        if rng.random() < 0.1:
            full = f"{given} {rng.choice('ABCDEFGHJKLMNPRSTW')}. {surname}"
        return Name(full, given, surname, "Western", given, surname)


# --------------------------------------------------------------------------------------
# Numbers and places by each country's rules
# --------------------------------------------------------------------------------------
def nric(rng: random.Random, prefix: str) -> str:
    """An NRIC/FIN with its check letter."""
    digits = "".join(str(rng.randrange(10)) for _ in range(7))
    return prefix + digits + nric_check(prefix, digits)


def aadhaar(rng: random.Random) -> str:
    """A 12-digit Aadhaar number (first digit 2-9) with its Verhoeff check digit."""
    body = str(rng.randrange(2, 10)) + "".join(str(rng.randrange(10)) for _ in range(10))
    number = body + str(verhoeff_check(body))
    return f"{number[:4]} {number[4:8]} {number[8:]}"


def ssn(rng: random.Random) -> str:
    area = rng.choice([a for a in range(1, 900) if a != 666])
    return f"{area:03d}-{rng.randrange(1, 100):02d}-{rng.randrange(1, 10000):04d}"


def nino(rng: random.Random) -> str:
    first = rng.choice("ABCEGHJKLMNOPRSTWXYZ")
    second = rng.choice("ABCEGHJKLMNPRSTWXYZ")
    if first + second in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
        second = "A"
    digits = f"{rng.randrange(1_000_000):06d}"
    suffix = rng.choice("ABCD")
    if rng.random() < 0.6:
        return f"{first}{second} {digits[:2]} {digits[2:4]} {digits[4:]} {suffix}"
    return f"{first}{second}{digits}{suffix}"


_US_AREAS = (
    212,
    213,
    305,
    312,
    404,
    415,
    503,
    512,
    602,
    617,
    646,
    702,
    713,
    718,
    720,
    773,
    808,
    818,
    916,
    919,
    206,
    214,
    303,
    347,
    408,
    469,
    510,
    571,
    615,
    678,
)


def phone(rng: random.Random, country: str) -> tuple[str, str]:
    """(national form as people write it, international form)."""
    r = rng.random()
    if country == "SG":
        first = rng.choice("89") if r < 0.85 else "6"
        n = first + "".join(str(rng.randrange(10)) for _ in range(7))
        forms = [f"{n[:4]} {n[4:]}", n, f"+65 {n[:4]} {n[4:]}", f"{n[:4]}-{n[4:]}"]
        return rng.choices(forms, [0.5, 0.3, 0.1, 0.1])[0], f"+65 {n[:4]} {n[4:]}"
    if country == "US":
        area = rng.choice(_US_AREAS)
        exchange = rng.choice([x for x in range(200, 1000) if x % 100 != 11 and x != 555])
        line = rng.randrange(10000)
        forms = [
            f"({area}) {exchange}-{line:04d}",
            f"{area}-{exchange}-{line:04d}",
            f"{area}.{exchange}.{line:04d}",
            f"{area}{exchange}{line:04d}",
        ]
        return (rng.choices(forms, [0.35, 0.3, 0.25, 0.1])[0], f"+1 {area}-{exchange}-{line:04d}")
    if country == "GB":
        if r < 0.6:
            n = "7" + rng.choice("12345789") + "".join(str(rng.randrange(10)) for _ in range(8))
            forms = [f"0{n[:4]} {n[4:]}", f"0{n}", f"0{n[:4]} {n[4:7]} {n[7:]}"]
            return rng.choices(forms, [0.6, 0.2, 0.2])[0], f"+44 {n[:4]} {n[4:]}"
        area, rest = rng.choice(
            (("20", 8), ("161", 7), ("121", 7), ("113", 7), ("131", 7), ("1865", 6), ("117", 7))
        )
        n = str(rng.randrange(2, 9)) + "".join(str(rng.randrange(10)) for _ in range(rest - 1))
        local = f"{n[:4]} {n[4:]}" if rest == 8 else f"{n[:3]} {n[3:]}" if rest == 7 else n
        forms = [f"0{area} {local}", f"(0{area}) {local}"]
        return rng.choices(forms, [0.7, 0.3])[0], f"+44 {area} {local}"
    if r < 0.75:
        n = rng.choice("6789") + "".join(str(rng.randrange(10)) for _ in range(9))
        forms = [f"{n[:5]} {n[5:]}", f"+91 {n[:5]} {n[5:]}", f"+91-{n}", f"0{n}", n]
        return rng.choices(forms, [0.35, 0.25, 0.1, 0.1, 0.2])[0], f"+91 {n[:5]} {n[5:]}"
    area = rng.choice(("22", "11", "44", "80", "33", "40"))
    n = str(rng.randrange(2, 7)) + "".join(str(rng.randrange(10)) for _ in range(7))
    forms = [f"0{area}-{n[:4]} {n[4:]}", f"0{area} {n[:4]} {n[4:]}", f"0{area}-{n}"]
    return rng.choices(forms, [0.4, 0.4, 0.2])[0], f"+91 {area} {n[:4]} {n[4:]}"


def sg_address(s: Sources) -> tuple[str, str, str]:
    """(address, street line, postal code) in the forms Singapore writes them."""
    rng = s.rng
    block = rng.randrange(1, 999)
    sector = rng.randrange(1, 83)
    postal = f"{sector:02d}{block % 10000:04d}"
    unit = f"#{rng.randrange(1, 30):02d}-{rng.randrange(1, 400):0{rng.choice((2, 3))}d}"
    blk = rng.choice(("Blk", "Blk", "Block", "BLK", ""))
    kind = rng.random()
    if kind < 0.45:
        street = f"{rng.choice(s.sg_towns)} {rng.choice(src.SG_ROAD_WORDS)}"
        if rng.random() < 0.6:
            street += f" {rng.randrange(1, 10)}"
    elif kind < 0.6:
        street = f"{rng.choice(('Lor', 'Lorong'))} {rng.randrange(1, 9)} {rng.choice(src.SG_LORONG_TOWNS)}"
    else:
        street = rng.choice(s.sg_bare)
    line = f"{blk} {block} {street}".strip()
    landed = kind >= 0.6 and rng.random() < 0.4
    tail = rng.choice((f"S({postal})", f"S{postal}", f"Singapore {postal}", f"Singapore {postal}"))
    if landed:
        address = f"{block} {street}, {tail}"
        line = f"{block} {street}"
    else:
        sep = rng.choice((" ", ", "))
        address = f"{line}{sep}{unit}{sep}{tail}"
    return address, line, postal


def us_address(s: Sources) -> tuple[str, str, str]:
    rng = s.rng
    if rng.random() < 0.5 and s.fng_address["US"]:
        row = rng.choice(s.fng_address["US"])
        line, city, state, zip5 = row["StreetAddress"], row["City"], row["State"], row["ZipCode"]
    else:
        f = s.fakers["en_US"]
        line, city, state, zip5 = f.street_address(), f.city(), f.state_abbr(), f.zipcode()
    zip5 = zip5.zfill(5)  # FakeNameGenerator's file lost the leading zeros of some ZIP codes
    return f"{line}, {city}, {state} {zip5}", line, zip5


def gb_address(s: Sources) -> tuple[str, str, str]:
    rng = s.rng
    if rng.random() < 0.5 and s.fng_address["GB"]:
        row = rng.choice(s.fng_address["GB"])
        line, city, postcode = row["StreetAddress"], row["City"].title(), row["ZipCode"]
    else:
        f = s.fakers["en_GB"]
        line, city, postcode = f.street_address().replace("\n", ", "), f.city(), f.postcode()
    return (
        f"{line}, {city} {postcode}" if rng.random() < 0.5 else f"{line}, {city}, {postcode}",
        line,
        postcode,
    )


def in_address(s: Sources) -> tuple[str, str, str]:
    rng = s.rng
    if rng.random() < 0.5:
        f = s.fakers["en_IN"]
        line, city, pin = f.street_address().replace("\n", ", "), f.city(), f.postcode()
        return (
            f"{line}, {city} - {pin}" if rng.random() < 0.5 else f"{line}, {city} {pin}",
            line,
            pin,
        )
    locality, city, pin = rng.choice(s.india_localities)
    flat = rng.choice(
        (
            f"Flat {rng.randrange(1, 40)}{rng.choice('ABCD')}",
            f"No. {rng.randrange(1, 200)}",
            f"{rng.randrange(1, 99)}/{rng.randrange(1, 30)}",
        )
    )
    building = rng.choice(s.india_buildings)
    road = rng.choice(s.india_roads)
    line = f"{flat}, {building}, {road}"
    return f"{line}, {locality}, {city} {pin}", line, pin


def fmt_date(rng: random.Random, day: dt.date, country: str) -> str:
    forms = ["%d/%m/%Y", "%d %b %Y", "%Y-%m-%d", "%d.%m.%Y", "%-d %B %Y"]
    if country == "US":
        forms += ["%m/%d/%Y", "%B %-d, %Y", "%b %-d, %Y"]
    return day.strftime(rng.choice(forms))


def day_month(rng: random.Random) -> str:
    day = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randrange(365))
    return (
        day.strftime(
            rng.choices(["%-d %B", "%-d %b", "%B %-d", "%-dth %B"], [0.4, 0.25, 0.25, 0.1])[0]
        )
        .replace("1th", "1st")
        .replace("2th", "2nd")
        .replace("3th", "3rd")
        .replace("11st", "11th")
        .replace("12nd", "12th")
        .replace("13rd", "13th")
    )


def email_of(rng: random.Random, name: Name, country: str) -> str:
    given = re.sub(r"[^a-z]", "", ascii_fold(name.given).lower()) or "user"
    surname = re.sub(r"[^a-z]", "", ascii_fold(name.surname).lower()) or "mail"
    local = rng.choice(
        (
            f"{given}.{surname}",
            f"{given}_{surname}",
            f"{given[0]}{surname}{rng.randrange(10, 99)}",
            f"{surname}{given[:2]}{rng.randrange(1950, 2010)}",
            f"{given}{surname}",
        )
    )
    domains = {
        "SG": ("gmail.com", "yahoo.com.sg", "hotmail.com", "singnet.com.sg", "outlook.com"),
        "US": ("gmail.com", "yahoo.com", "aol.com", "outlook.com", "icloud.com", "comcast.net"),
        "GB": ("gmail.com", "btinternet.com", "hotmail.co.uk", "yahoo.co.uk", "outlook.com"),
        "IN": ("gmail.com", "rediffmail.com", "yahoo.co.in", "outlook.com"),
    }
    return f"{local}@{rng.choice(domains[country])}"


_IDS = re.compile(r"\{(nric|nric_sp|nric2|ssn|ssn_bare|nino|aadhaar)\}")
_ADDRESS = {"SG": sg_address, "US": us_address, "GB": gb_address, "IN": in_address}
_FOREIGN_FIN = ("F", "G", "M")


def make_person(s: Sources, row: int) -> Person:
    rng = s.rng
    country = pick(rng, COUNTRIES)
    origin = pick(rng, ORIGINS[country])
    gender = rng.choices(["M", "F", "O"], [0.49, 0.49, 0.02])[0]
    name = s.name(origin, "F" if gender == "O" and rng.random() < 0.5 else gender, country)
    age = rng.randrange(90, 105) if rng.random() < 0.04 else rng.randrange(18, 90)
    dob = REFERENCE_DATE - dt.timedelta(days=365.25 * age + rng.randrange(1, 360))
    person = Person(country, origin, gender, name, age, dob)
    v = person.values
    if country == "SG":
        prefix = "T" if dob.year >= 2000 else "S"
        if rng.random() < 0.1:
            prefix = rng.choice(_FOREIGN_FIN)
    else:
        prefix = rng.choice(_FOREIGN_FIN)
    v["nric"] = nric(rng, prefix)
    v["nric_sp"] = f"{v['nric'][0]} {v['nric'][1:8]} {v['nric'][8]}"
    r = rng.random()
    v["k1"] = v["nric_sp"] if r < 0.12 else v["nric"].lower() if r < 0.2 else v["nric"]
    if country == "US":
        v["ssn"] = ssn(rng)
        v["ssn_bare"] = v["ssn"].replace("-", "")
        v["k2"] = v["ssn"] if rng.random() < 0.85 else v["ssn"].replace("-", " ")
    v["nino"] = nino(rng)
    v["aadhaar"] = aadhaar(rng)
    v["phone"], v["phone_intl"] = phone(rng, country)
    v["phone2"] = phone(rng, country)[0]
    v["email"] = email_of(rng, name, country)
    v["email2"] = email_of(rng, name, country)
    v["addr"], v["street"], v["postal"] = _ADDRESS[country](s)
    v["addr2"] = _ADDRESS[country](s)[0]
    v["addr_lc"] = v["addr"].lower()
    loc = v["addr"]
    if country == "SG" and rng.random() < 0.12:
        loc = v["addr_lc"]
    v["loc"] = loc
    v["dob"] = fmt_date(rng, dob, country)
    visit = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randrange(365))
    v["d2"] = visit.isoformat()
    v["date"] = fmt_date(rng, visit, country)
    v["date_long"] = visit.strftime("%-d %B %Y")
    v["daymonth"] = day_month(rng)
    v["title"] = {"M": "Mr", "F": rng.choice(("Ms", "Mrs", "Mdm")), "O": "Mx"}[gender]
    return person


def other_name(s: Sources, person: Person, family: bool) -> Name:
    rng = s.rng
    origin = person.origin if family and rng.random() < 0.85 else pick(rng, ORIGINS[person.country])
    return s.name(origin, rng.choice("MF"), person.country)


def _value(s: Sources, person: Person, key: str, names: dict[str, Name]) -> tuple[str, str]:
    """(text, origin of a name or '') of one placeholder for ``person``."""
    rng, v, n = s.rng, person.values, person.name
    own = {
        "name": n.full,
        "name_lc": n.full.lower(),
        "name_uc": n.full.upper(),
        "first": n.first,
        "first_lc": n.first.lower(),
        "formal": n.formal,
    }
    if key in own:
        return own[key], n.origin
    base = key.removesuffix("_lc")
    if base in ("mother", "father", "spouse", "child", "nok", "doctor", "staff", "staff2"):
        if base not in names:
            names[base] = other_name(
                s, person, base in ("mother", "father", "spouse", "child", "nok")
            )
        other = names[base]
        text = other.first if base.startswith("staff") else other.full
        return (text.lower() if key.endswith("_lc") else text), other.origin
    if key == "nric2":
        return nric(rng, rng.choice("ST")), ""
    decoys = {
        "hosp": lambda: rng.choice(src.HOSPITALS[person.country]),
        "ref": lambda: rng.choice(s.batches),
        "ward": lambda: rng.choice(("Ward 7B", "W45", "ward 12", "B1 bed 14", "ICU", "Ward 64")),
        "amount": lambda: (
            rng.choice(("$", "S$", "US$", "£", "Rs ", "INR "))
            + f"{rng.randrange(20, 9000):,}"
            + rng.choice(("", ".00", ".50"))
        ),
        "weekday": lambda: rng.choice(
            ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
        ),
        "time": lambda: rng.choice(("3pm", "10.15am", "14:30", "9am", "2130h", "noon", "7.45pm")),
        "job": lambda: rng.choice(src.LOCAL_JOBS),
        "dx": lambda: rng.choice(src.DIAGNOSES),
        "title": lambda: v["title"],
    }
    if key in decoys:
        return decoys[key](), ""
    return v[key], ""


def fill(
    s: Sources, person: Person, template: str, names: dict[str, Name], presidio: bool = False
) -> tuple[str, list[tuple[int, int, str, str]]]:
    """The text of a template for ``person`` and its spans (start, end, kind, origin)."""
    pattern = r"\{\{(\w+)\}\}" if presidio else r"\{(\w+)\}"
    if presidio:
        template = template.replace("\\n", "\n")
    out, spans, position, seen = [], [], 0, set()
    length = 0
    for match in re.finditer(pattern, template):
        key = match.group(1)
        if presidio:
            key = _PRESIDIO[key]
            if key in seen and key in _SECOND:
                key = _SECOND[key]
                if key == "staff":
                    names.pop("staff", None)
            seen.add(key)
        literal = template[position : match.start()]
        out.append(literal)
        length += len(literal)
        text, origin = _value(s, person, key, names)
        if key in LABELLED:
            spans.append((length, length + len(text), LABELLED[key], origin or person.origin))
        out.append(text)
        length += len(text)
        position = match.end()
    out.append(template[position:])
    return "".join(out), spans


def _usable(template: str, country: str, presidio: bool) -> bool:
    keys = re.findall(r"\{\{(\w+)\}\}" if presidio else r"\{(\w+)\}", template)
    keys = [_PRESIDIO[k] for k in keys] if presidio else keys
    return all(_ONLY_IN.get(k, country) == country for k in keys)


def templates(split: str) -> tuple[list[str], list[str]]:
    hand = [t for t in src.HAND_NOTES if split_of(t) == split]
    lines = (DATA / "presidio_evaluator_templates.txt").read_text(encoding="utf-8").splitlines()
    presidio = [t for t in lines if t and not t.startswith("#") and split_of(t) == split]
    return hand, presidio


def note(s: Sources, person: Person, hand: list[str], presidio: list[str]):
    rng = s.rng
    names: dict[str, Name] = {}
    text, spans = "", []
    for i in range(rng.choices([1, 2, 3], [0.35, 0.45, 0.2])[0]):
        from_presidio = rng.random() < 0.3
        pool = [
            t
            for t in (presidio if from_presidio else hand)
            if _usable(t, person.country, from_presidio)
        ]
        if i == 0 and not from_presidio and rng.random() < 0.25:
            # identifiers are rarer in templates than in real notes: one note in four has one
            pool = [t for t in pool if _IDS.search(t)] or pool
        piece, found = fill(s, person, rng.choice(pool), names, from_presidio)
        sep = "" if i == 0 else rng.choice((" ", " ", "; ", "\n", " // "))
        offset = len(text) + len(sep)
        text += sep + piece
        spans += [(a + offset, b + offset, k, o) for a, b, k, o in found]
    return text, spans


def build(split: str, seed: int = SEED):
    """(table rows, span rows, people rows) of one part."""
    s = Sources(split, seed)
    hand, presidio = templates(split)
    table, spans, people = [], [], []
    hospitals = {c: [h for h in src.HOSPITALS[c]] for c in src.HOSPITALS}
    for row in range(PEOPLE[split]):
        person = make_person(s, row)
        v = person.values
        rng = s.rng
        nok = other_name(s, person, family=True)
        text, found = note(s, person, hand, presidio)
        name_col = person.name.full
        if rng.random() < 0.08:
            name_col = f"{rng.choice(src.TITLES)} {name_col}"
        job = rng.choice(src.LOCAL_JOBS) if rng.random() < 0.4 else s.fakers["en_US"].job()
        table.append(
            {
                "c1": name_col,
                "c2": person.name.first,
                "c3": nok.full.lower(),
                "k1": v["k1"],
                "k2": v.get("k2", ""),
                "tel": v["phone"],
                "c7": v["email"],
                "loc": v["loc"],
                "pc": v["postal"],
                "d1": person.dob.strftime("%d/%m/%Y"),
                "n1": person.age,
                "g": {"M": "Male", "F": "Female", "O": "Other"}[person.gender],
                "c13": job,
                "c14": COUNTRY_NAMES[person.country],
                "ref": rng.choice(s.batches),
                "c16": rng.choice(hospitals[person.country]),
                "c17": rng.choice(src.DIAGNOSES),
                "n2": round(rng.lognormvariate(6, 1), 2),
                "d2": v["d2"],
                "txt": text,
            }
        )
        for start, end, kind, origin in found:
            spans.append(
                {
                    "row": row,
                    "start": start,
                    "end": end,
                    "kind": kind,
                    "origin": origin,
                    "text": text[start:end],
                }
            )
        people.append(
            {
                "row": row,
                "country": person.country,
                "origin": person.origin,
                "age": person.age,
                "street": v["street"],
                "postal": v["postal"],
                "nok_origin": nok.origin,
            }
        )
    return table, spans, people


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for split in PEOPLE:
        table, spans, people = build(split)
        for name, rows in (("table", table), ("spans", spans), ("people", people)):
            path = OUT / f"{split}_{name}.csv"
            with path.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
        print(f"{split}: {len(table)} people, {len(spans)} labelled spans in the notes")


if __name__ == "__main__":
    main()
