"""Which quasi-identifier drives the risk: k and the uniques of the table without each one
(PDPC guide, Step 3 and Annex C), counted on the distinct value combinations.

Apart from :mod:`core.measures.classes` because it is a what-if over the columns, not a
property of the table's classes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import zip_longest

import numpy as np
import pandas as pd

from core.measures.classes import EquivalenceClasses
from core.measures.codes import KEY_LIMIT, columns_codes, combine_codes, group_sums, radix_key
from core.validation import (
    require_columns,
)


@dataclass(frozen=True)
class QuasiIdentifierImpact:
    """What happens to k and the uniques when one quasi-identifier is left out."""

    quasi_identifier: str
    k_without: int
    uniques_without: int
    records_below_k_without: int
    distinct_values: int


def quasi_identifier_impact(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    k: int = 5,
    counts: np.ndarray | None = None,
) -> list[QuasiIdentifierImpact]:
    """For each quasi-identifier, the k and uniques of the table without it.

    The quasi-identifier whose removal raises k (or removes most uniques) drives the
    risk: it is the first candidate for generalisation (PDPC guide, Step 3 and Annex C).

    Each column is coded once; the classes without a column are then counted on the
    distinct value combinations (usually far fewer than the rows), weighted by how many
    records share each. ``counts`` says how many records each row of ``df`` stands for
    (a frequency table); ``None`` means one each.
    """
    return classes_and_impact(df, quasi_identifiers, k=k, counts=counts)[1]


def classes_and_impact(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    k: int = 5,
    counts: np.ndarray | None = None,
    impact: bool = True,
) -> tuple[EquivalenceClasses, list[QuasiIdentifierImpact]]:
    """:func:`equivalence_classes` and (``impact=True``) :func:`quasi_identifier_impact`
    from one coding of each column: what the risk report needs."""
    quasi_identifiers = require_columns(df, quasi_identifiers, parameter="quasi_identifiers")
    coded = columns_codes(df, quasi_identifiers, compact=True)
    combination, n_combinations = combine_codes(coded, len(df))
    records = np.bincount(combination, weights=counts, minlength=n_combinations)
    records = records.astype(np.int64)
    classes = EquivalenceClasses(
        tuple(quasi_identifiers),
        combination,
        records,
        None if counts is None else int(records.sum()),
    )
    if not impact:
        return classes, []
    # Any row of a combination represents it: all its rows have the same codes.
    representative = np.zeros(n_combinations, dtype=np.int64)
    representative[combination] = np.arange(len(df), dtype=np.int64)
    combination_codes = [(codes[representative], size) for codes, size in coded]
    del representative
    cardinalities = tuple(size for _, size in coded)
    if math.prod(cardinalities) >= KEY_LIMIT:
        return classes, _impact_of_codes(quasi_identifiers, combination_codes, records, k)
    keys = np.zeros(n_combinations, dtype=np.int64)
    for codes, cardinality in combination_codes:
        keys *= cardinality
        keys += codes
    return classes, impact_of_keys(quasi_identifiers, keys, cardinalities, records, k=k)


def impact_of_keys(
    quasi_identifiers: Sequence[str],
    keys: np.ndarray,
    cardinalities: Sequence[int],
    records: np.ndarray,
    *,
    k: int = 5,
) -> list[QuasiIdentifierImpact]:
    """:func:`quasi_identifier_impact` of the distinct value combinations: ``keys[i]`` is
    combination ``i``'s codes in mixed radix (the first column's most significant, radices
    ``cardinalities``, their product below :data:`KEY_LIMIT`) and ``records[i]`` how many
    records have it (what :func:`core.measures.distributions.classes_and_distribution`
    keeps, so the risk report sorts the records once).

    Each column's code is taken out of the key by division; the keys without it are then
    sorted with their record counts in the low bits (one integer: no argsort, no gather)
    and the runs of equal keys summed. The columns are shared between two threads:
    NumPy's sort and arithmetic release the GIL, so on two cores the sorts overlap.
    """
    n = int(records.sum())
    place = [math.prod(cardinalities[index + 1 :]) for index in range(len(cardinalities))]

    def digit(index: int) -> np.ndarray:
        above = keys // place[index]  # divisions by one number: NumPy's are fast, % is not
        return above - above // cardinalities[index] * cardinalities[index]

    def distinct(codes: np.ndarray, index: int) -> int:
        return int(np.count_nonzero(np.bincount(codes, minlength=cardinalities[index])))

    if len(quasi_identifiers) == 1:
        return [_impact(quasi_identifiers[0], (n, int(n == 1), int(0 < n < k)), keys.size)]
    bits = max(int(records.max()).bit_length(), 1) if records.size else 1
    if not records.size or (math.prod(cardinalities) << bits) >= KEY_LIMIT:
        coded = [(digit(index), cardinalities[index]) for index in range(len(cardinalities))]
        return _impact_of_codes(quasi_identifiers, coded, records, k)
    packed_full = keys << bits
    packed_full |= records

    def without_each(indices: Sequence[int]) -> list[QuasiIdentifierImpact]:
        # Two arrays and a mask for all the columns of this thread: in a fresh process each
        # new array costs the kernel's zeroing of its pages, as much as the arithmetic.
        work, other = np.empty_like(keys), np.empty_like(keys)
        starts = np.empty(keys.size, dtype=bool)
        impacts = []
        for index in indices:
            np.floor_divide(keys, place[index], out=work)  # NumPy divides by one number fast
            np.floor_divide(work, cardinalities[index], out=other)
            other *= cardinalities[index]
            work -= other  # the column's code (% is slow)
            values = distinct(work, index)
            work *= place[index] << bits
            np.subtract(packed_full, work, out=work)  # the key without it, and the counts
            work.sort()
            sizes = _sorted_group_sums(work, bits, keys=other, starts=starts)
            impacts.append(_impact(quasi_identifiers[index], _group_figures(sizes, k), values))
        return impacts

    columns = range(len(quasi_identifiers))
    if len(quasi_identifiers) < 4 or keys.size < 100_000:
        return without_each(columns)
    with ThreadPoolExecutor(max_workers=2) as pool:
        halves = list(pool.map(without_each, (columns[0::2], columns[1::2])))
    return [impact for pair in zip_longest(*halves) for impact in pair if impact is not None]


def _impact_of_codes(
    quasi_identifiers: Sequence[str],
    coded: list[tuple[np.ndarray, int]],
    records: np.ndarray,
    k: int,
) -> list[QuasiIdentifierImpact]:
    """:func:`impact_of_keys` when the keys and counts do not fit one 64-bit integer: the
    key of the other columns is built for each column and its groups summed."""
    n = int(records.sum())
    impacts = []
    for index, (codes, size) in enumerate(coded):
        if len(coded) > 1:
            without = radix_key(coded[:index] + coded[index + 1 :], records.size)
            figures = _group_figures(group_sums(without, records), k)
        else:
            figures = (n, int(n == 1), int(0 < n < k))
        values = int(np.count_nonzero(np.bincount(codes, minlength=size)))
        impacts.append(_impact(quasi_identifiers[index], figures, values))
    return impacts


def _impact(column: str, figures: tuple[int, int, int], distinct_values: int):
    k_without, uniques, below = figures
    return QuasiIdentifierImpact(
        quasi_identifier=column,
        k_without=k_without,
        uniques_without=uniques,
        records_below_k_without=below,
        distinct_values=distinct_values,
    )


def _sorted_group_sums(
    packed: np.ndarray,
    bits: int,
    *,
    keys: np.ndarray | None = None,
    starts: np.ndarray | None = None,
) -> np.ndarray:
    """The sum of the counts of each key in ``packed`` (sorted keys, each shifted left by
    ``bits`` with its count in the low bits). Overwrites ``packed``, and ``keys`` and
    ``starts`` when given (arrays of its size to work in)."""
    keys = np.right_shift(packed, bits, out=keys)
    starts = np.empty(packed.size, dtype=bool) if starts is None else starts
    starts[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=starts[1:])
    packed &= (1 << bits) - 1  # the counts
    return np.add.reduceat(packed, np.flatnonzero(starts))


def _group_figures(sizes: np.ndarray, k: int) -> tuple[int, int, int]:
    """(smallest group, groups of one record, records in groups below ``k``) of ``sizes``."""
    if not sizes.size:
        return 0, 0, 0
    return int(sizes.min()), int(np.count_nonzero(sizes == 1)), int(sizes[sizes < k].sum())
