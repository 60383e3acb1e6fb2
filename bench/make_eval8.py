"""Writes the eighth evaluation set of issue 26 (bench/data/eval8/): held-out, measure only.

Made by a seventh method, apart from every earlier set (the project's generator;
``independent_pii/`` from Faker and Fake Name Generator; eval3 and eval4 by hand; eval5
from mimesis's ``en``, ``zh``, ``pt`` and ``nl`` names, pypinyin and indian-names; eval6
from names-dataset, gender-guesser and hand-written clinic, HR, call-centre and police
notes; eval7's hand-written letters, claims, pharmacy logs, court minutes, bookings,
chats, interviews and handovers):

- **notes** (``notes.txt``): 175 notes written by hand, one by one, in styles no earlier
  set has (SMS and WhatsApp threads, call-centre transcripts with speaker labels, HR and
  payroll notes, school notes, police incident narratives, courier logs, veterinary notes,
  clinical-trial screening logs, dental notes, tenancy notes, bank fraud-desk notes, form
  dumps, bulleted lists, semicolon-separated records, OCR-like text, notes with no
  personal data), set in Singapore (about 30%), South Africa, Ghana, Pakistan, Bangladesh,
  Sri Lanka, Vietnam, Thailand, Canada, Jamaica, Ireland, Australia, Malaysia and the UAE;
- **a table** (``table.csv``, 1,500 rows x 20 columns under headers ``c1``..``c20``):
  names from mimesis's ``en-au``, ``en-gb``, ``en-ca``, ``fr`` and ``tr`` locales
  (``parts.csv``, written by ``python bench/make_eval8.py parts``) and from the hand-written
  traditions of ``bench/eval8_names.py`` (Zulu, Xhosa, Sotho, Afrikaans, Akan, Ga and Ewe,
  Pakistani, Bangladeshi, Sinhala, Sri Lankan Tamil, Vietnamese, Thai, Māori, Pacific,
  Jamaican, Arab, Persian, Turkish, Chinese in pinyin, Cantonese and Hokkien, Malay,
  Tamil, Indian with initials...); identifiers, phones and postal codes of
  ``bench/eval8_formats.py``; seed :data:`SEED`.

``notes.txt`` marks each span ``{{kind|text}}``; a name ``{{name:code|text}}`` with a
tradition code of :data:`bench.eval8_names.TRADITIONS`. The labels are eval7's
(``bench/make_eval7.py``: kinds, direct kinds, origins, ``ref`` neutral); ``spans.csv``
adds two columns after eval7's seven: ``tradition`` (of a name) and ``hipaa`` (the letter
of 45 CFR 164.514(b)(2)(i) the span is: A names, B addresses, C dates and ages over 89, D
phones, F emails, G SSNs, H medical record, I health plan, J account numbers, K licences,
L vehicle plates, M device serials, N URLs, O IP addresses, R other identifiers). The
HIPAA identifiers the scorer has no kind for (record, plan and account numbers, plates,
device serials, IP addresses) are written ``{{mrn|..}}``, ``{{plan|..}}``, ``{{acct|..}}``,
``{{plate|..}}``, ``{{device|..}}``, ``{{ip|..}}`` and stored as eval7 stores them: kind
``ref`` (neutral), their letter in ``hipaa``.

Checks (every run): every offset gives back its text, no two spans of a note overlap,
every identifier passes its check (python-stdnum where it has the format, the rules of
``bench/eval8_formats.py`` otherwise), every phone is valid in its note's or row's country
or by its own country code (libphonenumber), every age marked is over 89, every IP address
parses.

**Do not tune a detector on this set**: not its notes, rows, spans or misses.

``python bench/make_eval8.py`` (re)writes notes.csv, spans.csv, table.csv, columns.csv and
people.csv from notes.txt and parts.csv and prints counts; ``python bench/make_eval8.py
parts`` first rewrites parts.csv from mimesis (bench/requirements-bench.txt).
"""

from __future__ import annotations

import csv
import datetime as dt
import ipaddress
import random
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import eval8_formats as fmt  # noqa: E402
from bench import eval8_names as hand  # noqa: E402
from bench.eval_build import MONTH_NAMES, MONTHS, NEUTRAL, pick, write_csv  # noqa: E402
from bench.make_eval7 import DIRECT_KINDS, KINDS, ORIGINS, check_ssn  # noqa: E402

DATA = ROOT / "bench" / "data" / "eval8"
SEED = 2608
ROWS = 1500
REFERENCE_DATE = dt.date(2026, 1, 1)  # ages of people.csv are computed on this date
MARKUP = re.compile(r"\{\{([a-z]+)(?::([a-z]+))?\|([^{}]+)\}\}")
LINE = re.compile(r"([A-Z]{2})\| (.+)")
#: Neutral marks -> the HIPAA letter they carry (kind ``ref`` in spans.csv).
NEUTRAL_HIPAA = {
    "ref": "",
    "mrn": "H",
    "plan": "I",
    "acct": "J",
    "plate": "L",
    "device": "M",
    "ip": "O",
}
#: Scored kinds -> their HIPAA letter (an ``id`` is R, a driving licence K).
KIND_HIPAA = {
    "name": "A",
    "address": "B",
    "date": "C",
    "age": "C",
    "phone": "D",
    "email": "F",
    "ssn": "G",
    "url": "N",
    "id": "R",
}
SPAN_COLUMNS = ["note", "start", "end", "kind", "origin", "direct", "text", "tradition", "hipaa"]
EMAIL = re.compile(r"[\w+-]+(\.[\w+-]+)*@[\w-]+(\.[\w-]+)+")
URL = re.compile(r"(https?://)?(www\.)?[\w-]+(\.[\w-]+)+(/[\w./@-]*)?")
AGE_WORDS = re.compile(r"(ninety|one hundred|a hundred|hundred)", re.IGNORECASE)

Span = tuple[int, int, int, str, str, bool, str, str, str]


# --------------------------------------------------------------------------------------
# The notes
# --------------------------------------------------------------------------------------
def parse_notes(text: str) -> tuple[list[str], list[str], list[Span]]:
    """Notes without marks, each note's country, and each span: note, start, end, kind,
    origin, direct, text, tradition, hipaa."""
    notes: list[str] = []
    countries: list[str] = []
    spans: list[Span] = []
    for raw in text.splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        number = len(notes)
        m = LINE.fullmatch(raw)
        if not m:
            raise ValueError(f"note {number}: a line is 'CC| text': {raw[:40]!r}")
        country, line = m.group(1), m.group(2).replace("\\n", "\n")
        if country not in hand.COUNTRY_NAMES:
            raise ValueError(f"note {number}: unknown country {country!r}")
        out: list[str] = []
        at = 0
        for mark in MARKUP.finditer(line):
            out.append(line[at : mark.start()])
            start = sum(map(len, out))
            kind, code, value = mark.group(1), mark.group(2) or "", mark.group(3)
            origin = tradition = ""
            if kind == "name":
                if code not in hand.TRADITIONS:
                    raise ValueError(f"note {number}: unknown tradition {code!r} of {value!r}")
                origin, tradition = hand.TRADITIONS[code]
                if origin not in ORIGINS:
                    raise ValueError(f"note {number}: {code!r} has no origin of eval7's")
                hipaa = "A"
            elif kind in NEUTRAL_HIPAA and not code:
                hipaa, kind = NEUTRAL_HIPAA[kind], NEUTRAL
            elif kind in KINDS and not code:
                hipaa = KIND_HIPAA[kind]
            else:
                raise ValueError(f"note {number}: unknown mark {kind}:{code} of {value!r}")
            out.append(value)
            spans.append(
                (
                    number,
                    start,
                    start + len(value),
                    kind,
                    origin,
                    kind in DIRECT_KINDS,
                    value,
                    tradition,
                    hipaa,
                )
            )
            at = mark.end()
        out.append(line[at:])
        note = "".join(out)
        if "{{" in note or "}}" in note:
            raise ValueError(f"note {number}: a mark left open: {note[:60]!r}")
        notes.append(note)
        countries.append(country)
    return notes, countries, spans


def check_spans(notes: list[str], countries: list[str], spans: list[Span]) -> dict[str, Counter]:
    """Every offset gives back its text, no two spans of a note overlap, every identifier,
    phone, age, email, URL and IP address passes its check (ValueError if not). Returns
    the identifier types and phone regions counted."""
    ids: Counter = Counter()
    regions: Counter = Counter()
    last: dict[int, int] = {}
    for note, start, end, kind, _origin, _direct, text, _tradition, hipaa in spans:
        if notes[note][start:end] != text or text != text.strip() or not text:
            raise ValueError(f"note {note}: span {start}-{end} does not give back {text!r}")
        if start < last.get(note, 0):
            raise ValueError(f"note {note}: span {text!r} overlaps the one before")
        last[note] = end
        country = countries[note]
        if kind == "id":
            kind_of_id = fmt.check_identifier(text, country)
            if (hipaa == "K") != (kind_of_id == "driver_licence"):
                raise ValueError(f"note {note}: {text!r} is HIPAA {hipaa}, a {kind_of_id}")
            ids[kind_of_id] += 1
        elif kind == "ssn":
            check_ssn(text)
            ids["ssn"] += 1
        elif kind == "phone":
            regions[fmt.check_phone(text, country)] += 1
        elif kind == "age" and not (
            (text.replace(" ", "").isdigit() and int(text.replace(" ", "")) > 89)
            or AGE_WORDS.search(text)
        ):
            raise ValueError(f"note {note}: age {text!r} is not over 89")
        elif kind == "email" and not EMAIL.fullmatch(text):
            raise ValueError(f"note {note}: {text!r} is not an email address")
        elif kind == "url" and not URL.fullmatch(text):
            raise ValueError(f"note {note}: {text!r} is not a web address")
        elif hipaa == "O":
            ipaddress.ip_address(text)  # ValueError if not an IP address
    return {"ids": ids, "regions": regions}


def with_licence_letters(spans: list[Span], countries: list[str]) -> list[Span]:
    """A driving licence is HIPAA identifier K, not R: the letter set from its shape."""
    out = []
    for span in spans:
        if span[3] == "id" and fmt.classify_id(span[6], countries[span[0]]) == "driver_licence":
            span = (*span[:8], "K")
        out.append(span)
    return out


def read_notes(folder: Path = DATA) -> tuple[list[str], list[str], list[Span]]:
    notes, countries, spans = parse_notes((folder / "notes.txt").read_text(encoding="utf-8"))
    return notes, countries, with_licence_letters(spans, countries)


# --------------------------------------------------------------------------------------
# Name parts from mimesis (parts.csv)
# --------------------------------------------------------------------------------------
#: Tradition code -> mimesis locale. en-au and en-gb ship the same name lists in mimesis
#: 22.2.0: drawn with different seeds they give different people.
MIMESIS_LOCALES = {"mau": "en-au", "mgb": "en-gb", "mca": "en-ca", "fr": "fr", "mtr": "tr"}
#: Country -> the mimesis locale whose street names it takes.
MIMESIS_STREETS = {"IE": "en-gb", "AU": "en-au", "CA": "en-ca"}
PARTS_PER_LIST = 60


def _mc(name: str) -> str:
    """mimesis writes "Mcclain": written "McClain" as people do."""
    return re.sub(r"\bMc([a-z])", lambda m: "Mc" + m.group(1).upper(), name)


def build_parts() -> list[tuple[str, str, str, str]]:
    """parts.csv rows (tradition or country, part, value, source) drawn from mimesis."""
    import mimesis
    from mimesis import Address, Locale, Person
    from mimesis.enums import Gender

    source = f"mimesis {mimesis.__version__}"
    # A family name of another tradition's hand-written list ("Nguyen", "Silva") would
    # give the row the wrong origin: left out of mimesis's Western and Turkish lists.
    elsewhere = {
        _plain(n).lower()
        for code, parts in hand.HAND.items()
        if hand.TRADITIONS[code][0] != "Western"
        for n in parts.get("family", [])
    }
    rows: list[tuple[str, str, str, str]] = []
    for offset, (code, locale) in enumerate(sorted(MIMESIS_LOCALES.items())):
        person = Person(Locale(locale), seed=SEED + offset)
        draws = {
            "given_m": lambda p=person: p.first_name(gender=Gender.MALE),
            "given_f": lambda p=person: p.first_name(gender=Gender.FEMALE),
            "family": lambda p=person: p.last_name(),
        }
        for part, draw in draws.items():
            seen: list[str] = []
            for _ in range(PARTS_PER_LIST * 20):
                name = _mc(draw())
                if name not in seen and _plain(name).lower() not in elsewhere:
                    seen.append(name)
                if len(seen) == PARTS_PER_LIST:
                    break
            rows += [(code, part, n, f"{source} {locale}") for n in seen]
    for offset, (country, locale) in enumerate(sorted(MIMESIS_STREETS.items())):
        address = Address(Locale(locale), seed=SEED + 10 + offset)
        streets: list[str] = []
        for _ in range(PARTS_PER_LIST * 20):
            name = address.street_name()
            if name not in streets:
                streets.append(name)
            if len(streets) == PARTS_PER_LIST // 2:
                break
        rows += [(country, "street", s, f"{source} {locale}") for s in streets]
    person = Person(Locale("en"), seed=SEED + 20)
    jobs: list[str] = []
    for _ in range(PARTS_PER_LIST * 20):
        job = person.occupation()
        if job not in jobs:
            jobs.append(job)
        if len(jobs) == PARTS_PER_LIST:
            break
    rows += [("", "occupation", j, f"{source} en") for j in jobs]
    return rows


def load_parts(folder: Path = DATA) -> dict[tuple[str, str], list[str]]:
    """(tradition or country, part) -> values, from parts.csv."""
    out: dict[tuple[str, str], list[str]] = {}
    with open(folder / "parts.csv", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            out.setdefault((row["key"], row["part"]), []).append(row["value"])
    return out


# --------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------
FEMALE_FAMILY = {"Bibi", "Parveen", "Akter", "Begum", "Khatun", "Sultana", "Nahar"}
#: Columns: key -> (role in the PDPC guide's Step 1, group, what it holds, HIPAA letter).
COLUMNS: dict[str, tuple[str, str, str, str]] = {
    "name": (
        "direct",
        "direct",
        "full name, 35 traditions of 14 countries; some upper or "
        "lower case, 'FAMILY, Given', with a title, initials, bin/binti, s/o",
        "A",
    ),
    "given": ("direct", "direct", "given name alone (first name only), some lower case", "A"),
    "kin": ("direct", "direct", "next of kin's full name, lower case", "A"),
    "id": (
        "direct",
        "direct",
        "national ID of 14 countries (NRIC/FIN, SA ID, CNIC, NIC, "
        "Thai ID, Emirates ID, Ghana Card, CCCD, NID, TRN, SIN, PPSN, TFN or Medicare, MyKad)",
        "R",
    ),
    "phone": ("direct", "direct", "phone, national or international format of 14 countries", "D"),
    "email": ("direct", "direct", "email", "F"),
    "address": (
        "indirect",
        "indirect",
        "street line and town (no postal code); some lower "
        "case, P.O. boxes, rural routes and mail bags",
        "B",
    ),
    "postal": (
        "indirect",
        "indirect",
        "postal code of 12 countries (none in Jamaica, the UAE); Ghana's GhanaPost GPS address",
        "B",
    ),
    "dob": (
        "indirect",
        "indirect",
        "date of birth, non-ISO formats (13/06/1973, 13-Jun-1973, June 13, 1973, 13.06.1973)",
        "C",
    ),
    "age": ("indirect", "indirect", "age in years on 1 Jan 2026 (some 90+)", "C"),
    "gender": ("indirect", "indirect", "gender M/F, Male/Female, a few X and Other", ""),
    "occupation": ("indirect", "indirect", "occupation (mimesis en and hand-written)", ""),
    "country": ("indirect", "indirect", "country of residence", ""),
    "visit": ("indirect", "indirect", "visit date in 2025, the formats of dob", "C"),
    "amount": ("target", "target", "amount billed", ""),
    "lab": ("target", "target", "lab result with its test and unit", ""),
    "batch": (
        "other",
        "code",
        "8-digit batch number, 40 values (half start with 8 or 9 like a Singapore mobile)",
        "",
    ),
    "product": ("other", "code", "EAN-13 product barcode, 60 values", ""),
    "clinic": ("other", "code", "hospital or clinic (many carry a person's name)", ""),
    "notes": (
        "free_text",
        "free_text",
        "the hand-written notes, one in each 8th row, labelled spans in spans.csv",
        "any",
    ),
}
TITLES = {True: ["Mr", "Mr.", "Dr"], False: ["Mrs", "Ms", "Mdm", "Dr"]}


def _plain(text: str) -> str:
    """``text`` in ASCII letters (for emails): diacritics dropped, Đ as D."""
    text = text.replace("Đ", "D").replace("đ", "d").replace("ı", "i").replace("ł", "l")
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def _parts(parts: dict, code: str, part: str) -> list[str]:
    if code in MIMESIS_LOCALES:
        return parts[(code, part)]
    return hand.HAND[code][part]


def full_name(rng: random.Random, parts: dict, code: str, male: bool) -> tuple[str, str]:
    """A full name of tradition ``code`` and its given name alone."""
    given = rng.choice(_parts(parts, code, "given_m" if male else "given_f"))
    if code in ("py", "can", "hok"):
        return f"{rng.choice(hand.HAND[code]['family'])} {given}", given
    if code == "sgc":
        dialect = rng.choice(["hok", "hok", "can", "py"])
        chinese = rng.choice(hand.HAND[dialect]["given_m" if male else "given_f"])
        family = rng.choice(hand.HAND[dialect]["family"])
        if rng.random() < 0.5:
            return f"{given} {family} {chinese}", given
        return f"{family} {chinese} {given}", given
    if code == "ml":
        link = rng.choice(["bin", "bin", "b."] if male else ["binti", "binte", "bte", "bt"])
        return f"{given} {link} {rng.choice(hand.HAND['ml']['father'])}", given
    if code == "ta":
        link = rng.choice(["s/o", "a/l"] if male else ["d/o", "a/p"])
        father = rng.choice(hand.HAND["ta"]["father"])
        return (f"{given} {link} {father}" if rng.random() < 0.7 else f"{given} {father}"), given
    if code == "ini":
        return f"{rng.choice(hand.HAND['ini']['initial'])} {given}", given
    if code == "vi":
        name = f"{rng.choice(hand.HAND['vi']['family'])} {given}"
        given_alone = given.split()[-1]
        if rng.random() < 0.5:
            return _plain(name), _plain(given_alone)
        return name, given_alone
    families = [f for f in _parts(parts, code, "family") if male is False or f not in FEMALE_FAMILY]
    family = rng.choice(families)
    if code == "si" and rng.random() < 0.3:
        return f"{rng.choice(hand.HAND['si']['initial'])} {given} {family}", given
    if code == "ak" and rng.random() < 0.3:
        return f"{given} {rng.choice(families)} {family}", given
    if code == "fil" and rng.random() < 0.5:
        return f"{given} {rng.choice('ABCDGLMPRSTV')}. {family}", given
    if code == "ar" and male and rng.random() < 0.5:
        return f"{given} bin {rng.choice(hand.HAND['ar']['given_m'])} {family}", given
    return f"{given} {family}", given


def written_name(rng: random.Random, name: str, male: bool, adult: bool) -> str:
    """The name as a file holds it: mostly as is, some upper or lower case, some with a
    title (adults), some 'FAMILY, Given'."""
    r = rng.random()
    if r < 0.10:
        return name.upper()
    if r < 0.18:
        return name.lower()
    if r < 0.23 and adult:
        return f"{rng.choice(TITLES[male])} {name}"
    if (
        r < 0.27
        and " " in name
        and not re.search(r"\b(bin|binti|binte|bte|bt|b\.|s/o|d/o|a/l|a/p)\b", name)
    ):
        head, tail = name.rsplit(" ", 1)
        return f"{tail.upper()}, {head}"
    return name


#: Words of a name that are not names (particles, abbreviations of Mohammed, Maria).
_NOT_NAMES = {"bin", "binti", "binte", "bte", "bt", "b", "so", "do", "al", "ap", "md", "mst", "ma"}


def _name_words(text: str) -> list[str]:
    words = re.split(r"[\s.'/-]+", _plain(text).lower())
    return [w for w in words if w.isalpha() and len(w) > 1 and w not in _NOT_NAMES]


def email_of(rng: random.Random, name: str, given: str, country: str) -> str:
    """An address made of the given name and the family name (the first word of a name
    that starts with it: Chinese, Vietnamese), as people choose them."""
    given_words = _name_words(given) or ["user"]
    words = _name_words(name)
    family = [w for w in words if w not in given_words]
    first = given_words[0] if rng.random() < 0.7 else "".join(given_words)
    if not family:
        return f"{first}{rng.randint(1, 99)}@{rng.choice(hand.EMAIL_DOMAINS[country])}"
    last = family[0] if words[0] not in given_words else family[-1]
    local = rng.choice(
        [
            f"{first}.{last}",
            f"{first}{last}",
            f"{first[0]}{last}",
            f"{first}_{last}",
            f"{last}.{first}",
            f"{first}{rng.randint(1, 99)}",
            f"{first}.{last}{rng.randint(60, 99)}",
        ]
    )
    return f"{local}@{rng.choice(hand.EMAIL_DOMAINS[country])}"


def address_of(rng: random.Random, parts: dict, country: str) -> tuple[str, str]:
    """(street line, town) of ``country``: numbers, units, P.O. boxes, rural routes."""
    streets = hand.STREETS[country] + parts.get((country, "street"), [])
    street = rng.choice(streets)
    town = rng.choice(hand.TOWNS[country])
    n = rng.randint(1, 250)
    r = rng.random()
    if country == "SG":
        if r < 0.7:
            line = f"Blk {n} {street} #{rng.randint(2, 25):02d}-{rng.randint(1, 1800)}"
        elif r < 0.9:
            line = f"{n} {street}"
        else:
            line = street  # a street without a number
    elif country in ("MY",):
        line = f"No. {n}, {street}" if r < 0.8 else f"Peti Surat {n}"
    elif country == "ZA":
        line = (
            f"{n} {street}"
            if r < 0.7
            else f"Erf {rng.randint(100, 9999)}"
            if r < 0.85
            else f"PO Box {rng.randint(10, 9999)}"
        )
    elif country == "GH":
        line = (
            f"H/No. {rng.choice('ABCDE')} {n}/{rng.randint(1, 9)}, {street}"
            if r < 0.5
            else f"Plot {n}, {street}"
            if r < 0.8
            else f"P.O. Box {rng.choice(['KS', 'AN', 'CT', 'TN'])} {rng.randint(100, 9999)}"
        )
    elif country == "PK":
        line = (
            f"House {n}, {street}"
            if r < 0.8
            else f"Flat {rng.randint(1, 12)}{rng.choice('ABC')}, {street}"
        )
    elif country == "BD":
        line = (
            f"House {n}, {street}"
            if r < 0.8
            else f"Flat {rng.randint(1, 9)}{rng.choice('ABC')}, {n}/2 {street}"
        )
    elif country == "LK":
        line = f"No. {n}/{rng.randint(1, 9)}, {street}" if r < 0.8 else f"{n} {street}"
    elif country == "VN":
        line = (
            f"số {n} ngõ {rng.randint(2, 200)} {street}"
            if r < 0.4
            else f"{n}/{rng.randint(1, 40)} {street}"
        )
    elif country == "TH":
        line = (
            f"{n}/{rng.randint(1, 99)} Moo {rng.randint(1, 12)}, {street}"
            if r < 0.5
            else f"{n} {street}"
        )
    elif country == "CA":
        line = (
            f"{n} {street}"
            if r < 0.6
            else f"{rng.randint(101, 2405)}-{n} {street}"
            if r < 0.8
            else f"RR {rng.randint(1, 9)}, Site {rng.randint(1, 30)}, Box {n}"
            if r < 0.9
            else f"PO Box {rng.randint(10, 9999)}"
        )
    elif country == "JM":
        line = (
            f"{n} {street}"
            if r < 0.5
            else f"Lot {n}, {street}"
            if r < 0.8
            else f"{rng.choice(hand.JM_DISTRICTS)} District"
        )
    elif country == "IE":
        line = (
            f"{n} {street}"
            if r < 0.6
            else f"Apt {rng.randint(1, 40)}, {n} {street}"
            if r < 0.85
            else street
        )
    elif country == "AU":
        line = (
            f"{n} {street}"
            if r < 0.5
            else f"Unit {rng.randint(1, 20)}/{n} {street}"
            if r < 0.8
            else f"RMB {rng.randint(100, 999)}"
            if r < 0.9
            else f"PO Box {rng.randint(10, 9999)}"
        )
    else:  # AE
        line = (
            f"Villa {n}, {street}"
            if r < 0.4
            else f"Flat {rng.randint(101, 3305)}, {street}"
            if r < 0.8
            else f"P.O. Box {rng.randint(1000, 99999)}"
        )
    if rng.random() < 0.12:
        line, town = line.lower(), town.lower()
    return line, town


def write_date(rng: random.Random, day: dt.date, country: str, style: int) -> str:
    """A date as the row's country writes it (never ISO): ``style`` picks the form."""
    d, m, y = day.day, day.month, day.year
    if country == "TH" and style == 4:
        return f"{d:02d}/{m:02d}/{y + 543}"  # the Buddhist Era year
    forms = [
        f"{d:02d}/{m:02d}/{y}",
        f"{d:02d}-{MONTHS[m - 1]}-{y}",
        f"{MONTH_NAMES[m - 1]} {d}, {y}"
        if country in ("CA", "JM")
        else f"{d} {MONTH_NAMES[m - 1]} {y}",
        f"{d:02d}.{m:02d}.{y}",
        f"{d}/{m}/{y % 100:02d}",
    ]
    return forms[style % len(forms)]


def _ean13(twelve: str) -> str:
    total = sum(int(x) * (3 if i % 2 else 1) for i, x in enumerate(twelve))
    return f"{twelve}{(10 - total % 10) % 10}"


def build_table(parts: dict, notes: list[str]) -> tuple[list[dict], list[dict], list[dict]]:
    """table rows (by key), people rows and columns rows."""
    rng = random.Random(SEED)
    countries = list(hand.COUNTRY_WEIGHTS.items())
    batches = [
        str(rng.choice([8, 9]) if i < 20 else rng.randint(1, 7))
        + f"{rng.randint(0, 9_999_999):07d}"
        for i in range(40)
    ]
    products = [
        _ean13(
            rng.choice(["888", "600", "955", "885", "893", "896", "629", "941"])
            + f"{rng.randint(0, 999_999_999):09d}"
        )
        for _ in range(60)
    ]
    occupations = hand.OCCUPATIONS + parts[("", "occupation")]
    step = ROWS // len(notes)
    note_rows = {i * step: text for i, text in enumerate(notes)}
    table, people = [], []
    for row in range(ROWS):
        country = pick(rng, countries)
        code = pick(rng, hand.COUNTRY_TRADITIONS[country])
        origin, tradition = hand.TRADITIONS[code]
        male = rng.random() < 0.5
        r = rng.random()
        age = (
            rng.randint(90, 104)
            if r < 0.05
            else rng.randint(1, 17)
            if r < 0.10
            else rng.randint(18, 89)
        )
        year = REFERENCE_DATE.year - age - 1
        born = dt.date(year, 1, 2) + dt.timedelta(days=rng.randint(0, 363))
        name, given = full_name(rng, parts, code, male)
        kin_code = code if rng.random() < 0.8 else pick(rng, hand.COUNTRY_TRADITIONS[country])
        kin, _ = full_name(rng, parts, kin_code, rng.random() < 0.5)
        street, town = address_of(rng, parts, country)
        postal = fmt.postal(rng, country)
        style = rng.randint(0, 4)
        visit = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randint(0, 333))
        gender = ("M" if male else "F") if rng.random() < 0.6 else ("Male" if male else "Female")
        if rng.random() < 0.012:
            gender = rng.choice(["X", "Other"])
        source = f"mimesis {MIMESIS_LOCALES[code]}" if code in MIMESIS_LOCALES else "hand"
        number = fmt.phone(rng, country, mobile=rng.random() < 0.85)
        occupation = rng.choice(occupations) if age >= 18 else rng.choice(["student", "child"])
        occupation = occupation.lower() if rng.random() < 0.3 else occupation
        table.append(
            {
                "name": written_name(rng, name, male, adult=age >= 18),
                "given": given.lower() if rng.random() < 0.1 else given,
                "kin": kin.lower(),
                "id": fmt.national_id(rng, country, male, born),
                "phone": fmt.write_phone(rng, number, country),
                "email": email_of(rng, name, given, country),
                "address": f"{street}, {town}",
                "postal": postal,
                "dob": write_date(rng, born, country, style),
                "age": str(age),
                "gender": gender,
                "occupation": occupation,
                "country": hand.COUNTRY_NAMES[country],
                "visit": write_date(rng, visit, country, style),
                "amount": f"{rng.uniform(12, 2400):.2f}",
                "lab": rng.choice(
                    [
                        f"HbA1c {rng.uniform(5, 11):.1f}%",
                        f"{rng.uniform(3.5, 14):.1f} mmol/L",
                        f"Hb {rng.uniform(8, 17):.1f} g/dL",
                        f"eGFR {rng.randint(15, 110)}",
                        f"LDL {rng.uniform(1.2, 5.5):.1f} mmol/L",
                        f"INR {rng.uniform(0.9, 3.8):.1f}",
                    ]
                ),
                "batch": rng.choice(batches),
                "product": rng.choice(products),
                "clinic": rng.choice(hand.CLINICS[country]),
                "notes": note_rows.get(row, ""),
            }
        )
        people.append(
            {
                "row": row,
                "country": country,
                "origin": origin,
                "tradition": tradition,
                "name_source": source,
                "age": age,
                "dob": born.isoformat(),
                "street": street,
                "postal": postal,
                "name": name,
                "kin_origin": hand.TRADITIONS[kin_code][0],
            }
        )
    keys = list(COLUMNS)
    headers = [f"c{i}" for i in range(1, len(keys) + 1)]
    order = rng.sample(keys, len(keys))  # which key sits under c1, c2...
    header = dict(zip(order, headers, strict=True))
    columns = [
        {
            "column": header[k],
            "key": k,
            "role": COLUMNS[k][0],
            "group": COLUMNS[k][1],
            "holds": COLUMNS[k][2],
            "hipaa": COLUMNS[k][3],
        }
        for k in order
    ]
    rows = [{header[k]: row[k] for k in order} for row in table]
    return rows, people, columns


def check_table(rows: list[dict], people: list[dict], columns: list[dict]) -> Counter:
    """Every identifier and phone of the table passes its check; returns the ID types."""
    header = {c["key"]: c["column"] for c in columns}
    kinds: Counter = Counter()
    for row, person in zip(rows, people, strict=True):
        country = person["country"]
        kinds[fmt.check_identifier(row[header["id"]], country)] += 1
        if fmt.check_phone(row[header["phone"]], country) != country:
            raise ValueError(
                f"row {person['row']}: phone {row[header['phone']]!r} not of {country}"
            )
        if not EMAIL.fullmatch(row[header["email"]]):
            raise ValueError(f"row {person['row']}: email {row[header['email']]!r}")
    return kinds


# --------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------
def write(folder: Path = DATA, parts_folder: Path = DATA) -> dict[str, object]:
    """Writes notes.csv, spans.csv, table.csv, columns.csv and people.csv into ``folder``
    from notes.txt (of DATA) and parts.csv (of ``parts_folder``); returns the counts."""
    notes, countries, spans = read_notes()
    counts = check_spans(notes, countries, spans)
    parts = load_parts(parts_folder)
    rows, people, columns = build_table(parts, notes)
    counts["table_ids"] = check_table(rows, people, columns)
    step = ROWS // len(notes)
    write_csv(
        folder / "notes.csv",
        ["note", "row", "text", "country"],
        ((i, i * step, t, c) for i, (t, c) in enumerate(zip(notes, countries, strict=True))),
    )
    write_csv(folder / "spans.csv", SPAN_COLUMNS, spans)
    headers = [c["column"] for c in sorted(columns, key=lambda c: int(c["column"][1:]))]
    write_csv(folder / "table.csv", headers, ([row[h] for h in headers] for row in rows))
    write_csv(folder / "columns.csv", list(columns[0]), (c.values() for c in columns))
    write_csv(folder / "people.csv", list(people[0]), (p.values() for p in people))
    counts.update(notes=notes, countries=countries, spans=spans, people=people)
    return counts


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["parts"]:
        rows = build_parts()
        write_csv(DATA / "parts.csv", ["key", "part", "value", "source"], rows)
        print(f"parts.csv: {len(rows)} parts from mimesis")
    counts = write()
    spans = counts["spans"]
    print(
        f"{len(counts['notes'])} notes, {len(spans)} spans; note countries:",
        dict(Counter(counts["countries"])),
    )
    print("kinds:", dict(Counter(s[3] for s in spans)))
    print("direct spans:", sum(s[5] for s in spans))
    print("HIPAA letters:", dict(sorted(Counter(s[8] for s in spans).items())))
    print("name origins:", dict(Counter(s[4] for s in spans if s[3] == "name")))
    print("name traditions:", dict(Counter(s[7] for s in spans if s[3] == "name")))
    print("note identifiers:", dict(counts["ids"]))
    print("note phone regions:", dict(counts["regions"]))
    people = counts["people"]
    print(f"table: {ROWS} rows; countries:", dict(Counter(p["country"] for p in people)))
    print("table origins:", dict(Counter(p["origin"] for p in people)))
    print("table traditions:", dict(Counter(p["tradition"] for p in people)))
    print("table aged 90+:", sum(p["age"] >= 90 for p in people))
    print("table identifiers:", dict(counts["table_ids"]))


if __name__ == "__main__":
    main()
