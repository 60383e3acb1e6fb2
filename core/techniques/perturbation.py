"""Data perturbation (PDPC guide, Annex A: Data perturbation).

"The values from the original dataset are modified to be slightly different", by base-x
rounding (:func:`round_to_base`) or by adding random noise (:func:`add_noise`, or
:func:`add_correlated_noise`, which keeps means and covariances as sdcMicro's ``addNoise``). The guide
advises a degree of perturbation proportionate to the range of the attribute: base 5 for
heights in cm, base 3 for weights in kg; +/- 5 for ages (Annex B).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.validation import (
    make_rng,
    require_choice,
    require_columns,
    require_numeric,
    require_positive,
    require_step,
)

ROUNDING_MODES = ("nearest", "down", "up")
NOISE_DISTRIBUTIONS = ("uniform", "normal", "laplace")
CORRELATED_NOISE_METHODS = ("correlated2", "correlated")


def round_to_base(
    df: pd.DataFrame, column: str, *, base: float, mode: str = "nearest"
) -> pd.DataFrame:
    """Round each value to a multiple of ``base`` (PDPC guide, Annex A: Data perturbation,
    "base-x rounding ... rounded to the nearest multiple of x").

    ``mode="nearest"`` (the guide's definition; a value exactly half-way goes up, e.g.
    2.5 -> 5 with base 5), ``"down"`` (largest multiple not above the value) or ``"up"``.
    ``base`` may be fractional (0.001 rounds GPS coordinates to three decimals, Annex B).
    A whole-number column rounded to a whole-number base keeps its integer dtype; otherwise
    the result is float. Missing values stay missing; text raises :class:`ParameterError`
    naming the first bad row.
    """
    numbers = require_numeric(df, column, technique="Base-x rounding")
    base = require_step("base", base)
    mode = require_choice("mode", mode, ROUNDING_MODES)
    # round the quotient first so that 0.3 / 0.1 = 2.9999999999999996 counts as 3
    quotient = np.round(numbers.to_numpy() / base, 9)
    if mode == "nearest":
        multiples = np.floor(quotient + 0.5)
    elif mode == "down":
        multiples = np.floor(quotient)
    else:
        multiples = np.ceil(quotient)
    rounded = multiples * base
    if not float(base).is_integer():
        rounded = np.round(rounded, _decimals(base))
    out = df.copy()
    original = df[column]
    if pd.api.types.is_integer_dtype(original) and float(base).is_integer():
        out[column] = pd.array(rounded).astype(original.dtype)
    else:
        out[column] = rounded
    return out


def add_noise(
    df: pd.DataFrame,
    column: str,
    *,
    distribution: str = "uniform",
    scale: float,
    seed: int | None = None,
) -> pd.DataFrame:
    """Add random noise to each value (PDPC guide, Annex A: Data perturbation; Annex B:
    "add random values (+/- 5) to the original value").

    ``distribution``: ``"uniform"`` draws from [-scale, scale]; ``"normal"`` has standard
    deviation ``scale``; ``"laplace"`` has scale parameter ``b = scale``. ``seed`` makes the
    noise reproducible (keep it secret: with it the noise can be subtracted). The result is
    a float column (integers become floats; round afterwards with :func:`round_to_base` if
    needed). Missing values stay missing.
    """
    numbers = require_numeric(df, column, technique="Adding noise")
    distribution = require_choice("distribution", distribution, NOISE_DISTRIBUTIONS)
    scale = require_positive("scale", scale)
    rng = make_rng(seed)
    n = len(df)
    if distribution == "uniform":
        noise = rng.uniform(-scale, scale, size=n)
    elif distribution == "normal":
        noise = rng.normal(0.0, scale, size=n)
    else:
        noise = rng.laplace(0.0, scale, size=n)
    out = df.copy()
    out[column] = numbers.to_numpy() + noise
    return out


def add_correlated_noise(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    method: str = "correlated2",
    delta: float = 0.1,
    noise: float = 150.0,
    seed: int | None = None,
) -> pd.DataFrame:
    """Noise that keeps the columns' means and (co)variances (sdcMicro ``addNoise``).

    ``method="correlated2"`` (Kim 1986; sdcMicro's default ``delta`` 0.1): each value x
    becomes sqrt(1 - delta^2) * x + delta * e with e normal of mean
    (1 - sqrt(1 - delta^2)) / delta * mean(x) and the column's standard deviation, so the
    mean and variance of every column are kept in expectation (the covariances shrink by
    the factor 1 - delta^2). ``method="correlated"``: noise drawn jointly with covariance
    ``noise``/100 times the columns' covariance (complete rows), so the correlations
    between columns are kept in expectation (needs two columns or more). Unlike
    :func:`add_noise`, the amount follows each column's spread. Missing values stay
    missing; ``seed`` makes the result reproducible (keep it secret).
    """
    columns = require_columns(df, columns, parameter="columns")
    method = require_choice("method", method, CORRELATED_NOISE_METHODS)
    values = np.column_stack(
        [require_numeric(df, c, technique="Correlated noise").to_numpy() for c in columns]
    )
    rng = make_rng(seed)
    n = len(df)
    if method == "correlated2":
        delta = require_positive("delta", delta)
        if delta > 1:
            raise ParameterError(f"Parameter 'delta' must be at most 1, got {delta!r}.")
        keep = np.sqrt(1.0 - delta**2)
        means = np.nanmean(values, axis=0) if n else np.zeros(len(columns))
        sds = np.nanstd(values, axis=0, ddof=1) if n > 1 else np.zeros(len(columns))
        draws = rng.normal(size=values.shape) * sds + (1.0 - keep) / delta * means
        noisy = keep * values + delta * draws
    else:
        noise = require_positive("noise", noise)
        if len(columns) < 2:
            raise ParameterError(
                "Parameter 'columns': correlated noise needs two columns or more (its noise "
                "follows their covariance); use 'correlated2' or 'noise' for one column."
            )
        complete = values[~np.isnan(values).any(axis=1)]
        if len(complete) < 2:
            raise ParameterError(
                "Parameter 'columns': correlated noise needs at least two rows with a value "
                "in every column to estimate their covariance."
            )
        covariance = noise / 100.0 * np.cov(complete, rowvar=False)
        noisy = values + rng.multivariate_normal(np.zeros(len(columns)), covariance, size=n)
    out = df.copy()
    for j, column in enumerate(columns):
        out[column] = noisy[:, j]
    return out


def _decimals(base: float) -> int:
    """Decimals needed to write multiples of ``base`` (0.25 -> 2, 0.001 -> 3), at most 12."""
    text = np.format_float_positional(float(base), trim="-")
    return min(len(text.split(".")[1]) if "." in text else 0, 12)
