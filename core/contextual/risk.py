"""Locational disclosure risk LR and its components (Witkowski 2007, Sections 3.b, 4.d).

The matchsets A, sample matches C and population protection E of equation 8 for one release
(:func:`assess`), local suppression until no area is at risk (Section 2), the sweep over every
coarsening and subset of variables (Section 4.b), and personal quasi-identifiers within
contextual matchsets (:func:`combined_view`, Section 3.a). See :mod:`core.contextual`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from core.contextual.coding import measure_codes
from core.contextual.data import ContextualData, area_key_text, checked_columns, preview_values
from core.contextual.options import Coarsening, Thresholds, sweep_options
from core.errors import ParameterError
from core.measures.codes import combined_codes
from core.validation import require_columns


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
    return [measure_codes(data, c, option) for c in columns]


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
    columns = checked_columns(data, columns)
    codes = _codes_for(data, columns, coarsening)
    if len(suppressed_areas):
        if not data.keyed:
            raise ParameterError(
                "Suppressing areas needs an area key in the respondent table; without one, "
                "suppress the contextual values in the records themselves."
            )
        keys = pd.Index(data.areas[data.area_key])
        wanted = area_key_text(pd.Series(list(suppressed_areas)))
        position = keys.get_indexer(wanted)
        if (position < 0).any():
            raise ParameterError(
                f"Suppressed area(s) {preview_values(wanted[position < 0].tolist())} are not "
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
        per_column = {c: measure_codes(data, c, option) for c in columns}
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
    codes = _codes_for(data, checked_columns(data, columns), coarsening or Coarsening())
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
