"""Generate ``sample_data/singapore_people.csv``: a synthetic, Singapore-style personal table.

Every value is made up (no row describes a real person), but the table has the kinds of
attribute the PDPC guide lists in Step 1: direct identifiers (NRIC, name, email, mobile),
indirect identifiers (date of birth, sex, race, postal code, GPS location, occupation) and
target attributes (diagnosis, income). Use it to try the techniques of Annex A and the
risk measures of Step 4 / Annex C on something larger than the guide's examples.

Run ``python scripts/make_sample_data.py [--seed 2024] [--rows 10000] [--out PATH]``.
The same seed and row count always give the same bytes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.identifiers import make_nrics  # noqa: E402
from core.validation import make_rng, require_int  # noqa: E402

DEFAULT_SEED = 2024
DEFAULT_ROWS = 10_000
DEFAULT_OUT = ROOT / "sample_data" / "singapore_people.csv"
REFERENCE_DATE = "2024-01-01"  # ages 18-90 are exact on this date

# Bounding box of the generated coordinates (Singapore main island).
LAT_RANGE = (1.25, 1.45)
LON_RANGE = (103.62, 104.0)
SPREAD_DEGREES = 0.003  # standard deviation around a town centre, about 330 m

# Town centre, latitude, longitude, postal sectors (first two digits), relative weight.
TOWNS: tuple[tuple[str, float, float, tuple[int, ...], float], ...] = (
    ("Raffles Place", 1.2840, 103.8515, (1, 4), 0.5),
    ("Marina", 1.2790, 103.8480, (2, 3, 6), 0.3),
    ("Chinatown", 1.2836, 103.8440, (5,), 0.7),
    ("Tanjong Pagar", 1.2764, 103.8458, (7, 8), 0.8),
    ("Telok Blangah", 1.2720, 103.8100, (9, 10), 1.0),
    ("Pasir Panjang", 1.2840, 103.7880, (11,), 0.6),
    ("Clementi", 1.3162, 103.7649, (12, 13), 2.5),
    ("Queenstown", 1.2942, 103.8061, (14,), 2.0),
    ("Bukit Merah", 1.2819, 103.8239, (15, 16), 3.0),
    ("Bugis", 1.3000, 103.8555, (18, 19), 0.8),
    ("Little India", 1.3066, 103.8518, (20, 21), 0.9),
    ("Orchard", 1.3048, 103.8318, (22, 23), 0.6),
    ("Tanglin", 1.3070, 103.8180, (24, 25, 26), 0.6),
    ("Holland", 1.3112, 103.7958, (27,), 0.7),
    ("Bukit Timah", 1.3294, 103.8021, (28, 29), 1.0),
    ("Novena", 1.3204, 103.8438, (30,), 0.8),
    ("Toa Payoh", 1.3343, 103.8563, (31,), 3.0),
    ("Kallang", 1.3100, 103.8651, (32, 33), 2.0),
    ("MacPherson", 1.3265, 103.8855, (34, 35, 36, 37), 1.5),
    ("Geylang", 1.3201, 103.8918, (38, 39), 2.0),
    ("Eunos", 1.3196, 103.9030, (40, 41), 1.2),
    ("Katong", 1.3050, 103.9050, (42, 43), 1.2),
    ("Marine Parade", 1.3040, 103.9071, (44, 45), 1.2),
    ("Bedok", 1.3236, 103.9273, (46, 47, 48), 5.0),
    ("Changi", 1.3580, 103.9680, (49, 50), 0.5),
    ("Loyang", 1.3700, 103.9650, (81,), 0.5),
    ("Pasir Ris", 1.3721, 103.9474, (51,), 3.0),
    ("Tampines", 1.3496, 103.9568, (52,), 5.5),
    ("Hougang", 1.3612, 103.8863, (53,), 4.5),
    ("Sengkang", 1.3868, 103.8914, (54,), 5.0),
    ("Serangoon", 1.3554, 103.8679, (55,), 2.5),
    ("Ang Mo Kio", 1.3691, 103.8454, (56,), 4.5),
    ("Bishan", 1.3526, 103.8352, (57,), 2.5),
    ("Upper Bukit Timah", 1.3420, 103.7760, (58, 59), 1.2),
    ("Jurong East", 1.3329, 103.7436, (60,), 2.5),
    ("Pioneer", 1.3376, 103.6972, (61, 62, 63), 0.5),
    ("Jurong West", 1.3404, 103.7090, (64,), 6.0),
    ("Bukit Batok", 1.3590, 103.7637, (65,), 3.5),
    ("Bukit Panjang", 1.3774, 103.7719, (66, 67), 3.5),
    ("Choa Chu Kang", 1.3840, 103.7470, (68,), 4.0),
    ("Kranji", 1.4250, 103.7620, (69, 70, 71, 72), 0.6),
    ("Woodlands", 1.4360, 103.7865, (73,), 6.0),
    ("Sembawang", 1.4491, 103.8185, (75,), 2.5),
    ("Yishun", 1.4304, 103.8354, (76,), 5.0),
    ("Upper Thomson", 1.3544, 103.8338, (77, 78), 1.0),
    ("Seletar", 1.4040, 103.8690, (79, 80), 1.0),
    ("Punggol", 1.3984, 103.9072, (82,), 4.5),
)

RACES = ("Chinese", "Malay", "Indian", "Others")
RACE_SHARES = (0.74, 0.13, 0.09, 0.04)

# Given names by race and sex; surnames (or father's names) by race. "Others" uses
# Eurasian names.
GIVEN_NAMES = {
    ("Chinese", "F"): (
        "Wei Ling",
        "Hui Min",
        "Mei Xin",
        "Xin Yi",
        "Jia Hui",
        "Li Ting",
        "Shu Fen",
        "Pei Shan",
        "Yu Ting",
        "Siew Lee",
    ),
    ("Chinese", "M"): (
        "Wei Jie",
        "Jun Hao",
        "Zhi Hao",
        "Kok Leong",
        "Boon Keng",
        "Jia Wei",
        "Cheng San",
        "Yong Sheng",
        "Kai Xiang",
        "Chee Meng",
    ),
    ("Malay", "F"): (
        "Nur Aisyah",
        "Siti Nurhaliza",
        "Nurul Huda",
        "Farah",
        "Aishah",
        "Zainab",
        "Hidayah",
        "Amirah",
    ),
    ("Malay", "M"): (
        "Muhammad Hafiz",
        "Ahmad Faizal",
        "Mohamed Irfan",
        "Azlan",
        "Hakim",
        "Iskandar",
        "Syafiq",
        "Rizwan",
    ),
    ("Indian", "F"): (
        "Priya",
        "Kavitha",
        "Lakshmi",
        "Divya",
        "Anjali",
        "Meena",
        "Revathi",
        "Shalini",
    ),
    ("Indian", "M"): (
        "Rajesh",
        "Suresh",
        "Arjun",
        "Vikram",
        "Karthik",
        "Ganesh",
        "Ravi",
        "Prakash",
    ),
    ("Others", "F"): ("Sarah", "Michelle", "Rachel", "Claire", "Natalie", "Joanne"),
    ("Others", "M"): ("Daniel", "Marcus", "Adrian", "Shaun", "Gerald", "Nicholas"),
}
SURNAMES = {
    "Chinese": (
        "Tan",
        "Lim",
        "Lee",
        "Ng",
        "Ong",
        "Wong",
        "Goh",
        "Chua",
        "Chan",
        "Koh",
        "Teo",
        "Ang",
        "Yeo",
        "Tay",
        "Ho",
        "Low",
        "Toh",
        "Sim",
        "Chong",
        "Phua",
    ),
    "Malay": (
        "Ahmad",
        "Ismail",
        "Hassan",
        "Rahman",
        "Osman",
        "Yusof",
        "Ibrahim",
        "Salleh",
        "Abdullah",
        "Hamid",
    ),
    "Indian": (
        "Kumar",
        "Raj",
        "Nair",
        "Pillai",
        "Menon",
        "Singh",
        "Krishnan",
        "Subramaniam",
        "Ramasamy",
        "Naidu",
    ),
    "Others": (
        "de Souza",
        "Pereira",
        "Rodrigues",
        "Fernandez",
        "D'Silva",
        "Oliveiro",
        "Westerhout",
        "Scully",
        "de Cruz",
        "Conceicao",
    ),
}

OCCUPATIONS = (
    ("Administrative assistant", 8),
    ("Accountant", 5),
    ("Cleaner", 4),
    ("Civil servant", 6),
    ("Driver", 5),
    ("Engineer", 7),
    ("Financial analyst", 4),
    ("Hawker", 3),
    ("IT professional", 7),
    ("Lawyer", 1.5),
    ("Manager", 8),
    ("Nurse", 4),
    ("Doctor", 1.5),
    ("Retiree", 9),
    ("Sales executive", 7),
    ("Security guard", 3),
    ("Student", 6),
    ("Teacher", 5),
    ("Technician", 5),
    ("Homemaker", 5),
)

# ICD-10-style categories, most frequent first (skewed: weights fall off like 1/rank).
DIAGNOSES = (
    "J06 Acute upper respiratory infection",
    "I10 Essential hypertension",
    "E11 Type 2 diabetes mellitus",
    "E78 Hyperlipidaemia",
    "M54 Back pain",
    "K21 Gastro-oesophageal reflux disease",
    "J45 Asthma",
    "A09 Gastroenteritis",
    "F32 Depressive episode",
    "N39 Urinary tract infection",
    "L20 Atopic dermatitis",
    "I25 Chronic ischaemic heart disease",
    "A90 Dengue fever",
    "C18 Malignant neoplasm of colon",
    "B20 HIV disease",
)
EMAIL_DOMAINS = ("example.com", "example.sg", "mail.example.net", "example.org")


def _pick(rng: np.random.Generator, options: tuple, n: int, weights=None) -> np.ndarray:
    p = None if weights is None else np.asarray(weights, float) / np.sum(weights)
    return np.asarray(options, dtype=object)[rng.choice(len(options), size=n, p=p)]


def _names(rng: np.random.Generator, race: np.ndarray, sex: np.ndarray) -> pd.Series:
    n = len(race)
    given = np.empty(n, dtype=object)
    surname = np.empty(n, dtype=object)
    for r in RACES:  # loops over categories, not rows
        in_race = race == r
        surname[in_race] = _pick(rng, SURNAMES[r], int(in_race.sum()))
        for s in ("F", "M"):
            cell = in_race & (sex == s)
            given[cell] = _pick(rng, GIVEN_NAMES[(r, s)], int(cell.sum()))
    given_s, surname_s = pd.Series(given, dtype="str"), pd.Series(surname, dtype="str")
    # Chinese names put the surname first ("Tan Wei Ling"); Malay names use bin/binti.
    western = given_s + " " + surname_s
    chinese = surname_s + " " + given_s
    malay = given_s + np.where(sex == "F", " binti ", " bin ") + surname_s
    indian = given_s + np.where(sex == "F", " d/o ", " s/o ") + surname_s
    out = western.where(race != "Chinese", chinese)
    out = out.where(race != "Malay", malay)
    return out.where(race != "Indian", indian)


def _dates_of_birth(rng: np.random.Generator, n: int) -> tuple[pd.Series, np.ndarray]:
    ages = np.arange(18, 91)
    # roughly flat to 60, then thinning out to about 15 % at 90 (resident population shape)
    weights = np.where(ages <= 60, 1.0, 1.0 - 0.85 * (ages - 60) / 30)
    age = rng.choice(ages, size=n, p=weights / weights.sum())
    reference = np.datetime64(REFERENCE_DATE, "D")
    year_start = (reference.astype("datetime64[Y]") - (age + 1)).astype("datetime64[D]")
    # days 1..364 after 1 January: the birthday falls after the reference date, so the
    # age on REFERENCE_DATE is exactly `age`
    dob = year_start + rng.integers(1, 365, size=n)
    return pd.Series(np.datetime_as_string(dob, unit="D"), dtype="str"), age


def make_people(rows: int = DEFAULT_ROWS, seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """The synthetic table (see the module doc and sample_data/README.md for columns)."""
    rows = require_int("rows", rows, minimum=1)
    rng = make_rng(seed)
    n = rows

    race = _pick(rng, RACES, n, RACE_SHARES)
    sex = _pick(rng, ("F", "M"), n, (0.51, 0.49))
    name = _names(rng, race, sex)
    dob, age = _dates_of_birth(rng, n)

    # NRIC prefix S for people born in the 1900s, T from 2000 (as issued in Singapore).
    born_2000s = dob.str[:4].astype(int).to_numpy() >= 2000
    nric = np.empty(n, dtype=object)
    nric[~born_2000s] = make_nrics(rng, int((~born_2000s).sum()), prefixes="S")
    nric[born_2000s] = make_nrics(rng, int(born_2000s.sum()), prefixes="T")

    town_weights = np.array([t[4] for t in TOWNS])
    town = rng.choice(len(TOWNS), size=n, p=town_weights / town_weights.sum())
    centre_lat = np.array([t[1] for t in TOWNS])[town]
    centre_lon = np.array([t[2] for t in TOWNS])[town]
    latitude = np.clip(centre_lat + rng.normal(0, SPREAD_DEGREES, n), *LAT_RANGE).round(6)
    longitude = np.clip(centre_lon + rng.normal(0, SPREAD_DEGREES, n), *LON_RANGE).round(6)
    sector_choice = rng.random(n)
    sectors = np.empty(n, dtype=np.int64)
    for i, (_, _, _, town_sectors, _) in enumerate(TOWNS):  # loop over towns, not rows
        here = town == i
        pick = (sector_choice[here] * len(town_sectors)).astype(int)
        sectors[here] = np.asarray(town_sectors)[pick]
    postal = pd.Series(sectors * 10_000 + rng.integers(0, 10_000, size=n)).astype(str)
    postal = postal.str.zfill(6).astype("str")

    occupation = _pick(rng, tuple(o for o, _ in OCCUPATIONS), n, [w for _, w in OCCUPATIONS])
    # nobody under 60 is a retiree, nobody over 30 a student: redraw from the working list
    working = tuple(o for o, _ in OCCUPATIONS if o not in ("Retiree", "Student"))
    working_w = [w for o, w in OCCUPATIONS if o not in ("Retiree", "Student")]
    fix = ((occupation == "Retiree") & (age < 60)) | ((occupation == "Student") & (age > 30))
    occupation[fix] = _pick(rng, working, int(fix.sum()), working_w)
    diagnosis = _pick(rng, DIAGNOSES, n, 1.0 / np.arange(1, len(DIAGNOSES) + 1))

    income = np.round(rng.lognormal(mean=np.log(4200), sigma=0.55, size=n) / 10) * 10
    low_income = np.isin(occupation, ("Retiree", "Student", "Homemaker"))
    income[low_income] = np.round(income[low_income] * 0.25 / 10) * 10
    income = income.astype(np.int64)

    handle = (
        name.str.lower()
        .str.replace(r"\b(bin|binti|s/o|d/o)\b", " ", regex=True)
        .str.replace(r"[^a-z ]", "", regex=True)
        .str.split()
        .str.join(".")
    )
    number = pd.Series(rng.integers(1, 100, size=n)).astype(str)
    email = handle + number + "@" + pd.Series(_pick(rng, EMAIL_DOMAINS, n), dtype="str")
    mobile_digits = _pick(rng, ("8", "9"), n)
    mobile = pd.Series(mobile_digits, dtype="str") + pd.Series(
        rng.integers(0, 10**7, size=n)
    ).astype(str).str.zfill(7)

    return pd.DataFrame(
        {
            "nric": pd.Series(nric, dtype="str"),
            "name": name,
            "date_of_birth": dob,
            "sex": pd.Series(sex, dtype="str"),
            "race": pd.Series(race, dtype="str"),
            "postal_code": postal,
            "latitude": latitude,
            "longitude": longitude,
            "occupation": pd.Series(occupation, dtype="str"),
            "diagnosis": pd.Series(diagnosis, dtype="str"),
            "income": income,
            "email": email.astype("str"),
            "mobile": mobile.astype("str"),
        }
    )


def to_csv_bytes(df: pd.DataFrame) -> bytes:
    """The CSV bytes written to disk: UTF-8, comma-separated, LF line ends, no index."""
    return df.to_csv(index=False, lineterminator="\n", float_format="%.6f").encode("utf-8")


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed (2024)")
    parser.add_argument("--rows", type=int, default=DEFAULT_ROWS, help="row count (10000)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output CSV path")
    args = parser.parse_args(argv)
    data = to_csv_bytes(make_people(args.rows, args.seed))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(f"wrote {args.rows} rows ({len(data):,} bytes) to {args.out}")
    return args.out


if __name__ == "__main__":
    main()
