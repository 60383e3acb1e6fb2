"""Locational disclosure risk of area-level (contextual) variables.

Source: Witkowski (2007), *Disclosure risk of contextual data: the locational risk of survey
respondents*, Section 3.b.
Data producers often attach the characteristics of the area a respondent lives in (share in
poverty, median income of the subzone...) instead of the area code. The paper shows that
these contextual values can pinpoint the area, and so the person. Its limited hierarchical
matching algorithm (Section 3.b, equations 6-10) has three components, each with a threshold:

- **A_j, contextual matchsets** (Section 3.a, 4.d): an area's *matchset* is the set of areas
  of the same kind, among *all* areas (the intruder's master file), that share its released
  contextual values. The area is easily re-identified (*pinpointed*) when its matchset has
  fewer than T1 = 20 areas (p = 0.05, Section 3.d: "at-risk geographic units are those with 1
  to 19 matches").
- **C_-,j, contextual sample uniques** (Section 3.b, 4.d): a respondent is at risk when fewer
  than T3 = 3 respondents in the survey share their contextual values, "even when their
  location characteristics are commonly found in the population".
- **E_-,j|J, protection by population size** (Section 3.d, 4.d): respondents living in an area
  of at least T5 = 100,000 people "are assigned a null value of risk, for respondents whose
  contextual characteristics are commonly found in the survey".

Equation 8 combines them: the contextual values are safe for a respondent when
``(A and C) or (C and E)``, i.e. ``C and (A or E)``. So a respondent is **at risk** when::

    sample_matches < T3   or   (area_matches < T1  and  population < T5)

and the headline **locational disclosure risk LR** (equation 6, Section 4.d) is the
(optionally weighted) share of respondents at risk. The paper reads LR also as the local
suppression rate: the share of respondents whose contextual data may not be released
(Section 2 and 5).

The full algorithm (equation 3) adds personal quasi-identifiers: C_i,j counts respondents
sharing personal *and* contextual values. :func:`combined_view` computes that k within each
contextual matchset (B_i,j and D_i,j need population data and are not computed).

Coarsening (Section 4.b, endnote 2): *absolute recoding* into 1%, 5%, 10%, 15%, 20% categories
or Top-25% / Bottom-25% / Other, and *percentile recoding* (e.g. deciles, cut points taken over
the population of areas); *local suppression* of the contextual values of at-risk areas
(Section 2). Each is a recipe step (:func:`recode_absolute`, :func:`recode_percentile`,
:func:`suppress_contextual`). :func:`sweep` gives LR for every coarsening option and every
subset of contextual variables (the paper's experimental design, Section 4.b).

Everything is computed on integer codes at area level: respondents in the same area share its
contextual values, so a sweep step costs a few ``np.bincount`` calls over the areas.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from core.errors import ColumnNotFoundError, ParameterError
from core.measures.codes import combined_codes
from core.validation import (
    require_choice,
    require_columns,
    require_int,
    require_numeric,
    shown_value,
)

#: The paper's default thresholds (Section 3.b, assumptions 3-5; Section 3.d).
T1_DEFAULT = 20
T3_DEFAULT = 3
T5_DEFAULT = 100_000

#: Absolute recoding grades compared in the paper (Section 4.b): width in percentage points.
ABSOLUTE_WIDTHS: tuple[int, ...] = (1, 5, 10, 15, 20)
#: Percentile recoding grades with the same number of categories (Table A-3, endnote 2).
PERCENTILE_GROUPS: tuple[int, ...] = (100, 20, 10, 7, 5)
TOP_BOTTOM = "top_bottom_25"
TOP_BOTTOM_LABELS = ("Bottom-25%", "Other", "Top-25%")
SCALES = ("auto", "percent", "proportion", "range")
METHODS = ("exact", "absolute", "percentile")

_ROUND = 9  # decimals kept before flooring, so 0.29 * 100 / 1 lands in the 29% category


@dataclass(frozen=True)
class Thresholds:
    """T1, T3, T5 of the paper (Section 3.b assumptions, Section 3.d for the defaults)."""

    t1: int = T1_DEFAULT  # "geography population unique": areas in a matchset
    t3: int = T3_DEFAULT  # "person sample unique": respondents sharing contextual values
    t5: float = T5_DEFAULT  # "geographic unit population-size": people in the area

    def __post_init__(self) -> None:
        require_int("t1", self.t1, minimum=1)
        require_int("t3", self.t3, minimum=1)
        if isinstance(self.t5, bool) or not isinstance(self.t5, (int, float)) or self.t5 < 0:
            raise ParameterError(f"Parameter 't5' must be a population size >= 0, got {self.t5!r}.")


@dataclass(frozen=True)
class Coarsening:
    """One way of releasing the contextual values (Section 4.b; endnote 2).

    ``method``: ``"exact"`` (values as they are), ``"absolute"`` (``width`` = 1, 5, 10, 15,
    20 percentage points, or ``"top_bottom_25"``) or ``"percentile"`` (``groups`` = 10 for
    deciles..., or ``"top_bottom_25"`` for bottom quartile / middle / top quartile).
    """

    method: str = "exact"
    width: float | str | None = None
    groups: int | str | None = None

    def __post_init__(self) -> None:
        require_choice("method", self.method, METHODS)
        if self.method == "absolute":
            _check_width(self.width)
        if self.method == "percentile":
            _check_groups(self.groups)

    @property
    def label(self) -> str:
        """The paper's name for the grade: '10%', 'Top/Bottom-25%', 'deciles (10)'."""
        if self.method == "exact":
            return "exact values"
        grade = self.width if self.method == "absolute" else self.groups
        if grade == TOP_BOTTOM:
            return "Top/Bottom-25%"
        if self.method == "absolute":
            return f"{grade:g}%"
        return f"{grade} groups"

    @property
    def categories(self) -> int | None:
        """Categories per variable (the paper's "metric spaces", Section 4.b)."""
        if self.method == "exact":
            return None
        grade = self.width if self.method == "absolute" else self.groups
        if grade == TOP_BOTTOM:
            return 3
        return math.ceil(100 / float(grade)) if self.method == "absolute" else int(grade)


def _check_width(width: object) -> None:
    if width == TOP_BOTTOM:
        return
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not 0 < width <= 100:
        raise ParameterError(
            f"Parameter 'width' must be a category width in percentage points between 0 and 100 "
            f"(the paper uses 1, 5, 10, 15, 20) or {TOP_BOTTOM!r}, got {width!r}."
        )


def _check_groups(groups: object) -> None:
    if groups == TOP_BOTTOM:
        return
    require_int("groups", groups, minimum=2)


def sweep_options() -> list[Coarsening]:
    """The options of the paper's experiment (Section 4.b, Table A-3), finest first."""
    options = [Coarsening("exact")]
    options += [Coarsening("absolute", width=w) for w in (*ABSOLUTE_WIDTHS, TOP_BOTTOM)]
    options += [Coarsening("percentile", groups=g) for g in (*PERCENTILE_GROUPS, TOP_BOTTOM)]
    return options


# --------------------------------------------------------------------------- inputs


def _preview_values(values: Sequence[object], limit: int = 5) -> str:
    values = [str(v) for v in values]
    shown = ", ".join(repr(v) for v in values[:limit])
    return shown + (f", ... ({len(values) - limit} more)" if len(values) > limit else "")


def _preview_rows(rows: Sequence[int], limit: int = 5) -> str:
    shown = ", ".join(str(r) for r in rows[:limit])
    return shown + (f", ... ({len(rows) - limit} more)" if len(rows) > limit else "")


def _key_text(series: pd.Series) -> pd.Series:
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
    text = _key_text(keys)
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
        text = _key_text(keys)
        position = pd.Index(table[area_key]).get_indexer(text)
        absent = position < 0
        if absent.any():
            missing = pd.unique(text[absent])
            row = int(np.flatnonzero(absent)[0]) + 1
            raise ParameterError(
                f"{int(absent.sum())} respondent(s) live in {len(missing)} area(s) that are not in "
                f"the area table: {_preview_values(missing)} (first in row {row}, column "
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


# --------------------------------------------------------------------------- coarsening


@dataclass(frozen=True)
class Scale:
    """What 0% and 100% mean for a measure when recoding into absolute categories."""

    lower: float
    upper: float
    kind: str  # percent, proportion or range


def infer_scale(values: pd.Series | np.ndarray, scale: str = "auto") -> Scale:
    """Shares in 0-1 are proportions, in 0-100 percentages, anything else spans its range.

    The paper recodes percentages (Section 4.b). For other measures (median income) the
    categories are shares of the observed range over all areas ("range").
    """
    require_choice("scale", scale, SCALES)
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    lo, hi = (float(v.min()), float(v.max())) if v.size else (0.0, 1.0)
    if scale == "auto":
        scale = (
            "proportion" if lo >= 0 and hi <= 1 else "percent" if lo >= 0 and hi <= 100 else "range"
        )
    if scale == "proportion":
        return Scale(0.0, 1.0, "proportion")
    if scale == "percent":
        return Scale(0.0, 100.0, "percent")
    if hi <= lo:
        hi = lo + 1.0
    return Scale(lo, hi, "range")


def _percent_of_scale(values: np.ndarray, scale: Scale) -> np.ndarray:
    return np.round((values - scale.lower) / (scale.upper - scale.lower) * 100.0, _ROUND)


def absolute_codes(values: np.ndarray, width: float | str, scale: Scale) -> np.ndarray:
    """Category number of each value under absolute recoding (Section 4.b table).

    ``width`` w gives categories [0, w), [w, 2w), ... with the last one closed at 100%
    (15%: 0-14, ..., 75-89, 90-100). ``"top_bottom_25"``: 0 = below 25%, 2 = 75% or more,
    1 = other. Values outside the scale are top/bottom coded. NaN gives -1.
    """
    values = np.asarray(values, dtype=float)
    pct = _percent_of_scale(values, scale)
    if width == TOP_BOTTOM:
        codes = np.where(pct < 25, 0, np.where(pct >= 75, 2, 1))
    else:
        n_bins = math.ceil(100 / float(width))
        codes = np.clip(np.floor(np.round(pct / float(width), _ROUND)), 0, n_bins - 1)
    return np.where(np.isnan(values), -1, codes).astype(np.int64)


def percentile_edges(values: pd.Series | np.ndarray, groups: int | str) -> list[float]:
    """Cut points of percentile recoding over the areas (endnote 2).

    With n areas sorted, group j starts at the ceil(j * n / g)-th value, so with distinct
    values every group has floor(n/g) or ceil(n/g) areas. ``"top_bottom_25"``: cuts at the
    25th and 75th percentiles (bottom quartile, middle half, top quartile).
    """
    _check_groups(groups)
    v = np.sort(np.asarray(values, dtype=float))
    v = v[~np.isnan(v)]
    if v.size == 0:
        raise ParameterError("Percentile recoding needs at least one value to take cut points.")
    n = v.size
    fractions = (0.25, 0.75) if groups == TOP_BOTTOM else [j / groups for j in range(1, groups)]
    positions = [min(math.ceil(round(f * n, _ROUND)), n - 1) for f in fractions]
    return [float(v[p]) for p in positions]


def percentile_codes(values: np.ndarray, edges: Sequence[float]) -> np.ndarray:
    """Group number of each value given the cut points (a value equal to a cut goes up)."""
    values = np.asarray(values, dtype=float)
    codes = np.searchsorted(np.asarray(edges, dtype=float), values, side="right")
    return np.where(np.isnan(values), -1, codes).astype(np.int64)


def _exact_codes(
    area_values: np.ndarray, group_values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    both = np.concatenate([area_values, group_values])
    codes, _ = pd.factorize(both, use_na_sentinel=True)
    codes = codes.astype(np.int64)
    return codes[: area_values.size], codes[area_values.size :]


def _column_codes(
    data: ContextualData, column: str, option: Coarsening
) -> tuple[np.ndarray, np.ndarray]:
    """Codes of one measure for all areas and for the respondent groups (-1 = suppressed)."""
    area = data.areas[column].to_numpy(dtype=float)
    group = data.group_values[column].to_numpy(dtype=float)
    if option.method == "exact":
        return _exact_codes(area, group)
    if option.method == "absolute":
        scale = infer_scale(area)
        return absolute_codes(area, option.width, scale), absolute_codes(group, option.width, scale)
    edges = percentile_edges(area, option.groups)
    return percentile_codes(area, edges), percentile_codes(group, edges)


# --------------------------------------------------------------------------- measures


@dataclass(frozen=True)
class _Counts:
    area_matches: np.ndarray  # per group: areas sharing its released values (A)
    sample_matches: np.ndarray  # per group: respondents sharing them (C)
    group_population: np.ndarray  # own area's population, or smallest in matchset
    suppressed: np.ndarray  # per group: all contextual values withheld
    area_matchset: np.ndarray  # matchset id per area
    area_matchset_size: np.ndarray  # per area


def _counts(data: ContextualData, codes: Sequence[tuple[np.ndarray, np.ndarray]]) -> _Counts:
    n_areas = len(data.areas)
    n_groups = data.group_count.size
    key = np.zeros(n_areas + n_groups, dtype=np.int64)
    radix = 1
    for area_codes, group_codes in codes:
        c = np.concatenate([area_codes, group_codes]) + 1  # 0 = suppressed
        card = int(c.max()) + 1 if c.size else 1
        if radix * card >= 2**62:
            key, radix = _dense(key)
        key = key * card + c
        radix *= card
    combo, n_combo = _dense(key)
    area_combo, group_combo = combo[:n_areas], combo[n_areas:]
    area_per_combo = np.bincount(area_combo, minlength=n_combo)
    resp_per_combo = np.bincount(group_combo, weights=data.group_count, minlength=n_combo)
    suppressed = np.ones(n_groups, dtype=bool)
    for _, group_codes in codes:
        suppressed &= group_codes < 0
    population = data.areas[data.population].to_numpy(dtype=float)
    if data.keyed:
        group_population = population[data.group_area]
    else:  # Section 3.b: the area is unknown; the smallest area of the matchset is assumed
        smallest = np.full(n_combo, np.inf)
        np.minimum.at(smallest, area_combo, population)
        group_population = np.where(np.isinf(smallest), 0.0, smallest)[group_combo]
    return _Counts(
        area_matches=area_per_combo[group_combo],
        sample_matches=resp_per_combo[group_combo].astype(np.int64),
        group_population=group_population,
        suppressed=suppressed,
        area_matchset=area_combo,
        area_matchset_size=area_per_combo[area_combo],
    )


def _dense(key: np.ndarray) -> tuple[np.ndarray, int]:
    dense, uniques = pd.factorize(key)
    return dense.astype(np.int64), len(uniques)


def _at_risk(counts: _Counts, t: Thresholds) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per group: pinpointed (not A), sample unique (not C), at risk (not eq. 8)."""
    pinpointed = counts.area_matches < t.t1
    sample_unique = counts.sample_matches < t.t3
    protected = counts.group_population >= t.t5
    at_risk = (sample_unique | (pinpointed & ~protected)) & ~counts.suppressed
    return pinpointed & ~counts.suppressed, sample_unique & ~counts.suppressed, at_risk


@dataclass(frozen=True)
class LocationalRisk:
    """The paper's components and LR for one release of the contextual values (Section 4.d).

    ``areas`` has one row per area (all of them): key, population, respondents, matchset id
    and size (A), sample matches (C, for areas with respondents), and the flags
    ``pinpointed`` (fewer than T1 look-alikes), ``sample_unique`` (fewer than T3 respondents
    share the values), ``protected`` (population >= T5) and ``at_risk``.
    """

    contextual: tuple[str, ...]
    coarsening: Coarsening
    thresholds: Thresholds
    lr: float  # weighted share of respondents at risk (equation 6)
    n_respondents: int
    n_areas: int
    pinpointed_areas: int  # areas in matchsets smaller than T1, among all areas (Figure A, bar 1)
    respondents_in_pinpointed: float  # share of respondents whose area is pinpointed (A only)
    respondents_sample_unique: float  # share failing C
    respondents_pinpointed_or_unique: float  # share failing A or C (before E)
    respondents_protected: float  # share pinpointed but protected by population (E)
    record_at_risk: np.ndarray = field(repr=False)  # per respondent (positional)
    areas: pd.DataFrame = field(repr=False)

    @property
    def pinpointed_share(self) -> float:
        """Share of all areas that are easily re-identified (geography level, Section 5)."""
        return self.pinpointed_areas / self.n_areas if self.n_areas else 0.0

    def at_risk_areas(self) -> list[str]:
        """Keys of the areas whose respondents are at risk: candidates for suppression."""
        rows = self.areas[self.areas["at_risk"]]
        return rows.iloc[:, 0].astype("str").tolist()


def _codes_for(
    data: ContextualData, columns: Sequence[str], option: Coarsening
) -> list[tuple[np.ndarray, np.ndarray]]:
    return [_column_codes(data, c, option) for c in columns]


def assess(
    data: ContextualData,
    *,
    coarsening: Coarsening | None = None,
    columns: Sequence[str] | None = None,
    thresholds: Thresholds | None = None,
    suppressed_areas: Sequence[object] = (),
) -> LocationalRisk:
    """LR and its components for one coarsening of the contextual values (Sections 3.b, 4.d).

    ``columns`` defaults to all contextual columns of ``data``. ``suppressed_areas`` (keys)
    have their contextual values withheld in the release (local suppression, Section 2): their
    respondents are not at risk and no longer count as sample matches of anyone.
    """
    coarsening = coarsening or Coarsening()
    thresholds = thresholds or Thresholds()
    columns = _check_subset(data, columns)
    codes = _codes_for(data, columns, coarsening)
    if len(suppressed_areas):
        if not data.keyed:
            raise ParameterError(
                "Suppressing areas needs an area key in the respondent table; without one, "
                "suppress the contextual values in the records themselves."
            )
        keys = pd.Index(data.areas[data.area_key])
        wanted = _key_text(pd.Series(list(suppressed_areas)))
        position = keys.get_indexer(wanted)
        if (position < 0).any():
            raise ParameterError(
                f"Suppressed area(s) {_preview_values(wanted[position < 0].tolist())} are not "
                "in the area table."
            )
        hide = np.isin(data.group_area, position)
        codes = [(a, np.where(hide, -1, g)) for a, g in codes]
    counts = _counts(data, codes)
    pinpointed, sample_unique, at_risk = _at_risk(counts, thresholds)
    w = data.group_weight
    total = float(w.sum())

    def share(mask: np.ndarray) -> float:
        return float(w[mask].sum() / total) if total > 0 else 0.0

    protected = pinpointed & ~sample_unique & (counts.group_population >= thresholds.t5)
    table = data.areas[[data.area_key, data.population, *columns]].copy()
    table["matchset"] = counts.area_matchset
    table["matchset_size"] = counts.area_matchset_size
    table["pinpointed"] = counts.area_matchset_size < thresholds.t1
    respondents = np.zeros(len(table), dtype=np.int64)
    sample = np.zeros(len(table), dtype=np.int64)
    risk = np.zeros(len(table), dtype=bool)
    if data.keyed:
        respondents[data.group_area] = data.group_count
        sample[data.group_area] = counts.sample_matches
        risk[data.group_area] = at_risk
    table["respondents"] = respondents
    table["sample_matches"] = sample
    table["sample_unique"] = (respondents > 0) & (sample < thresholds.t3)
    table["protected"] = table[data.population].to_numpy() >= thresholds.t5
    table["at_risk"] = risk
    return LocationalRisk(
        contextual=tuple(columns),
        coarsening=coarsening,
        thresholds=thresholds,
        lr=share(at_risk),
        n_respondents=data.n_respondents,
        n_areas=len(table),
        pinpointed_areas=int(table["pinpointed"].sum()),
        respondents_in_pinpointed=share(pinpointed),
        respondents_sample_unique=share(sample_unique),
        respondents_pinpointed_or_unique=share(pinpointed | sample_unique),
        respondents_protected=share(protected),
        record_at_risk=at_risk[data.group_of_record],
        areas=table,
    )


def suppress_until_safe(
    data: ContextualData,
    *,
    coarsening: Coarsening | None = None,
    columns: Sequence[str] | None = None,
    thresholds: Thresholds | None = None,
    max_rounds: int = 20,
) -> tuple[list[str], LocationalRisk]:
    """Local suppression of at-risk areas, repeated until none is left (Section 2).

    Withholding one area's values can leave a look-alike area with fewer than T3 sample
    matches, so the rule is applied again on what is released. Returns the suppressed area
    keys and the risk after suppression. The share of respondents suppressed is the paper's
    "suppression rate" (Section 5).
    """
    suppressed: list[str] = []
    result = assess(data, coarsening=coarsening, columns=columns, thresholds=thresholds)
    for _ in range(max_rounds):
        new = result.at_risk_areas()
        if not new:
            break
        suppressed += new
        result = assess(
            data,
            coarsening=coarsening,
            columns=columns,
            thresholds=thresholds,
            suppressed_areas=suppressed,
        )
    return suppressed, result


def _in_words(names: Sequence[object]) -> str:
    """Column names as a person lists them: 'a', 'b' and 'c' (not a Python list)."""
    quoted = [f"'{name}'" for name in names]
    if len(quoted) < 2:
        return "".join(quoted) or "(none)"
    return f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _check_subset(data: ContextualData, columns: Sequence[str] | None) -> list[str]:
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


# --------------------------------------------------------------------------- sweep


def sweep(
    data: ContextualData,
    *,
    thresholds: Thresholds | None = None,
    options: Sequence[Coarsening] | None = None,
    subsets: bool = True,
    max_subset_variables: int = 12,
) -> pd.DataFrame:
    """LR for every coarsening option and every non-empty subset of the contextual columns.

    The paper's experiment (Section 4.b) varies exactly these: the number and choice of
    contextual keys and the coarseness of their measurement. One row per (subset, option):
    ``variables``, ``n_variables``, ``method``, ``grade``, ``categories``, ``order`` (finest
    first, for charts), ``lr``, ``pinpointed_areas``, ``pinpointed_share``,
    ``respondents_in_pinpointed``, ``respondents_sample_unique``.
    """
    thresholds = thresholds or Thresholds()
    options = list(options) if options is not None else sweep_options()
    columns = list(data.contextual)
    if subsets and len(columns) > max_subset_variables:
        raise ParameterError(
            f"{len(columns)} contextual columns give {2 ** len(columns) - 1} subsets; choose at "
            f"most {max_subset_variables} columns for the subset sweep."
        )
    all_subsets = (
        [s for r in range(1, len(columns) + 1) for s in itertools.combinations(columns, r)]
        if subsets
        else [tuple(columns)]
    )
    w = data.group_weight
    total = float(w.sum()) or 1.0
    rows = []
    for order, option in enumerate(options):
        per_column = {c: _column_codes(data, c, option) for c in columns}
        for subset in all_subsets:
            counts = _counts(data, [per_column[c] for c in subset])
            pinpointed, sample_unique, at_risk = _at_risk(counts, thresholds)
            pinpointed_areas = int(np.count_nonzero(counts.area_matchset_size < thresholds.t1))
            rows.append(
                (
                    " + ".join(subset),
                    len(subset),
                    option.method,
                    option.label,
                    option.categories,
                    order,
                    float(w[at_risk].sum() / total),
                    pinpointed_areas,
                    pinpointed_areas / len(data.areas),
                    float(w[pinpointed].sum() / total),
                    float(w[sample_unique].sum() / total),
                )
            )
    return pd.DataFrame(
        rows,
        columns=[
            "variables",
            "n_variables",
            "method",
            "grade",
            "categories",
            "order",
            "lr",
            "pinpointed_areas",
            "pinpointed_share",
            "respondents_in_pinpointed",
            "respondents_sample_unique",
        ],
    )


# --------------------------------------------------------------------------- combined view


@dataclass(frozen=True)
class CombinedView:
    """Personal quasi-identifiers within contextual matchsets (Section 3.a, C_i,j).

    ``k`` is the smallest number of respondents sharing personal *and* released contextual
    values; ``lr`` applies equation 8 with C_i,j in place of C_-,j (B_i,j and D_i,j, which
    need population data, are not computed). ``matchsets`` has one row per contextual
    matchset with respondents: its areas, respondents and smallest k.
    """

    quasi_identifiers: tuple[str, ...]
    k: int
    records_below_t3: int
    lr: float
    lr_contextual_only: float
    record_k: np.ndarray = field(repr=False)
    matchsets: pd.DataFrame = field(repr=False)


def combined_view(
    data: ContextualData,
    records: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    coarsening: Coarsening | None = None,
    columns: Sequence[str] | None = None,
    thresholds: Thresholds | None = None,
) -> CombinedView:
    """k within each contextual matchset, and LR with personal identifiers (Section 3.a).

    ``records`` must be the table ``data`` was prepared from (same rows, same order).
    """
    thresholds = thresholds or Thresholds()
    quasi_identifiers = require_columns(records, quasi_identifiers, parameter="quasi_identifiers")
    if len(records) != data.n_respondents:
        raise ParameterError(
            f"The respondent table has {len(records)} rows but the contextual data was prepared "
            f"from {data.n_respondents}: pass the same table to prepare() and combined_view()."
        )
    base = assess(data, coarsening=coarsening, columns=columns, thresholds=thresholds)
    codes = _codes_for(data, _check_subset(data, columns), coarsening or Coarsening())
    counts = _counts(data, codes)
    # contextual combination per group: (areas in matchset, sample matches) identify it only
    # jointly with the codes, so rebuild a dense combination id per group from the codes
    group_key, _ = combined_codes(
        pd.DataFrame({i: g for i, (_, g) in enumerate(codes)}), list(range(len(codes)))
    )
    frame = records[quasi_identifiers].reset_index(drop=True).copy()
    frame["__context__"] = group_key[data.group_of_record]
    classes, n_classes = combined_codes(frame, ["__context__", *quasi_identifiers])
    record_k = np.bincount(classes, minlength=n_classes)[classes]
    g = data.group_of_record
    unsafe_c = record_k < thresholds.t3
    pinpointed = counts.area_matches[g] < thresholds.t1
    protected = counts.group_population[g] >= thresholds.t5
    at_risk = (unsafe_c | (pinpointed & ~protected)) & ~counts.suppressed[g]
    weights = data.group_weight / np.maximum(data.group_count, 1)
    wr = weights[g]
    total = float(wr.sum()) or 1.0
    per_record = pd.DataFrame(
        {"matchset": frame["__context__"], "k": record_k, "area_matches": counts.area_matches[g]}
    )
    matchsets = (
        per_record.groupby("matchset", sort=False)
        .agg(areas=("area_matches", "first"), respondents=("k", "size"), min_k=("k", "min"))
        .reset_index()
        .sort_values(["min_k", "areas"])
    )
    return CombinedView(
        quasi_identifiers=tuple(quasi_identifiers),
        k=int(record_k.min()) if record_k.size else 0,
        records_below_t3=int(unsafe_c.sum()),
        lr=float(wr[at_risk].sum() / total),
        lr_contextual_only=base.lr,
        record_k=record_k,
        matchsets=matchsets.reset_index(drop=True),
    )


# --------------------------------------------------------------------------- recipe steps


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def recode_absolute(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    width: float | str,
    scale: str = "auto",
    bounds: Mapping[str, Sequence[float]] | None = None,
) -> pd.DataFrame:
    """Absolute recoding of contextual measures (Witkowski 2007, Section 4.b).

    ``width`` in percentage points (1, 5, 10, 15, 20) gives labels ``"[70, 80)"`` (the last
    category closed: ``"[90, 100]"``); ``"top_bottom_25"`` gives Bottom-25% / Other /
    Top-25%. ``scale``: ``"percent"`` (0-100), ``"proportion"`` (0-1), ``"range"``
    (``bounds[column] = [lower, upper]``, by default the column's min and max) or ``"auto"``.
    Empty values stay empty. Returns a new table; the input is not changed.
    """
    _check_width(width)
    columns = require_columns(df, columns, parameter="columns")
    out = df.copy()
    for column in columns:
        values = require_numeric(df, column, technique="Absolute recoding").to_numpy()
        if bounds and column in bounds:
            lower, upper = (float(b) for b in bounds[column])
            if not upper > lower:
                raise ParameterError(
                    f"bounds for '{column}' must be [lower, upper] with upper > lower."
                )
            sc = Scale(lower, upper, "range")
        else:
            sc = infer_scale(values, scale)
        codes = absolute_codes(values, width, sc)
        if width == TOP_BOTTOM:
            labels = list(TOP_BOTTOM_LABELS)
        else:
            n_bins = math.ceil(100 / float(width))
            span = (sc.upper - sc.lower) / 100.0
            cuts = [sc.lower + i * float(width) * span for i in range(n_bins)] + [sc.upper]
            labels = [
                f"[{_fmt(cuts[i])}, {_fmt(cuts[i + 1])}{']' if i == n_bins - 1 else ')'}"
                for i in range(n_bins)
            ]
        text = np.asarray(labels, dtype=object)[np.maximum(codes, 0)]
        out[column] = pd.Series(np.where(codes < 0, None, text), index=df.index).astype("str")
    return out


def recode_percentile(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    groups: int | str = 10,
    edges: Mapping[str, Sequence[float]] | None = None,
) -> pd.DataFrame:
    """Percentile recoding of contextual measures (Witkowski 2007, endnote 2).

    ``edges[column]`` are the cut points, taken over the population of areas (use
    :func:`percentile_edges` on the area table, as the dashboard does); without them the cut
    points come from the values in ``df`` itself. Labels: ``"P3 of 10 [66.15, 76.14)"``.
    """
    _check_groups(groups)
    columns = require_columns(df, columns, parameter="columns")
    out = df.copy()
    n_groups = 3 if groups == TOP_BOTTOM else int(groups)
    for column in columns:
        values = require_numeric(df, column, technique="Percentile recoding").to_numpy()
        cuts = (
            list(edges[column]) if edges and column in edges else percentile_edges(values, groups)
        )
        if len(cuts) != n_groups - 1 or any(b < a for a, b in itertools.pairwise(cuts)):
            raise ParameterError(
                f"Percentile recoding of '{column}' into {n_groups} groups needs {n_groups - 1} "
                f"increasing cut points, got {cuts!r}."
            )
        codes = percentile_codes(values, cuts)
        bounds = ["-inf", *(_fmt(c) for c in cuts), "inf"]
        if groups == TOP_BOTTOM:
            names = list(TOP_BOTTOM_LABELS)
        else:
            names = [f"P{i + 1} of {n_groups}" for i in range(n_groups)]
        labels = [f"{names[i]} [{bounds[i]}, {bounds[i + 1]})" for i in range(n_groups)]
        text = np.asarray(labels, dtype=object)[np.maximum(codes, 0)]
        out[column] = pd.Series(np.where(codes < 0, None, text), index=df.index).astype("str")
    return out


def suppress_contextual(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    area_column: str,
    areas: Sequence[object],
) -> pd.DataFrame:
    """Local suppression: empty the contextual values of respondents in ``areas`` (Section 2).

    The paper withholds the contextual data of geographic units that are still easily
    pinpointed after recoding; :func:`suppress_until_safe` finds them.
    """
    columns = require_columns(df, columns, parameter="columns")
    require_columns(df, area_column, parameter="area_column")
    keys = _key_text(df[area_column])
    hide = keys.isin(set(_key_text(pd.Series(list(areas), dtype=object)))).to_numpy()
    out = df.copy()
    for column in columns:
        series = out[column]
        if pd.api.types.is_integer_dtype(series) or pd.api.types.is_bool_dtype(series):
            series = series.astype("float64")
        out[column] = series.mask(hide)
    return out


def coarsening_step(
    data: ContextualData, coarsening: Coarsening, columns: Sequence[str] | None = None
) -> dict[str, object] | None:
    """The recipe step that releases ``columns`` as ``coarsening`` assesses them.

    Scales (absolute) and cut points (percentile) are taken from the area table and written
    into the step, so the released records are recoded exactly as the intruder's master
    file was in :func:`assess`. ``None`` for exact values (nothing to do).
    """
    columns = _check_subset(data, columns)
    if coarsening.method == "exact":
        return None
    if coarsening.method == "absolute":
        bounds = {}
        for c in columns:
            scale = infer_scale(data.areas[c])
            bounds[c] = [float(scale.lower), float(scale.upper)]
        return {
            "step": "contextual_absolute",
            "columns": list(columns),
            "width": coarsening.width,
            "bounds": bounds,
        }
    edges = {c: percentile_edges(data.areas[c], coarsening.groups) for c in columns}
    return {
        "step": "contextual_percentile",
        "columns": list(columns),
        "groups": coarsening.groups,
        "edges": edges,
    }


def suppression_step(
    areas: Sequence[str], columns: Sequence[str], area_column: str
) -> dict[str, object]:
    """The recipe step for local suppression of ``areas`` (Section 2)."""
    return {
        "step": "contextual_suppress",
        "columns": list(columns),
        "area_column": area_column,
        "areas": [str(a) for a in areas],
    }
