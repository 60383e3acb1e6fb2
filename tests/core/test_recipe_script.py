"""The exported Python script (core.recipe.to_python_script) never runs text from data.

Issue 11, item 1: a column name, value, mapping label, file name or recipe name written raw
into the script (or into one of its comments or its docstring) could end a string or a
line and run code. These tests run the exported script on a table whose column names are
crafted to do that, and fuzz the generator with arbitrary text.
"""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import tokenize
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import RecipeError
from core.io import write_table
from core.recipe import Recipe, apply_recipe, to_python_script
from core.techniques.pseudonymisation import decrypt_table

ROOT = Path(__file__).resolve().parents[2]

PAYLOAD = "import os; os.system('touch MARKER')"

#: Column names (and values) that break out of a string, a comment or a docstring when
#: written raw: a newline, quotes of each kind, triple quotes, a trailing backslash, a
#: carriage return and the other characters Python or editors treat as line breaks.
EVIL_NAMES = [
    f"nric\n {PAYLOAD} #",
    f"nric\n    {PAYLOAD} #",
    f"nric'); {PAYLOAD}; ('",
    f'nric"); {PAYLOAD}; ("',
    f'nric"""; {PAYLOAD}; """x',
    f"nric'''; {PAYLOAD}; '''x",
    f"nric\\'); {PAYLOAD} #",
    f"nric\r{PAYLOAD} #",
    f"nric\u2028{PAYLOAD} #",
    f"nric\x0b{PAYLOAD} #",
    f"nric\x0c{PAYLOAD} #",
    f"nric\x85{PAYLOAD} #",
    f"nric\\\n{PAYLOAD} #",
]


def _recipe(name: str) -> Recipe:
    """Every place a column name, a value, a label and the recipe's name reach the script."""
    return Recipe(
        steps=(
            {"step": "generalise", "column": name, "mapping": {name: f"label {name}"}},
            {"step": "suppress_records", "where": {"column": name, "equals": f"x{name}"}},
            {"step": "mask", "column": name, "keep_first": 2, "char": "*"},
            {"step": "swap", "columns": ["other"]},
        ),
        seed=7,
        meta={"name": name, "quasi_identifiers": [name], "description": name},
    )


def _table(name: str) -> pd.DataFrame:
    return pd.DataFrame({name: [name, "S1234567D", f"x{name}", "T7654321A"], "other": [1, 2, 3, 4]})


@pytest.mark.parametrize("name", EVIL_NAMES, ids=range(len(EVIL_NAMES)))
def test_exported_script_does_not_run_code_from_column_names(name, tmp_path):
    table = _table(name)
    source = tmp_path / "input.parquet"  # Parquet keeps the name exactly (CSV strips it)
    write_table(table, source)
    script = tmp_path / "replay.py"
    script.write_text(to_python_script(_recipe(name)), encoding="utf-8")
    out = tmp_path / "out.parquet"
    run = subprocess.run(
        [sys.executable, str(script), str(source), str(out)],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    assert not (tmp_path / "MARKER").exists()
    assert run.returncode == 0, run.stderr
    expected = tmp_path / "expected.parquet"
    write_table(apply_recipe(table, _recipe(name)).data, expected)
    assert out.read_bytes() == expected.read_bytes()
    released = pd.read_parquet(out)
    assert list(released.columns) == [name, "other"]
    assert len(released) == 3  # the record equal to "x" + name was suppressed


def test_recipe_name_cannot_close_the_docstring(tmp_path):
    recipe = Recipe(meta={"name": f'"""\n{PAYLOAD}\n"""'})
    code = to_python_script(recipe)
    namespace: dict[str, object] = {"__name__": "not_main"}
    exec(compile(code, "replay.py", "exec"), namespace)  # defines main, runs nothing
    assert namespace["RECIPE_NAME"] == recipe.meta["name"]
    assert ast.get_docstring(ast.parse(code)) == (
        "Replays an anonymisation recipe (PDPC Guide to Basic Anonymisation).\n\n"
        "Usage: python this_script.py INPUT OUTPUT\n"
        "Generated from a recipe; needs the 'core' package of this project on the path.\n"
        "Keys are read from environment variables; none is written here."
    )


def test_hierarchy_file_name_is_a_literal_and_hostile_key_variable_is_refused():
    evil = f"h.csv')\n{PAYLOAD}\n('"
    recipe = Recipe(steps=({"step": "generalise", "column": "a", "hierarchy": evil, "level": 1},))
    calls = [n for n in ast.walk(ast.parse(to_python_script(recipe))) if isinstance(n, ast.Call)]
    refs = [c for c in calls if getattr(c.func, "id", "") == "read_hierarchy"]
    assert [ast.literal_eval(c.args[0]) for c in refs] == [evil]
    assert not any(getattr(c.func, "attr", "") == "system" for c in calls)
    # A key variable name can never carry code: only ANON_ names are accepted at all.
    with pytest.raises(RecipeError, match="ANON_"):
        Recipe(steps=({"step": "pseudonymise", "column": "b", "method": "hmac", "key_env": evil},))


def test_numpy_and_date_parameters_become_plain_literals():
    import datetime as dt

    recipe = Recipe(
        steps=(
            {"step": "round", "column": "a", "base": np.int64(5)},
            {"step": "noise", "column": "b", "scale": np.float64(0.5)},
            {"step": "age_from_dob", "column": "c", "reference_date": dt.date(2020, 1, 31)},
        ),
        seed=1,
    )
    code = to_python_script(recipe)
    assert "np." not in code and "datetime" not in code
    assert "base=5" in code and "scale=0.5" in code and "reference_date='2020-01-31'" in code


def test_parameters_that_are_not_plain_data_are_refused():
    recipe = Recipe(steps=({"step": "round", "column": "a", "base": object()},))
    with pytest.raises(RecipeError, match="cannot be written in a Python script"):
        to_python_script(recipe)


def _string_constants(code: str) -> set[str]:
    tree = ast.parse(code)
    return {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _comments(code: str) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return [t.string for t in tokens if t.type == tokenize.COMMENT]


_PLACEHOLDER = "placeholder-column"
_BASELINE = to_python_script(_recipe(_PLACEHOLDER))
_DERIVED = {_PLACEHOLDER, f"label {_PLACEHOLDER}", f"x{_PLACEHOLDER}"}
# The baseline's constants and comments, read once (not for each of the 300 names below).
_FIXED_CONSTANTS = _string_constants(_BASELINE) - _DERIVED
_BASELINE_COMMENTS = _comments(_BASELINE)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(min_size=1, max_size=40))
def test_any_column_name_appears_only_as_string_literals(name):
    code = to_python_script(_recipe(name))
    # The script parses, its comments are the same whatever the name, and the only string
    # constants that differ from a harmless name's script are the name and its derivations.
    constants = _string_constants(code)
    assert constants - _FIXED_CONSTANTS <= {name, f"label {name}", f"x{name}"}
    assert name in constants
    assert _comments(code) == _BASELINE_COMMENTS
    namespace: dict[str, object] = {"__name__": "not_main"}
    exec(compile(code, "replay.py", "exec"), namespace)
    assert namespace["RECIPE_NAME"] == name


def test_an_unnamed_recipe_has_no_empty_name_in_its_script():
    code = to_python_script(Recipe(steps=[{"step": "remove", "columns": ["a"]}]))
    assert "''" not in code and "RECIPE_NAME = None" in code
    namespace: dict[str, object] = {"__name__": "not_main"}
    exec(compile(code, "replay.py", "exec"), namespace)
    assert namespace["RECIPE_NAME"] is None


def test_mapping_file_name_stays_next_to_the_output_and_is_never_replaced(tmp_path):
    name = "../../outside"
    table = pd.DataFrame({name: ["S1", "S2", "S3"], "other": [1, 2, 3]})
    source = write_table(table, tmp_path / "input.parquet")
    out_dir = tmp_path / "a" / "b"
    out_dir.mkdir(parents=True)
    recipe = Recipe(steps=({"step": "pseudonymise", "column": name},), seed=1)
    script = tmp_path / "replay.py"
    script.write_text(to_python_script(recipe), encoding="utf-8")

    passphrase = "a-mapping-passphrase-1234"

    def run(**env: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(script), str(source), str(out_dir / "out.csv")],
            cwd=tmp_path,
            env={"PYTHONPATH": str(ROOT), **env},
            capture_output=True,
            text=True,
        )

    # Without the passphrase nothing is written: mapping tables are only written encrypted.
    refused = run()
    assert refused.returncode != 0 and "ANON_MAPPING_PASSPHRASE" in refused.stderr
    assert "Traceback" not in refused.stderr and not any(out_dir.iterdir())
    first = run(ANON_MAPPING_PASSPHRASE=passphrase)
    assert first.returncode == 0, first.stderr
    written = sorted(p.name for p in out_dir.iterdir())
    assert written[0] == "out.csv" and written[1].startswith("out.csv.mapping-")
    assert len(written) == 2 and "/" not in written[1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "input.parquet", "replay.py"]
    assert written[1].endswith(".enc") and (out_dir / written[1]).stat().st_mode & 0o777 == 0o600
    mapping = (out_dir / written[1]).read_bytes()
    table = decrypt_table(mapping, passphrase)
    assert sorted(table[name]) == ["S1", "S2", "S3"]  # the identities, readable with the key
    second = run(ANON_MAPPING_PASSPHRASE=passphrase)  # random pseudonyms: a new mapping
    assert second.returncode != 0 and "never replaced" in second.stderr
    assert (out_dir / written[1]).read_bytes() == mapping


def test_the_script_keeps_a_twice_pseudonymised_column_s_table_to_the_person(tmp_path):
    """Issue 27: the script kept only the second step's table (new pseudonym -> first
    pseudonym); it now writes one leading from the released pseudonyms to the people."""
    table = pd.DataFrame({"nric": ["S1", "S2", "S3"], "other": [1, 2, 3]})
    source = write_table(table, tmp_path / "input.csv")
    recipe = Recipe(
        steps=(
            {"step": "pseudonymise", "column": "nric"},
            {"step": "pseudonymise", "column": "nric", "digits": 8},
        ),
        seed=1,
    )
    script = tmp_path / "replay.py"
    script.write_text(to_python_script(recipe), encoding="utf-8")
    passphrase = "a-mapping-passphrase-1234"
    run = subprocess.run(
        [sys.executable, str(script), str(source), str(tmp_path / "out.csv")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "ANON_MAPPING_PASSPHRASE": passphrase},
    )
    assert run.returncode == 0, run.stderr
    released = pd.read_csv(tmp_path / "out.csv", dtype=str)
    (mapping_file,) = tmp_path.glob("out.csv.mapping-*.enc")
    mapping = decrypt_table(mapping_file.read_bytes(), passphrase)
    back = dict(zip(mapping["pseudonym"], mapping["nric"], strict=True))
    assert [back[p] for p in released["nric"]] == ["S1", "S2", "S3"]
