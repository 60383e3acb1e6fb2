"""Step 1 reads what a column holds whatever its header says (issue 26).

Every table here is written in the test (names, phones and addresses typed by hand for
Singapore, the US, the UK and India), never made by scripts/make_pii_data.py, so the
detectors are not checked on the generator they were developed with.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.schema import Role, Suggestion, suggest_roles

RNG_SEED = 26


def by_column(df: pd.DataFrame) -> dict:
    return {s.column: s for s in suggest_roles(df)}


def nric(prefix: str, digits: str) -> str:
    """An NRIC/FIN with its check letter, computed here from ICA's published rule
    (weights 2 7 6 5 4 3 2, +4 for T and G, remainder of 11 into a letter table)."""
    total = sum(int(d) * w for d, w in zip(digits, (2, 7, 6, 5, 4, 3, 2), strict=True))
    total += 4 if prefix in "TG" else 0
    letters = "JZIHGFEDCBA" if prefix in "ST" else "XWUTRQPNMLK"
    return f"{prefix}{digits}{letters[total % 11]}"


FIRST_NAMES = [
    "Wei Ling",
    "Priya",
    "John",
    "Siti",
    "Arjun",
    "Mei Hua",
    "Ahmad",
    "Emily",
    "Rahul",
    "Kavitha",
    "Oliver",
    "Nurul",
    "Harpreet",
    "Jun Jie",
    "Fiona",
    "Thivya",
    "Aarav",
    "Charlotte",
    "Zhi Hao",
    "Farhan",
]
FULL_NAMES = [
    "tan wei ling",
    "priya ramasamy",
    "john smith",
    "siti aminah binte yusof",
    "arjun mehta",
    "lim mei hua",
    "ahmad faisal bin osman",
    "emily clarke",
    "rahul verma",
    "kavitha d/o subramaniam",
    "oliver bennett",
    "nurul huda",
    "harpreet kaur",
    "goh jun jie",
    "fiona macleod",
    "ng zhi hao",
]
NATIONAL_PHONES = [
    "415.938.1277",
    "(617) 253-1000",
    "212-736-3100",
    "020 7946 0321",
    "0161 496 0754",
    "07911 123456",
    "098765 43210",
    "080 2345 6789",
    "6123 4567",
    "9123 4567",
    "8234 5678",
    "+91 98200 12345",
    "+44 20 7123 4567",
    "+1 303-555-2368",
    "01632 960123",
    "(312) 782-0123",
]
ADDRESSES = {
    "us": [
        "1600 Pennsylvania Ave NW, Washington, DC 20500",
        "350 Fifth Avenue, New York, NY 10118",
        "221 W 2nd St, Austin, TX 78701",
        "742 Evergreen Terrace, Springfield, IL 62704",
        "1 Infinite Loop, Cupertino, CA 95014",
        "4059 Mt Lee Dr, Hollywood, CA 90068",
    ],
    "uk": [
        "221B Baker Street, London NW1 6XE",
        "10 Downing Street, London SW1A 2AA",
        "Flat 3, 14 Princes Street, Edinburgh EH2 2AN",
        "52 Deansgate, Manchester M3 2EG",
        "7 Queen's Road, Brighton BN1 3XE",
        "16 Victoria Rd, Leeds LS6 1AS",
    ],
    "in": [
        "Flat 4B, 22 MG Road, Bengaluru 560001",
        "12, 3rd Cross, Indiranagar, Bengaluru 560038",
        "House No. 45, Sector 15, Noida 201301",
        "B-12, Lajpat Nagar, New Delhi 110024",
        "9 Anna Salai, Chennai 600002",
        "Plot 7, Banjara Hills Road No. 3, Hyderabad 500034",
    ],
    "sg": [
        "blk 123 jurong west st 41 #05-12 singapore 640123",
        "10 anson road #22-01 singapore 079903",
        "blk 456 ang mo kio ave 10 #03-45 s(560456)",
        "21 lorong 8 toa payoh #07-11 singapore 319264",
        "5 jalan bukit merah singapore 150005",
        "blk 88 tampines st 81 #11-203 singapore 520088",
    ],
}


def test_direct_identifiers_are_found_under_headers_that_say_nothing():
    rng = np.random.default_rng(RNG_SEED)
    n = 60

    def pick(values: list[str]) -> list[str]:
        return list(rng.choice(values, n))

    spaced_nrics = [
        " ".join([(r := nric(p, f"{int(d):07d}"))[0], r[1:8], r[8]])
        for p, d in zip(rng.choice(list("STFG"), n), rng.integers(0, 10**7, n), strict=True)
    ]
    df = pd.DataFrame(
        {
            "c1": pick(FIRST_NAMES),
            "c2": pick(FULL_NAMES),
            "c3": spaced_nrics,  # 'S 1234567 D'
            "tel": pick(NATIONAL_PHONES),
            "c5": [
                f"{a}-{g:02d}-{s:04d}"
                for a, g, s in zip(
                    rng.integers(100, 665, n),
                    rng.integers(1, 99, n),
                    rng.integers(1, 9999, n),
                    strict=True,
                )
            ],
            "c6": [f"user.{i}@mail{i % 3}.example.com" for i in range(n)],
            **{f"loc_{country}": pick(values) for country, values in ADDRESSES.items()},
        }
    )
    got = by_column(df)
    expected = {
        "c1": "name",
        "c2": "name",
        "c3": "nric",
        "tel": "phone",
        "c5": "ssn",
        "c6": "email",
    }
    for column, kind in expected.items():
        assert (got[column].kind, got[column].role) == (kind, Role.DIRECT), got[column]
        assert got[column].judged_by in {"content", "header and content"}
    for country in ADDRESSES:
        assert got[f"loc_{country}"].kind == "address", got[f"loc_{country}"]
        assert got[f"loc_{country}"].role is Role.INDIRECT
    assert "national formats" in got["tel"].reason


def test_first_names_alone_even_when_many_are_not_in_the_lists():
    # Half of these are rare enough to be missing from any short list of names; the other
    # half are common. A column of given names alone is still a column of names.
    rare = [
        "Oluwaseun",
        "Anahera",
        "Tavita",
        "Ngozi",
        "Saoirse",
        "Eitan",
        "Kalani",
        "Thandiwe",
        "Bartholomew",
        "Ioana",
    ]
    common = [
        "John",
        "Priya",
        "Mary",
        "David",
        "Ahmad",
        "Sarah",
        "Michael",
        "Fatimah",
        "James",
        "Emily",
    ]
    got = by_column(
        pd.DataFrame({"c1": (rare + common) * 3, "c2": [v.lower() for v in (rare + common) * 3]})
    )
    for column in ("c1", "c2"):
        assert (got[column].kind, got[column].role) == ("name", Role.DIRECT), got[column]


def test_phones_of_one_country_in_its_national_format():
    us = [
        "415.938.1277",
        "(617) 253-1000",
        "212-736-3100",
        "(312) 782-0123",
        "303.499.7111",
        "(206) 684-4000",
        "713-247-1000",
        "(415) 701-2311",
        "617.495.1000",
        "202-456-1111",
    ]
    uk = [
        "020 7946 0321",
        "0161 496 0754",
        "07911 123456",
        "0131 496 0123",
        "0113 496 0999",
        "07700 900321",
        "029 2018 0123",
        "0117 496 0456",
        "01632 960789",
        "07400 123456",
    ]
    india = [
        "098200 12345",
        "080 2345 6789",
        "022 2266 1234",
        "09845 012345",
        "011 2334 5678",
        "044 2852 1234",
        "098450 12345",
        "033 2248 1234",
        "040 2335 1234",
        "079 2658 1234",
    ]
    got = by_column(pd.DataFrame({"a": us * 3, "b": uk * 3, "c": india * 3}))
    for column in "abc":
        assert got[column].kind == "phone", got[column]


def test_names_with_titles_and_phones_written_in_other_ways():
    titled = [
        "Mr John Smith",
        "Dr. Priya Raman",
        "Mdm Tan Wei Ling",
        "Ms Emily Clarke",
        "Mr. Arjun Kumar",
        "Puan Siti Aminah",
    ]
    bracketed = ["(+44) 20 7946 0321", "(+65) 9123 4567", "(+91) 98200 12345", "(+1) 415 938 1277"]
    indian_mobiles = [
        "9820012345",
        "9845012345",
        "9876543210",
        "8123456789",
        "7012345678",
        "6301234567",
    ]
    got = by_column(pd.DataFrame({"c1": titled * 4, "c2": bracketed * 6, "c3": indian_mobiles * 4}))
    assert got["c1"].kind == "name"
    assert got["c2"].kind == "phone"
    # Bare 10-digit numbers that all fit India's mobile plan: phones, but account numbers
    # are written the same way, so Step 1 says it is unsure.
    assert got["c3"].kind == "phone" and got["c3"].uncertain
    assert "bare digits" in got["c3"].reason


def test_batch_numbers_are_not_phone_numbers():
    # 40 distinct 8-digit batch numbers over 2,000 rows. They start with 8812, so each is a
    # valid Singapore mobile number to libphonenumber, but they repeat ~50 times and share
    # their first 4 digits: codes, not people's numbers (issue 26's false alarm).
    rng = np.random.default_rng(RNG_SEED)
    batches = [f"8812{x:04d}" for x in rng.choice(10_000, 40, replace=False)]
    sequential = [str(91_000_000 + i) for i in range(40)]
    other = [f"{int(x)}" for x in rng.choice(np.arange(81_000_000, 98_000_000), 40)]
    df = pd.DataFrame(
        {
            "c1": rng.choice(batches, 2000),
            "c2": rng.choice(sequential, 2000),
            "c3": rng.choice(other, 2000),  # 40 valid mobile numbers, 50 rows each
        }
    )
    got = by_column(df)
    for column in df.columns:
        assert got[column].kind != "phone", got[column]
        assert got[column].role is not Role.DIRECT, got[column]
        assert got[column].uncertain and "check" in got[column].reason
    assert {got[column].kind for column in df.columns} == {"code"}
    assert "start with the same 4 digits" in got["c1"].reason
    assert "distinct values repeat over" in got["c3"].reason


def test_postal_codes_are_indirect_not_near_unique():
    rng = np.random.default_rng(RNG_SEED)
    us = [f"{x:05d}" for x in rng.integers(1000, 99950, 40)]
    uk = ["NW1 6XE", "SW1A 2AA", "EH2 2AN", "M3 2EG", "BN1 3XE", "LS6 1AS", "B33 8TH", "CR2 6XH"]
    sg = [f"{x:06d}" for x in rng.integers(10000, 829999, 40)]
    india = ["560001", "110024", "600002", "500034", "201301", "400001", "700016", "560 038"]
    mixed = us + uk + sg + india
    got = by_column(pd.DataFrame({"c1": mixed, "c2": us + us[:16] + us[:40]}))
    for column in ("c1", "c2"):
        assert (got[column].kind, got[column].role) == ("postal_code", Role.INDIRECT)
    assert "UK" in got["c1"].reason
    assert got["c2"].uncertain  # 5 digits alone could be another code


def test_quasi_identifiers_found_by_content():
    rng = np.random.default_rng(RNG_SEED)
    n = 400
    genders = rng.choice(["M", "F", "Male", "Female"], n - 6).tolist()
    genders += ["Other", "X", "Unknown", "Other", "X", "Unknown"]
    jobs = [
        "Nurse",
        "Teacher",
        "Civil Engineer",
        "Accountant",
        "Taxi Driver",
        "Cleaner",
        "Software Developer",
        "Retired",
        "Student",
        "Hawker",
        "Police Officer",
        "Chef",
    ]
    births = pd.Timestamp("1925-01-01") + pd.to_timedelta(rng.integers(0, 80 * 365, n), "D")
    df = pd.DataFrame(
        {
            "c1": rng.normal(42, 20, n).clip(0, 101).round().astype(int),  # ages
            "c2": rng.permutation(genders),
            "c3": rng.choice(jobs, n),
            "c4": births.strftime("%d/%m/%Y"),
            "c5": births.year,
        }
    )
    got = by_column(df)
    expected = {
        "c1": "age",
        "c2": "gender",
        "c3": "job_title",
        "c4": "date_of_birth",
        "c5": "year_of_birth",
    }
    for column, kind in expected.items():
        assert (got[column].kind, got[column].role) == (kind, Role.INDIRECT), got[column]
        assert got[column].judged_by == "content"
    assert not got["c1"].uncertain and got["c5"].uncertain


def test_job_titles_with_a_long_tail_and_countries():
    # Job titles as people write them: many appear once or twice (60% distinct), some are
    # missing from any list but end like a profession (-ologist, -ographer, -ician...).
    rng = np.random.default_rng(RNG_SEED)
    titles = [
        "Marine biologist",
        "Seismologist",
        "Cartographer, digital",
        "Dietician",
        "Podiatrist",
        "Sous chef",
        "Crane operator",
        "Warehouse supervisor",
        "Retail manager",
        "Primary school teacher",
        "Staff nurse",
        "Bus captain",
        "Art therapist",
        "Naturopath",
        "Locum pharmacist",
        "Tax consultant",
        "Junior lawyer",
        "Flight attendant",
        "Logistics coordinator",
        "Data analyst",
        "Sound engineer",
        "Dog groomer",
        "Hawker",
        "Homemaker",
        "Retiree",
    ]
    common = ["Cleaner", "Teacher", "Driver", "Clerk", "Nurse"]
    jobs = titles + [f"{rng.choice(['Senior', 'Assistant', 'Chief'])} {t}" for t in titles]
    column = jobs + list(rng.choice(common, 33))
    countries = rng.choice(
        ["Singapore", "India", "United-States", "United Kingdom", "USA", "Malaysia"], len(column)
    )
    got = by_column(pd.DataFrame({"c1": column, "c2": countries}))
    assert (got["c1"].kind, got["c1"].role) == ("job_title", Role.INDIRECT), got["c1"]
    assert (got["c2"].kind, got["c2"].role) == ("group", Role.INDIRECT), got["c2"]
    assert "names of countries" in got["c2"].reason


def test_towns_and_cities_are_places():
    rng = np.random.default_rng(RNG_SEED)
    towns = ["Tampines", "Bedok", "Jurong West", "Woodlands", "Yishun", "Toa Payoh"]
    cities = ["Chennai", "Leeds", "Kuala Lumpur", "Brisbane", "Hyderabad", "Manchester"]
    colours = ["Orange", "Amber", "Red", "Blue", "Green", "Black"]  # two are also towns
    got = by_column(
        pd.DataFrame(
            {
                "c1": rng.choice(towns, 90),
                "c2": rng.choice(cities, 90),
                "c3": rng.choice(colours, 90),
            }
        )
    )
    for column in ("c1", "c2"):
        assert (got[column].kind, got[column].role) == ("place", Role.INDIRECT), got[column]
    assert got["c3"].kind != "place"


def test_birthdays_without_a_year_photographs_and_coordinates():
    rng = np.random.default_rng(RNG_SEED)
    days = [
        f"{d} {m}"
        for d, m in zip(
            rng.integers(1, 29, 40),
            rng.choice(["Jan", "May", "August", "Dec", "Sept"], 40),
            strict=True,
        )
    ]
    photos = [f"/scans/patient_{i:04d}.JPG" for i in range(20)] + [
        f"https://cdn.example.org/p/{i}.png" for i in range(20)
    ]
    points = [f"{1.28 + i / 997:.5f}, {103.8 + i / 991:.5f}" for i in range(20)] + [
        f"({51.5 + i / 1000:.4f}, -0.{1278 + i})" for i in range(20)
    ]
    got = by_column(pd.DataFrame({"c1": days, "c2": photos, "c3": points}))
    assert (got["c1"].kind, got["c1"].role) == ("day_month", Role.INDIRECT)
    assert (got["c3"].kind, got["c3"].role) == ("gps", Role.INDIRECT)
    assert got["c2"].role is Role.DIRECT and got["c2"].kind in {"image", "url"}


def test_counts_codes_and_categories_are_not_quasi_identifiers():
    rng = np.random.default_rng(RNG_SEED)
    df = pd.DataFrame(
        {
            "visits": rng.integers(0, 6, 200),  # a small count, not an age
            "row": np.arange(1, 201),  # a row number 1..200, not ages
            "colour": rng.choice(["Red", "Blue", "Green", "Amber", "Rose", "Violet"], 200),
            "city": rng.choice(["London", "Chennai", "Mumbai", "Boston", "Singapore"], 200),
            "size": rng.choice(["S", "M", "L", "XL"], 200),
        }
    )
    df["heart_rate"] = rng.integers(50, 140, 200)  # beyond any age
    df["score"] = rng.integers(0, 101, 200)  # 0-100 alike: 5% at 95 or over
    got = by_column(df)
    assert got["visits"].kind != "age" and got["row"].kind != "age"
    assert got["heart_rate"].kind != "age"
    assert got["score"].kind != "age" or got["score"].uncertain
    for column in ("colour", "city", "size"):
        assert got[column].kind not in {"name", "gender", "job_title"}, got[column]


def test_unclear_columns_say_so_and_the_old_api_still_works():
    rng = np.random.default_rng(RNG_SEED)
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    pool = [" ".join(rng.choice(words, 3)) + f" {i}" for i in range(70)]
    text = [pool[i % 70] for i in range(100)]  # 70% distinct: neither category nor unique
    got = by_column(pd.DataFrame({"c1": text, "c2": rng.choice(["a", "b"], 100)}))
    assert got["c1"].kind == "text" and got["c1"].uncertain
    assert not got["c2"].uncertain and got["c2"].judged_by == ""
    old = Suggestion("x", Role.OTHER, "category", "why", "keep")  # positional, as before
    assert old.uncertain is False and old.judged_by == ""


def test_national_identity_numbers_of_several_countries_in_one_column():
    rng = np.random.default_rng(RNG_SEED)
    nrics = [
        nric(p, f"{int(d):07d}")
        for p, d in zip("STFG" * 5, rng.integers(0, 10**7, 20), strict=True)
    ]
    ssns = [
        f"{a}-{g:02d}-{s:04d}"
        for a, g, s in zip(
            rng.integers(100, 665, 20),
            rng.integers(1, 99, 20),
            rng.integers(1, 9999, 20),
            strict=True,
        )
    ]
    ninos = [
        f"{p} {a:02d} {b:02d} {c:02d} {s}"
        for p, a, b, c, s in zip(
            rng.choice(["AB", "JG", "PR", "CE"], 20),
            *rng.integers(0, 100, (3, 20)),
            rng.choice(list("ABCD"), 20),
            strict=True,
        )
    ]
    (s,) = suggest_roles(pd.DataFrame({"c1": rng.permutation(nrics + ssns + ninos)}))
    assert (s.kind, s.role) == ("national_id", Role.DIRECT)
    assert "US SSN" in s.reason and "UK NINO" in s.reason


def test_dates_of_birth_with_two_digit_years():
    # dd/mm/yy under a header that says nothing: pandas reads '42' as 2042 (a future date,
    # so not a birth); read in the past, 1931..2005 span a lifetime like dates of birth.
    # The admissions, 2019..2025, stay dates of events.
    births = ["02/01/42", "15/08/31", "01/01/05", "02/01/35", "23/11/88", "07/07/60"] * 5
    visits = ["02/01/24", "15/08/23", "01/01/25", "02/01/19", "23/11/20", "07/07/21"] * 5
    got = by_column(pd.DataFrame({"c1": births, "c2": visits}))
    assert (got["c1"].kind, got["c1"].role) == ("date_of_birth", Role.INDIRECT)
    assert "from 1931 to 2005" in got["c1"].reason
    assert got["c2"].kind == "date"
