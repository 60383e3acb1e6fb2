"""core.release.recipient_values: rare original values a recipe names are held back (hand examples)."""

from __future__ import annotations

import pandas as pd

from core.recipe import Recipe
from core.release.recipient_values import hold_back, rare_unreleased_values, recipe_literals

ORIGINAL = pd.DataFrame(
    {
        "name": ["Tan Ah Kow", "Siti", "Siti", "Siti"],
        "postal": [520003, 530101, 530101, 530101],
        "job": ["Astronaut", "Nurse", "Nurse", "Nurse"],
        "age": [2, 41, 41, 41],
    }
)
RECIPE = Recipe(
    steps=(
        {"step": "suppress_records", "where": {"column": "postal", "equals": 520003}},
        {"step": "suppress_records", "where": {"column": "name", "in": ["Tan Ah Kow", "Siti"]}},
        {
            "step": "generalise",
            "column": "job",
            "mapping": {"Astronaut": "Other", "Nurse": "Health"},
        },
        {"step": "generalise", "column": "age", "hierarchy": "hierarchies/age.csv", "level": 2},
        {"step": "remove", "columns": ["Astronaut"]},  # a column name is never a value
    ),
    seed=1,
)


def test_only_values_fewer_than_k_people_hold_and_the_release_does_not() -> None:
    released = pd.DataFrame({"name": ["Siti"], "job": ["Health"]})
    literals = recipe_literals(RECIPE)
    # The step's numbers that are parameters (level 2) are not literals; where's are.
    assert literals == {"520003", "Tan Ah Kow", "Siti", "Astronaut", "Nurse", "Other", "Health"}
    rare = rare_unreleased_values(ORIGINAL, released, below=2, among=literals)
    # By hand: held by 1 record each: 520003, Tan Ah Kow, Astronaut; Siti and Nurse by 3;
    # Other and Health by none (labels, not values of the original).
    assert rare == {"520003", "Tan Ah Kow", "Astronaut"}
    assert rare_unreleased_values(ORIGINAL, released, below=2, among=[]) == frozenset()
    # A value the released table holds is not held back, however rare.
    released = pd.DataFrame({"name": ["Tan Ah Kow"]})
    assert "Tan Ah Kow" not in rare_unreleased_values(ORIGINAL, released, below=2, among=literals)


def test_held_back_values_get_numbered_placeholders_and_nothing_else_changes() -> None:
    held, count = hold_back(RECIPE, frozenset({"520003", "Tan Ah Kow", "Astronaut"}))
    assert count == 3
    steps = held.steps
    assert steps[0]["where"] == {"column": "postal", "equals": "[held back 1]"}
    assert steps[1]["where"] == {"column": "name", "in": ["[held back 2]", "Siti"]}
    assert steps[2]["mapping"] == {"[held back 3]": "Other", "Nurse": "Health"}
    assert steps[3:] == RECIPE.steps[3:]  # level 2, the hierarchy, the column name
    assert held.seed == RECIPE.seed
    assert hold_back(RECIPE, frozenset()) == (RECIPE, 0)
    # The recipe with placeholders is still a recipe (it reads back and exports).
    assert Recipe.from_yaml(held.to_yaml()).steps == held.steps
