"""``python -m core risk --weights``: survey risk on the command line (issue 14)."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from core.cli import main


def test_risk_with_weights_adds_survey_figures(tmp_path, capsys):
    # Two records share key x (weights 2 + 2 -> F = 4, f = 2), one is unique (F = 4, f = 1).
    data = tmp_path / "survey.csv"
    pd.DataFrame({"a": ["x", "x", "y"], "w": [2, 2, 4], "hh": [1, 1, 2]}).to_csv(data, index=False)
    per_record = tmp_path / "risk.csv"
    code = main(["risk", str(data), "--qi", "a", "--weights", "w", "--household", "hh",
                 "--risk-threshold", "0.4", "--per-record", str(per_record), "--json"])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    p = 0.5  # f/F for both keys
    pair = p / (1 - p) - (p / (1 - p)) ** 2 * math.log(1 / p)  # f = 2, by hand
    unique = 0.25 / 0.75 * math.log(4)  # f = 1, F = 4, by hand
    assert out["individual_risk_max"] == pytest.approx(max(pair, unique))
    assert out["expected_reidentifications"] == pytest.approx(2 * pair + unique)
    assert out["global_risk"] == pytest.approx((2 * pair + unique) / 3)
    records = pd.read_csv(per_record)
    assert records["fk"].tolist() == [2, 2, 1] and records["Fk"].tolist() == [4, 4, 4]
    assert records["household_risk"][0] == pytest.approx(1 - (1 - pair) ** 2)


def test_risk_with_misspelt_weights_is_one_line_error(tmp_path, capsys):
    data = tmp_path / "survey.csv"
    pd.DataFrame({"a": ["x"], "w": [2]}).to_csv(data, index=False)
    assert main(["risk", str(data), "--qi", "a", "--weights", "wieght"]) == 2
    err = capsys.readouterr().err
    assert "wieght" in err and err.count("\n") == 1


def test_per_record_never_overwrites(tmp_path, capsys):
    data = tmp_path / "survey.csv"
    pd.DataFrame({"a": ["x"], "w": [2]}).to_csv(data, index=False)
    assert main(["risk", str(data), "--qi", "a", "--weights", "w", "--per-record", str(data)]) == 2
    assert pd.read_csv(data).columns.tolist() == ["a", "w"]
