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
    distinct_values: Sequence[int | None] | None = None,
) -> list[QuasiIdentifierImpact]:
    """:func:`quasi_identifier_impact` of the distinct value combinations: ``keys[i]`` is
    combination ``i``'s codes in mixed radix (the first column's most significant, radices
    ``cardinalities``, their product below :data:`KEY_LIMIT`) and ``records[i]`` how many
    records have it (what :func:`core.measures.distributions.classes_and_distribution`
    keeps, in ascending order, so the risk report sorts the records once).
    ``distinct_values``: how many values each column takes where that is known (else
    ``None``: counted here).

    For each column, the key of the other columns is the key with the column's digit cut
    out (the digits above it move down one place, so it stays below the product of the
    other radices), packed with the record count in the low bits and sorted (one integer:
    no argsort, no gather); the runs of equal keys are then summed through a running
    total. Numbers that fit 32 bits are worked on as such (half the memory traffic, and
    NumPy sorts them about twice as fast). Keys in ascending order stay in order without
    the last column, which then needs no sort. The columns are shared between two threads:
    NumPy's sort and arithmetic release the GIL, so on two cores the sorts overlap.

    The packed counts are cut at ``cap``, the largest number of as many bits as ``k`` (7
    for k = 5), which every figure allows: a group holding a cut count has at least
    ``cap`` >= k records, so it is neither below k nor of one record, and the smallest
    group is exact when it is below ``cap`` (it then holds no cut count, and every other
    group has at least its cut sum). Only when every group has ``cap`` records or more is
    the column counted again with whole counts. Fewer bits keep more columns in 32 bits.
    """
    n = int(records.sum())
    if len(quasi_identifiers) == 1:
        return [_impact(quasi_identifiers[0], (n, int(n == 1), int(0 < n < k)), keys.size)]
    whole_bits = max(int(records.max()).bit_length(), 1) if records.size else 1
    radix = math.prod(cardinalities)
    if not records.size or (radix << whole_bits) >= KEY_LIMIT:
        coded = [
            ((keys // math.prod(cardinalities[index + 1 :])) % cardinality, cardinality)
            for index, cardinality in enumerate(cardinalities)
        ]
        return _impact_of_codes(quasi_identifiers, coded, records, k)
    ascending = bool(np.all(keys[1:] >= keys[:-1]))
    bits = min(whole_bits, max(k, 2).bit_length())
    cap = (1 << bits) - 1 if bits < whole_bits else None

    def width(size: int, count_bits: int) -> np.dtype:
        """The type of the key without a column of ``size`` values, with its count."""
        if radix > _UINT32_END or n >= _UINT32_END:  # the keys or the running total
            return _WIDE
        return _narrowest((radix // size) << count_bits)

    widths = [width(size, bits) for size in cardinalities]
    counts = records if cap is None else np.minimum(records, cap)
    typed = {each: (keys.astype(each), counts.astype(each)) for each in set(widths)}

    def figures_without(
        index: int, typed_keys: np.ndarray, typed_counts: np.ndarray, count_bits: int, arrays
    ) -> tuple[int, tuple[int, int, int]]:
        """(distinct values of the column, the figures of the groups without it)."""
        size = cardinalities[index]
        place = math.prod(cardinalities[index + 1 :])  # of this column's digit
        first, second, third, edges = arrays
        above = np.floor_divide(typed_keys, place, out=first)  # fast: one divisor
        high = np.floor_divide(above, size, out=second)  # the digits above
        code = np.multiply(high, size, out=third)
        np.subtract(above, code, out=code)  # the column's code (% is slow)
        known = None if distinct_values is None else distinct_values[index]
        values = _distinct(code, size) if known is None else known
        # the key without the column: high * place + (keys - above * place)
        np.subtract(above, high, out=above)
        above *= place
        without = np.subtract(typed_keys, above, out=second)
        without <<= count_bits
        without |= typed_counts
        if not (ascending and place == 1):  # without the last column: in order
            without.sort()
        return values, _run_figures(without, count_bits, k, first, third, edges)

    def without_each(indices: Sequence[int]) -> list[QuasiIdentifierImpact]:
        impacts = {}
        edges = np.empty(keys.size + 1, dtype=bool)
        # Three arrays of one width for all this thread's columns, the 32-bit ones first:
        # a fresh process pays the kernel's zeroing of every new array's pages, as much as
        # the arithmetic.
        arrays: dict[np.dtype, tuple] = {}

        def arrays_of(each: np.dtype) -> tuple:
            if each not in arrays:
                arrays.clear()  # the other width's first
                arrays[each] = (*(np.empty(keys.size, dtype=each) for _ in range(3)), edges)
            return arrays[each]

        for index in sorted(indices, key=lambda index: widths[index].itemsize):
            each = widths[index]
            values, figures = figures_without(index, *typed[each], bits, arrays_of(each))
            if cap is not None and figures[0] >= cap:  # the smallest group may hold a cut
                whole = width(cardinalities[index], whole_bits)
                whole_keys = keys.astype(whole, copy=False)
                whole_counts = records.astype(whole, copy=False)
                arguments = (whole_keys, whole_counts, whole_bits, arrays_of(whole))
                figures = figures_without(index, *arguments)[1]
            impacts[index] = _impact(quasi_identifiers[index], figures, values)
        return [impacts[index] for index in indices]

    columns = range(len(quasi_identifiers))
    if len(quasi_identifiers) < 4 or keys.size < 100_000:
        return without_each(columns)
    with ThreadPoolExecutor(max_workers=2) as pool:
        halves = list(pool.map(without_each, (columns[0::2], columns[1::2])))
    return [impact for pair in zip_longest(*halves) for impact in pair if impact is not None]


#: Numbers below this fit an unsigned 32-bit integer.
_UINT32_END = 2**32
_NARROW, _WIDE = np.dtype(np.uint32), np.dtype(np.int64)


def _narrowest(end: int) -> np.dtype:
    """uint32 for numbers below ``end`` when it fits 32 bits, else int64."""
    return _NARROW if end <= _UINT32_END else _WIDE


#: Codes counted at a time by :func:`_distinct` (NumPy's bincount copies any other integer
#: type to its index type first: a slice's copy is reused memory, the whole array's new).
_COUNTED_AT_ONCE = 8192


def _distinct(codes: np.ndarray, size: int) -> int:
    """How many of the values ``0..size-1`` occur in ``codes``."""
    if codes.dtype == np.intp:
        return int(np.count_nonzero(np.bincount(codes, minlength=size)))
    seen = np.zeros(size, dtype=np.intp)
    for start in range(0, codes.size, _COUNTED_AT_ONCE):
        seen += np.bincount(codes[start : start + _COUNTED_AT_ONCE], minlength=size)
    return int(np.count_nonzero(seen))


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


def _run_figures(
    packed: np.ndarray, bits: int, k: int, work: np.ndarray, other: np.ndarray, edges: np.ndarray
) -> tuple[int, int, int]:
    """:func:`_group_figures` of the groups of equal keys in ``packed`` (each key shifted
    left by ``bits`` with its count in the low bits; equal keys next to each other), from
    a running total of the counts read at each group's last entry: no new array of the
    table's size. Overwrites ``packed``, the arrays of its size and type ``work`` and
    ``other``, and ``edges`` (booleans, one more); the running total must fit the type."""
    size = packed.size
    np.right_shift(packed, bits, out=work)
    edges[0] = edges[size] = True
    np.not_equal(work[1:], work[:-1], out=edges[1:size])
    packed &= (1 << bits) - 1  # the counts
    groups = int(np.count_nonzero(edges)) - 1
    if groups == size:  # every group is one combination
        return _group_figures(packed, k, edges)
    running = np.cumsum(packed, out=work)
    totals = np.compress(edges[1:], running, out=other[:groups])  # at each group's end
    sizes = packed[:groups]
    sizes[0] = totals[0]
    np.subtract(totals[1:], totals[:-1], out=sizes[1:])
    return _group_figures(sizes, k, edges)  # the edges are read


def _group_figures(
    sizes: np.ndarray, k: int, flags: np.ndarray | None = None
) -> tuple[int, int, int]:
    """(smallest group, groups of one record, records in groups below ``k``) of ``sizes``;
    ``flags``, booleans at least as many, to work in."""
    if not sizes.size:
        return 0, 0, 0
    flags = np.empty(sizes.size, dtype=bool) if flags is None else flags[: sizes.size]
    ones = int(np.count_nonzero(np.equal(sizes, 1, out=flags)))
    below = int(np.sum(sizes, where=np.less(sizes, k, out=flags), dtype=np.int64))
    return int(sizes.min()), ones, below
