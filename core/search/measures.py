"""The utility measures of a node, all "lower is better" (PDPC guide, Step 3: the least
damage to the data that meets the target; the result states which one was optimised).

Figures named ``arx_*`` are ARX 3.9's definitions, so they can be compared with ARX; the
others are this project's and keep their own names:

- ``loss``: average loss. Iyengar's loss per value: a value generalised to g loses
  (leaves under g - 1) / (leaves in the hierarchy - 1), leaves counted in the whole
  hierarchy (its domain, as ARX does); suppressed records lose 1. Averaged over records
  per column, then the columns' figures averaged arithmetically (0 = unchanged, 1 = all
  ``*``).
- ``arx_loss``: ARX's "Loss": the same per-column figures combined geometrically,
  (prod(1 + v_i))^(1/n) - 1 (ARX's default aggregate). Always <= ``loss``.
- ``precision``: Sweeney's precision loss (1 - Prec): level / height, averaged likewise.
- ``entropy``: non-uniform entropy per record: -log2 P(original value | generalised
  value), in bits, summed over the quasi-identifiers and averaged over records; a
  suppressed record is charged as if generalised to ``*`` in the whole table.
- ``arx_entropy``: ARX's "Non-uniform entropy" (non-monotonic variant, SUM): the same
  -log2 P over every record at the node's levels, in bits, in total (not per record),
  plus, for suppressed records, -log2 of the share of their generalised value within the
  suppressed set.
- ``arx_entropy_monotonic``: ARX's monotonic "Non-uniform entropy"
  (``createEntropyMetric(true)``, ``createPrecomputedEntropyMetric(threshold, true)``): the
  first part only, -log2 P over every record at the node's levels, suppressed records
  included as if kept (the measure of ARX's t-closeness test cases).
- ``discernibility``: sum over kept classes of size squared, plus n per suppressed record
  (ARX's non-monotonic discernibility, ``createDiscernabilityMetric(false)``).
- ``arx_dm_star``: ARX's monotonic discernibility DM* (``createDiscernabilityMetric(true)``):
  sum of squared class sizes over every class, suppressed ones included.
- ARX's weighting (``search(gs_factor=..., weights=...)``, ARX's ``createLossMetric(gsFactor)``
  and ``ARXConfiguration.setAttributeWeight``) applies to the ``arx_*`` loss and entropy
  measures. ``gs_factor`` in [0, 1] (ARX's default 0.5: generalisation and suppression
  weigh the same) sets a generalisation factor g = 1 below 0.5, else 2 - 2 gs, and a
  suppression factor s = 2 gs below 0.5, else 1: ``arx_loss`` charges a kept value g x its
  share of the domain (leaves under it / leaves), a suppressed one 1 (s = 1) or share +
  s (1 - share), and maps that sum from [g n / leaves, n] to [0, 1]; the entropies take
  g x the generalisation part plus s x the suppression part. ``gs_factor`` 0 makes
  suppression free (only generalisation counts), 1 makes generalisation free. Per-column
  ``weights`` (ARX's default 0.5 each) are divided by the largest, then multiply each
  column's figure: ``arx_loss`` = (prod(1 + w_i v_i))^(1/n) - 1, the entropies sum(w_i v_i).
- ``avg_class_size``: records per equivalence class (suppressed records form one class).
- ``height``: sum of the chosen levels.
- ``suppressed``: records removed (ties broken by ``loss``).

The measures of many nodes (the frontier can hold hundreds) are computed together, in one
batch of array operations. Apart from the evaluation because a node's verdict needs none
of them; the lower bounds built on the same sums are :mod:`core.search.bounds`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from core.errors import ParameterError
from core.search.evaluation import NodeEvaluation
from core.search.preparation import PreparedTable
from core.validation import require_probability

MEASURES: dict[str, str] = {
    "loss": "average loss: Iyengar's loss per column, arithmetic mean over columns (0-1)",
    "arx_loss": "ARX loss: Iyengar's loss per column, combined geometrically as ARX 3.9 does (0-1)",
    "precision": "precision loss (1 - Sweeney's Prec): level / height",
    "entropy": "non-uniform entropy, bits per record, suppressed records charged as '*'",
    "arx_entropy": "ARX non-uniform entropy, bits in total, suppressed records charged within the "
    "suppressed set",
    "arx_entropy_monotonic": "ARX monotonic non-uniform entropy, bits in total, suppressed records "
    "charged as if kept",
    "discernibility": "discernibility: sum of squared class sizes, n per suppressed record",
    "arx_dm_star": "ARX monotonic discernibility (DM*): sum of squared class sizes, suppressed "
    "classes included",
    "avg_class_size": "average equivalence class size (records per class)",
    "height": "generalisation height (sum of levels)",
    "suppressed": "records suppressed (ties broken by loss)",
}


class Measures:
    """Every measure of evaluated nodes of one search's lattice, with ARX's weighting."""

    def __init__(self, table: PreparedTable):
        self.table = table
        self.qis = table.qis
        self.columns = table.columns
        self.n = table.n
        self.heights = table.heights
        self.g_factor, self.s_factor = 1.0, 1.0  # ARX's gsFactor 0.5 (see set_weighting)
        self.column_weights = np.ones(len(self.columns))

    def set_weighting(self, gs_factor: float, weights: Mapping[str, float] | None) -> None:
        """ARX's gsFactor and attribute weights for the ``arx_*`` measures (module docstring)."""
        gs = require_probability("gs_factor", gs_factor)
        self.s_factor = 2 * gs if gs < 0.5 else 1.0
        self.g_factor = 1.0 if gs <= 0.5 else 1 - 2 * (gs - 0.5)
        weights = dict(weights or {})
        unknown = [str(c) for c in weights if c not in self.qis]
        if unknown:
            raise ParameterError(
                f"Parameter 'weights' names {unknown[0]!r}, which is not a quasi-identifier; "
                f"give weights for {', '.join(map(repr, self.qis))}."
            )
        for column, weight in weights.items():
            if (
                isinstance(weight, bool)
                or not isinstance(weight, int | float | np.number)
                or not (0 <= float(weight) < float("inf"))
            ):
                raise ParameterError(
                    f"The weight of '{column}' must be a number >= 0, got {weight!r}."
                )
        raw = np.array([float(weights.get(c, 0.5)) for c in self.qis])  # ARX's default 0.5
        self.column_weights = raw / raw.max() if raw.max() > 0 else np.ones(raw.size)

    def arx_loss_columns(
        self, level_loss: np.ndarray, suppressed_loss: np.ndarray, suppressed: float
    ) -> np.ndarray:
        """ARX's per-column loss (MetricMDNMLoss) from this project's Iyengar sums: over all
        records and over the suppressed ones, with ARX's factors and normalisation."""
        n, g, s = float(max(self.n, 1)), self.g_factor, self.s_factor
        domain = np.array([c.domain for c in self.columns], dtype=float)
        share_all = (level_loss * (domain - 1) + n) / domain  # sum of leaves / domain
        share_supp = (suppressed_loss * (domain - 1) + suppressed) / domain
        charged = g * (share_all - share_supp) + (
            suppressed if s == 1 else share_supp + s * (suppressed - share_supp)
        )
        low = g * n / domain
        with np.errstate(divide="ignore", invalid="ignore"):
            value = (charged - low) / (n - low)
        value = np.where(np.isfinite(value) & (value > 0), value, 0.0)
        return np.floor(value * 1e10) / 1e10  # ARX rounds each column down to 10 decimals

    def normaliser(self, measure: str) -> float:
        if measure == "entropy":
            return float(max(self.n, 1))
        return float(max(self.n * len(self.columns), 1))

    def _measure_tables(self) -> None:
        """Per (column, level) tables flattened once, so a candidate's measures are a few
        gathers over its suppressed units instead of a loop of small numpy calls."""
        q, top = len(self.columns), int(self.heights.max()) + 1
        self._table_start = np.zeros((q, top), dtype=np.int64)
        self._code_row = np.zeros((q, top), dtype=np.int64)
        self._totals = {m: np.zeros((q, top)) for m in ("loss", "precision", "entropy")}
        self._cards = np.zeros((q, top), dtype=np.int64)
        loss, gap, rows, start = [], [], [], 0
        for i, column in enumerate(self.columns):
            for level in range(column.height + 1):
                self._table_start[i, level] = start
                self._code_row[i, level] = len(rows)
                self._cards[i, level] = column.cards[level]
                loss.append(column.value_loss[level])
                gap.append(column.value_max_entropy - column.value_entropy[level])
                rows.append(column.codes[level])
                start += len(column.value_loss[level])
                for m in self._totals:
                    self._totals[m][i, level] = column.level_totals[m][level]
        self._loss_flat, self._gap_flat = np.concatenate(loss), np.concatenate(gap)
        self._codes_by_row = self.table.unit_codes  # the rows above, in the same order

    def of_nodes(self, level: np.ndarray, evs: Sequence[NodeEvaluation]) -> tuple[dict, np.ndarray]:
        """Every measure of the nodes ``level`` (one row of levels per node, evaluations
        ``evs``) at once: a few array operations for all of them (the frontier can hold
        hundreds of nodes), each node's figures summed by node number. Returns the measures
        (one array per measure) and the per-column loss (nodes x columns)."""
        # Suppressed records by failing class (one unit of each, the class's records as its
        # weight): a class's records share its generalised values, and every per-record
        # figure below depends on those only.
        n = self.n
        if not hasattr(self, "_loss_flat"):
            self._measure_tables()
        nodes, q = level.shape
        columns = np.arange(q)
        suppressed = np.array([ev.suppressed for ev in evs], dtype=float)
        totals = {m: table[columns, level] for m, table in self._totals.items()}
        reps = np.concatenate([ev.failing_reps for ev in evs])
        weights = np.concatenate([ev.failing_sizes for ev in evs]).astype(float)
        owner = np.repeat(np.arange(nodes), [ev.failing_reps.size for ev in evs])
        owner_level = level[owner]
        # Each failing unit's value per column, gathered for those units only (none
        # without suppression): stacking every unit's values cost more than the batch.
        unit_values = np.stack([c.value_codes[reps] for c in self.columns], axis=1)
        cells = unit_values + self._table_start[columns, owner_level]
        slot = (owner[:, None] * q + columns).ravel()  # (node, column) of each cell

        def by_node(values: np.ndarray) -> np.ndarray:  # weighted sums per (node, column)
            return np.bincount(
                slot, (weights[:, None] * values).ravel(), minlength=nodes * q
            ).reshape(nodes, q)

        # suppressed records count as '*' in every column
        suppressed_loss = by_node(self._loss_flat[cells])
        totals["loss"] += suppressed[:, None] - suppressed_loss
        totals["precision"] += suppressed[:, None] * (1 - level / np.maximum(self.heights, 1))
        totals["entropy"] += by_node(self._gap_flat[cells])
        per_column = totals["loss"] / max(n, 1)
        out = {m: totals[m].sum(axis=1) / self.normaliser(m) for m in totals}
        arx_columns = self.arx_loss_columns(
            self._totals["loss"][columns, level], suppressed_loss, suppressed[:, None]
        )
        out["arx_loss"] = arx_geometric_loss(arx_columns, self.column_weights)
        generalised = self._totals["entropy"][columns, level]
        within = self._arx_entropy_within(reps, weights, owner, owner_level, suppressed)
        w, g = self.column_weights, self.g_factor
        out["arx_entropy"] = (g * generalised + self.s_factor * within) @ w
        out["arx_entropy_monotonic"] = (g * generalised) @ w
        out["discernibility"] = np.array([ev.kept_squares for ev in evs]) + suppressed * n
        out["arx_dm_star"] = np.array([ev.sum_squares for ev in evs], dtype=float)
        classes = np.array([ev.classes for ev in evs]) + (suppressed > 0)
        out["avg_class_size"] = n / np.maximum(classes, 1)
        out["height"] = level.sum(axis=1).astype(float)
        out["suppressed"] = suppressed
        return out, per_column

    def _arx_entropy_within(self, reps, weights, owner, owner_level, suppressed) -> np.ndarray:
        """The suppression part of ARX's non-uniform entropy (MetricMDNUNMEntropy) per node
        and column: for the suppressed records, -log2 of the share of their generalised
        value among the node's suppressed records (suppression charged within the
        suppressed set). The other part, -log2 P(original value | generalised value) over
        the whole table, is a per-level total (``_totals["entropy"]``)."""
        nodes, q = suppressed.size, len(self.columns)
        columns = np.arange(q)
        # one bin per (node, column, generalised code): codes below the column's level-0 count
        width = self._cards[:, 0]
        base = np.concatenate([[0], np.cumsum(width)[:-1]])
        codes = self._codes_by_row[self._code_row[columns, owner_level], reps[:, None]]
        bins = owner[:, None] * width.sum() + base + codes
        counts = np.bincount(bins.ravel(), np.repeat(weights, q), minlength=nodes * width.sum())
        present = np.flatnonzero(counts > 0)
        node_of, rest = np.divmod(present, width.sum())
        column_of = np.searchsorted(base, rest, side="right") - 1
        c = counts[present]
        return np.bincount(
            node_of * q + column_of, -c * np.log2(c / suppressed[node_of]), minlength=nodes * q
        ).reshape(nodes, q)


def arx_geometric_loss(per_column: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """ARX 3.9's aggregate of per-column losses v (its default for the loss metric,
    ILMultiDimensionalGeometricMean): (prod(1 + w_i v_i))^(1/n) - 1 along the last axis,
    weights w_i as ARX normalises them (largest 1; None: all 1). ARX truncates each v_i to
    10 decimals first; so do we."""
    truncated = np.floor(np.asarray(per_column, dtype=float) * 1e10) / 1e10
    if weights is not None:
        truncated = truncated * weights
    return np.exp(np.log1p(truncated).mean(axis=-1)) - 1.0
