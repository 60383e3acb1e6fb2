"""The parts of core/search/ tested alone: roll-up, evaluation and bounds (issue 28 split
the old _Lattice so that each can be). Expected figures are counted by hand in the
docstrings, or come from pandas groupby and from brute force over every node."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.errors import ParameterError
from core.hierarchy import Hierarchy, read_hierarchy
from core.search import MEASURES, Target
from core.search.evaluation import Evaluator
from core.search.lattice import Lattice
from core.search.preparation import PreparedTable
from core.search.rollup import RollUp

# Five records (a, b): (x,p) (x,p) (y,p) (z,q) (y,q); both hierarchies one level to '*'.
FIVE = pd.DataFrame({"a": list("xxyzy"), "b": list("pppqq")})
TOP = {c: Hierarchy(pd.DataFrame({0: sorted(set(FIVE[c])), 1: "*"})) for c in "ab"}


def _parts(target: Target) -> tuple[PreparedTable, RollUp, Evaluator]:
    table = PreparedTable(FIVE, TOP, target)
    roll_up = RollUp(table, target.sample_based)
    return table, roll_up, Evaluator(table, roll_up, target)


def test_evaluator_alone_by_hand():
    """k = 2, up to 60% (3 of 5 records) suppressed.
    - (0,0): classes (x,p) 2, (y,p) 1, (z,q) 1, (y,q) 1: three fail, 3 suppressed (allowed);
      squares 4 + 1 + 1 + 1 = 7 of which 4 kept.
    - (1,0): a = '*': p 3, q 2; nothing suppressed; squares 9 + 4 = 13.
    - (0,1): b = '*': x 2, y 2, z 1; z suppressed; squares 4 + 4 + 1 = 9, 8 kept."""
    _, _, evaluator = _parts(Target(k=2, max_suppressed=0.6))
    assert evaluator.limit == 3
    expected = {
        (0, 0): (3, 2, 1, 4, 7.0, 4.0),
        (1, 0): (0, 2, 2, 2, 13.0, 13.0),
        (0, 1): (1, 2, 2, 3, 9.0, 8.0),
    }
    for node, (suppressed, k, classes, all_classes, squares, kept) in expected.items():
        ev = evaluator.evaluate(node)
        assert ev.ok and ev.prune_ok
        assert (ev.suppressed, ev.k, ev.classes, ev.all_classes) == (
            suppressed,
            k,
            classes,
            all_classes,
        )
        assert (ev.sum_squares, ev.kept_squares) == (squares, kept)
        assert sorted(ev.failing_sizes.tolist()) == [1.0] * suppressed
    assert evaluator.evaluated == 3


def test_a_node_beyond_the_suppression_limit_has_no_figures():
    """k = 3 with at most 1 record suppressed: at (0,0) every class is below 3 (all 5
    records would go), so the node fails and carries no figures; at (1,1) one class of 5."""
    _, _, evaluator = _parts(Target(k=3, max_suppressed=0.2))
    bottom = evaluator.evaluate((0, 0))
    assert not bottom.prune_ok and not bottom.ok and bottom.suppressed == 5
    assert bottom.failing_reps is None and bottom.k == 0
    top = evaluator.evaluate((1, 1))
    assert top.ok and (top.k, top.classes, top.suppressed) == (5, 1, 0)


def test_roll_up_alone_matches_pandas_from_the_units_and_from_the_cache():
    """A node's class sizes are the same keyed from the units and rolled up from a cached
    node below it, and equal pandas' groupby of the generalised table."""
    table, roll_up, _ = _parts(Target(k=1))
    assert table.n_units == 4  # (x,p) twice, then three single records
    roll_up.node_classes((0, 0))  # keyed from the units, and cached
    rolled = roll_up.node_classes((1, 0))  # from the cached (0,0): its four representatives
    fresh = RollUp(table, False).node_classes((1, 0))  # nothing cached: from the units
    by_pandas = sorted(FIVE.groupby("b").size().tolist())  # a = '*': classes by b alone
    assert sorted(rolled.sizes.tolist()) == sorted(fresh.sizes.tolist()) == by_pandas


@pytest.fixture(scope="module")
def small_lattice(_adult_table, adult_hierarchies_dir) -> Lattice:
    columns = ["sex", "age", "race"]
    hierarchies = {
        c: read_hierarchy(adult_hierarchies_dir / f"adult_hierarchy_{c}.csv") for c in columns
    }
    df = _adult_table.sample(3000, random_state=5).reset_index(drop=True)
    return Lattice(df, hierarchies, Target(k=5, max_suppressed=0.05))


@pytest.mark.parametrize("measure", list(MEASURES))
def test_bounds_never_exceed_the_measure_at_or_above_a_node(small_lattice, measure):
    """What branch and bound relies on, checked by brute force over every node: a node's
    static bound, and the dynamic bound learnt from evaluating it, are at most the measure
    of every candidate at or above it (its generalisations)."""
    lattice = small_lattice
    grid = lattice.grid()
    evs = [lattice.evaluate(node) for node in grid]
    usable = [i for i, ev in enumerate(evs) if ev.prune_ok]
    candidates = lattice.candidates(grid[usable], [evs[i] for i in usable])
    value = np.full(len(grid), np.inf)
    value[usable] = [c.measures[measure] for c in candidates]
    static = lattice.static_bound(grid, measure)
    for i in range(len(grid)):
        above = (grid >= grid[i]).all(axis=1)
        lowest = value[above].min()
        assert static[i] <= lowest + 1e-9
        if evs[i].prune_ok:
            assert lattice.dynamic_bound(evs[i], measure) <= lowest + 1e-9
    assert len(usable) > 1 and np.isfinite(value).sum() == len(usable)


def test_group_records_by_hand_and_past_a_packable_key():
    """Six records coded on two columns, (0,1) (2,0) (0,1) (1,1) (2,0) (0,0): four units,
    numbered in the order of their combined key 0*2+0 < 0*2+1 < 1*2+1 < 2*2+0, i.e.
    (0,0) = unit 0 (record 5), (0,1) = unit 1 (records 0 and 2), (1,1) = unit 2 (record 3),
    (2,0) = unit 3 (records 1 and 4); a unit's first record is its smallest."""
    from core.search.preparation import group_records

    a, b = np.array([0, 2, 0, 1, 2, 0]), np.array([1, 0, 1, 1, 0, 0])
    unit, first = group_records([(a, 3), (b, 2)])
    assert unit.tolist() == [1, 3, 1, 2, 3, 0]
    assert first.tolist() == [5, 0, 3, 1]
    # Cardinalities whose product, with the record number packed below, passes 62 bits:
    # combine_codes' dense key instead (units in order of first appearance), same units.
    wide = [(a, 3), (b, 2), (np.zeros(6, dtype=np.int64), 2**60)]
    unit, first = group_records(wide)
    assert unit.tolist() == [0, 1, 0, 2, 1, 3]
    assert first.tolist() == [0, 1, 3, 5]


def test_key_runs_by_hand():
    """Key 7 3 7 0 3 3: codes in ascending key order 0 -> 0, 3 -> 1, 7 -> 2, so the rows get
    2 1 2 0 1 1; the first row of each: 3 (key 0), 1 (key 3), 0 (key 7). A key whose values
    need more than 62 bits with the row number packed below: None (left to a hash)."""
    from core.measures.codes import key_runs

    codes, first = key_runs(np.array([7, 3, 7, 0, 3, 3]))
    assert codes.tolist() == [2, 1, 2, 0, 1, 1] and first.tolist() == [3, 1, 0]
    assert key_runs(np.array([2**61, 0, 1])) is None


def test_columns_coded_together_keep_their_hierarchies_apart():
    """Two columns coded in one batch whose hierarchies share the labels "x" and "y" at
    level 1: each hierarchy's leaves under a label are its own. Column one (a, b, c ->
    x, x, y), values a and c: loss at level 1 (leaves - 1) / (3 - 1) = 0.5 for a ("x" holds
    a and b), 0 for c. Column two (p, q -> x, y): one leaf each, loss 0. Had the labels met,
    "x" would hold three leaves. A split in the second column names that column."""
    from core.search.preparation import columns_of_rows

    one = Hierarchy(pd.DataFrame({0: list("abc"), 1: list("xxy"), 2: "*"}))
    two = Hierarchy(pd.DataFrame({0: list("pq"), 1: list("xy"), 2: "*"}))
    first, second = columns_of_rows(
        ["one", "two"], [np.array([0, 2, 2]), np.array([1, 0, 0])], [one, two], None
    )
    assert first.cards == [2, 2, 1] and second.cards == [2, 2, 1]
    np.testing.assert_allclose(np.stack(first.value_loss), [[0, 0], [0.5, 0], [1, 1]])
    np.testing.assert_allclose(np.stack(second.value_loss), [[0, 0], [0, 0], [1, 1]])
    assert first.value_codes.tolist() == [0, 1, 1] and second.value_codes.tolist() == [1, 0, 0]
    split = Hierarchy(pd.DataFrame({0: list("pq"), 1: ["x", "x"], 2: ["g", "h"]}))
    with pytest.raises(ParameterError, match=r"column 'two' does not nest"):
        columns_of_rows(["one", "two"], [np.array([0, 2]), np.array([0, 1])], [one, split], None)
