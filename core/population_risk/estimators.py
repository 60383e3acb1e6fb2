"""Population uniqueness estimated from the sample's class sizes, and the average risk.

Pitman (Hoshino 2001), Zayatz (1991), the slide negative binomial (Chen & Keller-McNulty
1998) and Dankar et al.'s (2012) decision rule, as ARX 3.9 computes them
(``org.deidentifier.arx.risk``), and ARX's ``PopulationUniqueness`` and
``AverageReidentificationRisk`` criteria. Every function reads only the class-size
histogram. See :mod:`core.population_risk` for the sources and where ARX differs from them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from core.errors import ParameterError
from core.population_risk.solver import (
    DEFAULT_SOLVER,
    SolverSettings,
    digamma,
    digamma_series,
    newton,
    trigamma,
    trigamma_series,
)
from core.validation import require_choice

POPULATION_MODELS = ("dankar", "pitman", "zayatz", "snb")
_INT_MAX = 2**31 - 1


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


def check_population(population: float, n_records: int) -> float:
    """The population size N as a float; a ParameterError unless it is a number >= the records."""
    if not isinstance(population, (int, float)) or isinstance(population, bool):
        raise ParameterError(f"Parameter 'population' must be a number, got {population!r}.")
    if not math.isfinite(population) or population < n_records or population <= 0:
        raise ParameterError(
            f"Parameter 'population' must be at least the number of records ({n_records:,}), "
            f"got {population:g}: give the size of the population the table was drawn from."
        )
    return float(population)


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
            o4 += float(large_counts @ (digamma_series(large_sizes - a) - digamma(1 - a)))
            d4 += float(large_counts @ (trigamma(1 - a) - trigamma_series(large_sizes - a)))
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
    t, a = newton(equations, start, valid=valid, solver=solver)
    if math.isnan(t) or math.isnan(a):
        t, a = newton(iterative, start, valid=valid, solver=solver)  # ARX: no closed-form root
    else:
        with np.errstate(all="ignore"):
            check = iterative(t, a)[0]
        if not (np.isfinite(check).all() and (np.abs(check) <= solver.accuracy).all()):
            t, a = newton(iterative, start, valid=valid, solver=solver)  # ARX: test failed
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

    a, b = newton(equations, (1.0, 1.0), solver=solver)
    return k * b**a


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
    population = check_population(population, n)
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
