"""A search as it goes: how many nodes of the lattice were checked, the best solution found
so far (its loss and levels in words), and a stop that keeps it.

Large tables make long searches (PDPC guide, Step 3: thousands of nodes). :class:`SearchWatch`
sits between the traversal and the caller's ``progress(fraction, text)``: every node that
meets the whole target is noted as it is evaluated (:meth:`Lattice.evaluate` calls
:meth:`SearchWatch.seen`), and at most every ``interval`` seconds the noted nodes get their
measures (in one batch) and the best of them, ranked as the optimum is
(:func:`core.search.ranking.rank`), becomes the best so far. A caller stops the search by
raising :class:`StopSearch` from its progress callback (or, when asked, with Ctrl-C): the
search then returns the best found so far, labelled "stopped after N of M nodes: the best
found so far, possibly not the optimum" (:attr:`SearchResult.stopped`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from core.hierarchy import Hierarchy
from core.progress import ProgressFn, no_progress
from core.search.evaluation import NodeEvaluation
from core.search.lattice import Lattice
from core.search.measures import MEASURES
from core.search.ranking import rank
from core.search.result import Candidate

#: Seconds between two measurings of the solutions found (the best so far): a search that
#: ends sooner measures nothing more than before.
UPDATE_INTERVAL = 1.0


class StopSearch(Exception):  # noqa: N818 (an order to stop, not an error)
    """Raised by a search's progress callback to stop it and keep the best found so far."""


def level_words(levels: Mapping[str, int], hierarchies: Mapping[str, Hierarchy]) -> str:
    """A node's levels in words: each generalised column with an example of its level
    ("dob → 1985, addr → *"), the others "unchanged" ("all unchanged" when none is)."""
    parts = []
    for column, level in levels.items():
        if level == 0:
            continue
        labels = hierarchies[column].levels[level]
        example = "*" if level == hierarchies[column].height else str(labels.iloc[0])
        parts.append(f"{column} → {example}")
    if not parts:
        return "all unchanged"
    return ", ".join(parts) + ("" if len(parts) == len(levels) else ", the rest unchanged")


class SearchWatch:
    """The best solution found so far and the progress text of one search (module
    docstring). ``on_best(candidate)`` gets the best so far with each report, once there
    is one."""

    def __init__(
        self,
        lattice: Lattice,
        hierarchies: Mapping[str, Hierarchy],
        measure: str,
        progress: ProgressFn,
        *,
        on_best: Callable[[Candidate], None] | None = None,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.lattice = lattice
        self.hierarchies = hierarchies
        self.measure = measure
        self.progress = progress
        self.on_best = on_best
        self.interval = UPDATE_INTERVAL if interval is None else interval
        self.clock = clock
        self.pending: list[tuple[tuple[int, ...], NodeEvaluation]] = []
        self.best: Candidate | None = None
        self.words = "no solution found yet"  # the best so far in words, made once per best
        self.updated_at = clock()  # a search shorter than the interval measures nothing extra
        lattice.on_solution = self.seen

    def seen(self, levels: Sequence[int], ev: NodeEvaluation) -> None:
        """Note a node meeting the whole target (its measures come with the next update)."""
        self.pending.append((tuple(int(v) for v in levels), ev))

    def update(self) -> Candidate | None:
        """Measure the nodes noted since the last update (one batch) and keep the best."""
        batch = list(self.pending)
        noted = len(batch)
        levels = np.array([node for node, _ in batch], dtype=np.int64).reshape(
            noted, len(self.lattice.qis)
        )
        if self.best is not None and batch:  # only nodes whose lower bound can beat it
            bound = self.lattice.static_bound(levels, self.measure)
            near = np.flatnonzero(bound <= self.best.measures[self.measure] + 1e-12)
            levels, batch = levels[near], [batch[i] for i in near]
        found = self.lattice.candidates(levels, [ev for _, ev in batch]) if batch else []
        del self.pending[:noted]  # only once measured: a Ctrl-C keeps them
        best = min(found, key=lambda c: rank(c, self.measure), default=None)
        if best is not None and (
            self.best is None or rank(best, self.measure) < rank(self.best, self.measure)
        ):
            self.best = best
            self.words = self.best_words()
        self.updated_at = self.clock()
        return self.best

    def report(self, fraction: float, message: str) -> None:
        """The traversal's progress, passed on with the nodes checked and the best so far."""
        if self.clock() - self.updated_at >= self.interval:
            self.update()
        if self.best is not None and self.on_best is not None:
            self.on_best(self.best)  # before the caller's progress, which may stop the search
        if self.progress is not no_progress:  # the words only for a caller that shows them
            self.progress(fraction, f"{self.checked()}; {message}; {self.words}")

    def checked(self) -> str:
        return f"{self.lattice.evaluated:,} of {self.lattice.size:,} nodes checked"

    def best_words(self) -> str:
        """The best so far in words: its loss under the measure and its levels."""
        if self.best is None:
            return "no solution found yet"
        name = MEASURES[self.measure].split(":")[0]
        value = self.best.measures[self.measure]
        return (
            f"best so far: {name} {value:.4g}, {self.best.suppressed:,} removed "
            f"({level_words(self.best.levels, self.hierarchies)})"
        )
