"""Tests of core.recipe: replay, seeds, secrets, validation, script export, undo/redo."""

from __future__ import annotations

import codecs
import hashlib
import hmac
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from core.errors import ParameterError, RecipeError, SecretError
from core.io import read_table
from core.privacy import k_anonymity
from core.recipe import EditHistory, Recipe, apply_recipe, to_python_script

ROOT = Path(__file__).resolve().parents[2]
QI = ["Age", "Gender", "Occupation"]

# The guide's Annex C taxi example as a recipe: 10-year age bands, occupations grouped,
# records below k = 5 suppressed.
TAXI_RECIPE = """
name: taxi (PDPC guide, Annex C)
seed: 11
quasi_identifiers: [Age, Gender, Occupation]
k: 5
steps:
  - {step: remove, columns: [Serial number]}
  - {step: generalise, column: Age, edges: [21, 31, 41], labels: ["21 to 30", "31 to 40"]}
  - step: generalise
    column: Occupation
    mapping:
      Assistant Data Protection Officer: Data Protection Officer
      Chief Privacy Officer: Data Protection Officer
      Regional Data Protection Officer: Data Protection Officer
      Deputy Data Protection Officer: Data Protection Officer
      "Manager, DPO Office": Data Protection Officer
      Lead IT Consultant: IT
      Database Administrator: IT
      Programmer: IT
      IT Analyst: IT
      UX Designer: IT
  - {step: suppress_records, below_k: 5, quasi_identifiers: [Age, Gender, Occupation]}
  - {step: swap, columns: [Average number of trips per week]}
"""


@pytest.fixture
def taxi() -> pd.DataFrame:
    return read_table(ROOT / "sample_data" / "guide_annex_c_taxi.csv")


def test_taxi_recipe_reproduces_annex_c(taxi):
    original = taxi.copy()
    result = apply_recipe(taxi, Recipe.from_yaml(TAXI_RECIPE))
    pd.testing.assert_frame_equal(taxi, original)  # input untouched
    assert len(result.data) == 10  # the banker (serial 3) is suppressed
    assert "Banker" not in set(result.data["Occupation"])
    assert k_anonymity(result.data, QI) == 5
    assert [entry.rows_after for entry in result.log] == [11, 11, 11, 10, 10]
    # swapping keeps the multiset of trips of the 10 kept records
    kept_trips = original.drop(index=2)["Average number of trips per week"]
    assert sorted(result.data["Average number of trips per week"]) == sorted(kept_trips)


def test_same_seed_same_output_and_different_seed_differs(taxi):
    recipe = Recipe.from_yaml(TAXI_RECIPE)
    first = apply_recipe(taxi, recipe).data
    again = apply_recipe(taxi, recipe).data
    pd.testing.assert_frame_equal(first, again)
    other = Recipe(recipe.steps, seed=12, meta=recipe.meta)
    differs = [
        not apply_recipe(taxi, Recipe(recipe.steps, seed=s, meta=recipe.meta)).data.equals(first)
        for s in range(12, 17)
    ]
    assert any(differs)
    assert apply_recipe(taxi, other).seed == 12


def test_recipe_without_seed_records_the_one_it_drew(taxi):
    recipe = Recipe.from_yaml(TAXI_RECIPE.replace("seed: 11\n", ""))
    result = apply_recipe(taxi, recipe)
    replay = apply_recipe(taxi, Recipe(recipe.steps, seed=result.seed, meta=recipe.meta))
    pd.testing.assert_frame_equal(result.data, replay.data)


def test_yaml_round_trip():
    recipe = Recipe.from_yaml(TAXI_RECIPE)
    assert Recipe.from_yaml(recipe.to_yaml()) == recipe


@pytest.mark.parametrize(
    "text, message",
    [
        ("steps: [{step: explode, column: a}]", "unknown technique 'explode'"),
        ("steps: [{step: mask}]", "missing parameter"),
        ("steps: [{step: mask, column: a, colour: red}]", "unknown parameter"),
        ("steps: [{step: pseudonymise, column: a, method: hmac, key: abc}]", "never hold a key"),
        ("steps: [{step: pseudonymise, column: a, method: hmac}]", "key_env"),
        ("steps: [{step: generalise, column: a}]", "needs one of"),
        (
            "steps: [{step: suppress_records, where: {column: a, equals: 1, in: [2]}}]",
            "exactly one",
        ),
        ("steps: {step: remove}", "must be a list"),
        ("colour: red\nsteps: []", "Unknown recipe field"),
        ("steps: [[", "not valid YAML"),
    ],
)
def test_bad_recipes_are_refused_with_a_clear_message(text, message):
    with pytest.raises(RecipeError, match=message):
        Recipe.from_yaml(text)


def test_yaml_cannot_execute_code():
    with pytest.raises(RecipeError):
        Recipe.from_yaml("!!python/object/apply:os.system ['echo pwned']")


def test_failing_step_is_named(taxi):
    recipe = Recipe.from_yaml("steps: [{step: generalise, column: Salary, width: 10}]")
    with pytest.raises(Exception, match=r"Step 1 \(generalise\).*'Salary'"):
        apply_recipe(taxi, recipe)


def test_hmac_key_comes_from_environment_and_never_reaches_the_recipe(taxi, monkeypatch):
    key = "correct horse battery staple 2026"
    monkeypatch.setenv("ANON_TAXI_KEY", key)
    recipe = Recipe.from_yaml(
        "steps: [{step: pseudonymise, column: Occupation, method: hmac, key_env: ANON_TAXI_KEY}]"
    )
    result = apply_recipe(taxi, recipe)
    assert result.data["Occupation"].str.len().eq(16).all()
    assert key not in recipe.to_yaml()
    assert key not in to_python_script(recipe)
    assert "Occupation" in result.mappings
    monkeypatch.delenv("ANON_TAXI_KEY")
    with pytest.raises(SecretError, match="ANON_TAXI_KEY"):
        apply_recipe(taxi, recipe)


@pytest.mark.parametrize("key_env", ["HOME", "PATH", "ANON_DATA", "[ANON_A, ANON_B]"])
def test_hmac_key_env_outside_the_anon_prefix_is_refused(key_env):
    text = f"steps: [{{step: pseudonymise, column: Occupation, method: hmac, key_env: {key_env}}}]"
    with pytest.raises(RecipeError, match=r"Step 1: .key_env.*ANON_"):
        Recipe.from_yaml(text)


def test_keys_passed_explicitly_are_used_and_never_recorded(taxi, monkeypatch):
    monkeypatch.delenv("ANON_TAXI_KEY", raising=False)
    key = b"a key held by the caller only 42"
    recipe = Recipe.from_yaml(
        "seed: 3\nsteps: [{step: pseudonymise, column: Occupation, method: hmac, "
        "key_env: ANON_TAXI_KEY}]"
    )
    result = apply_recipe(taxi, recipe, keys={"ANON_TAXI_KEY": key})
    # Independent check: the pseudonym is the first 16 hex digits of HMAC-SHA256(key, value).
    first = taxi["Occupation"].iloc[0]
    expected = hmac.new(key, str(first).encode("utf-8"), hashlib.sha256).hexdigest()[:16]
    assert result.data["Occupation"].iloc[0] == expected
    assert "ANON_TAXI_KEY" not in os.environ
    assert key.decode() not in recipe.to_yaml() + to_python_script(recipe) + repr(result.log)
    with pytest.raises(SecretError, match="at least 16"):
        apply_recipe(taxi, recipe, keys={"ANON_TAXI_KEY": b"too short"})


def test_random_pseudonyms_keep_a_mapping_table(taxi):
    recipe = Recipe.from_yaml("steps: [{step: pseudonymise, column: Serial number}]")
    result = apply_recipe(taxi, recipe)
    mapping = result.mappings["Serial number"]
    joined = result.data.merge(mapping, left_on="Serial number", right_on="pseudonym")
    assert sorted(joined["Serial number_y"]) == sorted(taxi["Serial number"])


def test_exported_script_replays_the_recipe(taxi, tmp_path):
    recipe = Recipe.from_yaml(TAXI_RECIPE)
    script = tmp_path / "replay.py"
    script.write_text(to_python_script(recipe), encoding="utf-8")
    out = tmp_path / "out.csv"
    source = ROOT / "sample_data" / "guide_annex_c_taxi.csv"
    subprocess.run(
        [sys.executable, str(script), str(source), str(out)],
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
    )
    expected = apply_recipe(taxi, recipe).data.reset_index(drop=True)
    pd.testing.assert_frame_equal(read_table(out), expected, check_dtype=False)


def test_edit_history_undo_redo():
    history = EditHistory()
    first = history.push(history.current.add({"step": "remove", "columns": ["a"]}))
    history.push(first.add({"step": "round", "column": "b", "base": 5}))
    assert len(history.current.steps) == 2
    assert len(history.undo().steps) == 1
    assert len(history.redo().steps) == 2
    history.undo()
    history.push(first.add({"step": "mask", "column": "c", "keep_first": 2}))
    assert not history.can_redo  # a new edit drops the undone branch
    assert history.current.steps[-1]["step"] == "mask"


def test_reorder_and_remove_steps():
    recipe = Recipe.from_yaml(TAXI_RECIPE)
    moved = recipe.move_step(4, 0)
    assert moved.steps[0]["step"] == "swap"
    assert len(moved.remove_step(0).steps) == 4
    assert recipe.steps[0]["step"] == "remove"  # the original is immutable


def test_random_pseudonyms_replay_only_with_the_secret_seed(taxi):
    recipe = Recipe.from_yaml("seed: 1\nsteps: [{step: pseudonymise, column: Occupation}]")
    first = apply_recipe(taxi, recipe, pseudonym_seed=424242)
    again = apply_recipe(taxi, recipe, pseudonym_seed=424242)
    pd.testing.assert_frame_equal(first.data, again.data)
    fresh = [apply_recipe(taxi, recipe).data["Occupation"].tolist() for _ in range(3)]
    assert len({tuple(tokens) for tokens in fresh}) > 1  # OS entropy without the secret
    assert "424242" not in recipe.to_yaml() + to_python_script(recipe)


# The classic "billion laughs", hidden in a field a recipe accepts: nine levels of nine
# aliases each expand to 9**9 (387 million) strings once anything walks the value.
BILLION_LAUGHS = """\
name: laughs
description:
  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
  g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
  h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
  i: [*h,*h,*h,*h,*h,*h,*h,*h,*h]
steps:
  - {step: remove, columns: [Favourite show]}
"""


def test_billion_laughs_recipe_is_refused_quickly():
    started = time.perf_counter()
    with pytest.raises(RecipeError, match=r"anchor or alias .* line 3, column 6"):
        Recipe.from_yaml(BILLION_LAUGHS)
    assert time.perf_counter() - started < 1.0


def test_a_single_alias_is_refused_too():
    text = "steps:\n  - &s {step: remove, columns: [name]}\n  - *s\n"
    with pytest.raises(RecipeError, match="line 2, column 5"):
        Recipe.from_yaml(text)


def test_recipe_columns_are_checked_against_the_input_table(taxi):
    from core.errors import ColumnNotFoundError

    misspelt = Recipe.from_yaml("quasi_identifiers: [Age, Gendr]\nsteps: []\n")
    with pytest.raises(ColumnNotFoundError, match="'Gendr'"):
        apply_recipe(taxi, misspelt)
    with pytest.raises(ColumnNotFoundError, match="'Trips'"):
        apply_recipe(taxi, Recipe.from_yaml("sensitive: Trips\nsteps: []\n"))
    # a quasi-identifier the recipe itself removes is a valid name of the input
    removed = Recipe.from_yaml(
        "quasi_identifiers: [Age]\nsteps:\n  - {step: remove, columns: [Age]}\n"
    )
    assert "Age" not in apply_recipe(taxi, removed).data.columns
    with pytest.raises(RecipeError, match="quasi_identifiers"):
        Recipe.from_yaml("quasi_identifiers: {Age: 1}\nsteps: []\n")


@pytest.mark.parametrize("seed", ["abc", 1.5, -3, True, [1]])
def test_a_step_seed_that_is_not_a_whole_number_is_refused_at_load(seed):
    step = {"step": "swap", "columns": ["sex"], "seed": seed}
    with pytest.raises(RecipeError, match=r"Step 2 \(swap\): 'seed' must be a whole number >= 0"):
        Recipe(steps=({"step": "remove", "columns": ["name"]}, step))
    with pytest.raises(RecipeError, match=r"Step 1 \(swap\): 'seed' must be a whole number"):
        Recipe().add(step)


def test_a_recipe_seed_that_is_not_a_whole_number_is_refused():
    with pytest.raises(RecipeError, match=r"The recipe's 'seed' must be a whole number >= 0"):
        Recipe.from_yaml("seed: abc\nsteps: [{step: swap, columns: [sex]}]\n")


def test_a_recipe_file_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("steps:\n  - {step: remove, columns: [café]}\n".encode("latin-1"))
    with pytest.raises(RecipeError, match=r"not UTF-8 text: byte 0xe9 on line 2"):
        Recipe.load(path)
    path.write_bytes(codecs.BOM_UTF8 + "steps:\n  - {step: remove, columns: [café]}\n".encode())
    assert Recipe.load(path).steps == ({"step": "remove", "columns": ["café"]},)


def test_a_recipe_path_that_is_not_a_regular_file_is_refused(tmp_path):
    with pytest.raises(RecipeError, match="not a regular file"):
        Recipe.load("/dev/zero")
    fifo = tmp_path / "recipe.yaml"
    os.mkfifo(fifo)  # no writer: opening it would block forever
    with pytest.raises(RecipeError, match="not a regular file"):
        Recipe.load(fifo)
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (2**20 + 1))
    with pytest.raises(RecipeError, match="larger than 1 MiB"):
        Recipe.load(big)


def test_a_list_used_twice_is_saved_in_full_and_reads_back():
    # one Python list in the recipe's fields and in a step: safe_dump would write &id001
    # and *id001, which the loader refuses
    qi = ["Age", "Gender"]
    recipe = Recipe(
        steps=({"step": "suppress_records", "below_k": 2, "quasi_identifiers": qi},),
        meta={"quasi_identifiers": qi},
    )
    text = recipe.to_yaml()
    assert "&" not in text and "*" not in text
    assert Recipe.from_yaml(text) == recipe


# --- A column pseudonymised twice (issue 27): its table leads back to the person -------


def test_a_column_pseudonymised_twice_keeps_a_table_to_the_original(taxi):
    recipe = Recipe.from_yaml(
        "seed: 3\nsteps: [{step: pseudonymise, column: Serial number},\n"
        "        {step: pseudonymise, column: Serial number, digits: 8}]"
    )
    result = apply_recipe(taxi, recipe)
    mapping = result.mappings["Serial number"]
    # Each released pseudonym (8 digits, the second step's) leads to the person's serial
    # number, not to the first step's pseudonym.
    back = dict(zip(mapping["pseudonym"], mapping["Serial number"], strict=True))
    assert [back[p] for p in result.data["Serial number"]] == taxi["Serial number"].tolist()
    assert mapping["Serial number"].dtype == taxi["Serial number"].dtype


def test_pseudonymising_a_double_coded_column_again_is_refused(taxi):
    recipe = Recipe.from_yaml(
        "seed: 3\nsteps: [{step: pseudonymise, method: double, column: Serial number},\n"
        "        {step: pseudonymise, column: Serial number}]"
    )
    with pytest.raises(ParameterError, match=r"Step 2 .*double coding.*once"):
        apply_recipe(taxi, recipe)


# --- Absurd parameters (issue 27): bounded, and YAML's text numbers named ----------------


@pytest.mark.parametrize(
    ("step", "message"),
    [
        # a band 1e-300 wide labelled values '[inf, inf)'; a base of 1e-320 rounded to inf
        ("{step: generalise, column: age, width: 1.0e-300}", r"'width' must be between 1e-09"),
        ("{step: round, column: income, base: 1.0e-320}", r"'base' must be between 1e-09"),
        ("{step: round, column: income, base: 1.0e+308}", r"'base' must be between.*1e\+15"),
        # YAML 1.1 reads a number without a decimal point, or an exponent without its
        # sign, as text: the message says so and how to write it
        ("{step: round, column: income, base: 1e3}", r"YAML read '1e3' as text.*1\.0e\+3"),
        ("{step: generalise, column: age, width: 1.0e308}", r"YAML read '1.0e308' as text"),
    ],
)
def test_absurd_parameters_are_refused_with_a_clear_message(step, message):
    df = pd.DataFrame({"age": [20, 31, 45], "income": [1000.0, 2500.0, 4000.0]})
    with pytest.raises(ParameterError, match=message) as error:
        apply_recipe(df, Recipe.from_yaml(f"seed: 1\nsteps: [{step}]"))
    assert "\n" not in str(error.value)


def test_a_column_list_left_empty_is_a_recipe_error():
    """Found by fuzzing (issue 27): 'quasi_identifiers:' with no value raised TypeError."""
    with pytest.raises(RecipeError, match=r"Step 1: .*list of column names, got None"):
        Recipe.from_yaml("steps: [{step: suppress_records, below_k: 2, quasi_identifiers}]")


@pytest.mark.parametrize(
    "text", ["[" * 5000 + "]" * 5000, "- " * 5000 + "1", "{a: " * 3000 + "1" + "}" * 3000]
)
def test_a_recipe_nested_too_deeply_is_a_recipe_error(text):
    """Issue 27: PyYAML recursed until Python's limit (RecursionError, a traceback)."""
    with pytest.raises(RecipeError, match="nested too deeply"):
        Recipe.from_yaml(text)


def test_a_recipe_nested_deep_is_refused_at_once():
    """1,946 '[' took PyYAML 1.5 s (its time grows with the square of the depth)."""
    started = time.perf_counter()
    with pytest.raises(RecipeError, match="more than 64 brackets"):
        Recipe.from_yaml("[" * 1946)
    assert time.perf_counter() - started < 0.5
    assert Recipe.from_yaml("steps: [{step: remove, columns: [a]}]").steps  # a real one reads


def test_a_recipe_text_larger_than_a_recipe_file_may_be_is_refused():
    # A recipe kept in a workspace someone sent is read from text, not from a file.
    with pytest.raises(RecipeError, match="larger than 1 MiB"):
        Recipe.from_yaml("# " + "x" * 2**20 + "\nsteps: []\n")


def test_a_step_marked_as_a_trade_off_step_runs_as_the_same_step_and_keeps_its_mark(taxi):
    """Issue 30: Explore trade-offs marks the steps of an applied option (origin:
    trade-off) so that another option replaces them. The mark changes nothing the step
    does, survives the YAML round trip and the exported script; any other origin is refused."""
    marked = TAXI_RECIPE.replace(
        "{step: suppress_records, below_k: 5,",
        "{step: suppress_records, origin: trade-off, below_k: 5,",
    )
    recipe = Recipe.from_yaml(marked)
    assert recipe.steps[3]["origin"] == "trade-off"
    assert Recipe.from_yaml(recipe.to_yaml()) == recipe
    plain = apply_recipe(taxi, Recipe.from_yaml(TAXI_RECIPE)).data
    pd.testing.assert_frame_equal(apply_recipe(taxi, recipe).data, plain)
    assert "origin" not in to_python_script(recipe)
    with pytest.raises(RecipeError, match="'origin' 'elsewhere'; it may only be 'trade-off'"):
        Recipe.from_yaml("steps: [{step: remove, columns: [a], origin: elsewhere}]")
