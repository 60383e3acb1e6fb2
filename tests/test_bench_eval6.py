"""The eval6 held-out set (bench/data/eval6/) is consistent, and its scorer counts right.

No detector runs here: the labels are checked against the hand-written notes, the
identifiers against published examples worked by hand and python-stdnum, and the scores
of ``bench/bench_detect_eval6.py`` against numbers worked by hand below.
"""

from __future__ import annotations

import random

import pandas as pd
import pytest

from bench import eval6_formats as fmt
from bench.bench_detect_eval6 import DATA, Eval6, safe_harbor_left, score_cells, score_notes
from bench.make_eval6 import (
    DIRECT_KINDS,
    KINDS,
    ORIGINS,
    check_identifiers,
    check_note_values,
    parse_notes,
)
from tests import bench_set_checks as checks

ROLES = {"direct", "indirect", "target", "other", "free_text"}


spans, notes = checks.spans_and_notes_fixtures(DATA)


def test_notes_csv_and_spans_csv_are_what_notes_txt_says(spans, notes):
    texts, marked = parse_notes((DATA / "notes.txt").read_text("utf-8"))
    checks.assert_csv_is_what_notes_txt_says(spans, notes, texts, marked)


def test_every_span_cuts_out_its_labelled_text(spans, notes):
    checks.assert_spans_sit_on_their_text(spans, notes, KINDS, ORIGINS, DIRECT_KINDS)
    checks.assert_spans_do_not_overlap(spans)


def test_at_least_120_distinct_notes_and_every_kind_and_origin(spans, notes):
    checks.assert_distinct_notes_with_every_kind_and_origin(
        spans, notes, KINDS, ORIGINS, at_least=120
    )


def test_note_phones_and_identifiers_pass_their_checks(spans):
    marked = [tuple(s) for s in spans.itertuples(index=False)]
    check_note_values(marked)  # raises on an invalid phone or a failed check digit
    with pytest.raises(AssertionError):
        check_note_values([(0, 0, 9, "id", "", True, "S1234567E")])  # D is the letter


def test_check_digits_on_published_examples():
    # Canada SIN 046 454 286 (Service Canada's example): Luhn over 04645428 from the right,
    # every other digit doubled (8->16->7, 4->8, 4->8, 4->8): 7+2+8+5+8+6+8+0 = 44, so 6.
    assert fmt.luhn_check("04645428") == 6
    # South African ID 8001015009087: doubled from the right 8->7, 9->9, 0, 1->2, 1->2, 0
    # (20) plus the others 0+0+5+0+0+8 (13) = 33, so 7.
    assert fmt.luhn_check("800101500908") == 7
    from stdnum.au import tfn
    from stdnum.ca import sin
    from stdnum.ie import pps
    from stdnum.my import nric as mykad
    from stdnum.za import idnr

    rng = random.Random(7)
    for _ in range(200):
        assert tfn.is_valid(fmt.tfn(rng).replace(" ", ""))
        assert sin.is_valid(fmt.sin(rng).replace(" ", "").replace("-", ""))
        assert pps.is_valid(fmt.pps(rng))
        assert idnr.is_valid(fmt.za_id(rng, "850312", rng.random() < 0.5))
        assert mykad.is_valid(fmt.mykad(rng, "850312", True).replace("-", ""))
        # Medicare 2123 45670 1 (worked: 2+3+14+27+4+15+42+63 = 170, mod 10 = 0 = digit 9)
        digits = fmt.medicare(rng).replace(" ", "")
        weights = (1, 3, 7, 9, 1, 3, 7, 9)
        assert sum(int(d) * w for d, w in zip(digits[:8], weights, strict=True)) % 10 == int(
            digits[8]
        )


def test_table_shape_and_column_truth():
    table = pd.read_csv(DATA / "table.csv", dtype=str, keep_default_na=False)
    columns = pd.read_csv(DATA / "columns.csv", keep_default_na=False)
    people = pd.read_csv(DATA / "people.csv", keep_default_na=False)
    assert table.shape == (1800, 20) and len(people) == 1800
    assert table.columns.tolist() == [f"c{i}" for i in range(1, 21)]
    assert sorted(columns["column"]) == sorted(table.columns)
    assert set(columns["role"]) == ROLES
    header = dict(zip(columns["key"], columns["column"], strict=True))
    assert (table[header["gender"]] == "X").sum() > 10
    assert (people["age"] >= 90).sum() > 20
    assert table[header["batch"]].nunique() == 30
    assert (table[header["notes"]] != "").sum() == 146
    check_identifiers()  # every ID and phone of the table passes its check


def test_score_notes_by_hand():
    # Note 0 "pt lim ah kow hp 9123 4567, age 93" : name [3, 13), phone [17, 26), age [32, 34)
    # Note 1 "see www.x.sg/u/7 re Jalan Ampang"   : url [4, 16), address [20, 32)
    spans = pd.DataFrame(
        [
            (0, 3, 13, "name", "Chinese", True, "lim ah kow"),
            (0, 17, 26, "phone", "", True, "9123 4567"),
            (1, 4, 16, "url", "", True, "www.x.sg/u/7"),
            (1, 20, 32, "address", "", False, "Jalan Ampang"),
        ],
        columns=["row", "start", "end", "kind", "origin", "direct", "text"],
    )
    ages = pd.DataFrame(
        [(0, 32, 34, "age", "", False, "93")],
        columns=["row", "start", "end", "kind", "origin", "direct", "text"],
    )
    # Detections: the name (right), the phone (right), the URL taken for an ID (on PII,
    # wrong kind), "see" as a NAME on no span (a false alarm).
    found = pd.DataFrame(
        [(0, 3, 13, "NAME"), (0, 17, 26, "PHONE"), (1, 4, 16, "ID"), (1, 0, 3, "NAME")],
        columns=["row", "start", "end", "label"],
    )
    redacted = pd.Series(
        ["pt [NAME] hp [PHONE], age 93", "[NAME] [ID] re Jalan Ampang"], index=[0, 1]
    )
    s = score_notes(spans, found, redacted, ages=ages)
    # Direct spans: name, phone, url; found: name and phone = 2 of 3.
    assert s["direct_spans"] == 3 and s["direct_recall"] == pytest.approx(2 / 3)
    assert s["by_kind"].loc["url", "recall"] == 0
    assert s["by_kind"].loc["all", "recall"] == 0.5  # 2 of 4
    assert s["by_origin"].loc["Chinese", "recall"] == 1
    # Precision: 3 of 4 detections on a span; 2 of 4 on a span of their kind.
    assert s["precision"] == 0.75 and s["precision_kind"] == 0.5
    assert s["false_alarms"] == 1
    # Left verbatim: "Jalan Ampang" (not direct); the URL was redacted (as an ID).
    assert s["left"] == 1 and s["left_by_kind"] == {"address": 1} and s["direct_left"] == 0
    assert s["ages"] == 1 and s["ages_left"] == 1
    # The age found (an AGE detection on the age span and nothing else) is no false alarm:
    # it is left out of precision, which stays 3 of 4.
    with_age = pd.concat([found, pd.DataFrame([(0, 32, 34, "AGE")], columns=found.columns)])
    aged = score_notes(spans, with_age, redacted.str.replace("93", "[AGE 90+]"), ages=ages)
    assert aged["false_alarms"] == 1 and aged["precision"] == 0.75 and aged["ages_left"] == 0


def test_score_cells_by_hand():
    table = pd.DataFrame(
        {
            "c1": ["Tan Ah Kow", "Siti Aminah", "John Smith", None],
            "c2": ["Ah Kow", "Siti", "John", "Ravi"],
            "c3": ["a", "b", "c", "d"],
            "c4": ["S1234567D", "", "x", "y"],
            "c5": ["1", "2", "3", "4"],
            "c6": ["a@b.c", "d@e.f", "g@h.i", "j@k.l"],
        }
    )
    header = {"name": "c1", "given": "c2", "kin": "c3", "id": "c4", "phone": "c5", "email": "c6"}
    found = pd.DataFrame(
        [("c1", 0, "NAME"), ("c1", 2, "NAME"), ("c1", 1, "DATE"), ("c4", 0, "ID")],
        columns=["column", "row", "label"],
    )
    origins = pd.Series(["Chinese", "Malay", "Western", "Indian"])
    s = score_cells(table, header, found, {"name": origins}).set_index(["column", "origin"])
    s = s["found"]
    # c1: 3 filled cells, NAME in rows 0 and 2 (a DATE in row 1 does not count): 2/3.
    assert s[("c1 (name)", "all")] == pytest.approx(2 / 3)
    assert s[("c1 (name)", "Chinese")] == 1 and s[("c1 (name)", "Malay")] == 0
    # c4: 3 filled cells (the empty one is left out), an ID in one: 1/3.
    assert s[("c4 (id)", "all")] == pytest.approx(1 / 3)
    assert s[("c5 (phone)", "all")] == 0


def test_safe_harbor_left_by_hand():
    keys = [
        *("name", "given", "kin", "id", "phone", "email", "address", "postal"),
        *("dob", "age", "visit", "notes"),
    ]
    header = {k: f"c{i + 1}" for i, k in enumerate(keys)}
    table = pd.DataFrame(
        [
            [
                *("Tan Ah Kow", "Ah Kow", "lim bee", "S1234567D", "91234567", "t@a.k"),
                *("Blk 5 Lor 4 #02-11", "310005", "01/02/1930", 95, "03/04/2025"),
                "Pt Tan seen, 95 yo",
            ],
            [
                *("Siti", "Siti", "ali", "800101-14-5002", "0123456789", "s@i.t"),
                *("No. 9, Jalan Meru, Klang", "41050", "05/06/1980", 45, "07/08/2025", ""),
            ],
        ],
        columns=[header[k] for k in keys],
    )
    people = pd.DataFrame(
        {
            "age": [95, 45],
            "dob": ["1930-02-01", "1980-06-05"],
            "street": ["Blk 5 Lor 4", "No. 9, Jalan Meru"],
            "postal": ["310005", "41050"],
        }
    )
    notes = pd.DataFrame({"note": [0], "row": [0], "text": ["Pt Tan seen, 95 yo"]})
    columns = ["row", "start", "end", "kind", "origin", "direct", "text"]
    spans = pd.DataFrame([(0, 3, 6, "name", "Chinese", True, "Tan")], columns=columns)
    ages = pd.DataFrame([(0, 13, 15, "age", "", False, "95")], columns=columns)
    data = Eval6(table, pd.DataFrame(), header, people, notes, spans, ages, pd.DataFrame())
    # Output: row 0 keeps its phone, the age 95 and the birth year 1930 (a 90+ person),
    # and its note whole (the name and the age); row 1 keeps its street line in lower case,
    # its whole postal code and its visit date; the kin column is gone.
    out = pd.DataFrame(
        [
            [
                *("[NAME]", None, None, None, "91234567", None, "", "310"),
                *("1930", 95, "2025", "Pt Tan seen, 95 yo"),
            ],
            [
                *("[NAME]", None, None, None, None, None, "no. 9, jalan meru", "41050"),
                *("1980", 45, "07/08/2025", ""),
            ],
        ],
        columns=[header[k] for k in keys],
    ).drop(columns=header["kin"])
    r = safe_harbor_left(data, out)
    # phone 1 + street 1 + postal 1 + visit 1 + age (95) 1 + birth year (90+) 1
    # + note: the name and the age 2 = 8.
    assert r["left_by_column"] == {
        "c5 (phone)": 1,
        "c7 (address)": 1,
        "c8 (postal)": 1,
        "c11 (visit)": 1,
        "c10 (age)": 1,
        "c9 (birth year, 90+)": 1,
        "c12 (note spans)": 2,
    }
    assert r["values_left"] == 8
    assert r["rows_affected"] == 2
    assert r["aged_90_plus"] == 1 and r["aged_90_plus_exact"] == 1
    assert r["per_1000_cells"] == pytest.approx(1000 * 8 / 24)


def test_a_notes_only_folder_loads_without_a_table(tmp_path):
    """eval7 has notes.csv and spans.csv alone: load() reads it as notes only, splitting
    its spans as for eval6 (2 scored, 1 age over 89, 1 neutral), and eval6 keeps its table."""
    from bench.bench_detect_eval6 import load

    pd.DataFrame({"note": [0], "row": [0], "text": ["pt Amy Lim 95F tel 9123 4567 ref A1"]}).to_csv(
        tmp_path / "notes.csv", index=False
    )
    pd.DataFrame(
        {
            "note": [0, 0, 0, 0],
            "start": [3, 11, 18, 32],
            "end": [10, 13, 27, 34],
            "kind": ["name", "age", "phone", "ref"],
            "origin": ["Chinese", "", "", ""],
            "direct": [True, False, True, False],
            "text": ["Amy Lim", "95", "9123 4567", "A1"],
        }
    ).to_csv(tmp_path / "spans.csv", index=False)
    data = load(tmp_path)
    assert data.table is None and data.people is None and data.header is None
    assert data.spans["kind"].tolist() == ["name", "phone"]
    assert data.spans["direct"].tolist() == [True, True]
    assert data.ages["text"].tolist() == ["95"]
    assert data.neutral["text"].tolist() == ["A1"]
    assert load(DATA).table is not None


def test_show_prints_misses_ages_left_and_false_alarms_of_the_kinds_asked(capsys):
    """``--show`` (print_misses) lists, in context, the spans missed, the ages over 89 left
    and the detections on no span or on a span of another kind, for the kinds asked."""
    from bench.bench_detect_eval6 import print_misses

    texts = ["pt lim ah kow hp 9123 4567, age 93", "see www.x.sg/u/7 re Jalan Ampang"]
    cols = ["row", "start", "end", "kind", "origin", "direct", "text"]
    spans = pd.DataFrame(
        [
            (0, 3, 13, "name", "Chinese", True, "lim ah kow"),
            (1, 4, 16, "url", "", True, "www.x.sg/u/7"),
            (1, 20, 32, "address", "", False, "Jalan Ampang"),
        ],
        columns=cols,
    )
    ages = pd.DataFrame([(0, 32, 34, "age", "", False, "93")], columns=cols)
    found = pd.DataFrame(
        [(0, 3, 13, "NAME"), (1, 4, 16, "ID"), (1, 0, 3, "NAME")],
        columns=["row", "start", "end", "label"],
    )
    redacted = pd.Series(["pt [NAME] hp 9123 4567, age 93", "[NAME] [ID] re Jalan Ampang"])
    ours = score_notes(spans, found, redacted, ages=ages)
    data = Eval6(None, None, None, None, pd.DataFrame({"text": texts}), spans, ages, ages[:0])
    print_misses(ours, data, redacted, ["address", "age", "ID"])
    out = capsys.readouterr().out
    assert "- address note 1: ...see www.x.sg/u/7 re [[Jalan Ampang]]..." in out
    assert "url note" not in out  # the URL (taken for an ID) was not asked for as a miss
    assert "## Ages over 89 left (1)" in out and "[[93]]" in out
    assert "## Detections on no labelled span (0)" in out  # "see" is a NAME: not asked
    assert "- ID note 1: ...see [[www.x.sg/u/7]] re Jalan Ampang..." in out
    print_misses(ours, data, redacted, ["all"])
    out = capsys.readouterr().out
    assert "- url note 1 (touched by another label)" in out
    assert "- NAME note 1: ...[[see]] www.x.sg/u/7 re Jalan Ampang..." in out


def test_ages_left_are_counted_not_found_as_any_equal_number():
    """An age is left when its number is still there as many times as before: "90" in
    "BP 90/60" (no age) does not make a replaced age "90" count as left."""
    from bench.bench_detect_eval6 import ages_still_there
    from bench.independent_eval import left_verbatim

    cols = ["row", "start", "end", "kind", "origin", "direct", "text"]
    # note 0: "Mr Lim 90, BP 90/60"  - the age at [7, 9); the BP holds another 90
    # note 1: "aged 92 or 93, son 93" - ages 92 [5, 7) and 93 [11, 13); "son 93" is no age
    # note 2: "91F fall"               - the age glued to its sex, [0, 2)
    texts = pd.Series(["Mr Lim 90, BP 90/60", "aged 92 or 93, son 93", "91F fall"])
    ages = pd.DataFrame(
        [
            (0, 7, 9, "age", "", False, "90"),
            (1, 5, 7, "age", "", False, "92"),
            (1, 11, 13, "age", "", False, "93"),
            (2, 0, 2, "age", "", False, "91"),
        ],
        columns=cols,
    )
    # the 90 replaced (one 90 left, in the BP: 2 before, 1 after -> 1 replaced, 0 left);
    # 92 replaced; 93 not (2 before, 2 after -> 0 replaced, the one age 93 left); 91
    # replaced, though glued to its sex; the label's own "90" is not counted
    redacted = pd.Series(
        ["Mr Lim [AGE 90+], BP 90/60", "aged [AGE 90+] or 93, son 93", "[AGE 90+]F fall"]
    )
    assert ages_still_there(ages, texts, redacted).tolist() == [False, False, True, False]
    # by substring, the 90 would have counted as left (the BP's 90)
    assert left_verbatim(ages, redacted).tolist() == [True, False, True, False]
