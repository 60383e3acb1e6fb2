"""Seeded synthetic tables with personal data *in the values*, labelled, for core.detect.

Used by the tests of issue 16 and by ``bench/bench_detect.py``:

* :func:`patients_table`: the issue's example, a table of patients whose headers are
  ``c1`` ... ``c9`` (names of four name families, international phone numbers, street
  addresses, NRIC numbers, dates of birth, sex, diagnosis, emails, free-text notes);
* :func:`labelled_columns`: many columns, each labelled with the kind it holds (or
  ``other``), for precision and recall of column classification;
* :func:`labelled_notes`: free-text notes with the exact entities written into them, for
  precision and recall of in-text detection.

The person names come from the held-out lists below, written separately from the
detector's list (``core/detect/data/names.txt``) and never read from it, so a measurement
on these tables shows how the detector does on names it may not know. Everything else is
synthetic too (phone numbers in the fictional 555-01xx and Ofcom drama ranges, made-up
streets, NRIC numbers with valid check letters but no real owner).

Run ``python scripts/make_pii_data.py OUT.csv`` to write the 600-row patients table.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

# --- held-out names (not read from the detector's list) ---------------------------------
CHINESE_SURNAMES = (
    "Seah",
    "Quek",
    "Png",
    "Tng",
    "Heng",
    "Khoo",
    "Kwek",
    "Liew",
    "Boey",
    "Chia",
    "Foo",
    "Sng",
    "Yap",
    "Yeo",
    "Goh",
    "Ng",
    "Lim",
    "Tan",
    "Teo",
    "Ong",
    "Toh",
    "Chua",
    "Lau",
    "Leong",
    "Phang",
    "Soh",
    "Wee",
    "Neo",
    "Chew",
    "Lum",
)
CHINESE_GIVEN = (
    "Zhi Xuan",
    "Rui En",
    "Yu Xuan",
    "Hui Shan",
    "Kah Wai",
    "Beng Huat",
    "Jia Hui",
    "Wen Jie",
    "Shi Min",
    "Kai Ling",
    "Hong Wei",
    "Siew Ling",
    "Boon Heng",
    "Xin Hui",
    "Yi Ling",
    "Jun Wei",
    "Mei Ling",
    "Choon Hock",
    "Li Na",
    "Guo Wei",
    "Shu Hui",
    "Ming Jie",
    "Pei Ying",
    "Chee Keong",
)
MALAY_GIVEN = (
    "Haziq",
    "Nurfarhana",
    "Aqilah",
    "Faris",
    "Izzati",
    "Danish",
    "Syahmi",
    "Nabila",
    "Haikal",
    "Aisyah",
    "Irfan",
    "Husna",
    "Firdaus",
    "Sakinah",
    "Luqman",
    "Adibah",
)
MALAY_FATHERS = (
    "Jamaluddin",
    "Rosli",
    "Zulkifli",
    "Rahmat",
    "Kamaruddin",
    "Sulaiman",
    "Abdullah",
    "Hashim",
    "Ismail",
    "Shamsuddin",
    "Yusoff",
    "Mokhtar",
)
INDIAN_GIVEN = (
    "Kishore",
    "Thivya",
    "Sathish",
    "Pavithra",
    "Ravi",
    "Nithya",
    "Dinesh",
    "Keerthana",
    "Mugilan",
    "Shalini",
    "Harish",
    "Vasuki",
    "Arul",
    "Janani",
)
INDIAN_FATHERS = (
    "Maniam",
    "Subramaniam",
    "Rajoo",
    "Krishnan",
    "Murugesu",
    "Veerasamy",
    "Pillay",
    "Sundram",
    "Govindan",
    "Perumal",
)
ENGLISH_GIVEN = (
    "Harriet",
    "Gideon",
    "Imogen",
    "Rupert",
    "Tabitha",
    "Declan",
    "Marnie",
    "Felix",
    "Eloise",
    "Callum",
    "Josephine",
    "Ewan",
    "Beatrix",
    "Hamish",
    "Rosalind",
    "Alistair",
)
ENGLISH_SURNAMES = (
    "Oakes",
    "Pruitt",
    "Ashworth",
    "Fairbanks",
    "Holloway",
    "Whitfield",
    "Pemberton",
    "Lockhart",
    "Danvers",
    "Radcliffe",
    "Thornton",
    "Sherwood",
    "Pereira",
    "De Souza",
)

SG_STREETS = (
    "Clementi Avenue",
    "Ang Mo Kio Avenue",
    "Tampines Street",
    "Jurong West Street",
    "Bedok North Road",
    "Yishun Ring Road",
    "Toa Payoh Lorong",
    "Hougang Avenue",
    "Bukit Batok Street",
    "Woodlands Drive",
    "Sengkang East Way",
    "Pasir Ris Drive",
)
UK_ADDRESSES = (
    "221B Baker Street, London NW1 6XE",
    "10 Downing Street, London SW1A 2AA",
    "42 Wallaby Way, Leeds LS1 4DY",
    "7 Station Road, Cambridge CB1 2JW",
)
US_STREETS = ("Pennsylvania Ave", "Main Street", "Elm Street", "Ocean Drive", "Maple Lane")
US_TOWNS = (("Washington", "DC", "20500"), ("Boston", "MA", "02118"), ("Austin", "TX", "78701"))
SYMPTOMS = (
    "chest pain",
    "a persistent cough",
    "dizziness",
    "back pain",
    "fever for three days",
    "shortness of breath",
    "a rash on the left arm",
    "poor sleep",
)
DIAGNOSES = (
    "J06 Acute upper respiratory infection",
    "E11 Type 2 diabetes",
    "I10 Hypertension",
    "M54 Back pain",
    "K21 Reflux",
    "J45 Asthma",
)


def _pick(rng: np.random.Generator, options, n: int) -> list:
    return [options[i] for i in rng.integers(0, len(options), size=n)]


def person_names(rng: np.random.Generator, n: int) -> list[str]:
    """Names of the four families: Chinese (surname first), Malay (bin/binte), Indian
    (s/o, d/o), English/Eurasian."""
    family = rng.integers(0, 4, size=n)
    out = []
    for f in family:
        if f == 0:
            out.append(f"{_pick(rng, CHINESE_SURNAMES, 1)[0]} {_pick(rng, CHINESE_GIVEN, 1)[0]}")
        elif f == 1:
            link = "bin" if rng.random() < 0.5 else "binte"
            out.append(f"{_pick(rng, MALAY_GIVEN, 1)[0]} {link} {_pick(rng, MALAY_FATHERS, 1)[0]}")
        elif f == 2:
            link = "s/o" if rng.random() < 0.5 else "d/o"
            out.append(
                f"{_pick(rng, INDIAN_GIVEN, 1)[0]} {link} {_pick(rng, INDIAN_FATHERS, 1)[0]}"
            )
        else:
            out.append(f"{_pick(rng, ENGLISH_GIVEN, 1)[0]} {_pick(rng, ENGLISH_SURNAMES, 1)[0]}")
    return out


def phones(rng: np.random.Generator, n: int) -> list[str]:
    """International phone numbers in several written forms (fictional ranges)."""
    out = []
    for kind, d in zip(rng.integers(0, 6, size=n), rng.integers(0, 100, size=n), strict=True):
        m = int(rng.integers(1000, 9999))
        out.append(
            [
                f"+1 617-555-01{d:02d}",
                f"+44 20 7946 0{d:03d}",
                f"+65 9{d:03d} {m:04d}",
                f"+65 8{d + 100:03d} {m:04d}",  # 8100-8199 (800x is toll-free)
                f"9{d:03d} {m:04d}",
                f"+61 41{d % 10} {m // 10:03d} {m % 1000:03d}",  # Australian mobiles
            ][kind]
        )
    return out


def addresses(rng: np.random.Generator, n: int) -> list[str]:
    out = []
    for kind in rng.integers(0, 6, size=n):
        if kind <= 3:
            street = _pick(rng, SG_STREETS, 1)[0]
            out.append(
                f"{int(rng.integers(1, 999))} {street} {int(rng.integers(1, 9))} "
                f"#{int(rng.integers(1, 25)):02d}-{int(rng.integers(1, 400)):02d} "
                f"Singapore {int(rng.integers(100000, 829999))}"
            )
        elif kind == 4:
            out.append(_pick(rng, UK_ADDRESSES, 1)[0])
        else:
            town, state, zip_code = _pick(rng, US_TOWNS, 1)[0]
            street = _pick(rng, US_STREETS, 1)[0]
            out.append(f"{int(rng.integers(1, 2000))} {street}, {town}, {state} {zip_code}")
    return out


def emails(rng: np.random.Generator, names: list[str]) -> list[str]:
    domains = ("example.com", "mail.example.org", "clinic.example.sg", "example.co.uk")
    out = []
    for name, number in zip(names, rng.integers(1, 99, size=len(names)), strict=True):
        local = ".".join(w.lower() for w in name.replace("/", "").split() if len(w) > 3)
        out.append(f"{local or 'user'}{number}@{_pick(rng, domains, 1)[0]}")
    return out


def nrics(rng: np.random.Generator, n: int) -> list[str]:
    """NRIC/FIN numbers with a correct check letter, computed here from the published
    algorithm (weights 2,7,6,5,4,3,2; offsets T/G +4, M +3), not by the detector."""
    weights = np.array([2, 7, 6, 5, 4, 3, 2])
    tables = {"S": "JZIHGFEDCBA", "T": "JZIHGFEDCBA", "F": "XWUTRQPNMLK", "G": "XWUTRQPNMLK"}
    offsets = {"S": 0, "T": 4, "F": 0, "G": 4}
    out = []
    for prefix in _pick(rng, "STFG", n):
        digits = rng.integers(0, 10, size=7)
        check = tables[prefix][(int(digits @ weights) + offsets[prefix]) % 11]
        out.append(f"{prefix}{''.join(map(str, digits))}{check}")
    return out


def ssns(rng: np.random.Generator, n: int) -> list[str]:
    """Valid-looking SSNs: area 001-665 or 667-899, group 01-99, serial 0001-9999."""
    area = rng.integers(1, 899, size=n)
    area = np.where(area == 666, 667, area)
    group, serial = rng.integers(1, 100, size=n), rng.integers(1, 10000, size=n)
    return [f"{a:03d}-{g:02d}-{s:04d}" for a, g, s in zip(area, group, serial, strict=True)]


def ninos(rng: np.random.Generator, n: int) -> list[str]:
    first, second = "ABCEGHJKLMNOPRSTWXYZ", "ABCEGHJKLMNPRSTWXYZ"
    out = []
    while len(out) < n:
        prefix = _pick(rng, first, 1)[0] + _pick(rng, second, 1)[0]
        if prefix in {"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"}:
            continue
        digits = rng.integers(0, 10, size=6)
        out.append(f"{prefix}{''.join(map(str, digits))}{_pick(rng, 'ABCD', 1)[0]}")
    return out


def record_codes(rng: np.random.Generator, n: int) -> list[str]:
    prefix = _pick(rng, ("MRN", "AC", "LIC", "HP"), 1)[0]
    numbers = rng.choice(10**7, size=n, replace=False)
    return [f"{prefix}{x:07d}{chr(65 + x % 26)}" for x in numbers]


def dates(rng: np.random.Generator, n: int) -> list[str]:
    days = pd.Timestamp("1940-01-01") + pd.to_timedelta(rng.integers(0, 30000, size=n), "D")
    style = _pick(rng, ("%Y-%m-%d", "%d/%m/%Y", "%d %b %Y"), 1)[0]
    return [d.strftime(style) for d in days]


def ipv4s(rng: np.random.Generator, n: int) -> list[str]:
    parts = rng.integers(0, 256, size=(n, 4))
    return [".".join(map(str, p)) for p in parts]


def ipv6s(rng: np.random.Generator, n: int) -> list[str]:
    groups = rng.integers(0, 65536, size=(n, 8))
    return [":".join(f"{g:x}" for g in row) for row in groups]


def macs(rng: np.random.Generator, n: int) -> list[str]:
    octets = rng.integers(0, 256, size=(n, 6))
    return [":".join(f"{o:02X}" for o in row) for row in octets]


def urls(rng: np.random.Generator, names: list[str]) -> list[str]:
    return [
        f"https://www.example.org/people/{name.split()[0].lower()}-{i}"
        for i, name in enumerate(names)
    ]


def plates(rng: np.random.Generator, n: int) -> list[str]:
    letters = "ABCDEFGHJKLMNPRSTUXYZ"
    return [
        f"S{_pick(rng, letters, 1)[0]}{_pick(rng, letters, 1)[0]}{int(rng.integers(1, 9999))}"
        f"{_pick(rng, letters, 1)[0]}"
        for _ in range(n)
    ]


# --- the table --------------------------------------------------------------------
NOTE_TEMPLATES = (
    ("Referral letter emailed to {email}", ("email",)),
    ("Call back on {phone}", ("phone",)),
    ("patient {name} reports {symptom}", ("name",)),
    ("{name} attended with daughter; lives at {address}", ("name", "address")),
    ("Seen on {date}. NRIC {nric} checked at the counter.", ("date", "id")),
    ("Spoke to {name} ({phone}) about the results", ("name", "phone")),
    ("Next of kin: {name}, {phone}", ("name", "phone")),
    ("Discharge summary sent to {email} on {date}", ("email", "date")),
    ("Moved to {address} last month", ("address",)),
    ("Follow-up booked for {date} with Dr {surname}", ("date", "name")),
    ("SSN on file {ssn}; insurer notified", ("id",)),
    ("Portal login from {ip}; leaflet at {url}", ("ip", "url")),
    ("No complaints today, continue the current medication", ()),
    ("BP stable, continue Metformin 500mg twice daily", ()),
    ("Review in 2 weeks; X-ray of the left wrist shows no fracture", ()),
    ("Patient education given on a diabetic diet", ()),
    # Capitalised words that are not people: drugs, hospitals, insurers, programmes, places.
    ("Prescribed Panadol Extra and Augmentin Duo for five days", ()),
    ("Transferred to Tan Tock Seng Hospital for imaging", ()),
    ("Claim via Great Eastern Life approved in March", ()),
    ("Attended the Healthy Heart Programme talk at Ang Mo Kio Hub", ()),
    ("Uses a Blood Glucose Monitor at home; HbA1c 7.2 in May", ()),
    ("Version 2 of the consent form signed; 3 copies filed", ()),
)


@dataclass(frozen=True)
class Note:
    text: str
    entities: tuple[tuple[str, str], ...]  # (kind group, exact text)


def labelled_notes(n: int, seed: int) -> list[Note]:
    """``n`` notes with the exact entities written into each (kind groups: name, email,
    phone, address, id, date, ip, url)."""
    rng = np.random.default_rng(seed)
    names = person_names(rng, n)
    values = {
        "name": names,
        "email": emails(rng, names),
        "phone": phones(rng, n),
        "address": addresses(rng, n),
        "date": dates(rng, n),
        "nric": nrics(rng, n),
        "ssn": ssns(rng, n),
        "ip": ipv4s(rng, n),
        "url": urls(rng, names),
        "surname": _pick(rng, CHINESE_SURNAMES + ENGLISH_SURNAMES[:-2], n),
        "symptom": _pick(rng, SYMPTOMS, n),
    }
    groups = {"nric": "id", "ssn": "id", "surname": "name"}
    out = []
    for i, t in enumerate(rng.integers(0, len(NOTE_TEMPLATES), size=n)):
        template, _ = NOTE_TEMPLATES[t]
        fields = {k: v[i] for k, v in values.items()}
        used = [k for k in fields if "{" + k + "}" in template]
        entities = tuple((groups.get(k, k), fields[k]) for k in used if k not in {"symptom"})
        out.append(Note(template.format(**fields), entities))
    return out


def patients_table(n: int = 600, seed: int = 16) -> pd.DataFrame:
    """The issue's example: patients with headers c1..c9 that say nothing."""
    rng = np.random.default_rng(seed)
    names = person_names(rng, n)
    notes = labelled_notes(n, seed + 1)
    born = dates(np.random.default_rng(seed + 2), n)
    return pd.DataFrame(
        {
            "c1": names,
            "c2": phones(rng, n),
            "c3": addresses(rng, n),
            "c4": nrics(rng, n),
            "c5": born,
            "c6": _pick(rng, ("F", "M"), n),
            "c7": _pick(rng, DIAGNOSES, n),
            "c8": emails(rng, names),
            "c9": [note.text for note in notes],
        }
    )


# --- labelled columns for column classification ------------------------------------------
OCCUPATIONS = (
    "Accountant",
    "Nurse",
    "Civil servant",
    "Teacher",
    "Engineer",
    "Retired",
    "Data scientist",
    "Chef",
    "Driver",
    "Student",
)
CITIES = ("Singapore", "Boston", "London", "Kuala Lumpur", "Chennai", "Shanghai", "Jakarta")
COMPANIES = (
    "Acme Pte Ltd",
    "Lion City Holdings",
    "Harbour Foods Pte Ltd",
    "Orchid Bank",
    "Straits Logistics Ltd",
    "Merlion Clinic",
)
COLOURS = ("Tan", "Red", "Blue", "Green", "Rose", "Brown", "White", "Olive", "Amber", "Grey")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
PRODUCTS = ("Silver Plan", "Gold Plan", "Basic Cover", "Family Shield", "Travel Plus")
DRUGS = (
    "Panadol Extra",
    "Augmentin Duo",
    "Metformin XR",
    "Ventolin Inhaler",
    "Lipitor",
    "Zyrtec",
    "Nexium Control",
    "Voltaren Gel",
)
HOSPITALS = (
    "Tan Tock Seng Hospital",
    "Singapore General Hospital",
    "Changi General Hospital",
    "Khoo Teck Puat Hospital",
    "Ng Teng Fong General Hospital",
    "Raffles Medical",
)
SKUS = ("SKU-1001", "SKU-1002", "SKU-2040", "BX-77", "A4-PAPER")


def labelled_columns(rows: int, seed: int, copies: int = 3) -> list[tuple[str, pd.Series]]:
    """``(true kind, column)`` pairs: ``copies`` columns of each identifying kind, and
    columns that hold no identifier (kind ``other``)."""
    out: list[tuple[str, pd.Series]] = []
    for copy in range(copies):
        rng = np.random.default_rng(seed * 100 + copy)
        names = person_names(rng, rows)
        out += [
            ("name", pd.Series(names)),
            ("email", pd.Series(emails(rng, names))),
            ("phone", pd.Series(phones(rng, rows))),
            ("id", pd.Series(nrics(rng, rows))),
            ("id", pd.Series(ssns(rng, rows))),
            ("id", pd.Series(ninos(rng, rows))),
            ("id", pd.Series(record_codes(rng, rows))),
            ("address", pd.Series(addresses(rng, rows))),
            ("date", pd.Series(dates(rng, rows))),
            ("ip", pd.Series(ipv4s(rng, rows))),
            ("ip", pd.Series(ipv6s(rng, rows))),
            ("mac", pd.Series(macs(rng, rows))),
            ("url", pd.Series(urls(rng, names))),
            ("vehicle_plate", pd.Series(plates(rng, rows))),
            ("other", pd.Series(_pick(rng, OCCUPATIONS, rows))),
            ("other", pd.Series(_pick(rng, CITIES, rows))),
            ("other", pd.Series(_pick(rng, COMPANIES, rows))),
            ("other", pd.Series(_pick(rng, COLOURS, rows))),
            ("other", pd.Series(_pick(rng, MONTHS, rows))),
            ("other", pd.Series(_pick(rng, DIAGNOSES, rows))),
            ("other", pd.Series(_pick(rng, PRODUCTS, rows))),
            ("other", pd.Series(_pick(rng, DRUGS, rows))),
            ("other", pd.Series(_pick(rng, HOSPITALS, rows))),
            ("other", pd.Series(_pick(rng, SKUS, rows))),
            ("other", pd.Series(rng.normal(170, 10, rows).round(1))),
            ("other", pd.Series(rng.integers(18, 90, rows))),
            ("other", pd.Series(_pick(rng, ("F", "M"), rows))),
        ]
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python scripts/make_pii_data.py OUT.csv", file=sys.stderr)
        return 2
    patients_table().to_csv(argv[0], index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
