"""The machinery of the third evaluation set of issue 26 (bench/bench_detect_eval3.py), not
the detectors' scores: the markup of the hand-written notes, that the vendored labels sit
exactly on their text and the people file agrees with the table, and the Step 1 and Safe
Harbor counting, on cases computed by hand. presidio is bench-only: never run here.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import bench_detect_eval3 as bench  # noqa: E402
from bench.eval_common import date_kept, step1_summary  # noqa: E402
from bench.make_eval3 import DATA, REFERENCE_DATE, ROWS, parse_notes  # noqa: E402


# -- markup of the notes --------------------------------------------------------------
def test_parse_notes_by_hand():
    lines = [
        "# a comment",
        "",
        "Call {{name|Tan Ah Kow}} on {{phone|9123 4567}}.",
        "No one here.",
        "{{date|5 Mar}}: seen",
    ]
    notes, spans = parse_notes(lines)
    assert notes == ["Call Tan Ah Kow on 9123 4567.", "No one here.", "5 Mar: seen"]
    # "Call " is 5 characters; "Tan Ah Kow" 10 -> 5..15; " on " -> phone at 19, 9 long
    assert spans == [
        (0, 5, 15, "name", "Tan Ah Kow"),
        (0, 19, 28, "phone", "9123 4567"),
        (2, 0, 5, "date", "5 Mar"),
    ]


def test_parse_notes_refuses_broken_markup():
    with pytest.raises(ValueError, match="note 1"):
        parse_notes(["Call {{name|Tan on 9123 4567."])


# -- the vendored files agree with each other ----------------------------------------
def _vendored():
    table = pd.read_csv(DATA / "table.csv", dtype=str, keep_default_na=False)
    spans = pd.read_csv(DATA / "spans.csv", dtype={"text": str}, keep_default_na=False)
    people = pd.read_csv(DATA / "people.csv", dtype=str, keep_default_na=False)
    return table, spans, people


def test_labels_sit_on_their_text_and_columns_have_a_truth():
    table, spans, people = _vendored()
    assert len(table) == len(people) == ROWS
    assert list(table.columns) == list(bench.COLUMN_TRUTH)
    notes = table[bench.NOTES]
    for row, start, end, text in spans[["row", "start", "end", "text"]].itertuples(index=False):
        assert notes.iloc[row][start:end] == text
    # no markup left in a note, and every labelled note is in the table in file order
    assert not notes.str.contains("{{", regex=False).any()
    lines = (DATA / "notes.txt").read_text(encoding="utf-8").splitlines()
    written, _ = parse_notes(lines)
    assert notes.iloc[: len(written)].tolist() == written


def test_people_agree_with_the_table():
    table, _, people = _vendored()
    born = pd.to_datetime(people["dob"])
    ref = pd.Timestamp(REFERENCE_DATE)
    before_birthday = (born.dt.month > ref.month) | (
        (born.dt.month == ref.month) & (born.dt.day > ref.day)
    )
    ages = ref.year - born.dt.year - before_birthday.astype(int)
    assert ages.astype(str).tolist() == table["umur"].tolist()
    assert people["age"].astype(int).tolist() == ages.tolist()
    # a MyKad starts with the date of birth, YYMMDD
    mykad = people["country"] == "MY"
    heads = table.loc[mykad, "no_kp"].str.replace("-", "").str[:6]
    assert heads.tolist() == born[mykad].dt.strftime("%y%m%d").tolist()
    # the street line and the postal code of people.csv are in the address as written
    for street, postal, address in zip(
        people["street"], people["postal"], table["alamat"], strict=True
    ):
        assert street in address and postal in address


# -- Step 1 counting ------------------------------------------------------------------
def test_step1_summary_by_hand():
    roles = pd.DataFrame(
        [
            ("nama", "direct", "direct", "name"),
            ("c07", "direct", "other", "category"),  # a direct column missed
            ("dob", "indirect", "indirect", "date_of_birth"),
            ("poskod", "indirect", "other", "category"),  # an indirect column missed
            ("no_resit", "code", "direct", "phone"),  # a code called a direct phone
            ("ts", "code", "indirect", "date"),
            ("hba1c", "target", "other", "measurement"),
        ],
        columns=["column", "group", "suggested", "kind"],
    )
    s = step1_summary(roles)
    assert (s["direct found"], s["direct"], s["direct missed"]) == (1, 2, ["c07 (other, category)"])
    assert (s["indirect found"], s["indirect"], s["indirect missed"]) == (1, 2, ["poskod"])
    assert s["code called direct"] == ["no_resit (phone)"]
    assert s["code called phone"] == ["no_resit"]
    assert s["code called indirect"] == ["ts (date)"]


# -- Safe Harbor counting ------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("", False),
        ("2024", False),
        ("2024.0", False),
        ("1935 or earlier", False),
        ("90+", False),
        ("[DATE]", False),
        ("2024-03", True),
        ("05/03/2024", True),
        ("5 Mar", True),
    ],
)
def test_date_kept_by_hand(text, kept):
    assert date_kept(text) is kept


def test_year_kept_by_hand():
    born = dt.date(1931, 3, 5)
    assert bench.year_kept("1931", "05/03/31", born)
    assert bench.year_kept("05/03/31", "05/03/31", born)  # written as it was
    assert not bench.year_kept("2031", "05/03/31", born)  # the wrong century: not the year
    assert not bench.year_kept("", "05/03/31", born)


def test_safe_harbor_left_by_hand():
    columns = [
        "nama",
        "c07",
        "no_kp",
        "emp#",
        "tel_bimbit",
        "emel",
        "waris",
        "alamat",
        "poskod",
        "dob",
        "umur",
        "tarikh_lawatan",
        "inv_no",
        bench.NOTES,
    ]
    table = pd.DataFrame(
        [
            [
                "Ana Reyes",
                "Ana",
                "P1234567A",
                "E-00001",
                "0917 123 4567",
                "a@x.ph",
                "jo reyes",
                "12 Rizal Ave., Makati 1200",
                "1200",
                "05/03/31",
                94,
                "2024-03-05",
                "INV-1",
                "Call Jo on 0917 000 0000.",
            ],
            [
                "Lim Ah Kow",
                "Ah Kow",
                "520714-07-5011",
                "E-00002",
                "012-345 6789",
                "l@x.my",
                "tan mei",
                "No. 8, Jalan Gasing, 46000 Petaling Jaya",
                "46000",
                "14/07/1952",
                73,
                "5 Mar 2024",
                "INV-2",
                "Seen.",
            ],
        ],
        columns=columns,
    )
    people = pd.DataFrame(
        {
            "age": [94, 73],
            "dob": ["1931-03-05", "1952-07-14"],
            "street": ["12 Rizal Ave.", "No. 8, Jalan Gasing"],
            "postal": ["1200", "46000"],
        }
    )
    spans = pd.DataFrame(
        {
            "row": [0, 0],
            "start": [5, 12],
            "end": [7, 25],
            "kind": ["name", "phone"],
            "text": ["Jo", "0917 000 0000"],
        }
    )
    out = pd.DataFrame(
        {
            # row 1's name kept whole; row 0's removed
            "nama": [np.nan, "Lim Ah Kow"],
            # row 0: street cut, postal code kept (1 value); row 1: both kept (2 values)
            "alamat": ["Metro Manila", "No. 8, Jalan Gasing, Petaling Jaya"],
            "poskod": ["1200", "46000"],
            # row 0 (aged 94): its birth year kept (1); row 1: the year only (0)
            "dob": ["1931", "1952"],
            # row 0: 94 kept exact (1)
            "umur": ["94", "73"],
            # row 0: the year (0); row 1: day and month kept (1)
            "tarikh_lawatan": ["2024", "5 Mar 2024"],
            # the phone left in clear (1), the name redacted (0)
            bench.NOTES: ["Call [NAME] on 0917 000 0000.", "Seen."],
        }
    )
    r = bench.safe_harbor_left(table, out, spans, people)
    # 1 name + 1 street + 2 postal codes + 1 visit date + 1 exact age + 1 birth year + 1 span
    assert r["left_by_column"] == {
        "nama": 1,
        "alamat": 1,
        "poskod": 2,
        "umur": 1,
        "tarikh_lawatan": 1,
        "dob (birth year, 90+)": 1,
        f"{bench.NOTES} (spans)": 1,
    }
    assert r["values_left"] == 8
    assert r["per_1000_cells"] == pytest.approx(1000 * 8 / (2 * 14))
    assert (r["aged_90_plus"], r["aged_90_plus_exact"]) == (1, 1)  # age and year: one person
    assert r["birth_year_wrong"] == 0
    assert r["plain_removed"] == ["inv_no"]  # a code column Safe Harbor removed


def test_birth_year_in_the_wrong_century_is_counted():
    table = pd.DataFrame({"dob": ["02/01/42"], "umur": [83]})
    people = pd.DataFrame({"age": [83], "dob": ["1942-01-02"], "street": ["x"], "postal": ["y"]})
    for column in (
        "nama",
        "c07",
        "no_kp",
        "emp#",
        "tel_bimbit",
        "emel",
        "waris",
        "alamat",
        "poskod",
        "tarikh_lawatan",
    ):
        table[column] = ""
    out = pd.DataFrame({"dob": ["2042"], "umur": [83]})
    r = bench.safe_harbor_left(table, out, pd.DataFrame(), people)
    assert r["birth_year_wrong"] == 1
    assert r["values_left"] == 0  # a wrong year reveals nothing: not a personal value left


# -- end to end, project only ---------------------------------------------------------
def test_runs_end_to_end_without_presidio(capsys):
    bench.main(["--no-presidio"])
    out = capsys.readouterr().out
    for heading in (
        "## Step 1",
        "## Free text",
        "## Names in the name column",
        "## Safe Harbor preset (7,500 cells)",
    ):
        assert heading in out
