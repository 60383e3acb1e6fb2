"""Data perturbation (PDPC guide, Annex A: Data perturbation).

"The values from the original dataset are modified to be slightly different", by base-x
rounding (:func:`round_to_base`) or by adding random noise (:func:`add_noise`). The guide
advises a degree of perturbation proportionate to the range of the attribute: base 5 for
heights in cm, base 3 for weights in kg; +/- 5 for ages (Annex B).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.validation import (
    make_rng,
    require_choice,
    require_numeric,
    require_positive,
)

ROUNDING_MODES = ("nearest", "down", "up")
NOISE_DISTRIBUTIONS = ("uniform", "normal", "laplace")


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
    base = require_positive("base", base)
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


def _decimals(base: float) -> int:
    """Decimals needed to write multiples of ``base`` (0.25 -> 2, 0.001 -> 3), at most 12."""
    text = np.format_float_positional(float(base), trim="-")
    return min(len(text.split(".")[1]) if "." in text else 0, 12)
