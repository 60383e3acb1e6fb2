"""The one place where parameters and column names are checked.

Every public function validates its input through these helpers, so a mistake always
produces the same kind of message: what is wrong, where, and what to do instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from numbers import Real

import numpy as np
import pandas as pd

from core.errors import ColumnNotFoundError, ParameterError


def _preview(names: Iterable[object], limit: int = 12) -> str:
    names = [str(n) for n in names]
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f", ... ({len(names) - limit} more)" if len(names) > limit else "")


def shown_value(value: object) -> str:
    """``value`` for a message, as a person reads it: a NumPy or pandas scalar as the
    plain Python value (``-5``, not ``np.int64(-5)``), quoted when it is text."""
    item = getattr(value, "item", None)
    if isinstance(value, np.generic) and item is not None:
        value = item()
    return repr(value)


def require_columns(
    df: pd.DataFrame,
    columns: str | Iterable[str],
    *,
    parameter: str = "column",
    table: str = "the table",
) -> list[str]:
    """Return ``columns`` as a list, or raise naming the missing ones and the choices;
    ``table`` names ``df`` in the message when it is not the data (a population table)."""
    if isinstance(columns, str):
        columns = [columns]
    columns = list(columns)
    if not columns:
        raise ParameterError(f"Parameter '{parameter}' is empty: name at least one column.")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ColumnNotFoundError(
            f"Column(s) {_preview(missing)} given as '{parameter}' do not exist in {table}. "
            f"Available columns: {_preview(df.columns)}. Check the spelling (names are "
            "case-sensitive)."
        )
    return columns


def require_numeric(df: pd.DataFrame, column: str, *, technique: str) -> pd.Series:
    """Return the column as floats, or raise naming the first row that is not a number."""
    require_columns(df, column)
    series = df[column]
    if pd.api.types.is_bool_dtype(series):
        raise ParameterError(f"{technique} needs numbers, but column '{column}' is yes/no.")
    numbers = pd.to_numeric(series, errors="coerce")
    bad = numbers.isna() & series.notna()
    if bad.any():
        row = bad.to_numpy().nonzero()[0][0]
        raise ParameterError(
            f"{technique} needs numbers, but column '{column}' has {int(bad.sum())} value(s) "
            f"that are not, the first in row {row + 1} ({shown_value(series.iloc[row])}). Clean or "
            "generalise that column first, or choose a numeric column."
        )
    return numbers.astype(float)


#: YAML 1.1 (PyYAML) reads a number in exponent form as text unless it has a decimal
#: point and a signed exponent: '1e3' and '1.0e308' are strings, '1.0e+3' is a number.
_YAML_TEXT_NUMBER = re.compile(r"^([+-]?)(\d+)(?:\.(\d*))?[eE]([+-]?)(\d+)$")


def _yaml_text_hint(value: object) -> str:
    """For a number YAML read as text, what happened and how to write it; else ''."""
    found = _YAML_TEXT_NUMBER.match(value.strip()) if isinstance(value, str) else None
    if not found:
        return ""
    sign, whole, fraction, exp_sign, exponent = found.groups()
    written = f"{sign}{whole}.{fraction or '0'}e{exp_sign or '+'}{exponent}"
    return (
        f" (YAML read {value.strip()!r} as text: write it with a decimal point and a signed "
        f"exponent, {written})"
    )


def require_number(name: str, value: object) -> float:
    """Check that a parameter is a finite number (of any sign: the caller checks its range
    with a message of its own)."""
    if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value):
        raise ParameterError(
            f"Parameter '{name}' must be a number, got {shown_value(value)}"
            f"{_yaml_text_hint(value)}."
        )
    return float(value)


def require_positive(name: str, value: object, *, allow_zero: bool = False) -> float:
    """Check that a parameter is a (strictly) positive finite number."""
    require_number(name, value)
    if value < 0 or (value == 0 and not allow_zero):
        bound = "zero or more" if allow_zero else "greater than zero"
        raise ParameterError(f"Parameter '{name}' must be {bound}, got {shown_value(value)}.")
    return float(value)


#: The finest and the coarsest step of a grid of values (a band's width, a rounding
#: base): beyond these a step means nothing, and dividing by it overflows (a width of
#: 1e-300 labelled values '[inf, inf)', a base of 1e-320 rounded them to inf).
MIN_STEP = 1e-9
MAX_STEP = 1e15


def require_step(name: str, value: object) -> float:
    """Check that a parameter is a step between :data:`MIN_STEP` and :data:`MAX_STEP`."""
    value = require_positive(name, value)
    if not MIN_STEP <= value <= MAX_STEP:
        raise ParameterError(
            f"Parameter '{name}' must be between {MIN_STEP:g} and {MAX_STEP:g}, got {value:g}: "
            "a step outside that range means nothing for real values (and overflows)."
        )
    return value


def require_anchor(name: str, value: object) -> float:
    """Check that a parameter is where a grid of steps starts (a band's ``start``): a finite
    number at most :data:`MAX_STEP` in size (a start of -1e300 labelled every value
    '[inf, inf)')."""
    if isinstance(value, bool) or not isinstance(value, Real) or not abs(float(value)) <= MAX_STEP:
        raise ParameterError(
            f"Parameter '{name}' must be a number between {-MAX_STEP:g} and {MAX_STEP:g}, got "
            f"{shown_value(value)}."
        )
    return float(value)


def require_int(name: str, value: object, *, minimum: int = 0) -> int:
    """Check that a parameter is a whole number of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ParameterError(
                f"Parameter '{name}' must be a whole number, got {shown_value(value)}"
                f"{_yaml_text_hint(value)}."
            )
    if value < minimum:
        raise ParameterError(
            f"Parameter '{name}' must be at least {minimum}, got {shown_value(value)}."
        )
    return int(value)


def require_probability(name: str, value: object) -> float:
    """Check that a parameter is a probability between 0 and 1."""
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value <= 1:
        raise ParameterError(
            f"Parameter '{name}' must be a probability between 0 and 1, got {shown_value(value)}."
        )
    return float(value)


def require_choice(name: str, value: object, choices: Iterable[str]) -> str:
    """Check that a parameter is one of a fixed set of words."""
    choices = list(choices)
    if value not in choices:
        raise ParameterError(
            f"Parameter '{name}' must be one of {_preview(choices)}, got {shown_value(value)}."
        )
    return str(value)


def require_mapping(
    name: str, spec: object, required: Iterable[str], optional: Iterable[str] = ()
) -> Mapping:
    """Check that a parameter is a mapping with the ``required`` keys and no key but those
    and the ``optional`` ones (a recipe step's or target's model, e.g. ``k_map``)."""
    required, optional = tuple(required), tuple(optional)
    if not isinstance(spec, Mapping) or any(key not in spec for key in required):
        raise ParameterError(
            f"Parameter '{name}' must be a mapping with {', '.join(map(repr, required))}."
        )
    unknown = sorted(set(map(str, spec)) - {*required, *optional})
    if unknown:
        raise ParameterError(
            f"Parameter '{name}' does not take {', '.join(map(repr, unknown))}; it takes "
            f"{', '.join(map(repr, (*required, *optional)))}."
        )
    return spec


def make_rng(seed: int | None) -> np.random.Generator:
    """A NumPy generator for ``seed``; the seed is validated so it can be recorded."""
    if seed is not None:
        require_int("seed", seed, minimum=0)
    return np.random.default_rng(seed)
