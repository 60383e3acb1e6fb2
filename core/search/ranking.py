"""The optimum among the solutions: ranking candidates and branch and bound.

The optimum is found by branch and bound over the solutions, with lower bounds that only
grow with generalisation (:mod:`core.search.bounds`): solutions are visited by increasing
static bound, a node whose bound exceeds the best value so far is skipped, and an
evaluated node's dynamic bound is passed to all its generalisations. Ties are broken by
height, then suppressed records (``suppressed`` ties by ``loss``). Apart from the traversal
because the exact and the greedy search rank candidates alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from core.search.bounds import SORTED_BOUND_MEASURES
from core.search.evaluation import NodeEvaluation
from core.search.lattice import Lattice
from core.search.result import Candidate


def rank(c: Candidate, measure: str) -> tuple:
    """Sort key of a candidate under ``measure`` (lower is better, ties broken as above)."""
    tie = c.measures["loss"] if measure == "suppressed" else 0.0
    return (round(c.measures[measure], 12), tie, c.measures["height"], c.suppressed)


def branch_and_bound(
    lattice: Lattice,
    grid: np.ndarray,
    feasible: np.ndarray,
    measure: str,
    get: Callable[[int], NodeEvaluation],
    known: Mapping[int, Candidate],
) -> Candidate | None:
    """The optimum among the ``feasible`` nodes. ``known``: candidates already made, by node."""
    nodes = np.flatnonzero(feasible)
    if not nodes.size:
        return None
    static = np.zeros(len(grid))  # lower bounds, needed at the solutions only
    static[nodes] = lattice.static_bound(grid[nodes], measure)
    order = nodes[np.lexsort((grid[nodes].sum(axis=1), static[nodes]))]
    dynamic = np.zeros(len(grid))
    best: Candidate | None = None
    sorted_bound = measure in SORTED_BOUND_MEASURES
    for idx in order:
        if best is not None:
            value = best.measures[measure]
            if sorted_bound and static[idx] > value + 1e-12:
                break  # every later node has a larger lower bound
            if max(static[idx], dynamic[idx]) > value + 1e-12 and measure != "suppressed":
                continue
        ev = get(int(idx))
        candidate = known.get(int(idx)) or lattice.candidate(grid[idx], ev)
        if best is None or rank(candidate, measure) < rank(best, measure):
            best = candidate
        bound = lattice.dynamic_bound(ev, measure)
        if bound > 0:
            up = (grid >= grid[idx]).all(axis=1)
            dynamic[up] = np.maximum(dynamic[up], bound)
    return best
