"""core.hierarchy_rules: a hierarchy file recognised as the rule that built it (hand examples)."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from core.errors import ParameterError, RecipeError
from core.hierarchy import (
    build_hierarchy,
    date_hierarchy,
    grouping_hierarchy,
    masking_hierarchy,
    numeric_hierarchy,
    read_hierarchy,
)
from core.hierarchy_rules import HierarchyRule, infer_rule, rule_of_text
from core.recipe import Recipe, apply_recipe

ADULT_AGE = "tests/data/adult/adult_hierarchy_age.csv"


def test_each_builder_is_recognised_with_its_parameters() -> None:
    ages = numeric_hierarchy([39, 17, 90], (5, 10, 20, 40))  # anchored at 0 (hand: 17 // 40)
    assert infer_rule(ages).to_dict() == {"kind": "numeric", "widths": [5, 10, 20, 40], "start": 0}
    halves = numeric_hierarchy([2.5, 7.25], (2.5, 5))  # [2.5, 5) and [0, 5): start 0
    assert infer_rule(halves).to_dict() == {"kind": "numeric", "widths": [2.5, 5], "start": 0}
    # 01/04/2003 is 1 April (Q2) day first, 4 January (Q1) month first
    dates = date_hierarchy(["01/04/2003", "31/12/1999"], ("quarter", "decade"), dayfirst=True)
    assert infer_rule(dates).to_dict() == {
        "kind": "dates",
        "levels": ["quarter", "decade"],
        "dayfirst": True,
    }
    postal = masking_hierarchy(["235546", "12"], char="#")
    assert infer_rule(postal).to_dict() == {"kind": "masking", "char": "#", "height": 6}
    names = build_hierarchy(pd.Series(["Tan Ah Kow", "Siti"]), "suppress")
    assert infer_rule(names).to_dict() == {"kind": "suppress"}


def test_enumerated_files_have_no_rule() -> None:
    grouping = grouping_hierarchy(["Tamil", "Malay"], {"Tamil": "Indian"})
    assert infer_rule(grouping) is None
    assert infer_rule(read_hierarchy(ADULT_AGE)) is None  # made by ARX, not by a builder
    # One cell changed by hand: the rule would no longer give that cell.
    text = "39;35-39;30-39;*\n17;15-19;10-19;*\n"
    assert rule_of_text(text) is not None
    assert rule_of_text(text.replace("10-19;", "10-20;")) is None
    assert rule_of_text("not;a\nhierarchy") is None  # ragged: unreadable, so no rule


def test_a_rule_gives_each_value_the_files_label_whatever_values_come_with_it() -> None:
    """Built on part of the values (a column after rows were suppressed), the labels are
    those of the full file: the masking height and the bands' start are fixed."""
    full = masking_hierarchy(["235546", "12", "5"])
    rule = infer_rule(full)
    part = rule.build(["12", "5"])
    assert part.height == full.height == 6
    assert part.generalise(pd.Series(["12", "5"]), 2).tolist() == ["**", "*"]
    bands = numeric_hierarchy([3, 47], (10, 20))  # start 0
    assert infer_rule(bands).build([47]).generalise(pd.Series([47]), 1).tolist() == ["40-49"]


def test_rules_are_described_in_words() -> None:
    rule = HierarchyRule.from_mapping({"kind": "numeric", "widths": [10, 20], "start": 0})
    assert rule.describe() == "bands of width 10, 20 from 0, then *"
    assert rule.describe(2) == "bands of width 20 from 0"
    assert rule.describe(3) == "every value becomes *"
    dates = HierarchyRule.from_mapping({"kind": "dates", "levels": ["month", "year"]})
    assert dates.describe(2) == "dates to year"
    mask = HierarchyRule.from_mapping({"kind": "masking", "height": 6})
    assert mask.describe(3) == "the last 3 character(s) masked with '*'"


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("dates", "give a mapping"),
        ({"kind": "grouping"}, "'kind' must be one of"),
        ({"kind": "numeric", "widths": [5, 7], "start": 0}, "whole multiple"),
        ({"kind": "numeric", "widths": [5], "start": float("nan")}, "finite number"),
        ({"kind": "numeric", "widths": [5]}, "'start' must be a finite number"),
        ({"kind": "dates", "levels": ["week"]}, "'levels' must be one of"),
        ({"kind": "dates", "levels": ["year"], "dayfirst": "yes"}, "true or false"),
        ({"kind": "masking", "height": True}, "whole number >= 1"),
        ({"kind": "masking", "height": 3, "char": "**"}, "one character"),
        ({"kind": "suppress", "values": ["Tan Ah Kow"]}, "remove values"),
    ],
)
def test_a_rule_in_a_recipe_is_checked_when_the_recipe_is_read(rule, message) -> None:
    with pytest.raises(ParameterError, match=message):
        HierarchyRule.from_mapping(rule)
    step = {"step": "generalise", "column": "dob", "hierarchy_rule": rule, "level": 1}
    with pytest.raises(RecipeError, match="Step 1: Step 'generalise'"):
        Recipe.from_yaml(Recipe(steps=(step,), seed=1).to_yaml())
    with pytest.raises(RecipeError, match="needs 'level'"):
        step = {"step": "generalise", "column": "dob", "hierarchy_rule": {"kind": "suppress"}}
        Recipe.from_yaml(Recipe(steps=(step,), seed=1).to_yaml())


def test_generalise_with_a_rule_matches_the_file_it_replaces(tmp_path) -> None:
    df = pd.DataFrame({"dob": ["2003-02-15", None, "1999-12-31"]})
    hierarchy = date_hierarchy(df["dob"].dropna(), ("month", "year"))
    (tmp_path / "dob.csv").write_text(hierarchy.levels.to_csv(sep=";", header=False, index=False))
    by_file = Recipe(
        steps=({"step": "generalise", "column": "dob", "hierarchy": "dob.csv", "level": 2},), seed=1
    )
    rule = rule_of_text((tmp_path / "dob.csv").read_text())
    by_rule = Recipe(
        steps=(
            {"step": "generalise", "column": "dob", "hierarchy_rule": rule.to_dict(), "level": 2},
        ),
        seed=1,
    )
    expected = apply_recipe(df, by_file, base_dir=tmp_path).data
    released = apply_recipe(df, by_rule).data
    pd.testing.assert_frame_equal(released, expected)
    assert released["dob"].iloc[[0, 2]].tolist() == ["2003", "1999"]
    assert pd.isna(released["dob"].iloc[1])


def test_an_unreadable_text_has_no_rule() -> None:
    assert rule_of_text("") is None
    assert infer_rule(read_hierarchy(io.StringIO("a;b\n"))) is None  # top level is not *


def test_local_recoding_takes_a_rule_for_a_hierarchy_and_checks_it() -> None:
    df = pd.DataFrame({"postal": ["235546", "235547", "239999", "112345"]})
    step = {
        "step": "recode_locally",
        "rounds": [[2]],
        "hierarchies": {"postal": {"kind": "masking", "height": 6}},
    }
    released = apply_recipe(df, Recipe(steps=(step,), seed=1)).data
    assert released["postal"].tolist() == ["2355**", "2355**", "2399**", "1123**"]  # by hand
    bad = {**step, "hierarchies": {"postal": {"kind": "masking"}}}
    with pytest.raises(RecipeError, match="Step 'recode_locally'.*'height'"):
        Recipe.from_yaml(Recipe(steps=(bad,), seed=1).to_yaml())
