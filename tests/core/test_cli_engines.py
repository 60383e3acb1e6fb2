"""The command line's scale options: --no-impact, and the DuckDB and Spark engines."""

from __future__ import annotations

import json

import pandas as pd

from core import cli


def _risk(capsys, *args: str) -> dict:
    assert cli.main(["risk", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_no_impact_skips_only_the_impact(tmp_path, capsys):
    path = tmp_path / "people.csv"
    pd.DataFrame({"sex": ["F", "F", "M", "M"], "age": [21, 21, 23, 24]}).to_csv(path, index=False)
    full = _risk(capsys, str(path), "--qi", "sex,age")
    quick = _risk(capsys, str(path), "--qi", "sex,age", "--no-impact")
    # without age, sex gives two pairs (k 2); without sex, ages 23 and 24 are unique
    assert {i["quasi_identifier"]: i["k_without"] for i in full["quasi_identifier_impact"]} == {
        "sex": 1,
        "age": 2,
    }
    assert quick["quasi_identifier_impact"] == []
    full.pop("quasi_identifier_impact"), quick.pop("quasi_identifier_impact")
    assert quick == full
