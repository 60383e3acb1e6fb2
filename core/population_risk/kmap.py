"""k-map: every released class stands for at least k people of the population.

Estimated as k'-anonymity of the sample (ARX ``KMap`` with the Poisson or zero-truncated
Poisson estimator; El Emam & Dankar 2008, Pannekoek 1999), or counted in a population table
that holds the sample (ARX ``KMap(k, DataSubset)``, Sweeney's k-map), with the population
generalised like the data and coded like the search's lattice (PDPC guide, Annex D).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.codes import combine_codes, combined_codes
from core.population_risk.estimators import check_population
from core.validation import (
    require_choice,
    require_columns,
    require_int,
    require_probability,
    shown_value,
)

KMAP_ESTIMATORS = ("poisson", "zero_truncated_poisson")

#: How messages name a population table (k-map with the population known), so a missing
#: column is not read as missing from the data.
POPULATION_TABLE = "the population table (k-map)"


@dataclass(frozen=True)
class KMapEstimate:
    """k-map estimated as k'-anonymity of the sample: ``derived_k`` and the type I error
    (the probability that a class of ``derived_k`` sample records stands for fewer than k
    people) of ARX's ``KMap`` with an estimator."""

    k: int
    derived_k: int
    type1_error: float
    estimator: str
    significance: float
    population: float


def _poisson_pmf(lam: float, m: int) -> float:
    if lam == 0:
        return 1.0 if m == 0 else 0.0
    return math.exp(m * math.log(lam) - lam - math.lgamma(m + 1))


def kmap_derived_k(
    k: int,
    n_records: int,
    population: float,
    *,
    estimator: str = "zero_truncated_poisson",
    significance: float = 0.01,
) -> KMapEstimate:
    """The k' of ARX ``KMap(k, significance, population, estimator)``: lambda = f k with
    f = n / N; Poisson (Pannekoek's D3): the smallest m with P(X <= m - 2) >= 1 - significance
    ... as ARX counts it (``calculateKPoisson`` returns counter + 1); zero-truncated Poisson
    (El Emam & Dankar's D4, ``calculateKZeroPoisson``). Both stop at k (then the type I
    error is 0), and k' is capped at n and at k."""
    require_int("k", k, minimum=1)
    require_choice("estimator", estimator, KMAP_ESTIMATORS)
    require_probability("significance", significance)
    population = check_population(population, n_records)
    lam = n_records / population * k
    threshold = 1 - significance
    if estimator == "poisson":
        counter, value, cdf = 0, 0.0, 0.0
        while value < threshold:
            cdf += _poisson_pmf(lam, counter)
            value = cdf
            counter += 1
            if counter >= k:
                value = 1.0
                break
        derived = counter + 1
    else:
        v2 = 1 - _poisson_pmf(lam, 0)
        counter, value = 1, 0.0
        while value < threshold:
            value += _poisson_pmf(lam, counter) / v2
            counter += 1
            if counter >= k:
                value = 1.0
                break
        derived = counter
    derived = min(k, min(derived, n_records))
    return KMapEstimate(k, derived, 1 - value, estimator, significance, population)


def kmap_population_counts(
    sample: pd.DataFrame, population: pd.DataFrame, quasi_identifiers: Sequence[str]
) -> np.ndarray:
    """For each sample record, how many records of the population table share its
    quasi-identifier values (ARX ``KMap(k, DataSubset)``, Sweeney's k-map with the
    population known: a class passes when this count is at least k). 0 when the population
    has no such record. Values are compared as text (``39`` and ``39.0`` are one value), as
    they are: generalise both tables alike first (:func:`generalise_population`)."""

    columns = list(quasi_identifiers)
    require_columns(sample, columns, parameter="quasi_identifiers")
    require_columns(population, columns, parameter="quasi_identifiers", table=POPULATION_TABLE)
    both = pd.concat(
        [population[columns].apply(as_text), sample[columns].apply(as_text)], ignore_index=True
    )
    keys, n_keys = combined_codes(both, columns)
    in_population = np.bincount(keys[: len(population)], minlength=n_keys)
    return in_population[keys[len(population) :]]


def k_map_in_population(
    sample: pd.DataFrame, population: pd.DataFrame, quasi_identifiers: Sequence[str]
) -> int:
    """The k of k-map with a population table: the fewest population records sharing a
    sample record's quasi-identifier values (0 for an empty sample)."""
    counts = kmap_population_counts(sample, population, quasi_identifiers)
    return int(counts.min()) if counts.size else 0


def check_sample_in_population(
    sample: pd.DataFrame,
    population: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    counts: np.ndarray | None = None,
) -> None:
    """Refuse a population table that lacks a sample record's quasi-identifier values: the
    released records must be part of the population (ARX ``DataSubset.create`` refuses such
    a subset too), or the table is not the population they were drawn from. ``counts``:
    ``sample`` is a frequency table (rows with count 0 stand for no record)."""
    columns = list(quasi_identifiers)
    require_columns(population, columns, parameter="quasi_identifiers", table=POPULATION_TABLE)
    found = kmap_population_counts(sample, population, columns)
    absent = found == 0
    if counts is not None:
        absent &= np.asarray(counts) > 0
    if absent.any():
        row = int(np.flatnonzero(absent)[0])
        raise ParameterError(
            f"Row {row + 1} of the table has quasi-identifier values that the population "
            f"table lacks ({int(absent.sum()):,} row(s) do): the population table must hold "
            "every released record (the table is a sample of it)."
        )


def kmap_figures(
    table: pd.DataFrame,
    population: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    k: int,
    counts: np.ndarray | None = None,
) -> tuple[dict, dict]:
    """k-map of a released table against the population's records, for the risk report:
    the fewest population records sharing a released record's quasi-identifier values (the
    k of k-map) and the released records whose values fewer than ``k`` population records
    share, with one plain sentence (PDPC guide, Annex D: an attacker must single a person
    out of the population). ``counts``: ``table`` is a frequency table. The population
    must be coded as the released table is (generalise it alike first)."""
    k = require_int("k", k, minimum=1)
    found = kmap_population_counts(table, population, quasi_identifiers)
    weights = np.ones(len(table), dtype=np.int64) if counts is None else np.asarray(counts)
    present = weights > 0
    smallest = int(found[present].min()) if present.any() else 0
    below = int(weights[present & (found < k)].sum())
    figures = {
        "k_map_population_table": smallest,
        "population_table_records": len(population),
        "records_below_k_map": below,
    }
    sentence = (
        f"Every released record's combination of quasi-identifier values is shared by at "
        f"least {smallest:,} of the {len(population):,} people in the population table "
        f"(k-map, Sweeney; ARX's KMap with the population known); {below:,} record(s) "
        f"stand for fewer than {k:,} people, so someone who knows their values narrows them "
        "down to fewer than k people of the population (PDPC guide, Annex D)."
    )
    return figures, {"k_map_population_table": sentence}


def _covered(values: pd.Series, hierarchy: Hierarchy, column: str) -> pd.Series:
    """The population's values as text, each checked against the hierarchy (a value the
    hierarchy lacks cannot be generalised like the data's)."""
    text = as_text(values)
    missing = ~text.isin(hierarchy.levels[0]) & text.notna()
    if missing.any():
        raise ParameterError(
            f"The population table's value {shown_value(text[missing].iloc[0])} in column '{column}' is "
            f"not in the column's hierarchy ({int(missing.sum())} distinct value(s)): add it to "
            "the hierarchy file, or give the population with the same coding as the data."
        )
    return text


def generalise_population(
    population: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    hierarchies: Mapping[str, Hierarchy],
    levels: Mapping[str, int],
) -> pd.DataFrame:
    """The population table's quasi-identifiers, those in ``levels`` generalised to their
    level with the data's ``hierarchies`` (the others kept as text), so that
    :func:`kmap_population_counts` compares it with the data generalised alike."""
    if not isinstance(population, pd.DataFrame):
        raise ParameterError("Parameter 'population_table' must be a table (DataFrame).")
    columns = list(dict.fromkeys([*quasi_identifiers, *levels]))
    require_columns(population, columns, parameter="quasi_identifiers", table=POPULATION_TABLE)
    out = {}
    for column in columns:
        if column in levels:
            if column not in hierarchies:
                raise ParameterError(f"k-map: no hierarchy given for column '{column}'.")
            text = _covered(population[column], hierarchies[column], column)
            out[column] = hierarchies[column].generalise(text, int(levels[column]))
        else:
            out[column] = as_text(population[column])
    return pd.DataFrame(out, index=population.index)


@dataclass(frozen=True)
class PopulationLattice:
    """A population table coded like a sample's lattice, for k-map with the population
    known (ARX ``KMap(k, DataSubset)``) as a search target: the population's distinct
    quasi-identifier combinations (``weights`` records each) and, per column and level, the
    code of each combination's value among the *sample's* codes at that level (-1 when no
    sample value has that generalised value: such a combination matches no sample class at
    that level). A node's sample classes are then counted in the population by one key over
    their representatives and the population's combinations (:meth:`counts`)."""

    codes: tuple[tuple[np.ndarray, ...], ...]  # [column][level] -> code per combination
    cards: tuple[tuple[int, ...], ...]  # [column][level] -> sample's number of codes
    weights: np.ndarray

    @classmethod
    def of(
        cls,
        population: pd.DataFrame,
        hierarchies: Mapping[str, Hierarchy],
        sample_values: Mapping[str, pd.Series],
        sample_codes: Mapping[str, Sequence[np.ndarray]],
    ) -> PopulationLattice:
        """``sample_values[c]``: one value of the sample per unit (any record of it);
        ``sample_codes[c][level]``: the unit's code at that level (the lattice's codes)."""

        columns = list(hierarchies)
        require_columns(population, columns, parameter="quasi_identifiers", table=POPULATION_TABLE)
        if len(population) == 0:
            raise ParameterError("The population table is empty: k-map needs its records.")
        text = pd.DataFrame({c: _covered(population[c], hierarchies[c], c) for c in columns})
        key, n_keys = combined_codes(text, columns)
        first = np.full(n_keys, len(text), dtype=np.int64)
        np.minimum.at(first, key, np.arange(len(text)))
        weights = np.bincount(key, minlength=n_keys).astype(np.int64)
        codes, cards = [], []
        for c in columns:
            hierarchy = hierarchies[c]
            value_code, distinct = pd.factorize(text[c].iloc[first], use_na_sentinel=False)
            sample_text = as_text(sample_values[c])
            per_level = []
            for level in range(hierarchy.height + 1):
                labels = hierarchy.generalise(sample_text, level).to_numpy()
                lookup = pd.Series(np.asarray(sample_codes[c][level]), index=labels)
                lookup = lookup[~lookup.index.duplicated()]
                mine = hierarchy.generalise(pd.Series(distinct), level).to_numpy()
                found = lookup.reindex(mine)
                value_level = found.fillna(-1).to_numpy(dtype=np.int64)
                per_level.append(value_level[value_code])
            codes.append(tuple(per_level))
            cards.append(tuple(int(np.max(lv, initial=-1)) + 1 for lv in sample_codes[c]))
        return cls(tuple(codes), tuple(cards), weights)

    def counts(self, levels: Sequence[int], sample_codes: Sequence[np.ndarray]) -> np.ndarray:
        """Population records of each sample class at ``levels``, the classes given by the
        codes of their representatives (``sample_codes[i]``: column i at its level)."""

        n_sample = len(sample_codes[0]) if sample_codes else 0
        match = np.ones(self.weights.size, dtype=bool)
        for i, level in enumerate(levels):
            match &= self.codes[i][level] >= 0
        coded = []
        for i, level in enumerate(levels):
            both = np.concatenate(
                [np.asarray(sample_codes[i], dtype=np.int64), self.codes[i][level][match]]
            )
            coded.append((both, max(self.cards[i][level], 1)))
        key, n_keys = combine_codes(coded, n_sample + int(match.sum()))
        found = np.bincount(key[n_sample:], weights=self.weights[match], minlength=n_keys)
        return found[key[:n_sample]].astype(np.int64)
