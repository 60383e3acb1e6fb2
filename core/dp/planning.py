"""For the dashboard: accuracy against ε before any noise is drawn, and the long table
of an error-band chart. Computed from noise scales and released figures only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

from core.dp.cells import require_bounds
from core.dp.noise import accuracy, noise_scale


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
        lo, hi = require_bounds(bounds, column)
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
