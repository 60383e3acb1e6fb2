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
    code = main(
        [
            "risk",
            str(data),
            "--qi",
            "a",
            "--weights",
            "w",
            "--household",
            "hh",
            "--risk-threshold",
            "0.4",
            "--per-record",
            str(per_record),
            "--json",
        ]
    )
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


def test_suda_command_prints_scores_and_writes_per_record(tmp_path, capsys):
    # sdcMicro's test_suda2.R "book example": scores of rows 5-8 are 4, 2, 6, 8.
    data = tmp_path / "book.csv"
    pd.DataFrame(
        {
            "age": ["20s"] * 7 + ["60s"],
            "gender": ["male"] * 4 + ["female"] * 3 + ["male"],
            "income": ["50k+", "50k+"] + ["50k-"] * 6,
            "education": ["hs"] * 4 + ["uni", "hs", "ms", "uni"],
        }
    ).to_csv(data, index=False)
    per_record = tmp_path / "suda.csv"
    code = main(
        [
            "suda",
            str(data),
            "--qi",
            "age,gender,income,education",
            "--per-record",
            str(per_record),
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["records_with_msu"] == 4 and out["suda_score_max"] == 8
    records = pd.read_csv(per_record)
    assert records["suda_score"].tolist() == [0, 0, 0, 0, 4, 2, 6, 8]
    assert records["contribution_age"].tolist()[-1] == pytest.approx(6 / 8)
    assert main(["suda", str(data), "--qi", "age,gender"]) == 0
    assert "minimal sample unique" in capsys.readouterr().out


@pytest.mark.parametrize("size", ["0", "3"])
def test_suda_max_size_out_of_range_is_one_line_error(tmp_path, capsys, size):
    data = tmp_path / "t.csv"
    pd.DataFrame({"a": [1, 2], "b": [1, 1]}).to_csv(data, index=False)
    assert main(["suda", str(data), "--qi", "a,b", "--max-size", size]) == 2
    err = capsys.readouterr().err
    assert "max_size" in err and err.count("\n") == 1


def test_risk_model_risk_flag(tmp_path, capsys):
    # One key per record, weights 4: every record a sample unique with lambda = 1 * ...
    # a: x, y (n = 2, each value once): lambda = 2 * (1/2) = 1, pi = 1/4, v = 3/4.
    data = tmp_path / "s.csv"
    pd.DataFrame({"a": ["x", "y"], "w": [4, 4]}).to_csv(data, index=False)
    assert main(["risk", str(data), "--qi", "a", "--weights", "w", "--model-risk", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model_expected_population_uniques"] == pytest.approx(2 * math.exp(-0.75))
    assert out["model_risk_1"] == pytest.approx(math.exp(-0.75))  # per key present (2)


def test_apply_runs_survey_methods_from_a_recipe(tmp_path):
    data = tmp_path / "survey.csv"
    pd.DataFrame(
        {
            "sex": ["M", "M", "F", "F", "F", "M"],
            "age": [30, 30, 40, 40, 30, 50],
            "income": [10.0, 12.0, 30.0, 31.0, 50.0, 80.0],
        }
    ).to_csv(data, index=False)
    recipe = tmp_path / "r.yaml"
    recipe.write_text(
        "seed: 1\nk: 2\nsteps:\n"
        "  - {step: local_suppression, quasi_identifiers: [sex, age], k: 2}\n"
        "  - {step: microaggregate, columns: [income], k: 3}\n"
        "  - {step: pram, columns: [sex], matrix: {M: {M: 1.0}, F: {F: 1.0}}}\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.csv"
    # After local suppression the release check counts a blank as any value (sdcMicro's
    # rule): (F, blank) matches the two (F, 40) records, (M, blank) the two (M, 30), so
    # k = 3 by hand and the release passes k = 2 without --release-anyway.
    report = tmp_path / "report.json"
    assert (
        main(
            [
                "apply",
                str(data),
                "--recipe",
                str(recipe),
                "--out",
                str(out),
                "--qi",
                "sex,age",
                "--report",
                str(report),
            ]
        )
        == 0
    )
    check = json.loads(report.read_text())["release_check"]
    assert check["passed"] and check["k"] == 3 and check["missing"] == "sdcmicro"
    released = pd.read_csv(out)
    assert released["age"].isna().tolist() == [False, False, False, False, True, True]
    assert released["income"].tolist() == pytest.approx([52 / 3] * 3 + [161 / 3] * 3)
    assert released["sex"].tolist() == ["M", "M", "F", "F", "F", "M"]


def test_risk_missing_as_wildcard(tmp_path, capsys):
    # (F, blank) matches both F records under sdcMicro's rule: classes of 2, 3, 3 -> k 2;
    # as a value of its own it is alone -> k 1.
    data = tmp_path / "s.csv"
    pd.DataFrame({"sex": ["M", "M", "F", "F", "F"], "age": [30, 30, 40, 40, None]}).to_csv(
        data, index=False
    )
    assert main(["risk", str(data), "--qi", "sex,age", "--missing", "sdcmicro", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["k"] == 1 and out["k_missing_as_wildcard"] == 2


@pytest.mark.parametrize("weight", ["inf", "1e309", "nan", "-5"])
def test_a_weight_that_is_not_a_finite_number_of_at_least_1_is_refused(tmp_path, capsys, weight):
    """Issue 27: 'inf' gave NaN figures, JSON with NaN and RuntimeWarnings naming the
    server's source files; '-5' was shown as np.int64(-5)."""
    data = tmp_path / "survey.csv"
    (tmp_path / "survey.csv").write_text(f"a,w\nx,2\nx,{weight}\ny,3\n", encoding="utf-8")
    assert main(["risk", str(data), "--qi", "a", "--weights", "w", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert "row 2" in captured.err and "np." not in captured.err
    assert ".py" not in captured.err  # no warning naming a source file


def test_weights_beyond_any_population_are_refused(tmp_path, capsys):
    # Two weights of 1e308 add up to inf in F_k: more than any population anyway.
    data = tmp_path / "survey.csv"
    (tmp_path / "survey.csv").write_text("a,w\nx,1e308\nx,1e308\n", encoding="utf-8")
    assert main(["risk", str(data), "--qi", "a", "--weights", "w"]) == 2
    err = capsys.readouterr().err
    assert "row 1" in err and "at most" in err


def test_a_figure_that_is_not_finite_is_null_in_json_and_warnings_name_no_file(
    tmp_path, capsys, monkeypatch
):
    """Whatever still slips through (a library's RuntimeWarning, a NaN figure): stdout
    stays valid JSON and stderr shows the warning's text, not the server's source path."""
    import warnings

    from core.cli import risk as risk_command
    from core.survey_risk import survey_risk as real

    def leaky(*args, **kwargs):
        warnings.warn("divide by zero encountered in divide", RuntimeWarning, stacklevel=1)
        result = real(*args, **kwargs)
        monkeypatch.setattr(
            type(result),
            "to_dict",
            lambda self: {"global_risk": float("nan"), "worst": float("inf")},
        )
        return result

    monkeypatch.setattr(risk_command, "survey_risk", leaky)
    data = tmp_path / "survey.csv"
    pd.DataFrame({"a": ["x", "x", "y"], "w": [2, 2, 4]}).to_csv(data, index=False)
    assert main(["risk", str(data), "--qi", "a", "--weights", "w", "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out, parse_constant=lambda name: pytest.fail(f"JSON has {name}"))
    assert out["global_risk"] is None and out["worst"] is None
    assert captured.err == "warning: divide by zero encountered in divide\n"
