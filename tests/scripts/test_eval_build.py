"""The note mark-up and helpers the evaluation sets' builders share (bench/eval_build.py),
checked on examples worked by hand."""

from __future__ import annotations

import datetime as dt

import pytest

from bench.eval_build import age_on, ascii_fold, parse_marked_notes, phone_region, write_csv

KINDS = ("name", "phone")
ORIGINS = ("Malay", "Chinese")


def test_marks_are_cut_out_and_offsets_point_at_their_text():
    text = "# a comment\n\nSeen {{name:Malay|Siti Aminah}} today, tel {{phone|9123 4567}}.\n"
    notes, spans = parse_marked_notes(text, KINDS, ORIGINS, direct_kinds=("name",))
    assert notes == ["Seen Siti Aminah today, tel 9123 4567."]
    # "Seen " is 5 characters: the name runs 5-16; "Seen Siti Aminah today, tel " is 28.
    assert spans == [
        (0, 5, 16, "name", "Malay", True, "Siti Aminah"),
        (0, 28, 37, "phone", "", False, "9123 4567"),
    ]
    _, without_direct = parse_marked_notes(text, KINDS, ORIGINS)
    assert without_direct[0] == (0, 5, 16, "name", "Malay", "Siti Aminah")


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("x {{email|a@b.sg}}", "unknown kind 'email'"),
        ("x {{name|Tan}}", "name origin ''"),
        ("x {{phone:Malay|9123 4567}}", "name origin 'Malay' for kind 'phone'"),
        ("x {{name:Thai|Somchai}}", "name origin 'Thai'"),
        ("x {{phone|9123 4567}", "a mark left open"),
    ],
)
def test_broken_marks_are_refused_with_the_note_number(line, why):
    with pytest.raises(ValueError, match="note 1: " + why.replace("(", r"\(")):
        parse_marked_notes("fine {{ref|A-1}}\n" + line, KINDS, ORIGINS)


def test_age_on_counts_whole_years():
    assert age_on(dt.date(1990, 6, 15), dt.date(2026, 1, 1)) == 35  # birthday not yet come
    assert age_on(dt.date(1990, 1, 1), dt.date(2026, 1, 1)) == 36  # birthday that day
    assert age_on(dt.date(2000, 2, 29), dt.date(2026, 2, 28)) == 25


def test_ascii_fold_and_csv(tmp_path):
    assert ascii_fold("Zoë Núñez") == "Zoe Nunez"
    write_csv(tmp_path / "t.csv", ["a", "b"], [("1", "x, y"), ("2", 'say "hi"')])
    assert (tmp_path / "t.csv").read_bytes() == b'a,b\r\n1,"x, y"\r\n2,"say ""hi"""\r\n'


def test_phone_region_reads_plus_and_00_as_international_else_tries_each_region():
    # 9123 4567: a Singapore mobile (8 digits starting 9); India's mobiles have 10 digits.
    assert phone_region("+65 9123 4567", ("IN",)) == "SG"
    assert phone_region("0065 9123 4567", ("IN",)) == "SG"
    assert phone_region("9123 4567", ("IN", "SG")) == "SG"
    with pytest.raises(ValueError, match="valid in none of IN, GB"):
        phone_region("9123 4567", ("IN", "GB"))
