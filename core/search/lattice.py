"""The generalisation lattice of one search: its nodes and levels, and one object that
brings together what a node needs (preparation, roll-up, evaluation, measures, bounds).

Each quasi-identifier has a generalisation hierarchy (:mod:`core.hierarchy`); choosing
one level per quasi-identifier gives a *node* (PDPC guide, Step 3). Nodes are numbered in
mixed radix over the levels (:meth:`Lattice.grid`, :attr:`Lattice.strides`), which the
traversal (:mod:`core.search.traversal`) walks. Each part is a module of its own and can be
tested alone: :mod:`~core.search.preparation` (codes, once), :mod:`~core.search.rollup`
(a node's classes), :mod:`~core.search.evaluation` (the target's verdict),
:mod:`~core.search.measures` and :mod:`~core.search.bounds`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.search.bounds import dynamic_bound, static_bound
from core.search.evaluation import Evaluator, NodeEvaluation
from core.search.measures import Measures
from core.search.preparation import PreparedTable
from core.search.result import AloneColumn, Candidate
from core.search.rollup import RollUp
from core.search.target import Target


class Lattice:
    """The lattice of one search: codes per level, computed once (:attr:`table`), node
    classes by roll-up (:attr:`roll_up`), node evaluation (:attr:`evaluator`) and the
    measures of evaluated nodes (:attr:`measures`)."""

    def __init__(
        self,
        df: pd.DataFrame,
        hierarchies: Mapping[str, Hierarchy],
        target: Target,
        counts: np.ndarray | None = None,
    ):
        self.target = target
        self.table = PreparedTable(df, hierarchies, target, counts)
        self.roll_up = RollUp(self.table, target.sample_based)
        self.evaluator = Evaluator(self.table, self.roll_up, target)
        self.measures = Measures(self.table)
        self.qis = self.table.qis
        self.n = self.table.n
        self.columns = self.table.columns
        self.heights = self.table.heights
        self.strides = np.ones(len(self.qis), dtype=np.int64)
        for i in range(len(self.qis) - 2, -1, -1):
            self.strides[i] = self.strides[i + 1] * (self.heights[i + 1] + 1)
        self.size = int(np.prod(self.heights + 1))
        self.limit = self.evaluator.limit  # records that may be suppressed
        self.monotone = self.evaluator.monotone  # the whole target prunes both ways
        # Told of every evaluated node meeting the whole target (core.search.watch).
        self.on_solution: Callable[[Sequence[int], NodeEvaluation], None] | None = None

    def alone(self) -> tuple[AloneColumn, ...]:
        """The quasi-identifiers that fail k on their own at their coarsest level short of
        ``*`` with more records than may be removed (hence at every finer level too, as
        classes only merge going up): every solution generalises them to ``*``. From the
        records per class of each level, summed by the preparation."""
        k, found = self.target.required_k, []
        for column in self.columns:
            level = column.height - 1
            if level < 0:
                continue
            # Each class's records at that level, summed once in the preparation.
            sizes = np.round(column.level_sizes[level]).astype(np.int64)
            small = int(sizes[sizes < k].sum())
            if small > self.limit:
                unique = int(np.count_nonzero(sizes == 1))  # a class of one record
                found.append(AloneColumn(column.name, level, small, unique, self.n, k))
        return tuple(found)

    @property
    def evaluated(self) -> int:
        """Node evaluations so far."""
        return self.evaluator.evaluated

    def grid(self) -> np.ndarray:
        """Every node as a row of levels, row i = node with index i (mixed radix); a
        transposed view of ``np.indices`` (no copy: rows are read a few at a time)."""
        shape = tuple(int(h) + 1 for h in self.heights)
        return np.indices(shape, dtype=np.int64).reshape(len(shape), -1).T

    def evaluate(self, levels: Sequence[int]) -> NodeEvaluation:
        """The node's verdict (:meth:`core.search.evaluation.Evaluator.evaluate`)."""
        ev = self.evaluator.evaluate(levels)
        if ev.ok and self.on_solution is not None:
            self.on_solution(levels, ev)
        return ev

    def set_weighting(self, gs_factor: float, weights: Mapping[str, float] | None) -> None:
        """ARX's gsFactor and attribute weights (:meth:`Measures.set_weighting`)."""
        self.measures.set_weighting(gs_factor, weights)

    def static_bound(self, grid: np.ndarray, measure: str) -> np.ndarray:
        """Lower bound of ``measure`` at each node, valid for it and all generalisations."""
        return static_bound(self.measures, grid, measure)

    def dynamic_bound(self, ev: NodeEvaluation, measure: str) -> float:
        """Lower bound of ``measure`` for every generalisation of an evaluated node."""
        return dynamic_bound(self.n, ev, measure)

    def candidate(self, levels: Sequence[int], ev: NodeEvaluation) -> Candidate:
        """The candidate of one evaluated node (:meth:`candidates`)."""
        return self.candidates(np.asarray(levels, dtype=np.int64)[None, :], [ev])[0]

    def candidates(self, levels: np.ndarray, evs: Sequence[NodeEvaluation]) -> list[Candidate]:
        """The candidates of several evaluated nodes (one row of ``levels`` each), their
        measures computed together."""
        if any(ev.failing_reps is None for ev in evs):
            raise ParameterError("Only nodes that meet the k part have measures.")
        if not evs:
            return []
        measures, per_column = self.measures.of_nodes(np.asarray(levels, dtype=np.int64), evs)
        measure_rows = [
            dict(zip(measures, row, strict=True))
            for row in np.stack(list(measures.values()), axis=1).tolist()
        ]
        t = self.target
        out = []
        for node, ev, node_measures, losses in zip(
            levels.tolist(), evs, measure_rows, per_column.tolist(), strict=True
        ):
            p_reid = t.p_attempt / ev.k if t.p_reid_threshold is not None and ev.k else None
            out.append(
                Candidate(
                    levels=dict(zip(self.qis, node, strict=True)),
                    k=ev.k,
                    classes=ev.classes,
                    suppressed=ev.suppressed,
                    share_suppressed=ev.suppressed / self.n if self.n else 0.0,
                    max_risk=1.0 / ev.k if ev.k else 1.0,
                    p_reid=p_reid,
                    measures=node_measures,
                    column_loss=dict(zip((c.name for c in self.columns), losses, strict=True)),
                    sensitive_figures=self.evaluator.sensitive_figures(node, ev),
                    table_figures=self.evaluator.table_figures(node, ev),
                )
            )
        return out
