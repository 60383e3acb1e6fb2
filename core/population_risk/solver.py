"""The numerics under Pitman's and the SNB model: digamma, trigamma and ARX's Newton-Raphson.

Special functions vectorised without scipy, and the two-dimensional Newton-Raphson solver of
ARX 3.9 (``ARXSolverConfiguration``, de.linearbits.newtonraphson) step by step, so the
estimates of :mod:`core.population_risk.estimators` reach ARX's roots. Kept apart from the
models because they are numerics with no notion of a table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from core.validation import require_int, require_positive

_ACCURACY = 1e-6  # ARXSolverConfiguration's default accuracy on the object function
_ITERATIONS_PER_TRY = 200  # ARX: 1000 per try but at most 100 ms a try and 1 s in all

# ARX's deterministic start values after the first try fails (ARXSolverConfiguration).
_STEPS = [0.0, 0.33, 0.33 + 0.33, 0.33 + 0.33 + 0.33]  # ARX adds 0.33 while below 1
_RESTARTS = [(a, b) for a in _STEPS for b in _STEPS]
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


def digamma_series(x: np.ndarray) -> np.ndarray:
    """psi(x) by the asymptotic series alone (x >= 11: error below 1e-14)."""
    r = 1 / (x * x)
    series = r * (1 / 12 - r * (1 / 120 - r * (1 / 252 - r * (1 / 240 - r / 132))))
    return np.log(x) - 0.5 / x - series


def trigamma_series(x: np.ndarray) -> np.ndarray:
    """psi'(x) by the asymptotic series alone (x >= 11)."""
    r = 1 / (x * x)
    tail = (1 + r * (1 / 6 - r * (1 / 30 - r * (1 / 42 - r * (1 / 30 - r * 5 / 66))))) / x
    return 0.5 * r + tail


def digamma(x: np.ndarray | float) -> np.ndarray | float:
    """psi(x) for x > 0 (nan elsewhere): recurrence up to x >= 12, then the asymptotic
    series."""
    x, total = _shift(x, 1)
    return digamma_series(x) - total


def trigamma(x: np.ndarray | float) -> np.ndarray | float:
    """psi'(x) for x > 0 (nan elsewhere): recurrence up to x >= 12, then the asymptotic
    series."""
    x, total = _shift(x, 2)
    return trigamma_series(x) + total


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


def newton(
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
