"""k-map with the population known (ARX ``KMap(k, DataSubset)``) as a search target and a
recipe step: every released class must stand for at least k records of the population
table, generalised like the data (core.population_risk.PopulationLattice, core.search).

Figures: a hand-computed case, and ARX's own test cases (arx-deidentifier/arx at commit
aacd487fb77b3af7970d5d6fa1b2f6cca1182b64, src/test/.../TestAnonymizationKMap.java: adult is
the population, data/adult_subset.csv the research subset, occupation the sensitive
attribute so the other eight columns are the quasi-identifiers).
"""

from __future__ import annotations

import pandas as pd
import pytest

from core.errors import ParameterError
from core.hierarchy import Hierarchy, read_hierarchy
from core.population_risk import k_map_in_population
from core.search import Target, apply_candidate, recipe_steps, search

ARX_QIS = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "salary-class",
]


def _age_hierarchy() -> Hierarchy:
    return Hierarchy(
        pd.DataFrame(
            {0: ["20", "21", "30", "31"], 1: ["20-29", "20-29", "30-39", "30-39"], 2: ["*"] * 4}
        ),
        name="age",
    )


def _small():
    sample = pd.DataFrame({"age": [20, 20, 30, 31]})
    population = pd.DataFrame({"age": [20, 20, 20, 21, 21, 30, 31, 31, 31]})
    return sample, population, {"age": _age_hierarchy()}


def test_hand_computed_kmap_with_a_population_table():
    """k-map k = 3. Level 0: the sample's classes 20 (2 records), 30 (1), 31 (1) stand for
    3, 1 and 3 population records: class 30 fails. Level 1: 20-29 stands for 5 (20 x3,
    21 x2), 30-39 for 4: both pass although each holds only 2 sample records (3-anonymity
    of the sample would need level 2). With nothing suppressed the answer is level 1; with
    one record (25%) allowed, level 0 losing the record of 30 costs 1/4 = 0.25 of average
    loss, against (2 - 1) / (4 - 1) = 1/3 at level 1, so level 0 wins."""
    sample, population, hierarchies = _small()
    strict = search(sample, hierarchies, Target(k=1, k_map=3, population_table=population))
    assert strict.optimum.levels == {"age": 1} and strict.optimum.suppressed == 0
    assert strict.optimum.measures["loss"] == pytest.approx(1 / 3)
    assert strict.solutions == 2  # levels 1 and 2
    anonymity = search(sample, hierarchies, Target(k=3))
    assert anonymity.optimum.levels == {"age": 2}
    loose = Target(k=1, k_map=3, population_table=population, max_suppressed=0.25)
    best = search(sample, hierarchies, loose).optimum
    assert best.levels == {"age": 0} and best.suppressed == 1
    assert best.measures["loss"] == pytest.approx(0.25)
    released = apply_candidate(sample, hierarchies, best, models=loose)
    assert released["age"].tolist() == [20, 20, 31]
    # the measure on the released table: the fewest population records behind a record
    assert k_map_in_population(released, population, ["age"]) == 3


def test_a_column_missing_from_the_population_table_is_named_as_the_population_s():
    """The data has race, the population table not: the message names the population table,
    not 'the table' (which reads as the user's data)."""
    from core.errors import ColumnNotFoundError

    sample = pd.DataFrame({"age": ["30"], "race": ["x"]})
    population = pd.DataFrame({"age": ["30", "31"]})
    with pytest.raises(ColumnNotFoundError, match=r"'race'.*the population table"):
        k_map_in_population(sample, population, ["age", "race"])


def test_population_table_must_hold_the_sample():
    sample, population, hierarchies = _small()
    with pytest.raises(ParameterError, match="Row 4 of the table.*population table"):
        search(sample, hierarchies, Target(k=1, k_map=2, population_table=population.iloc[:6]))
    outside = pd.concat([population, pd.DataFrame({"age": [99]})], ignore_index=True)
    with pytest.raises(ParameterError, match="population table's value '99'.*'age'"):
        search(sample, hierarchies, Target(k=1, k_map=2, population_table=outside))
    with pytest.raises(ParameterError, match="'k_map'"):
        Target(k=1, population_table=population)


@pytest.fixture(scope="module")
def arx_case(_adult_table, adult_hierarchies_dir):
    subset = pd.read_csv(adult_hierarchies_dir / "adult_subset.csv", sep=";")
    hierarchies = {
        c: read_hierarchy(adult_hierarchies_dir / f"adult_hierarchy_{c}.csv") for c in ARX_QIS
    }
    return subset, _adult_table, hierarchies


# ARX's TestAnonymizationKMap: ARXConfiguration.create(suppression, metric) with
# KMap(k, DataSubset.create(adult, adult_subset)); AECS is ARX's createAECSMetric(),
# entropy its createPrecomputedEntropyMetric(0.1, monotonic).
ARX_CASES = [
    (0.0, "avg_class_size", 5, 45.014925373134325, [1, 0, 1, 2, 3, 2, 2, 1]),
    (0.0, "arx_entropy_monotonic", 3, 23387.494246375998, [0, 0, 1, 2, 3, 2, 2, 0]),
    (0.05, "avg_class_size", 20, 11.424242424242424, [1, 0, 1, 1, 3, 2, 1, 0]),
    (0.05, "arx_entropy", 3, 15121.633326877098, [0, 0, 1, 1, 1, 2, 1, 0]),
]


@pytest.mark.parametrize(("suppression", "measure", "k", "score", "node"), ARX_CASES)
def test_arx_kmap_subset_cases(arx_case, suppression, measure, k, score, node):
    subset, adult, hierarchies = arx_case
    target = Target(k=1, k_map=k, population_table=adult, max_suppressed=suppression)
    result = search(subset, hierarchies, target, measure=measure)
    assert list(result.optimum.levels.values()) == node
    assert result.optimum.measures[measure] == pytest.approx(score, rel=1e-9)
    assert result.monotone  # k-map with a population table prunes like k


def test_pruned_search_equals_every_node(arx_case):
    """k-map with a population table is monotone both ways: pruning finds the nodes a
    search that evaluates every node finds (four quasi-identifiers, 5% suppression)."""
    subset, adult, hierarchies = arx_case
    four = {c: hierarchies[c] for c in ARX_QIS[:4]}
    target = Target(k=1, k_map=10, population_table=adult, max_suppressed=0.05)
    pruned = search(subset, four, target, measure="loss")
    every = search(subset, four, target, measure="loss", method="exhaustive")
    assert pruned.solutions == every.solutions > 0
    assert pruned.optimum.levels == every.optimum.levels
    assert [c.levels for c in pruned.frontier] == [c.levels for c in every.frontier]


def test_recipe_names_the_population_file_and_replays(arx_case, tmp_path):
    from core.hierarchy import store_hierarchy
    from core.recipe import Recipe, apply_recipe, to_python_script

    subset, adult, hierarchies = arx_case
    target = Target(k=1, k_map=5, population_table=adult, max_suppressed=0.05)
    best = search(subset, hierarchies, target, measure="avg_class_size").optimum
    assert best.suppressed > 0
    adult.to_csv(tmp_path / "population.csv", index=False)
    paths = {c: store_hierarchy(hierarchies[c], tmp_path, stem=c).name for c in ARX_QIS}
    steps = recipe_steps(best, paths, models=target, population_table_path="population.csv")
    k_map = steps[-1]["k_map"]
    generalised = {c: lv for c, lv in best.levels.items() if lv}
    assert k_map == {
        "k": 5,
        "population_table": "population.csv",
        "hierarchies": {c: paths[c] for c in generalised},
        "levels": generalised,
    }
    released = apply_recipe(subset, Recipe(steps=steps, seed=1), base_dir=tmp_path).data
    pd.testing.assert_frame_equal(
        released, apply_candidate(subset, hierarchies, best, models=target)
    )
    assert len(subset) - len(released) == best.suppressed
    # Independent check: generalise the population by plain lookups, count per class.
    population = adult.copy()
    for column, level in generalised.items():
        table = hierarchies[column].levels
        population[column] = (
            adult[column].astype(str).map(dict(zip(table[0], table[level], strict=True)))
        )
    assert k_map_in_population(released.astype(str), population.astype(str), ARX_QIS) >= 5
    script = to_python_script(Recipe(steps=steps, seed=1))
    assert "read_population_table('population.csv')" in script
    compile(script, "script.py", "exec")


def test_hostile_population_file_name_stays_a_literal():
    from core.recipe import Recipe, to_python_script

    name = "x')\nimport os; os.system('echo pwned')#.csv"
    step = {
        "step": "suppress_records",
        "below_k": 1,
        "quasi_identifiers": ["age"],
        "k_map": {"k": 2, "population_table": name, "hierarchies": {}, "levels": {}},
    }
    script = to_python_script(Recipe(steps=(step,), seed=1))
    assert "\nimport os" not in script
    assert f"read_population_table({name!r})" in script


# --- command line: search --k-map K --population-table FILE, apply, risk ------------------


@pytest.fixture
def small_files(tmp_path):
    """The hand-computed case above as files: the released sample, its population, the
    age hierarchy."""
    sample, population, _ = _small()
    sample.to_csv(tmp_path / "sample.csv", index=False)
    population.to_csv(tmp_path / "population.csv", index=False)
    (tmp_path / "age.csv").write_text(
        "20;20-29;*\n21;20-29;*\n30;30-39;*\n31;30-39;*\n", encoding="utf-8"
    )
    return tmp_path


def test_cli_search_with_a_population_table_and_apply(small_files, capsys):
    import json

    from core import cli

    d = small_files
    args = [
        "search",
        str(d / "sample.csv"),
        f"--hierarchy=age={d / 'age.csv'}",
        "--k",
        "1",
        "--k-map",
        "3",
        "--population-table",
        str(d / "population.csv"),
    ]
    assert cli.main([*args, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["optimum"]["levels"] == {"age": 1}  # hand computation above
    assert "population table of 9 records" in found["target"]
    recipe = d / "recipe.yaml"
    assert cli.main([*args, "--max-suppressed", "0.25", "--recipe-out", str(recipe)]) == 0
    assert "population.csv" in recipe.read_text(encoding="utf-8")
    out = d / "released.csv"
    assert (
        cli.main(
            [
                "apply",
                str(d / "sample.csv"),
                "--recipe",
                str(recipe),
                "--out",
                str(out),
                "--release-anyway",
            ]
        )
        == 0
    )
    # The recipe's k = 1 (k-map alone is asked) is refused by the release check, which does
    # not read population tables, so the file released anyway carries the mark.
    out = d / "released.NOT-ANONYMISED.csv"
    assert pd.read_csv(out)["age"].tolist() == [20, 20, 31]
    # --k-map 3 with a population table of the released values: k-map 3, nothing below it
    capsys.readouterr()
    assert (
        cli.main(
            [
                "risk",
                str(out),
                "--qi",
                "age",
                "--k",
                "3",
                "--population-table",
                str(d / "population.csv"),
                "--json",
            ]
        )
        == 0
    )
    risk = json.loads(capsys.readouterr().out)
    assert (risk["k_map_population_table"], risk["records_below_k_map"]) == (3, 0)
    assert risk["population_table_records"] == 9


def test_cli_never_writes_onto_the_population_table(small_files):
    from core import cli

    d = small_files
    population = d / "population.csv"
    before = population.read_bytes()
    args = [
        "search",
        str(d / "sample.csv"),
        f"--hierarchy=age={d / 'age.csv'}",
        "--k",
        "1",
        "--k-map",
        "3",
        "--population-table",
        str(population),
    ]
    assert cli.main([*args, "--recipe-out", str(population), "--force"]) == 2
    recipe = d / "recipe.yaml"
    assert cli.main([*args, "--max-suppressed", "0.25", "--recipe-out", str(recipe)]) == 0
    assert (
        cli.main(
            [
                "apply",
                str(d / "sample.csv"),
                "--recipe",
                str(recipe),
                "--out",
                str(population),
                "--force",
                "--release-anyway",
            ]
        )
        == 2
    )
    assert population.read_bytes() == before
    assert cli.main([*args[:-2]]) == 2  # the same search without the table: k-map needs N
    assert cli.main([*args[:5], "--population-table", str(population)]) == 2  # needs --k-map


def test_bundle_makes_kmap_hierarchies_portable(tmp_path):
    from core.recipe import Recipe
    from core.release.bundle import build_archive, build_bundle, portable_recipe

    (tmp_path / "age.csv").write_text(
        "20;20-29;*\n21;20-29;*\n30;30-39;*\n31;30-39;*\n", encoding="utf-8"
    )
    step = {
        "step": "suppress_records",
        "below_k": 1,
        "quasi_identifiers": ["age"],
        "k_map": {
            "k": 3,
            "population_table": "population.csv",
            "hierarchies": {"age": "age.csv"},
            "levels": {"age": 1},
        },
    }
    portable, files = portable_recipe(Recipe(steps=(step,)), base_dir=tmp_path)
    k_map = portable.steps[0]["k_map"]
    assert k_map["hierarchies"]["age"].startswith("hierarchies/age-") and len(files) == 1
    # Data: never bundled, located absolutely so a replay from another folder finds it.
    located = str((tmp_path / "population.csv").resolve())
    assert k_map["population_table"] == located and len(files) == 1
    released = b"age\n20-29\n"
    portable = Recipe(portable.steps, seed=7)
    archive = build_archive(
        released=released, released_name="out.csv", recipe=portable, hierarchies=files
    )
    readme = archive.files["README.txt"].decode("utf-8")
    assert "population table is data, so it is not in this package" in readme
    assert repr(located) in readme
    assert not any(name.startswith("population") for name in archive.files)
    # The recipient's bundle names the hierarchy k-map reads, and leaves the file out.
    bundle = build_bundle(
        released=released, released_name="out.csv", recipe=portable, hierarchies=files
    )
    assert not any(name.startswith(("population", "hierarchies/")) for name in bundle.files)
    assert "this step reads the file" in bundle.files["README.txt"].decode("utf-8")
