"""Data aggregation (PDPC guide, Annex A: Data aggregation).

"The conversion of a dataset from a list of records to summarised values", e.g. donors
grouped by income band with the number and the total of their donations. The guide warns
to "watch out for groups having too few records after performing aggregation": groups
smaller than ``min_cell`` are reported with an :class:`AnonymisationWarning`; suppress or
merge them before release.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from numbers import Real

import numpy as np
import pandas as pd

from core.errors import AnonymisationWarning, ParameterError
from core.techniques.generalisation import generalise_bands, generalise_edges
from core.validation import require_choice, require_columns, require_int, require_numeric

STATS = ("count", "sum", "mean", "median", "min", "max", "std")


def aggregate(
    df: pd.DataFrame,
    by: str | Iterable[str],
    *,
    values: str | Iterable[str],
    stats: Sequence[str] = ("count", "sum"),
    min_cell: int = 5,
    bands: Mapping[str, float | Sequence[float]] | None = None,
) -> pd.DataFrame:
    """Summarise records into one row per group (PDPC guide, Annex A: Data aggregation).

    ``by``: the grouping column(s). ``bands`` optionally groups a numeric ``by`` column into
    ranges first: a number is a band width (:func:`generalise_bands`, labels ``"1000-1999"``),
    a list is a list of edges (:func:`generalise_edges` with ``right=False``; edges
    ``[1000, 2000, 3000, 4000, 5000, 6001]`` give the guide's ``"5000-6000"`` last band).
    Alternatively generalise the column yourself first and pass no ``bands``.

    ``stats``: ``"count"`` (number of records in the group, one column named ``count``) and
    any of ``sum``, ``mean``, ``median``, ``min``, ``max``, ``std`` computed for each column
    of ``values`` (numeric), in columns named ``<value>_<stat>`` (e.g. ``donation_sum``).
    Groups appear in band order (banded columns) or sorted order; missing group values form
    a group of their own; empty bands are not listed. Groups with fewer than ``min_cell``
    records trigger an :class:`AnonymisationWarning` naming them (``min_cell=0`` disables).
    """
    by = require_columns(df, by, parameter="by")
    values = [] if values is None else values
    values = [values] if isinstance(values, str) else list(values)
    if isinstance(stats, str):
        stats = [stats]
    stats = [require_choice("stats", stat, STATS) for stat in stats]
    if not stats:
        raise ParameterError(f"Parameter 'stats' is empty: choose among {', '.join(STATS)}.")
    value_stats = [stat for stat in stats if stat != "count"]
    if value_stats or values:
        values = require_columns(df, values, parameter="values")
    overlap = sorted(set(by) & set(values))
    if overlap:
        raise ParameterError(
            f"Column(s) {overlap} are both grouped ('by') and summarised ('values'); "
            "choose one role for each column."
        )
    min_cell = require_int("min_cell", min_cell, minimum=0)

    work = pd.DataFrame(index=df.index)
    for column in by:
        work[column] = df[column]
    for column in values:
        numbers = require_numeric(df, column, technique="Aggregation")
        # keep integer sums integers; text that reads as numbers is converted
        work[column] = df[column] if pd.api.types.is_numeric_dtype(df[column]) else numbers
    for column, band in (bands or {}).items():
        if column not in by:
            raise ParameterError(
                f"Parameter 'bands' names column '{column}', which is not in 'by' ({by}). "
                "Only grouping columns can be banded."
            )
        work[column] = _banded(df, column, band)

    grouped = work.groupby(by, sort=True, dropna=False, observed=True)
    parts = []
    if "count" in stats:
        parts.append(grouped.size().rename("count"))
    for column in values:
        for stat in value_stats:
            parts.append(grouped[column].agg(stat).rename(f"{column}_{stat}"))
    result = pd.concat(parts, axis=1).reset_index()
    for column in bands or {}:  # band labels as plain text; rows are already in band order
        result[column] = result[column].astype("str")

    if min_cell:
        sizes = grouped.size().to_numpy()
        small = np.flatnonzero(sizes < min_cell)
        if small.size:
            # Rows of the result, never their values: a warning reaches stderr and logs,
            # and a small group's values are what could identify someone.
            rows = ", ".join(f"{row + 1} ({sizes[row]} records)" for row in small[:10])
            more = f" and {small.size - 10} more" if small.size > 10 else ""
            warnings.warn(
                AnonymisationWarning(
                    f"{small.size} group(s) have fewer than {min_cell} records and could "
                    f"identify someone: row(s) {rows}{more} of the aggregated table. Merge "
                    "them (wider bands) or suppress them before release (PDPC guide, Annex A: "
                    "Data aggregation)."
                ),
                stacklevel=2,
            )
    return result


def _banded(df: pd.DataFrame, column: str, band: float | Sequence[float]) -> pd.Series:
    """The column as ordered categories of bands, ordered by their smallest value."""
    if isinstance(band, Real) and not isinstance(band, bool):
        labels = generalise_bands(df, column, width=band)[column]
    elif isinstance(band, Iterable) and not isinstance(band, str):
        labels = generalise_edges(df, column, edges=list(band))[column]
    else:
        raise ParameterError(
            f"Parameter 'bands' for column '{column}' must be a band width (number) or a "
            f"list of edges, got {band!r}."
        )
    numbers = require_numeric(df, column, technique="Aggregation into bands")
    order = numbers.groupby(labels.to_numpy(), dropna=True).min().sort_values().index.tolist()
    return pd.Series(pd.Categorical(labels, categories=order, ordered=True), index=df.index)
