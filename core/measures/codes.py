"""Integer coding: the heart of every measure (STYLE.md "Equivalence classes are computed once
on integer codes").

A column becomes integer codes (``pd.factorize``; a missing value is a category of its own), the
codes of several columns become one combined key in mixed radix, and the key is made dense in
order of first appearance. Every privacy model, risk measure and engine reads these codes, so they
live here with public names rather than inside one measure's module.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd

# Combined keys are built in mixed radix; past this we re-compress with factorize.
KEY_LIMIT = 2**62


def column_codes(series: pd.Series, *, compact: bool = False) -> tuple[np.ndarray, int]:
    """Integer codes of a column; a missing value is a category of its own. ``compact``
    gives them in the smallest integer type that holds them (a Categorical's own codes,
    int8 for fewer than 127 categories; uint8 for up to 256 values) instead of int64: for
    callers that only combine or count them, which then keep an eighth of the memory (in
    a fresh process every page of it is first zeroed by the kernel)."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        codes = series.cat.codes.to_numpy()
        cardinality = len(series.cat.categories)
        if (codes < 0).any():  # missing values get the next code (pandas leaves room)
            codes = np.where(codes < 0, codes.dtype.type(cardinality), codes)
            cardinality += 1
        return codes if compact else codes.astype(np.int64), max(cardinality, 1)
    codes, uniques = pd.factorize(series, use_na_sentinel=False)
    cardinality = max(len(uniques), 1)
    if compact:
        return codes.astype(np.min_scalar_type(cardinality - 1), copy=False), cardinality
    return codes.astype(np.int64, copy=False), cardinality


#: Rows from which :func:`columns_codes` codes the columns on two threads.
THREADED_ROWS = 100_000


def columns_codes(
    df: pd.DataFrame, columns: Sequence[str], *, compact: bool = False
) -> list[tuple[np.ndarray, int]]:
    """:func:`column_codes` of each of ``columns``, in order. On a large table the columns
    are coded on two threads: pyarrow's coding of text and pandas' of numbers release the
    GIL, so on two cores two columns are coded at once."""
    if len(df) < THREADED_ROWS or len(columns) < 2:
        return [column_codes(df[column], compact=compact) for column in columns]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda column: column_codes(df[column], compact=compact), columns))


def combined_codes(df: pd.DataFrame, columns: Sequence[str]) -> tuple[np.ndarray, int]:
    """One integer per row that is equal exactly when the rows agree on ``columns``.

    Returns dense codes ``0..n_groups-1`` in order of first appearance, and ``n_groups``.
    """
    return combine_codes([column_codes(df[column]) for column in columns], len(df))


def combine_codes(coded: Sequence[tuple[np.ndarray, int]], n: int) -> tuple[np.ndarray, int]:
    """Combine per-column ``(codes, cardinality)`` (as :func:`column_codes` gives) into one key,
    dense ``0..n_groups-1`` in order of first appearance, like :func:`combined_codes`.
    ``coded`` may be any iterable (a generator codes one column at a time) and its codes
    any integer type."""
    key = np.zeros(n, dtype=np.int64)
    radix, columns = 1, 0
    for codes, cardinality in coded:
        if radix * cardinality >= KEY_LIMIT:
            key, radix = compress_key(key)
        key *= cardinality  # in place: the key is this function's own array
        key += codes
        radix *= cardinality
        columns += 1
    if columns == 0:
        return key, 1 if n else 0
    if columns == 1:
        return key, radix if n else 0
    return compress_key(key)


def compress_key(key: np.ndarray) -> tuple[np.ndarray, int]:
    """Dense codes of the non-negative ``key`` in order of first appearance (what
    ``pd.factorize`` gives), by sorting: key and row number packed in one integer and
    sorted by value, which is many times faster than hashing when most keys are distinct
    (a frequency table's value combinations). Overwrites ``key``."""
    n = key.size
    row_bits = max(int(n - 1).bit_length(), 1)
    if n == 0 or 2 * row_bits > 62 or key.min() < 0 or int(key.max()).bit_length() + row_bits > 62:
        dense, uniques = pd.factorize(key)
        return dense.astype(np.int64, copy=False), len(uniques)
    key <<= row_bits
    key |= np.arange(n, dtype=np.int64)
    key.sort()
    rows = key & ((1 << row_bits) - 1)  # each sorted entry's row
    key >>= row_bits
    first = np.empty(n, dtype=bool)  # where a new key starts in sorted order
    first[0] = True
    np.not_equal(key[1:], key[:-1], out=first[1:])
    group = np.cumsum(first, out=key)  # 1-based group of each sorted entry, in key order
    group -= 1
    n_groups = int(group[-1]) + 1
    # A group's first row in sorted order is its first appearance: rank groups by it.
    appearance = rows[first]
    del first
    appearance <<= row_bits
    appearance |= np.arange(n_groups, dtype=np.int64)
    appearance.sort()
    relabel = np.empty(n_groups, dtype=np.int64)
    relabel[appearance & ((1 << row_bits) - 1)] = np.arange(n_groups, dtype=np.int64)
    del appearance
    dense = np.empty(n, dtype=np.int64)
    dense[rows] = relabel[group]
    return dense, n_groups


def key_runs(key: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Dense codes of the non-negative ``key`` in ascending key order (not in order of first
    appearance, as :func:`compress_key` gives them), and the first row of each code: one
    sort of key and row number packed in one integer, after which each distinct key is one
    run. None when key and row number do not fit 62 bits together (hash or compress then).
    Half the work of :func:`compress_key` (no second sort), for callers that read the
    groups, not their order (the lattice search's units and coarse partitions)."""
    n = key.size
    row_bits = max(int(n - 1).bit_length(), 1)
    if n == 0 or int(key.max()).bit_length() + row_bits > 62:
        return None
    packed = key.astype(np.int64) << row_bits  # a new array: the key is left as it was
    packed |= np.arange(n, dtype=np.int64)
    packed.sort()
    rows = packed & ((1 << row_bits) - 1)  # each sorted entry's row
    packed >>= row_bits
    starts = np.empty(n, dtype=bool)  # where a run of equal keys begins
    starts[0] = True
    np.not_equal(packed[1:], packed[:-1], out=starts[1:])
    del packed
    codes = np.empty(n, dtype=np.int64)
    codes[rows] = np.cumsum(starts) - 1
    return codes, rows[starts]


def radix_key(coded: Sequence[tuple[np.ndarray, int]], n: int) -> np.ndarray:
    """A mixed-radix key equal exactly when the codes agree (not dense; sorted-unique
    re-compression only when the radix would overflow)."""
    key = np.zeros(n, dtype=np.int64)
    radix = 1
    for codes, cardinality in coded:
        if radix * cardinality >= KEY_LIMIT:
            uniques, key = np.unique(key, return_inverse=True)
            radix = uniques.size
        key = key * cardinality + codes
        radix *= cardinality
    return key


def group_sums(key: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Sum of the non-negative integer ``weights`` per distinct ``key``, by sorting (faster
    than hashing when most keys are distinct, as value combinations are). When key and
    weight fit together in 63 bits they are sorted as one number (NumPy's sort is several
    times faster than an argsort)."""
    if key.size == 0:
        return np.zeros(0, dtype=np.int64)
    bits = max(int(weights.max()).bit_length(), 1)
    if int(key.max()) < 2 ** (62 - bits):
        packed = np.sort((key << bits) | weights)
        ordered, ordered_weights = packed >> bits, packed & ((1 << bits) - 1)
    else:
        order = np.argsort(key)
        ordered, ordered_weights = key[order], weights[order]
    starts = np.r_[0, np.flatnonzero(ordered[1:] != ordered[:-1]) + 1]
    return np.add.reduceat(ordered_weights, starts)
