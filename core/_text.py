"""Turning column values into text without surprises (private helpers of the techniques).

Numbers read from a CSV come back as ``int64`` (or ``float64`` once a value is missing);
their text form must be the one a person would type: ``39`` and not ``39.0``. Missing
values stay missing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def format_number(value: float) -> str:
    """``39.0`` -> ``"39"``, ``2.5`` -> ``"2.5"`` (shortest text that reads back the same)."""
    return np.format_float_positional(float(value), trim="-")


def as_text(series: pd.Series) -> pd.Series:
    """The values of ``series`` as strings (``str`` dtype); missing values stay missing.

    Whole numbers in a float column (a numeric column with gaps) lose their ``.0``.
    Work is done once per distinct value, not once per row.
    """
    if isinstance(series.dtype, pd.CategoricalDtype):  # each category once
        text = as_text(pd.Series(series.cat.categories)).to_numpy(dtype=object)
        codes = series.cat.codes.to_numpy()
        values = np.where(codes >= 0, text[codes] if text.size else None, None)
        return pd.Series(values, index=series.index, name=series.name, dtype="str")
    if pd.api.types.is_bool_dtype(series) or not pd.api.types.is_numeric_dtype(series):
        return series.astype("str")
    if _exact_integers(series):  # the same text as below, without a call per value
        return series.astype("str")
    uniques = series.dropna().unique()
    mapping = {value: format_number(value) for value in uniques}
    return series.map(mapping).astype("str")


def _exact_integers(series: pd.Series) -> bool:
    """Whether ``series`` is a numpy integer column whose values a float holds exactly
    (|v| <= 2**53): then ``str(v)`` is :func:`format_number`'s text of it."""
    dtype = series.dtype
    if not isinstance(dtype, np.dtype) or dtype.kind not in "iu" or series.empty:
        return False
    values = series.to_numpy()
    return bool(values.max() <= 2**53 and (dtype.kind == "u" or values.min() >= -(2**53)))
