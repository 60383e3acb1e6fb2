"""The command line's local recoding: ``search --recode-locally`` and its recipe replayed
by ``apply`` (core.cli; core.local_recoding)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from core import cli


@pytest.fixture
def small(tmp_path):
    """The hand-made table of tests/core/test_local_recoding.py and its two hierarchies."""
    rows = [("A1", 10)] * 10 + [("B1", 20)] * 10 + [("A2", 11), ("A1", 11)]
    data = tmp_path / "small.csv"
    pd.DataFrame(rows, columns=["zip", "age"]).to_csv(data, index=False)
    (tmp_path / "zip.csv").write_text("A1;A;*\nA2;A;*\nB1;B;*\nB2;B;*\n", encoding="utf-8")
    (tmp_path / "age.csv").write_text(
        "10;10-19;*\n11;10-19;*\n20;20-29;*\n21;20-29;*\n", encoding="utf-8"
    )
    return [
        str(data),
        f"--hierarchy=zip={tmp_path / 'zip.csv'}",
        f"--hierarchy=age={tmp_path / 'age.csv'}",
        "--k",
        "2",
        "--max-suppressed",
        "0.1",
    ]


def test_search_recodes_locally_and_apply_replays_it(small, tmp_path, capsys):
    recipe = tmp_path / "recipe.yaml"
    assert (
        cli.main(["search", *small, "--recode-locally", "--recipe-out", str(recipe), "--json"]) == 0
    )
    local = json.loads(capsys.readouterr().out)["local_recoding"]
    # Hand calculation (tests/core/test_local_recoding.py): the global optimum (0, 0)
    # suppresses (A2, 11) and (A1, 11), loss 1/11; recoded as (A, 11): loss 1/66.
    assert local["rounds"] == [{"zip": 1, "age": 0}]
    assert (local["suppressed_before"], local["suppressed_after"], local["records_kept"]) == (
        2,
        0,
        2,
    )
    assert local["loss_before"] == pytest.approx(1 / 11)
    assert local["loss_after"] == pytest.approx(1 / 66)
    assert "kept 2 of the 2 records" in local["explanation"]
    out = tmp_path / "out.csv"
    assert cli.main(["apply", small[0], "--recipe", str(recipe), "--out", str(out)]) == 0
    released = pd.read_csv(out)
    assert len(released) == 22
    assert released.tail(2).to_numpy().tolist() == [["A", 11], ["A", 11]]


def test_search_text_says_how_many_records_were_kept(small, capsys):
    assert cli.main(["search", *small, "--recode-locally"]) == 0
    assert "Local recoding kept 2 of the 2 records" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--recode-step-share", "0.1"], "--recode-step-share goes with --recode-locally"),
        (["--recode-locally", "--measure", "height"], "--measure height cannot be used"),
    ],
)
def test_bad_options_are_named(small, capsys, extra, message):
    assert cli.main(["search", *small, *extra]) == 2
    assert message in capsys.readouterr().err


def test_recipe_out_never_replaces_a_file_without_force(small, tmp_path, capsys):
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("keep me", encoding="utf-8")
    assert cli.main(["search", *small, "--recipe-out", str(recipe)]) == 2
    assert recipe.read_text(encoding="utf-8") == "keep me"
    assert "--recipe-out" in capsys.readouterr().err
    assert cli.main(["search", *small, "--recipe-out", str(recipe), "--force"]) == 0
    assert "suppress_records" in recipe.read_text(encoding="utf-8")


def test_recipe_out_never_replaces_a_hierarchy_it_reads_even_with_force(small, tmp_path, capsys):
    hierarchy = tmp_path / "age.csv"
    before = hierarchy.read_bytes()
    assert cli.main(["search", *small, "--recipe-out", str(hierarchy), "--force"]) == 2
    assert hierarchy.read_bytes() == before
    assert "age.csv" in capsys.readouterr().err


def test_recode_adaption_flags(small, capsys):
    """--recode-gs-factor 0 with the target's 10%: the hand-made table's one round still
    releases both records (ARX loss is not the measure, so the gsFactor only steers ARX's
    measures); the flags need --recode-locally."""
    assert (
        cli.main(
            [
                "search",
                *small,
                "--recode-locally",
                "--recode-gs-factor",
                "0",
                "--recode-adaption",
                "0.25",
                "--json",
            ]
        )
        == 0
    )
    local = json.loads(capsys.readouterr().out)["local_recoding"]
    assert local["records_kept"] == 2
    assert cli.main(["search", *small, "--recode-adaption", "0.25"]) == 2
    assert cli.main(["search", *small, "--recode-locally", "--recode-adaption", "2"]) == 2


def test_population_solver_iterations_flag(small, capsys):
    """ARX's iterationsPerTry reaches the target (and a step of 0 is refused by name)."""
    args = [
        "search",
        *small,
        "--population",
        "1000",
        "--max-population-uniqueness",
        "0.5",
        "--population-model",
        "pitman",
    ]
    assert cli.main([*args, "--population-solver-iterations", "15", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["optimum"] is not None
    assert cli.main([*args, "--population-solver-iterations", "0"]) == 2
    assert "'iterations_per_try'" in capsys.readouterr().err
