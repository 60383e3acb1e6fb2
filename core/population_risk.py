"""Population-based re-identification risk: population uniqueness, k-map, average risk.

A released table is usually a *sample* of a larger population (PDPC guide, Annex D:
re-identification needs the attacker to single a person out of the population the data
comes from, not only out of the table). These measures estimate, from the table's own
frequency table of equivalence-class sizes and a population size N (the sampling fraction
is f = n / N for n records), how many combinations of quasi-identifier values are unique
in the *population*, or how large a class is in the population. Every function reads only
the class-size histogram (``sizes`` -> how many classes of each size), so a 1M-row table
costs one ``np.unique`` over its class sizes; nothing loops over rows.

The definitions follow ARX 3.9 (``org.deidentifier.arx.risk`` and
``org.deidentifier.arx.criteria``), so figures can be compared with ARX's; where ARX's code
differs from the paper it cites, both are named below and ARX's is what is computed.

- **Pitman** (Hoshino 2001, "Applying Pitman's sampling formula to microdata disclosure
  risk assessment", J. Official Statistics 17(4)); ARX ``ModelPitman``: the maximum
  likelihood estimates of Pitman's (theta, alpha) from the sample's class sizes, solved by
  Newton-Raphson from ARX's initial guess, first on the closed forms (digamma), then, if
  that fails or its root does not solve the plain-sum equations, on the plain sums
  (ARX's fallback; needed when alpha < 0); population uniques =
  Gamma(theta + 1) / Gamma(theta + alpha) * N^alpha (accepted only within [0, N]). ARX's
  own digamma and trigamma are approximations (digamma of a negative argument uses a
  Taylor series at 0; trigamma drops its asymptotic tail between 8 and 12); they only steer
  its Newton steps, so we use exact ones and reach the same roots.
- **Zayatz** (Zayatz 1991, "Estimation of the percent of unique population elements on a
  microdata file using the sample", US Census Bureau SRD report 91/08); ARX ``ModelZayatz``:
  the share of sample uniques that are population uniques, with the sample's class sizes
  standing for the population's: P = (c1 / u) h(1; N, 1, n) / sum_i (c_i / u) h(1; N, i, n),
  h the hypergeometric probability of drawing exactly one member of a class of size i;
  population uniques = c1 P / f. As in ARX, N is capped at 2^31 - 1 in h (ARX's own code
  says so: "This is an error: overflow").
- **SNB**, slide negative binomial (Chen & Keller-McNulty 1998, "Estimation of
  identification disclosure risk in microdata", J. Official Statistics 14(1)); ARX
  ``ModelSNB``: the number of non-empty population cells K from Haas & Stokes / Shlosser's
  estimator, then (alpha, beta) solving the SNB equations for c1 and c2 by Newton-Raphson
  from (1, 1); population uniques = K beta^alpha. ARX's Shlosser term subtracts 1 from every
  summand of its denominator (``var2 += ... - 1``), not once: we compute ARX's form.
- **Dankar** (Dankar, El Emam, Neisa & Roffey 2012, "Estimating the re-identification risk
  of clinical data sets", BMC Med. Inform. Decis. Mak. 12:66): the decision rule picks
  Pitman when f <= 0.1 (Zayatz if Pitman does not converge, for the risk report; ARX's
  *criterion* does not fall back), else the smaller of Zayatz and SNB (Zayatz if SNB does
  not converge).
- **k-map** (Sweeney; estimators from El Emam & Dankar 2008, "Protecting privacy using
  k-anonymity", JAMIA 15(5), and Pannekoek 1999): every class of the sample stands for at
  least k people in the population. Without a population table, ARX estimates it as
  k'-anonymity of the sample: k' is the smallest class size such that a Poisson (``D3``)
  or zero-truncated Poisson (``D4``) cell of mean f k reaches 1 - significance, capped at k
  and at n (``KMap.calculateKPoisson`` / ``calculateKZeroPoisson``). With a population
  table that contains the sample, a class passes when the population holds at least k
  records with its values (ARX ``KMap(k, DataSubset)``).
- **Average re-identification risk** (ARX ``AverageReidentificationRisk``; El Emam's
  average risk): classes / records of the released table, i.e. 1 / average class size.

How ARX uses population uniqueness and average risk as search targets (``RiskBasedCriterion``,
a *sample-based* criterion): after the classes failing per-class models are suppressed, the
remaining classes, smallest first, are suppressed by a binary search over how many to remove
until the criterion holds; the node passes when the records suppressed stay within the
limit. The class made of ``*`` only counts as suppressed for the risk model (it is excluded
from the histogram) but not against the limit. See :func:`sample_based_suppression`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.codes import combine_codes, combined_codes
from core.validation import (
    require_choice,
    require_columns,
    require_int,
    require_positive,
    require_probability,
    shown_value,
)

POPULATION_MODELS = ("dankar", "pitman", "zayatz", "snb")
KMAP_ESTIMATORS = ("poisson", "zero_truncated_poisson")
_INT_MAX = 2**31 - 1
#: How messages name a population table (k-map with the population known), so a missing
#: column is not read as missing from the data.
POPULATION_TABLE = "the population table (k-map)"
_ACCURACY = 1e-6  # ARXSolverConfiguration's default accuracy on the object function
_ITERATIONS_PER_TRY = 200  # ARX: 1000 per try but at most 100 ms a try and 1 s in all
# ARX's deterministic start values after the first try fails (ARXSolverConfiguration).
_STEPS = [0.0, 0.33, 0.33 + 0.33, 0.33 + 0.33 + 0.33]  # ARX adds 0.33 while below 1
_RESTARTS = [(a, b) for a in _STEPS for b in _STEPS]


# --- the class-size histogram ---------------------------------------------------------


@dataclass(frozen=True)
class SizeHistogram:
    """How many equivalence classes there are of each size: ``counts[i]`` classes of
    ``sizes[i]`` records (sizes ascending). ARX's ``RiskModelHistogram``."""

    sizes: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(cls, class_sizes: np.ndarray) -> SizeHistogram:
        class_sizes = np.asarray(class_sizes, dtype=np.int64)
        sizes, counts = np.unique(class_sizes[class_sizes > 0], return_counts=True)
        return cls(sizes.astype(np.int64), counts.astype(np.int64))

    @property
    def n_records(self) -> int:
        return int((self.sizes * self.counts).sum())

    @property
    def n_classes(self) -> int:
        return int(self.counts.sum())

    def classes_of_size(self, size: int) -> int:
        hit = self.sizes == size
        return int(self.counts[hit].sum())


def _check_population(population: float, n_records: int) -> float:
    if not isinstance(population, (int, float)) or isinstance(population, bool):
        raise ParameterError(f"Parameter 'population' must be a number, got {population!r}.")
    if not math.isfinite(population) or population < n_records or population <= 0:
        raise ParameterError(
            f"Parameter 'population' must be at least the number of records ({n_records:,}), "
            f"got {population:g}: give the size of the population the table was drawn from."
        )
    return float(population)


# --- special functions (vectorised; no scipy) -----------------------------------------


_SHIFT = 12.0  # recurrence up to x >= 12, then the asymptotic series (error < 1e-15)


def _shift(x: np.ndarray | float, power: int) -> tuple[np.ndarray | float, np.ndarray | float]:
    """x moved up to >= 12 by the recurrence, and the sum of 1 / (x + j)^power it costs."""
    if np.ndim(x) == 0:
        x, total = float(x), 0.0
        if not x > 0:  # outside the domain these functions are used on: nan, not a loop
            return math.nan, math.nan
        while x < _SHIFT:
            total += 1 / x**power
            x += 1
        return x, total
    x = np.where(np.asarray(x, dtype=float) > 0, x, np.nan)
    steps = np.nan_to_num(np.maximum(np.ceil(_SHIFT - x), 0))
    total = np.zeros_like(x)
    for j in range(int(steps.max()) if steps.size else 0):
        total += np.where(j < steps, 1 / (x + j) ** power, 0.0)
    return x + steps, total


def _digamma_series(x: np.ndarray) -> np.ndarray:
    """psi(x) by the asymptotic series alone (x >= 11: error below 1e-14)."""
    r = 1 / (x * x)
    series = r * (1 / 12 - r * (1 / 120 - r * (1 / 252 - r * (1 / 240 - r / 132))))
    return np.log(x) - 0.5 / x - series


def _trigamma_series(x: np.ndarray) -> np.ndarray:
    """psi'(x) by the asymptotic series alone (x >= 11)."""
    r = 1 / (x * x)
    tail = (1 + r * (1 / 6 - r * (1 / 30 - r * (1 / 42 - r * (1 / 30 - r * 5 / 66))))) / x
    return 0.5 * r + tail


def digamma(x: np.ndarray | float) -> np.ndarray | float:
    """psi(x) for x > 0 (nan elsewhere): recurrence up to x >= 12, then the asymptotic
    series."""
    x, total = _shift(x, 1)
    return _digamma_series(x) - total


def trigamma(x: np.ndarray | float) -> np.ndarray | float:
    """psi'(x) for x > 0 (nan elsewhere): recurrence up to x >= 12, then the asymptotic
    series."""
    x, total = _shift(x, 2)
    return _trigamma_series(x) + total


@dataclass(frozen=True)
class SolverSettings:
    """The Newton-Raphson solver of Pitman's and the SNB model (ARX's
    ``ARXSolverConfiguration``, deterministic start values). ``iterations_per_try``: steps
    from one start value before the next is tried (ARX: ``iterationsPerTry``, default 1000,
    but ARX also stops a try after 100 ms and the solve after 1 s, a limit that depends on
    the machine: 200 steps stand for it here); ``accuracy``: the largest |F| accepted as a
    root (ARX's default 1e-6). ARX's own test cases set 15 iterations per try
    (``TestAnonymizationRiskBased``)."""

    iterations_per_try: int = _ITERATIONS_PER_TRY
    accuracy: float = _ACCURACY

    def __post_init__(self) -> None:
        require_int("iterations_per_try", self.iterations_per_try, minimum=1)
        require_positive("accuracy", self.accuracy)


DEFAULT_SOLVER = SolverSettings()


def _newton(
    function: Callable[[float, float], tuple[np.ndarray, np.ndarray]],
    start: tuple[float, float],
    valid: Callable[[float, float], bool] = lambda x, y: True,
    solver: SolverSettings = DEFAULT_SOLVER,
) -> tuple[float, float]:
    """ARX's NewtonRaphson2D (de.linearbits.newtonraphson 0.0.1, ``_solve``, read from its
    bytecode), step by step: from ``start``, then ARX's 16 deterministic start values,
    x <- x - J^-1 F until |F| <= accuracy in both components. A try ends when a step leaves
    the constraint (``valid``), gives NaN, or ``iterations_per_try`` steps are done; the
    solve ends (nan, nan) when no try converges, when 17 x ``iterations_per_try``
    evaluations are spent (checked as a try starts), and right after the first step from
    the last start value (ARX checks "all start values used" after every step). We also
    end a try whose point runs past 1e12 or whose Jacobian is singular (ARX's steps would
    turn to NaN or wander until the limit)."""
    per_try, accuracy = solver.iterations_per_try, solver.accuracy
    starts = (start, *_RESTARTS)
    total, evaluations = len(_RESTARTS) * per_try + per_try, 0  # ARX's configure()
    for index, x0 in enumerate(starts):
        if evaluations > total:
            break
        x, steps = np.array(x0, dtype=float), 0
        while True:
            evaluations += 1
            with np.errstate(all="ignore"):
                f, jac = function(x[0], x[1])
                if abs(f[0]) <= accuracy and abs(f[1]) <= accuracy:
                    return float(x[0]), float(x[1])
                det = jac[0, 0] * jac[1, 1] - jac[0, 1] * jac[1, 0]
                if not (np.isfinite(det) and det != 0 and np.isfinite(f).all()):
                    break
                step = (
                    np.array(
                        [jac[1, 1] * f[0] - jac[0, 1] * f[1], jac[0, 0] * f[1] - jac[1, 0] * f[0]]
                    )
                    / det
                )
                x = x - step
            if index == len(starts) - 1:
                return math.nan, math.nan  # ARX: every start value used
            if np.isnan(x).any() or not valid(x[0], x[1]) or steps >= per_try:
                break
            if abs(x[0]) > 1e12 or abs(x[1]) > 1e12:
                break  # diverging: this start will not converge
            steps += 1
    return math.nan, math.nan


# --- the three models -----------------------------------------------------------------


def pitman_uniques(
    hist: SizeHistogram, population: float, solver: SolverSettings = DEFAULT_SOLVER
) -> float:
    """Population uniques under Pitman's sampling formula (ARX ``ModelPitman``); nan when
    the solver does not converge or the estimate falls outside [0, N]."""
    c1 = hist.classes_of_size(1)
    c2 = hist.classes_of_size(2) or 1  # ARX: "Overestimate"
    u, n = float(hist.n_classes), float(hist.n_records)
    c = c1 * (c1 - 1) / c2
    theta0 = (n * u * c - c1 * (n - 1) * (2 * u + c)) / (2 * c1 * u + c1 * c - n * c)
    alpha0 = (theta0 * (c1 - n) + (n - 1) * c1) / (n * u)
    keep = hist.sizes != 1
    sizes, counts = hist.sizes[keep].astype(np.int64), hist.counts[keep].astype(float)
    # sum_i c_i (psi(k_i - a) - psi(1 - a)) = sum_i c_i sum_{j=1}^{k_i - 1} 1 / (j - a): a
    # cumulative table for the small sizes, the asymptotic series for the large ones.
    small = sizes < 13
    small_sizes, small_counts = sizes[small], counts[small]
    large_sizes, large_counts = sizes[~small].astype(float), counts[~small]
    j = np.arange(1, 12, dtype=float)

    def class_sums(a: float) -> tuple[float, float]:
        inv = 1 / (j - a)
        first = np.concatenate([[0.0], np.cumsum(inv)])
        second = np.concatenate([[0.0], np.cumsum(inv * inv)])
        o4 = float(small_counts @ first[small_sizes - 1])
        d4 = float(small_counts @ second[small_sizes - 1])
        if large_sizes.size:
            o4 += float(large_counts @ (_digamma_series(large_sizes - a) - digamma(1 - a)))
            d4 += float(large_counts @ (trigamma(1 - a) - _trigamma_series(large_sizes - a)))
        return o4, d4

    def equations(t: float, a: float):
        # d log L / d theta and d log L / d alpha, and their derivatives (ARX's closed forms)
        v0 = u - 1
        psi_u, psi_1 = digamma(v0 + t / a + 1), digamma(t / a + 1)
        tri_u, tri_1 = trigamma(v0 + t / a + 1), trigamma(t / a + 1)
        o1 = (psi_u - psi_1) / a
        o2 = digamma(n + t) - digamma(t + 1)
        o3 = (-t * psi_u + a * v0 + t * psi_1) / (a * a)
        o4, d4 = class_sums(a)
        d1 = (tri_1 - tri_u) / (a * a)
        d2 = trigamma(t + 1) - trigamma(n + t)
        d5 = (a * psi_u + t * tri_u - a * psi_1 - t * tri_1) / a**3
        d3 = (
            a * a * v0 - t * t * tri_u + t * t * tri_1 - 2 * a * t * psi_u + 2 * a * t * psi_1
        ) / a**4
        f = np.array([o1 - o2, o3 - o4], dtype=float)
        jac = np.array([[d2 - d1, -d5], [-d5, -d3 - d4]], dtype=float)
        return f, jac

    i_classes = np.arange(1, int(u), dtype=float)  # i = 1 .. u - 1

    def iterative(t: float, a: float):
        # The same equations as plain sums (ARX getMasterFunctionIterative): valid for a
        # negative alpha too, where the closed forms need digamma of negative arguments.
        inv = 1 / (t + i_classes * a)
        inv2 = inv * inv
        o1, o3 = inv.sum(), (i_classes * inv).sum()
        d1, d5, d3 = inv2.sum(), (i_classes * inv2).sum(), (i_classes * i_classes * inv2).sum()
        o2 = digamma(n + t) - digamma(t + 1)  # sum_{i=1}^{n-1} 1 / (t + i)
        d2 = trigamma(t + 1) - trigamma(n + t)
        o4, d4 = class_sums(a)
        f = np.array([o1 - o2, o3 - o4], dtype=float)
        jac = np.array([[d2 - d1, -d5], [-d5, -d3 - d4]], dtype=float)
        return f, jac

    def valid(t: float, a: float) -> bool:
        return t >= 0 and a < 1

    start = (theta0, alpha0)
    t, a = _newton(equations, start, valid=valid, solver=solver)
    if math.isnan(t) or math.isnan(a):
        t, a = _newton(iterative, start, valid=valid, solver=solver)  # ARX: no closed-form root
    else:
        with np.errstate(all="ignore"):
            check = iterative(t, a)[0]
        if not (np.isfinite(check).all() and (np.abs(check) <= solver.accuracy).all()):
            t, a = _newton(iterative, start, valid=valid, solver=solver)  # ARX: test failed
    if math.isnan(t) or math.isnan(a) or a == 0:
        return math.nan
    try:
        value = math.exp(math.lgamma(t + 1) - math.lgamma(t + a) + a * math.log(population))
    except (ValueError, OverflowError):
        return math.nan
    return value if 0 <= value <= population else math.nan


def _hypergeometric_one(sizes: np.ndarray, population: float, n: int) -> np.ndarray:
    """P(exactly one of a class of each size in a sample of n from N), exactly:
    (K n / N) prod_{j=0}^{K-2} (N - n - j) / (N - 1 - j), summed in logs (no lgamma
    cancellation at N = 10^8)."""
    big_n = float(min(int(population), _INT_MAX))  # ARX casts N to int, capped
    largest = int(sizes.max())
    j = np.arange(max(largest - 1, 0), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.log1p(-(n - 1) / (big_n - 1 - j))
    log_prod = np.concatenate([[0.0], np.cumsum(terms)])  # log_prod[m] = sum of m terms
    log_p = np.log(sizes * n / big_n) + log_prod[sizes - 1]
    return np.where(sizes > big_n - n + 1, 0.0, np.exp(log_p))


def zayatz_uniques(hist: SizeHistogram, population: float) -> float:
    """Population uniques under Zayatz's model (ARX ``ModelZayatz``)."""
    c1 = hist.classes_of_size(1)
    n = hist.n_records
    u = hist.n_classes
    h = _hypergeometric_one(hist.sizes, population, n)
    denominator = ((hist.counts / u) * h).sum()
    numerator = c1 / u * _hypergeometric_one(np.array([1]), population, n)[0]
    return c1 * (numerator / denominator) / (n / population)


def snb_uniques(
    hist: SizeHistogram, population: float, solver: SolverSettings = DEFAULT_SOLVER
) -> float:
    """Population uniques under the slide negative binomial model (ARX ``ModelSNB``)."""
    c1 = float(hist.classes_of_size(1))
    c2 = float(hist.classes_of_size(2))
    f = hist.n_records / population
    i, ci = hist.sizes.astype(float), hist.counts.astype(float)
    with np.errstate(over="ignore", invalid="ignore"):  # large classes: inf, then no root
        var1 = (i * f * f * (1 - f * f) ** (i - 1) * ci).sum()
        var2 = ((1 - f) ** i * ci * (1 + f) ** i - 1).sum()  # ARX: "- 1" in every summand
        var3 = ((1 - f) ** i * ci).sum()
        var4 = (i * f * (1 - f) ** (i - 1) * ci).sum()
    k = hist.n_classes + c1 * (var1 / var2) * (var3 / var4) ** 2

    def equations(a: float, b: float):
        d = (1 - f) * (1 - b)
        fx = k * f * (b / (1 - d)) ** a * (a * d / (1 - d) + 1) - c1
        fy = k * a * b**a * f * f * (1 - b) / 2 * (1 - d) ** (a + 2) * (2 - (1 - a) * d) - c2
        # ARX's derivatives (obtained with Matlab, copied from ModelSNB.getDerivatives)
        v0 = (b - 1) * (f - 1)
        v1, v2 = v0 - 1, 1 - v0
        v3 = a * v0 / v1 - 1
        v4 = (-b / v1) ** a
        v6, v7 = f * f, b**a
        v9 = a * v7 * v6 * k
        v10 = 2 * v2 ** (a + 2)
        v11, v13, v14, v15, v16 = v1 * v1, f * k, f - 1, a - 1, b - 1
        v17 = v15 * v0
        v18 = v6 * k
        v19 = v17 + 2
        v20 = v18 * v19
        x1 = -v13 * np.log(-b / v1) * v3 * v4 - v13 * v4 * v0 / v1
        x2 = a * v13 * (1 / v1 - b * v14 / v11) * v3 * (-b / v1) ** v15 - v13 * v4 * (
            a * v14 / v1 - a * v16 * v14**2 / v11
        )
        y1 = (
            v9 * np.log(v2) * v19 * v16 / v10
            - v9 * v16**2 * v14 / v10
            - v7 * v20 * v16 / v10
            - a * v7 * v18 * np.log(b) * v19 * v16 / v10
        )
        y2 = (
            -(v9 * v19) / v10
            - a * a * b**v15 * v20 * v16 / v10
            - a * v7 * v18 * v17 / v10
            - a * v7 * v20 * (a + 2) * v0 / (2 * v2 ** (a + 3))
        )
        return np.array([fx, fy]), np.array([[x1, x2], [y1, y2]])

    a, b = _newton(equations, (1.0, 1.0), solver=solver)
    return k * b**a


# --- population uniqueness ------------------------------------------------------------


@dataclass(frozen=True)
class PopulationUniqueness:
    """Estimated share of the population that is unique on the quasi-identifiers.

    ``share`` is the estimate of the chosen ``model`` (population uniques / N); for
    ``dankar``, ``chosen`` names the model the decision rule picked. ``estimates`` holds
    the share of every model that was computed (Dankar's rule computes only the ones it
    needs; nan when a solver did not converge)."""

    model: str
    share: float
    chosen: str
    population: float
    sampling_fraction: float
    sample_uniques: int
    estimates: dict[str, float]

    @property
    def uniques(self) -> float:
        return self.share * self.population


class _LazyEstimates(dict):
    """Each model's estimate, computed on first use (Dankar's rule needs one or two)."""

    def __init__(self, compute: Callable[[str], float]):
        super().__init__()
        self._compute = compute

    def __missing__(self, model: str) -> float:
        self[model] = value = self._compute(model)
        return value


def _dankar(estimates: dict[str, float], f: float, zayatz_fallback: bool) -> tuple[float, str]:
    def ok(v: float) -> bool:
        return not math.isnan(v) and v != 0

    if f <= 0.1:
        if ok(estimates["pitman"]):
            return estimates["pitman"], "pitman"
        return (estimates["zayatz"], "zayatz") if zayatz_fallback else (math.nan, "none")
    if ok(estimates["snb"]) and not estimates["zayatz"] < estimates["snb"]:
        return estimates["snb"], "snb"
    return estimates["zayatz"], "zayatz"


def population_uniqueness(
    class_sizes: np.ndarray,
    population: float,
    *,
    model: str = "dankar",
    zayatz_fallback: bool = True,
    every_model: bool = False,
    solver: SolverSettings = DEFAULT_SOLVER,
) -> PopulationUniqueness:
    """The estimated share of population uniques from the sample's class sizes
    (ARX ``RiskModelPopulationUniqueness.getFractionOfUniqueTuples``). ``population`` is N,
    the size of the population the records were drawn from (at least the record count).
    ``zayatz_fallback``: Dankar's rule falls back to Zayatz when Pitman does not converge
    (ARX's risk report does; its search criterion does not, see :func:`meets_population_uniqueness`).
    A table without sample uniques has no population uniques (every estimate 0).
    ``every_model``: compute all three models' estimates (for a report), not only the ones
    the chosen model needs. ``solver``: the Newton-Raphson settings of Pitman and SNB."""
    require_choice("model", model, POPULATION_MODELS)
    hist = SizeHistogram.of(class_sizes)
    n = hist.n_records
    population = _check_population(population, n)
    f = n / population if population else 0.0
    c1 = hist.classes_of_size(1)
    if c1 == 0:
        zero = dict.fromkeys(POPULATION_MODELS[1:], 0.0)
        return PopulationUniqueness(
            model,
            0.0,
            "dankar" if model == "dankar" else model,
            population,
            f,
            0,
            {**zero, "dankar": 0.0},
        )
    compute = {
        "pitman": lambda h, p: pitman_uniques(h, p, solver),
        "zayatz": zayatz_uniques,
        "snb": lambda h, p: snb_uniques(h, p, solver),
    }
    estimates = _LazyEstimates(lambda m: compute[m](hist, population) / population)
    if model == "dankar":
        share, chosen = _dankar(estimates, f, zayatz_fallback)
        estimates["dankar"] = share
    else:
        share, chosen = estimates[model], model
    if every_model:
        for other in compute:
            estimates[other]  # noqa: B018 - computes it
    estimates = dict(estimates)
    return PopulationUniqueness(model, share, chosen, population, f, c1, estimates)


def meets_population_uniqueness(
    class_sizes: np.ndarray,
    population: float,
    threshold: float,
    *,
    model: str = "dankar",
    solver: SolverSettings = DEFAULT_SOLVER,
) -> bool:
    """ARX ``PopulationUniqueness.isFulfilled``: the estimate is > 0 and <= threshold, or it
    is 0 (no model converged) and the table has no sample uniques. An empty table passes."""
    sizes = np.asarray(class_sizes)
    if sizes.sum() == 0:
        return True
    result = population_uniqueness(
        sizes, population, model=model, zayatz_fallback=False, solver=solver
    )
    share = 0.0 if math.isnan(result.share) else result.share
    if 0 < share <= threshold:
        return True
    return share == 0 and result.sample_uniques == 0


# --- average risk ---------------------------------------------------------------------


def average_risk(class_sizes: np.ndarray) -> float:
    """Average re-identification risk: classes / records = 1 / average class size
    (ARX ``AverageReidentificationRisk``, El Emam's average prosecutor risk); 0 for an
    empty table."""
    sizes = np.asarray(class_sizes)
    sizes = sizes[sizes > 0]
    records = int(sizes.sum())
    return sizes.size / records if records else 0.0


def meets_average_risk(class_sizes: np.ndarray, threshold: float) -> bool:
    """ARX ``AverageReidentificationRisk.isFulfilled``: 1 / average class size <= threshold
    (an empty table passes)."""
    return average_risk(class_sizes) <= threshold + 1e-12


# --- k-map ----------------------------------------------------------------------------


@dataclass(frozen=True)
class KMapEstimate:
    """k-map estimated as k'-anonymity of the sample: ``derived_k`` and the type I error
    (the probability that a class of ``derived_k`` sample records stands for fewer than k
    people) of ARX's ``KMap`` with an estimator."""

    k: int
    derived_k: int
    type1_error: float
    estimator: str
    significance: float
    population: float


def _poisson_pmf(lam: float, m: int) -> float:
    if lam == 0:
        return 1.0 if m == 0 else 0.0
    return math.exp(m * math.log(lam) - lam - math.lgamma(m + 1))


def kmap_derived_k(
    k: int,
    n_records: int,
    population: float,
    *,
    estimator: str = "zero_truncated_poisson",
    significance: float = 0.01,
) -> KMapEstimate:
    """The k' of ARX ``KMap(k, significance, population, estimator)``: lambda = f k with
    f = n / N; Poisson (Pannekoek's D3): the smallest m with P(X <= m - 2) >= 1 - significance
    ... as ARX counts it (``calculateKPoisson`` returns counter + 1); zero-truncated Poisson
    (El Emam & Dankar's D4, ``calculateKZeroPoisson``). Both stop at k (then the type I
    error is 0), and k' is capped at n and at k."""
    require_int("k", k, minimum=1)
    require_choice("estimator", estimator, KMAP_ESTIMATORS)
    require_probability("significance", significance)
    population = _check_population(population, n_records)
    lam = n_records / population * k
    threshold = 1 - significance
    if estimator == "poisson":
        counter, value, cdf = 0, 0.0, 0.0
        while value < threshold:
            cdf += _poisson_pmf(lam, counter)
            value = cdf
            counter += 1
            if counter >= k:
                value = 1.0
                break
        derived = counter + 1
    else:
        v2 = 1 - _poisson_pmf(lam, 0)
        counter, value = 1, 0.0
        while value < threshold:
            value += _poisson_pmf(lam, counter) / v2
            counter += 1
            if counter >= k:
                value = 1.0
                break
        derived = counter
    derived = min(k, min(derived, n_records))
    return KMapEstimate(k, derived, 1 - value, estimator, significance, population)


def kmap_population_counts(
    sample: pd.DataFrame, population: pd.DataFrame, quasi_identifiers: Sequence[str]
) -> np.ndarray:
    """For each sample record, how many records of the population table share its
    quasi-identifier values (ARX ``KMap(k, DataSubset)``, Sweeney's k-map with the
    population known: a class passes when this count is at least k). 0 when the population
    has no such record. Values are compared as text (``39`` and ``39.0`` are one value), as
    they are: generalise both tables alike first (:func:`generalise_population`)."""

    columns = list(quasi_identifiers)
    require_columns(sample, columns, parameter="quasi_identifiers")
    require_columns(population, columns, parameter="quasi_identifiers", table=POPULATION_TABLE)
    both = pd.concat(
        [population[columns].apply(as_text), sample[columns].apply(as_text)], ignore_index=True
    )
    keys, n_keys = combined_codes(both, columns)
    in_population = np.bincount(keys[: len(population)], minlength=n_keys)
    return in_population[keys[len(population) :]]


def k_map_in_population(
    sample: pd.DataFrame, population: pd.DataFrame, quasi_identifiers: Sequence[str]
) -> int:
    """The k of k-map with a population table: the fewest population records sharing a
    sample record's quasi-identifier values (0 for an empty sample)."""
    counts = kmap_population_counts(sample, population, quasi_identifiers)
    return int(counts.min()) if counts.size else 0


def check_sample_in_population(
    sample: pd.DataFrame,
    population: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    counts: np.ndarray | None = None,
) -> None:
    """Refuse a population table that lacks a sample record's quasi-identifier values: the
    released records must be part of the population (ARX ``DataSubset.create`` refuses such
    a subset too), or the table is not the population they were drawn from. ``counts``:
    ``sample`` is a frequency table (rows with count 0 stand for no record)."""
    columns = list(quasi_identifiers)
    require_columns(population, columns, parameter="quasi_identifiers", table=POPULATION_TABLE)
    found = kmap_population_counts(sample, population, columns)
    absent = found == 0
    if counts is not None:
        absent &= np.asarray(counts) > 0
    if absent.any():
        row = int(np.flatnonzero(absent)[0])
        raise ParameterError(
            f"Row {row + 1} of the table has quasi-identifier values that the population "
            f"table lacks ({int(absent.sum()):,} row(s) do): the population table must hold "
            "every released record (the table is a sample of it)."
        )


def kmap_figures(
    table: pd.DataFrame,
    population: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    k: int,
    counts: np.ndarray | None = None,
) -> tuple[dict, dict]:
    """k-map of a released table against the population's records, for the risk report:
    the fewest population records sharing a released record's quasi-identifier values (the
    k of k-map) and the released records whose values fewer than ``k`` population records
    share, with one plain sentence (PDPC guide, Annex D: an attacker must single a person
    out of the population). ``counts``: ``table`` is a frequency table. The population
    must be coded as the released table is (generalise it alike first)."""
    k = require_int("k", k, minimum=1)
    found = kmap_population_counts(table, population, quasi_identifiers)
    weights = np.ones(len(table), dtype=np.int64) if counts is None else np.asarray(counts)
    present = weights > 0
    smallest = int(found[present].min()) if present.any() else 0
    below = int(weights[present & (found < k)].sum())
    figures = {
        "k_map_population_table": smallest,
        "population_table_records": len(population),
        "records_below_k_map": below,
    }
    sentence = (
        f"Every released record's combination of quasi-identifier values is shared by at "
        f"least {smallest:,} of the {len(population):,} people in the population table "
        f"(k-map, Sweeney; ARX's KMap with the population known); {below:,} record(s) "
        f"stand for fewer than {k:,} people, so someone who knows their values narrows them "
        "down to fewer than k people of the population (PDPC guide, Annex D)."
    )
    return figures, {"k_map_population_table": sentence}


def _covered(values: pd.Series, hierarchy: Hierarchy, column: str) -> pd.Series:
    """The population's values as text, each checked against the hierarchy (a value the
    hierarchy lacks cannot be generalised like the data's)."""
    text = as_text(values)
    missing = ~text.isin(hierarchy.levels[0]) & text.notna()
    if missing.any():
        raise ParameterError(
            f"The population table's value {shown_value(text[missing].iloc[0])} in column '{column}' is "
            f"not in the column's hierarchy ({int(missing.sum())} distinct value(s)): add it to "
            "the hierarchy file, or give the population with the same coding as the data."
        )
    return text


def generalise_population(
    population: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    hierarchies: Mapping[str, Hierarchy],
    levels: Mapping[str, int],
) -> pd.DataFrame:
    """The population table's quasi-identifiers, those in ``levels`` generalised to their
    level with the data's ``hierarchies`` (the others kept as text), so that
    :func:`kmap_population_counts` compares it with the data generalised alike."""
    if not isinstance(population, pd.DataFrame):
        raise ParameterError("Parameter 'population_table' must be a table (DataFrame).")
    columns = list(dict.fromkeys([*quasi_identifiers, *levels]))
    require_columns(population, columns, parameter="quasi_identifiers", table=POPULATION_TABLE)
    out = {}
    for column in columns:
        if column in levels:
            if column not in hierarchies:
                raise ParameterError(f"k-map: no hierarchy given for column '{column}'.")
            text = _covered(population[column], hierarchies[column], column)
            out[column] = hierarchies[column].generalise(text, int(levels[column]))
        else:
            out[column] = as_text(population[column])
    return pd.DataFrame(out, index=population.index)


@dataclass(frozen=True)
class PopulationLattice:
    """A population table coded like a sample's lattice, for k-map with the population
    known (ARX ``KMap(k, DataSubset)``) as a search target: the population's distinct
    quasi-identifier combinations (``weights`` records each) and, per column and level, the
    code of each combination's value among the *sample's* codes at that level (-1 when no
    sample value has that generalised value: such a combination matches no sample class at
    that level). A node's sample classes are then counted in the population by one key over
    their representatives and the population's combinations (:meth:`counts`)."""

    codes: tuple[tuple[np.ndarray, ...], ...]  # [column][level] -> code per combination
    cards: tuple[tuple[int, ...], ...]  # [column][level] -> sample's number of codes
    weights: np.ndarray

    @classmethod
    def of(
        cls,
        population: pd.DataFrame,
        hierarchies: Mapping[str, Hierarchy],
        sample_values: Mapping[str, pd.Series],
        sample_codes: Mapping[str, Sequence[np.ndarray]],
    ) -> PopulationLattice:
        """``sample_values[c]``: one value of the sample per unit (any record of it);
        ``sample_codes[c][level]``: the unit's code at that level (the lattice's codes)."""

        columns = list(hierarchies)
        require_columns(population, columns, parameter="quasi_identifiers", table=POPULATION_TABLE)
        if len(population) == 0:
            raise ParameterError("The population table is empty: k-map needs its records.")
        text = pd.DataFrame({c: _covered(population[c], hierarchies[c], c) for c in columns})
        key, n_keys = combined_codes(text, columns)
        first = np.full(n_keys, len(text), dtype=np.int64)
        np.minimum.at(first, key, np.arange(len(text)))
        weights = np.bincount(key, minlength=n_keys).astype(np.int64)
        codes, cards = [], []
        for c in columns:
            hierarchy = hierarchies[c]
            value_code, distinct = pd.factorize(text[c].iloc[first], use_na_sentinel=False)
            sample_text = as_text(sample_values[c])
            per_level = []
            for level in range(hierarchy.height + 1):
                labels = hierarchy.generalise(sample_text, level).to_numpy()
                lookup = pd.Series(np.asarray(sample_codes[c][level]), index=labels)
                lookup = lookup[~lookup.index.duplicated()]
                mine = hierarchy.generalise(pd.Series(distinct), level).to_numpy()
                found = lookup.reindex(mine)
                value_level = found.fillna(-1).to_numpy(dtype=np.int64)
                per_level.append(value_level[value_code])
            codes.append(tuple(per_level))
            cards.append(tuple(int(np.max(lv, initial=-1)) + 1 for lv in sample_codes[c]))
        return cls(tuple(codes), tuple(cards), weights)

    def counts(self, levels: Sequence[int], sample_codes: Sequence[np.ndarray]) -> np.ndarray:
        """Population records of each sample class at ``levels``, the classes given by the
        codes of their representatives (``sample_codes[i]``: column i at its level)."""

        n_sample = len(sample_codes[0]) if sample_codes else 0
        match = np.ones(self.weights.size, dtype=bool)
        for i, level in enumerate(levels):
            match &= self.codes[i][level] >= 0
        coded = []
        for i, level in enumerate(levels):
            both = np.concatenate(
                [np.asarray(sample_codes[i], dtype=np.int64), self.codes[i][level][match]]
            )
            coded.append((both, max(self.cards[i][level], 1)))
        key, n_keys = combine_codes(coded, n_sample + int(match.sum()))
        found = np.bincount(key[n_sample:], weights=self.weights[match], minlength=n_keys)
        return found[key[:n_sample]].astype(np.int64)


# --- ARX's suppression for sample-based criteria --------------------------------------


def _java_half(value: int) -> int:
    """Java's int division by 2 (truncates toward zero: (-1) / 2 == 0)."""
    return int(value / 2)


def sample_based_suppression(
    class_sizes: np.ndarray, fulfilled: Callable[[np.ndarray], bool], limit: int | None = None
) -> np.ndarray:
    """Which classes ARX suppresses to meet a sample-based criterion, as a boolean mask
    (``HashGroupifyDistribution.suppressWhileNotFulfilledBinary``, step by step): the
    classes must come sorted as ARX sorts them (by size, smallest first); it suppresses the
    first half, then binary-searches the number of leading classes removed, and, if the
    last state still fails, removes one class more. ``fulfilled`` gets the kept sizes.
    ``limit``: the records that may still be suppressed; a failing state beyond it aborts
    (ARX's early abort while searching). The criterion may still fail at the end when it is
    not monotone (ARX then accepts the node if the suppressed records are within the
    limit)."""
    sizes = np.asarray(class_sizes)
    mask = np.zeros(sizes.size, dtype=bool)
    if fulfilled(sizes) or sizes.size == 0:
        return mask
    low, high = 0, sizes.size - 1
    mid = _java_half(low + high)
    mask[low : mid + 1] = True
    state = "abort"
    while low <= high:
        ok = fulfilled(sizes[~mask])
        if not ok and limit is not None and int(sizes[mask].sum()) > limit:
            state = "abort"
            break
        state = "fulfilled" if ok else "not"
        if ok:
            high = mid - 1
            mid = _java_half(low + high)
            i = mid + 1  # un-suppress the run of suppressed classes from mid + 1
            run = mask[i:]
            stop = i + (int(np.argmin(run)) if not run.all() else run.size)
            mask[i:stop] = False
        else:
            low = mid + 1
            mid = _java_half(low + high)
            mask[low : mid + 1] = True
    if state != "abort" and not fulfilled(sizes[~mask]):
        over = limit is not None and int(sizes[mask].sum()) > limit  # ARX: ABORT, no change
        if not over and mid + 1 < sizes.size and not mask[mid + 1]:
            mask[mid + 1] = True
    return mask


# --- a report: figures and plain words --------------------------------------------------

MODEL_NAMES = {
    "pitman": "Pitman's sampling formula (Hoshino 2001)",
    "zayatz": "Zayatz's model (1991)",
    "snb": "the slide negative binomial model (Chen & Keller-McNulty 1998)",
    "dankar": "Dankar et al.'s rule (2012)",
}


def sizes_from_distribution(class_size: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Class sizes back from a size distribution (size -> how many classes)."""
    return np.repeat(np.asarray(class_size, dtype=np.int64), np.asarray(classes, dtype=np.int64))


def population_figures(
    class_sizes: np.ndarray, population: float, *, model: str = "dankar"
) -> tuple[dict, dict]:
    """Population uniqueness of a table for the risk report: JSON-ready figures and one
    plain sentence each (PDPC guide, Annex D: the risk that someone in the population can
    be singled out)."""
    result = population_uniqueness(class_sizes, population, model=model, every_model=True)
    share = result.share
    available = not math.isnan(share)
    figures = {
        "population": result.population,
        "sampling_fraction": result.sampling_fraction,
        "population_model": model,
        "population_model_used": result.chosen,
        "population_uniqueness": float(share) if available else None,
        "population_uniques": float(result.uniques) if available else None,
        "population_estimates": {
            m: (None if math.isnan(v) else float(v)) for m, v in result.estimates.items()
        },
    }
    if not available:
        sentence = (
            f"The population uniqueness could not be estimated with {MODEL_NAMES[model]}: its "
            "equations have no solution for this table; choose another model."
        )
    else:
        picked = (
            f"{MODEL_NAMES[result.chosen]}, picked by {MODEL_NAMES['dankar']} for a sampling "
            f"fraction of {result.sampling_fraction:.2%}"
            if model == "dankar" and result.chosen in ("pitman", "zayatz", "snb")
            else MODEL_NAMES[model]
        )
        sentence = (
            f"Of a population of {result.population:,.0f} people (the table holds "
            f"{result.sampling_fraction:.2%} of them), an estimated {share:.4%} (about "
            f"{result.uniques:,.0f} people) are the only person with their combination of "
            f"quasi-identifier values, so anyone who knows those values could single them out "
            f"({picked}; PDPC guide, Annex D)."
        )
    return figures, {"population_uniqueness": sentence}


def table_suppression(
    sizes: np.ndarray,
    order: np.ndarray,
    *,
    max_average_risk: float | None = None,
    max_population_uniqueness: float | None = None,
    population: float | None = None,
    population_model: str = "dankar",
    limit: int | None = None,
    solver: SolverSettings = DEFAULT_SOLVER,
) -> np.ndarray:
    """Boolean per class: the classes ARX suppresses for its whole-table criteria (average
    risk, then population uniqueness, each enforced in turn as ARX does), given the class
    ``sizes`` (classes already suppressed for other models given as size 0) and ``order``,
    a tie-breaker per class (ARX: the position of the class's first record). ``limit``:
    records that may still be suppressed (ARX's early abort while searching; a node it
    accepts never hit it, so a replay passes None and suppresses the same classes)."""
    out = np.zeros(sizes.size, dtype=bool)
    checks: list[Callable[[np.ndarray], bool]] = []
    if max_average_risk is not None:
        checks.append(lambda kept: meets_average_risk(kept, max_average_risk))
    if max_population_uniqueness is not None:
        if population is None:
            raise ParameterError("A population uniqueness target needs 'population'.")
        checks.append(
            lambda kept: meets_population_uniqueness(
                kept, population, max_population_uniqueness, model=population_model, solver=solver
            )
        )
    candidates = np.flatnonzero(np.asarray(sizes) > 0)
    ranked = candidates[np.lexsort((order[candidates], sizes[candidates]))]
    ranked_sizes = np.asarray(sizes[ranked]).astype(np.int64)
    for check in checks:
        mask = sample_based_suppression(ranked_sizes, check, limit)
        out[ranked[mask]] = True
        if limit is not None:
            limit -= int(ranked_sizes[mask].sum())
        ranked, ranked_sizes = ranked[~mask], ranked_sizes[~mask]
    return out
