"""The machinery of the independent detection benchmark (issue 26), not the detectors' scores.

Checks by hand-computed cases that spans are scored as bench/independent_eval.py says, that
the vendored labels sit exactly on their text, that the dev and test parts share no word of
the hand-written lists, and that the benchmark runs end to end on a small slice with the
project's detectors only (presidio and Faker are bench-only: never imported here).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import bench_detect_independent as bench  # noqa: E402
from bench import independent_eval as ev  # noqa: E402
from bench import independent_sources as src  # noqa: E402
from bench.check_digits import nric_check, verhoeff_check  # noqa: E402
from bench.make_independent_pii import split_of  # noqa: E402


def _frame(rows, columns):
    return pd.DataFrame(rows, columns=columns)


# -- span scoring on hand-computed cases ------------------------------------------------
def test_match_by_hand():
    # note 0: "Call Tan Wei Ming on 9123 4567" -> name 5..17, phone 21..30
    # note 1: "Mother is Siti, DOB 1 May" -> name 10..14, date 20..25
    truth = _frame(
        [(0, 5, 17, "name"), (0, 21, 30, "phone"), (1, 10, 14, "name"), (1, 20, 25, "date")],
        ["row", "start", "end", "kind"],
    )
    found = _frame(
        [
            (0, 9, 17, "NAME"),  # overlaps the name by its last 8 characters: found
            (0, 21, 30, "ID"),  # on the phone, but of another kind: touched, not found
            (1, 0, 6, "NAME"),  # "Mother": on no span
            (1, 14, 20, "DATE"),  # ends where the date starts, starts where the name ends
        ],
        ["row", "start", "end", "label"],
    )
    truth, found = ev.match(truth, found)
    assert truth["found"].tolist() == [True, False, False, False]
    assert truth["touched"].tolist() == [True, True, False, False]
    assert found["correct"].tolist() == [True, False, False, False]
    assert found["on_pii"].tolist() == [True, True, False, False]
    # precision: 2 of 4 detections on a PII span, 1 of 4 on a span of its kind
    assert ev.precision(found) == (0.5, 0.25)
    # per label: NAME 1 of 2 on a name, ID 0 of 1, DATE 0 of 1
    assert ev.precision_by_label(found).to_dict() == {"DATE": 0.0, "ID": 0.0, "NAME": 0.5}
    table = ev.recall_table(truth, "kind")
    assert table.loc["name", "recall"] == 0.5  # 1 of 2 names
    assert table.loc["phone", "recall"] == 0.0
    assert table.loc["all", "spans"] == 4 and table.loc["all", "found"] == 1


def test_spans_of_another_row_never_match():
    truth = _frame([(0, 0, 5, "name")], ["row", "start", "end", "kind"])
    found = _frame([(1, 0, 5, "NAME")], ["row", "start", "end", "label"])
    truth, found = ev.match(truth, found)
    assert not truth["found"].any() and not found["on_pii"].any()


def test_ssn_is_found_by_an_id_and_neutral_spans_are_left_out():
    truth = _frame([(0, 4, 13, "ssn")], ["row", "start", "end", "kind"])
    neutral = _frame([(0, 20, 28, "ref")], ["row", "start", "end", "kind"])
    found = _frame(
        [(0, 4, 13, "ID"), (0, 20, 28, "PHONE"), (0, 30, 35, "NAME")],
        ["row", "start", "end", "label"],
    )
    truth, found = ev.match(truth, found, neutral)
    assert truth["found"].tolist() == [True]
    # the PHONE on the neutral span is dropped; the NAME on nothing stays a false alarm
    assert found["label"].tolist() == ["ID", "NAME"]
    assert found["on_pii"].tolist() == [True, False]


def test_left_verbatim():
    truth = _frame(
        [(0, 0, 3, "name", "Ana"), (0, 8, 12, "phone", "1234"), (1, 0, 3, "name", "Bob")],
        ["row", "start", "end", "kind", "text"],
    )
    redacted = pd.Series({0: "[NAME] at 1234", 1: "Bo[NAME]"})
    assert ev.left_verbatim(truth, redacted).tolist() == [False, True, False]


# -- the vendored labels ----------------------------------------------------------------
@pytest.mark.parametrize("split", ev.SPLITS)
def test_labels_sit_on_their_text(split):
    # read with the csv module, not the loader: the loader is under test too
    with (ev.DATA / f"{split}_table.csv").open(encoding="utf-8", newline="") as handle:
        notes = [row["txt"] for row in csv.DictReader(handle)]
    part = ev.load(split)
    spans = pd.concat([part.spans, part.neutral])
    assert len(part.table) == len(notes) == ev.load(split).people.shape[0]
    assert part.table["txt"].tolist() == notes
    for row, start, end, text in spans[["row", "start", "end", "text"]].itertuples(index=False):
        assert notes[row][start:end] == text
    assert set(part.spans["kind"]) == set(ev.SPAN_KINDS)
    assert set(part.spans.loc[part.spans["kind"] == "name", "origin"]) == set(ev.ORIGINS)
    # spans of one note never overlap (a span is one value)
    ordered = spans.sort_values(["row", "start"])
    same_row = ordered["row"].to_numpy()[1:] == ordered["row"].to_numpy()[:-1]
    assert not (same_row & (ordered["start"].to_numpy()[1:] < ordered["end"].to_numpy()[:-1])).any()


def test_columns_and_truth_agree():
    part = ev.load("test", rows=50)
    assert list(part.table.columns) == list(ev.COLUMN_TRUTH)


def test_dev_and_test_share_no_hand_written_surname():
    dev = ev.load("dev").table["c1"].str.cat(sep=" ")
    test_only = [s for s in src.CHINESE_SURNAMES + src.EURASIAN_SURNAMES if split_of(s) == "test"]
    dev_words = set(dev.replace(",", " ").split())
    assert test_only and not [s for s in test_only if " " not in s and s in dev_words]
    hand = [t for t in src.HAND_NOTES if split_of(t) == "dev"]
    assert 20 < len(hand) < len(src.HAND_NOTES) - 80  # a quarter or so goes to dev
    assert len(src.HAND_NOTES) >= 150


def test_check_digits_by_hand():
    # S1234567: 2*1+7*2+6*3+5*4+4*5+3*6+2*7 = 106, 106 % 11 = 7 -> "JZIHGFEDCBA"[7] = D;
    # F: "XWUTRQPNMLK"[7] = N; G adds 4: 110 % 11 = 0 -> X (ICA's published examples)
    assert nric_check("S", "1234567") == "D"
    assert nric_check("F", "1234567") == "N"
    assert nric_check("G", "1234567") == "X"
    assert verhoeff_check("236") == 3  # the worked example of the Verhoeff scheme
    table = ev.load("dev").table
    plain = table["k1"].str.replace(" ", "").str.upper()
    letters = [nric_check(v[0], v[1:8]) for v in plain]
    assert (plain.str[8] == letters).all()


# -- Safe Harbor counting on a hand-made output -------------------------------------------
def test_safe_harbor_left_by_hand():
    part = ev.load("dev", rows=200)
    old = part.people.index[(part.people["age"] >= 90) & (part.people.index >= 2)][:1]
    assert len(old) == 1, "the dev part has someone over 89 in its first 200 rows"
    keep = [0, 1, int(old[0])]
    table = part.table.loc[keep].reset_index(drop=True)
    people = part.people.loc[keep].reset_index(drop=True).assign(row=lambda p: p.index.astype(str))
    spans = part.spans[part.spans["row"] == 0].reset_index(drop=True)
    small = ev.Part("dev", table, spans, people, part.neutral.iloc[0:0])
    out = table.drop(columns=["c1", "c3", "k1", "k2", "tel", "c7", "loc", "pc", "d2"])
    out["c2"] = ["[NAME]", table.loc[1, "c2"], None]  # row 1's first name left
    out["d1"] = table["d1"].str.slice(6, 10)  # year only: the 90+ person's year left
    out["txt"] = ["", "", ""]
    result = ev.safe_harbor_left(small, out)
    # left: c2 of row 1, the exact age of the person over 89 (n1 untouched), their birth year
    assert result["left_by_column"] == {"c2": 1, "n1": 1, "d1 (birth year, 90+)": 1}
    assert result["plain_columns_kept"] == ["g", "c13", "c14", "ref", "c16", "c17", "n2"]
    assert result["values_left"] == 3
    assert result["aged_90_plus"] == 1 and result["aged_90_plus_exact"] == 1
    assert result["rows_with_left"] == 2
    assert result["per_1000_cells"] == pytest.approx(1000 * 3 / (3 * 20))
    # the notes kept whole: every span of row 0 counts
    out["txt"] = table["txt"]
    assert ev.safe_harbor_left(small, out)["notes_spans_left"] == len(spans)
    # an aggregate year ("1935 or earlier") is not the birth year, even when it is the same
    year = table.loc[2, "d1"][6:10]
    out["d1"] = [None, None, f"{year} or earlier"]
    assert ev.safe_harbor_left(small, out)["aged_90_plus_exact"] == 1  # the age in n1 only
    out["n1"] = ["", "", "90+"]
    assert ev.safe_harbor_left(small, out)["aged_90_plus_exact"] == 0


def test_year_kept_by_hand():
    assert ev._year_kept("1931", "02/05/1931")
    assert ev._year_kept(" 02/05/1931 ", "02/05/1931")
    assert ev._year_kept("1931-05", "02/05/1931")
    assert ev._year_kept("05/1931", "02/05/1931")
    assert not ev._year_kept("1931 or earlier", "02/05/1931")
    assert not ev._year_kept("<= 1931", "02/05/1931")
    assert not ev._year_kept("1932", "02/05/1931")


# -- end to end, the project alone --------------------------------------------------------
def test_benchmark_runs_on_a_slice(capsys, tmp_path):
    rows = 40
    bench.main(
        [
            "--split",
            "dev",
            "--rows",
            str(rows),
            "--no-presidio",
            "--misses",
            str(tmp_path / "misses.txt"),
        ]
    )
    out = capsys.readouterr().out
    with (ev.DATA / "dev_spans.csv").open(encoding="utf-8", newline="") as handle:
        expected = sum(int(r["row"]) < rows and r["kind"] != "ref" for r in csv.DictReader(handle))
    assert f"{rows:,} notes, {expected:,} labelled spans (dev part)" in out
    for heading in ("## Names in the full-name column", "## Step 1", "## Safe Harbor preset"):
        assert heading in out
    misses = (tmp_path / "misses.txt").read_text(encoding="utf-8")
    assert "# Missed spans:" in misses and "DEV part" in misses


def test_misses_of_the_test_part_are_refused(tmp_path):
    with pytest.raises(SystemExit, match="dev part only"):
        bench.main(
            ["--split", "test", "--rows", "5", "--no-presidio", "--misses", str(tmp_path / "m.txt")]
        )
    assert not (tmp_path / "m.txt").exists()


def test_name_cells_share_per_origin():
    part = ev.load("dev", rows=6)

    def every_second(cells: pd.Series) -> pd.DataFrame:
        rows = [(i, 0, 1, "NAME", "") for i in cells.index if i % 2 == 0]
        return pd.DataFrame(rows, columns=["row", "start", "end", "label", "text"])

    shares = bench.name_cells(part, every_second)
    origins = part.people["origin"].to_numpy()
    hit = np.arange(6) % 2 == 0
    for origin in set(origins):
        assert shares[origin] == pytest.approx(hit[origins == origin].mean())
    assert shares["all"] == 0.5
