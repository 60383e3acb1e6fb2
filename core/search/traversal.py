"""Walking the lattice: the exact search (every node's verdict, most of them by tagging)
and the greedy fallback.

The exact search evaluates nodes in a binary-search order, tagging the generalisations of
a solution as solutions and the specialisations of a non-solution as non-solutions
(predictive tagging, as ARX/Flash), until every node is known: the count of solutions and
the frontier need every verdict, so at least every minimal solution and every maximal
non-solution is evaluated. The frontier's measures are computed together, in one batch;
the optimum is then found by branch and bound (:mod:`core.search.ranking`).

Limits: the exact search enumerates the lattice (product of hierarchy heights + 1); up to
``max_nodes`` (default 200,000 nodes, about 10 quasi-identifiers with 3-4 levels each)
it is exact. Beyond, :func:`core.search.run.search` falls back to a greedy search:
bottom-up, one level of one quasi-identifier at a time (the step that removes most
records from small classes per unit of loss) until the target is met, then top-down,
undoing levels while the target still holds. The result is a solution with no solution
directly below it, found with about (quasi-identifiers x steps) evaluations, but it is
not guaranteed optimal and its frontier holds that one node only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from core.progress import ProgressFn
from core.search.evaluation import NodeEvaluation
from core.search.lattice import Lattice
from core.search.ranking import branch_and_bound, rank


def exact_search(lattice: Lattice, measure: str, report: ProgressFn, exhaustive: bool):
    """Every node's verdict (evaluated or tagged; all evaluated when ``exhaustive``), then
    the frontier (minimal solutions) and the optimum: ``(optimum, frontier, solutions)``."""
    grid = lattice.grid()
    size = len(grid)
    status = np.zeros(size, dtype=np.int8)  # k part (or whole target if monotone): 1/-1
    evals: dict[int, NodeEvaluation] = {}
    if exhaustive:
        for idx in range(size):
            ev = evals[idx] = lattice.evaluate(grid[idx])
            status[idx] = 1 if ev.prune_ok else -1
            if idx % 256 == 0:
                report(0.8 * idx / size, "evaluating every node")
    rng = np.random.default_rng(0)  # fixed: the same search visits the same nodes
    # The lattice as an array of shape heights + 1 (a view of status): the generalisations
    # of a node (every level >= its own) are one box of it, its specialisations another,
    # so tagging is a slice, not a test of every node against every level.
    box = status.reshape(tuple(int(h) + 1 for h in lattice.heights))
    rows = LevelRows(grid)
    # Without suppression solutions are few and near the top: after each verdict its
    # unknown neighbours across the border (below a solution, above a non-solution) are
    # evaluated next, last found first, which walks along the border (on adult, k = 2 to
    # 50: about half the evaluations of binary searches on random chains; with 1%
    # suppressed, the chains need fewer).
    probe = lattice.limit == 0
    strides, heights = lattice.strides.tolist(), lattice.heights.tolist()
    log_cards = [np.log2(column.cards).tolist() for column in lattice.columns]
    queue: list[int] = []
    unknown = 0 if exhaustive else size
    known = memoryview(status)  # the chain walk reads single nodes: Python ints, not numpy's
    while unknown:
        idx = -1
        while queue and idx < 0:
            node = queue.pop()
            idx = node if known[node] == 0 else -1
        if idx < 0:
            undecided = np.flatnonzero(status == 0)
            start = int(undecided[rng.integers(undecided.size)])  # rng.choice's draw, cheaper
            idx = chain_middle(start, known, rows, lattice, rng)
        levels = rows[idx]
        ev = evals[idx] = lattice.evaluate(levels)
        if ev.prune_ok:  # a solution: so is every generalisation
            region = box[tuple([slice(level, None) for level in levels])]
        else:  # a non-solution: so is every specialisation
            region = box[tuple([slice(0, level + 1) for level in levels])]
        # The verdict of the pruning part is monotone: a node of the region is either
        # unknown or already has this verdict, so the whole region is set at once.
        unknown -= region.size - int(np.count_nonzero(region))
        region[...] = 1 if ev.prune_ok else -1
        if probe:
            step = -1 if ev.prune_ok else 1
            queue += [
                idx + step * stride
                for _, i, stride in sorted(
                    (log_cards[i][levels[i] + step] - log_cards[i][levels[i]], i, stride)
                    for i, stride in enumerate(strides)
                    if (levels[i] > 0 if step < 0 else levels[i] < heights[i])
                    and known[idx + step * stride] == 0
                )
            ]
        report(0.8 * (1 - unknown / size), "telling solutions apart")

    def get(idx: int) -> NodeEvaluation:
        if idx not in evals:
            evals[idx] = lattice.evaluate(grid[idx])
        return evals[idx]

    feasible = status == 1
    if not lattice.monotone:  # the rest of the target is checked on every pruning solution
        for idx in np.flatnonzero(feasible):
            feasible[idx] = get(int(idx)).ok
    report(0.85, "finding the minimal solutions")
    below = solution_below(feasible, lattice.heights, upward_closed=lattice.monotone)
    frontier_idx = np.flatnonzero(feasible & ~below)
    frontier = lattice.candidates(grid[frontier_idx], [get(int(i)) for i in frontier_idx])
    made = dict(zip(frontier_idx.tolist(), frontier, strict=True))
    report(0.9, "finding the optimum")
    optimum = branch_and_bound(lattice, grid, feasible, measure, get, made)
    return optimum, frontier, int(feasible.sum())


def solution_below(
    feasible: np.ndarray, heights: np.ndarray, upward_closed: bool = False
) -> np.ndarray:
    """Per node (mixed-radix index): whether a node strictly below it is ``feasible``, so
    the minimal solutions are ``feasible & ~solution_below(...)``. With the lattice as an
    array of shape ``heights + 1``, "a solution at or below" is a running OR along every
    axis; a node has one strictly below when a direct predecessor has one at or below.
    ``upward_closed``: every generalisation of a feasible node is feasible (a monotone
    target), so a direct predecessor is itself feasible when any node below it is, and
    the running OR is not needed."""
    shape = tuple(int(h) + 1 for h in heights)
    reach = feasible.reshape(shape)
    if not upward_closed:
        for axis in range(len(shape)):
            reach = np.logical_or.accumulate(reach, axis=axis)
    below = np.zeros(shape, dtype=bool)
    for axis in range(len(shape)):
        node = tuple(slice(1, None) if a == axis else slice(None) for a in range(len(shape)))
        pred = tuple(slice(None, -1) if a == axis else slice(None) for a in range(len(shape)))
        below[node] |= reach[pred]
    return below.ravel()


class LevelRows(dict):
    """A node's levels as a list of ints (index -> list), made on first use: the search reads
    a few of the lattice's nodes this way (135 of 6,480 on adult k = 5, 0%; 2,102 with 1%
    suppressed), and a list per node for all of them cost more than that search."""

    def __init__(self, grid: np.ndarray):
        super().__init__()
        self.grid = grid

    def __missing__(self, idx: int) -> list[int]:
        row = self[idx] = self.grid[idx].tolist()
        return row


def chain_middle(
    start: int, status: Sequence[int], rows: Mapping[int, list[int]], lattice: Lattice, rng
) -> int:
    """Binary search on a chain (Flash-like): walk from ``start`` through unknown nodes up
    to a maximal and down to a minimal one, one random step at a time, and return the
    middle of that chain. Its verdict then settles about half of the chain.
    (Levels as plain lists: this walk is many tiny steps, where numpy rows are slow.)"""
    path = [start]
    strides, heights = lattice.strides.tolist(), lattice.heights.tolist()
    for direction in (1, -1):
        current = start
        while True:
            levels = rows[current]
            steps = [
                current + direction * stride
                for i, stride in enumerate(strides)
                if (levels[i] < heights[i] if direction > 0 else levels[i] > 0)
                and status[current + direction * stride] == 0
            ]
            if not steps:
                break
            current = steps[int(rng.integers(len(steps)))]
            path.append(current) if direction > 0 else path.insert(0, current)
    return path[len(path) // 2]


def greedy_search(lattice: Lattice, measure: str, report: ProgressFn):
    """The greedy fallback (module docstring): ``(optimum, [optimum], -1)``, or
    ``(None, [], -1)`` when even the top node fails."""
    node = np.zeros(len(lattice.qis), dtype=np.int64)
    ev = lattice.evaluate(node)
    bound = lattice.static_bound
    steps = int(lattice.heights.sum())
    while not ev.ok:
        options = [
            node + np.eye(len(node), dtype=np.int64)[i]
            for i in range(len(node))
            if node[i] < lattice.heights[i]
        ]
        if not options:
            return None, [], -1
        scored = []
        for option in options:
            option_ev = lattice.evaluate(option)
            gain = ev.suppressed - option_ev.suppressed
            cost = max(
                float(bound(option[None, :], "loss")[0] - bound(node[None, :], "loss")[0]), 1e-9
            )
            scored.append((not option_ev.ok, -gain / cost, option_ev.suppressed, tuple(option)))
        best = min(range(len(options)), key=lambda j: scored[j])
        node = options[best]
        ev = lattice.evaluate(node)
        report(0.8 * node.sum() / max(steps, 1), "greedy search")
    improved = True
    while improved:  # top-down: undo levels while the target still holds
        improved = False
        options = []
        for i in range(len(node)):
            if node[i] > 0:
                lower = node.copy()
                lower[i] -= 1
                lower_ev = lattice.evaluate(lower)
                if lower_ev.ok:
                    options.append(lattice.candidate(lower, lower_ev))
        if options:
            choice = min(options, key=lambda c: rank(c, measure))
            node = np.array([choice.levels[q] for q in lattice.qis], dtype=np.int64)
            improved = True
    best = lattice.candidate(node, lattice.evaluate(node))
    return best, [best], -1
