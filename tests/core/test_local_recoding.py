"""Tests for core/local_recoding.py: releasing, by local recoding, records a global
generalisation would suppress.

Expected figures come from a hand calculation written in the test, from ARX built from its
source (recorded with the call that produced them), or from core.privacy run on the
released table (an independent check of the models).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ParameterError
from core.hierarchy import Hierarchy, read_hierarchy
from core.local_recoding import (
    local_loss,
    recode_suppressed,
    release_locally,
    release_rounds,
)
from core.privacy import ClassModels, failing_records
from core.search import Target, apply_candidate, search

QI8 = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
]


def _hierarchy(rows: list[list[str]]) -> Hierarchy:
    return Hierarchy(pd.DataFrame(rows))


ZIP = _hierarchy([["A1", "A", "*"], ["A2", "A", "*"], ["B1", "B", "*"], ["B2", "B", "*"]])
AGE = _hierarchy(
    [["10", "10-19", "*"], ["11", "10-19", "*"], ["20", "20-29", "*"], ["21", "20-29", "*"]]
)
SMALL_HIERARCHIES = {"zip": ZIP, "age": AGE}


def _small_table() -> pd.DataFrame:
    """10 x (A1, 10), 10 x (B1, 20), then (A2, 11) and (A1, 11): 22 records."""
    rows = [("A1", 10)] * 10 + [("B1", 20)] * 10 + [("A2", 11), ("A1", 11)]
    return pd.DataFrame(rows, columns=["zip", "age"])


def test_hand_made_table_keeps_the_two_suppressed_records():
    """k = 2, at most 10% suppressed (floor(2.2) = 2 records), measure: loss.

    Hand calculation. Loss per value = (leaves under it - 1) / (leaves in the hierarchy - 1):
    level 1 of either column covers 2 of 4 leaves, 1/3; '*' and suppression cost 1.
    - (0, 0): (A2, 11) and (A1, 11) are classes of 1: 2 suppressed, loss (2 x 2) / 44 = 1/11.
    - (1, 0): nothing suppressed, every zip at 1/3: 22/3 / 44 = 1/6.
    - (0, 1): (A2, 10-19) alone suppressed: (21/3 + 2) / 44 = 9/44. Higher levels cost more.
    So the global optimum is (0, 0) with 2 records suppressed. Round 1 searches those 2
    records (no suppression allowed: floor(0.1 x 2) = 0): (1, 0) makes one class (A, 11)
    of 2 at loss (1/3) / 2 = 1/6 on the two; (0, 1) keeps A2 apart from A1 (fails k);
    (2, 0) costs 1/2. Both records are released as (A, 11): loss (2 x 1/3) / 44 = 1/66.
    """
    df = _small_table()
    target = Target(k=2, max_suppressed=0.1)
    optimum = search(df, SMALL_HIERARCHIES, target, measure="loss").optimum
    assert dict(optimum.levels) == {"zip": 0, "age": 0}
    assert optimum.suppressed == 2
    result = recode_suppressed(df, SMALL_HIERARCHIES, target, optimum, measure="loss")
    assert [dict(r) for r in result.rounds] == [{"zip": 1, "age": 0}]
    assert result.released_per_round == (20, 2)
    assert (result.suppressed_before, result.suppressed_after, result.kept) == (2, 0, 2)
    assert result.loss_before == pytest.approx(1 / 11)
    assert result.loss_after == pytest.approx(1 / 66)
    released = result.data
    assert list(released.index) == list(range(22))  # order and labels kept
    # age stays at level 0 in every round, so its column is left as it was (numbers)
    assert released.loc[20:21, ["zip", "age"]].values.tolist() == [["A", 11], ["A", 11]]
    assert released.loc[0, "zip"] == "A1" and released.loc[0, "age"] == 10
    assert not failing_records(released, ["zip", "age"], ClassModels(k=2)).any()
    assert "kept 2 of the 2 records" in result.explanation()
    assert df.equals(_small_table())  # the input is untouched


def test_one_round_is_the_global_solution():
    df = _small_table()
    target = Target(k=2, max_suppressed=0.1)
    optimum = search(df, SMALL_HIERARCHIES, target, measure="loss").optimum
    alone = release_locally(df, SMALL_HIERARCHIES, [optimum.levels], models=target.models)
    pd.testing.assert_frame_equal(alone, apply_candidate(df, SMALL_HIERARCHIES, optimum, k=2))
    rounds = release_rounds(df, SMALL_HIERARCHIES, [optimum.levels], target.models)
    assert local_loss(df, SMALL_HIERARCHIES, [optimum.levels], rounds, "loss") == pytest.approx(
        optimum.measures["loss"]
    )


def test_discernibility_before_and_after_by_hand():
    """Discernibility = sum of squared released class sizes + n per suppressed record.
    The loss optimum (0, 0) is given as the global solution. Before: 10^2 + 10^2 + 2 x 22 =
    244; after, (A, 11) a class of 2: 10^2 + 10^2 + 2^2 = 204."""
    df = _small_table()
    target = Target(k=2, max_suppressed=0.1)
    optimum = search(df, SMALL_HIERARCHIES, target, measure="loss").optimum
    result = recode_suppressed(df, SMALL_HIERARCHIES, target, optimum, measure="discernibility")
    assert (result.loss_before, result.loss_after) == (244.0, 204.0)


def test_recoded_records_join_a_class_that_reads_the_same():
    """A hierarchy whose level 1 reads like a level-0 value (A2, A3 -> 'A1'): 11 x (A1, 10),
    9 x (B1, 20), 2 x (A2, 10), 1 x (A3, 10); k = 3, at most 15% removed (3 of 23).
    The loss optimum keeps every level at 0 and removes the A2/A3 records (a class of 2
    and one of 1). Round 1 on those 3 (none may stay removed): zip level 1 makes one class
    ('A1', 10) of 3. A reader cannot tell them from the 11 (A1, 10): one class of 14.
    Discernibility: before 11^2 + 9^2 + 3 x 23 = 271, after 14^2 + 9^2 = 277, higher, so
    local recoding is not kept; under loss it is (a record never costs more released)."""
    zip_h = _hierarchy([["A1", "A1", "*"], ["A2", "A1", "*"], ["A3", "A1", "*"], ["B1", "B1", "*"]])
    hierarchies = {"zip": zip_h, "age": AGE}
    rows = [("A1", 10)] * 11 + [("B1", 20)] * 9 + [("A2", 10)] * 2 + [("A3", 10)]
    df = pd.DataFrame(rows, columns=["zip", "age"])
    target = Target(k=3, max_suppressed=0.15)
    optimum = search(df, hierarchies, target, measure="loss").optimum
    assert dict(optimum.levels) == {"zip": 0, "age": 0} and optimum.suppressed == 3
    by_loss = recode_suppressed(df, hierarchies, target, optimum, measure="loss")
    assert [dict(r) for r in by_loss.rounds] == [{"zip": 1, "age": 0}]
    assert by_loss.data.groupby(["zip", "age"]).size().to_dict() == {("A1", 10): 14, ("B1", 20): 9}
    by_discernibility = recode_suppressed(
        df, hierarchies, target, optimum, measure="discernibility"
    )
    assert by_discernibility.rounds == ()
    assert (by_discernibility.loss_before, by_discernibility.loss_after) == (271.0, 271.0)
    assert by_discernibility.suppressed_after == 3
    assert "would not lower the discernibility (271 -> 277)" in by_discernibility.explanation()


def test_bad_parameters_are_named():
    df = _small_table()
    target = Target(k=2, max_suppressed=0.1)
    with pytest.raises(ParameterError, match="measure"):
        recode_suppressed(df, SMALL_HIERARCHIES, target, measure="height")
    with pytest.raises(ParameterError, match="step_share"):
        recode_suppressed(df, SMALL_HIERARCHIES, target, step_share=0)
    with pytest.raises(ParameterError, match="above its hierarchy"):
        release_locally(df, SMALL_HIERARCHIES, [{"zip": 0, "age": 3}], models=target.models)
    with pytest.raises(ParameterError, match="every round needs"):
        release_locally(
            df, SMALL_HIERARCHIES, [{"zip": 0, "age": 0}, {"zip": 1}], models=target.models
        )


# --- property: every released class meets the models --------------------------------------

_ZIPS, _AGES, _SALARY = ["A1", "A2", "B1", "B2"], ["10", "11", "20", "21"], ["lo", "mid", "hi"]


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.sampled_from(_ZIPS), st.sampled_from(_AGES), st.sampled_from(_SALARY)),
        min_size=4,
        max_size=40,
    ),
    k=st.integers(1, 4),
    share=st.sampled_from([0.0, 0.1, 0.3, 0.6]),
    model=st.sampled_from(["k", "distinct", "entropy", "alpha", "t"]),
    step_share=st.sampled_from([None, 0.05, 0.3]),
)
def test_every_released_class_meets_the_models(rows, k, share, model, step_share):
    df = pd.DataFrame(rows, columns=["zip", "age", "salary"])
    extra = {
        "k": {},
        "distinct": {"sensitive": "salary", "l": 2},
        "entropy": {"sensitive": "salary", "l": 1.5, "l_kind": "entropy"},
        "alpha": {"sensitive": "salary", "alpha": 0.7},
        "t": {"sensitive": "salary", "t": 0.3},
    }[model]
    target = Target(k=k, max_suppressed=share, **extra)
    optimum = search(df, SMALL_HIERARCHIES, target, measure="loss").optimum
    if optimum is None:
        return
    result = recode_suppressed(
        df, SMALL_HIERARCHIES, target, optimum, measure="loss", step_share=step_share
    )
    released = result.data
    assert len(released) == len(df) - result.suppressed_after
    assert result.suppressed_after <= result.suppressed_before == optimum.suppressed
    assert result.loss_after <= result.loss_before + 1e-12
    # Independent check with core.privacy: classes by the released text; t against the
    # whole input table (the suppressed records in a class of their own, never released).
    check = df.astype(str).copy()
    check.loc[released.index, ["zip", "age"]] = released[["zip", "age"]].astype(str).to_numpy()
    check["released"] = df.index.isin(released.index)
    fail = failing_records(check, ["zip", "age", "released"], target.models)
    assert not fail[check["released"].to_numpy()].any()
    # The replay of the recorded rounds gives the same table.
    replay = release_locally(df, SMALL_HIERARCHIES, result.level_rounds, models=target.models)
    pd.testing.assert_frame_equal(replay, released)


# --- adult: ARX's figures -----------------------------------------------------------------


def _java_string_hash(text: str) -> int:
    """Java's String.hashCode (UTF-16 code units, 32-bit wrap-around)."""
    data = text.encode("utf-16-be")
    h = 0
    for i in range(0, len(data), 2):
        h = (31 * h + int.from_bytes(data[i : i + 2], "big")) & 0xFFFFFFFF
    return h


def _arx_output_hash(df: pd.DataFrame, released: pd.DataFrame) -> int:
    """The hash ARX's own tests take of an output (AbstractAnonymizationTest: h = 23, then
    h = 37 h + value.hashCode() cell by cell, row-major), suppressed records shown as '*'
    in every quasi-identifier as ARX's output does. Computed modulo 2^32 in numpy:
    h = 23 x 37^N + sum_j c_j x 37^(N-1-j)."""
    full = df.astype(str).astype(object)
    full.loc[released.index, QI8] = released[QI8].astype(str).to_numpy()
    full.loc[~df.index.isin(released.index), QI8] = "*"
    cells = full.to_numpy().ravel()
    distinct, inverse = np.unique(cells.astype(str), return_inverse=True)
    codes = np.array([_java_string_hash(v) for v in distinct], dtype=np.uint64)[inverse]
    powers = np.cumprod(np.full(cells.size, 37, dtype=np.uint64))[::-1]  # 37^(N - j)
    after = np.concatenate([powers[1:], np.ones(1, dtype=np.uint64)])  # 37^(N - 1 - j)
    with np.errstate(over="ignore"):  # arithmetic modulo 2^64, then 2^32
        total = int((np.uint64(23) * powers[0] + (codes * after).sum()) & np.uint64(2**32 - 1))
    return total - 2**32 if total >= 2**31 else total


@pytest.fixture(scope="module")
def adult_arx(_adult_table, adult_hierarchies_dir):
    hierarchies = {
        c: read_hierarchy(adult_hierarchies_dir / f"adult_hierarchy_{c}.csv") for c in QI8
    }
    target = Target(k=5, max_suppressed=0.01)
    optimum = search(_adult_table, hierarchies, target, measure="arx_loss").optimum
    return hierarchies, target, optimum


def _levels(vector: list[int]) -> dict[str, int]:
    return dict(zip(QI8, vector, strict=True))


def test_adult_matches_arx_optimize_iterative_fast(_adult_table, adult_arx):
    """ARX built from its source (org.deidentifier.arx, commit aacd487) with a Java harness
    on tests/data/adult (8 quasi-identifiers with these hierarchies, salary-class
    insensitive): ``ARXConfiguration.create()`` + ``KAnonymity(5)``,
    ``setSuppressionLimit(0.01)``, ``Metric.createLossMetric()``; ``anonymize``; then
    ``result.optimizeIterativeFast(result.getOutput(), 0.002)``. ARX printed:
    global optimum [0, 3, 0, 1, 3, 1, 1, 2], ARX loss 0.35878532460837165, 273 outliers,
    output hash -123196553; step 0 levels [0, 4, 1, 1, 3, 2, 1, 1], 256 records
    transformed; step 1 levels [0, 4, 1, 2, 3, 2, 2, 2], 17 transformed; 0 outliers after,
    output hash -1665156456 (the hash of ARX's tests, see _arx_output_hash)."""
    hierarchies, target, optimum = adult_arx
    assert dict(optimum.levels) == _levels([0, 3, 0, 1, 3, 1, 1, 2])
    assert optimum.suppressed == 273
    assert optimum.measures["arx_loss"] == pytest.approx(0.35878532460837165, abs=1e-9)
    global_only = apply_candidate(_adult_table, hierarchies, optimum, models=target.models)
    assert _arx_output_hash(_adult_table, global_only) == -123196553
    result = recode_suppressed(
        _adult_table, hierarchies, target, optimum, measure="arx_loss", step_share=0.002
    )
    assert [dict(r) for r in result.rounds] == [
        _levels([0, 4, 1, 1, 3, 2, 1, 1]),
        _levels([0, 4, 1, 2, 3, 2, 2, 2]),
    ]
    assert result.released_per_round[1:] == (256, 17)
    assert result.suppressed_after == 0
    assert _arx_output_hash(_adult_table, result.data) == -1665156456
    assert result.loss_after < result.loss_before


def test_adult_matches_arx_optimize_iterative(_adult_table, adult_arx):
    """Same harness, ``result.optimizeIterative(result.getOutput(), 0.5, 100, 0.0)``
    (gsFactor 0.5 = this project's ARX loss, no adaption): one step, levels
    [0, 4, 1, 1, 3, 2, 2, 1], 273 records transformed, output hash 2046232993."""
    hierarchies, target, optimum = adult_arx
    result = recode_suppressed(_adult_table, hierarchies, target, optimum, measure="arx_loss")
    assert [dict(r) for r in result.rounds] == [_levels([0, 4, 1, 1, 3, 2, 2, 1])]
    assert result.released_per_round[1:] == (273,)
    assert _arx_output_hash(_adult_table, result.data) == 2046232993


# --- the recipe step replays the result byte for byte -------------------------------------


def _small_result():
    df = _small_table().assign(salary=["lo", "hi"] * 11)
    target = Target(k=2, max_suppressed=0.1, sensitive="salary", l=2)
    return df, target, recode_suppressed(df, SMALL_HIERARCHIES, target, measure="loss")


def test_recipe_step_replays_byte_for_byte(tmp_path):
    from core.hierarchy import store_hierarchy
    from core.io import table_to_bytes
    from core.recipe import Recipe, apply_recipe, describe_step

    df, target, result = _small_result()
    assert result.rounds  # (A2, 11, hi) and (A1, 11, lo): one class of 2 values at zip 'A'
    paths = {c: store_hierarchy(h, tmp_path, stem=c).name for c, h in SMALL_HIERARCHIES.items()}
    step = result.recipe_step(paths)
    assert step["rounds"] == [[0, 0], [1, 0]]
    assert step["l_diversity"] == {"sensitive": "salary", "l": 2, "kind": "distinct"}
    recipe = Recipe(steps=(step,), seed=1)
    recipe = Recipe.from_yaml(recipe.to_yaml())  # through the file format
    replayed = apply_recipe(df, recipe, base_dir=tmp_path).data
    assert table_to_bytes(replayed, "csv") == table_to_bytes(result.data, "csv")
    words = describe_step(step)
    assert "zip level 0, age level 0" in words and "1 more round(s)" in words
    assert "l-diversity 2 on salary" in words


def test_recipe_step_in_script_and_bundle(tmp_path):
    from core.hierarchy import store_hierarchy
    from core.recipe import Recipe, to_python_script
    from core.release.bundle import portable_recipe

    _, _, result = _small_result()
    paths = {c: store_hierarchy(h, tmp_path, stem=c).name for c, h in SMALL_HIERARCHIES.items()}
    recipe = Recipe(steps=(result.recipe_step(paths),), seed=1)
    script = to_python_script(recipe)
    compile(script, "anonymise.py", "exec")
    assert "t.recode_locally(df, hierarchies={'zip': read_hierarchy(" in script
    portable, files = portable_recipe(recipe, base_dir=tmp_path)
    names = list(portable.steps[0]["hierarchies"].values())
    assert sorted(names) == sorted(files) and all(n.startswith("hierarchies/") for n in names)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rounds": [[0]]}, "one level for each"),
        ({"rounds": [[0, -1]]}, "whole numbers"),
        ({"hierarchies": ["zip.csv"]}, "must map each quasi-identifier"),
    ],
)
def test_recipe_step_refuses_bad_parameters(change, message):
    from core.errors import RecipeError
    from core.recipe import Recipe

    step = {
        "step": "recode_locally",
        "hierarchies": {"zip": "z.csv", "age": "a.csv"},
        "rounds": [[0, 0]],
        "k": 2,
        **change,
    }
    with pytest.raises(RecipeError, match=message):
        Recipe(steps=(step,))


def test_step_models_must_share_one_sensitive_column():
    from core.techniques import recode_locally

    df = _small_table().assign(salary="lo", grade="a")
    with pytest.raises(ParameterError, match="one sensitive column"):
        recode_locally(
            df,
            hierarchies=SMALL_HIERARCHIES,
            rounds=[[0, 0]],
            k=2,
            l_diversity={"sensitive": "salary", "l": 1},
            alpha_k={"sensitive": "grade", "alpha": 1.0},
        )


def test_step_refuses_an_unknown_privacy_model_by_name():
    """The models a step takes are defined once (suppression.CLASS_MODELS): a name outside
    them is refused with the list of names, not a bare TypeError."""
    from core.techniques import recode_locally

    df = _small_table().assign(salary="lo")
    with pytest.raises(ParameterError, match=r"'l_diversty'.*'l_diversity', 't_closeness'"):
        recode_locally(
            df,
            hierarchies=SMALL_HIERARCHIES,
            rounds=[[0, 0]],
            k=2,
            l_diversty={"sensitive": "salary", "l": 1},
        )


def test_adult_matches_arx_optimize_iterative_with_adaption(_adult_table, adult_hierarchies_dir):
    """gsFactor adaption (ARX ``optimizeIterative(handle, gsFactor, maxIterations,
    adaptionFactor)``). ARX built from its source (commit aacd487), harness
    tests/data/arx/AdaptHarness.java: adult, the 8 quasi-identifiers with these
    hierarchies, salary-class insensitive, ``KAnonymity(5)``, ``setSuppressionLimit(1.0)``,
    ``Metric.createLossMetric()``; then ``result.optimizeIterative(output, 0.0, 100, 0.2)``.
    ARX printed: global [0, 3, 0, 0, 2, 1, 0, 1], loss 0.22004987619069327, 3049 outliers;
    step 0 [0, 0, 0, 0, 0, 0, 0, 0] transformed 0 (gsFactor 0: removing every record is
    free, score 0.0); step 1 [0, 3, 0, 0, 3, 1, 1, 2] transformed 2446 (gsFactor 0.2);
    step 2 nothing (removing all scores 0.39999999996, the suppression factor 0.4); step 3
    [0, 4, 0, 2, 3, 1, 1, 2] 557 (gsFactor 0.4); step 4 [0, 4, 1, 2, 2, 2, 1, 2] 40;
    step 5 [0, 4, 1, 2, 1, 2, 2, 2] 6; 0 outliers after, output hash -542114073."""
    hierarchies = {
        c: read_hierarchy(adult_hierarchies_dir / f"adult_hierarchy_{c}.csv") for c in QI8
    }
    target = Target(k=5, max_suppressed=1.0)
    optimum = search(_adult_table, hierarchies, target, measure="arx_loss").optimum
    assert dict(optimum.levels) == _levels([0, 3, 0, 0, 2, 1, 0, 1])
    assert optimum.suppressed == 3049
    result = recode_suppressed(
        _adult_table, hierarchies, target, optimum, measure="arx_loss", gs_factor=0.0, adaption=0.2
    )
    assert [dict(r) for r in result.rounds] == [
        _levels(v)
        for v in (
            [0, 3, 0, 0, 3, 1, 1, 2],
            [0, 4, 0, 2, 3, 1, 1, 2],
            [0, 4, 1, 2, 2, 2, 1, 2],
            [0, 4, 1, 2, 1, 2, 2, 2],
        )
    ]
    assert result.released_per_round[1:] == (2446, 557, 40, 6)
    assert result.suppressed_after == 0
    assert _arx_output_hash(_adult_table, result.data) == -542114073
    # Without adaption the first round (gsFactor 0) releases nothing and recoding stops.
    still = recode_suppressed(
        _adult_table, hierarchies, target, optimum, measure="arx_loss", gs_factor=0.0
    )
    assert still.rounds == () and still.suppressed_after == 3049
