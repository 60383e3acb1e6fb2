"""The least damaging generalisation that meets a risk target: a lattice search.

PDPC guide, Step 3 (apply anonymisation techniques) and Annex C (k-anonymity): the
privacy officer's question is "what is the least damage to the data that meets my risk
target?". Each quasi-identifier has a generalisation hierarchy (:mod:`core.hierarchy`);
choosing one level per quasi-identifier gives a *node* of the generalisation lattice.
A node is a *solution* when, after removing the records of every equivalence class that
fails a privacy model (record suppression, Annex A; ARX's semantics: a class failing *any*
model is suppressed), at most the allowed share of records is removed. The models
(:class:`core.privacy.ClassModels`):

- k-anonymity (Annex C); an Annex D threshold on P(re-ID) = P(attempt) / k is the same
  as k-anonymity with k = the smallest k meeting it (:func:`core.risk.smallest_k`);
- optionally, on a sensitive attribute (Step 4, attribute disclosure): distinct, entropy
  or recursive (c,l)-diversity, t-closeness (Earth Mover's Distance against the whole
  table, equal or ordered distance), delta-disclosure privacy, basic or enhanced
  beta-likeness, (alpha,k)-anonymity. t-closeness with hierarchical distance (ARX's
  HierarchicalDistanceTCloseness) takes the sensitive attribute's hierarchy
  (``t_distance="hierarchical"``, ``t_hierarchy``).

What the search relies on (monotonicity, as in ARX/Flash and Incognito). Generalising a
node merges its equivalence classes (hierarchies must nest: each level a function of the
one before; :func:`search` checks it). For k and distinct l, a class that contains a
passing class passes, so a failing merged class is made of failing classes only: the
suppressed records can only shrink, "at most s suppressed" holds at every generalisation
of a solution and fails at every specialisation of a non-solution, and both prunings are
used. The other sensitive models are not monotone with suppression (ARX says the same:
entropy of a merge can fall below log l when a passing class meets a failing one), so
with suppression allowed only k and distinct l prune and every node meeting them is
checked for the rest. Without suppression every class must pass, and merging passing
classes keeps them passing for every model but delta-disclosure (entropy is concave, EMD
and shares are convex): then all but delta prune, and delta is checked. k-map is a k
(ARX's derived k') and prunes like it. The whole-table targets (ARX's sample-based
criteria, :mod:`core.population_risk`) are enforced after the per-class models by removing
the smallest classes first: average risk is monotone and prunes (ARX says so; the tests
compare it with evaluating every node), population uniqueness is not and is checked on
every node that meets the rest.

Speed: each quasi-identifier's values are factorised once and its integer codes at every
level are computed once (hierarchy lookup on the distinct values). A node is then one
mixed-radix key over those code arrays, for one representative of each class of the
evaluated specialisation with the fewest classes (a roll-up, :class:`_Lattice`), and one
``bincount``; the search evaluates nodes in a binary-search order, tagging the
generalisations of a solution as solutions and the specialisations of a non-solution as
non-solutions (predictive tagging), until every node is known: the count of solutions and
the frontier need every verdict, so at least every minimal solution and every maximal
non-solution is evaluated. The frontier's measures are computed together, in one batch.
The optimum is found by branch and bound over the solutions, with lower bounds that only
grow with generalisation.

Measures (all "lower is better"; the result states which one was optimised). Figures
named ``arx_*`` are ARX 3.9's definitions, so they can be compared with ARX; the others
are this project's and keep their own names:

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

Limits: the exact search enumerates the lattice (product of hierarchy heights + 1); up to
``max_nodes`` (default 200,000 nodes, about 10 quasi-identifiers with 3-4 levels each)
it is exact. Beyond, :func:`search` falls back to a greedy search: bottom-up, one level of
one quasi-identifier at a time (the step that removes most records from small classes per
unit of loss) until the target is met, then top-down, undoing levels while the target
still holds. The result is a solution with no solution directly below it, found with about
(quasi-identifiers x steps) evaluations, but it is not guaranteed optimal and its frontier
holds that one node only.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from core._text import as_text
from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.population_risk import (
    DEFAULT_SOLVER,
    POPULATION_MODELS,
    PopulationLattice,
    SolverSettings,
    average_risk,
    check_sample_in_population,
    generalise_population,
    population_uniqueness,
    table_suppression,
)
from core.privacy import (
    ClassDistribution,
    ClassModels,
    combine_codes,
    failing_records,
    sensitive_coding,
)
from core.progress import ProgressFn
from core.risk import smallest_k
from core.validation import require_choice, require_columns, require_probability

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
METHODS = ("auto", "exact", "greedy", "exhaustive")


@dataclass(frozen=True)
class Target(ClassModels):
    """What a solution must meet (PDPC guide, Annex C k-anonymity; Annex D threshold; Step 4
    attribute disclosure).

    The privacy-model fields (k, sensitive, l, l_kind, c, entropy_estimator, t, t_distance,
    delta, beta, enhanced_beta, alpha) are those of :class:`core.privacy.ClassModels`, which
    defines and validates them; a target adds what the search needs besides (k defaults to
    5 here). ``max_suppressed`` is the largest share of records that may be removed
    (0.01 = 1%). As in ARX, a class is suppressed when it fails *any* of the models, and the
    suppressed records must stay within ``max_suppressed``. ``p_reid_threshold`` with
    ``p_attempt`` (Annex D) raises k to the smallest k with p_attempt / k <= threshold:
    :attr:`models` holds the models with that k, and :meth:`failing` uses them.

    Whole-table targets (ARX's sample-based criteria, :mod:`core.population_risk`):
    ``max_population_uniqueness`` with ``population`` (N) and ``population_model``
    (``dankar``, ``pitman``, ``zayatz`` or ``snb``): the estimated share of the population
    that is unique on the quasi-identifiers stays at or below it (ARX
    ``PopulationUniqueness``); ``max_average_risk``: classes / records at or below it (ARX
    ``AverageReidentificationRisk``). After the classes failing the per-class models are
    suppressed, ARX suppresses the smallest remaining classes until these hold (a binary
    search, :func:`core.population_risk.sample_based_suppression`), within the same limit.
    """

    k: int = 5
    max_suppressed: float = 0.0
    p_reid_threshold: float | None = None
    p_attempt: float = 1.0
    max_population_uniqueness: float | None = None
    population_model: str = "dankar"
    max_average_risk: float | None = None
    population_solver: SolverSettings = DEFAULT_SOLVER  # Pitman's and SNB's Newton-Raphson

    def __post_init__(self) -> None:
        super().__post_init__()
        require_probability("max_suppressed", self.max_suppressed)
        if not isinstance(self.population_solver, SolverSettings):
            raise ParameterError("Parameter 'population_solver' must be a SolverSettings.")
        require_choice("population_model", self.population_model, POPULATION_MODELS)
        if self.max_population_uniqueness is not None:
            require_probability("max_population_uniqueness", self.max_population_uniqueness)
            if self.population is None:
                raise ParameterError(
                    "A population uniqueness target needs 'population': the size of the "
                    "population the records were drawn from."
                )
        if self.max_average_risk is not None:
            require_probability("max_average_risk", self.max_average_risk)
        if self.p_reid_threshold is not None:
            if require_probability("p_reid_threshold", self.p_reid_threshold) == 0:
                raise ParameterError("Parameter 'p_reid_threshold' must be greater than 0.")
            require_probability("p_attempt", self.p_attempt)

    @property
    def required_k(self) -> int:
        """k, raised if needed so that P(attempt) / k meets the Annex D threshold."""
        if self.p_reid_threshold is None:
            return self.k
        return max(self.k, smallest_k(self.p_attempt, self.p_reid_threshold))

    @property
    def models(self) -> ClassModels:
        """The per-class privacy models (k raised for Annex D)."""
        return ClassModels(**{**self.model_fields(), "k": self.required_k})

    def failing(
        self,
        sizes: np.ndarray,
        dist: ClassDistribution | None,
        population_counts: np.ndarray | None = None,
    ) -> np.ndarray:
        """As :meth:`ClassModels.failing`, with k raised for Annex D."""
        return self.models.failing(sizes, dist, population_counts)

    @property
    def sample_based(self) -> bool:
        """Whether the target has whole-table criteria (population uniqueness, average
        risk). Population uniqueness never prunes (ARX: not monotone with suppression) and
        is checked on every node; average risk is monotone and prunes."""
        return self.max_population_uniqueness is not None or self.max_average_risk is not None

    def table_suppression(
        self, sizes: np.ndarray, order: np.ndarray, limit: int | None
    ) -> np.ndarray:
        """Boolean per class (of ``sizes``, classes already suppressed given as size 0):
        the classes ARX suppresses for the whole-table criteria. ``order``: a tie-breaker
        per class (ARX: the first record's position). ``limit``: records that may still
        be suppressed (ARX's early abort)."""
        if not self.sample_based:
            return np.zeros(sizes.size, dtype=bool)
        return table_suppression(sizes, order, **self.table_criteria(), limit=limit)

    def table_criteria(self) -> dict[str, Any]:
        """The whole-table criteria as keyword arguments of
        :func:`core.population_risk.table_suppression` (and of the recipe step)."""
        criteria: dict[str, Any] = {}
        if self.max_average_risk is not None:
            criteria["max_average_risk"] = self.max_average_risk
        if self.max_population_uniqueness is not None:
            criteria.update(
                max_population_uniqueness=self.max_population_uniqueness,
                population=self.population,
                population_model=self.population_model,
                solver=self.population_solver,
            )
        return criteria

    def table_figures(self, kept_sizes: np.ndarray) -> dict[str, float]:
        """Average risk and, with a population, estimated population uniqueness of the
        released classes."""
        figures = {"average_risk": average_risk(kept_sizes)}
        if self.population is not None and np.asarray(kept_sizes).sum() > 0:
            estimate = population_uniqueness(
                kept_sizes,
                self.population,
                model=self.population_model,
                solver=self.population_solver,
            )
            figures["population_uniqueness"] = float(estimate.share)
        return figures

    def describe(self) -> str:
        parts = [f"k = {self.required_k}"]
        if self.p_reid_threshold is not None:
            parts.append(f"P(re-ID) <= {self.p_reid_threshold:g} (P(attempt) {self.p_attempt:g})")
        if self.uses_sensitive or self.k_map is not None:
            parts.append(ClassModels(**{**self.model_fields(), "k": 1}).describe())
        if self.max_population_uniqueness is not None:
            parts.append(
                f"population uniqueness <= {self.max_population_uniqueness:g} "
                f"({self.population_model}, population {self.population:,.0f})"
            )
        if self.max_average_risk is not None:
            parts.append(f"average risk <= {self.max_average_risk:g}")
        parts.append(f"at most {self.max_suppressed:.2%} of records suppressed")
        return ", ".join(parts)


@dataclass(frozen=True)
class Candidate:
    """One node of the lattice: a level per quasi-identifier, with its figures."""

    levels: Mapping[str, int]
    k: int  # smallest class among the kept records
    classes: int  # kept classes
    suppressed: int
    share_suppressed: float
    max_risk: float  # 1 / k, prosecutor risk (Annex D)
    p_reid: float | None
    measures: Mapping[str, float]
    column_loss: Mapping[str, float]  # loss metric per quasi-identifier
    # On the kept classes: smallest distinct l and exp(entropy), largest EMD (t), delta,
    # beta and alpha of the sensitive attribute (empty without one).
    sensitive_figures: Mapping[str, float] = field(default_factory=dict)
    # Whole-table figures of the released classes: average risk (classes / records) and,
    # with a population size, the estimated population uniqueness.
    table_figures: Mapping[str, float] = field(default_factory=dict)

    def label(self) -> str:
        return " ".join(f"{c}:{lvl}" for c, lvl in self.levels.items())


@dataclass(frozen=True)
class SearchResult:
    """The optimum under ``measure`` and the frontier (all minimal solutions)."""

    quasi_identifiers: tuple[str, ...]
    target: Target
    measure: str
    optimum: Candidate | None
    frontier: tuple[Candidate, ...]
    method: str  # "exact", "exhaustive" or "greedy"
    lattice_size: int
    evaluated: int  # node evaluations (one bincount each)
    solutions: int  # nodes meeting the target (exact search only; -1 for greedy)
    seconds: float
    monotone: bool  # whether the whole target pruned in both directions
    note: str = ""
    gs_factor: float = 0.5  # ARX's weighting of the arx_* measures (module docstring)
    weights: Mapping[str, float] = field(default_factory=dict)

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """The frontier plus the optimum (when it is not on the frontier)."""
        if self.optimum is None or any(c.levels == self.optimum.levels for c in self.frontier):
            return self.frontier
        return (*self.frontier, self.optimum)

    def to_frame(self) -> pd.DataFrame:
        """One row per candidate: levels, k, suppressed, risk and every measure."""
        rows = []
        for c in self.candidates:
            row: dict[str, Any] = {"candidate": c.label(), **dict(c.levels)}
            row.update(
                k=c.k,
                classes=c.classes,
                suppressed=c.suppressed,
                share_suppressed=c.share_suppressed,
                max_risk=c.max_risk,
            )
            if c.p_reid is not None:
                row["p_reid"] = c.p_reid
            row.update(c.table_figures)
            row.update(c.measures)
            row["optimum"] = self.optimum is not None and c.levels == self.optimum.levels
            rows.append(row)
        return pd.DataFrame(rows)

    def explanation(self) -> str:
        if self.optimum is None:
            return (
                f"No combination of generalisation levels meets {self.target.describe()}; "
                "allow more suppression, lower the target or add coarser levels."
            )
        o = self.optimum
        return (
            f"The least {MEASURES[self.measure].split(':')[0]}{self.weighting()} that meets "
            f"{self.target.describe()} is {o.label()} ({self.measure} = "
            f"{o.measures[self.measure]:.4g}, {o.suppressed} record(s) suppressed); "
            f"{len(self.frontier)} minimal solution(s) found by the {self.method} search."
        )

    def weighting(self) -> str:
        """ARX's gsFactor and weights in words, when they differ from ARX's defaults and the
        measure uses them ("" otherwise)."""
        if not self.measure.startswith(("arx_loss", "arx_entropy")):
            return ""
        parts = [] if self.gs_factor == 0.5 else [f"gsFactor {self.gs_factor:g}"]
        given = [self.weights.get(c, 0.5) for c in self.quasi_identifiers]
        if len(set(given)) > 1:  # equal weights change nothing (ARX divides by the largest)
            parts += [f"{c} weight {w:g}" for c, w in self.weights.items()]
        return f" ({', '.join(parts)})" if parts else ""


# --- preparation: codes per quasi-identifier and level, computed once -------------------


@dataclass
class _Column:
    name: str
    height: int
    value_groups: np.ndarray  # (levels, d): class code at each level of each distinct value
    cards: list[int]  # per level: number of codes
    value_codes: np.ndarray  # code of each record's original value (0..d-1)
    value_loss: list[np.ndarray]  # per level: loss metric of each original value
    value_entropy: list[np.ndarray]  # per level: -log2 P(value | generalised value)
    value_max_entropy: np.ndarray = field(default_factory=lambda: np.zeros(0))  # at "*"
    level_totals: dict[str, np.ndarray] = field(default_factory=dict)
    domain: int = 1  # leaves of the hierarchy (ARX's domain size for its loss)
    codes: list[np.ndarray] = field(default_factory=list)  # per level: class code of each unit


def _value_rows(series: pd.Series, hierarchy: Hierarchy) -> tuple[np.ndarray, np.ndarray]:
    """Each record's hierarchy row: the code of its value (0..d-1) and, per distinct value,
    its row of the hierarchy table (``len(hierarchy.levels)`` for a missing value), in
    ascending row order. Values are matched as text (``39`` and ``39.0`` are one value):
    one hash of the records (pyarrow's ``index_in`` for a pyarrow string column, else
    ``pd.factorize`` and the text of each distinct value). A value the hierarchy does not
    cover raises, naming it and its row."""
    leaves = hierarchy.levels[0]
    if _arrow_strings(series) and _arrow_strings(leaves):
        values = pa.array(series.array)
        known = pa.array(leaves.array).cast(values.type)
        # The value set ends with a null: a missing value finds row len(leaves).
        value_set = pa.concat_arrays([known, pa.nulls(1, type=values.type)])
        found = pc.index_in(values, value_set=value_set, skip_nulls=False)
        if found.null_count:
            hierarchy.generalise(series, 0)  # raises, naming the first value not covered
        record_rows = found.to_numpy()
        present = np.bincount(record_rows, minlength=len(leaves) + 1) > 0
        return (np.cumsum(present) - 1)[record_rows], np.flatnonzero(present)
    raw_codes, raw_uniques = pd.factorize(series, use_na_sentinel=False)
    text = as_text(pd.Series(raw_uniques, name=series.name, dtype=series.dtype))
    raw_rows = pd.Index(leaves.to_numpy(dtype=object)).get_indexer(
        text.to_numpy(dtype=object, na_value=None)
    )
    missing = text.isna().to_numpy()
    if ((raw_rows < 0) & ~missing).any():
        hierarchy.generalise(series, 0)  # raises, naming the first value not covered
    raw_rows = np.where(missing, len(leaves), raw_rows)
    present = np.zeros(len(leaves) + 1, dtype=bool)
    present[raw_rows] = True
    dense = np.cumsum(present) - 1  # ascending rows -> 0..d-1
    value_codes = dense[raw_rows][np.asarray(raw_codes, dtype=np.int64)]
    return value_codes, np.flatnonzero(present)


def _arrow_strings(values: pd.Series) -> bool:
    """Whether a column holds its text in pyarrow (pandas' default ``str`` dtype)."""
    dtype = values.dtype
    return isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"


def _level_labels(hierarchy: Hierarchy) -> tuple[np.ndarray, np.ndarray]:
    """Per hierarchy row (plus a last row for missing values) and level: a label number
    (equal labels at a level, equal numbers; numbers of different levels never meet), and
    the leaves of the hierarchy under that label (its domain share, as ARX counts it)."""
    columns = [hierarchy.levels[level] for level in range(hierarchy.height + 1)]
    if all(_arrow_strings(column) for column in columns):  # hashed by pyarrow, no str objects
        text = pa.concat_arrays([pa.array(c.array).cast(pa.large_string()) for c in columns])
        encoded = text.dictionary_encode()
        label, n_labels = encoded.indices.to_numpy().astype(np.int64), len(encoded.dictionary)
    else:
        label, labels = pd.factorize(np.concatenate([c.to_numpy(dtype=object) for c in columns]))
        n_labels = len(labels)
    shape = (len(columns[0]), len(columns))
    per_level = n_labels + 1  # + the label of missing values
    label = np.vstack([label.reshape(shape[::-1]).T, np.full((1, shape[1]), n_labels)])
    label = label + np.arange(shape[1]) * per_level
    leaves = np.bincount(label[:-1].ravel(), minlength=per_level * shape[1])[label]
    leaves[-1] = 1  # a missing value stays itself: one leaf
    return label, leaves


def _prepare_column(
    series: pd.Series, hierarchy: Hierarchy, records: np.ndarray | None = None
) -> _Column:
    """``records``: how many records each row stands for (None: one each). Every step after
    the records' hash works on the distinct values, all levels at once."""
    value_codes, rows = _value_rows(series, hierarchy)
    d, levels, domain = len(rows), hierarchy.height + 1, len(hierarchy.levels)
    label, leaves = _level_labels(hierarchy)
    value_label = label[rows].T  # (levels, d)
    used = np.zeros(label.max() + 1, dtype=bool)
    used[value_label] = True
    rank = np.cumsum(used) - 1
    cards = used.reshape(levels, -1).sum(axis=1)
    starts = np.concatenate([[0], np.cumsum(cards)[:-1]])
    groups = rank[value_label] - starts[:, None]  # dense 0..cards-1 per level
    for level in range(1, levels):
        _check_nested(
            groups[level - 1], groups[level], cards[level - 1], rows, hierarchy, level, series.name
        )
    counts = np.bincount(value_codes, weights=records, minlength=d).astype(float)
    n = float(counts.sum())
    group_count = np.bincount((groups + starts[:, None]).ravel(), weights=np.tile(counts, levels))
    entropy = -np.log2(counts / group_count[groups + starts[:, None]])
    loss = (leaves[rows].T - 1.0) / (domain - 1) if domain > 1 else np.zeros((levels, d))
    column = _Column(
        str(series.name),
        hierarchy.height,
        groups,
        [max(int(c), 1) for c in cards],
        value_codes,
        list(loss),
        list(entropy),
    )
    column.level_totals["loss"] = loss @ counts
    column.level_totals["entropy"] = entropy @ counts
    column.level_totals["precision"] = np.arange(levels) / max(hierarchy.height, 1) * n
    column.value_max_entropy = -np.log2(counts / n)
    column.domain = domain
    return column


def _check_nested(previous, group, previous_card, rows, hierarchy, level, column) -> None:
    """Level ``level`` must be a function of level ``level - 1`` (classes only merge)."""
    image = np.empty(previous_card, dtype=np.int64)
    image[previous] = group
    split = image[previous] != group
    if split.any():
        row = rows[int(np.flatnonzero(split)[0])]
        value = hierarchy.levels[0].iloc[row] if row < len(hierarchy.levels) else None
        raise ParameterError(
            f"The hierarchy{f' {hierarchy.name!r}' if hierarchy.name else ''} of column "
            f"'{column}' does not nest: values that share level {level - 1} (e.g. {value!r}) "
            f"are split at level {level}. Each level must merge groups of the one before."
        )


@dataclass(frozen=True)
class _Eval:
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


@dataclass(frozen=True)
class _Classes:
    """The equivalence classes of one node: a representative unit of each (every unit of a
    class has the class's generalised values), its records and, with a sensitive
    attribute, its distribution. Enough to roll the node up to any generalisation."""

    reps: np.ndarray
    sizes: np.ndarray
    dist: ClassDistribution | None
    first: np.ndarray | None = None  # first record of each class (whole-table targets only)

    @property
    def size(self) -> int:
        return int(self.reps.size)


class _Lattice:
    """The lattice of one search: codes per level, computed once, and node evaluation.

    Records are first grouped into *units*: records alike on every quasi-identifier at
    level 0 (18,109 units for the 30,162 adult records); the sensitive attribute, if any, is
    kept as each unit's distribution of values. Every class of every node is a union of
    units. A node is evaluated by "roll-up" from the cached specialisation with the fewest
    classes (else from the units): its classes are merges of the specialisation's, so one
    representative unit per class of the specialisation is keyed, and class sizes (and
    sensitive distributions) are summed over the merge; no per-unit array is touched.
    """

    _CACHE_ELEMENTS = 16_000_000  # class arrays kept for roll-up (float64 / int64: 128 MB)

    def __init__(
        self,
        df: pd.DataFrame,
        hierarchies: Mapping[str, Hierarchy],
        target: Target,
        counts: np.ndarray | None = None,
    ):
        self.qis = tuple(hierarchies)
        self.n = len(df) if counts is None else int(counts.sum())
        self.g_factor, self.s_factor = 1.0, 1.0  # ARX's gsFactor 0.5 (see set_weighting)
        self.column_weights = np.ones(len(hierarchies))
        self.target = target
        self.k = target.required_k
        self.limit = int(np.floor(target.max_suppressed * self.n + 1e-9))
        columns = [_prepare_column(df[c], hierarchies[c], counts) for c in self.qis]
        self.columns = columns
        self.heights = np.array([c.height for c in columns], dtype=np.int64)
        self.strides = np.ones(len(self.qis), dtype=np.int64)
        for i in range(len(self.qis) - 2, -1, -1):
            self.strides[i] = self.strides[i + 1] * (self.heights[i + 1] + 1)
        self.size = int(np.prod(self.heights + 1))
        self.evaluated = 0
        self.models = target.models
        self.prune_models = self._pruning_models()
        self.sensitive = None
        unit_of_record, n_units = combine_codes(
            [(c.value_codes, c.value_groups.shape[1]) for c in columns], len(df)
        )
        first = np.empty(n_units, dtype=np.int64)
        first[unit_of_record[::-1]] = np.arange(len(df) - 1, -1, -1)
        self.weights = np.bincount(unit_of_record, weights=counts, minlength=n_units).astype(
            np.int64
        )
        self.n_units = n_units
        self.unit_first = first  # first record of each unit (ARX orders ties by it)
        # From here on, codes are per unit: one row per (column, level) of one array, which
        # the measures read as a whole (_measure_tables). 32-bit: a code is below the
        # number of distinct values, and keys are 32-bit while their radix fits (_key).
        self._unit_codes = np.empty((int((self.heights + 1).sum()), n_units), dtype=np.int32)
        row = 0
        for column in columns:
            column.value_codes = column.value_codes[first]
            rows = self._unit_codes[row : row + column.height + 1]
            np.take(column.value_groups.astype(np.int32), column.value_codes, axis=1, out=rows)
            column.codes, row = list(rows), row + column.height + 1
        self.population = None  # k-map with a population table: its records, coded alike
        if target.population_table is not None:
            self.population = PopulationLattice.of(
                target.population_table,
                hierarchies,
                {c.name: df[c.name].iloc[first] for c in columns},
                {c.name: c.codes for c in columns},
            )
        dist = None
        if self.models.uses_sensitive:
            s_codes = self._prepare_sensitive(df[target.sensitive], counts)
            dist = self._distribution(unit_of_record, s_codes, n_units, counts)
        # The root of every roll-up: the units themselves (a partition finer than any node).
        self._root = _Classes(
            np.arange(n_units),
            self.weights.astype(float),
            dist,
            first if target.sample_based else None,
        )
        # Coarse roots (_coarse_root): the units, then coarser partitions built when needed.
        self._coarse_roots: list[tuple[_Classes, list]] = [(self._root, None)]
        self._root_columns = [
            i
            for i in np.argsort([-c.cards[0] for c in columns], kind="stable")
            if columns[i].height >= 1 and columns[i].cards[1] < columns[i].cards[0]
        ]
        # The roll-up cache: slot i holds the levels, class count and classes of a node
        # (None once evicted); free slots hold levels no node reaches.
        self._cache_nodes = np.full((256, len(self.qis)), np.iinfo(np.int64).max)
        self._cache_classes = np.full(256, -1, dtype=np.int64)
        self._cache_entries: list[_Classes | None] = []
        self._cache_elements = 0

    def _prepare_sensitive(self, column: pd.Series, counts: np.ndarray | None) -> np.ndarray:
        self.s_codes, self.s_values, self.s_ordered, self.s_tree = sensitive_coding(
            column, self.models.t_distance, self.models.t_hierarchy
        )
        overall = np.bincount(self.s_codes, weights=counts, minlength=self.s_values)
        self.s_overall = overall / max(self.n, 1)
        self.sensitive = column.name
        return self.s_codes

    def _pruning_models(self) -> ClassModels:
        """The part of the target whose verdict carries up and down the lattice.

        With suppression allowed, only k and distinct l (for every l kind, its necessary
        part: at least ceil(l) values): a class containing a passing class passes, so
        generalising never adds suppressed records (ARX: monotonic with suppression).
        Without suppression every class must pass, and every model but delta-disclosure and
        Grassberger's l survives merging passing classes (ARX: monotonic with
        generalisation). The rest of the target is checked on every node that meets this.
        """
        models = self.models
        if self.limit > 0:
            return models.only_monotone_with_suppression()
        return models.only_monotone_with_generalisation()

    @property
    def monotone(self) -> bool:
        """Whether the whole target prunes in both directions (no node needs a re-check)."""
        if self.target.max_population_uniqueness is not None:
            return False  # not monotone (ARX): checked on every node, never pruned
        # Average risk is monotone in both directions (ARX: AverageReidentificationRisk is
        # a RiskBasedCriterion(true, true)): it prunes with the per-class models.
        if self.limit > 0:
            return self.models.monotone_with_suppression
        return self.models.monotone_with_generalisation

    def grid(self) -> np.ndarray:
        """Every node as a row of levels, row i = node with index i (mixed radix)."""
        axes = [np.arange(h + 1) for h in self.heights]
        mesh = np.meshgrid(*axes, indexing="ij")
        return np.stack([m.ravel() for m in mesh], axis=1).astype(np.int64)

    def _key(
        self, levels: Sequence[int], rows: np.ndarray | None, codes: list | None = None
    ) -> tuple[np.ndarray, int]:
        """Class key at ``levels`` of each unit in ``rows`` (all units when None): a
        mixed-radix number over the columns' codes, below the returned radix; compacted
        (dense, radix = classes) only when the radix is large for the number of units.
        Codes are 32-bit while the radix fits (half the memory traffic of 64-bit); the key
        is returned as intp, which scatters and bincount take without a cast of their own.
        ``codes``: per column and level, the codes to key (default: the units')."""
        codes_of = codes or [column.codes for column in self.columns]
        size = codes_of[0][levels[0]].size if rows is None else rows.size
        parts = [
            (card, i)
            for i, (column, level) in enumerate(zip(self.columns, levels, strict=True))
            if (card := column.cards[level]) > 1
        ]
        radix = 1
        for card, _ in parts:
            radix *= card
        narrow = radix < 2**31
        key = np.zeros(size, dtype=np.int32 if narrow else np.int64)
        radix = 1
        for card, i in parts:
            if radix * card > 2**62:
                key, radix = _dense(key)
            codes = codes_of[i][levels[i]]
            key *= card
            key += codes if rows is None else codes[rows]
            radix *= card
        if radix > 4 * size + 1024:
            return _dense(key)
        return key.astype(np.intp, copy=False), radix  # numpy indexes by intp: cast once

    def node_classes(self, levels: Sequence[int]) -> _Classes:
        """The classes of the node ``levels``, by roll-up from the cached specialisation with
        the fewest classes (only its representatives need a key), else from the units.
        (Reaching a node one column at a time through cached steps keys a third as many
        classes on adult, but costs more: the fixed cost of a roll-up dominates; so does
        rolling up through a shared coarser specialisation, such as every level capped at 1.)"""
        node = np.asarray(levels, dtype=np.int64)
        count = len(self._cache_entries)
        below = np.flatnonzero((self._cache_nodes[:count] <= node).all(axis=1))
        if not below.size:
            root, codes = self._coarse_root(node)
            return self._roll_up(node, root, None, codes)
        slot = int(below[np.argmin(self._cache_classes[below])])
        source = self._cache_entries[slot]
        if (self._cache_nodes[slot] == node).all():
            return source
        return self._roll_up(node, source, source.reps)

    def _coarse_root(self, node: np.ndarray) -> tuple[_Classes, list]:
        """The partition to key a node from when no evaluated node is below it: the
        coarsest of the *coarse roots* below it, with its classes' codes laid out in order
        (keyed like the units, without gathering through representatives). Coarse root j
        raises to level 1 the j columns with the most distinct values (on adult: age, then
        native-country, education, occupation...), one column more each; built when a node
        first needs it, from the one before (the units are root 0). On adult, 486 of the
        520 nodes keyed from the 18,109 units are above root 1 (11,984 classes)."""
        roots = self._coarse_roots
        j = 0
        while j < len(self._root_columns) and node[self._root_columns[j]] >= 1:
            j += 1
            if j == len(roots):
                levels = np.zeros(len(self.qis), dtype=np.int64)
                levels[self._root_columns[:j]] = 1
                parent, parent_codes = roots[j - 1]
                classes = self._roll_up(levels, parent, None, parent_codes, remember=False)
                codes = [
                    [
                        c[classes.reps] if level >= levels[i] else None
                        for level, c in enumerate(column.codes)
                    ]
                    for i, column in enumerate(self.columns)
                ]
                roots.append((classes, codes))
        return roots[j]

    def _roll_up(
        self,
        node: np.ndarray,
        source: _Classes,
        rows: np.ndarray | None,
        codes: list | None = None,
        remember: bool = True,
    ) -> _Classes:
        """The classes of ``node`` from those of a specialisation (``rows``: its
        representatives; None for all its classes, keyed through ``codes``, laid out in its
        order), cached unless ``remember`` is False. Classes are numbered in the order of
        their keys; each keeps the last of its source classes' units."""
        key, radix = self._key(node, rows, codes)
        unit = np.full(radix, -1, dtype=np.int64)  # a unit of each key present
        unit[key] = source.reps
        present = np.flatnonzero(unit >= 0)
        reps, n_classes = unit[present], present.size
        merged = None
        if source.dist is not None or source.first is not None:
            merged = (np.cumsum(unit >= 0) - 1)[key]  # class number of each source class
        first = None
        if source.first is not None:
            first = np.full(n_classes, np.iinfo(np.int64).max)
            np.minimum.at(first, merged, source.first)
        if source.dist is None:
            sizes, dist = np.bincount(key, source.sizes, radix)[present], None
        else:
            d = source.dist
            dist = self._distribution(merged[d.pair_class], d.pair_value, n_classes, d.pair_count)
            sizes = dist.sizes
        classes = _Classes(reps, sizes, dist, first)
        if remember:
            self._remember(node, classes)
        return classes

    def _remember(self, node: np.ndarray, classes: _Classes) -> None:
        """Cache a node's classes for later roll-ups; when the memory budget is spent, the
        cached node with the most classes (the least useful source) makes room (its slot
        stays, with levels no node reaches)."""
        elements = 2 * classes.size + (
            0 if classes.dist is None else 3 * classes.dist.pair_class.size
        )
        count = len(self._cache_entries)
        while count and self._cache_elements + elements > self._CACHE_ELEMENTS:
            worst = int(np.argmax(self._cache_classes[:count]))
            gone = self._cache_entries[worst]
            if gone is None or self._cache_classes[worst] <= classes.size:
                return
            self._cache_entries[worst] = None
            self._cache_elements -= 2 * gone.size + (
                0 if gone.dist is None else 3 * gone.dist.pair_class.size
            )
            self._cache_nodes[worst] = np.iinfo(np.int64).max
            self._cache_classes[worst] = -1
        if count == len(self._cache_classes):  # full: double the slots
            self._cache_nodes = np.vstack(
                [self._cache_nodes, np.full_like(self._cache_nodes, np.iinfo(np.int64).max)]
            )
            self._cache_classes = np.concatenate(
                [self._cache_classes, np.full_like(self._cache_classes, -1)]
            )
        self._cache_entries.append(classes)
        self._cache_elements += elements
        self._cache_nodes[count] = node
        self._cache_classes[count] = classes.size

    def _distribution(self, class_codes, value_codes, n_classes: int, weights) -> ClassDistribution:
        return ClassDistribution.of(
            class_codes,
            value_codes,
            self.s_overall,
            n_classes=n_classes,
            ordered=self.s_ordered,
            weights=weights,
            tree=self.s_tree,
        )

    def _in_population(self, levels, classes: _Classes) -> np.ndarray | None:
        """k-map with a population table: the population records of each class."""
        if self.population is None:
            return None
        codes = [c.codes[lv][classes.reps] for c, lv in zip(self.columns, levels, strict=True)]
        return self.population.counts(levels, codes)

    def _failing(self, levels, classes: _Classes) -> tuple[np.ndarray, bool, bool]:
        """Failing (suppressed) classes of a node, and whether the pruning part and the whole
        target hold."""
        sizes = classes.sizes
        in_population = self._in_population(levels, classes)
        fail = self.prune_models.failing(sizes, classes.dist, in_population)
        suppressed = int(round(sizes[fail].sum()))
        prune_ok = ok = suppressed <= self.limit and suppressed < self.n
        if prune_ok and not self.monotone:
            fail = self.models.failing(sizes, classes.dist, in_population)
            suppressed = int(round(sizes[fail].sum()))
            ok = suppressed <= self.limit and suppressed < self.n
        if ok and self.target.sample_based:
            fail = fail | self._table_suppression(levels, classes, fail, suppressed)
            suppressed = int(round(sizes[fail].sum()))
            ok = suppressed <= self.limit and suppressed < self.n
            if self.monotone:  # average risk alone: its verdict prunes too
                prune_ok = ok
        return fail, prune_ok, ok

    def evaluate(self, levels: Sequence[int]) -> _Eval:
        """The node's verdict; the figures of its classes only when the pruning part holds
        (a node failing it has no measures, and is never a candidate)."""
        self.evaluated += 1
        classes = self.node_classes(levels)
        sizes = classes.sizes
        fail, prune_ok, ok = self._failing(levels, classes)
        suppressed = int(round(sizes[fail].sum()))
        if not prune_ok:
            return _Eval(False, False, suppressed, 0, 0, 0, 0.0, 0.0, None, None)
        kept = sizes[~fail & (sizes > 0)]
        return _Eval(
            prune_ok=prune_ok,
            ok=ok,
            suppressed=suppressed,
            k=int(round(kept.min())) if kept.size else 0,
            classes=int(kept.size),
            all_classes=int(np.count_nonzero(sizes)),
            sum_squares=float(sizes @ sizes),
            kept_squares=float(kept @ kept),
            failing_reps=classes.reps[fail],
            failing_sizes=sizes[fail],
        )

    def _table_suppression(self, levels, classes: _Classes, fail, suppressed: int) -> np.ndarray:
        """The classes ARX suppresses for the whole-table criteria after the per-class
        ones (``fail``). At the top node the only class is all '*', which ARX's risk model
        counts as suppressed: the criteria hold there with nothing more removed."""
        if (np.asarray(levels) == self.heights).all():
            return np.zeros(classes.size, dtype=bool)
        remaining = np.where(fail, 0, np.round(classes.sizes)).astype(np.int64)
        return self.target.table_suppression(remaining, classes.first, self.limit - suppressed)

    def table_figures(self, levels: Sequence[int], ev: _Eval) -> dict[str, float]:
        """Average risk and population uniqueness of a node's released classes."""
        if not self.target.sample_based and self.target.population is None:
            return {}
        classes = self.node_classes(levels)
        fail, _, _ = self._failing(levels, classes)
        sizes = classes.sizes[~fail]
        return self.target.table_figures(np.round(sizes[sizes > 0]).astype(np.int64))

    def sensitive_figures(self, levels: Sequence[int], ev: _Eval) -> dict[str, float]:
        """Privacy figures of the sensitive attribute on the kept classes of a node."""
        if self.sensitive is None:
            return {}
        classes = self.node_classes(levels)
        fail, _, _ = self._failing(levels, classes)
        d = classes.dist
        kept = ~fail[d.pair_class]
        dist = self._distribution(
            d.pair_class[kept], d.pair_value[kept], classes.size, d.pair_count[kept]
        )
        present = dist.sizes > 0
        if not present.any():
            return {}
        distance = self.models.t_distance
        if distance == "hierarchical" and self.s_tree is None:
            distance = "equal"  # no hierarchy given (t not asked): the categories' distance
        figures = {
            "l_distinct": float(dist.distinct()[present].min()),
            "l_entropy": float(dist.entropy_l()[present].min()),
            "t": float(dist.emd(distance)[present].max()),
            "delta": float(dist.delta()[present].max()),
            "beta": float(dist.beta()[present].max()),
            "alpha": float(dist.alpha()[present].max()),
        }
        if self.models.l_kind == "recursive" and self.models.l is not None:
            figures["recursive_c"] = float(dist.recursive_ratio(int(self.models.l))[present].max())
        return figures

    # --- measures ---------------------------------------------------------------------

    def static_bound(self, grid: np.ndarray, measure: str) -> np.ndarray:
        """Lower bound of ``measure`` at each node, valid for it and all generalisations."""
        if measure == "height":
            return grid.sum(axis=1).astype(float)
        if measure in ("loss", "precision", "entropy"):
            total = np.zeros(len(grid))
            for i, column in enumerate(self.columns):
                total += column.level_totals[measure][grid[:, i]]
            return total / self._normaliser(measure)
        if measure in ("arx_entropy", "arx_entropy_monotonic"):  # generalisation part (all
            # records); suppression adds to arx_entropy
            per_column = np.stack(
                [c.level_totals["entropy"][grid[:, i]] for i, c in enumerate(self.columns)], axis=1
            )
            return self.g_factor * (per_column @ self.column_weights)
        if measure == "arx_loss":  # every record charged g x its share: ARX's lower bound
            level_loss = np.stack(
                [c.level_totals["loss"][grid[:, i]] for i, c in enumerate(self.columns)], axis=1
            )
            per_column = self._arx_loss_columns(level_loss, np.zeros_like(level_loss), 0.0)
            return arx_geometric_loss(per_column, self.column_weights)
        return np.zeros(len(grid))

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

    def _arx_loss_columns(
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

    def _normaliser(self, measure: str) -> float:
        if measure == "entropy":
            return float(max(self.n, 1))
        return float(max(self.n * len(self.columns), 1))

    def _measure_tables(self) -> None:
        """Per (column, level) tables flattened once, so a candidate's measures are a few
        gathers over its suppressed units instead of a loop of small numpy calls."""
        q, top = len(self.columns), int(self.heights.max()) + 1
        self._unit_values = np.stack([c.value_codes for c in self.columns], axis=1)
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
        self._codes_by_row = self._unit_codes  # the rows above, in the same order

    def _measures(self, level: np.ndarray, evs: Sequence[_Eval]) -> tuple[dict, np.ndarray]:
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
        cells = self._unit_values[reps] + self._table_start[columns, owner_level]
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
        out = {m: totals[m].sum(axis=1) / self._normaliser(m) for m in totals}
        arx_columns = self._arx_loss_columns(
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

    def dynamic_bound(self, ev: _Eval, measure: str) -> float:
        """Lower bound of ``measure`` for every generalisation of an evaluated node."""
        if measure in ("discernibility", "arx_dm_star"):
            return ev.sum_squares
        if measure == "avg_class_size":
            return float(self.n / (ev.all_classes + 1))
        return 0.0

    def candidate(self, levels: Sequence[int], ev: _Eval) -> Candidate:
        return self.candidates(np.asarray(levels, dtype=np.int64)[None, :], [ev])[0]

    def candidates(self, levels: np.ndarray, evs: Sequence[_Eval]) -> list[Candidate]:
        """The candidates of several evaluated nodes (one row of ``levels`` each), their
        measures computed together."""
        if any(ev.failing_reps is None for ev in evs):
            raise ParameterError("Only nodes that meet the k part have measures.")
        if not evs:
            return []
        measures, per_column = self._measures(np.asarray(levels, dtype=np.int64), evs)
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
                    sensitive_figures=self.sensitive_figures(node, ev),
                    table_figures=self.table_figures(node, ev),
                )
            )
        return out


def arx_geometric_loss(per_column: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """ARX 3.9's aggregate of per-column losses v (its default for the loss metric,
    ILMultiDimensionalGeometricMean): (prod(1 + w_i v_i))^(1/n) - 1 along the last axis,
    weights w_i as ARX normalises them (largest 1; None: all 1). ARX truncates each v_i to
    10 decimals first; so do we."""
    truncated = np.floor(np.asarray(per_column, dtype=float) * 1e10) / 1e10
    if weights is not None:
        truncated = truncated * weights
    return np.exp(np.log1p(truncated).mean(axis=-1)) - 1.0


def _dense(key: np.ndarray) -> tuple[np.ndarray, int]:
    codes, uniques = pd.factorize(key)
    return codes.astype(np.int64, copy=False), max(len(uniques), 1)


# --- the search ---------------------------------------------------------------------------


def search(
    df: pd.DataFrame,
    hierarchies: Mapping[str, Hierarchy],
    target: Target,
    *,
    measure: str = "loss",
    method: str = "auto",
    max_nodes: int = 200_000,
    progress: ProgressFn | None = None,
    counts: np.ndarray | None = None,
    gs_factor: float = 0.5,
    weights: Mapping[str, float] | None = None,
) -> SearchResult:
    """Find the generalisation levels that meet ``target`` with the least ``measure``.

    ``hierarchies`` maps each quasi-identifier to its hierarchy (the lattice has one level
    per quasi-identifier). ``method``: ``"exact"`` (pruned lattice search), ``"greedy"``
    (fallback, see the module docstring), ``"exhaustive"`` (every node evaluated, no
    pruning; for checks and benchmarks) or ``"auto"`` (exact up to ``max_nodes`` nodes).
    ``progress(fraction, message)`` is called as the search goes. ``counts``: ``df`` is a
    frequency table (:mod:`core.engines`), one row per distinct combination of the
    quasi-identifiers and the sensitive attribute, and ``counts[i]`` records have row i's
    values; the result is the search on those records. ``gs_factor`` and ``weights``:
    ARX's weighting of generalisation against suppression and of the quasi-identifiers, for
    the ``arx_*`` measures (module docstring). PDPC guide, Step 3 and Annex C.
    """
    started = time.perf_counter()
    require_choice("measure", measure, MEASURES)
    require_choice("method", method, METHODS)
    if not hierarchies:
        raise ParameterError("Choose at least one quasi-identifier with a hierarchy.")
    require_columns(df, list(hierarchies), parameter="quasi_identifiers")
    if target.sensitive is not None:
        require_columns(df, target.sensitive, parameter="sensitive")
        if target.sensitive in hierarchies:
            raise ParameterError(
                f"'{target.sensitive}' cannot be both a quasi-identifier and the sensitive column."
            )
    if counts is not None:
        counts = np.asarray(counts, dtype=np.int64)
        if counts.shape != (len(df),) or (counts < 0).any():
            raise ParameterError(
                "Parameter 'counts' must give a record count >= 0 for every row of the table."
            )
    if len(df) == 0 or (counts is not None and counts.sum() == 0):
        raise ParameterError("The table is empty: there is nothing to search.")
    records = len(df) if counts is None else int(counts.sum())
    if target.population is not None and target.population < records:
        raise ParameterError(
            f"Parameter 'population' ({target.population:,.0f}) must be at least the number of "
            f"records ({records:,}): give the size of the population the table was drawn from."
        )
    if target.population_table is not None:
        check_sample_in_population(df, target.population_table, list(hierarchies), counts)
    lattice = _Lattice(df, hierarchies, target, counts)
    lattice.set_weighting(gs_factor, weights)
    if method == "auto":
        method = "exact" if lattice.size <= max_nodes else "greedy"
    elif method in ("exact", "exhaustive") and lattice.size > max_nodes:
        raise ParameterError(
            f"The lattice has {lattice.size:,} nodes, more than max_nodes = {max_nodes:,}; use "
            "method='greedy', fewer quasi-identifiers, or shorter hierarchies."
        )
    report = progress or (lambda fraction, message: None)
    if method == "greedy":
        optimum, frontier, solutions = _greedy(lattice, measure, report)
        note = (
            "Greedy fallback: a locally minimal solution, not guaranteed optimal; the "
            "frontier holds that node only."
        )
    else:
        optimum, frontier, solutions = _exact(lattice, measure, report, method == "exhaustive")
        note = (
            ""
            if lattice.monotone
            else (
                "Part of the target is not monotone (ARX: entropy/recursive l, t, delta, beta "
                "and alpha with suppression; delta and Grassberger's l always): k and at least l "
                "sensitive values pruned, and every node meeting them was checked against the rest"
                + (
                    "; population uniqueness, a whole-table criterion, was checked on every such "
                    "node."
                    if target.max_population_uniqueness is not None
                    else "."
                )
            )
        )
    report(1.0, "done")
    return SearchResult(
        quasi_identifiers=lattice.qis,
        target=target,
        measure=measure,
        optimum=optimum,
        frontier=tuple(frontier),
        method=method,
        lattice_size=lattice.size,
        evaluated=lattice.evaluated,
        solutions=solutions,
        seconds=time.perf_counter() - started,
        monotone=lattice.monotone,
        note=note,
        gs_factor=float(gs_factor),
        weights={c: float(w) for c, w in (weights or {}).items()},
    )


def _exact(lattice: _Lattice, measure: str, report: ProgressFn, exhaustive: bool):
    grid = lattice.grid()
    size = len(grid)
    status = np.zeros(size, dtype=np.int8)  # k part (or whole target if monotone): 1/-1
    evals: dict[int, _Eval] = {}
    if exhaustive:
        for idx in range(size):
            ev = evals[idx] = lattice.evaluate(grid[idx])
            status[idx] = 1 if ev.prune_ok else -1
            if idx % 256 == 0:
                report(0.8 * idx / size, f"{idx:,} of {size:,} nodes evaluated")
    rng = np.random.default_rng(0)  # fixed: the same search visits the same nodes
    # at_least[i][v] / at_most[i][v]: nodes whose level i is >= v / <= v (for tagging).
    at_least = [[grid[:, i] >= v for v in range(h + 1)] for i, h in enumerate(lattice.heights)]
    at_most = [[grid[:, i] <= v for v in range(h + 1)] for i, h in enumerate(lattice.heights)]
    rows = _LevelRows(grid)
    # Without suppression solutions are few and near the top: after each verdict its
    # unknown neighbours across the border (below a solution, above a non-solution) are
    # evaluated next, last found first, which walks along the border (on adult, k = 2 to
    # 50: about half the evaluations of binary searches on random chains; with 1%
    # suppressed, the chains need fewer).
    probe = lattice.limit == 0
    strides, heights = lattice.strides.tolist(), lattice.heights.tolist()
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
            idx = _chain_middle(start, known, rows, lattice, rng)
        ev = evals[idx] = lattice.evaluate(grid[idx])
        masks = at_least if ev.prune_ok else at_most
        tagged = status == 0
        levels = rows[idx]
        for i, level in enumerate(levels):
            tagged &= masks[i][level]
        status[tagged] = 1 if ev.prune_ok else -1
        unknown -= int(np.count_nonzero(tagged))
        if probe:
            step = -1 if ev.prune_ok else 1
            queue += [
                idx + step * stride
                for i, stride in enumerate(strides)
                if (levels[i] > 0 if step < 0 else levels[i] < heights[i])
                and known[idx + step * stride] == 0
            ]
        report(0.8 * (1 - unknown / size), f"{lattice.evaluated:,} nodes evaluated")

    def get(idx: int) -> _Eval:
        if idx not in evals:
            evals[idx] = lattice.evaluate(grid[idx])
        return evals[idx]

    feasible = status == 1
    if not lattice.monotone:  # the rest of the target is checked on every pruning solution
        for idx in np.flatnonzero(feasible):
            feasible[idx] = get(int(idx)).ok
    report(0.85, "finding the minimal solutions")
    frontier_idx = np.flatnonzero(feasible & ~_solution_below(feasible, lattice.heights))
    frontier = lattice.candidates(grid[frontier_idx], [get(int(i)) for i in frontier_idx])
    made = dict(zip(frontier_idx.tolist(), frontier, strict=True))
    report(0.9, "finding the optimum")
    optimum = _branch_and_bound(lattice, grid, feasible, measure, get, made)
    return optimum, frontier, int(feasible.sum())


def _solution_below(feasible: np.ndarray, heights: np.ndarray) -> np.ndarray:
    """Per node (mixed-radix index): whether a node strictly below it is ``feasible``, so
    the minimal solutions are ``feasible & ~_solution_below(...)``. With the lattice as an
    array of shape ``heights + 1``, "a solution at or below" is a running OR along every
    axis; a node has one strictly below when a direct predecessor has one at or below."""
    shape = tuple(int(h) + 1 for h in heights)
    reach = feasible.reshape(shape)
    for axis in range(len(shape)):
        reach = np.logical_or.accumulate(reach, axis=axis)
    below = np.zeros(shape, dtype=bool)
    for axis in range(len(shape)):
        node = tuple(slice(1, None) if a == axis else slice(None) for a in range(len(shape)))
        pred = tuple(slice(None, -1) if a == axis else slice(None) for a in range(len(shape)))
        below[node] |= reach[pred]
    return below.ravel()


class _LevelRows(dict):
    """A node's levels as a list of ints (index -> list), made on first use: the search reads
    a few of the lattice's nodes this way (135 of 6,480 on adult k = 5, 0%; 2,102 with 1%
    suppressed), and a list per node for all of them cost more than that search."""

    def __init__(self, grid: np.ndarray):
        super().__init__()
        self.grid = grid

    def __missing__(self, idx: int) -> list[int]:
        row = self[idx] = self.grid[idx].tolist()
        return row


def _chain_middle(
    start: int, status: Sequence[int], rows: Mapping[int, list[int]], lattice: _Lattice, rng
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


def _rank(c: Candidate, measure: str) -> tuple:
    tie = c.measures["loss"] if measure == "suppressed" else 0.0
    return (round(c.measures[measure], 12), tie, c.measures["height"], c.suppressed)


def _branch_and_bound(lattice, grid, feasible, measure, get, known) -> Candidate | None:
    """The optimum among the ``feasible`` nodes. ``known``: candidates already made, by node."""
    nodes = np.flatnonzero(feasible)
    if not nodes.size:
        return None
    static = np.zeros(len(grid))  # lower bounds, needed at the solutions only
    static[nodes] = lattice.static_bound(grid[nodes], measure)
    order = nodes[np.lexsort((grid[nodes].sum(axis=1), static[nodes]))]
    dynamic = np.zeros(len(grid))
    best: Candidate | None = None
    sorted_bound = measure in (
        "loss",
        "arx_loss",
        "precision",
        "entropy",
        "arx_entropy",
        "arx_entropy_monotonic",
        "height",
    )
    for idx in order:
        if best is not None:
            value = best.measures[measure]
            if sorted_bound and static[idx] > value + 1e-12:
                break  # every later node has a larger lower bound
            if max(static[idx], dynamic[idx]) > value + 1e-12 and measure != "suppressed":
                continue
        ev = get(int(idx))
        candidate = known.get(int(idx)) or lattice.candidate(grid[idx], ev)
        if best is None or _rank(candidate, measure) < _rank(best, measure):
            best = candidate
        bound = lattice.dynamic_bound(ev, measure)
        if bound > 0:
            up = (grid >= grid[idx]).all(axis=1)
            dynamic[up] = np.maximum(dynamic[up], bound)
    return best


def _greedy(lattice: _Lattice, measure: str, report: ProgressFn):
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
        report(0.8 * node.sum() / max(steps, 1), f"greedy: {lattice.evaluated} evaluations")
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
            choice = min(options, key=lambda c: _rank(c, measure))
            node = np.array([choice.levels[q] for q in lattice.qis], dtype=np.int64)
            improved = True
    best = lattice.candidate(node, lattice.evaluate(node))
    return best, [best], -1


# --- from a candidate to data and recipe steps -------------------------------------------


def _models(k: int | None, models: ClassModels | None) -> ClassModels:
    if (k is None) == (models is None):
        raise ParameterError("Give either 'k' or the target's 'models' (Target.models).")
    return models if models is not None else ClassModels(k=k)


def apply_candidate(
    df: pd.DataFrame,
    hierarchies: Mapping[str, Hierarchy],
    candidate: Candidate,
    *,
    k: int | None = None,
    models: ClassModels | None = None,
) -> pd.DataFrame:
    """The table generalised to the candidate's levels, records in classes that fail the
    privacy ``models`` (or, with ``k`` alone, classes below k) removed: what the recipe
    steps of :func:`recipe_steps` produce. Pass the :class:`Target` itself as ``models``
    when it has whole-table criteria (average risk, population uniqueness): the classes
    ARX removes for them are removed too."""
    models = _models(k, models)
    out = df.copy()
    for column, level in candidate.levels.items():
        if level > 0:
            out[column] = hierarchies[column].generalise(df[column], level)
    qis = list(candidate.levels)
    if models.population_table is not None:  # k-map: the population generalised alike
        generalised = {c: lv for c, lv in candidate.levels.items() if lv > 0}
        population = generalise_population(models.population_table, qis, hierarchies, generalised)
        models = replace(models, population_table=population)
    fail = failing_records(out, qis, models)
    if isinstance(models, Target) and models.sample_based:
        # here, not at the top: core.techniques imports core.local_recoding, which imports us
        from core.techniques.suppression import table_failing_records

        table = _table_specs(models)
        fail |= table_failing_records(
            out, qis, fail, table.get("average_risk"), table.get("population_uniqueness")
        )
    return out.loc[~fail]


def _table_specs(target: Target) -> dict[str, dict[str, Any]]:
    """The whole-table criteria as recipe parameters (core.techniques.suppression)."""
    specs: dict[str, dict[str, Any]] = {}
    if target.max_average_risk is not None:
        specs["average_risk"] = {"max": target.max_average_risk}
    if target.max_population_uniqueness is not None:
        specs["population_uniqueness"] = {
            "max": target.max_population_uniqueness,
            "population": target.population,
            "model": target.population_model,
        }
        if target.population_solver != DEFAULT_SOLVER:  # ARX's solver settings, replayed
            specs["population_uniqueness"]["iterations_per_try"] = (
                target.population_solver.iterations_per_try
            )
    return specs


def suppression_step(
    models: ClassModels,
    quasi_identifiers: Sequence[str],
    *,
    t_hierarchy_path: str | Path | None = None,
    population_table_path: str | Path | None = None,
    generalised: Mapping[str, tuple[str | Path, int]] | None = None,
) -> dict[str, Any]:
    """The recipe step that suppresses the classes failing ``models`` (ARX semantics).
    Hierarchical t-closeness names the sensitive attribute's hierarchy file
    (``t_hierarchy_path``), as ``generalise`` steps name theirs. k-map with a population
    table names the table's file (``population_table_path``; its records are never copied
    into the recipe) and the hierarchy file and level of each generalised column
    (``generalised``), so the population is generalised like the data when it replays."""
    below_k = models.required_k if isinstance(models, Target) else models.k
    step: dict[str, Any] = {
        "step": "suppress_records",
        "below_k": int(below_k),
        "quasi_identifiers": list(quasi_identifiers),
    }
    sensitive = {"sensitive": models.sensitive}
    if models.l is not None:
        step["l_diversity"] = {**sensitive, "l": models.l, "kind": models.l_kind}
        if models.l_kind == "recursive":
            step["l_diversity"]["c"] = models.c
        if models.l_kind == "entropy" and models.entropy_estimator != "shannon":
            step["l_diversity"]["estimator"] = models.entropy_estimator
    if models.t is not None:
        step["t_closeness"] = {**sensitive, "t": models.t, "distance": models.t_distance}
        if models.t_distance == "hierarchical":
            if t_hierarchy_path is None:
                raise ParameterError(
                    f"No hierarchy file given for the sensitive column '{models.sensitive}' "
                    "(t-closeness with hierarchical distance)."
                )
            step["t_closeness"]["hierarchy"] = str(t_hierarchy_path)
    if models.delta is not None:
        step["delta_disclosure"] = {**sensitive, "delta": models.delta}
    if models.beta is not None:
        step["beta_likeness"] = {**sensitive, "beta": models.beta, "enhanced": models.enhanced_beta}
    if models.alpha is not None:
        step["alpha_k"] = {**sensitive, "alpha": models.alpha}
    if models.k_map is not None and models.population_table is not None:
        if population_table_path is None:
            raise ParameterError("No file given for k-map's population table.")
        generalised = dict(generalised or {})
        step["k_map"] = {
            "k": models.k_map,
            "population_table": str(population_table_path),
            "hierarchies": {c: str(p) for c, (p, _) in generalised.items()},
            "levels": {c: int(lv) for c, (_, lv) in generalised.items()},
        }
    elif models.k_map is not None:
        step["k_map"] = {
            "k": models.k_map,
            "population": models.population,
            "estimator": models.k_map_estimator,
            "significance": models.k_map_significance,
        }
    if isinstance(models, Target):
        step.update(_table_specs(models))
    return step


def recipe_steps(
    candidate: Candidate,
    hierarchy_paths: Mapping[str, str | Path],
    *,
    k: int | None = None,
    models: ClassModels | None = None,
    population_table_path: str | Path | None = None,
) -> list[dict[str, Any]]:
    """Recipe steps for a candidate: one ``generalise`` (hierarchy + level) per generalised
    quasi-identifier, then one ``suppress_records`` with the privacy models (below k, and
    l, t, delta, beta, alpha when the target has them) if any record is suppressed; with
    hierarchical t-closeness, ``hierarchy_paths`` also names the sensitive column's file;
    k-map with a population table names its file, ``population_table_path``."""
    models = _models(k, models)
    steps: list[dict[str, Any]] = []
    for column, level in candidate.levels.items():
        if level > 0:
            if column not in hierarchy_paths:
                raise ParameterError(f"No hierarchy file given for column '{column}'.")
            steps.append(
                {
                    "step": "generalise",
                    "column": column,
                    "hierarchy": str(hierarchy_paths[column]),
                    "level": int(level),
                }
            )
    if candidate.suppressed:
        path = hierarchy_paths.get(models.sensitive) if models.sensitive else None
        generalised = {c: (hierarchy_paths[c], lv) for c, lv in candidate.levels.items() if lv}
        steps.append(
            suppression_step(
                models,
                list(candidate.levels),
                t_hierarchy_path=path,
                population_table_path=population_table_path,
                generalised=generalised,
            )
        )
    return steps
