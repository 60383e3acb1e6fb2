"""Lower bounds of the measures, for pruning the search for the optimum (branch and bound,
:mod:`core.search.ranking`).

A *static* bound holds at a node and at all its generalisations before the node is
evaluated (from the per-level totals prepared once); a *dynamic* bound is learnt from an
evaluated node and holds at all its generalisations. Both only grow with generalisation,
which is what lets the optimum be found without measuring every solution. Apart from the
measures because a bound is a claim about many nodes, checked by its own tests.
"""

from __future__ import annotations

import numpy as np

from core.search.evaluation import NodeEvaluation
from core.search.measures import Measures, arx_geometric_loss

#: Measures with a static bound from the per-level totals: branch and bound visits the
#: solutions by increasing static bound, so once a node's bound exceeds the best value,
#: every later node's does too and the search for the optimum stops there.
SORTED_BOUND_MEASURES = (
    "loss",
    "arx_loss",
    "precision",
    "entropy",
    "arx_entropy",
    "arx_entropy_monotonic",
    "height",
)


def static_bound(measures: Measures, grid: np.ndarray, measure: str) -> np.ndarray:
    """Lower bound of ``measure`` at each node, valid for it and all generalisations."""
    if measure == "height":
        return grid.sum(axis=1).astype(float)
    columns = measures.columns
    if measure in ("loss", "precision", "entropy"):
        total = np.zeros(len(grid))
        for i, column in enumerate(columns):
            total += column.level_totals[measure][grid[:, i]]
        return total / measures.normaliser(measure)
    if measure in ("arx_entropy", "arx_entropy_monotonic"):  # generalisation part (all
        # records); suppression adds to arx_entropy
        per_column = np.stack(
            [c.level_totals["entropy"][grid[:, i]] for i, c in enumerate(columns)], axis=1
        )
        return measures.g_factor * (per_column @ measures.column_weights)
    if measure == "arx_loss":  # every record charged g x its share: ARX's lower bound
        level_loss = np.stack(
            [c.level_totals["loss"][grid[:, i]] for i, c in enumerate(columns)], axis=1
        )
        per_column = measures.arx_loss_columns(level_loss, np.zeros_like(level_loss), 0.0)
        return arx_geometric_loss(per_column, measures.column_weights)
    return np.zeros(len(grid))


def dynamic_bound(n: int, ev: NodeEvaluation, measure: str) -> float:
    """Lower bound of ``measure`` for every generalisation of an evaluated node (``n``:
    records of the table)."""
    if measure in ("discernibility", "arx_dm_star"):
        return ev.sum_squares
    if measure == "avg_class_size":
        return float(n / (ev.all_classes + 1))
    return 0.0
