"""Recipe steps for survey microdata (issue 14): local suppression, microaggregation,
PRAM and correlated noise replay from YAML, and as an exported Python script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from core.errors import ParameterError, RecipeError
from core.io import read_table
from core.recipe import Recipe, apply_recipe, to_python_script

ROOT = Path(__file__).resolve().parents[2]

TABLE = pd.DataFrame(
    {
        "sex": ["M", "M", "F", "F", "F", "M"],
        "age": [30, 30, 40, 40, 30, 50],
        "income": [10.0, 12.0, 30.0, 31.0, 50.0, 80.0],
    }
)

RECIPE = """
seed: 5
steps:
  - {step: local_suppression, quasi_identifiers: [sex, age], k: 2, importance: [sex]}
  - {step: microaggregate, columns: [income], k: 2, method: individual_ranking}
  - {step: pram, columns: [sex], matrix: {M: {M: 0.7, F: 0.3}, F: {F: 0.6, M: 0.4}}}
  - {step: correlated_noise, columns: [income], delta: 0.2}
"""


def test_recipe_replays_and_exports_with_every_survey_step(tmp_path):
    recipe = Recipe.from_yaml(RECIPE)
    first = apply_recipe(TABLE, recipe).data
    again = apply_recipe(TABLE, recipe).data
    pd.testing.assert_frame_equal(first, again)
    # (F, 30) and (M, 50) are alone: their ages (less important than sex) are blanked.
    assert first["age"].isna().tolist() == [False, False, False, False, True, True]
    assert not first["income"].equals(TABLE["income"])
    source = tmp_path / "in.csv"
    TABLE.to_csv(source, index=False)
    script = tmp_path / "replay.py"
    script.write_text(to_python_script(recipe), encoding="utf-8")
    out = tmp_path / "out.csv"
    subprocess.run(
        [sys.executable, str(script), str(source), str(out)],
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
    )
    # Noisy floats have 17 digits, which read_table keeps as text (its identifier rule).
    replayed = read_table(out).assign(income=lambda d: pd.to_numeric(d["income"]))
    pd.testing.assert_frame_equal(replayed, first, check_dtype=False)


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("{step: local_suppression, quasi_identifiers: [sex]}", "missing parameter"),
        ("{step: local_suppression, quasi_identifiers: [sex], k: 2, order: [sex]}", "unknown"),
    ],
)
def test_bad_steps_are_refused(step, message):
    with pytest.raises(RecipeError, match=message):
        apply_recipe(TABLE, Recipe.from_yaml(f"steps:\n  - {step}\n"))


def test_microaggregate_step():
    recipe = Recipe.from_yaml(
        "steps:\n  - {step: microaggregate, columns: [income], k: 3, method: mdav}\n"
    )
    out = apply_recipe(TABLE, recipe).data
    # income 10 12 30 31 50 80: centroid 35.5, farthest 80 takes {80, 50, 31}; the rest
    # {10, 12, 30} is the last group.
    assert out["income"].tolist() == pytest.approx([52 / 3] * 3 + [161 / 3] * 3)


PRAM_RECIPE = """
seed: 9
steps:
  - step: pram
    columns: [sex]
    matrix: {M: {M: 0.5, F: 0.5}, F: {F: 1.0}}
"""


def test_pram_step_is_seeded_and_checks_the_matrix():
    recipe = Recipe.from_yaml(PRAM_RECIPE)
    first = apply_recipe(TABLE, recipe).data
    pd.testing.assert_frame_equal(first, apply_recipe(TABLE, recipe).data)
    assert (first["sex"][TABLE["sex"] == "F"] == "F").all()  # F always stays F
    bad = PRAM_RECIPE.replace("F: 0.5}", "F: 0.4}")
    with pytest.raises(ParameterError, match="Step 1 \\(pram\\).*row 'M' sums to 0.9"):
        apply_recipe(TABLE, Recipe.from_yaml(bad))


def test_correlated_noise_step_is_seeded():
    recipe = Recipe.from_yaml(
        "seed: 3\nsteps:\n  - {step: correlated_noise, columns: [income], delta: 0.2}\n"
    )
    first = apply_recipe(TABLE, recipe).data
    pd.testing.assert_frame_equal(first, apply_recipe(TABLE, recipe).data)
    assert not first["income"].equals(TABLE["income"])
