"""Checking one node of the lattice against the target: its failing (suppressed) classes,
whether the target holds, and the figures the measures need.

A node is a *solution* when, after removing the records of every equivalence class that
fails a privacy model (record suppression, PDPC guide Annex A; ARX's semantics: a class
failing *any* model is suppressed), at most the allowed share of records is removed. Only
the part of the target that prunes (:func:`core.search.model_checks.pruning_models`) is
checked first; the rest only on nodes that meet it. Apart from the roll-up (which says
what a node's classes are) and from the measures (which say what a solution costs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.search.model_checks import pruning_models, sensitive_figures, whole_target_prunes
from core.search.preparation import PreparedTable
from core.search.rollup import Classes, RollUp
from core.search.target import Target


@dataclass(frozen=True)
class NodeEvaluation:
    """What one node evaluation found: the target's verdict and the figures measures need."""

    prune_ok: bool  # the part of the target that prunes (all of it when monotone) holds
    ok: bool  # the whole target holds
    suppressed: int
    # The figures below are 0 when prune_ok is False (such a node is never a candidate).
    k: int  # smallest kept class
    classes: int  # kept classes
    all_classes: int  # classes before suppression
    sum_squares: float  # sum of squared class sizes before suppression
    kept_squares: float  # sum of squared sizes of the kept classes
    # The failing classes (when prune_ok): one unit of each and its class's records. A unit,
    # not a class number: a node keyed again later may number its classes differently,
    # while its units keep their generalised values.
    failing_reps: np.ndarray | None
    failing_sizes: np.ndarray | None


class Evaluator:
    """Node evaluation for one search: the verdict of the target on a node's classes
    (from ``roll_up``), counted in :attr:`evaluated`."""

    def __init__(self, table: PreparedTable, roll_up: RollUp, target: Target):
        self.table = table
        self.roll_up = roll_up
        self.target = target
        self.n = table.n
        self.heights = table.heights
        self.limit = int(np.floor(target.max_suppressed * self.n + 1e-9))
        self.models = target.models
        self.prune_models = pruning_models(self.models, self.limit)
        # The models' tests with their settings found once (a search tests many nodes).
        self._prune_failing = self.prune_models.failing_test()
        self._target_failing = self.models.failing_test()
        # Whether the whole target prunes in both directions (no node needs a re-check).
        self.monotone = whole_target_prunes(target, self.models, self.limit)
        self.evaluated = 0

    def in_population(self, levels, classes: Classes) -> np.ndarray | None:
        """k-map with a population table: the population records of each class."""
        if self.table.population is None:
            return None
        codes = [
            c.codes[lv][classes.reps] for c, lv in zip(self.table.columns, levels, strict=True)
        ]
        return self.table.population.counts(levels, codes)

    def failing(self, levels, classes: Classes) -> tuple[np.ndarray, bool, bool]:
        """Failing (suppressed) classes of a node, and whether the pruning part and the whole
        target hold."""
        fail, prune_ok, ok, _ = self._failing(levels, classes)
        return fail, prune_ok, ok

    def _failing(self, levels, classes: Classes) -> tuple[np.ndarray, bool, bool, int]:
        """:meth:`failing`, and the records of the failing classes."""
        sizes = classes.sizes
        in_population = self.in_population(levels, classes)
        fail = self._prune_failing(sizes, classes.dist, in_population)
        suppressed = _records(sizes, fail)
        prune_ok = ok = suppressed <= self.limit and suppressed < self.n
        if prune_ok and not self.monotone:
            fail = self._target_failing(sizes, classes.dist, in_population)
            suppressed = _records(sizes, fail)
            ok = suppressed <= self.limit and suppressed < self.n
        if ok and self.target.sample_based:
            fail = fail | self._table_suppression(levels, classes, fail, suppressed)
            suppressed = _records(sizes, fail)
            ok = suppressed <= self.limit and suppressed < self.n
            if self.monotone:  # average risk alone: its verdict prunes too
                prune_ok = ok
        return fail, prune_ok, ok, suppressed

    def evaluate(self, levels: Sequence[int]) -> NodeEvaluation:
        """The node's verdict; the figures of its classes only when the pruning part holds
        (a node failing it has no measures, and is never a candidate)."""
        self.evaluated += 1
        classes = self.roll_up.node_classes(levels)
        sizes = classes.sizes
        fail, prune_ok, ok, suppressed = self._failing(levels, classes)
        if not prune_ok:
            return NodeEvaluation(False, False, suppressed, 0, 0, 0, 0.0, 0.0, None, None)
        all_classes = int(np.count_nonzero(sizes))
        sum_squares = float(sizes @ sizes)
        if not suppressed and all_classes == sizes.size:  # every class kept (no suppression)
            kept, kept_squares = sizes, sum_squares
        else:
            kept = sizes[~fail & (sizes > 0)]
            kept_squares = float(kept @ kept)
        return NodeEvaluation(
            prune_ok=prune_ok,
            ok=ok,
            suppressed=suppressed,
            k=int(round(kept.min())) if kept.size else 0,
            classes=int(kept.size),
            all_classes=all_classes,
            sum_squares=sum_squares,
            kept_squares=kept_squares,
            failing_reps=classes.reps[fail],
            failing_sizes=sizes[fail],
        )

    def _table_suppression(self, levels, classes: Classes, fail, suppressed: int) -> np.ndarray:
        """The classes ARX suppresses for the whole-table criteria after the per-class
        ones (``fail``). At the top node the only class is all '*', which ARX's risk model
        counts as suppressed: the criteria hold there with nothing more removed."""
        if (np.asarray(levels) == self.heights).all():
            return np.zeros(classes.size, dtype=bool)
        remaining = np.where(fail, 0, np.round(classes.sizes)).astype(np.int64)
        return self.target.table_suppression(remaining, classes.first, self.limit - suppressed)

    def table_figures(self, levels: Sequence[int], ev: NodeEvaluation) -> dict[str, float]:
        """Average risk and population uniqueness of a node's released classes."""
        if not self.target.sample_based and self.target.population is None:
            return {}
        classes = self.roll_up.node_classes(levels)
        fail, _, _ = self.failing(levels, classes)
        sizes = classes.sizes[~fail]
        return self.target.table_figures(np.round(sizes[sizes > 0]).astype(np.int64))

    def sensitive_figures(self, levels: Sequence[int], ev: NodeEvaluation) -> dict[str, float]:
        """Privacy figures of the sensitive attribute on the kept classes of a node."""
        sensitive = self.table.sensitive
        if sensitive is None:
            return {}
        classes = self.roll_up.node_classes(levels)
        fail, _, _ = self.failing(levels, classes)
        d = classes.dist
        kept = ~fail[d.pair_class]
        dist = sensitive.distribution(
            d.pair_class[kept], d.pair_value[kept], classes.size, d.pair_count[kept]
        )
        return sensitive_figures(dist, self.models)


def _records(sizes: np.ndarray, fail: np.ndarray) -> int:
    """Records of the failing classes (``sizes`` of the classes, ``fail`` a mask of them)."""
    return int(round(sizes[fail].sum())) if fail.any() else 0
