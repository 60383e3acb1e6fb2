"""Noise and its accuracy: the scale that makes a query (ε, δ)-DP (Laplace b = Δf/ε, or
the Gaussian σ found on OpenDP's own privacy check), the expected error and 95% bound of
that noise, and the noisy vector drawn by OpenDP.

Source: Health data privacy, "Differential Privacy". Separate from the release so that
the dashboard can show accuracy against ε without touching the data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Any

import numpy as np

from core.dp.budget import require_delta, require_epsilon
from core.errors import ParameterError
from core.validation import (
    require_choice,
    require_positive,
)

MECHANISMS = ("laplace", "gaussian")
COVERAGE = 0.95


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
    delta = require_delta("delta", delta)
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


def noise_quantile(acc: Accuracy, level: float) -> float:
    """Bound on |noise| at ``level`` (for the mean's union bound)."""
    tail = 1 - level
    if acc.mechanism == "Laplace":
        return acc.scale * math.log(1 / tail)
    if acc.mechanism == "discrete Laplace":
        t = math.exp(-1 / acc.scale)
        return float(max(math.ceil(math.log(tail * (1 + t) / 2) / math.log(t) - 1 - 1e-12), 0))
    z = NormalDist().inv_cdf(1 - tail / 2)
    return z * acc.scale + (1.0 if acc.mechanism == "discrete Gaussian" else 0.0)
