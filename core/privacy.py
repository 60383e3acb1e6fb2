"""Privacy models: equivalence classes, k-anonymity, l-diversity and t-closeness.

A privacy model is a yes/no property of a released table (PDPC guide, Step 4 and Annex C).
Everything here starts from :func:`equivalence_classes`, computed once on integer codes
(one ``pd.factorize`` per quasi-identifier, one combined key, one ``np.bincount``); every
measure then reads the same arrays, so a full risk report costs about one group-by.

- k-anonymity (Annex C): every record shares its indirect identifiers with at least k-1
  others; the table's k is its smallest equivalence class.
- l-diversity (Machanavajjhala et al., summarised in the health-data seed article): the
  sensitive (target) attribute takes at least l distinct values in each class (distinct
  l-diversity), or its Shannon entropy in each class is at least log(l) (entropy
  l-diversity; we report the real number exp(H), not a truncated integer).
- t-closeness (Li et al., same seed article): the distribution of the sensitive attribute
  in each class is within Earth Mover's Distance t of its distribution in the whole table.
  Ordered distance for numbers, equal distance for categories.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.validation import require_choice, require_columns

# Combined keys are built in mixed radix; past this we re-compress with factorize.
_KEY_LIMIT = 2**62


def _codes(series: pd.Series) -> tuple[np.ndarray, int]:
    """Integer codes of a column; a missing value is a category of its own."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        codes = series.cat.codes.to_numpy().astype(np.int64)
        cardinality = len(series.cat.categories)
        if (codes < 0).any():  # missing values get the next code
            codes = np.where(codes < 0, cardinality, codes)
            cardinality += 1
        return codes, max(cardinality, 1)
    codes, uniques = pd.factorize(series, use_na_sentinel=False)
    return codes.astype(np.int64, copy=False), max(len(uniques), 1)


def combined_codes(df: pd.DataFrame, columns: Sequence[str]) -> tuple[np.ndarray, int]:
    """One integer per row that is equal exactly when the rows agree on ``columns``.

    Returns dense codes ``0..n_groups-1`` in order of first appearance, and ``n_groups``.
    """
    n = len(df)
    if not columns:
        return np.zeros(n, dtype=np.int64), 1 if n else 0
    key = np.zeros(n, dtype=np.int64)
    radix = 1
    for column in columns:
        codes, cardinality = _codes(df[column])
        if radix * cardinality >= _KEY_LIMIT:
            key, radix = _compress(key)
        key = key * cardinality + codes
        radix *= cardinality
    if len(columns) == 1:
        return key, radix if n else 0
    return _compress(key)


def _compress(key: np.ndarray) -> tuple[np.ndarray, int]:
    dense, uniques = pd.factorize(key)
    return dense.astype(np.int64, copy=False), len(uniques)


@dataclass(frozen=True)
class EquivalenceClasses:
    """Records grouped by their values on the quasi-identifiers (PDPC guide, Annex C).

    ``class_of_record[i]`` is the class of row ``i`` (by position); ``sizes[c]`` is the
    number of records in class ``c``.
    """

    quasi_identifiers: tuple[str, ...]
    class_of_record: np.ndarray
    sizes: np.ndarray

    @property
    def n_records(self) -> int:
        return int(self.class_of_record.size)

    @property
    def n_classes(self) -> int:
        return int(np.count_nonzero(self.sizes))

    @property
    def k(self) -> int:
        """Size of the smallest class: the table is k-anonymous for this k (0 if empty)."""
        nonzero = self.sizes[self.sizes > 0]
        return int(nonzero.min()) if nonzero.size else 0

    @property
    def size_of_record(self) -> np.ndarray:
        """For each record, the size of its equivalence class."""
        return self.sizes[self.class_of_record]

    def below(self, k: int) -> np.ndarray:
        """Boolean mask of records in classes with fewer than ``k`` records."""
        return self.size_of_record < k

    def size_distribution(self) -> pd.DataFrame:
        """How many classes, and records, there are of each class size."""
        sizes = self.sizes[self.sizes > 0]
        counts = np.bincount(sizes)
        present = np.nonzero(counts)[0]
        return pd.DataFrame(
            {
                "class_size": present,
                "classes": counts[present],
                "records": counts[present] * present,
            }
        )


def equivalence_classes(df: pd.DataFrame, quasi_identifiers: Sequence[str]) -> EquivalenceClasses:
    """Group records that share all their quasi-identifier values (PDPC guide, Annex C).

    Missing values count as a value of their own (two records both missing an age are
    alike on age). Pseudonyms and direct identifiers should not be passed here: every
    record would be unique (Step 4, footnote 12).
    """
    quasi_identifiers = tuple(require_columns(df, quasi_identifiers, parameter="quasi_identifiers"))
    class_of_record, n_classes = combined_codes(df, quasi_identifiers)
    sizes = np.bincount(class_of_record, minlength=n_classes)
    return EquivalenceClasses(quasi_identifiers, class_of_record, sizes)


def k_anonymity(df: pd.DataFrame, quasi_identifiers: Sequence[str]) -> int:
    """The k of the table: its smallest equivalence class size (PDPC guide, Step 4)."""
    return equivalence_classes(df, quasi_identifiers).k


@dataclass(frozen=True)
class LDiversity:
    """l-diversity of a sensitive attribute within the equivalence classes.

    ``distinct`` is the fewest distinct sensitive values in any class; ``entropy`` is the
    smallest exp(H) over classes (H in nats), a real number between 1 and ``distinct``.
    ``per_class_distinct`` / ``per_class_entropy`` are indexed by class id.
    """

    sensitive: str
    distinct: int
    entropy: float
    per_class_distinct: np.ndarray
    per_class_entropy: np.ndarray


def _sensitive_pairs(
    classes: EquivalenceClasses, sensitive_codes: np.ndarray, n_values: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (class, sensitive value) pairs and how many records each has."""
    pair_key = classes.class_of_record * n_values + sensitive_codes
    pairs, counts = np.unique(pair_key, return_counts=True)
    return pairs // n_values, pairs % n_values, counts


def _resolve_classes(
    df: pd.DataFrame, quasi_identifiers: Sequence[str], classes: EquivalenceClasses | None
) -> EquivalenceClasses:
    if classes is None:
        return equivalence_classes(df, quasi_identifiers)
    if classes.n_records != len(df):
        raise ParameterError(
            "The equivalence classes given were computed on a table with a different number "
            "of rows; compute them again on this table."
        )
    return classes


def l_diversity(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    sensitive: str,
    *,
    classes: EquivalenceClasses | None = None,
) -> LDiversity:
    """Distinct and entropy l-diversity of ``sensitive`` (guide Step 4, footnote 11)."""
    require_columns(df, sensitive, parameter="sensitive")
    classes = _resolve_classes(df, quasi_identifiers, classes)
    n_classes = classes.sizes.size
    if classes.n_records == 0:
        empty = np.zeros(0)
        return LDiversity(sensitive, 0, 0.0, empty.astype(int), empty)
    codes, n_values = _codes(df[sensitive])
    pair_class, _, counts = _sensitive_pairs(classes, codes, n_values)
    distinct = np.bincount(pair_class, minlength=n_classes)
    share = counts / classes.sizes[pair_class]
    entropy = np.bincount(pair_class, weights=-share * np.log(share), minlength=n_classes)
    l_entropy = np.exp(entropy)
    present = classes.sizes > 0
    return LDiversity(
        sensitive=sensitive,
        distinct=int(distinct[present].min()),
        entropy=float(l_entropy[present].min()),
        per_class_distinct=distinct,
        per_class_entropy=l_entropy,
    )


@dataclass(frozen=True)
class TCloseness:
    """t-closeness: the largest Earth Mover's Distance of a class from the whole table."""

    sensitive: str
    distance: str
    t: float
    per_class: np.ndarray


def t_closeness(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    sensitive: str,
    *,
    distance: str = "auto",
    classes: EquivalenceClasses | None = None,
) -> TCloseness:
    """t-closeness of ``sensitive`` with the Earth Mover's Distance (Li et al. 2007).

    ``distance="ordered"`` treats the m distinct values as ordered (numbers): EMD =
    sum over i of |cumulative difference up to value i| / (m - 1). ``"equal"`` treats
    every pair of categories as distance 1: EMD = half the sum of absolute differences.
    ``"auto"`` picks ordered for numeric columns and equal otherwise.
    """
    require_columns(df, sensitive, parameter="sensitive")
    require_choice("distance", distance, ["auto", "ordered", "equal"])
    classes = _resolve_classes(df, quasi_identifiers, classes)
    column = df[sensitive]
    if distance == "auto":
        numeric = pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)
        distance = "ordered" if numeric else "equal"
    n_classes = classes.sizes.size
    if classes.n_records == 0:
        return TCloseness(sensitive, distance, 0.0, np.zeros(0))
    if distance == "ordered":
        # Codes in sorted order of value so cumulative sums follow the order.
        codes, uniques = pd.factorize(column, sort=True, use_na_sentinel=False)
        n_values = max(len(uniques), 1)
    else:
        codes, n_values = _codes(column)
    codes = codes.astype(np.int64, copy=False)
    overall = np.bincount(codes, minlength=n_values) / classes.n_records
    pair_class, pair_value, counts = _sensitive_pairs(classes, codes, n_values)
    share = counts / classes.sizes[pair_class]
    if distance == "equal":
        # 0.5 * (sum over present values |p - q| + sum over absent values q)
        term = np.abs(share - overall[pair_value]) - overall[pair_value]
        per_class = 0.5 * (np.bincount(pair_class, weights=term, minlength=n_classes) + 1.0)
    else:
        per_class = ordered_emd(pair_class, pair_value, share, overall, n_classes, n_values)
    per_class = np.clip(per_class, 0.0, 1.0)
    present = classes.sizes > 0
    return TCloseness(sensitive, distance, float(per_class[present].max()), per_class)


def ordered_emd(
    pair_class: np.ndarray,
    pair_value: np.ndarray,
    share: np.ndarray,
    overall: np.ndarray,
    n_classes: int,
    n_values: int,
) -> np.ndarray:
    """EMD with ordered distance, dense per block of classes to bound memory."""
    if n_values == 1:
        return np.zeros(n_classes)
    result = np.empty(n_classes)
    block = max(1, 20_000_000 // n_values)
    overall_cum = np.cumsum(overall)
    for start in range(0, n_classes, block):
        stop = min(start + block, n_classes)
        in_block = (pair_class >= start) & (pair_class < stop)
        dense = np.zeros((stop - start, n_values))
        dense[pair_class[in_block] - start, pair_value[in_block]] = share[in_block]
        gap = np.cumsum(dense, axis=1) - overall_cum
        result[start:stop] = np.abs(gap[:, :-1]).sum(axis=1) / (n_values - 1)
    return result


@dataclass(frozen=True)
class QuasiIdentifierImpact:
    """What happens to k and the uniques when one quasi-identifier is left out."""

    quasi_identifier: str
    k_without: int
    uniques_without: int
    records_below_k_without: int
    distinct_values: int


def quasi_identifier_impact(
    df: pd.DataFrame, quasi_identifiers: Sequence[str], *, k: int = 5
) -> list[QuasiIdentifierImpact]:
    """For each quasi-identifier, the k and uniques of the table without it.

    The quasi-identifier whose removal raises k (or removes most uniques) drives the
    risk: it is the first candidate for generalisation (PDPC guide, Step 3 and Annex C).
    """
    quasi_identifiers = require_columns(df, quasi_identifiers, parameter="quasi_identifiers")
    impacts = []
    for column in quasi_identifiers:
        rest = [c for c in quasi_identifiers if c != column]
        classes = equivalence_classes(df, rest) if rest else None
        if classes is None:
            n = len(df)
            k_without, uniques, below = n, int(n == 1), int(0 < n < k)
        else:
            size = classes.size_of_record
            k_without = classes.k
            uniques = int(np.count_nonzero(size == 1))
            below = int(np.count_nonzero(size < k))
        impacts.append(
            QuasiIdentifierImpact(
                quasi_identifier=column,
                k_without=k_without,
                uniques_without=uniques,
                records_below_k_without=below,
                distinct_values=int(df[column].nunique(dropna=False)),
            )
        )
    return impacts
