"""The release as apply and the Report page make it (core/release/pipeline.py): the gate
reads what the recipe decided, counts blanks by the recipe's rule, and the packages carry
the record's recipe and the report's anchor."""

from __future__ import annotations

import io
import json
import zipfile

import pandas as pd

from core.recipe import Recipe, apply_recipe
from core.release.gate import check_release
from core.release.inputs import ReleaseRoles, RiskTargets, StreamedFacts
from core.release.pipeline import ReleasePackages, check_recipe_release, with_anchor
from core.release.record import portable_release_recipe
from core.release.report import build_report

ORIGINAL = pd.DataFrame(
    {
        "name": ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"],
        "age": [31, 32, 33, 41, 42, 43],
        "sex": ["F", "M", "F", "M", "F", "M"],
        "diagnosis": ["flu", "flu", "cold", "cold", "cold", "flu"],
    }
)
# age -> decade, name removed: classes {30s: flu, flu, cold; 40s: cold, cold, flu}, so
# k = 3 and distinct l = 2 in each class, by hand.
RELEASED = ORIGINAL.drop(columns="name").assign(age=["30-39"] * 3 + ["40-49"] * 3)
STEPS = [
    {"step": "remove", "columns": ["name"]},
    {"step": "generalise", "column": "age", "width": 10},
]


def test_the_gate_reads_the_recipes_targets_and_gives_the_verdict_check_release_gives():
    recipe = Recipe(STEPS, 1, {"targets": {"l_diversity": {"sensitive": "diagnosis", "l": 3}}})
    roles = ReleaseRoles(quasi_identifiers=["age"], direct_identifiers=["name"])
    got = check_recipe_release(ORIGINAL, RELEASED, recipe, roles=roles, k_target=3, annex_d=None)
    # l = 2 by hand in both classes: all 6 records fail l = 3
    assert got.kinds == ("targets",) and got.targets[0][2] == 6
    expected = check_release(
        ORIGINAL,
        RELEASED,
        steps=2,
        roles=roles,
        risk_targets=RiskTargets(k_target=3, targets=recipe.meta["targets"]),
    )
    assert got.problems == expected.problems
    met = check_recipe_release(
        ORIGINAL, RELEASED, Recipe(STEPS, 1, {}), roles=roles, k_target=3, annex_d=None
    )
    assert met.passed and met.k == 3


def test_a_blank_counts_as_any_value_after_local_suppression_but_not_in_a_streamed_count():
    # (F, blank) matches both (F, 40) records with sdcMicro's rule: the smallest class is
    # (M, 30) x2, so k = 2 by hand; a frequency table keeps (F, blank) alone: k = 1.
    original = pd.DataFrame({"sex": ["F", "F", "F", "M", "M"], "age": [40, 40, 50, 30, 30]})
    released = original.assign(age=[40, 40, None, 30, 30])
    recipe = Recipe(
        [{"step": "local_suppression", "quasi_identifiers": ["sex", "age"], "k": 2}], 1, {}
    )
    roles = ReleaseRoles(quasi_identifiers=["sex", "age"])
    in_memory = check_recipe_release(
        original, released, recipe, roles=roles, k_target=2, annex_d=None
    )
    assert in_memory.k == 2 and in_memory.missing == "sdcmicro"
    counted = released.value_counts(dropna=False, sort=False).rename("n").reset_index()
    streamed = check_recipe_release(
        original.iloc[:0],
        counted[["sex", "age"]],
        recipe,
        roles=roles,
        k_target=2,
        annex_d=None,
        streamed=StreamedFacts(counts=counted["n"].to_numpy(), changed=True, identifiers_left=[]),
    )
    assert streamed.k == 1 and streamed.missing == "own_value"


def test_the_packages_carry_the_recorded_recipe_and_the_reports_anchor(tmp_path):
    recipe = Recipe(STEPS, 7, {"quasi_identifiers": ["age"]})
    result = apply_recipe(ORIGINAL, recipe)
    portable, hierarchies = portable_release_recipe(None, recipe, result.seed, tmp_path)
    assert portable.seed == 7 and hierarchies == {}
    anchor = {"release": 3, "entries": 12, "head": "ab" * 32, "keyed": False}
    report = with_anchor(build_report(ORIGINAL, result, recipe), anchor)
    assert report.audit == anchor
    packages = ReleasePackages(b"age\n30-39\n", "released.csv", portable, hierarchies, report)
    bundle = packages.bundle(
        made_mappings=False, original=ORIGINAL, released_table=result.data, k=3
    )
    archive = packages.archive({})
    for made in (bundle, archive):
        names = zipfile.ZipFile(io.BytesIO(made.to_zip())).namelist()
        assert "released.csv" in names
    assert archive.private and not bundle.private
    for made in (bundle, archive):  # the report in both carries the release's anchor
        assert json.loads(made.files["report.json"])["audit"] == anchor
        assert b"Recorded as release 3 at audit log entry 12" in made.files["report.md"]
