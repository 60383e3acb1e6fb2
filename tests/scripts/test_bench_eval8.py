"""The eval8 held-out set (bench/data/eval8/) is what its builder writes, and consistent.

No detector runs here: the builder's output is compared with the committed files, the
labels with the hand-written notes, the identifier rules of ``bench/eval8_formats.py``
with examples worked by hand and python-stdnum, and the scorer's loader
(``bench/bench_detect_eval6.load``) is checked to read the set whole.
"""

from __future__ import annotations

import pandas as pd
import pytest

from bench import eval8_formats as fmt
from bench.eval_build import NEUTRAL
from bench.make_eval7 import DIRECT_KINDS, KINDS, ORIGINS
from bench.make_eval8 import (
    DATA,
    KIND_HIPAA,
    NEUTRAL_HIPAA,
    ROWS,
    SPAN_COLUMNS,
    build_parts,
    check_spans,
    parse_notes,
    read_notes,
    write,
)
from tests import bench_set_checks as checks

WRITTEN = ("notes.csv", "spans.csv", "table.csv", "columns.csv", "people.csv")


spans, notes = checks.spans_and_notes_fixtures(DATA)


def test_the_builder_rewrites_the_committed_files_byte_for_byte(tmp_path):
    counts = write(folder=tmp_path)
    for name in WRITTEN:
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
    # Every identifier and phone of the table passed its check while being written.
    assert sum(counts["table_ids"].values()) == ROWS
    assert len(counts["table_ids"]) == 15  # 14 countries, Australia's TFN and Medicare


def test_parts_csv_is_what_mimesis_gives():
    pytest.importorskip("mimesis", minversion="22.2.0")
    import csv

    with open(DATA / "parts.csv", encoding="utf-8", newline="") as f:
        committed = [tuple(r) for r in csv.reader(f)][1:]
    assert build_parts() == committed


def test_notes_csv_and_spans_csv_are_what_notes_txt_says(spans, notes):
    texts, countries, marked = read_notes()
    checks.assert_csv_is_what_notes_txt_says(spans, notes, texts, marked)
    assert notes["country"].tolist() == countries
    assert spans.columns.tolist() == SPAN_COLUMNS


def test_every_span_cuts_out_its_text_with_eval7s_labels(spans, notes):
    letters = {*KIND_HIPAA.values(), *NEUTRAL_HIPAA.values(), "K"}
    checks.assert_spans_sit_on_their_text(spans, notes, KINDS, ORIGINS, DIRECT_KINDS)
    for kind, tradition, hipaa in spans[["kind", "tradition", "hipaa"]].itertuples(index=False):
        assert bool(tradition) == (kind == "name"), (kind, tradition)
        assert hipaa in letters and (kind == NEUTRAL or hipaa)
    checks.assert_distinct_notes_with_every_kind_and_origin(
        spans, notes, KINDS, ORIGINS, at_least=140
    )
    # About 30% of the notes are set in Singapore; the 13 other countries each have some.
    share = notes["country"].value_counts(normalize=True)
    assert 0.25 < share["SG"] < 0.35 and len(share) == 14
    # Notes without any personal data (precision distractors) are there.
    no_pii = set(notes["note"]) - set(spans.loc[spans["kind"] != NEUTRAL, "note"])
    assert len(no_pii) >= 12


def test_note_identifiers_and_phones_pass_their_checks(spans, notes):
    marked = [tuple(s) for s in spans.itertuples(index=False)]
    counts = check_spans(notes["text"].tolist(), notes["country"].tolist(), marked)
    for kind in ("nric", "za_id", "cnic", "lk_nic", "thai_id", "mykad", "ppsn", "jm_trn"):
        assert counts["ids"][kind] >= 3, kind
    assert len(counts["regions"]) >= 14


def test_a_wrong_check_digit_an_overlap_or_a_young_age_is_refused():
    note = ["SG| ic {{id|S1234567E}}"]
    texts, countries, marked = parse_notes("\n".join(note))
    with pytest.raises(ValueError, match="fails its check"):
        check_spans(texts, countries, marked)
    texts, countries, marked = parse_notes("TH| {{id|1-1017-00230-70-7}}")
    with pytest.raises(ValueError, match="fails its check"):
        check_spans(texts, countries, marked)
    texts, countries, marked = parse_notes("SG| aged {{age|89}}")
    with pytest.raises(ValueError, match="not over 89"):
        check_spans(texts, countries, marked)
    with pytest.raises(ValueError, match="overlaps"):
        check_spans(
            ["Amy Lim"],
            ["SG"],
            [
                (0, 0, 7, "name", "Chinese", True, "Amy Lim", "x", "A"),
                (0, 4, 7, "name", "Chinese", True, "Lim", "x", "A"),
            ],
        )
    with pytest.raises(ValueError, match="unknown tradition"):
        parse_notes("SG| {{name:xx|Amy}}")


def test_check_rules_on_examples_worked_by_hand():
    from stdnum import luhn
    from stdnum.pk import cnic
    from stdnum.th import pin

    # Thai ID 1-1017-00230-70-8: 1*13+1*12+0*11+1*10+7*9+0*8+0*7+2*6+3*5+0*4+7*3+0*2 = 146,
    # 146 mod 11 = 3, (11 - 3) mod 10 = 8.
    assert fmt.thai_check("110170023070") == 8
    assert fmt.check_identifier("1-1017-00230-70-8") == "thai_id"
    assert pin.is_valid("1101700230708") and not pin.is_valid("1101700230707")
    # Emirates ID 784-1990-1909321-2: Luhn over 78419901909321, doubling from the right
    # 1->2, 3->6, 0, 1->2, 9->9, 1->2, 8->7, plus 2+9+9+0+9+4+7 = 68, so (10 - 8) = 2.
    assert fmt.check_identifier("784-1990-1909321-2") == "emirates_id"
    assert luhn.is_valid("784199019093212") and not luhn.is_valid("784199019093213")
    # Pakistani CNIC (python-stdnum's own example): province 3 Punjab, last digit 8 a woman.
    assert fmt.check_identifier("34201-0891231-8") == "cnic" and cnic.is_valid("3420108912318")
    # Sri Lankan NIC 447479834X: born 1944, day 747 - 500 = 247 (a woman); day 867 - 500
    # = 367 does not exist.
    assert fmt.lk_nic_ok("447479834X") and not fmt.lk_nic_ok("448679834V")
    # Ontario licence S4182-72118-50219: its last six digits 850219 are 19 Feb 1985.
    assert fmt.ontario_licence_ok("S4182-72118-50219")
    assert not fmt.ontario_licence_ok("S4182-72118-51319")
    # A Vietnamese CCCD: province 001-096, century-and-sex digit 0-3.
    assert fmt.vn_cccd_ok("038192795639") and not fmt.vn_cccd_ok("099192795639")


def test_the_scorer_reads_eval8_whole(spans, notes):
    from bench.bench_detect_eval6 import PRESIDIO_SETUPS, SPAN_KINDS6, load

    data = load(DATA)
    assert data.table.shape == (ROWS, 20)
    assert data.table.columns.tolist() == [f"c{i}" for i in range(1, 21)]
    scored = spans["kind"].isin(SPAN_KINDS6)
    assert len(data.spans) == scored.sum()
    assert len(data.ages) == (spans["kind"] == "age").sum() >= 15
    assert len(data.spans) + len(data.ages) + len(data.neutral) == len(spans)
    for row, start, end, text in data.spans[["row", "start", "end", "text"]].itertuples(
        index=False
    ):
        assert data.notes["text"][row][start:end] == text
    # Each note sits in the table's free-text column at its row, line breaks and all.
    cells = data.table[data.header["notes"]]
    assert [cells[r] for r in data.notes["row"]] == data.notes["text"].tolist()
    assert (cells.fillna("") != "").sum() == len(notes)
    assert "eval8" in PRESIDIO_SETUPS


def test_table_shape_and_column_truth():
    table = pd.read_csv(DATA / "table.csv", dtype=str, keep_default_na=False)
    columns = pd.read_csv(DATA / "columns.csv", keep_default_na=False)
    people = pd.read_csv(DATA / "people.csv", keep_default_na=False)
    assert sorted(columns["column"]) == sorted(table.columns) and len(people) == ROWS
    assert set(columns["role"]) == {"direct", "indirect", "target", "other", "free_text"}
    header = dict(zip(columns["key"], columns["column"], strict=True))
    direct = set(columns.loc[columns["role"] == "direct", "key"])
    assert direct == {"name", "given", "kin", "id", "phone", "email"}
    assert table[header["gender"]].isin(["X", "Other"]).sum() >= 10
    assert (people["age"] >= 90).sum() >= 60
    assert (table[header["age"]].astype(int) == people["age"]).all()
    assert table[header["batch"]].nunique() == 40
    assert table[header["product"]].str.fullmatch(r"\d{13}").all()
    kin = table[header["kin"]]
    assert (kin == kin.str.lower()).all()
    # The given name alone is a part of the row's full name (first names only, no family).
    given = table[header["given"]].str.lower()
    assert all(g in n.lower() for g, n in zip(given, people["name"], strict=True))
    assert (given != people["name"].str.lower()).all()
    assert not table[header["dob"]].str.fullmatch(r"\d{4}-\d{2}-\d{2}").any()
    assert people["country"].nunique() == 14
    assert (people["country"] == "SG").mean() == pytest.approx(0.3, abs=0.04)


def test_the_scorer_refuses_to_list_a_held_out_sets_misses(monkeypatch):
    # Only the guard is called: main() would run the detectors. eval8 was held out until
    # its first run; the guard is shown on it as it stood then.
    from bench import bench_detect_eval6
    from bench.bench_detect_eval6 import refuse_show_on_held_out

    monkeypatch.setattr(bench_detect_eval6, "HELD_OUT", ("eval8",))
    with pytest.raises(SystemExit, match="held-out"):
        refuse_show_on_held_out(DATA, ["all"])
    refuse_show_on_held_out(DATA, None)  # measuring it is allowed
    refuse_show_on_held_out(DATA.parent / "eval7", ["date"])  # eval7 is a development set
