"""ARX's suppression for whole-table (sample-based) criteria: which classes to remove.

ARX enforces average risk and population uniqueness after the per-class models by
suppressing the smallest classes, found by a binary search
(``HashGroupifyDistribution.suppressWhileNotFulfilledBinary``). The search and the recipe's
suppression step share this so a replay suppresses the classes the search did.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from core.errors import ParameterError
from core.population_risk.estimators import meets_average_risk, meets_population_uniqueness
from core.population_risk.solver import DEFAULT_SOLVER, SolverSettings


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
