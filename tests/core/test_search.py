"""Tests for core/search.py: the lattice search for the least damaging generalisation.

Expected results come from independent methods: pandas groupby on the generalised table,
and a brute-force search over every level vector (itertools.product) written here.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from core.errors import ParameterError
from core.hierarchy import Hierarchy, read_hierarchy
from core.search import Target, apply_candidate, recipe_steps, search

QI8 = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass",
       "occupation"]  # fmt: skip


@pytest.fixture(scope="module")
def hierarchies(adult_hierarchies_dir) -> dict[str, Hierarchy]:
    return {c: read_hierarchy(adult_hierarchies_dir / f"adult_hierarchy_{c}.csv") for c in QI8}


@pytest.fixture(scope="module")
def adult8(_adult_table, hierarchies):
    target = Target(k=5, max_suppressed=0.01)
    return search(_adult_table, hierarchies, target, measure="loss")


def _generalised(df: pd.DataFrame, hierarchies, levels: dict[str, int]) -> pd.DataFrame:
    """The table at ``levels`` by plain dictionary lookups on the hierarchy tables."""
    out = df.copy()
    for column, level in levels.items():
        table = hierarchies[column].levels
        lookup = dict(zip(table[0], table[level], strict=True))
        out[column] = df[column].astype(str).map(lookup)
    return out


def _suppressed(df, hierarchies, levels, k) -> int:
    table = _generalised(df, hierarchies, levels)
    return int((table.groupby(list(levels))[list(levels)[0]].transform("size") < k).sum())


def _pandas_node(df, hierarchies, levels, k):
    """Records suppressed (in groups below k) and the loss metric, by pandas groupby."""
    table = _generalised(df, hierarchies, levels)
    size = table.groupby(list(levels))[list(levels)[0]].transform("size")
    small = size < k
    # Loss metric (ARX): (leaves under the value - 1) / (leaves in the hierarchy - 1);
    # suppressed records lose 1 in every column.
    total = 0.0
    for column, level in levels.items():
        h = hierarchies[column].levels
        leaves = h[level].map(h[level].value_counts())
        per_value = dict(zip(h[0], (leaves - 1) / (len(h) - 1), strict=True))
        loss = df[column].astype(str).map(per_value).to_numpy()
        total += np.where(small, 1.0, loss).sum()
    return int(small.sum()), total / (len(df) * len(levels))


def test_adult_eight_quasi_identifiers_k5_one_percent(_adult_table, hierarchies, adult8):
    df = _adult_table
    best = adult8.optimum
    assert best is not None and adult8.measure == "loss" and adult8.method == "exact"
    released = apply_candidate(df, hierarchies, best, k=5)
    sizes = released.groupby(QI8).size()
    assert sizes.min() >= 5
    removed = len(df) - len(released)
    assert removed == best.suppressed <= 0.01 * len(df)
    # Age keeps information (the greedy tool of the issue suppressed it entirely).
    assert best.levels["age"] < hierarchies["age"].height
    suppressed, loss = _pandas_node(df, hierarchies, dict(best.levels), 5)
    assert suppressed == best.suppressed
    assert best.measures["loss"] == pytest.approx(loss)
    assert adult8.evaluated < adult8.lattice_size / 2  # pruning did its job


def test_adult_every_solution_fully_generalises_two_columns(hierarchies, adult8):
    """Fact of this lattice, checked on the frontier (every solution lies above it): with
    sex and race having only '*' above them, no solution keeps all eight columns."""
    heights = {c: h.height for c, h in hierarchies.items()}
    tops = [sum(c.levels[q] == heights[q] for q in QI8) for c in adult8.frontier]
    assert min(tops) >= 2
    assert sum(c.levels["age"] == heights["age"] for c in [adult8.optimum]) == 0


def test_frontier_nodes_are_minimal_solutions(_adult_table, hierarchies, adult8):
    rng = np.random.default_rng(1)
    frontier = list(adult8.frontier)
    for candidate in [frontier[i] for i in rng.choice(len(frontier), 2, replace=False)]:
        levels = dict(candidate.levels)
        assert _suppressed(_adult_table, hierarchies, levels, 5) <= 301
        for column in QI8:
            if levels[column] > 0:
                lower = {**levels, column: levels[column] - 1}
                assert _suppressed(_adult_table, hierarchies, lower, 5) > 301


SMALL = ["age", "marital-status", "education"]


def _brute_force(df, hierarchies, k, limit, measure):
    """Every level vector, evaluated with pandas groupby; the best by ``measure``."""
    best = None
    ranges = [range(hierarchies[c].height + 1) for c in SMALL]
    for levels in itertools.product(*ranges):
        node = dict(zip(SMALL, levels, strict=True))
        table = _generalised(df, hierarchies, node)
        size = table.groupby(SMALL)[SMALL[0]].transform("size")
        small = size < k
        if small.sum() > limit:
            continue
        kept = table[~small].groupby(SMALL).size()
        if measure == "loss":
            value = _pandas_node(df, hierarchies, node, k)[1]
        elif measure == "discernibility":
            value = float((kept**2).sum() + small.sum() * len(df))
        else:  # precision: level / height per cell, 1 for suppressed records
            cells = sum(
                np.where(small, 1.0, lvl / hierarchies[c].height).sum() for c, lvl in node.items()
            )
            value = cells / (len(df) * len(SMALL))
        if best is None or value < best[0] - 1e-12:
            best = (value, node)
    return best


@pytest.mark.parametrize("measure", ["loss", "discernibility", "precision"])
def test_optimum_matches_brute_force(_adult_table, hierarchies, measure):
    df = _adult_table.sample(3000, random_state=3).reset_index(drop=True)
    small_h = {c: hierarchies[c] for c in SMALL}
    result = search(df, small_h, Target(k=10, max_suppressed=0.02), measure=measure)
    value, _ = _brute_force(df, hierarchies, 10, 60, measure)
    assert result.optimum.measures[measure] == pytest.approx(value, rel=1e-9)


def test_exhaustive_and_greedy_agree_on_solutions(_adult_table, hierarchies):
    df = _adult_table.sample(5000, random_state=4).reset_index(drop=True)
    small_h = {c: hierarchies[c] for c in SMALL}
    target = Target(k=5, max_suppressed=0.01)
    exact = search(df, small_h, target)
    full = search(df, small_h, target, method="exhaustive")
    assert exact.solutions == full.solutions
    assert [c.levels for c in exact.frontier] == [c.levels for c in full.frontier]
    greedy = search(df, small_h, target, method="greedy")
    assert greedy.optimum.suppressed <= 50
    assert greedy.optimum.measures["loss"] >= exact.optimum.measures["loss"] - 1e-12


def test_l_diversity_target_holds_on_kept_classes(_adult_table, hierarchies):
    df = _adult_table.sample(5000, random_state=5).reset_index(drop=True)
    small_h = {c: hierarchies[c] for c in SMALL}
    target = Target(k=3, max_suppressed=0.01, sensitive="salary-class", l=2)
    result = search(df, small_h, target)
    assert not result.monotone and result.note
    released = apply_candidate(df, small_h, result.optimum, k=3)
    distinct = released.groupby(SMALL)["salary-class"].nunique()
    assert distinct.min() >= 2 and len(df) - len(released) <= 50


def test_annex_d_threshold_raises_k():
    target = Target(k=2, p_reid_threshold=0.1, p_attempt=0.5)
    assert target.required_k == 5  # 0.5 / 5 = 0.1, the guide's medium-harm threshold


def test_recipe_steps_and_errors(adult8, tmp_path):
    paths = {c: f"h/{c}.csv" for c in QI8}
    steps = recipe_steps(adult8.optimum, paths, k=5)
    generalised = [s for s in steps if s["step"] == "generalise"]
    assert {s["column"] for s in generalised} == {
        c for c, lvl in adult8.optimum.levels.items() if lvl > 0
    }
    assert steps[-1] == {"step": "suppress_records", "below_k": 5, "quasi_identifiers": QI8}
    good = Hierarchy(pd.DataFrame({0: ["a", "b"], 1: ["x", "y"], 2: ["g", "g"]}))
    split = Hierarchy(pd.DataFrame({0: ["a", "b"], 1: ["x", "x"], 2: ["g", "h"]}))
    df = pd.DataFrame({"c": ["a", "b", "a"]})
    assert search(df, {"c": good}, Target(k=1)).optimum.levels == {"c": 0}
    assert search(df, {"c": good}, Target(k=3)).optimum.levels == {"c": 2}
    with pytest.raises(ParameterError, match="does not nest"):
        search(df, {"c": split}, Target(k=1))
    with pytest.raises(ParameterError, match="measure"):
        search(df, {"c": good}, Target(k=1), measure="nope")


def test_recipe_replays_the_candidate(_adult_table, hierarchies, adult8, tmp_path):
    from core.hierarchy import store_hierarchy
    from core.recipe import Recipe, apply_recipe

    best = adult8.optimum
    paths = {c: store_hierarchy(hierarchies[c], tmp_path, stem=c).name for c in QI8}
    recipe = Recipe(steps=recipe_steps(best, paths, k=5), seed=1)
    released = apply_recipe(_adult_table, recipe, base_dir=tmp_path).data
    assert len(_adult_table) - len(released) == best.suppressed
    assert released.groupby(QI8).size().min() >= 5


def _entropy_l_and_t(released: pd.DataFrame) -> tuple[float, float]:
    """Smallest exp(entropy) and largest equal-distance EMD of salary-class over classes."""
    shares = released.groupby(SMALL)["salary-class"].value_counts(normalize=True)
    entropy = (-shares * np.log(shares)).groupby(level=list(range(len(SMALL)))).sum()
    overall = released["salary-class"].value_counts(normalize=True)
    table = shares.unstack(fill_value=0.0).reindex(columns=overall.index, fill_value=0.0)
    emd = 0.5 * (table - overall).abs().sum(axis=1)
    return float(np.exp(entropy).min()), float(emd.max())


def test_entropy_l_and_t_closeness_targets_hold_on_kept_classes(_adult_table, hierarchies):
    df = _adult_table.sample(5000, random_state=7).reset_index(drop=True)
    small_h = {c: hierarchies[c] for c in SMALL}
    # Without l and t, the k-only optimum fails them: the targets really constrain.
    k_only = search(df, small_h, Target(k=3, max_suppressed=0.02)).optimum
    l_k_only, t_k_only = _entropy_l_and_t(apply_candidate(df, small_h, k_only, k=3))
    assert l_k_only < 1.25 or t_k_only > 0.3
    target = Target(k=3, max_suppressed=0.02, sensitive="salary-class", l=1.25,
                    l_kind="entropy", t=0.3)  # fmt: skip
    optimum = search(df, small_h, target).optimum
    released = apply_candidate(df, small_h, optimum, k=3)
    assert len(df) - len(released) <= 0.02 * len(df)
    l_entropy, t_max = _entropy_l_and_t(released)
    assert l_entropy >= 1.25 - 1e-9
    assert t_max <= 0.3 + 1e-9
    top = {c: small_h[c].height for c in SMALL}
    assert dict(optimum.levels) != top  # not the trivial all-'*' node
