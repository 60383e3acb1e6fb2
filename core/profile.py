"""Column profile of a table (PDPC guide, Step 1 "Know your data").

Before classifying attributes, look at what each column holds: its type, how many values
are missing, how many distinct values there are and how close the column is to being
unique per record (a near-unique column behaves like a direct identifier), with a few
example values and, for numbers, the range and mean.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["PROFILE_COLUMNS", "profile"]

PROFILE_COLUMNS = (
    "column",
    "type",
    "missing",
    "distinct",
    "uniqueness",
    "examples",
    "min",
    "max",
    "mean",
)


def _kind(series: pd.Series) -> str:
    if pd.api.types.is_bool_dtype(series):
        return "boolean"
    if pd.api.types.is_integer_dtype(series):
        return "integer"
    if pd.api.types.is_numeric_dtype(series):
        return "number"
    if pd.api.types.is_datetime64_any_dtype(series):
        return "date/time"
    if isinstance(series.dtype, pd.CategoricalDtype):
        return "category"
    return "text"


def profile(df: pd.DataFrame, *, examples: int = 3) -> pd.DataFrame:
    """One row per column of ``df`` describing it (PDPC guide, Step 1 "Know your data").

    Columns of the result (:data:`PROFILE_COLUMNS`):

    * ``type``: "integer", "number", "boolean", "date/time", "category" or "text";
    * ``missing``: number of missing values (NaN/None/NaT);
    * ``distinct``: number of distinct non-missing values;
    * ``uniqueness``: ``distinct / non-missing values`` (1.0 = every value differs, the
      mark of a direct identifier; NaN when the column is entirely missing);
    * ``examples``: the first ``examples`` distinct non-missing values, in order of
      appearance, joined by ", ";
    * ``min``, ``max``, ``mean``: for integer and number columns only (NaN otherwise).

    The input is never modified.
    """
    rows = []
    for position, name in enumerate(df.columns):
        series = df.iloc[:, position]
        missing = int(series.isna().sum())
        present = len(series) - missing
        # The distinct values of the whole column, then the missing one dropped from them:
        # no copy of the column without its missing values (a 1M-row table's profile is
        # drawn on Data right after its first table; issue 31). Order of first appearance.
        distinct = series.unique()
        if missing:
            distinct = distinct[~pd.isna(distinct)]
        n_distinct = len(distinct)
        kind = _kind(series)
        numeric = kind in ("integer", "number") and present > 0
        rows.append(
            {
                "column": str(name),
                "type": kind,
                "missing": missing,
                "distinct": n_distinct,
                "uniqueness": n_distinct / present if present else np.nan,
                "examples": ", ".join(str(v) for v in distinct[:examples]),
                "min": float(series.min()) if numeric else np.nan,
                "max": float(series.max()) if numeric else np.nan,
                "mean": float(series.mean()) if numeric else np.nan,
            }
        )
    return pd.DataFrame(rows, columns=list(PROFILE_COLUMNS))
