"""Writes the third evaluation set of issue 26 (bench/data/eval3/): measure only.

A clinic / HR / CRM export as it comes from Malaysia, the Philippines, Australia and
Singapore: 300 people under headers in Malay or abbreviated (``nama``, ``no_kp``,
``tel_bimbit``, ``emp#``, ``c07``), and a notes column of hand-written sentences whose
personal-data spans are labelled exactly (``bench/data/eval3/notes.txt``).

Built by a third method, apart from ``scripts/make_pii_data.py`` and from
``bench/make_independent_pii.py``: no Faker, no name list from a package and none of the
lists of ``bench/independent_sources.py``. Every name part, street, town and job
(``bench/eval3_hand.py``) was written by hand from general knowledge for this file;
identifiers follow each country's published shape (Malaysian MyKad YYMMDD-PB-###G with the
place-of-birth code of a state and an odd last digit for men; Singapore NRIC/FIN with its
check letter; passports by shape);
phones follow each country's numbering plan, written the several ways people type them.
Beside the personal columns sit code columns that look like phones or IDs but are not:
10-digit receipt numbers starting 01 (a Malaysian mobile's shape), 12-digit lot numbers
starting with a date (a MyKad's shape), invoices, EAN-13 SKUs, ICD-10 codes, lab values,
timestamps.

**Do not tune a detector on this set** (its rows, its misses or its notes): it exists to
measure how the detectors do on data nobody tuned them on; a detector fixed to pass it
makes its figures meaningless.

Seeded and deterministic: ``python bench/make_eval3.py`` rewrites ``table.csv``,
``people.csv`` and ``spans.csv``; the scorer (``bench/bench_detect_eval3.py``) reads them.
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

from bench import eval3_hand as hand  # noqa: E402
from bench.check_digits import nric_check  # noqa: E402
from bench.eval_build import MONTHS, age_on, ascii_fold  # noqa: E402

DATA = ROOT / "bench" / "data" / "eval3"
SEED = 2603
ROWS = 300
REFERENCE_DATE = dt.date(2026, 1, 1)  # ages are computed on this date
MARKUP = re.compile(r"\{\{([a-z]+)\|([^{}]+)\}\}")

SKUS = ("MED-PCM-500", "MED-MTF-500", "CONS-GLV-M", "CONS-SYR-3ML", "MED-AML-5")
EAN13 = ("8851234567890", "9556001234561", "9300675024235", "4800016644290")
PLAIN_NOTES = (
    "Follow-up in 2 weeks.",
    "No complaints.",
    "Tiada aduan.",
    "Ubat diteruskan.",
    "Review with results.",
    "Walang reklamo.",
    "Stable, for discharge.",
    "BP ok, continue meds.",
    "",
    "",
)
COUNTRY_WORD = {"MY": "Malaysia", "PH": "Filipina", "AU": "Australia", "SG": "Singapura"}


class Person:
    """One row's truth: who, and each personal value as written in the table."""

    def __init__(self, rng: random.Random, row: int, country: str) -> None:
        self.row, self.country, self.rng = row, country, rng
        self.gender = rng.choice("MF")
        self.dob = self._birth_date()
        self.age = age_on(self.dob, REFERENCE_DATE)
        self.origin, self.full, self.first = self._name()

    def _birth_date(self) -> dt.date:
        rng = self.rng
        # about 1 in 15 over 89 (Safe Harbor's ages-over-89 rule), the rest 18 to 85
        years = rng.randint(90, 101) if rng.random() < 1 / 15 else rng.randint(18, 85)
        return REFERENCE_DATE - dt.timedelta(days=365 * years + rng.randint(10, 350))

    def _name(self, male: bool | None = None, origin: str = "") -> tuple[str, str, str]:
        """(origin, full name as written, first name) in the tradition ``origin`` (by
        default one of the country's)."""
        rng = self.rng
        male = self.gender == "M" if male is None else male
        pick = {
            "MY": ("Malay", "Malay", "Chinese", "Chinese", "Indian", "Borneo"),
            "SG": ("Chinese", "Chinese", "Chinese", "Malay", "Indian"),
            "PH": ("Filipino",),
            "AU": ("Western", "Western", "Western", "Vietnamese", "Chinese"),
        }[self.country]
        origin = {"Chinese (hanzi)": "Chinese"}.get(origin, origin) or rng.choice(pick)
        if origin == "Chinese":
            surname = rng.choice(hand.CHINESE_SURNAMES)
            a, b = rng.choice(hand.CHINESE_GIVEN_M if male else hand.CHINESE_GIVEN_F)
            style = rng.random()
            if style < 0.12:
                hanzi = rng.choice(hand.HANZI_NAMES)
                return "Chinese (hanzi)", hanzi, hanzi[1:]
            if style < 0.3:
                return "Chinese", f"{surname} {a}-{b.lower()}", f"{a}-{b.lower()}"
            if style < 0.45:
                return "Chinese", f"{surname} {a}{b.lower()}", f"{a}{b.lower()}"
            if style < 0.6:
                first = rng.choice(hand.WESTERN_CHINESE_FIRST)
                return "Chinese", f"{first} {surname} {a} {b}", first
            return "Chinese", f"{surname} {a} {b}", f"{a} {b}"
        if origin == "Malay":
            given = rng.choice(hand.MALAY_GIVEN_M if male else hand.MALAY_GIVEN_F)
            link = rng.choice(("bin", "bin", "b.") if male else ("binti", "binti", "bt"))
            return "Malay", f"{given} {link} {rng.choice(hand.MALAY_FATHERS)}", given.split()[-1]
        if origin == "Indian":
            given = rng.choice(hand.TAMIL_GIVEN_M if male else hand.TAMIL_GIVEN_F)
            link = rng.choice(("s/o", "a/l") if male else ("d/o", "a/p"))
            return "Indian", f"{given} {link} {rng.choice(hand.TAMIL_FATHERS)}", given
        if origin == "Borneo":
            given, father = rng.sample(hand.BORNEO_GIVEN, 2)
            return "Borneo", f"{given} anak {father}", given
        if origin == "Filipino":
            first = rng.choice(hand.FILIPINO_FIRST_M if male else hand.FILIPINO_FIRST_F)
            middle = rng.choice(hand.FILIPINO_SURNAMES)
            last = rng.choice([s for s in hand.FILIPINO_SURNAMES if s != middle])
            if rng.random() < 0.5:
                return "Filipino", f"{first} {middle[0]}. {last}", first
            return "Filipino", f"{last}, {first}", first
        if origin == "Vietnamese":
            name = rng.choice(hand.VIETNAMESE)
            return "Vietnamese", name, name.split()[-1]
        first = rng.choice(hand.WESTERN_FIRST_M if male else hand.WESTERN_FIRST_F)
        return "Western", f"{first} {rng.choice(hand.WESTERN_SURNAMES)}", first

    def next_of_kin(self) -> str:
        """A relative's name of the same tradition, typed in lower case (as in the field)."""
        return self._name(male=self.gender == "F", origin=self.origin)[1].lower()

    # -- identifiers and contacts --------------------------------------------------------
    def id_number(self, pb: str) -> str:
        rng = self.rng
        if self.country == "MY":
            tail = (
                f"{rng.randrange(100):02d}{rng.choice('13579' if self.gender == 'M' else '02468')}"
            )
            head = f"{self.dob:%y%m%d}"
            return rng.choice(
                (f"{head}-{pb}-{rng.randrange(10)}{tail}",) * 3
                + (f"{head}{pb}{rng.randrange(10)}{tail}",)
            )
        if self.country == "SG":
            prefix = "T" if self.dob.year >= 2000 else rng.choice("SSSSG")
            digits = f"{self.dob:%y}" + "".join(str(rng.randrange(10)) for _ in range(5))
            return prefix + digits + nric_check(prefix, digits)
        if self.country == "PH":
            return f"P{rng.randrange(10**7):07d}{rng.choice('ABC')}"
        return f"PA{rng.randrange(10**7):07d}"

    def phone(self) -> str:
        rng = self.rng
        n = lambda k: "".join(str(rng.randrange(10)) for _ in range(k))  # noqa: E731
        if self.country == "MY":
            prefix = rng.choice(("12", "13", "16", "17", "19", "11"))
            body = n(8) if prefix == "11" else n(7)
            mid = len(body) - 4
            return rng.choice(
                (
                    f"0{prefix}-{body[:mid]} {body[mid:]}",
                    f"0{prefix}-{body}",
                    f"+60{prefix}-{body[:mid]} {body[mid:]}",
                    f"60{prefix}{body}",
                    f"0{prefix} {body[:mid]} {body[mid:]}",
                )
            )
        if self.country == "PH":
            prefix, body = rng.choice(("917", "918", "927", "939", "998", "906")), n(7)
            return rng.choice(
                (
                    f"0{prefix} {body[:3]} {body[3:]}",
                    f"+63 {prefix} {body[:3]} {body[3:]}",
                    f"0{prefix}{body}",
                    f"+63{prefix}{body}",
                )
            )
        if self.country == "AU":
            body = "4" + n(8)
            return rng.choice(
                (
                    f"0{body[:3]} {body[3:6]} {body[6:]}",
                    f"+61 {body[0]} {body[1:5]} {body[5:]}",
                    f"0{body}",
                )
            )
        body = rng.choice("89") + n(7)
        return rng.choice((f"{body[:4]} {body[4:]}", f"+65 {body[:4]} {body[4:]}", body))

    def email(self) -> str:
        rng = self.rng
        words = re.findall(r"[a-z]+", ascii_fold(self.full).lower())
        words = [
            w
            for w in words
            if w not in {"bin", "binti", "bt", "b", "s", "o", "d", "a", "l", "p", "anak"}
        ] or [f"pt{rng.randrange(1000, 9999)}"]
        local = rng.choice(
            (
                ".".join(words[:2]),
                "_".join(words[-2:]) + str(rng.randrange(70, 99)),
                words[0][0] + words[-1],
            )
        )
        domain = {
            "MY": ("gmail.com", "yahoo.com.my", "hotmail.com"),
            "PH": ("gmail.com", "yahoo.com.ph"),
            "AU": ("bigpond.com", "gmail.com", "outlook.com.au"),
            "SG": ("gmail.com", "singnet.com.sg"),
        }[self.country]
        return f"{local}@{rng.choice(domain)}"

    def address(self) -> tuple[str, str, str, str]:
        """(full address, street line, postal code, MyKad place-of-birth code)."""
        rng = self.rng
        if self.country == "MY":
            town, postal, state, pb = rng.choice(hand.MY_TOWNS)
            street = f"No. {rng.randint(1, 120)}, {rng.choice(hand.MY_STREETS)}"
            full = f"{street}, {rng.choice(hand.MY_ESTATES)}, {postal} {town}, {state}"
            if rng.random() < 0.2:
                full, street = full.upper(), street.upper()
            return full, street, postal, pb
        if self.country == "PH":
            town, postal, province = rng.choice(hand.PH_PLACES)
            if rng.random() < 0.5:
                street = f"Blk {rng.randint(1, 40)} Lot {rng.randint(1, 30)}"
            else:
                street = f"{rng.randint(1, 900)} {rng.choice(hand.PH_STREETS)}"
            full = f"{street}, Brgy. {rng.choice(hand.PH_BARANGAYS)}, {town}, {province} {postal}"
            return full, street, postal, "71"
        if self.country == "AU":
            town, state, postal = rng.choice(hand.AU_PLACES)
            number = (
                f"{rng.randint(1, 12)}/{rng.randint(1, 200)}"
                if rng.random() < 0.3
                else str(rng.randint(1, 200))
            )
            street = f"{number} {rng.choice(hand.AU_STREETS)}"
            return f"{street}, {town} {state} {postal}", street, postal, "71"
        road, sector = rng.choice(hand.SG_STREETS)
        block = rng.randint(100, 999)
        postal = f"{sector}{block:04d}"
        street = f"Blk {block} {road}"
        unit = f"#{rng.randint(2, 20):02d}-{rng.randint(1, 400):02d}"
        return f"{street} {unit} S({postal})", street, postal, "71"


def write_date(rng: random.Random, day: dt.date) -> str:
    """A date the way exports write them: dd/mm/yy, dd/mm/yyyy, ISO, '5 Mar 1987', dd.mm.yyyy."""
    return rng.choice(
        (
            f"{day:%d/%m/%y}",
            f"{day:%d/%m/%Y}",
            day.isoformat(),
            f"{day.day} {MONTHS[day.month - 1]} {day.year}",
            f"{day:%d.%m.%Y}",
        )
    )


def parse_notes(lines: list[str]) -> tuple[list[str], list[tuple[int, int, int, str, str]]]:
    """The notes without their markup, and each labelled span (note, start, end, kind, text).

    ``{{kind|text}}`` marks a span; lines starting with '#' are comments and blank lines are
    skipped. Offsets are half-open, in characters of the note without markup.
    """
    notes, spans = [], []
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        out, position, row = [], 0, len(notes)
        for match in MARKUP.finditer(line):
            out.append(line[position : match.start()])
            start = sum(map(len, out))
            kind, text = match.group(1), match.group(2)
            out.append(text)
            spans.append((row, start, start + len(text), kind, text))
            position = match.end()
        out.append(line[position:])
        note = "".join(out)
        if "{{" in note or "}}" in note:
            raise ValueError(f"unclosed markup in note {row + 1}: {line!r}")
        notes.append(note)
    return notes, spans


def build(rng: random.Random, notes: list[str]) -> tuple[list[dict], list[dict]]:
    countries = ["MY"] * 150 + ["PH"] * 60 + ["AU"] * 50 + ["SG"] * 40
    rng.shuffle(countries)
    table, people = [], []
    receipt = 162030000
    for row, country in enumerate(countries):
        person = Person(rng, row, country)
        full_address, street, postal, pb = person.address()
        visit = dt.date(2024, 1, 2) + dt.timedelta(days=rng.randrange(700))
        receipt += rng.randint(1, 40)
        kin = person.next_of_kin()
        gender = {"MY": ("L", "P"), "SG": ("M", "F"), "PH": ("Male", "Female"), "AU": ("M", "F")}[
            country
        ][person.gender == "F"]
        table.append(
            {
                "bil": row + 1,
                "nama": person.full,
                "c07": person.first,
                "no_kp": person.id_number(pb),
                "emp#": rng.choice(
                    (f"E-{rng.randrange(10**5):05d}", f"{rng.randrange(10**6):06d}")
                ),
                "tel_bimbit": person.phone(),
                "emel": person.email(),
                "alamat": full_address,
                "poskod": postal,
                "dob": write_date(rng, person.dob),
                "umur": person.age,
                "jantina": gender,
                "pekerjaan": "Pesara" if person.age >= 65 else rng.choice(hand.JOBS),
                "negara": COUNTRY_WORD[country],
                "waris": kin,
                "tarikh_lawatan": write_date(rng, visit),
                "inv_no": rng.choice(
                    (f"INV-{visit.year}-{rng.randrange(10**5):05d}", f"{10023000 + row * 3}")
                ),
                "sku": rng.choice(SKUS + EAN13),
                "icd10": rng.choice(hand.ICD10),
                "hba1c": f"{rng.uniform(5.0, 11.5):.1f}",
                "no_resit": f"0{receipt}",
                "lot_no": f"{visit - dt.timedelta(days=rng.randrange(30, 400)):%y%m%d}"
                f"{rng.randrange(10**6):06d}",
                "ts": f"{visit} {rng.randrange(8, 18):02d}:{rng.randrange(60):02d}:"
                f"{rng.randrange(60):02d}",
                "amaun": f"RM {rng.randrange(2000, 60000) / 100:,.2f}",
                "catatan": notes[row] if row < len(notes) else rng.choice(PLAIN_NOTES),
            }
        )
        people.append(
            {
                "row": row,
                "country": country,
                "origin": person.origin,
                "age": person.age,
                "dob": person.dob.isoformat(),
                "visit": visit.isoformat(),
                "street": street,
                "postal": postal,
            }
        )
    return table, people


def _write(path: Path, rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def main() -> None:
    lines = (DATA / "notes.txt").read_text(encoding="utf-8").splitlines()
    notes, spans = parse_notes(lines)
    if len(notes) > ROWS:
        raise SystemExit(f"{len(notes)} notes for {ROWS} rows")
    table, people = build(random.Random(SEED), notes)
    _write(DATA / "table.csv", table)
    _write(DATA / "people.csv", people)
    _write(
        DATA / "spans.csv",
        [dict(zip(("row", "start", "end", "kind", "text"), s, strict=True)) for s in spans],
    )
    print(f"wrote {len(table)} rows, {len(spans)} labelled spans to {DATA}")


if __name__ == "__main__":
    main()
