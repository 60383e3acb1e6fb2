"""read_table(coded=...): a Parquet file's text columns as Categoricals straight from its
dictionaries (issue 31), the same values and the same risk figures as the plain columns."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from core import cli
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
