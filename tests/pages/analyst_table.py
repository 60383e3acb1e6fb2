"""The analyst's table of issue 29: 50,000 rows full of personal data (names, NRICs,
phones, emails, addresses, dates, a free-text note), generated with a seeded generator,
column by column (no loop over rows)."""

from __future__ import annotations

import numpy as np
import pandas as pd

SURNAMES = np.array(["Tan", "Lim", "Lee", "Ng", "Ong", "Wong", "Goh", "Chua", "Koh", "Teo"])
GIVEN = np.array(
    ["Wei Ming", "Mei Ling", "Siti", "Ahmad", "Priya", "Rajesh", "Hui Min", "Jun Jie", "Farah"]
)
STREETS = np.array(["Bedok North Ave 3", "Yishun Ring Rd", "Jurong West St 41", "Tampines St 21"])
OCCUPATIONS = np.array(["Nurse", "Teacher", "Engineer", "Cleaner", "Driver", "Accountant"])
# The NRIC check letter (the published algorithm, written here independently of
# core.identifiers): weights 2 7 6 5 4 3 2 over the digits, +4 for T, 11 letters.
WEIGHTS = np.array([2, 7, 6, 5, 4, 3, 2])
ST_LETTERS = np.array(list("JZIHGFEDCBA"))


def nrics(rng: np.random.Generator, n: int) -> pd.Series:
    digits = rng.integers(0, 10, size=(n, 7))
    prefix = rng.choice(np.array(["S", "T"]), size=n)
    remainder = ((digits * WEIGHTS).sum(axis=1) + np.where(prefix == "T", 4, 0)) % 11
    body = pd.Series(digits.astype(str).tolist()).str.join("")
    return pd.Series(prefix) + body + pd.Series(ST_LETTERS[remainder])


def analyst_table(rows: int = 50_000, seed: int = 29) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    surname = pd.Series(rng.choice(SURNAMES, rows))
    given = pd.Series(rng.choice(GIVEN, rows))
    name = surname + " " + given
    phone = pd.Series(rng.integers(80_000_000, 99_999_999, rows).astype(str))
    block = pd.Series(rng.integers(1, 999, rows).astype(str))
    unit = (
        pd.Series(rng.integers(2, 20, rows).astype(str))
        + "-"
        + pd.Series(rng.integers(1, 150, rows).astype(str))
    )
    street = pd.Series(rng.choice(STREETS, rows))
    postal = pd.Series(rng.integers(100_000, 829_999, rows).astype(str))
    birth = pd.Timestamp("1940-01-01") + pd.to_timedelta(rng.integers(0, 365 * 65, rows), "D")
    visit = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 700, rows), "D")
    email = (
        surname.str.lower()
        + "."
        + given.str.lower().str.replace(" ", "", regex=False)
        + pd.Series(rng.integers(1, 999, rows).astype(str))
        + "@example.org"
    )
    note = (
        "Patient "
        + name
        + " called from "
        + phone
        + " about the visit; lives at Blk "
        + block
        + " "
        + street
        + " #"
        + unit
        + ", NRIC "
        + nrics(rng, rows)
        + "."
    )
    return pd.DataFrame(
        {
            "name": name,
            "nric": nrics(rng, rows),
            "phone": phone,
            "email": email,
            "address": "Blk " + block + " " + street + " #" + unit,
            "postal_code": postal,
            "date_of_birth": pd.Series(birth).dt.strftime("%Y-%m-%d"),
            "visit_date": pd.Series(visit).dt.strftime("%Y-%m-%d"),
            "sex": rng.choice(np.array(["F", "M"]), rows),
            "occupation": rng.choice(OCCUPATIONS, rows),
            "note": note,
        }
    )


def analyst_csv(rows: int = 50_000, seed: int = 29) -> bytes:
    return analyst_table(rows, seed).to_csv(index=False).encode()
