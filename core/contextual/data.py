"""Inputs of the contextual risk: the area table and the respondents linked to it.

Witkowski (2007), Sections 4.c-4.d: every area of the kind (the intruder's master file) with
its measures and population, and each respondent's area (or its contextual values). Checking
and linking are separate from the measures so that every bad input is named in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import ColumnNotFoundError, ParameterError
from core.measures.codes import combined_codes
from core.validation import require_columns, require_numeric, shown_value


def preview_values(values: Sequence[object], limit: int = 5) -> str:
    """The first ``limit`` values quoted, for a message naming what is wrong."""
    values = [str(v) for v in values]
    shown = ", ".join(repr(v) for v in values[:limit])
    return shown + (f", ... ({len(values) - limit} more)" if len(values) > limit else "")


def _preview_rows(rows: Sequence[int], limit: int = 5) -> str:
    shown = ", ".join(str(r) for r in rows[:limit])
    return shown + (f", ... ({len(rows) - limit} more)" if len(rows) > limit else "")


def area_key_text(series: pd.Series) -> pd.Series:
    """Area keys compared as text, so 101 (number) and '101' (text) are the same area."""
    numbers = pd.to_numeric(series, errors="coerce")
    whole = numbers.notna() & (numbers == numbers.round())
    text = series.astype("str").str.strip()
    if whole.all() and series.notna().all():
        return numbers.astype("int64").astype("str")
    return text


def validate_area_table(
    areas: pd.DataFrame, *, area_key: str, contextual: Sequence[str], population: str
) -> pd.DataFrame:
    """Check the area table: one row per area, numeric measures and population (Section 4.d).

    Returns a new frame with the key as text and the measures and population as floats.
    """
    if not isinstance(areas, pd.DataFrame):
        raise ParameterError("The area table must be a table (DataFrame), one row per area.")
    require_columns(areas, area_key, parameter="area_key (in the area table)")
    contextual = require_columns(areas, contextual, parameter="contextual (in the area table)")
    require_columns(areas, population, parameter="population (in the area table)")
    if len(areas) == 0:
        raise ParameterError("The area table is empty: it needs one row per area.")
    keys = areas[area_key]
    if keys.isna().any():
        rows = (np.flatnonzero(keys.isna().to_numpy()) + 1).tolist()
        raise ParameterError(
            f"The area table has {len(rows)} row(s) without an area key in column '{area_key}' "
            f"(row(s) {_preview_rows(rows)}). Fill in the key or remove those rows."
        )
    text = area_key_text(keys)
    duplicated = text.duplicated(keep=False).to_numpy()
    if duplicated.any():
        first = text[duplicated].iloc[0]
        rows = (np.flatnonzero((text == first).to_numpy()) + 1).tolist()
        raise ParameterError(
            f"The area table has {int(text[duplicated].nunique())} duplicated area key(s) in "
            f"column '{area_key}', e.g. {first!r} in rows {_preview_rows(rows)}. It must have "
            "exactly one row per area: remove or merge the duplicates."
        )
    out = pd.DataFrame({area_key: text.to_numpy()})
    for column in [*contextual, population]:
        values = require_numeric(areas, column, technique="The area table")
        missing = values.isna().to_numpy()
        if missing.any():
            row = int(np.flatnonzero(missing)[0]) + 1
            raise ParameterError(
                f"The area table has {int(missing.sum())} empty value(s) in column '{column}', "
                f"the first in row {row} (area {shown_value(text.iloc[row - 1])}). Every area needs every "
                "measure: fill them in from the source tabulation or drop the column."
            )
        out[column] = values.to_numpy()
    if (out[population] < 0).any():
        row = int(np.flatnonzero((out[population] < 0).to_numpy())[0]) + 1
        raise ParameterError(
            f"Population column '{population}' has a negative value in row {row}; populations "
            "must be counts of people (0 or more)."
        )
    return out


@dataclass(frozen=True)
class ContextualData:
    """Validated inputs: areas (all of them) and respondents grouped by what they release.

    With an area key, ``group_area[g]`` is the row of respondent group ``g``'s area in
    ``areas`` (one group per area with respondents). Without one, groups are the distinct
    contextual value combinations found in the records and ``group_area`` is -1.
    """

    areas: pd.DataFrame  # key, contextual measures, population (validated)
    area_key: str
    contextual: tuple[str, ...]
    population: str
    group_of_record: np.ndarray  # group id per respondent (positional)
    group_count: np.ndarray  # respondents per group
    group_weight: np.ndarray  # sum of weights per group
    group_area: np.ndarray  # area row per group, -1 when records carry values, no key
    group_values: pd.DataFrame  # contextual values per group (floats, NaN = suppressed)

    @property
    def keyed(self) -> bool:
        return bool(self.group_area.size == 0 or self.group_area[0] >= 0)

    @property
    def n_respondents(self) -> int:
        return int(self.group_of_record.size)


def prepare(
    records: pd.DataFrame,
    areas: pd.DataFrame,
    *,
    contextual: Sequence[str],
    area_key: str,
    population: str = "population",
    record_key: str | None = None,
    weight: str | None = None,
) -> ContextualData:
    """Validate the record table and the area table and link them (Sections 4.c-4.d).

    ``record_key`` (default: ``area_key``) names the area of each respondent in ``records``;
    their contextual values are then looked up in ``areas``. When ``records`` has no such
    column, they must carry the ``contextual`` columns already merged (numbers; an empty
    value means suppressed), and each respondent is matched to the areas by value.
    ``weight`` optionally names survey weights (Section 4.d: "weighted proportions").
    """
    if not isinstance(records, pd.DataFrame):
        raise ParameterError("The respondent table must be a table (DataFrame).")
    contextual = tuple(require_columns(areas, contextual, parameter="contextual (area table)"))
    table = validate_area_table(
        areas, area_key=area_key, contextual=contextual, population=population
    )
    record_key = area_key if record_key is None else record_key
    n = len(records)
    if weight is not None:
        weights = require_numeric(records, weight, technique="Survey weights").to_numpy()
        if np.isnan(weights).any() or (weights < 0).any():
            raise ParameterError(
                f"Weight column '{weight}' has empty or negative values; weights must be >= 0."
            )
    else:
        weights = np.ones(n)
    if record_key in records.columns:
        keys = records[record_key]
        if keys.isna().any():
            row = int(np.flatnonzero(keys.isna().to_numpy())[0]) + 1
            raise ParameterError(
                f"{int(keys.isna().sum())} respondent(s) have no area in column '{record_key}', "
                f"the first in row {row}. Every respondent needs an area key."
            )
        text = area_key_text(keys)
        position = pd.Index(table[area_key]).get_indexer(text)
        absent = position < 0
        if absent.any():
            missing = pd.unique(text[absent])
            row = int(np.flatnonzero(absent)[0]) + 1
            raise ParameterError(
                f"{int(absent.sum())} respondent(s) live in {len(missing)} area(s) that are not in "
                f"the area table: {preview_values(missing)} (first in row {row}, column "
                f"'{record_key}'). The area table must list every area of that kind, with its "
                "measures and population: add those areas, or check that both tables use the "
                "same area codes."
            )
        group_of_record, uniques = pd.factorize(position)
        group_area = np.asarray(uniques, dtype=np.int64)
        group_values = table.loc[group_area, list(contextual)].reset_index(drop=True)
    else:
        try:
            require_columns(records, contextual, parameter="contextual (respondent table)")
        except ColumnNotFoundError:
            raise ColumnNotFoundError(
                f"The respondent table has neither the area key column '{record_key}' nor all "
                f"contextual columns {_in_words(contextual)}. Give the column that names each "
                "respondent's area, or merge the contextual measures into the records first."
            ) from None
        values = pd.DataFrame(
            {c: require_numeric(records, c, technique="Contextual values") for c in contextual}
        )
        group_of_record, _ = combined_codes(values, contextual)
        first = pd.Series(np.arange(n)).groupby(group_of_record).first().to_numpy()
        group_values = values.iloc[first].reset_index(drop=True)
        group_area = np.full(len(first), -1, dtype=np.int64)
    n_groups = len(group_area)
    group_of_record = np.asarray(group_of_record, dtype=np.int64)
    return ContextualData(
        areas=table,
        area_key=area_key,
        contextual=contextual,
        population=population,
        group_of_record=group_of_record,
        group_count=np.bincount(group_of_record, minlength=n_groups),
        group_weight=np.bincount(group_of_record, weights=weights, minlength=n_groups),
        group_area=group_area,
        group_values=group_values,
    )


def _in_words(names: Sequence[object]) -> str:
    """Column names as a person lists them: 'a', 'b' and 'c' (not a Python list)."""
    quoted = [f"'{name}'" for name in names]
    if len(quoted) < 2:
        return "".join(quoted) or "(none)"
    return f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def checked_columns(data: ContextualData, columns: Sequence[str] | None) -> list[str]:
    """The chosen contextual columns (all by default); unknown ones are named in the error."""
    if columns is None:
        return list(data.contextual)
    columns = [columns] if isinstance(columns, str) else list(columns)
    unknown = [c for c in columns if c not in data.contextual]
    if unknown or not columns:
        raise ParameterError(
            f"Contextual column(s) {unknown or '(none)'} are not among the prepared contextual "
            f"columns {_in_words(data.contextual)}: choose at least one of those."
        )
    return columns
