"""read_table(coded=...): a Parquet file's text columns as Categoricals straight from its
dictionaries (issue 31), the same values and the same risk figures as the plain columns."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import core.cli.risk
import core.io
import core.io.quick_text
from core import cli
from core.errors import DataReadError
from core.io import read_table
from core.risk import risk_report


def _two_row_groups(path) -> None:
    """Two row groups, so two dictionaries (in another order), a
    missing value, a header name with spaces, and a number column."""
    first = pa.table(
        {
            " town ": pa.array(["Bedok", "Bedok", "Yishun", None, "Jurong"]),
            "sex": ["F", "M", "F", "F", "M"],
            "age": [30, 30, 41, 41, 52],
        }
    )
    second = pa.table(
        {
            " town ": pa.array(["Yishun", "Jurong", "Jurong", "Bedok", None]),
            "sex": ["M", "M", "F", "F", "F"],
            "age": [30, 52, 52, 41, 41],
        }
    )
    with pq.ParquetWriter(path, first.schema) as writer:
        writer.write_table(first)
        writer.write_table(second)


def test_coded_parquet_columns_hold_the_plain_values(tmp_path):
    path = tmp_path / "people.parquet"
    _two_row_groups(path)
    plain = read_table(path)
    coded = read_table(path, coded=["town", "sex", "age", "not a column"])
    assert list(coded.columns) == list(plain.columns) == ["town", "sex", "age"]
    assert isinstance(coded["town"].dtype, pd.CategoricalDtype)
    assert isinstance(coded["sex"].dtype, pd.CategoricalDtype)
    assert coded["age"].dtype == plain["age"].dtype  # numbers stay as stored
    for column in ("town", "sex"):
        assert coded[column].astype(object).where(coded[column].notna(), None).tolist() == (
            plain[column].astype(object).where(plain[column].notna(), None).tolist()
        )
    # every category is a value present: the count of distinct values is the plain one
    assert sorted(coded["town"].cat.categories) == ["Bedok", "Jurong", "Yishun"]


def test_a_dictionary_value_no_row_uses_is_no_category(tmp_path):
    path = tmp_path / "unused.parquet"
    town = pa.DictionaryArray.from_arrays(
        pa.array([0, 0, 2, None], pa.int32()), pa.array(["Bedok", "Jurong", "Yishun"])
    )
    pq.write_table(pa.table({"town": town, "age": [1, 2, 3, 4]}), path)
    assert pq.read_table(path, read_dictionary=["town"])["town"].chunk(
        0
    ).dictionary.to_pylist() == [
        "Bedok",
        "Jurong",
        "Yishun",
    ]  # the file keeps the unused value
    coded = read_table(path, coded=["town"])
    assert list(coded["town"].cat.categories) == ["Bedok", "Yishun"]
    assert coded["town"].isna().tolist() == [False, False, False, True]


def test_the_risk_report_of_coded_columns_is_the_plain_one(tmp_path):
    rng = np.random.default_rng(3)
    rows = 5000
    table = pd.DataFrame(
        {
            "town": rng.choice(["Bedok", "Jurong", "Yishun", "Tampines", ""], rows),
            "sex": rng.choice(["F", "M"], rows),
            "age": rng.integers(20, 60, rows),
            "diagnosis": rng.choice(["flu", "cold", "asthma", "none"], rows),
        }
    )
    table["town"] = table["town"].replace("", None)
    path = tmp_path / "people.parquet"
    table.to_parquet(path, row_group_size=1000)  # five row groups, five dictionaries
    qis = ["town", "sex", "age"]
    plain = risk_report(read_table(path), qis, sensitive="diagnosis").to_dict()
    coded = read_table(path, coded=[*qis, "diagnosis"])
    assert risk_report(coded, qis, sensitive="diagnosis").to_dict() == plain


def _risk(capsys, *args: str) -> dict:
    assert cli.main(["risk", *args, "--json"]) in (0, 3)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("extra", [[], ["--no-impact"]])
def test_risk_on_parquet_gives_the_figures_of_the_same_table_as_csv(tmp_path, capsys, extra):
    """The command reads a Parquet file's text coded and a CSV file as text: two readings
    of the same table, one answer."""
    rng = np.random.default_rng(5)
    rows = 3000
    table = pd.DataFrame(
        {
            "town": rng.choice(["Bedok", "Jurong", "Yishun"], rows),
            "sex": rng.choice(["F", "M"], rows),
            "age": rng.integers(20, 40, rows),
            "diagnosis": rng.choice(["flu", "cold", "asthma"], rows),
        }
    )
    table.to_parquet(tmp_path / "people.parquet", row_group_size=700)
    table.to_csv(tmp_path / "people.csv", index=False)
    args = ["--qi", "town,sex,age", "--sensitive", "diagnosis", *extra]
    from_parquet = _risk(capsys, str(tmp_path / "people.parquet"), *args)
    from_csv = _risk(capsys, str(tmp_path / "people.csv"), *args)
    assert from_parquet == from_csv
    assert from_csv["records"] == rows


# --- CSV: the columns the report only counts, dictionary-encoded by pyarrow's parser ---------

#: Every kind of cell the text/number rule tells apart (core.io): leading zeros, a blank,
#: words that look missing, a '+', numbers written two ways ("7" and "7.0" are one number),
#: spaces around a number, a quoted line break, a value equal to the column's name.
AWKWARD_CSV = (
    "zip,code,age,score,note,diagnosis\n"
    '007,A1,30,7,"two\nlines",flu\n'
    "018956,NA,30,7.0,age,cold\n"
    ",null,41, 7 ,plain,flu\n"
    "007,+65,,1e3,zip,asthma\n"
    "120,None,52,-0,,cold\n"
    "007,A1,52,0,note,flu\n"
)


def _values(series: pd.Series) -> list:
    return series.astype(object).where(series.notna(), None).tolist()


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
def test_coded_csv_columns_hold_the_values_the_plain_reading_gives(tmp_path, encoding):
    text = AWKWARD_CSV.replace("plain", "café")  # cp1252: not UTF-8, read the full way
    path = tmp_path / "awkward.csv"
    path.write_bytes(text.encode(encoding))
    plain = read_table(path)
    names = ["zip", "code", "age", "score", "note", "diagnosis"]
    coded = read_table(path, coded=[*names, "not a column"])
    assert list(coded.columns) == list(plain.columns) == names
    assert coded.attrs["source"] == plain.attrs["source"]
    for name in names:
        assert isinstance(coded[name].dtype, pd.CategoricalDtype), name
        assert _values(coded[name]) == _values(plain[name]), name
    # the rule judged the column as a whole: leading zeros keep 'zip' text, 'age' and
    # 'score' are numbers (a blank makes 'age' float, as pandas holds it), one '7'
    assert _values(coded["zip"])[:2] == ["007", "018956"]
    assert coded["age"].cat.categories.dtype == plain["age"].dtype == np.float64
    assert sorted(coded["score"].cat.categories) == [0.0, 7.0, 1000.0]
    # the header's own word is a category only where a row holds it
    assert "note" in list(coded["note"].cat.categories)
    assert "diagnosis" not in list(coded["diagnosis"].cat.categories)


def test_coded_csv_read_the_quick_way_across_blocks_is_the_plain_table(tmp_path, monkeypatch):
    """Many parser blocks, so many dictionaries to unify, in the order the rows come."""
    monkeypatch.setattr(core.io.quick_text, "QUICK_BLOCK_BYTES", 4096)
    rng = np.random.default_rng(11)
    rows = 20_000
    table = pd.DataFrame(
        {
            "zip": rng.choice(["007", "018956", "120", ""], rows),
            "age": rng.integers(0, 90, rows),
            "town": rng.choice(["Bedok", "Jurong", "Yishun", "zip"], rows),
        }
    )
    path = tmp_path / "many.csv"
    table.to_csv(path, index=False)
    plain = read_table(path)
    coded = read_table(path, coded=["zip", "age", "town"])
    for name in ("zip", "age", "town"):
        assert _values(coded[name]) == _values(plain[name]), name
    assert coded["age"].cat.categories.dtype == plain["age"].dtype == np.int64


def test_errors_of_coded_csv_columns_are_the_plain_ones(tmp_path):
    huge = "x" * (core.io.MAX_CELL_CHARS + 1)
    cases = {
        "huge.csv": f"id,note\n1,short\n2,{huge}\n".encode(),
        "ragged.csv": b"id,note\n1,a\n2,b,c\n",
        "nul.csv": b"id,note\n1,a\n2,b\x00c\n",
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(DataReadError) as plain:
            read_table(path)
        with pytest.raises(DataReadError) as coded:
            read_table(path, coded=["id", "note"])
        assert str(coded.value) == str(plain.value), name
        assert "\n" not in str(coded.value)


@pytest.mark.parametrize("k", ["3", "5", "12"])
def test_risk_on_csv_prints_the_same_bytes_coded_or_plain(tmp_path, capsys, monkeypatch, k):
    """The command codes a CSV file's counted columns as it reads them; its output, text
    and JSON, is the one of the plain reading (the other figures read the values plain)."""
    rng = np.random.default_rng(int(k))
    rows = 4000
    table = pd.DataFrame(
        {
            "zip": rng.choice(["007", "018956", "120", ""], rows),
            "age": rng.integers(20, 40, rows).astype(str),
            "score": rng.choice(["7", "7.0", " 8", "", "9"], rows),
            "town": rng.choice(["Bedok", "Jurong", "NA", "zip"], rows),
            "income": rng.choice(["1000", "2000", "", "3500"], rows),
        }
    )
    path = tmp_path / "people.csv"
    table.to_csv(path, index=False)
    args = ["risk", str(path), "--qi", "zip,age,score,town", "--sensitive", "income", "--k", k]

    def output(*extra: str) -> str:
        assert cli.main([*args, *extra]) in (0, 3)
        return capsys.readouterr().out

    coded = output(), output("--json")
    with monkeypatch.context() as patch:  # the same command reading every column plain
        plain_read = core.cli.risk.read_table
        patch.setattr(core.cli.risk, "read_table", lambda *a, coded=(), **kw: plain_read(*a, **kw))
        plain = output(), output("--json")
    assert coded == plain
    assert json.loads(coded[1])["records"] == rows
