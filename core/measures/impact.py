"""Which quasi-identifier drives the risk: k and the uniques of the table without each one
(PDPC guide, Step 3 and Annex C), counted on the distinct value combinations.

Apart from :mod:`core.measures.classes` because it is a what-if over the columns, not a
property of the table's classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.measures.classes import EquivalenceClasses
from core.measures.codes import KEY_LIMIT, column_codes, combine_codes, group_sums, radix_key
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
    coded = [column_codes(df[column], compact=True) for column in quasi_identifiers]
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
    n = int(records.sum())
    without = _keys_without_each(combination_codes, n_combinations)
    impacts = []
    for index, column in enumerate(quasi_identifiers):
        if len(quasi_identifiers) > 1:
            sizes = group_sums(without(index), records)
            k_without = int(sizes.min()) if sizes.size else 0
            uniques = int(np.count_nonzero(sizes == 1))
            below = int(sizes[sizes < k].sum())
        else:
            k_without, uniques, below = n, int(n == 1), int(0 < n < k)
        codes, size = combination_codes[index]
        impacts.append(
            QuasiIdentifierImpact(
                quasi_identifier=column,
                k_without=k_without,
                uniques_without=uniques,
                records_below_k_without=below,
                distinct_values=int(np.count_nonzero(np.bincount(codes, minlength=size))),
            )
        )
    return classes, impacts


def _keys_without_each(coded: list[tuple[np.ndarray, int]], n: int):
    """A function giving, for column ``index``, a key of the combinations that is equal
    exactly when they agree on every other column.

    When all columns fit one mixed-radix key (the usual case: the radix is the product of
    the cardinalities, below 2**62), the key is built once and each column's digit is taken
    out of it (one multiply-subtract instead of rebuilding the key from the other columns).
    """
    radix, place = 1, []
    for _, cardinality in reversed(coded):
        place.append(radix)
        radix *= cardinality
    if radix >= KEY_LIMIT:
        return lambda index: radix_key(coded[:index] + coded[index + 1 :], n)
    place.reverse()
    full = np.zeros(n, dtype=np.int64)
    for (codes, _), weight in zip(coded, place, strict=True):
        full += codes.astype(np.int64) * weight
    return lambda index: full - coded[index][0].astype(np.int64) * place[index]
