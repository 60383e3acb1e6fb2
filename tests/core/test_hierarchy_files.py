"""Several ARX hierarchy files at once (core.hierarchy_files, issue 30): matched to columns
by name, a zip read in memory within its caps, every problem one line naming the file."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from core.errors import DataReadError
from core.hierarchy_files import (
    MAX_FILE_BYTES,
    MAX_FILES,
    column_for,
    read_hierarchy_bytes,
    read_hierarchy_files,
    shown_name,
)

ADULT = Path(__file__).resolve().parents[1] / "data" / "adult"
COLUMNS = ["sex", "age", "marital-status", "Native Country"]


@pytest.mark.parametrize(
    ("name", "column"),
    [
        ("adult_hierarchy_marital-status.csv", "marital-status"),  # ARX's own naming
        ("ADULT_HIERARCHY_AGE.CSV", "age"),  # any case
        ("age.csv", "age"),  # the column's own name
        ("my_data_hierarchy_Native Country.txt", "Native Country"),
        ("folder/sub/adult_hierarchy_sex.csv", "sex"),  # the folder is not part of the name
        ("adult_hierarchy_salary.csv", None),  # no such column
        ("hierarchy.csv", None),
    ],
)
def test_a_file_is_matched_to_its_column_by_name(name, column):
    assert column_for(name, COLUMNS) == column


def test_exact_spelling_wins_over_case():
    assert column_for("x_hierarchy_Age.csv", ["age", "Age"]) == "Age"
    assert column_for("x_hierarchy_AGE.csv", ["age", "Age"]) == "age"  # the first by case


def test_shown_names_never_carry_a_path_or_control_characters():
    assert shown_name("../../etc/passwd.csv") == "passwd.csv"
    assert shown_name("C:\\Users\\me\\age.csv") == "age.csv"
    assert shown_name("a\x1b[31mred.csv") == "a?[31mred.csv"
    assert len(shown_name("x" * 500 + ".csv")) == 120


def test_the_eight_adult_hierarchies_and_a_comma_file():
    sent = [(p.name, p.read_bytes()) for p in sorted(ADULT.glob("adult_hierarchy_*.csv"))]
    columns = (ADULT / "adult.csv").read_text().splitlines()[0].split(";")
    files = read_hierarchy_files(sent, columns)
    assert {f.name: f.column for f in files} == {
        f"adult_hierarchy_{c}.csv": c for c in columns if c != "salary-class"
    } | {"adult_hierarchy_salary-class.csv": "salary-class"}
    assert all(f.ok and f.problem is None for f in files)
    # level 0 of the age file is its first column, read line by line (1 ... 90 here)
    first = (ADULT / "adult_hierarchy_age.csv").read_text().splitlines()[0].split(";")
    age = next(f.hierarchy for f in files if f.column == "age")
    assert age.levels.iloc[0].tolist() == first and age.name == "adult_hierarchy_age.csv"
    comma = read_hierarchy_bytes("sex.csv", b"Male,*\nFemale,*\n")  # no ';' at all
    assert comma.levels.values.tolist() == [["Male", "*"], ["Female", "*"]]


def test_two_files_for_one_column_keep_the_first():
    files = read_hierarchy_files(
        [("age.csv", b"1;*\n"), ("x_hierarchy_age.csv", b"2;*\n")], COLUMNS
    )
    assert [f.column for f in files] == ["age", None]
    assert files[1].problem == "'age.csv' already gives the hierarchy of 'age'."
    assert files[1].hierarchy is not None  # read: its column may still be picked


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "'bad.csv' is empty"),
        (b"  \n\n", "'bad.csv' is empty"),
        ("Zürich;*".encode("latin-1"), "'bad.csv' is not UTF-8"),
        (b"a;b;*\nc;*\n", "'bad.csv': Hierarchy has an empty cell in row 2, level 2"),
        (b"a;*\nb;c;*\n", "'bad.csv': Could not read hierarchy file"),
        (b"a;*\na;*\n", "lists the value 'a' twice"),
        (b"0" * (MAX_FILE_BYTES + 1), "larger than 20 MB"),
    ],
)
def test_a_bad_file_is_one_line_naming_it(data, words):
    with pytest.raises(DataReadError) as caught:
        read_hierarchy_bytes("bad.csv", data)
    said = str(caught.value)
    assert words in said and "\n" not in said and "bad.csv" in said


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_is_read_in_memory_with_its_own_names():
    folder = _zip(
        {
            "/abs/adult_hierarchy_sex.csv": b"Male;*\nFemale;*\n",
            "../up/age.csv": b"1;*\n",
            "notes/readme.md": b"# notes",
            "__MACOSX/._age.csv": b"\x00",
            ".hidden.csv": b"x;*\n",
            "sub/": b"",
        }
    )
    files = read_hierarchy_files([("export.zip", folder)], COLUMNS)
    assert [(f.name, f.column, f.problem) for f in files] == [
        ("adult_hierarchy_sex.csv", "sex", None),
        ("age.csv", "age", None),
        ("readme.md", None, "not a .csv file: skipped"),
    ]


def test_zip_bombs_stop_at_the_caps():
    one_big = _zip({"age.csv": b"1;*\n" + b"0" * (MAX_FILE_BYTES + 10)})
    [file] = read_hierarchy_files([("one.zip", one_big)], COLUMNS)
    assert file.problem == "'age.csv' in 'one.zip' is larger than 20 MB: too large for a hierarchy."
    # each member under the per-file cap, together over 100 MB unpacked (a few KB packed)
    many = _zip({f"f{i}.csv": b"0" * (MAX_FILE_BYTES - 1) for i in range(6)})
    assert len(many) < 200_000
    [file] = read_hierarchy_files([("many.zip", many)], COLUMNS)
    assert file.problem == (
        "'many.zip' unpacks to more than 100 MB: too large for a folder of hierarchies."
    )
    crowded = _zip({f"f{i}.csv": b"a;*\n" for i in range(MAX_FILES + 1)})
    [file] = read_hierarchy_files([("crowded.zip", crowded)], COLUMNS)
    assert file.problem == (
        f"'crowded.zip' holds more than {MAX_FILES} hierarchy files; import at most "
        f"{MAX_FILES} at once."
    )
    [file] = read_hierarchy_files([("fake.zip", b"PK not a zip")], COLUMNS)
    assert file.problem == "'fake.zip' is not a readable zip archive."
