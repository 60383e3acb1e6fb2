"""The differentially private release: counts, clipped sums and means per cell of the
user's categories, each query charged to the budget and drawn by OpenDP, with a sentence
on each figure's accuracy (see :mod:`core.dp` for how a release is computed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from core.dp.budget import PrivacyBudget, require_delta, require_epsilon
from core.dp.cells import as_columns, category_grid, cells_label, require_bounds
from core.dp.noise import MECHANISMS, Accuracy, add_dp_noise, noise_quantile, noise_scale
from core.errors import ParameterError
from core.formatting import fmt_count, fmt_number
from core.validation import (
    require_choice,
    require_columns,
    require_numeric,
)

SOURCE = "Health data privacy (HIPAA, GDPR, formal models): Differential Privacy"


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
    sums, means = as_columns(sums), as_columns(means)
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
    delta = require_delta("delta", delta)
    if mechanism == "gaussian" and delta == 0:
        noise_scale(1.0, epsilon, mechanism=mechanism, delta=delta)  # raises the clear message
    count = bool(count) or bool(means)
    if not count and not measured:
        raise ParameterError("Nothing to release: ask for a count, sums or means.")
    limits = {column: require_bounds(bounds, column) for column in measured}
    grid = category_grid(df, by, categories)
    n_queries = int(count) + len(measured)
    eps_each = require_epsilon(f"epsilon / {n_queries} queries", epsilon / n_queries)
    delta_each = delta / n_queries if mechanism == "gaussian" else 0.0
    budget = PrivacyBudget(epsilon, delta) if budget is None else budget
    queries = f"{n_queries} quer{'y' if n_queries == 1 else 'ies'}"
    budget.require(f"This release ({queries})", epsilon, n_queries * delta_each)

    n_cells = len(grid.keys)
    table = grid.keys.copy()
    figures: list[Figure] = []
    keys = cells_label(grid)
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
    s = noise_quantile(sum_acc, 0.975)
    c = noise_quantile(count_acc, 0.975)
    room = noisy_count.astype(float) - c
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = (s + np.abs(mean) * c) / room
    known = room > 0
    return np.where(known, mean, np.nan), np.where(known, np.minimum(bound, hi - lo), np.nan)


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
