"""The least damaging generalisation that meets a risk target: a lattice search.

PDPC guide, Step 3 (apply anonymisation techniques) and Annex C (k-anonymity): the
privacy officer's question is "what is the least damage to the data that meets my risk
target?". Each quasi-identifier has a generalisation hierarchy (:mod:`core.hierarchy`);
choosing one level per quasi-identifier gives a *node* of the generalisation lattice.
A node is a *solution* when, after removing the records in equivalence classes smaller
than k (record suppression, Annex A), at most the allowed share of records is removed and
the target holds on the records kept:

- k-anonymity (Annex C); an Annex D threshold on P(re-ID) = P(attempt) / k is the same
  as k-anonymity with k = the smallest k meeting it (:func:`core.risk.smallest_k`);
- optionally distinct or entropy l-diversity, or t-closeness (Earth Mover's Distance
  against the whole table's distribution), of a sensitive attribute on the kept classes.

What the search relies on (monotonicity, as in ARX/Flash and Incognito). Generalising a
node merges its equivalence classes (hierarchies must nest: each level a function of the
one before; :func:`search` checks it). A record in a class of at least k records is in a
class of at least k records at every generalisation, so the records to suppress can only
shrink: "k-anonymity with at most s suppressed records" holds at every generalisation of a
solution, and fails at every specialisation of a non-solution. Both prunings are used.
With no suppression allowed, l-diversity (distinct and entropy: the entropy of a merged
class is at least the smallest entropy of its parts) and t-closeness (EMD is convex in
the class distribution) are monotone too. With suppression allowed they are not (five
suppressed singletons with the same sensitive value can merge into one kept class that
is not diverse), so then only the k part prunes and every k-solution is checked for them.

Speed: each quasi-identifier's values are factorised once and its integer codes at every
level are computed once (hierarchy lookup on the distinct values). A node is then one
mixed-radix key over those code arrays and one ``bincount``; the search evaluates nodes in
a binary-search order, tagging the generalisations of a solution as solutions and the
specialisations of a non-solution as non-solutions (predictive tagging), until every node
is known. The optimum is found by branch and bound over the solutions, with lower bounds
that only grow with generalisation.

Measures (all "lower is better"; the result states which one was optimised):

- ``loss``: ARX's / Iyengar's loss metric: a value generalised to g loses
  (leaves under g - 1) / (leaves in the hierarchy - 1), leaves counted in the whole
  hierarchy (its domain, as ARX does), not only the values present in the data; averaged over records and quasi-identifiers; 0 = unchanged, 1 = all ``*``.
- ``precision``: Sweeney's precision loss (1 - Prec): level / height, averaged likewise.
- ``entropy``: non-uniform entropy: -log2 P(original value | generalised value), in bits
  per record summed over the quasi-identifiers.
- ``discernibility``: sum over kept classes of size squared, plus n per suppressed record.
- ``avg_class_size``: records per equivalence class (suppressed records form one class).
- ``height``: sum of the chosen levels.
- ``suppressed``: records removed (ties broken by ``loss``).

Suppressed records count as fully generalised (``*``) in loss, precision and entropy.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.privacy import combined_codes, equivalence_classes, ordered_emd
from core.risk import smallest_k
from core.validation import require_choice, require_columns, require_int, require_probability

MEASURES: dict[str, str] = {
    "loss": "loss metric (ARX/Iyengar), 0 = unchanged, 1 = all suppressed",
    "precision": "precision loss (1 - Sweeney's Prec): level / height",
    "entropy": "non-uniform entropy, bits per record",
    "discernibility": "discernibility: sum of squared class sizes, n per suppressed record",
    "avg_class_size": "average equivalence class size (records per class)",
    "height": "generalisation height (sum of levels)",
    "suppressed": "records suppressed (ties broken by loss)",
}
L_KINDS = ("distinct", "entropy")
METHODS = ("auto", "exact", "greedy", "exhaustive")
ProgressFn = Callable[[float, str], None]


@dataclass(frozen=True)
class Target:
    """What a solution must meet (PDPC guide, Annex C k-anonymity; Annex D threshold).

    ``max_suppressed`` is the largest share of records that may be removed (0.01 = 1%).
    ``p_reid_threshold`` with ``p_attempt`` (Annex D) raises k to the smallest k with
    p_attempt / k <= threshold. ``l`` (with ``l_kind`` distinct/entropy) and ``t`` need
    ``sensitive``.
    """

    k: int = 5
    max_suppressed: float = 0.0
    sensitive: str | None = None
    l: float | None = None  # noqa: E741
    l_kind: str = "distinct"
    t: float | None = None
    p_reid_threshold: float | None = None
    p_attempt: float = 1.0

    def __post_init__(self) -> None:
        require_int("k", self.k, minimum=1)
        require_probability("max_suppressed", self.max_suppressed)
        require_choice("l_kind", self.l_kind, L_KINDS)
        if (self.l is not None or self.t is not None) and self.sensitive is None:
            raise ParameterError("l-diversity and t-closeness need a 'sensitive' column.")
        if self.l is not None and self.l < 1:
            raise ParameterError(f"Parameter 'l' must be at least 1, got {self.l}.")
        if self.t is not None:
            require_probability("t", self.t)
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

    def describe(self) -> str:
        parts = [f"k = {self.required_k}"]
        if self.p_reid_threshold is not None:
            parts.append(f"P(re-ID) <= {self.p_reid_threshold:g} (P(attempt) {self.p_attempt:g})")
        if self.l is not None:
            parts.append(f"{self.l_kind} l-diversity l = {self.l:g} on '{self.sensitive}'")
        if self.t is not None:
            parts.append(f"t-closeness t = {self.t:g} on '{self.sensitive}'")
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
    l_distinct: int | None = None
    l_entropy: float | None = None
    t_closeness: float | None = None

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
            row.update(k=c.k, classes=c.classes, suppressed=c.suppressed,
                       share_suppressed=c.share_suppressed, max_risk=c.max_risk)  # fmt: skip
            if c.p_reid is not None:
                row["p_reid"] = c.p_reid
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
            f"The least {MEASURES[self.measure].split(':')[0]} that meets "
            f"{self.target.describe()} is {o.label()} ({self.measure} = "
            f"{o.measures[self.measure]:.4g}, {o.suppressed} record(s) suppressed); "
            f"{len(self.frontier)} minimal solution(s) found by the {self.method} search."
        )


# --- preparation: codes per quasi-identifier and level, computed once -------------------


@dataclass
class _Column:
    name: str
    height: int
    codes: list[np.ndarray]  # per level: class code of each record
    cards: list[int]  # per level: number of codes
    value_codes: np.ndarray  # code of each record's original value (0..d-1)
    value_loss: list[np.ndarray]  # per level: loss metric of each original value
    value_entropy: list[np.ndarray]  # per level: -log2 P(value | generalised value)
    value_max_entropy: np.ndarray = field(default_factory=lambda: np.zeros(0))  # at "*"
    level_totals: dict[str, np.ndarray] = field(default_factory=dict)


def _prepare_column(series: pd.Series, hierarchy: Hierarchy) -> _Column:
    text = as_text(series)
    value_codes, uniques = pd.factorize(text, use_na_sentinel=False)
    value_codes = value_codes.astype(np.int64, copy=False)
    distinct = pd.Series(uniques, name=series.name, dtype="str")
    counts = np.bincount(value_codes, minlength=len(distinct)).astype(float)
    n, d = float(counts.sum()), len(distinct)
    codes, cards, losses, entropies = [], [], [], []
    domain = len(hierarchy.levels)
    previous = None
    for level in range(hierarchy.height + 1):
        labels = hierarchy.generalise(distinct, level)  # raises on values not covered
        group, group_labels = pd.factorize(labels, use_na_sentinel=False)
        if previous is not None:
            _check_nested(previous, group, distinct, hierarchy, level, series.name)
        previous = group
        # Leaves under each generalised value, counted in the hierarchy's whole domain (ARX).
        domain_labels = hierarchy.levels[level]
        leaves = domain_labels.map(domain_labels.value_counts()).to_numpy()
        leaves = pd.Series(leaves, index=hierarchy.levels[0].to_numpy())
        value_leaves = leaves.reindex(distinct.to_numpy()).fillna(1).to_numpy(dtype=float)
        group_count = np.bincount(group, weights=counts)
        codes.append(group[value_codes].astype(np.int64))
        cards.append(max(len(group_labels), 1))
        losses.append((value_leaves - 1) / (domain - 1) if domain > 1 else np.zeros(d))
        entropies.append(-np.log2(counts / group_count[group]))
    column = _Column(str(series.name), hierarchy.height, codes, cards, value_codes,
                     losses, entropies)  # fmt: skip
    for name, table in (("loss", losses), ("entropy", entropies)):
        column.level_totals[name] = np.array([(t * counts).sum() for t in table])
    column.level_totals["precision"] = (
        np.arange(hierarchy.height + 1) / max(hierarchy.height, 1) * n
    )
    column.value_max_entropy = -np.log2(counts / n)
    return column


def _check_nested(previous, group, distinct, hierarchy, level, column) -> None:
    """Level ``level`` must be a function of level ``level - 1`` (classes only merge)."""
    pairs = pd.DataFrame({"prev": previous, "now": group}).drop_duplicates()
    split = pairs["prev"].duplicated(keep=False)
    if split.any():
        row = int(np.flatnonzero(split.to_numpy())[0])
        value = distinct.iloc[int(np.flatnonzero(previous == pairs["prev"].iloc[row])[0])]
        raise ParameterError(
            f"The hierarchy{f' {hierarchy.name!r}' if hierarchy.name else ''} of column "
            f"'{column}' does not nest: values that share level {level - 1} (e.g. {value!r}) "
            f"are split at level {level}. Each level must merge groups of the one before."
        )


@dataclass(frozen=True)
class _Eval:
    """What one node evaluation found: the target's verdict and every measure."""

    k_ok: bool
    ok: bool
    suppressed: int
    k: int  # smallest kept class
    classes: int  # kept classes
    all_classes: int  # classes before suppression
    sum_squares: float  # sum of squared class sizes before suppression
    kept_squares: float  # sum of squared sizes of the kept classes
    suppressed_units: np.ndarray | None  # units suppressed (kept for solutions only)
    l_distinct: int | None
    l_entropy: float | None
    t: float | None


class _Lattice:
    """The lattice of one search: codes per level, computed once, and node evaluation.

    Records are first grouped into *units*: records alike on every quasi-identifier (and
    the sensitive attribute) at level 0. Every class of every node is a union of units,
    so nodes are evaluated on units with their counts as weights (18,109 units for the
    30,162 adult records). A node is evaluated by "roll-up" from a recently evaluated
    specialisation when one is cached: its classes merge, so only one representative unit
    per class of the specialisation needs a key.
    """

    _CACHE = 48

    def __init__(self, df: pd.DataFrame, hierarchies: Mapping[str, Hierarchy], target: Target):
        self.qis = tuple(hierarchies)
        self.n = len(df)
        self.target = target
        self.k = target.required_k
        self.limit = int(np.floor(target.max_suppressed * self.n + 1e-9))
        columns = [_prepare_column(df[c], hierarchies[c]) for c in self.qis]
        self.columns = columns
        self.heights = np.array([c.height for c in columns], dtype=np.int64)
        self.strides = np.ones(len(self.qis), dtype=np.int64)
        for i in range(len(self.qis) - 2, -1, -1):
            self.strides[i] = self.strides[i + 1] * (self.heights[i + 1] + 1)
        self.size = int(np.prod(self.heights + 1))
        self.evaluated = 0
        self.sensitive = None
        record_codes = [c.value_codes for c in columns]
        if target.sensitive is not None:
            s_codes = self._prepare_sensitive(df[target.sensitive])
            record_codes.append(s_codes)
        unit_df = pd.DataFrame({i: codes for i, codes in enumerate(record_codes)})
        unit_of_record, n_units = combined_codes(unit_df, list(unit_df.columns))
        first = np.full(n_units, -1, dtype=np.int64)
        first[unit_of_record[::-1]] = np.arange(self.n - 1, -1, -1)
        self.weights = np.bincount(unit_of_record, minlength=n_units).astype(np.int64)
        self.n_units = n_units
        for column in columns:  # from here on, codes are per unit
            column.codes = [codes[first] for codes in column.codes]
            column.value_codes = column.value_codes[first]
        if self.sensitive is not None:
            self.s_codes = self.s_codes[first]
        self._cache: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def _prepare_sensitive(self, column: pd.Series) -> np.ndarray:
        numeric = pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)
        codes, uniques = pd.factorize(column, sort=numeric, use_na_sentinel=False)
        self.s_codes = codes.astype(np.int64)
        self.s_values = max(len(uniques), 1)
        self.s_ordered = numeric
        self.s_overall = np.bincount(self.s_codes, minlength=self.s_values) / max(self.n, 1)
        self.sensitive = column.name
        return self.s_codes

    @property
    def monotone(self) -> bool:
        t = self.target
        return (t.l is None and t.t is None) or self.limit == 0

    def grid(self) -> np.ndarray:
        """Every node as a row of levels, row i = node with index i (mixed radix)."""
        axes = [np.arange(h + 1) for h in self.heights]
        mesh = np.meshgrid(*axes, indexing="ij")
        return np.stack([m.ravel() for m in mesh], axis=1).astype(np.int64)

    def _key(self, levels: Sequence[int], rows: np.ndarray | None) -> tuple[np.ndarray, int]:
        size = self.n_units if rows is None else rows.size
        key = np.zeros(size, dtype=np.int64)
        radix = 1
        for column, level in zip(self.columns, levels, strict=True):
            card = column.cards[level]
            if card == 1:
                continue
            if radix * card > 2**62:
                key, radix = _dense(key)
            codes = column.codes[level]
            key = key * card + (codes if rows is None else codes[rows])
            radix *= card
        if radix > 4 * size + 1024:
            return _dense(key)
        present = np.bincount(key, minlength=radix) > 0
        remap = np.cumsum(present) - 1
        return remap[key], int(present.sum())

    def classes(self, levels: Sequence[int]) -> tuple[np.ndarray, int]:
        """Class of each unit at the node ``levels``, by roll-up when possible."""
        node = np.asarray(levels)
        source = None
        if self._cache:
            entries = list(self._cache.values())
            below = (np.stack([e[0] for e in entries]) <= node).all(axis=1)
            if below.any():
                sizes = np.array([e[2].size for e in entries])
                source = entries[int(np.flatnonzero(below)[np.argmin(sizes[below])])]
        if source is None:
            cls, n_classes = self._key(levels, None)
        else:
            _, src_cls, src_rep = source
            merged, n_classes = self._key(levels, src_rep)
            cls = merged[src_cls]
        if len(self._cache) >= self._CACHE:
            self._cache.pop(next(iter(self._cache)))
        rep = np.empty(n_classes, dtype=np.int64)
        rep[cls[::-1]] = np.arange(cls.size - 1, -1, -1)
        self._cache[int((node * self.strides).sum())] = (node.copy(), cls, rep)
        return cls, n_classes

    def evaluate(self, levels: Sequence[int]) -> _Eval:
        self.evaluated += 1
        cls, n_classes = self.classes(levels)
        sizes = np.bincount(cls, weights=self.weights, minlength=n_classes).astype(np.int64)
        small = sizes[cls] < self.k
        suppressed = int(self.weights[small].sum())
        k_ok = suppressed <= self.limit and suppressed < self.n
        l_distinct = l_entropy = t = None
        ok = k_ok
        if k_ok and self.sensitive is not None:
            l_distinct, l_entropy, t = self._sensitive(cls, sizes, ~small)
            target = self.target
            if target.l is not None:
                l_value = l_distinct if target.l_kind == "distinct" else l_entropy
                ok = ok and l_value >= target.l - 1e-9
            if target.t is not None:
                ok = ok and t <= target.t + 1e-12
        kept = sizes[sizes >= self.k]
        return _Eval(
            k_ok=k_ok,
            ok=ok,
            suppressed=suppressed,
            k=int(kept.min()) if kept.size else 0,
            classes=int(kept.size),
            all_classes=int(np.count_nonzero(sizes)),
            sum_squares=float((sizes.astype(float) ** 2).sum()),
            kept_squares=float((kept.astype(float) ** 2).sum()),
            suppressed_units=np.flatnonzero(small) if k_ok else None,
            l_distinct=l_distinct,
            l_entropy=l_entropy,
            t=t,
        )

    def _sensitive(self, cls, sizes, kept) -> tuple[int, float, float]:
        n_values = self.s_values
        pair = cls[kept] * n_values + self.s_codes[kept]
        pairs, inverse = np.unique(pair, return_inverse=True)
        counts = np.bincount(inverse, weights=self.weights[kept])
        pair_class, pair_value = pairs // n_values, pairs % n_values
        n_classes = sizes.size
        present = np.zeros(n_classes, dtype=bool)
        present[pair_class] = True
        distinct = np.bincount(pair_class, minlength=n_classes)
        share = counts / sizes[pair_class]
        entropy = np.exp(np.bincount(pair_class, weights=-share * np.log(share),
                                     minlength=n_classes))  # fmt: skip
        overall = self.s_overall
        if self.s_ordered:
            emd = ordered_emd(pair_class, pair_value, share, overall, n_classes, n_values)
        else:
            term = np.abs(share - overall[pair_value]) - overall[pair_value]
            emd = 0.5 * (np.bincount(pair_class, weights=term, minlength=n_classes) + 1.0)
        return (int(distinct[present].min()), float(entropy[present].min()),
                float(np.clip(emd[present], 0, 1).max()))  # fmt: skip

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
        return np.zeros(len(grid))

    def _normaliser(self, measure: str) -> float:
        if measure == "entropy":
            return float(max(self.n, 1))
        return float(max(self.n * len(self.columns), 1))

    def _measures(self, levels, ev: _Eval) -> tuple[dict, dict]:
        n, suppressed, small = self.n, ev.suppressed, ev.suppressed_units
        weights = self.weights[small]
        supp_codes = [c.value_codes[small] for c in self.columns]
        out: dict[str, float] = {}
        per_column = {}
        for measure in ("loss", "precision", "entropy"):
            total = 0.0
            for column, level, codes in zip(self.columns, levels, supp_codes, strict=True):
                gen = column.level_totals[measure][level]
                if measure == "loss":
                    fix = suppressed - (column.value_loss[level][codes] * weights).sum()
                elif measure == "precision":
                    fix = suppressed * (1 - level / max(column.height, 1))
                else:
                    top = column.value_max_entropy[codes]
                    fix = ((top - column.value_entropy[level][codes]) * weights).sum()
                total += gen + fix
                if measure == "loss":
                    per_column[column.name] = float((gen + fix) / max(n, 1))
            out[measure] = float(total / self._normaliser(measure))
        out["discernibility"] = float(ev.kept_squares + suppressed * n)
        out["avg_class_size"] = float(n / max(ev.classes + (suppressed > 0), 1))
        out["height"] = float(sum(levels))
        out["suppressed"] = float(suppressed)
        return out, per_column

    def dynamic_bound(self, ev: _Eval, measure: str) -> float:
        """Lower bound of ``measure`` for every generalisation of an evaluated node."""
        if measure == "discernibility":
            return ev.sum_squares
        if measure == "avg_class_size":
            return float(self.n / (ev.all_classes + 1))
        return 0.0

    def candidate(self, levels: Sequence[int], ev: _Eval) -> Candidate:
        if ev.suppressed_units is None:
            raise ParameterError("Only nodes that meet the k part have measures.")
        measures, per_column = self._measures(levels, ev)
        t = self.target
        p_reid = t.p_attempt / ev.k if t.p_reid_threshold is not None and ev.k else None
        return Candidate(
            levels=dict(zip(self.qis, map(int, levels), strict=True)),
            k=ev.k,
            classes=ev.classes,
            suppressed=ev.suppressed,
            share_suppressed=ev.suppressed / self.n if self.n else 0.0,
            max_risk=1.0 / ev.k if ev.k else 1.0,
            p_reid=p_reid,
            measures=measures,
            column_loss=per_column,
            l_distinct=ev.l_distinct,
            l_entropy=ev.l_entropy,
            t_closeness=ev.t,
        )


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
) -> SearchResult:
    """Find the generalisation levels that meet ``target`` with the least ``measure``.

    ``hierarchies`` maps each quasi-identifier to its hierarchy (the lattice has one level
    per quasi-identifier). ``method``: ``"exact"`` (pruned lattice search), ``"greedy"``
    (fallback, see the module docstring), ``"exhaustive"`` (every node evaluated, no
    pruning; for checks and benchmarks) or ``"auto"`` (exact up to ``max_nodes`` nodes).
    ``progress(fraction, message)`` is called as the search goes.
    PDPC guide, Step 3 and Annex C.
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
    if len(df) == 0:
        raise ParameterError("The table is empty: there is nothing to search.")
    lattice = _Lattice(df, hierarchies, target)
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
        note = ("Greedy fallback: a locally minimal solution, not guaranteed optimal; the "
                "frontier holds that node only.")  # fmt: skip
    else:
        optimum, frontier, solutions = _exact(lattice, measure, report, method == "exhaustive")
        note = "" if lattice.monotone else (
            "l-diversity / t-closeness with suppression are not monotone: only the k part "
            "was used to prune; every k-solution was checked."
        )  # fmt: skip
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
    )


def _exact(lattice: _Lattice, measure: str, report: ProgressFn, exhaustive: bool):
    grid = lattice.grid()
    size = len(grid)
    height = grid.sum(axis=1)
    status = np.zeros(size, dtype=np.int8)  # k part (or whole target if monotone): 1/-1
    evals: dict[int, _Eval] = {}
    if exhaustive:
        for idx in range(size):
            ev = evals[idx] = lattice.evaluate(grid[idx])
            status[idx] = 1 if (ev.ok if lattice.monotone else ev.k_ok) else -1
            if idx % 256 == 0:
                report(0.8 * idx / size, f"{idx:,} of {size:,} nodes evaluated")
    rng = np.random.default_rng(0)  # fixed: the same search visits the same nodes
    while not exhaustive and (unknown := np.flatnonzero(status == 0)).size:
        idx = _chain_middle(int(rng.choice(unknown)), status, grid, lattice, rng)
        ev = evals[idx] = lattice.evaluate(grid[idx])
        node = grid[idx]
        if ev.ok if lattice.monotone else ev.k_ok:
            status[unknown[(grid[unknown] >= node).all(axis=1)]] = 1
        else:
            status[unknown[(grid[unknown] <= node).all(axis=1)]] = -1
        report(0.8 * (1 - unknown.size / size), f"{lattice.evaluated:,} nodes evaluated")

    def get(idx: int) -> _Eval:
        if idx not in evals:
            evals[idx] = lattice.evaluate(grid[idx])
        return evals[idx]

    feasible = status == 1
    if not lattice.monotone:  # the l / t part is checked on every k-solution
        for idx in np.flatnonzero(feasible):
            feasible[idx] = get(int(idx)).ok
    report(0.85, "finding the minimal solutions")
    # Minimal solutions: no solution strictly below (propagated layer by layer).
    below = np.zeros(size, dtype=bool)
    for h in range(1, int(height.max()) + 1):
        layer = np.flatnonzero(height == h)
        for i, stride in enumerate(lattice.strides):
            has = layer[grid[layer, i] > 0]
            pred = has - stride
            below[has] |= feasible[pred] | below[pred]
    frontier_idx = np.flatnonzero(feasible & ~below)
    frontier = [lattice.candidate(grid[i], get(int(i))) for i in frontier_idx]
    report(0.9, "finding the optimum")
    optimum = _branch_and_bound(lattice, grid, feasible, measure, get)
    return optimum, frontier, int(feasible.sum())


def _chain_middle(start: int, status, grid, lattice: _Lattice, rng) -> int:
    """Binary search on a chain (Flash-like): walk from ``start`` through unknown nodes up
    to a maximal and down to a minimal one, one random step at a time, and return the
    middle of that chain. Its verdict then settles about half of the chain."""
    path = [start]
    for direction in (1, -1):
        current = start
        while True:
            steps = [current + direction * int(stride)
                     for i, stride in enumerate(lattice.strides)
                     if (grid[current, i] < lattice.heights[i] if direction > 0
                         else grid[current, i] > 0)
                     and status[current + direction * int(stride)] == 0]  # fmt: skip
            if not steps:
                break
            current = steps[int(rng.integers(len(steps)))]
            path.append(current) if direction > 0 else path.insert(0, current)
    return path[len(path) // 2]


def _rank(c: Candidate, measure: str) -> tuple:
    tie = c.measures["loss"] if measure == "suppressed" else 0.0
    return (round(c.measures[measure], 12), tie, c.measures["height"], c.suppressed)


def _branch_and_bound(lattice, grid, feasible, measure, get) -> Candidate | None:
    nodes = np.flatnonzero(feasible)
    if not nodes.size:
        return None
    static = lattice.static_bound(grid, measure)
    order = nodes[np.lexsort((grid[nodes].sum(axis=1), static[nodes]))]
    dynamic = np.zeros(len(grid))
    best: Candidate | None = None
    sorted_bound = measure in ("loss", "precision", "entropy", "height")
    for idx in order:
        if best is not None:
            value = best.measures[measure]
            if sorted_bound and static[idx] > value + 1e-12:
                break  # every later node has a larger lower bound
            if max(static[idx], dynamic[idx]) > value + 1e-12 and measure != "suppressed":
                continue
        ev = get(int(idx))
        candidate = lattice.candidate(grid[idx], ev)
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
        options = [node + np.eye(len(node), dtype=np.int64)[i]
                   for i in range(len(node)) if node[i] < lattice.heights[i]]  # fmt: skip
        if not options:
            return None, [], -1
        scored = []
        for option in options:
            option_ev = lattice.evaluate(option)
            gain = ev.suppressed - option_ev.suppressed
            cost = max(float(bound(option[None, :], "loss")[0] - bound(node[None, :], "loss")[0]),
                       1e-9)  # fmt: skip
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


def apply_candidate(
    df: pd.DataFrame,
    hierarchies: Mapping[str, Hierarchy],
    candidate: Candidate,
    *,
    k: int,
) -> pd.DataFrame:
    """The table generalised to the candidate's levels, records in classes below ``k``
    removed (what the recipe steps of :func:`recipe_steps` produce)."""
    out = df.copy()
    for column, level in candidate.levels.items():
        if level > 0:
            out[column] = hierarchies[column].generalise(df[column], level)
    below = equivalence_classes(out, list(candidate.levels)).below(k)
    return out.loc[~below]


def recipe_steps(
    candidate: Candidate,
    hierarchy_paths: Mapping[str, str | Path],
    *,
    k: int,
) -> list[dict[str, Any]]:
    """Recipe steps for a candidate: one ``generalise`` (hierarchy + level) per generalised
    quasi-identifier, then ``suppress_records`` below k if any record is suppressed."""
    steps: list[dict[str, Any]] = []
    for column, level in candidate.levels.items():
        if level > 0:
            if column not in hierarchy_paths:
                raise ParameterError(f"No hierarchy file given for column '{column}'.")
            steps.append({"step": "generalise", "column": column,
                          "hierarchy": str(hierarchy_paths[column]), "level": int(level)})  # fmt: skip
    if candidate.suppressed:
        steps.append({"step": "suppress_records", "below_k": int(k),
                      "quasi_identifiers": list(candidate.levels)})  # fmt: skip
    return steps
