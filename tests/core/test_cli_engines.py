"""The command line's scale options: --no-impact, and the DuckDB and Spark engines."""

from __future__ import annotations

import json

import pandas as pd
import pytest

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


def _search(capsys, *args: str) -> dict:
    assert cli.main(["search", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _adult_search_args(adult_hierarchies_dir) -> list[str]:
    folder = adult_hierarchies_dir
    hierarchies = [
        f"--hierarchy={c}={folder / f'adult_hierarchy_{c}.csv'}"
        for c in ("age", "sex", "race", "marital-status", "education")
    ]
    return [
        str(folder / "adult.csv"),
        *hierarchies,
        "--k",
        "3",
        "--max-suppressed",
        "0.02",
        "--sensitive",
        "salary-class",
        "--l",
        "2",
        "--t",
        "0.3",
    ]


def test_search_on_duckdb_and_spark_finds_the_pandas_optimum(adult_hierarchies_dir, spark, capsys):
    """The engines hand the search a frequency table (one row per distinct combination);
    the optimum, the frontier and every figure are those of the search on the records."""
    pytest.importorskip("duckdb")
    args = _adult_search_args(adult_hierarchies_dir)
    expected = _search(capsys, *args, "--engine", "pandas")
    assert expected["optimum"]["suppressed"] > 0 and expected["optimum"]["sensitive_figures"]
    for engine in ("duckdb", "spark"):
        got = _search(capsys, *args, "--engine", engine)
        assert got.pop("engine") == engine
        expected_rest = {key: value for key, value in expected.items() if key != "engine"}
        assert _close(got, expected_rest)


def _close(got, expected) -> bool:
    """Equal structures, floats equal to 12 significant digits."""
    if isinstance(expected, dict):
        assert got.keys() == expected.keys()
        return all(_close(got[key], value) for key, value in expected.items())
    if isinstance(expected, list):
        assert len(got) == len(expected)
        return all(_close(g, e) for g, e in zip(got, expected, strict=True))
    if isinstance(expected, float):
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)
        return True
    assert got == expected
    return True


def test_search_hierarchy_option_must_name_a_column(adult_hierarchies_dir, capsys):
    data = str(adult_hierarchies_dir / "adult.csv")
    assert cli.main(["search", data, "--hierarchy", "age.csv"]) == 2
    err = capsys.readouterr().err
    assert "must be COLUMN=FILE" in err and err.count("\n") == 1


def test_population_uniqueness_on_duckdb_is_the_pandas_figure(adult_hierarchies_dir, capsys):
    """The engines hand risk their class-size table: --population gives the same estimate.
    ARX harness (tests/data/arx/PopModelsHarness.java): QIs sex, age, race, marital-status,
    N = 200,000 -> Dankar picks Zayatz, 0.003998051762816798."""
    pytest.importorskip("duckdb")
    data = str(adult_hierarchies_dir / "adult.csv")
    args = [data, "--qi", "sex,age,race,marital-status", "--no-impact", "--population", "2e5"]
    pandas = _risk(capsys, *args, "--engine", "pandas")
    duck = _risk(capsys, *args, "--engine", "duckdb")
    assert pandas["population_uniqueness"] == pytest.approx(0.003998051762816798, rel=1e-9)
    assert duck["population_uniqueness"] == pandas["population_uniqueness"]
    assert duck["population_model_used"] == pandas["population_model_used"] == "zayatz"


def test_search_on_duckdb_matches_numbers_with_gaps_to_the_hierarchy(tmp_path, capsys):
    """A CSV column of whole numbers with a blank is read as floats (39.0); the frequency
    table holds it as a Categorical of those numbers, and the search still finds '39' in
    the hierarchy (values are matched as text, 39 not 39.0), as on the records."""
    pytest.importorskip("duckdb")
    rows = [(39, "F"), (39, "F"), (40, "M"), (40, "M"), (41, "F"), ("", "M")] * 3
    data = tmp_path / "people.csv"
    data.write_text("age,sex\n" + "".join(f"{a},{s}\n" for a, s in rows))
    ages = tmp_path / "age.csv"
    ages.write_text("39;39-40;*\n40;39-40;*\n41;41-42;*\n")
    sexes = tmp_path / "sex.csv"
    sexes.write_text("F;*\nM;*\n")
    args = [
        str(data),
        f"--hierarchy=age={ages}",
        f"--hierarchy=sex={sexes}",
        "--k",
        "6",
        "--max-suppressed",
        "0.2",
    ]
    expected = _search(capsys, *args, "--engine", "pandas")
    got = _search(capsys, *args, "--engine", "duckdb")
    assert expected["optimum"] is not None
    expected.pop("engine"), got.pop("engine")
    assert _close(got, expected)
