"""Differentially private counts, sums, means and cross-tabulations (OpenDP noise).

Source: *Health data privacy: HIPAA, GDPR and formal models*, section "Probabilistic
Guarantees: Differential Privacy". A mechanism is (ε, δ)-differentially private when,
for any two tables that differ by one person's record (added or removed), the chance of
any output changes by at most a factor exp(ε), plus δ. The Laplace mechanism adds noise
of scale b = Δf/ε, where Δf (the global sensitivity) is how much one record can change
the answer: 1 for a count, max(|lo|, |hi|) for a sum of values clipped to [lo, hi].

This is the differentially private counterpart of the PDPC guide's data aggregation
(Annex A: Data aggregation): instead of suppressing small cells, every cell gets noise
whose size does not depend on what an attacker already knows.

How a release is computed (the trust boundary is stated in README.md):

1. The grouping keys come from the user (``categories``), never from the data: every
   combination of the listed categories is a cell, also when no record falls in it.
   Records whose key is not in the lists fall into one extra "outside" cell. The cells
   partition the records, so one person changes one cell: the sensitivity of the whole
   count vector is 1 (L1 and L2), and of a clipped sum vector max(|lo|, |hi|).
2. Values are clipped to bounds the user gives (never the data's min/max, which would
   leak the extremes); missing values count as 0.
3. The exact cell vectors are computed here with ``numpy.bincount`` (fast on millions of
   rows). The noise is drawn by OpenDP measurements (``make_laplace`` / ``make_gaussian``
   on vectors), whose privacy map confirms the ε (and δ) charged for the sensitivity.
   Counts are integers and get *discrete* Laplace (or discrete Gaussian) noise.
4. Means, the count of records outside the lists and clipping at zero are computed from
   released noisy figures only (post-processing: no extra privacy cost).

Seeding: OpenDP draws its noise from a cryptographically secure generator that cannot
be seeded, on purpose (a known seed would let anyone subtract the noise). Every call
therefore gives a different answer, and every call is a new release that spends its ε
again: release once, keep the ledger.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from numbers import Real
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.formatting import fmt_count, fmt_number
from core.outputs import Output, write_outputs
from core.validation import (
    require_choice,
    require_columns,
    require_int,
    require_numeric,
    require_positive,
)

SOURCE = "Health data privacy (HIPAA, GDPR, formal models): Differential Privacy"
MECHANISMS = ("laplace", "gaussian")
COVERAGE = 0.95
MAX_CELLS = 200_000
_TOLERANCE = 1e-9  # relative slack when adding up floating-point ε

#: The ε accepted for a release and for each of its queries (checked by
#: :func:`require_epsilon`). Measured with OpenDP 0.x as used here (count: sensitivity 1):
#: above about 745 per query the discrete Laplace noise is exp(-ε) = 0 (no noise at all)
#: and OpenDP's Gaussian cannot be calibrated below σ of about 0.001; below about 1e-9 the
#: integer noise of a count saturates at ±2**31 (OpenDP samples 32-bit integers), and at
#: 1e-16 and below the Gaussian calibration divides by zero. Within [1e-6, 100] every
#: mechanism works; beyond ε of about 10 the guarantee is already void in practice
#: (exp(10) is about 22,000), so 100 is a generous ceiling, and 1e-6 gives a count noise of
#: about ±3 million, more than any table here needs.
MIN_EPSILON = 1e-6
MAX_EPSILON = 100.0


class BudgetExceededError(ParameterError):
    """A query would spend more ε (or δ) than is left in the privacy budget."""


# --- privacy budget ----------------------------------------------------------------------


@dataclass(frozen=True)
class Charge:
    """One query's privacy cost, as recorded in the budget's ledger."""

    query: str
    epsilon: float
    delta: float = 0.0


class PrivacyBudget:
    """The total ε (and δ) of one release, spent query by query (sequential composition).

    Each query charges its ε and δ; the costs add up, and a query that would take the
    total above the budget is refused with :class:`BudgetExceededError` before any noise
    is drawn. Queries over disjoint cells of one cross-tabulation are *one* query
    (parallel composition): one person is in one cell only.
    """

    def __init__(self, epsilon: float, delta: float = 0.0, charges: Iterable[Charge] = ()) -> None:
        self.epsilon = require_positive("budget epsilon", epsilon)
        self.delta = _require_delta("budget delta", delta)
        self._charges: list[Charge] = []
        for charge in charges:
            self.charge(charge.query, charge.epsilon, charge.delta)

    @property
    def charges(self) -> tuple[Charge, ...]:
        return tuple(self._charges)

    @property
    def spent_epsilon(self) -> float:
        return math.fsum(c.epsilon for c in self._charges)

    @property
    def spent_delta(self) -> float:
        return math.fsum(c.delta for c in self._charges)

    @property
    def remaining_epsilon(self) -> float:
        return max(self.epsilon - self.spent_epsilon, 0.0)

    @property
    def remaining_delta(self) -> float:
        return max(self.delta - self.spent_delta, 0.0)

    def can_afford(self, epsilon: float, delta: float = 0.0) -> bool:
        slack = _TOLERANCE * max(self.epsilon, 1.0)
        eps_ok = self.spent_epsilon + epsilon <= self.epsilon + slack
        delta_ok = self.spent_delta + delta <= self.delta + _TOLERANCE * max(self.delta, 1e-12)
        return eps_ok and delta_ok

    def require(self, what: str, epsilon: float, delta: float = 0.0) -> None:
        """Raise :class:`BudgetExceededError` if ``epsilon``/``delta`` do not fit."""
        if self.can_afford(epsilon, delta):
            return
        asked = f"ε = {epsilon:g}" + (f", δ = {delta:g}" if delta else "")
        raise BudgetExceededError(
            f"{what} needs {asked}, but the privacy budget has only ε = "
            f"{self.remaining_epsilon:g} (δ = {self.remaining_delta:g}) left of ε = "
            f"{self.epsilon:g} (δ = {self.delta:g}) after {len(self._charges)} earlier "
            "query(ies). Lower ε, ask fewer queries, or start a new release with a budget "
            "agreed in advance (more ε means less privacy for everyone in the data)."
        )

    def charge(self, query: str, epsilon: float, delta: float = 0.0) -> Charge:
        """Record a query's cost, or refuse it if it would exceed the budget."""
        epsilon = require_positive(f"epsilon of query '{query}'", epsilon)
        delta = _require_delta(f"delta of query '{query}'", delta)
        self.require(f"Query '{query}'", epsilon, delta)
        charge = Charge(query, epsilon, delta)
        self._charges.append(charge)
        return charge

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget": {"epsilon": self.epsilon, "delta": self.delta},
            "spent": {"epsilon": self.spent_epsilon, "delta": self.spent_delta},
            "charges": [
                {"query": c.query, "epsilon": c.epsilon, "delta": c.delta} for c in self._charges
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PrivacyBudget:
        try:
            budget = data["budget"]
            charges = [
                Charge(str(c["query"]), float(c["epsilon"]), float(c.get("delta", 0.0)))
                for c in data.get("charges", [])
            ]
            return cls(float(budget["epsilon"]), float(budget.get("delta", 0.0)), charges)
        except (KeyError, TypeError, ValueError) as error:
            raise ParameterError(
                f"The privacy ledger is not readable ({error!r}): it needs 'budget' "
                "{epsilon, delta} and a 'charges' list. Start a new ledger file."
            ) from None

    def __repr__(self) -> str:
        return (
            f"PrivacyBudget(epsilon={self.epsilon:g}, delta={self.delta:g}, "
            f"spent_epsilon={self.spent_epsilon:g}, queries={len(self._charges)})"
        )


def require_epsilon(name: str, value: object) -> float:
    """The one check of an ε (a release's or one query's): in [MIN_EPSILON, MAX_EPSILON]."""
    epsilon = require_positive(name, value)
    if not MIN_EPSILON <= epsilon <= MAX_EPSILON:
        raise ParameterError(
            f"Parameter '{name}' is {epsilon:g}, outside the range {MIN_EPSILON:g} to "
            f"{MAX_EPSILON:g} that this tool releases with (OpenDP's noise is meaningless "
            "beyond it). Typical values are 0.1 to 5."
        )
    return epsilon


def _require_delta(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value < 1:
        raise ParameterError(
            f"Parameter '{name}' must be a probability from 0 up to (not including) 1, "
            f"got {value!r}; typical values are far below 1/records, e.g. 1e-6."
        )
    return float(value)


# --- noise and its accuracy ----------------------------------------------------------------


@dataclass(frozen=True)
class Accuracy:
    """How far the noise of one mechanism takes a figure from the truth."""

    mechanism: str  # "discrete Laplace", "Laplace", "discrete Gaussian", "Gaussian"
    scale: float  # Laplace b or Gaussian σ
    expected_error: float  # E|noise|
    error95: float  # |noise| <= error95 with probability >= 95%


def noise_scale(
    sensitivity: float, epsilon: float, *, mechanism: str = "laplace", delta: float = 0.0
) -> float:
    """The noise scale that makes a query of this sensitivity (ε, δ)-DP.

    Laplace: b = Δf/ε (the source's formula). Gaussian: the smallest σ whose OpenDP
    zCDP-to-(ε, δ) conversion meets (ε, δ), found by bisection on OpenDP's privacy check.
    """
    sensitivity = require_positive("sensitivity", sensitivity)
    epsilon = require_epsilon("epsilon", epsilon)
    mechanism = require_choice("mechanism", mechanism, MECHANISMS)
    if mechanism == "laplace":
        return sensitivity / epsilon
    delta = _require_delta("delta", delta)
    if delta == 0:
        raise ParameterError(
            "The Gaussian mechanism needs delta > 0 (e.g. 1e-6): it gives (ε, δ)-DP only. "
            "Use mechanism 'laplace' for pure ε-DP."
        )
    return _gaussian_sigma(epsilon, delta) * sensitivity  # σ grows linearly with Δf


@lru_cache(maxsize=256)
def _gaussian_sigma(epsilon: float, delta: float) -> float:
    """σ for sensitivity 1: bisection on OpenDP's own privacy check."""
    dp = _opendp()
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float)

    def private(sigma: float) -> bool:
        gaussian = dp.m.make_gaussian(*space, scale=sigma)
        chain = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian), delta)
        try:
            return bool(chain.check(1.0, (epsilon, delta)))
        except dp.OpenDPException:  # overflow for a far too small σ
            return False

    # Between the textbook zCDP bound (ε = ρ + 2 sqrt(ρ ln 1/δ), ρ = 1/(2σ²)), which is
    # always enough, and a tenth of it, which never is; then bisection on log σ.
    root = math.sqrt(math.log(1 / delta) + epsilon) - math.sqrt(math.log(1 / delta))
    high = 1 / (math.sqrt(2) * root) * 1.001
    low = high / 10
    if not private(high):
        raise ParameterError(f"ε = {epsilon:g}, δ = {delta:g} need an unusably large noise.")
    for _ in range(24):
        middle = math.sqrt(low * high)
        low, high = (low, middle) if private(middle) else (middle, high)
    return high


def accuracy(scale: float, *, mechanism: str = "laplace", integer: bool = False) -> Accuracy:
    """Expected absolute error and 95% bound of the noise, computed analytically.

    Laplace(b): E|X| = b and P(|X| > x) = exp(-x/b), so the 95% bound is b·ln(20).
    Discrete Laplace (integers, P(k) ∝ exp(-|k|/b), t = exp(-1/b)): E|X| = 2t/(1-t²) and
    P(|X| > n) = 2t^(n+1)/(1+t); the bound is the smallest whole n with P(|X| <= n) >= 95%.
    Gaussian(σ): E|X| = σ·sqrt(2/π), bound 1.96σ. Discrete Gaussian: by summing its
    probabilities P(k) ∝ exp(-k²/(2σ²)).
    """
    scale = require_positive("scale", scale)
    mechanism = require_choice("mechanism", mechanism, MECHANISMS)
    if mechanism == "laplace" and not integer:
        return Accuracy("Laplace", scale, scale, scale * math.log(1 / (1 - COVERAGE)))
    if mechanism == "laplace":
        t = math.exp(-1 / scale)
        expected = 2 * t / (1 - t * t)
        # smallest n with 2 t^(n+1) / (1+t) <= 0.05
        n = math.ceil(math.log((1 - COVERAGE) * (1 + t) / 2) / math.log(t) - 1 - 1e-12)
        return Accuracy("discrete Laplace", scale, expected, float(max(n, 0)))
    if not integer:
        z = NormalDist().inv_cdf(0.5 + COVERAGE / 2)
        return Accuracy("Gaussian", scale, scale * math.sqrt(2 / math.pi), z * scale)
    return _discrete_gaussian_accuracy(scale)


@lru_cache(maxsize=256)
def _discrete_gaussian_accuracy(sigma: float) -> Accuracy:
    if sigma > _DISCRETE_AS_CONTINUOUS_SIGMA:  # the sum below would need 14σ numbers
        z = NormalDist().inv_cdf(0.5 + COVERAGE / 2)
        # P(|X| <= n) of the discrete Gaussian is P(|Y| <= n + 1/2) of the continuous one
        bound = float(math.ceil(z * sigma - 0.5))
        return Accuracy("discrete Gaussian", sigma, sigma * math.sqrt(2 / math.pi), bound)
    reach = int(math.ceil(14 * sigma)) + 10
    k = np.arange(0, reach + 1, dtype=float)
    weight = np.exp(-(k**2) / (2 * sigma**2))
    weight[1:] *= 2  # ±k
    p = weight / weight.sum()
    expected = float((k * p).sum())
    n = int(np.searchsorted(np.cumsum(p), COVERAGE - 1e-12))
    return Accuracy("discrete Gaussian", sigma, expected, float(n))


# Above this σ the discrete Gaussian's E|X| and 95% bound are the continuous Gaussian's
# (E|X| to a relative 1e-7; the bound with a continuity correction): no need to sum 14σ
# probabilities, which for σ = 1e7 (ε = 1e-6) would take gigabytes.
_DISCRETE_AS_CONTINUOUS_SIGMA = 1_000.0


def _opendp() -> Any:
    import opendp.prelude as dp

    dp.enable_features("contrib")
    return dp


@lru_cache(maxsize=64)
def _measurement(mechanism: str, integer: bool, scale: float) -> Any:
    dp = _opendp()
    T = int if integer else float
    atom = dp.atom_domain(T=T) if integer else dp.atom_domain(T=float, nan=False)
    if mechanism == "laplace":
        return dp.m.make_laplace(dp.vector_domain(atom), dp.l1_distance(T=T), scale=scale)
    gaussian = dp.m.make_gaussian(dp.vector_domain(atom), dp.l2_distance(T=T), scale=scale)
    return dp.c.make_zCDP_to_approxDP(gaussian)


def add_dp_noise(
    values: np.ndarray,
    *,
    sensitivity: float,
    epsilon: float,
    mechanism: str = "laplace",
    delta: float = 0.0,
) -> tuple[np.ndarray, Accuracy]:
    """Noisy copy of a vector whose L1 (Laplace) or L2 (Gaussian) sensitivity is given.

    Integer vectors get discrete noise and stay integers. The noise comes from OpenDP
    (cryptographically secure, cannot be seeded); its privacy map is checked against the
    ε (and δ) asked for, so a calibration mistake raises instead of leaking.
    """
    values = np.asarray(values)
    integer = np.issubdtype(values.dtype, np.integer)
    scale = noise_scale(sensitivity, epsilon, mechanism=mechanism, delta=delta)
    measurement = _measurement(mechanism, bool(integer), scale)
    d_in = int(math.ceil(sensitivity)) if integer else float(sensitivity)
    if integer and d_in != sensitivity:
        raise ParameterError(f"An integer query needs a whole sensitivity, got {sensitivity}.")
    loss = measurement.map(d_in)
    spent = loss if mechanism == "laplace" else loss.epsilon(delta)
    if spent > epsilon * (1 + 1e-6):
        raise ParameterError(  # a bug, not a user mistake: refuse rather than leak
            f"OpenDP reports ε = {spent} for this query, above the ε = {epsilon} asked for."
        )
    if values.size == 0:
        return values.copy(), accuracy(scale, mechanism=mechanism, integer=bool(integer))
    data = [int(v) for v in values] if integer else [float(v) for v in values]
    noisy = np.asarray(measurement(data), dtype=np.int64 if integer else float)
    return noisy, accuracy(scale, mechanism=mechanism, integer=bool(integer))


# --- the release ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """Accuracy of one released measure, with a plain sentence for the reader."""

    query: str
    column: str  # column of the released table ("count", "income_sum", "income_mean")
    epsilon: float
    delta: float
    sensitivity: float | None  # None for means (derived from a count and a sum)
    accuracy: Accuracy | None  # None for means: their bound is per cell (column _error95)
    statement: str


@dataclass(frozen=True)
class DPRelease:
    """A differentially private table and what it cost.

    ``table``: one row per combination of the user's categories, with the noisy measures
    and a ``<measure>_error95`` column (the 95% noise bound of each figure).
    ``outside``: noisy number of records whose key is not in the category lists (a cell
    of the count query, so it costs nothing extra); None when no count was released.
    """

    table: pd.DataFrame
    figures: tuple[Figure, ...]
    outside: int | None
    outside_statement: str
    epsilon: float
    delta: float
    mechanism: str
    budget: dict[str, Any] = field(repr=False)

    def ledger(self) -> dict[str, Any]:
        """A JSON-ready record of what each query spent and how accurate it is."""
        queries = []
        for figure in self.figures:
            entry: dict[str, Any] = {
                "query": figure.query,
                "column": figure.column,
                "epsilon": figure.epsilon,
                "delta": figure.delta,
                "statement": figure.statement,
            }
            if figure.accuracy is not None:
                entry.update(
                    mechanism=figure.accuracy.mechanism,
                    sensitivity=figure.sensitivity,
                    scale=figure.accuracy.scale,
                    expected_error=figure.accuracy.expected_error,
                    error95=figure.accuracy.error95,
                )
            queries.append(entry)
        return {
            "source": SOURCE,
            "epsilon": self.epsilon,
            "delta": self.delta,
            "mechanism": self.mechanism,
            "queries": queries,
            "outside_categories": {"count": self.outside, "statement": self.outside_statement},
            **self.budget,
        }


@dataclass(frozen=True)
class _Grid:
    keys: pd.DataFrame  # one row per cell, in the order of the user's lists
    cell: np.ndarray  # cell index per record; len(keys) for records outside the lists


def _grid(df: pd.DataFrame, by: list[str], categories: Mapping[str, Sequence[Any]]) -> _Grid:
    if not isinstance(categories, Mapping):
        raise ParameterError(
            "Parameter 'categories' must map each grouping column to its list of categories, "
            "e.g. {'sex': ['F', 'M']}."
        )
    cell = np.zeros(len(df), dtype=np.int64)
    outside = np.zeros(len(df), dtype=bool)
    lists: list[list[Any]] = []
    for column in by:
        values = categories.get(column)
        if values is None or isinstance(values, str) or len(list(values)) == 0:
            raise ParameterError(
                f"Grouping column '{column}' needs its list of categories in 'categories' "
                f"(e.g. {{'{column}': [...]}}). List every value that may occur, from "
                "knowledge of the domain (a code list, a census classification), not from the "
                "data: values read off the data would reveal that someone has them."
            )
        values = list(values)
        if len({str(v) for v in values}) != len(values):
            raise ParameterError(f"The categories of '{column}' contain duplicates: {values}.")
        codes = _codes(df[column], values)
        cell = cell * len(values) + np.maximum(codes, 0)
        outside |= codes < 0
        lists.append(values)
    n_cells = math.prod(len(v) for v in lists)
    if n_cells > MAX_CELLS:
        raise ParameterError(
            f"The categories make {fmt_count(n_cells)} cells (more than "
            f"{fmt_count(MAX_CELLS)}); group into fewer categories first (generalise), or "
            "release fewer columns at once."
        )
    cell[outside] = n_cells
    index = pd.MultiIndex.from_product(lists, names=by)
    return _Grid(index.to_frame(index=False), cell)


def _codes(series: pd.Series, values: list[Any]) -> np.ndarray:
    """Position of each record's value in ``values`` (-1 if absent or missing)."""
    numeric_lists = all(isinstance(v, Real) and not isinstance(v, bool) for v in values)
    if numeric_lists and pd.api.types.is_numeric_dtype(series):
        codes = pd.Index(values).get_indexer(series)
    else:  # compare as text, so "1" on the command line matches the number 1
        text = series.astype("str").where(series.notna())
        codes = pd.Index([str(v) for v in values]).get_indexer(text)
    return np.asarray(codes, dtype=np.int64)


#: Largest clipping bound (in size): the noise grows with hi - lo, which must stay finite.
MAX_BOUND = 1e15


def _require_bounds(bounds: Mapping[str, Any] | None, column: str) -> tuple[float, float]:
    pair = (bounds or {}).get(column)
    if pair is None:
        raise ParameterError(
            f"Column '{column}' needs clipping bounds (lo, hi) in 'bounds', e.g. "
            f"{{'{column}': [0, 20000]}}. Choose them from what the values can plausibly be, "
            "never from the data's own minimum and maximum: those would leak the most extreme "
            "person's value. Values outside the bounds are clipped to them."
        )
    try:
        lo, hi = (float(x) for x in pair)
    except (TypeError, ValueError):
        raise ParameterError(
            f"Bounds of '{column}' must be two numbers (lo, hi), got {pair!r}."
        ) from None
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
        raise ParameterError(
            f"Bounds of '{column}' must be finite with lo < hi, got ({lo:g}, {hi:g})."
        )
    if max(abs(lo), abs(hi)) > MAX_BOUND:
        # hi - lo sets the noise: (-1e308, 1e308) overflowed to an infinite scale
        raise ParameterError(
            f"Bounds of '{column}' must be at most {MAX_BOUND:g} in size, got ({lo:g}, {hi:g}); "
            "noise as wide as such bounds would leave no figure worth releasing."
        )
    return lo, hi


def _as_columns(value: str | Iterable[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _cells(grid: _Grid) -> str:
    return ", ".join(map(str, grid.keys.columns))


def dp_release(
    df: pd.DataFrame,
    by: str | Iterable[str],
    *,
    categories: Mapping[str, Sequence[Any]],
    epsilon: float,
    count: bool = True,
    sums: str | Iterable[str] | None = None,
    means: str | Iterable[str] | None = None,
    bounds: Mapping[str, Sequence[float]] | None = None,
    mechanism: str = "laplace",
    delta: float = 0.0,
    budget: PrivacyBudget | None = None,
) -> DPRelease:
    """Differentially private cross-tabulation of ``df`` by ``by`` (source: Differential Privacy).

    ``categories``: for every grouping column, the full list of its categories, from
    domain knowledge. Every combination is released (noise makes absent keys
    indistinguishable from rare ones); records with other values are left out and their
    number is released only as a noisy cell of the count query.
    ``count``: release the number of records per cell (forced on when means are asked:
    a mean is a noisy sum divided by the noisy count). ``sums``/``means``: numeric
    columns, each clipped to its ``bounds[column] = (lo, hi)`` (required; missing values
    count as 0). ``epsilon`` (and ``delta`` for ``mechanism="gaussian"``) is the cost of
    the whole call, split evenly over its queries (the count, and one sum per column of
    ``sums`` and ``means``) and charged to ``budget`` (a new budget of exactly ``epsilon``
    when omitted); a call that does not fit the budget is refused before any noise is drawn.

    Noise comes from OpenDP's secure generator and cannot be seeded: each call is a new
    release. The input is never changed.
    """
    by = require_columns(df, by, parameter="by")
    sums, means = _as_columns(sums), _as_columns(means)
    measured = list(dict.fromkeys([*sums, *means]))
    if measured:
        require_columns(df, measured, parameter="sums/means")
    overlap = sorted(set(by) & set(measured))
    if overlap:
        raise ParameterError(
            f"Column(s) {overlap} are both grouped ('by') and summed; choose one role each."
        )
    mechanism = require_choice("mechanism", mechanism, MECHANISMS)
    epsilon = require_epsilon("epsilon", epsilon)
    delta = _require_delta("delta", delta)
    if mechanism == "gaussian" and delta == 0:
        noise_scale(1.0, epsilon, mechanism=mechanism, delta=delta)  # raises the clear message
    count = bool(count) or bool(means)
    if not count and not measured:
        raise ParameterError("Nothing to release: ask for a count, sums or means.")
    limits = {column: _require_bounds(bounds, column) for column in measured}
    grid = _grid(df, by, categories)
    n_queries = int(count) + len(measured)
    eps_each = require_epsilon(f"epsilon / {n_queries} queries", epsilon / n_queries)
    delta_each = delta / n_queries if mechanism == "gaussian" else 0.0
    budget = PrivacyBudget(epsilon, delta) if budget is None else budget
    queries = f"{n_queries} quer{'y' if n_queries == 1 else 'ies'}"
    budget.require(f"This release ({queries})", epsilon, n_queries * delta_each)

    n_cells = len(grid.keys)
    table = grid.keys.copy()
    figures: list[Figure] = []
    keys = _cells(grid)
    outside: int | None = None
    noisy_count = None
    count_accuracy = None
    if count:
        exact = np.bincount(grid.cell, minlength=n_cells + 1).astype(np.int64)
        query = f"count by {keys}"
        budget.charge(query, eps_each, delta_each)
        noisy, count_accuracy = add_dp_noise(
            exact, sensitivity=1, epsilon=eps_each, mechanism=mechanism, delta=delta_each
        )
        noisy = np.maximum(noisy, 0)  # counts are never negative: clipping only helps
        noisy_count, outside = noisy[:n_cells], int(noisy[n_cells])
        table["count"] = noisy_count
        table["count_error95"] = count_accuracy.error95
        figures.append(
            Figure(
                query,
                "count",
                eps_each,
                delta_each,
                1.0,
                count_accuracy,
                _statement("count", count_accuracy, "of the true count"),
            )
        )
    noisy_sums: dict[str, tuple[np.ndarray, Accuracy]] = {}
    for column in measured:
        lo, hi = limits[column]
        values = require_numeric(df, column, technique="Differentially private sum")
        clipped = values.clip(lo, hi).fillna(0.0).to_numpy(dtype=float)
        exact = np.bincount(grid.cell, weights=clipped, minlength=n_cells + 1)[:n_cells]
        sensitivity = max(abs(lo), abs(hi))
        purpose = "" if column in sums else " (for its mean)"
        query = f"sum of {column} clipped to [{lo:g}, {hi:g}] by {keys}{purpose}"
        budget.charge(query, eps_each, delta_each)
        noisy, acc = add_dp_noise(
            exact,
            sensitivity=sensitivity,
            epsilon=eps_each,
            mechanism=mechanism,
            delta=delta_each,
        )
        if lo >= 0:
            noisy = np.maximum(noisy, 0.0)
        elif hi <= 0:
            noisy = np.minimum(noisy, 0.0)
        noisy_sums[column] = (noisy, acc)
        if column in sums:
            table[f"{column}_sum"] = noisy
            table[f"{column}_sum_error95"] = acc.error95
        figures.append(
            Figure(
                query,
                f"{column}_sum",
                eps_each,
                delta_each,
                sensitivity,
                acc,
                _statement(
                    f"sum of {column}", acc, f"of the sum of {column} clipped to [{lo:g}, {hi:g}]"
                ),
            )
        )
    for column in means:
        lo, hi = limits[column]
        noisy_sum, sum_acc = noisy_sums[column]
        mean, error = _noisy_mean(noisy_sum, noisy_count, sum_acc, count_accuracy, lo, hi)
        table[f"{column}_mean"] = mean
        table[f"{column}_mean_error95"] = error
        figures.append(
            Figure(
                f"mean of {column} by {keys}",
                f"{column}_mean",
                0.0,
                0.0,
                None,
                None,
                f"Each mean of {column} is the noisy sum divided by the noisy count (no extra "
                f"privacy cost); it is within about ± the value in '{column}_mean_error95' of "
                f"the mean of the clipped values 95% of the time; it is left blank where the "
                "noisy count is too small for the noise to allow any useful mean.",
            )
        )
    if outside is None:
        outside_statement = (
            "Records outside the category lists are left out; their number is not released "
            "(it is released, at no extra cost, when counts are)."
        )
    else:
        outside_statement = describe_outside(outside, count_accuracy.error95)
    return DPRelease(
        table=table,
        figures=tuple(figures),
        outside=outside,
        outside_statement=outside_statement,
        epsilon=epsilon,
        delta=n_queries * delta_each,
        mechanism=mechanism,
        budget=budget.to_dict(),
    )


def _noisy_mean(
    noisy_sum: np.ndarray,
    noisy_count: np.ndarray,
    sum_acc: Accuracy,
    count_acc: Accuracy,
    lo: float,
    hi: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Mean = noisy sum / noisy count, clipped to the bounds, and an approximate 95% bound.

    With the sum's error at most s and the count's at most c (each at 97.5%, so both hold
    at least 95% of the time), |S'/N' - S/N| <= (s + |S'/N'|·c) / (N' - c) when N' > c
    (approximately: N' and S' stand in for the unknown truth). Where N' <= c the mean is
    left blank (NaN). Computed from released figures only.
    """
    count = np.maximum(noisy_count.astype(float), 1.0)
    mean = np.clip(noisy_sum / count, lo, hi)
    s = _quantile(sum_acc, 0.975)
    c = _quantile(count_acc, 0.975)
    room = noisy_count.astype(float) - c
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = (s + np.abs(mean) * c) / room
    known = room > 0
    return np.where(known, mean, np.nan), np.where(known, np.minimum(bound, hi - lo), np.nan)


def _quantile(acc: Accuracy, level: float) -> float:
    """Bound on |noise| at ``level`` (for the mean's union bound)."""
    tail = 1 - level
    if acc.mechanism == "Laplace":
        return acc.scale * math.log(1 / tail)
    if acc.mechanism == "discrete Laplace":
        t = math.exp(-1 / acc.scale)
        return float(max(math.ceil(math.log(tail * (1 + t) / 2) / math.log(t) - 1 - 1e-12), 0))
    z = NormalDist().inv_cdf(1 - tail / 2)
    return z * acc.scale + (1.0 if acc.mechanism == "discrete Gaussian" else 0.0)


def describe_outside(outside: int, error95: float) -> str:
    """The released (noisy) number of records outside the category lists, in a sentence.

    A noisy 0 does not prove there are none (the noise may hide a few), so it reads "by the
    noisy count, no record"; 1 and more read "About 1 record has", "About 1,234 records have".
    """
    noise = (
        f"a noisy cell of the count query, within ±{fmt_number(error95)} of the truth 95% of "
        "the time, at no extra privacy cost"
    )
    if outside == 0:
        return (
            f"By the noisy count, no record has a key outside the category lists ({noise}); "
            "any such record is left out."
        )
    who = "1 record has" if outside == 1 else f"{fmt_count(outside)} records have"
    left = "is" if outside == 1 else "are"
    return f"About {who} a key outside the category lists and {left} left out ({noise})."


def _statement(what: str, acc: Accuracy, truth: str) -> str:
    return (
        f"Each {what} is within ±{fmt_number(acc.error95)} {truth} 95% of the time (average error "
        f"about {fmt_number(acc.expected_error)}); {acc.mechanism} noise of scale {fmt_number(acc.scale)}."
    )


def dp_aggregate(
    df: pd.DataFrame,
    by: str | Iterable[str],
    *,
    categories: Mapping[str, Sequence[Any]],
    epsilon: float,
    count: bool = True,
    sums: str | Iterable[str] | None = None,
    means: str | Iterable[str] | None = None,
    bounds: Mapping[str, Sequence[float]] | None = None,
    mechanism: str = "laplace",
    delta: float = 0.0,
    seed: int | None = None,
) -> pd.DataFrame:
    """The table of :func:`dp_release` (recipe step ``dp_aggregate``).

    ``seed`` is accepted for the common technique signature and ignored: OpenDP's noise
    comes from a secure generator that cannot be seeded, so replaying a recipe with this
    step draws new noise and is a new release that spends ε again.
    """
    del seed
    return dp_release(
        df,
        by,
        categories=categories,
        epsilon=epsilon,
        count=count,
        sums=sums,
        means=means,
        bounds=bounds,
        mechanism=mechanism,
        delta=delta,
    ).table


# --- for the dashboard: accuracy against ε and error bands -----------------------------------


def measures_of(
    count: bool,
    sums: Iterable[str] = (),
    means: Iterable[str] = (),
    bounds: Mapping[str, Sequence[float]] | None = None,
) -> dict[str, tuple[float, bool]]:
    """The noisy queries of a release: name -> (sensitivity, integer), as :func:`dp_release`."""
    sums, means = list(sums), list(means)
    result: dict[str, tuple[float, bool]] = {}
    if count or means:
        result["count"] = (1.0, True)
    for column in dict.fromkeys([*sums, *means]):
        lo, hi = _require_bounds(bounds, column)
        result[f"{column}_sum"] = (max(abs(lo), abs(hi)), False)
    return result


def accuracy_curve(
    epsilons: Iterable[float],
    measures: Mapping[str, tuple[float, bool]],
    *,
    mechanism: str = "laplace",
    delta: float = 0.0,
) -> pd.DataFrame:
    """95% error bound of each query for each total ε (split evenly, as a release does).

    Computed analytically from the noise scale, without touching the data: the
    accuracy/privacy trade-off of the source's b = Δf/ε. Columns: epsilon, measure,
    error95, expected_error.
    """
    rows = []
    n = max(len(measures), 1)
    for epsilon in epsilons:
        for name, (sensitivity, integer) in measures.items():
            scale = noise_scale(sensitivity, epsilon / n, mechanism=mechanism, delta=delta / n)
            acc = accuracy(scale, mechanism=mechanism, integer=integer)
            rows.append((float(epsilon), name, acc.error95, acc.expected_error))
    return pd.DataFrame(rows, columns=["epsilon", "measure", "error95", "expected_error"])


def band_frame(
    release: pd.DataFrame, exact: pd.DataFrame, by: Sequence[str], measure: str
) -> pd.DataFrame:
    """Long table for an error-band chart: cell, noisy value, its 95% band, exact value.

    ``exact`` is NOT FOR RELEASE: the chart that uses it is for the data holder only.
    """
    cell = release[list(by)].astype(str).agg(" · ".join, axis=1)
    noisy = release[measure].astype(float)
    error = release[f"{measure}_error95"].astype(float)
    return pd.DataFrame(
        {
            "cell": cell.to_numpy(),
            "noisy": noisy.to_numpy(),
            "low": (noisy - error).to_numpy(),
            "high": (noisy + error).to_numpy(),
            "exact": exact[measure].astype(float).to_numpy(),
        }
    )


# --- command line helpers (python -m core dp-aggregate) -------------------------------------


def parse_categories(items: Iterable[str]) -> dict[str, list[str]]:
    """``["sex=F|M,race=Chinese|Malay"]`` -> ``{"sex": ["F", "M"], "race": [...]}``.

    Columns are separated by commas (or given in separate ``--categories`` options),
    categories by ``|``. Categories are compared with the data as text.
    """
    result: dict[str, list[str]] = {}
    for item in items:
        for part in item.split(","):
            if not part.strip():
                continue
            column, sep, values = part.partition("=")
            listed = [v.strip() for v in values.split("|") if v.strip()]
            if not sep or not column.strip() or not listed:
                raise ParameterError(
                    f"Cannot read categories {part!r}: write column=value|value|..., e.g. "
                    "--categories 'sex=F|M,race=Chinese|Malay|Indian|Others'."
                )
            result[column.strip()] = listed
    return result


def parse_bounds(items: Iterable[str], columns: Iterable[str]) -> dict[str, tuple[float, float]]:
    """``["0,20000"]`` (every measured column) or ``["income=0,20000"]`` -> bounds."""
    columns = list(columns)
    result: dict[str, tuple[float, float]] = {}
    for item in items:
        column, sep, pair = item.rpartition("=")
        try:
            lo, hi = (float(x) for x in pair.split(","))
        except ValueError:
            raise ParameterError(
                f"Cannot read bounds {item!r}: write lo,hi (e.g. --bounds=0,20000) or "
                "column=lo,hi; use '--bounds=-10,10' (with '=') for a negative lower bound."
            ) from None
        for target in [column] if sep else columns:
            result[target] = (lo, hi)
    return result


#: Largest ledger file read (an entry per release is about a kilobyte).
MAX_LEDGER_BYTES = 64 * 2**20


def _read_ledger(path: Path) -> Any:
    """The ledger file's JSON: a regular file (a FIFO would be waited on for ever) of
    at most :data:`MAX_LEDGER_BYTES`, one line of error otherwise."""
    try:
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise ParameterError(f"The privacy ledger '{path}' is not a regular file.")
            raw = file.read(MAX_LEDGER_BYTES + 1)
        if len(raw) > MAX_LEDGER_BYTES:
            raise ParameterError(
                f"The privacy ledger '{path}' is larger than "
                f"{MAX_LEDGER_BYTES // 2**20} MiB: not a ledger."
            )
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError) as error:  # RecursionError: "[[[[..." nested
        reason = "nested too deep" if isinstance(error, RecursionError) else error
        raise ParameterError(f"Cannot read the privacy ledger '{path}': {reason}.") from None
    return data


def open_ledger(path: str | Path, *, epsilon: float | None, delta: float = 0.0) -> PrivacyBudget:
    """The budget recorded in the ledger file at ``path``, or a new one of ``epsilon``/``delta``.

    A release made of several commands shares one ledger, so its total ε is enforced across
    them. A budget given for an existing ledger must match the recorded one.
    """
    path = Path(path)
    if not path.exists():
        if epsilon is None:
            raise ParameterError("A new ledger needs a budget: give --budget (total ε).")
        return PrivacyBudget(epsilon, delta)
    budget = PrivacyBudget.from_dict(_read_ledger(path))
    if epsilon is not None and not math.isclose(epsilon, budget.epsilon):
        raise ParameterError(
            f"The ledger '{path}' records a budget of ε = {budget.epsilon:g}; a release's "
            f"budget cannot change to {epsilon:g}. Omit --budget, or start a new ledger file."
        )
    return budget


def write_ledger(
    path: str | Path, release: DPRelease, budget: PrivacyBudget, **about: Any
) -> dict[str, Any]:
    """Add ``release`` (with ``about``, e.g. input and output files) to the ledger file.

    The file is replaced atomically and durably (temporary file, fsync, rename, fsync of
    the folder: :func:`core.outputs.write_outputs`), so a crash leaves the old ledger or
    the new one, never half of one. Call it *before* writing the noisy table: a release
    must never exist without the record of the ε it spent.
    """
    path = Path(path)
    releases: list[Any] = []
    if path.exists():
        releases = _read_ledger(path).get("releases", [])
    entry = {k: v for k, v in release.ledger().items() if k not in ("budget", "spent", "charges")}
    entry.update(about)
    data = {**budget.to_dict(), "source": SOURCE, "releases": [*releases, entry]}
    text = json.dumps(data, indent=2, ensure_ascii=False)
    write_outputs([(Output("privacy ledger", path, update=True), text.encode("utf-8"))])
    return data


# --- for comparison (not for release) -----------------------------------------------------


def exact_cross_tab(
    df: pd.DataFrame,
    by: str | Iterable[str],
    *,
    categories: Mapping[str, Sequence[Any]],
    sums: str | Iterable[str] | None = None,
    means: str | Iterable[str] | None = None,
) -> pd.DataFrame:
    """The true counts, sums and means on the same cells, without clipping or noise.

    NOT FOR RELEASE: this is the data holder's reference to judge the noisy table.
    """
    by = require_columns(df, by, parameter="by")
    sums, means = _as_columns(sums), _as_columns(means)
    grid = _grid(df, by, categories)
    n_cells = len(grid.keys)
    table = grid.keys.copy()
    counts = np.bincount(grid.cell, minlength=n_cells + 1)[:n_cells]
    table["count"] = counts
    for column in dict.fromkeys([*sums, *means]):
        values = require_numeric(df, column, technique="Sum").fillna(0.0).to_numpy()
        total = np.bincount(grid.cell, weights=values, minlength=n_cells + 1)[:n_cells]
        if column in sums:
            table[f"{column}_sum"] = total
        if column in means:
            with np.errstate(divide="ignore", invalid="ignore"):
                table[f"{column}_mean"] = np.where(counts > 0, total / counts, np.nan)
    return table


def suppressed_cross_tab(
    df: pd.DataFrame,
    by: str | Iterable[str],
    *,
    categories: Mapping[str, Sequence[Any]],
    sums: str | Iterable[str] | None = None,
    means: str | Iterable[str] | None = None,
    min_cell: int = 5,
) -> tuple[pd.DataFrame, str | None]:
    """The guide's release for comparison: aggregation with small cells suppressed.

    PDPC guide, Annex A: Data aggregation. Runs :func:`core.techniques.aggregate` on the
    records inside the category lists, puts its groups on the same cells as the DP table,
    and blanks every cell of fewer than ``min_cell`` records (empty cells included), as
    the guide advises ("watch out for groups having too few records"). Column
    ``suppressed`` marks them. Returns the table and the guide's small-cell warning text.
    """
    from core.techniques.aggregation import aggregate  # lazy: core.techniques imports core.dp

    by = require_columns(df, by, parameter="by")
    min_cell = require_int("min_cell", min_cell, minimum=0)
    sums, means = _as_columns(sums), _as_columns(means)
    grid = _grid(df, by, categories)
    n_cells = len(grid.keys)
    inside = grid.cell < n_cells
    work = grid.keys.iloc[grid.cell[inside]].reset_index(drop=True)  # user's labels
    values = list(dict.fromkeys([*sums, *means]))
    for column in values:
        work[column] = df[column].to_numpy()[inside]
    stats = ["count", *(["sum"] if sums else []), *(["mean"] if means else [])]
    groups = aggregate(work, by, values=values, stats=stats, min_cell=0)
    keep = ["count", *(f"{c}_sum" for c in sums), *(f"{c}_mean" for c in means)]
    groups = grid.keys.merge(groups[[*by, *keep]], on=by, how="left")
    groups["count"] = groups["count"].fillna(0)
    table = groups.astype({c: float for c in keep})
    counts = table["count"].to_numpy()
    small = counts < min_cell
    few = int((small & (counts > 0)).sum())
    table.loc[small, keep] = np.nan
    table["suppressed"] = small
    # The groups are counted, never named: their values are what could identify someone.
    message = (
        f"{few} group(s) have fewer than {min_cell} records and could identify someone; "
        "their cells are blanked (marked in 'suppressed'). Merge them (wider bands) or "
        "suppress them before release (PDPC guide, Annex A: Data aggregation)."
        if few
        else None
    )
    return table, message


__all__ = [
    "MECHANISMS",
    "Accuracy",
    "BudgetExceededError",
    "Charge",
    "DPRelease",
    "Figure",
    "PrivacyBudget",
    "accuracy",
    "accuracy_curve",
    "add_dp_noise",
    "describe_outside",
    "band_frame",
    "dp_aggregate",
    "dp_release",
    "exact_cross_tab",
    "measures_of",
    "noise_scale",
    "open_ledger",
    "parse_bounds",
    "parse_categories",
    "suppressed_cross_tab",
    "write_ledger",
]
