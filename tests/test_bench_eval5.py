"""The eval5 held-out set (bench/data/eval5/) is consistent, and its scorer counts right.

No detector runs here: the labels are checked against the hand-written notes, and the
scores of ``bench/bench_detect_eval5.py`` against numbers worked by hand below.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from bench.bench_detect_eval5 import DATA, safe_harbor_left, score_cells
from bench.eval_common import date_kept, score_notes
from bench.make_eval5 import KINDS, ORIGINS, parse_notes
from tests import bench_set_checks as checks

ROLES = {"direct", "indirect", "target", "other", "free_text"}


spans, notes = checks.spans_and_notes_fixtures(DATA)


def test_notes_csv_and_spans_csv_are_what_notes_txt_says(spans, notes):
    texts, marked = parse_notes((DATA / "notes.txt").read_text("utf-8"))
    checks.assert_csv_is_what_notes_txt_says(spans, notes, texts, marked)


def test_every_span_cuts_out_its_labelled_text(spans, notes):
    checks.assert_spans_sit_on_their_text(spans, notes, KINDS, ORIGINS)
    checks.assert_spans_do_not_overlap(spans)


def test_at_least_150_distinct_notes_and_every_kind_and_origin(spans, notes):
    checks.assert_distinct_notes_with_every_kind_and_origin(
        spans, notes, KINDS, ORIGINS, at_least=150
    )


def _nric_ok(value: str) -> bool:
    # ICA's rule: digits weighted 2 7 6 5 4 3 2, +4 for T/G, mod 11 into the letter table.
    # Worked by hand for the published example S1234567D: 2+14+18+20+20+18+14 = 106,
    # 106 mod 11 = 7, "JZIHGFEDCBA"[7] = "D".
    c = value.replace(" ", "").upper()
    total = sum(int(d) * w for d, w in zip(c[1:8], (2, 7, 6, 5, 4, 3, 2), strict=True))
    total += 4 if c[0] in "TG" else 0
    table = "JZIHGFEDCBA" if c[0] in "ST" else "XWUTRQPNMLK"
    return table[total % 11] == c[8]


def test_nric_rule_on_the_published_example():
    assert _nric_ok("S1234567D")
    assert not _nric_ok("S1234567E")


def test_every_nric_in_the_notes_and_table_has_its_check_letter(spans):
    shaped = re.compile(r"[STFG]\d{7}[A-Z]", re.IGNORECASE)
    written = spans.loc[spans["kind"] == "id", "text"].str.replace(" ", "")
    table = pd.read_csv(DATA / "table.csv", dtype=str, keep_default_na=False)
    in_table = table["k"].str.replace(" ", "")
    values = [v for v in [*written, *in_table] if shaped.fullmatch(v)]
    assert len(values) > 500
    assert all(_nric_ok(v) for v in values)


def test_table_shape_and_column_truth():
    table = pd.read_csv(DATA / "table.csv", dtype=str, keep_default_na=False)
    columns = pd.read_csv(DATA / "columns.csv", keep_default_na=False)
    people = pd.read_csv(DATA / "people.csv", keep_default_na=False)
    assert table.shape == (2000, 22) and len(people) == 2000
    assert columns["column"].tolist() == table.columns.tolist()
    assert set(columns["role"]) == ROLES
    assert (table["s"] == "Other").sum() > 10
    assert (people["age"] >= 90).sum() > 20
    assert table["b"].nunique() == 40  # the batch numbers: 40 values over 2,000 rows


def test_score_notes_by_hand():
    # Note 0 "Pt Tan Ah Kow tel 9123 4567" : name [3, 13), phone [18, 27).
    # Note 1 "Mother is Siti, S1234567D"   : name [10, 14) (Malay), id [16, 25).
    spans = pd.DataFrame(
        [
            (0, 3, 13, "name", "Chinese", "Tan Ah Kow"),
            (0, 18, 27, "phone", "", "9123 4567"),
            (1, 10, 14, "name", "Malay", "Siti"),
            (1, 16, 25, "id", "", "S1234567D"),
        ],
        columns=["row", "start", "end", "kind", "origin", "text"],
    )
    # Detections: the Chinese name (right); the phone taken for a DATE (on PII, wrong
    # kind); "Mother" as a NAME on no span (false alarm); the NRIC as an ID (right).
    found = pd.DataFrame(
        [(0, 3, 13, "NAME"), (0, 18, 27, "DATE"), (1, 0, 6, "NAME"), (1, 16, 25, "ID")],
        columns=["row", "start", "end", "label"],
    )
    redacted = pd.Series(["Pt [NAME] tel [DATE]", "[NAME] is Siti, [ID]"])
    s = score_notes(spans, found, redacted)
    # Recall: name 1 of 2 = 0.5, phone 0 of 1, id 1 of 1; all 2 of 4 = 0.5.
    assert s["by_kind"].loc["name", "recall"] == 0.5
    assert s["by_kind"].loc["phone", "recall"] == 0
    assert s["by_kind"].loc["id", "recall"] == 1
    assert s["by_kind"].loc["all", "recall"] == 0.5
    # Per origin: Chinese 1 of 1, Malay 0 of 1.
    assert s["by_origin"].loc["Chinese", "recall"] == 1
    assert s["by_origin"].loc["Malay", "recall"] == 0
    # Precision: 3 of 4 detections on a span; 2 of 4 on a span of their kind; NAME 1 of 2.
    assert s["precision"] == 0.75
    assert s["precision_kind"] == 0.5
    assert s["precision_by_label"]["NAME"] == 0.5
    assert s["false_alarms"] == 1
    # Left verbatim: only "Siti" is still in its redacted note.
    assert s["left"] == 1 and s["left_by_kind"] == {"name": 1}
    assert s["left_by_origin"] == {"Malay": 1}


def test_score_cells_by_hand():
    table = pd.DataFrame(
        {
            "c1": ["Tan Ah Kow", "Siti Aminah", "John Smith", None],
            "x": ["Ah Kow", "Siti", "John", "Ravi"],
            "c6": ["a", "b", "c", "d"],
            "k": ["S1234567D", "", "x", "y"],
            "tel": ["1", "2", "3", "4"],
            "info": ["a@b.c", "d@e.f", "g@h.i", "j@k.l"],
        }
    )
    found = pd.DataFrame(
        [("c1", 0, "NAME"), ("c1", 2, "NAME"), ("c1", 1, "DATE"), ("k", 0, "ID")],
        columns=["column", "row", "label"],
    )
    origins = pd.Series(["Chinese", "Malay", "Western", "Indian"])
    s = score_cells(table, found, {"c1": origins}).set_index(["column", "origin"])["found"]
    # c1: 3 filled cells, NAME in rows 0 and 2 (a DATE in row 1 does not count): 2/3.
    assert s[("c1", "all")] == pytest.approx(2 / 3)
    assert s[("c1", "Chinese")] == 1 and s[("c1", "Malay")] == 0
    # k: 3 filled cells (the empty one is left out), an ID in one: 1/3.
    assert s[("k", "all")] == pytest.approx(1 / 3)
    assert s[("tel", "all")] == 0


def test_date_kept():
    assert date_kept("14/03/1938") and date_kept("Mar 14")
    assert not date_kept("1938") and not date_kept("1935 or earlier") and not date_kept("")


def test_safe_harbor_left_by_hand():
    columns = ["c1", "x", "k", "tel", "info", "c6", "col_7", "c8", "d", "n", "v", "z"]
    table = pd.DataFrame(
        [
            [
                "Tan Ah Kow",
                "Ah Kow",
                "S1234567D",
                "91234567",
                "t@a.k",
                "lim",
                "Blk 5 Lor 4",
                "310005",
                "01/02/1930",
                95,
                "03/04/2025",
                "Pt Tan seen",
            ],
            [
                "Siti",
                "Siti",
                "T0000000A",
                "81234567",
                "s@i.t",
                "ali",
                "9 Meyer Rd",
                "437875",
                "05/06/1980",
                45,
                "07/08/2025",
                "",
            ],
        ],
        columns=columns,
    )
    people = pd.DataFrame(
        {
            "age": [95, 45],
            "dob": ["1930-02-01", "1980-06-05"],
            "street": ["Blk 5 Lor 4", "9 Meyer Rd"],
            "postal": ["310005", "437875"],
        }
    )
    notes = pd.DataFrame({"note": [0], "row": [0], "text": ["Pt Tan seen"]})
    spans = pd.DataFrame(
        [(0, 3, 6, "name", "Chinese", "Tan")],
        columns=["row", "start", "end", "kind", "origin", "text"],
    )
    # Output: row 0 keeps its phone, the age 95 and the birth year 1930 (a 90+ person);
    # row 1 keeps its street line in lower case and its visit date; the note stays whole.
    out = pd.DataFrame(
        [
            [
                "[NAME]",
                None,
                None,
                "91234567",
                None,
                None,
                "",
                "",
                "1930",
                95,
                "2025",
                "Pt Tan seen",
            ],
            [
                "[NAME]",
                None,
                None,
                None,
                None,
                None,
                "9 meyer rd",
                "",
                "1980",
                45,
                "07/08/2025",
                "",
            ],
        ],
        columns=columns,
    )
    r = safe_harbor_left(table, out, people, spans, notes)
    # tel 1 + n (95) 1 + birth year (90+) 1 + street 1 + visit date 1 + note span 1 = 6.
    assert r["left_by_column"] == {
        "tel": 1,
        "col_7": 1,
        "v": 1,
        "n": 1,
        "d (birth year, 90+)": 1,
        "z (spans)": 1,
    }
    assert r["values_left"] == 6
    assert r["rows_affected"] == 2
    assert r["aged_90_plus"] == 1 and r["aged_90_plus_exact"] == 1
    assert r["per_1000_cells"] == pytest.approx(1000 * 6 / 24)
