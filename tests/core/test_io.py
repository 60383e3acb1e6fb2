"""Tests for core/io/: reading and writing tables, with a clear error for every failure."""

from __future__ import annotations

import codecs
import io
import os
import threading
import time
import zipfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core.io
import core.io.excel
import core.io.files
import core.io.parquet
from core.errors import AnonymisationError, DataReadError, ParameterError
from core.io import read_table, table_to_bytes, write_table

ADULT = Path(__file__).resolve().parents[1] / "data" / "adult" / "adult.csv"


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


class Upload(io.BytesIO):
    """Stands in for a Streamlit UploadedFile: binary, with .name and .getvalue()."""

    def __init__(self, data: bytes, name: str) -> None:
        super().__init__(data)
        self.name = name


# ----------------------------------------------------------------------- successes


def test_adult_table_matches_its_readme():
    df = read_table(ADULT)
    # README: ';'-separated, 30,162 rows, 9 named columns.
    assert df.shape == (30162, 9)
    assert list(df.columns) == [
        "sex",
        "age",
        "race",
        "marital-status",
        "education",
        "native-country",
        "workclass",
        "occupation",
        "salary-class",
    ]
    assert df.attrs["source"]["sep"] == ";"
    assert pd.api.types.is_integer_dtype(df["age"])
    # first data line of the file: Male;39;White;...;<=50K
    assert df.iloc[0]["sex"] == "Male" and df.iloc[0]["age"] == 39
    assert df.iloc[0]["salary-class"] == "<=50K"


def test_semicolon_latin1_file_with_zoe(tmp_path):
    data = "name;age;city\nZoë;34;Orchard\nBob;41;Bédok\n".encode("latin-1")
    df = read_table(write(tmp_path, "people.csv", data))
    assert df["name"].tolist() == ["Zoë", "Bob"]
    assert df["city"].tolist() == ["Orchard", "Bédok"]
    assert df["age"].tolist() == [34, 41]
    source = df.attrs["source"]
    assert source["sep"] == ";"
    assert source["encoding"] in ("cp1252", "latin-1")  # both decode these bytes the same
    assert source["format"] == "csv"
    assert source["name"].endswith("people.csv")


def test_utf8_bom_file_has_clean_first_column_name(tmp_path):
    data = codecs.BOM_UTF8 + "id,name\n1,Zoë\n2,Ann\n".encode()
    df = read_table(write(tmp_path, "bom.csv", data))
    assert list(df.columns) == ["id", "name"]
    assert df.attrs["source"]["encoding"] == "utf-8-sig"
    assert df["name"].tolist() == ["Zoë", "Ann"]


def test_plain_utf8_is_reported(tmp_path):
    df = read_table(write(tmp_path, "u.csv", "a,b\n1,Zoë\n".encode()))
    assert df.attrs["source"]["encoding"] == "utf-8"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_bom(tmp_path, codec):
    text = "a\tb\n1\tZoë\n"
    data = text.encode(codec)
    if codec != "utf-16":  # the -le/-be codecs write no BOM; add the right one
        data = (codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE) + data
    df = read_table(write(tmp_path, "w.txt", data))
    assert df["b"].tolist() == ["Zoë"]
    assert df.attrs["source"]["encoding"] == "utf-16"
    assert df.attrs["source"]["sep"] == "\t"


def test_cp1252_only_characters(tmp_path):
    # 0x80 is the euro sign in cp1252 and a control character in latin-1
    data = "item;price\nlunch;\u20ac5\n".encode("cp1252")
    df = read_table(write(tmp_path, "e.csv", data))
    assert df["price"].tolist() == ["\u20ac5"]
    assert df.attrs["source"]["encoding"] == "cp1252"


def test_latin1_fallback_when_cp1252_cannot_decode(tmp_path):
    # 0x81 is undefined in cp1252 but a valid latin-1 byte
    data = b"a;b\n1;x\x81y\n"
    df = read_table(write(tmp_path, "l.csv", data))
    assert df.attrs["source"]["encoding"] == "latin-1"
    assert df["b"].tolist() == ["x\x81y"]


@pytest.mark.parametrize(
    ("sep", "name"), [(",", "c.csv"), (";", "s.csv"), ("\t", "t.tsv"), ("|", "p.txt")]
)
def test_delimiter_detection(tmp_path, sep, name):
    rows = [["id", "town", "note"], ["1", "Bedok", "x"], ["2", "Jurong West", "y"]]
    data = "\n".join(sep.join(r) for r in rows) + "\n"
    df = read_table(write(tmp_path, name, data.encode()))
    assert df.attrs["source"]["sep"] == sep
    assert list(df.columns) == ["id", "town", "note"]
    assert df["town"].tolist() == ["Bedok", "Jurong West"]


def test_detection_prefers_consistent_delimiter_over_commas_in_values(tmp_path):
    # Commas inside values (the guide's Example 2 income "$13,000") must not win over ';'.
    data = b"name;income\nJenny;$13,000\nPeter;$12,000\nTim;$7,000\n"
    df = read_table(write(tmp_path, "i.csv", data))
    assert df.attrs["source"]["sep"] == ";"
    assert df["income"].tolist() == ["$13,000", "$12,000", "$7,000"]


def test_quoted_field_with_delimiter_and_newline(tmp_path):
    data = b'id,address\n1,"5 Tampines St 90, #01-02"\n2,"multi\nline"\n'
    df = read_table(write(tmp_path, "q.csv", data))
    assert df["address"].tolist() == ["5 Tampines St 90, #01-02", "multi\nline"]


def test_single_column_file(tmp_path):
    df = read_table(write(tmp_path, "one.csv", b"name\nAlex\nBosco\n"))
    assert list(df.columns) == ["name"]
    assert df["name"].tolist() == ["Alex", "Bosco"]


def test_explicit_sep_and_literal_backslash_t(tmp_path):
    path = write(tmp_path, "t.txt", b"a\tb\n1\t2\n")
    assert read_table(path, sep="\t")["b"].tolist() == [2]
    assert read_table(path, sep="\\t")["b"].tolist() == [2]


def test_leading_zero_and_plus_values_stay_text(tmp_path):
    data = (
        b"postal_code,phone,age,score,small\n"
        b"018956,+6591234567,25,1.5,0\n"
        b"238823,+6581234567,54,2,0.5\n"
    )
    df = read_table(write(tmp_path, "z.csv", data))
    assert df["postal_code"].tolist() == ["018956", "238823"]
    assert df["phone"].tolist() == ["+6591234567", "+6581234567"]
    assert pd.api.types.is_string_dtype(df["postal_code"])
    assert df["age"].tolist() == [25, 54]
    assert pd.api.types.is_integer_dtype(df["age"])
    assert df["score"].tolist() == [1.5, 2.0]
    # a lone "0" and "0.5" are numbers, not leading-zero identifiers
    assert df["small"].tolist() == [0.0, 0.5]


def test_long_digit_strings_stay_text(tmp_path):
    data = b"card\n4111111111111111\n5500000000000004\n"
    df = read_table(write(tmp_path, "card.csv", data))
    assert df["card"].tolist() == ["4111111111111111", "5500000000000004"]


def test_only_empty_string_is_missing(tmp_path):
    data = b"country,n\nNA,1\n,2\nnull,\n"
    df = read_table(write(tmp_path, "na.csv", data))
    assert df["country"].iloc[0] == "NA"
    assert pd.isna(df["country"].iloc[1])
    assert df["country"].iloc[2] == "null"
    assert pd.isna(df["n"].iloc[2]) and df["n"].iloc[0] == 1


def test_header_names_are_stripped_and_trailing_empty_column_dropped(tmp_path):
    data = b" a ; b ;\n1;2;\n3;4;\n"
    df = read_table(write(tmp_path, "trail.csv", data))
    assert list(df.columns) == ["a", "b"]


def test_bytes_without_name_and_upload_object():
    df = read_table(b"a;b\n1;2\n")
    assert df.attrs["source"]["name"] == "uploaded data"
    up = Upload(b"x|y\nfoo|bar\n", "upload.csv")
    df = read_table(up)
    assert df.attrs["source"]["name"] == "upload.csv"
    assert df.attrs["source"]["sep"] == "|"
    assert df["y"].tolist() == ["bar"]


def test_name_picks_format_for_bytes():
    frame = pd.DataFrame({"a": [1, 2]})
    blob = table_to_bytes(frame, "parquet")
    df = read_table(blob, name="data.parquet")
    assert df.attrs["source"] == {
        "name": "data.parquet",
        "format": "parquet",
        "sep": None,
        "encoding": None,
        "sheet": None,
    }


def test_excel_round_trip(tmp_path):
    original = pd.DataFrame(
        {
            "postal_code": ["018956", "570150", None],
            "age": [25, 54, 42],
            "height": [1.61, None, 1.75],
            "name": ["Zoë", "Bosco", "Charlene"],
            "visit": pd.to_datetime(["2020-01-03", "2021-05-06", "2022-07-08"]),
        }
    )
    path = write_table(original, tmp_path / "t.xlsx")
    back = read_table(path)
    assert back["postal_code"].iloc[:2].tolist() == ["018956", "570150"]
    assert pd.isna(back["postal_code"].iloc[2])
    assert back["age"].tolist() == [25, 54, 42]
    assert back["height"].iloc[0] == 1.61 and pd.isna(back["height"].iloc[1])
    assert back["name"].tolist() == ["Zoë", "Bosco", "Charlene"]
    assert back["visit"].tolist() == original["visit"].tolist()
    assert back.attrs["source"]["format"] == "excel"
    assert back.attrs["source"]["sheet"] == "Sheet1"


def test_excel_sheet_by_name_and_position(tmp_path):
    path = tmp_path / "two.xlsx"
    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        pd.DataFrame({"a": [1]}).to_excel(writer, sheet_name="first", index=False)
        pd.DataFrame({"b": ["x"]}).to_excel(writer, sheet_name="second", index=False)
    assert list(read_table(path, sheet_name=1).columns) == ["b"]
    assert list(read_table(path, sheet_name="second").columns) == ["b"]
    assert list(read_table(path).columns) == ["a"]
    with pytest.raises(DataReadError, match="no sheet named 'third'.*'first', 'second'"):
        read_table(path, sheet_name="third")
    with pytest.raises(DataReadError, match="no sheet at position 5"):
        read_table(path, sheet_name=5)


def test_parquet_round_trip(tmp_path):
    original = pd.DataFrame(
        {"postal_code": ["018956", "100111"], "trips": [15, 2], "w": [50.5, 70.0]}
    )
    back = read_table(write_table(original, tmp_path / "t.parquet"))
    pd.testing.assert_frame_equal(back, original, check_dtype=False)
    assert pd.api.types.is_string_dtype(back["postal_code"])


@pytest.mark.parametrize("fmt", ["csv", "tsv", "xlsx", "parquet"])
def test_table_to_bytes_round_trip(fmt):
    original = pd.DataFrame({"postal": ["018956", "238823"], "n": [1, 2], "s": ["Zoë", "a,b"]})
    back = read_table(table_to_bytes(original, fmt), name=f"download.{fmt}")
    assert back["postal"].tolist() == ["018956", "238823"]
    assert back["n"].tolist() == [1, 2]
    assert back["s"].tolist() == ["Zoë", "a,b"]


def test_write_csv_is_plain_utf8(tmp_path):
    path = write_table(pd.DataFrame({"a": ["Zoë"]}), tmp_path / "o.csv")
    assert path.read_bytes() == "a\nZoë\n".encode()


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(alphabet="abcXYZ éë,;\"'", min_size=1, max_size=8).filter(
                lambda s: s.strip() == s
            ),
            st.from_regex(r"0[0-9]{5}", fullmatch=True),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_csv_round_trip_keeps_text_and_leading_zeros(rows):
    original = pd.DataFrame(rows, columns=["label", "postal"])
    back = read_table(table_to_bytes(original, "csv"), name="r.csv")
    assert back["postal"].tolist() == original["postal"].tolist()
    assert back["label"].astype(str).tolist() == original["label"].tolist()


# ------------------------------------------------------------------------- failures


def test_file_not_found(tmp_path):
    with pytest.raises(DataReadError, match=r"missing\.csv' not found"):
        read_table(tmp_path / "missing.csv")


def test_folder_is_not_a_file(tmp_path):
    with pytest.raises(DataReadError, match="is a folder"):
        read_table(tmp_path)


def test_empty_file(tmp_path):
    with pytest.raises(DataReadError, match=r"empty\.csv' is empty \(0 bytes\)"):
        read_table(write(tmp_path, "empty.csv", b""))


def test_blank_lines_only(tmp_path):
    with pytest.raises(DataReadError, match="only blank lines"):
        read_table(write(tmp_path, "blank.csv", b"\n\n  \n"))


def test_header_only(tmp_path):
    with pytest.raises(DataReadError, match=r"head\.csv' has a header row \(3 column"):
        read_table(write(tmp_path, "head.csv", b"a;b;c\n"))


def test_duplicate_column_names_are_named(tmp_path):
    with pytest.raises(DataReadError, match=r"dup\.csv.*'name', 'age' appear more than once"):
        read_table(write(tmp_path, "dup.csv", b"name,age,name,age,x\n1,2,3,4,5\n"))


def test_blank_column_name(tmp_path):
    with pytest.raises(DataReadError, match=r"blank\.csv': column\(s\) number 2 have no name"):
        read_table(write(tmp_path, "blank.csv", b"a,,c\n1,2,3\n"))


def test_given_delimiter_not_in_file(tmp_path):
    with pytest.raises(DataReadError, match=r"delimiter '\|' does not occur.*semicolon"):
        read_table(write(tmp_path, "s.csv", b"a;b\n1;2\n"), sep="|")


def test_row_with_extra_field_names_line(tmp_path):
    data = b"a,b\n1,2\n3,4\n5,6,7\n8,9\n"
    with pytest.raises(DataReadError, match=r"x\.csv': line 4 has 3 field\(s\).*header has 2"):
        read_table(write(tmp_path, "x.csv", data))


def test_row_with_missing_field_names_line(tmp_path):
    # a quoted value spanning two lines shifts the physical line numbers
    data = b'a;b\n"multi\nline";2\n3\n'
    with pytest.raises(DataReadError, match=r"line 4 has 1 field\(s\)"):
        read_table(write(tmp_path, "m.csv", data))


def test_wrong_given_delimiter_present_in_values(tmp_path):
    data = b"a;b\n1,5;2\n"
    with pytest.raises(DataReadError, match=r"line 2 has 2 field\(s\) but the header has 1"):
        read_table(write(tmp_path, "w.csv", data), sep=",")


def test_forced_encoding_names_byte_offset(tmp_path):
    data = "name;age\nZoë;34\n".encode("latin-1")
    offset = data.index("ë".encode("latin-1"))  # independent: where the bad byte sits
    with pytest.raises(DataReadError, match=rf"byte 0xeb at byte offset {offset} \(line 2\)"):
        read_table(write(tmp_path, "z.csv", data), encoding="utf-8")


def test_unknown_encoding_name(tmp_path):
    with pytest.raises(DataReadError, match="Unknown encoding 'klingon'"):
        read_table(write(tmp_path, "k.csv", b"a\n1\n"), encoding="klingon")


def test_unusable_delimiter(tmp_path):
    with pytest.raises(DataReadError, match="single character"):
        read_table(write(tmp_path, "d.csv", b"a;;b\n1;;2\n"), sep=";;")


@pytest.mark.parametrize("name", ["data.json", "report.pdf", "notes.docx"])
def test_unsupported_extension(tmp_path, name):
    with pytest.raises(DataReadError, match=rf"extension '\.{name.split('.')[1]}'.*not supported"):
        read_table(write(tmp_path, name, b"{}"))


def test_xls_is_refused_with_advice(tmp_path):
    with pytest.raises(DataReadError, match=r"old\.xls.*\.xls.*save it as \.xlsx or CSV"):
        read_table(write(tmp_path, "old.xls", b"\xd0\xcf\x11\xe0rest"))


def test_xls_detected_by_signature_without_name():
    with pytest.raises(DataReadError, match="Excel 97-2003"):
        read_table(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest")


def test_corrupted_excel(tmp_path):
    good = table_to_bytes(pd.DataFrame({"a": [1, 2]}), "xlsx")
    with pytest.raises(DataReadError, match=r"bad\.xlsx' is not a readable Excel"):
        read_table(write(tmp_path, "bad.xlsx", good[: len(good) // 2]))
    with pytest.raises(DataReadError, match="not a readable Excel"):
        read_table(write(tmp_path, "text.xlsx", b"a,b\n1,2\n"))


def test_corrupted_parquet(tmp_path):
    good = table_to_bytes(pd.DataFrame({"a": [1, 2]}), "parquet")
    with pytest.raises(DataReadError, match=r"bad\.parquet' is not a readable Parquet"):
        read_table(write(tmp_path, "bad.parquet", good[: len(good) // 2]))


def test_binary_data_with_csv_extension(tmp_path):
    with pytest.raises(DataReadError, match="binary data"):
        read_table(write(tmp_path, "bin.csv", b"a,b\x00\x01\n1,2\n"))


def test_excel_header_only_and_duplicates(tmp_path):
    path = tmp_path / "h.xlsx"
    pd.DataFrame(columns=["a", "b"]).to_excel(path, index=False)
    with pytest.raises(DataReadError, match="no data rows"):
        read_table(path)
    raw = pd.DataFrame([["x", "x"], [1, 2]])
    raw.to_excel(tmp_path / "d.xlsx", index=False, header=False)
    with pytest.raises(DataReadError, match="'x' appear more than once"):
        read_table(tmp_path / "d.xlsx")


def test_excel_empty_sheet(tmp_path):
    path = tmp_path / "e.xlsx"
    pd.DataFrame().to_excel(path, index=False)
    with pytest.raises(DataReadError, match="is empty"):
        read_table(path)


def test_parquet_header_only(tmp_path):
    path = write_table(pd.DataFrame({"a": pd.Series([], dtype=float)}), tmp_path / "h.parquet")
    with pytest.raises(DataReadError, match="no data rows"):
        read_table(path)


def test_unreadable_source_type():
    with pytest.raises(DataReadError, match="Cannot read a table from a int"):
        read_table(42)


def test_write_unsupported_extension(tmp_path):
    with pytest.raises(ParameterError, match=r"extension must be one of \.csv"):
        write_table(pd.DataFrame({"a": [1]}), tmp_path / "x.json")
    with pytest.raises(ParameterError, match="'fmt'"):
        table_to_bytes(pd.DataFrame({"a": [1]}), "json")


def test_write_into_missing_folder(tmp_path):
    with pytest.raises(AnonymisationError, match="Check that the folder exists"):
        write_table(pd.DataFrame({"a": [1]}), tmp_path / "nope" / "x.csv")


def test_reading_never_changes_the_written_frame(tmp_path):
    original = pd.DataFrame({"a": ["018956"], "b": [np.int64(3)]})
    before = original.copy()
    write_table(original, tmp_path / "o.parquet")
    table_to_bytes(original, "xlsx")
    pd.testing.assert_frame_equal(original, before)


# --- hostile workbooks: zip bombs and sheets that claim or reach millions of cells ------


def _workbook_with_sheet(sheet_xml: Iterable[bytes]) -> bytes:
    """A real two-column workbook whose first sheet's XML is replaced by ``sheet_xml``."""
    template = zipfile.ZipFile(io.BytesIO(table_to_bytes(pd.DataFrame({"a": [1]}), "xlsx")))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for member in template.infolist():
            if member.filename != "xl/worksheets/sheet1.xml":
                book.writestr(member, template.read(member))
                continue
            with book.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
                for chunk in sheet_xml:
                    sheet.write(chunk)
    return out.getvalue()


_SHEET_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
)


def _sheet(dimension: str, rows: bytes, padding: Iterable[bytes] = ()) -> Iterable[bytes]:
    yield _SHEET_HEAD + f'<dimension ref="{dimension}"/>'.encode() + b"<sheetData>"
    yield from padding
    yield rows + b"</sheetData></worksheet>"


HEADER_ROW = b'<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>'


def test_xlsx_zip_bomb_is_refused_before_it_is_unpacked():
    # 40 MiB of one repeated space (legal XML whitespace) compress to about 40 KiB: a ratio
    # of about 1000 to 1, where real sheets compress 5-20 to 1.
    spaces = (b" " * 2**20 for _ in range(40))
    bomb = _workbook_with_sheet(_sheet("A1", HEADER_ROW, spaces))
    assert len(bomb) < 200_000
    # The message is the one the archive check gives before anything is unpacked.
    with pytest.raises(DataReadError, match=r"'xl/worksheets/sheet1\.xml' is compressed .* zip"):
        read_table(bomb, name="bomb.xlsx")


def test_xlsx_total_unpacked_size_is_capped(monkeypatch):
    book = table_to_bytes(pd.DataFrame({"a": range(1000)}), "xlsx")
    unpacked = sum(m.file_size for m in zipfile.ZipFile(io.BytesIO(book)).infolist())
    monkeypatch.setattr(core.io.excel, "MAX_XLSX_UNCOMPRESSED_BYTES", unpacked - 1)
    with pytest.raises(DataReadError, match=r"would unpack to .* MiB, more than"):
        read_table(book, name="big.xlsx")


def _count_cell_conversions(monkeypatch) -> dict[str, int]:
    """Counts the cells core.io converts from the workbook (work done, not time taken)."""
    converted = {"cells": 0}
    original = core.io.excel._excel_cell

    def counting(cell):
        converted["cells"] += 1
        return original(cell)

    monkeypatch.setattr(core.io.excel, "_excel_cell", counting)
    return converted


def test_xlsx_sparse_cells_spanning_millions_of_cells_are_refused_without_padding(monkeypatch):
    # Two cells, A1 and XFD1048576: read as a table that is 1,048,576 rows x 16,384
    # columns = 17 billion cells (pandas pads every row to the widest).
    far = b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    sheet = _sheet("A1:XFD1048576", HEADER_ROW + far)
    converted = _count_cell_conversions(monkeypatch)
    with pytest.raises(DataReadError, match=r"more than 5,000,000 cells \(row 1,048,576 x 16,384"):
        read_table(_workbook_with_sheet(sheet), name="sparse.xlsx")
    # Refused at the far row, without building the padded grid: only the cells the file
    # holds are converted (row 1's headers and row 1,048,576's 16,384 cells).
    assert converted["cells"] <= 1 + 16_384


def test_xlsx_dimension_claiming_millions_of_rows_is_not_trusted(monkeypatch):
    # The declared dimension claims 3 million rows x 26 columns; the sheet holds 2 rows.
    rows = HEADER_ROW + b'<row r="2"><c r="A2"><v>7</v></c></row>'
    converted = _count_cell_conversions(monkeypatch)
    df = read_table(_workbook_with_sheet(_sheet("A1:Z3000000", rows)), name="claims.xlsx")
    assert df["a"].tolist() == [7]
    # Only the cells of the two rows the sheet holds are read, not 3 million declared rows.
    assert converted["cells"] <= 2 * 26


def test_xlsx_cell_cap_counts_rows_times_widest_row(monkeypatch):
    # three cells, A1, B1 and B3: read as a table of 3 rows x 2 columns = 6 cells
    rows = (
        b'<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c>'
        b'<c r="B1" t="inlineStr"><is><t>b</t></is></c></row>'
        b'<row r="3"><c r="B3"><v>4</v></c></row>'
    )
    book = _workbook_with_sheet(_sheet("A1:B3", rows))
    monkeypatch.setattr(core.io.excel, "MAX_XLSX_CELLS", 5)
    with pytest.raises(DataReadError, match=r"more than 5 cells \(row 3 x 2 columns"):
        read_table(book, name="t.xlsx")
    monkeypatch.setattr(core.io.excel, "MAX_XLSX_CELLS", 6)
    assert read_table(book, name="t.xlsx")["b"].tolist() == [4]


def test_xlsx_with_too_many_cells_is_refused_before_any_is_parsed(monkeypatch):
    book = table_to_bytes(pd.DataFrame({"a": range(600), "b": range(600)}), "xlsx")  # 1202
    monkeypatch.setattr(core.io.excel, "MAX_XLSX_CELLS", 1201)

    parsed = []
    monkeypatch.setattr(
        core.io.excel, "_sheet_rows", lambda sheet, where: parsed.append(where) or []
    )
    with pytest.raises(DataReadError, match=r"'t.xlsx' holds more than 1,201 cells, the most"):
        read_table(book, name="t.xlsx")
    assert parsed == []  # refused on the count, before openpyxl opened the workbook
    monkeypatch.setattr(core.io.excel, "MAX_XLSX_CELLS", 1202)
    with pytest.raises(DataReadError, match="is empty"):  # 1202 cells pass the count
        read_table(book, name="t.xlsx")
    assert len(parsed) == 1


# --- very long cells ----------------------------------------------------------------------


def test_a_cell_longer_than_the_csv_modules_default_limit_loads(tmp_path):
    note = "patient reports " * 12_500  # 200,000 characters; the csv module stops at 131,072
    path = write(tmp_path, "notes.csv", f'id;note\n1;"{note}"\n2;short\n'.encode())
    df = read_table(path)
    assert df["note"].tolist() == [note, "short"]
    assert df.attrs["source"]["sep"] == ";"


def test_a_cell_beyond_the_documented_maximum_names_its_row_and_column(tmp_path):
    assert core.io.MAX_CELL_CHARS == 10 * 2**20
    huge = "x" * (10 * 2**20 + 1)
    path = write(tmp_path, "huge.csv", f"id,note\n1,short\n2,{huge}\n".encode())
    with pytest.raises(DataReadError, match=r"row 2, column 'note' holds 10,485,761 characters"):
        read_table(path)
    # exactly at the maximum is fine
    path = write(tmp_path, "max.csv", f"id,note\n1,{huge[:-1]}\n".encode())
    assert len(read_table(path)["note"].iloc[0]) == 10 * 2**20


def test_the_maximum_counts_characters_not_bytes(tmp_path):
    # 6 MiB characters of 2 bytes each: 12 MiB of UTF-8, over the maximum in bytes (which
    # the reader checks first, cheaply) but within it in characters: read, not refused
    wide = "é" * (6 * 2**20)
    path = write(tmp_path, "wide.csv", f"id,note\n1,{wide}\n2,short\n".encode())
    assert read_table(path)["note"].str.len().tolist() == [6 * 2**20, 5]
    over = "é" * (10 * 2**20 + 1)  # over it in characters too: refused, row and column named
    path = write(tmp_path, "over.csv", f"id,note\n1,{over}\n".encode())
    with pytest.raises(DataReadError, match=r"row 1, column 'note' holds 10,485,761 char"):
        read_table(path)


# --- paths that are not regular files, and the size cap ------------------------------------


def test_a_device_is_refused_at_once():
    started = time.perf_counter()
    with pytest.raises(DataReadError, match=r"'/dev/zero' is not a regular file"):
        read_table("/dev/zero")
    assert time.perf_counter() - started < 20  # refused, not read until memory runs out


def test_a_fifo_without_a_writer_times_out(tmp_path, monkeypatch):
    monkeypatch.setattr(core.io.files, "FIFO_IDLE_TIMEOUT_S", 0.5)
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    started = time.perf_counter()
    with pytest.raises(DataReadError, match=r"named pipe \(FIFO\) .* for 0.5 seconds"):
        read_table(fifo)
    assert time.perf_counter() - started < 20  # gave up, did not wait for ever


def test_a_fifo_with_a_writer_is_read(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)

    def write_into_pipe() -> None:
        with open(fifo, "wb") as pipe:  # blocks until read_table opens the other end
            pipe.write(b"postal,age\n018956,34\n")

    writer = threading.Thread(target=write_into_pipe, daemon=True)
    writer.start()
    df = read_table(fifo)
    writer.join(timeout=5)
    assert df.to_dict("list") == {"postal": ["018956"], "age": [34]}


def test_files_beyond_the_size_cap_are_refused(tmp_path, monkeypatch):
    assert core.io.files.MAX_FILE_BYTES == 2**30
    data = b"a,b\n1,2\n3,4\n"  # 12 bytes
    monkeypatch.setattr(core.io.files, "MAX_FILE_BYTES", 11)
    for source in (write(tmp_path, "t.csv", data), data, Upload(data, "t.csv")):
        with pytest.raises(DataReadError, match=r"larger than 0 MiB, the most this tool reads"):
            read_table(source, name="t.csv")
    monkeypatch.setattr(core.io.files, "MAX_FILE_BYTES", 12)
    assert read_table(data, name="t.csv")["b"].tolist() == [2, 4]


def test_nested_parquet_columns_are_refused_by_name(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {
            "id": [1, 2],
            "address": [{"street": "a", "zip": "1"}, {"street": "b", "zip": "2"}],
            "visits": [[1, 2], []],
        }
    )
    path = tmp_path / "nested.parquet"
    pq.write_table(table, path)
    with pytest.raises(DataReadError, match=r"'address', 'visits' hold nested values.*Flatten"):
        read_table(path)
    pq.write_table(table.select(["id"]), path)
    assert read_table(path)["id"].tolist() == [1, 2]


@pytest.mark.parametrize("prefix", ["", "x:"])
def test_cell_elements_are_counted_across_chunks_with_any_prefix(prefix):
    # 70,000 rows of 3 cells (about 3 MiB, so tags straddle the 1 MiB chunk ends), plus
    # elements that only look similar (<cols>, <col>, <v>)
    p = prefix
    row = f'<{p}row><{p}c r="A1"><{p}v>1</{p}v></{p}c><{p}c/><{p}c\tt="n"></{p}c></{p}row>'
    xml = (
        f'<?xml version="1.0"?><{p}worksheet xmlns:x="urn:x"><{p}cols><{p}col min="1"/>'
        f"</{p}cols><{p}sheetData>{row * 70_000}</{p}sheetData></{p}worksheet>"
    ).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", xml)
    with zipfile.ZipFile(buffer) as archive:
        info = archive.getinfo("xl/worksheets/sheet1.xml")
        assert core.io.excel._count_cell_elements(archive, info) == 3 * 70_000


# --- Parquet that unpacks to far more than the file ---------------------------------------


def _dictionary_bomb(rows: int, value_chars: int) -> bytes:
    """One text value of ``value_chars`` characters repeated ``rows`` times: Parquet stores
    it once in the column's dictionary, so the file stays small however large it decodes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    indices = pa.array(np.zeros(rows, dtype=np.int32))
    column = pa.DictionaryArray.from_arrays(indices, pa.array(["x" * value_chars]))
    buffer = io.BytesIO()
    pq.write_table(pa.table({"note": column}), buffer, compression="zstd")
    return buffer.getvalue()


def test_parquet_dictionary_bomb_is_refused_before_it_is_decoded(monkeypatch):
    # 2,000 rows x 1,000 characters = 2,000,000 bytes of text, plus 8 bytes of offsets per
    # row (2,000 x 8 = 16,000): 2,016,000 bytes, from a file of a few KiB.
    bomb = _dictionary_bomb(rows=2_000, value_chars=1_000)
    assert len(bomb) < 20_000
    monkeypatch.setattr(core.io.parquet, "MAX_PARQUET_UNPACKED_BYTES", 1_000_000)
    with pytest.raises(DataReadError, match=r"'bomb\.parquet' would unpack to 2,016,000 bytes"):
        read_table(bomb, name="bomb.parquet")


def test_parquet_with_more_cells_than_the_limit_is_refused_from_its_metadata(monkeypatch):
    small = table_to_bytes(pd.DataFrame({"a": range(10), "b": range(10)}), "parquet")
    monkeypatch.setattr(core.io.parquet, "MAX_PARQUET_CELLS", 19)
    with pytest.raises(DataReadError, match=r"'t\.parquet' holds 20 cells \(10 rows x 2 col"):
        read_table(small, name="t.parquet")
    monkeypatch.setattr(core.io.parquet, "MAX_PARQUET_CELLS", 20)
    assert read_table(small, name="t.parquet")["b"].tolist() == list(range(10))


def test_parquet_dictionary_text_under_the_limit_reads_as_plain_text():
    df = read_table(_dictionary_bomb(rows=3, value_chars=4), name="ok.parquet")
    assert df["note"].tolist() == ["xxxx"] * 3
    assert not isinstance(df["note"].dtype, pd.CategoricalDtype)


def test_a_csv_streamed_in_chunks_is_byte_for_byte_the_one_written_at_once(monkeypatch):
    import csv as csv_module

    from core.io import writing as core_io

    df = pd.DataFrame({"id": ["007", "=1+1", "x"] * 5, "n": list(range(15))})
    whole = core_io.table_to_bytes(df, "csv")
    monkeypatch.setattr(core_io, "CSV_CHUNK_ROWS", 4)  # 15 rows: four chunks, one header
    heard = []
    buffer = io.BytesIO()
    core_io.stream_table(buffer, df, "csv", lambda f, m: heard.append(f))
    assert buffer.getvalue() == whole
    # independently: pandas writing the neutralised table in one go
    expected = df.assign(id=df["id"].replace("=1+1", "'=1+1"))
    assert (
        whole
        == expected.to_csv(
            index=False, lineterminator="\n", quoting=csv_module.QUOTE_MINIMAL
        ).encode()
    )
    assert heard == [4 / 15, 8 / 15, 12 / 15, 1.0]
    assert core_io.table_to_bytes(df.iloc[:0], "csv") == b"id,n\n"  # header only


# --- Small files that took minutes (issue 27) ------------------------------------------

#: Lines no delimiter splits alike, then a run of quotes: csv.Sniffer's quote regular
#: expressions backtracked on it for 38 s (a 62 KB file of the kind: minutes).
SNIFFER_TRAP = b'"x",y\na,b,c\n,' + b'"' * 250 + b"a\n"


def test_a_file_crafted_against_the_delimiter_guess_is_read_at_once(tmp_path):
    path = tmp_path / "trap.csv"
    path.write_bytes(SNIFFER_TRAP)
    started = time.perf_counter()
    with pytest.raises(DataReadError, match=r"line 2 has 3 field\(s\) but the header has 2"):
        read_table(path)
    assert time.perf_counter() - started < 2


def test_the_delimiter_is_the_one_splitting_the_header_most_when_no_line_agrees():
    # ',' splits the header into 3 fields, ';' into 2 (one inside quotes does not count);
    # no candidate splits every line alike, so the full check names the line that differs.
    text = b'a,b,"c;d"\n1,2,3\n4,5\n'
    with pytest.raises(DataReadError, match=r"line 3 has 2 field\(s\).*delimiter ','"):
        read_table(text, name="t.csv")


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_table_wider_than_a_spreadsheet_is_refused_before_it_is_built(fmt):
    """80,000 one-digit columns (a 700 KB CSV) took 18 s and 785 MB to read (issue 27)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = core.io.MAX_COLUMNS + 1
    if fmt == "csv":
        data = (",".join(f"c{i}" for i in range(n)) + "\n" + "1," * (n - 1) + "1\n").encode()
    else:
        buffer = io.BytesIO()
        pq.write_table(pa.table({f"c{i}": pa.array([1], pa.int8()) for i in range(n)}), buffer)
        data = buffer.getvalue()
    started = time.perf_counter()
    with pytest.raises(DataReadError, match=r"16,385 columns, more than the 16,384"):
        read_table(data, name=f"wide.{fmt}")
    assert time.perf_counter() - started < 3
