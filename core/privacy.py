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
  Ordered distance for numbers, equal distance for categories, or hierarchical distance
  when the sensitive attribute has a generalisation hierarchy (:func:`hierarchical_emd`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields

import numpy as np
import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.codes import (
    column_codes,
    group_sums,
    radix_key,
)
from core.measures.codes import (
    combine_codes as combine_codes,  # re-exported: `from core.privacy import` keeps working
)
from core.measures.codes import (
    combined_codes as combined_codes,
)
from core.population_risk import KMAP_ESTIMATORS, kmap_derived_k, kmap_population_counts
from core.validation import (
    require_choice,
    require_columns,
    require_int,
    require_positive,
    require_probability,
)


class _ClassSizeFigures:
    """What the class sizes alone tell (``sizes[c]``: records in class ``c``; a class of
    size 0 is no class): shared by :class:`EquivalenceClasses` and :class:`ClassCounts`."""

    sizes: np.ndarray

    @property
    def n_classes(self) -> int:
        return int(np.count_nonzero(self.sizes))

    @property
    def k(self) -> int:
        """Size of the smallest class: the table is k-anonymous for this k (0 if empty)."""
        nonzero = self.sizes[self.sizes > 0]
        return int(nonzero.min()) if nonzero.size else 0

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


@dataclass(frozen=True)
class EquivalenceClasses(_ClassSizeFigures):
    """Records grouped by their values on the quasi-identifiers (PDPC guide, Annex C).

    ``class_of_record[i]`` is the class of row ``i`` (by position); ``sizes[c]`` is the
    number of records in class ``c``. On a frequency table (each row standing for
    ``counts[i]`` identical records) ``records`` is the number of records, not rows.
    """

    quasi_identifiers: tuple[str, ...]
    class_of_record: np.ndarray
    sizes: np.ndarray
    records: int | None = None

    @property
    def n_records(self) -> int:
        return int(self.class_of_record.size if self.records is None else self.records)

    @property
    def size_of_record(self) -> np.ndarray:
        """For each record, the size of its equivalence class."""
        return self.sizes[self.class_of_record]

    def below(self, k: int) -> np.ndarray:
        """Boolean mask of records in classes with fewer than ``k`` records."""
        return self.size_of_record < k


@dataclass(frozen=True)
class ClassCounts(_ClassSizeFigures):
    """The equivalence classes' sizes without each record's class: all the risk report
    needs, when :func:`classes_and_distribution` counts them with the sensitive values."""

    quasi_identifiers: tuple[str, ...]
    sizes: np.ndarray
    records: int

    @property
    def n_records(self) -> int:
        return self.records


def equivalence_classes(
    df: pd.DataFrame, quasi_identifiers: Sequence[str], *, counts: np.ndarray | None = None
) -> EquivalenceClasses:
    """Group records that share all their quasi-identifier values (PDPC guide, Annex C).

    Missing values count as a value of their own (two records both missing an age are
    alike on age). Pseudonyms and direct identifiers should not be passed here: every
    record would be unique (Step 4, footnote 12). ``counts`` makes ``df`` a frequency
    table: row ``i`` stands for ``counts[i]`` records (see :mod:`core.engines`).
    """
    quasi_identifiers = tuple(require_columns(df, quasi_identifiers, parameter="quasi_identifiers"))
    class_of_record, n_classes = combined_codes(df, quasi_identifiers)
    if counts is None:
        sizes = np.bincount(class_of_record, minlength=n_classes)
        return EquivalenceClasses(quasi_identifiers, class_of_record, sizes)
    sizes = np.bincount(class_of_record, weights=counts, minlength=n_classes).astype(np.int64)
    return EquivalenceClasses(quasi_identifiers, class_of_record, sizes, int(sizes.sum()))


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


def _resolve_classes(
    df: pd.DataFrame, quasi_identifiers: Sequence[str], classes: EquivalenceClasses | None
) -> EquivalenceClasses:
    if classes is None:
        return equivalence_classes(df, quasi_identifiers)
    if classes.class_of_record.size != len(df):
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
    return _l_from(sensitive, classes, _distribution(df[sensitive], classes, ordered=None))


def _distribution(
    column: pd.Series,
    classes: EquivalenceClasses,
    *,
    ordered: bool | None,
    counts: np.ndarray | None = None,
    hierarchy: Hierarchy | None = None,
) -> ClassDistribution:
    """The (class, sensitive value) pairs counted once; l and t both read them."""
    distance = (
        "hierarchical"
        if hierarchy is not None
        else ("auto" if ordered is None else "ordered" if ordered else "equal")
    )
    codes, n_values, is_ordered, tree = sensitive_coding(column, distance, hierarchy)
    overall = np.bincount(codes, weights=counts, minlength=n_values) / max(classes.n_records, 1)
    return ClassDistribution.of(
        classes.class_of_record,
        codes,
        overall,
        ordered=is_ordered,
        n_classes=classes.sizes.size,
        weights=counts,
        tree=tree,
    )


def _l_from(
    sensitive: str, classes: EquivalenceClasses | ClassCounts, dist: ClassDistribution
) -> LDiversity:
    if classes.n_records == 0:
        empty = np.zeros(0)
        return LDiversity(sensitive, 0, 0.0, empty.astype(int), empty)
    distinct = dist.distinct()
    l_entropy = dist.entropy_l()
    present = classes.sizes > 0
    return LDiversity(
        sensitive=sensitive,
        distinct=int(distinct[present].min()),
        entropy=float(l_entropy[present].min()),
        per_class_distinct=distinct,
        per_class_entropy=l_entropy,
    )


def _t_from(
    sensitive: str, classes: EquivalenceClasses | ClassCounts, dist: ClassDistribution
) -> TCloseness:
    distance = "hierarchical" if dist.tree is not None else "ordered" if dist.ordered else "equal"
    if classes.n_records == 0:
        return TCloseness(sensitive, distance, 0.0, np.zeros(0))
    per_class = dist.emd(distance)
    present = classes.sizes > 0
    return TCloseness(sensitive, distance, float(per_class[present].max()), per_class)


def l_and_t(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    sensitive: str,
    *,
    classes: EquivalenceClasses | None = None,
    counts: np.ndarray | None = None,
) -> tuple[LDiversity, TCloseness]:
    """:func:`l_diversity` and :func:`t_closeness` (distance ``auto``) from one count of
    the (class, sensitive value) pairs. ``counts``: records per row of a frequency table
    (then ``classes`` must be computed with the same ``counts``)."""
    require_columns(df, sensitive, parameter="sensitive")
    if classes is None:
        classes = equivalence_classes(df, quasi_identifiers, counts=counts)
    classes = _resolve_classes(df, quasi_identifiers, classes)
    dist = _distribution(df[sensitive], classes, ordered=None, counts=counts)
    return l_and_t_of(sensitive, classes, dist)


def l_and_t_of(
    sensitive: str, classes: EquivalenceClasses | ClassCounts, dist: ClassDistribution
) -> tuple[LDiversity, TCloseness]:
    """l-diversity and t-closeness (distance ``auto``) read from the counted pairs."""
    return _l_from(sensitive, classes, dist), _t_from(sensitive, classes, dist)


#: Bits a packed (class, value, count) key of :func:`classes_and_distribution` may use:
#: it stays a non-negative int64 (63 value bits) with one bit to spare.
_PACK_BITS = 62


def classes_and_distribution(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    sensitive: str,
    *,
    counts: np.ndarray | None = None,
) -> tuple[ClassCounts, ClassDistribution]:
    """The class sizes and the (class, sensitive value) pairs from ONE sort: what the risk
    report needs for k, l and t (distance ``auto``), without each record's class.

    Every row's quasi-identifier codes (mixed radix), sensitive code and, on a frequency
    table, count are packed into one integer, equal in its high parts exactly when class
    and value agree, and sorted: a class is then a run of equal high parts and
    a pair a run of equal keys, both read off in one pass. :func:`equivalence_classes`
    followed by :func:`l_and_t` sorts the keys twice and relabels the classes in order of
    first appearance, which the figures do not need; on a 30M-row frequency table (the
    DuckDB engine at 50M records) this is several times faster. Class ids here follow the
    keys' order; the figures are the same. ``counts``: records per row (a frequency
    table), non-negative integers."""
    quasi_identifiers = tuple(require_columns(df, quasi_identifiers, parameter="quasi_identifiers"))
    require_columns(df, sensitive, parameter="sensitive")
    n = len(df)
    value_codes, n_values, ordered, _ = sensitive_coding(df[sensitive])
    weights = None if counts is None else np.asarray(counts, dtype=np.int64)
    records = n if weights is None else int(weights.sum())
    overall = np.bincount(value_codes, weights=weights, minlength=n_values) / max(records, 1)
    weight_bits = 0 if weights is None or n == 0 else max(int(weights.max()).bit_length(), 1)
    value_bits = (n_values - 1).bit_length()
    coded = [column_codes(df[column], compact=True) for column in quasi_identifiers]
    radix = math.prod(cardinality for _, cardinality in coded)
    if n and (radix - 1).bit_length() + value_bits + weight_bits > _PACK_BITS:  # densely
        class_key, n_keys = combine_codes(coded, n)
        radix = n_keys
        if (radix - 1).bit_length() + value_bits + weight_bits > _PACK_BITS:  # two passes
            classes = equivalence_classes(df, quasi_identifiers, counts=weights)
            dist = _distribution(df[sensitive], classes, ordered=None, counts=weights)
            return ClassCounts(quasi_identifiers, classes.sizes, records), dist
        coded = [(class_key, n_keys)]
    key = np.zeros(n, dtype=np.int64)
    for codes, cardinality in coded:
        key *= cardinality  # in place: the key is this function's own array
        key += codes
    del coded
    key <<= value_bits  # bit fields below the class (shifts: cheaper than division)
    key |= value_codes
    if weights is not None:
        key <<= weight_bits
        key |= weights
    key.sort()
    if weights is not None:
        weights = key & ((1 << weight_bits) - 1)
        key >>= weight_bits
    new_pair = np.empty(n, dtype=bool)
    new_pair[:1] = True
    np.not_equal(key[1:], key[:-1], out=new_pair[1:])
    if weights is None:  # a pair's count: the length of its run
        starts = np.flatnonzero(new_pair)
        pair_count = np.diff(np.append(starts, n)).astype(float)
        key = key[starts]
    else:
        if not new_pair.all():  # rows that are one pair (else: a frequency table's rows)
            starts = np.flatnonzero(new_pair)
            weights, key = np.add.reduceat(weights, starts), key[starts]
        if not weights.all():  # a pair of no records is no pair (as ClassDistribution.of)
            key, weights = key[weights > 0], weights[weights > 0]
        pair_count = weights.astype(float)
    del new_pair, weights
    pair_value = key & ((1 << value_bits) - 1)
    key >>= value_bits  # each pair's class key
    new_class = np.empty(key.size, dtype=bool)
    new_class[:1] = True
    np.not_equal(key[1:], key[:-1], out=new_class[1:])
    del key
    pair_class = np.cumsum(new_class, dtype=np.int64)
    pair_class -= 1
    n_classes = int(pair_class[-1]) + 1 if pair_class.size else 0
    class_sizes = np.bincount(pair_class, weights=pair_count, minlength=n_classes)
    dist = ClassDistribution(class_sizes, pair_class, pair_value, pair_count, overall, ordered)
    sizes = class_sizes.astype(np.int64)  # sums of whole counts: exact in float64 below 2**53
    return ClassCounts(quasi_identifiers, sizes, records), dist


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
    hierarchy: Hierarchy | None = None,
) -> TCloseness:
    """t-closeness of ``sensitive`` with the Earth Mover's Distance (Li et al. 2007).

    ``distance="ordered"`` treats the m distinct values as ordered (numbers): EMD =
    sum over i of |cumulative difference up to value i| / (m - 1). ``"equal"`` treats
    every pair of categories as distance 1: EMD = half the sum of absolute differences.
    ``"hierarchical"`` measures distances in the sensitive attribute's generalisation
    ``hierarchy`` (:func:`hierarchical_emd`, ARX's HierarchicalDistanceTCloseness).
    ``"auto"`` picks ordered for numeric columns and equal otherwise.
    PDPC guide, Step 4 (attribute disclosure).
    """
    require_columns(df, sensitive, parameter="sensitive")
    require_choice("distance", distance, T_DISTANCES)
    if (distance == "hierarchical") != (hierarchy is not None):
        raise ParameterError(
            "Give the sensitive attribute's 'hierarchy' with distance='hierarchical' (and only "
            "then)."
        )
    classes = _resolve_classes(df, quasi_identifiers, classes)
    ordered = None if distance in ("auto", "hierarchical") else distance == "ordered"
    dist = _distribution(df[sensitive], classes, ordered=ordered, hierarchy=hierarchy)
    return _t_from(sensitive, classes, dist)


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
class HierarchyTree:
    """A sensitive attribute's generalisation hierarchy as the tree of the hierarchical EMD:
    ``parents[i]`` gives, for each node of level i (level 0: the value codes), its node at
    level i + 1; ``height`` is the hierarchy's height (levels 0..height)."""

    parents: tuple[np.ndarray, ...]
    height: int


def hierarchy_tree(
    series: pd.Series, hierarchy: Hierarchy
) -> tuple[np.ndarray, int, HierarchyTree]:
    """Codes of the values of ``series``, their number, and the tree of ``hierarchy`` over
    them. Values are matched as text (as :meth:`Hierarchy.generalise` does); only values
    present in the column are leaves, as in ARX's DataManager.getTree. The levels must nest
    (each node has one parent), as in the lattice search."""
    text = as_text(series)
    missing = text.isna().to_numpy()
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise ParameterError(
            f"Column '{series.name}' has a missing value (row {row + 1}): hierarchical "
            "t-closeness needs every value in the hierarchy; fill the missing values first."
        )
    codes, uniques = pd.factorize(text)
    rows = pd.Index(hierarchy.levels[0].to_numpy()).get_indexer(np.asarray(uniques, dtype=object))
    if (rows < 0).any():
        value = uniques[int(np.flatnonzero(rows < 0)[0])]
        raise ParameterError(
            f"The value {value!r} of column '{series.name}' is not in its hierarchy"
            f"{f' {hierarchy.name!r}' if hierarchy.name else ''}; add it to the hierarchy file."
        )
    table = hierarchy.levels.to_numpy(dtype=object)[rows]
    nodes = np.arange(len(uniques))
    parents = []
    for level in range(1, hierarchy.height + 1):
        upper = pd.factorize(table[:, level])[0]
        parent = np.zeros(int(nodes.max()) + 1, dtype=np.int64)
        parent[nodes] = upper
        if (parent[nodes] != upper).any():
            value = uniques[int(np.flatnonzero(parent[nodes] != upper)[0])]
            raise ParameterError(
                f"The hierarchy of column '{series.name}' does not nest: values that share "
                f"level {level - 1} (e.g. {value!r}) are split at level {level}. Each level "
                "must merge groups of the one before."
            )
        parents.append(parent)
        nodes = upper
    return (
        codes.astype(np.int64, copy=False),
        max(len(uniques), 1),
        HierarchyTree(tuple(parents), hierarchy.height),
    )


def hierarchical_emd(
    pair_class: np.ndarray,
    pair_value: np.ndarray,
    share: np.ndarray,
    overall: np.ndarray,
    n_classes: int,
    tree: HierarchyTree,
) -> np.ndarray:
    """EMD with hierarchical distance (Li et al. 2007; ARX's HierarchicalDistanceTCloseness):
    two values are level(lowest common ancestor) / height apart. With extra = p - q at the
    leaves (p: share in the table, q: in the class) and, at an inner node, pos / neg = the
    positive / negative extras of its children summed (a child's extra: pos - neg), the
    distance is the sum over inner nodes of level / height * min(pos, neg). Dense per block
    of classes, like :func:`ordered_emd`. Shares are floating point; ARX 3.9 scales them to
    32-bit integers (count in table x class size - count in class x table size, summed per
    node), which can overflow once class size x table size passes 2^31 (e.g. a class of
    50,000 in a table of 50,000), so ARX's figures can only be compared on tables where it
    does not (adult: 30,162 records)."""
    result = np.zeros(n_classes)
    if tree.height == 0:
        return result
    n_values = overall.size
    groups = []
    for parent in tree.parents:
        order = np.argsort(parent, kind="stable")
        ordered_parent = parent[order]
        groups.append((order, np.r_[0, np.flatnonzero(np.diff(ordered_parent)) + 1]))
    block = max(1, 20_000_000 // n_values)
    for start in range(0, n_classes, block):
        stop = min(start + block, n_classes)
        in_block = (pair_class >= start) & (pair_class < stop)
        dense = np.zeros((stop - start, n_values))
        dense[pair_class[in_block] - start, pair_value[in_block]] = share[in_block]
        extra = overall - dense
        cost = np.zeros(stop - start)
        for level, (order, starts) in enumerate(groups, start=1):
            children = extra[:, order]
            pos = np.add.reduceat(np.maximum(children, 0.0), starts, axis=1)
            neg = np.add.reduceat(np.maximum(-children, 0.0), starts, axis=1)
            cost += level / tree.height * np.minimum(pos, neg).sum(axis=1)
            extra = pos - neg
        result[start:stop] = cost
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
    impacts = []
    for index, column in enumerate(quasi_identifiers):
        rest = combination_codes[:index] + combination_codes[index + 1 :]
        if rest:
            sizes = group_sums(radix_key(rest, n_combinations), records)
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


# --- per-class privacy models (ARX semantics) ---------------------------------------------

L_KINDS = ("distinct", "entropy", "recursive")
ENTROPY_ESTIMATORS = ("shannon", "grassberger")
_EULER_GAMMA = 0.5772156649015329


def grassberger_g(largest: int) -> np.ndarray:
    """Grassberger's G(n) for n = 0..largest (G(0) unused): G(1) = -gamma - ln 2,
    G(2k) = psi(2k) + (psi(k + 1/2) - psi(k)) / 2 and G(2k + 1) = G(2k), with the digamma
    function psi at whole and half numbers in closed form (the values ARX tabulates in
    EntropyLDiversity.EntropyEstimator)."""
    n = np.arange(largest + 1)
    harmonic = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, largest + 1))])
    odd = np.concatenate([[0.0], np.cumsum(2.0 / (2 * np.arange(1, largest // 2 + 2) - 1))])

    def psi(m: np.ndarray) -> np.ndarray:  # whole m >= 1
        return -_EULER_GAMMA + harmonic[m - 1]

    g = np.zeros(largest + 1)
    k = n[2::2] // 2
    if k.size:
        psi_half = -_EULER_GAMMA - 2 * np.log(2) + odd[k]  # psi(k + 1/2)
        g[2::2] = psi(2 * k) + 0.5 * (psi_half - psi(k))
    if largest >= 1:
        g[1] = -_EULER_GAMMA - np.log(2)
    g[3::2] = g[2:-1:2][: g[3::2].size]
    return g


T_DISTANCES = ("auto", "equal", "ordered", "hierarchical")


def sensitive_codes(
    series: pd.Series, *, ordered: bool | None = None
) -> tuple[np.ndarray, int, bool]:
    """Integer codes of a sensitive column, sorted by value when it is ordered.

    ``ordered=None`` treats numeric columns as ordered (t-closeness with ordered distance)
    and everything else as categories. Returns ``(codes, n_values, ordered)``.
    """
    if isinstance(series.dtype, pd.CategoricalDtype):
        return _category_sensitive_codes(series, ordered=ordered)
    if ordered is None:
        ordered = pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)
    if ordered:
        codes, uniques = pd.factorize(series, sort=True, use_na_sentinel=False)
        return codes.astype(np.int64, copy=False), max(len(uniques), 1), True
    codes, n_values = column_codes(series)
    return codes, n_values, False


def _category_sensitive_codes(
    series: pd.Series, *, ordered: bool | None
) -> tuple[np.ndarray, int, bool]:
    """:func:`sensitive_codes` of a Categorical column (as the engines' frequency tables
    hold them), the same codes its values would get: numeric categories are ordered by
    value, only the values present count, and a missing value sorts last."""
    categories = series.cat.categories
    if ordered is None:
        ordered = pd.api.types.is_numeric_dtype(categories.dtype) and not (
            pd.api.types.is_bool_dtype(categories.dtype)
        )
    if not ordered:
        codes, n_values = column_codes(series)
        return codes, n_values, False
    rank = np.arange(len(categories), dtype=np.int64)  # an ordered Categorical: its order
    if not series.cat.ordered:  # otherwise by value
        rank[np.argsort(categories.to_numpy(), kind="stable")] = rank.copy()
    codes = series.cat.codes.to_numpy()
    by_value = np.where(codes < 0, len(categories), rank[codes])
    codes, uniques = pd.factorize(by_value, sort=True)
    return codes.astype(np.int64, copy=False), max(len(uniques), 1), True


def sensitive_coding(
    series: pd.Series, distance: str = "auto", hierarchy: Hierarchy | None = None
) -> tuple[np.ndarray, int, bool, HierarchyTree | None]:
    """Codes of a sensitive column for the t-closeness ``distance``: ``(codes, n_values,
    ordered, tree)``; the tree of ``hierarchy`` when the distance is hierarchical (without a
    hierarchy the values are coded as categories, for the models that need no distance)."""
    if distance == "hierarchical" and hierarchy is not None:
        codes, n_values, tree = hierarchy_tree(series, hierarchy)
        return codes, n_values, False, tree
    ordered = None if distance == "auto" else distance == "ordered"
    codes, n_values, is_ordered = sensitive_codes(series, ordered=ordered)
    return codes, n_values, is_ordered, None


@dataclass(frozen=True)
class ClassDistribution:
    """How a sensitive attribute is spread over equivalence classes, as sparse
    (class, value, records) triples, with its share in the reference (whole) table.

    Every per-class model below reads these arrays, so a node of the lattice search and a
    released table are judged by the same code. ``weights`` lets the search count groups
    of identical records once.
    """

    sizes: np.ndarray  # records per class
    pair_class: np.ndarray
    pair_value: np.ndarray
    pair_count: np.ndarray
    overall: np.ndarray  # share of each value in the reference table
    ordered: bool
    tree: HierarchyTree | None = None  # the hierarchy, for hierarchical t-closeness

    @classmethod
    def of(
        cls,
        class_codes: np.ndarray,
        value_codes: np.ndarray,
        overall: np.ndarray,
        *,
        n_classes: int,
        ordered: bool = False,
        weights: np.ndarray | None = None,
        tree: HierarchyTree | None = None,
    ) -> ClassDistribution:
        n_values = overall.size
        key = class_codes * n_values + value_codes
        if n_classes * n_values <= 4 * key.size + 1024:  # dense count, then the non-zeros
            counts = np.bincount(key, weights=weights, minlength=n_classes * n_values)
            del key  # freed before the pairs' arrays are made (tens of millions of rows)
            pairs = np.flatnonzero(counts)
            pair_count = counts[pairs]
            del counts
        else:  # hash the rows' keys (linear), sort only the distinct pairs
            inverse, pairs = pd.factorize(key)
            pair_count = np.bincount(inverse, weights=weights, minlength=pairs.size)
            order = np.argsort(pairs, kind="stable")
            pairs, pair_count = pairs[order], pair_count[order]
        pair_class = pairs // n_values
        sizes = np.bincount(pair_class, weights=pair_count, minlength=n_classes)
        return cls(
            sizes, pair_class, pairs % n_values, pair_count.astype(float), overall, ordered, tree
        )

    @property
    def n_classes(self) -> int:
        return int(self.sizes.size)

    @functools.cached_property
    def share(self) -> np.ndarray:
        """Share of each pair's value within its class (computed once: l and t both read it
        on tens of millions of pairs; read-only, so no reader can change it for another)."""
        share = self.sizes[self.pair_class].astype(float, copy=False)  # a new array
        np.divide(self.pair_count, share, out=share)
        share.setflags(write=False)
        return share

    def _per_class(self, weights: np.ndarray) -> np.ndarray:
        return np.bincount(self.pair_class, weights=weights, minlength=self.n_classes)

    def _max_per_class(self, values: np.ndarray, empty: float = 0.0) -> np.ndarray:
        out = np.full(self.n_classes, empty)
        np.maximum.at(out, self.pair_class, values)
        return out

    def distinct(self) -> np.ndarray:
        """Distinct sensitive values per class (distinct l-diversity)."""
        return np.bincount(self.pair_class, minlength=self.n_classes)

    def entropy_l(self, estimator: str = "shannon") -> np.ndarray:
        """exp(entropy in nats) per class: entropy l-diversity holds for l <= it. Shannon's
        plug-in entropy, or Grassberger's estimator H = G(N) - sum n_i G(n_i) / N (less
        biased on small classes; ARX's EntropyEstimator.GRASSBERGER), over the whole class.
        ARX 3.9 can reject more classes (seen with suppression on adult): its
        EntropyLDiversity.isAnonymous adds n_i G(n_i) bucket by bucket and gives up as soon
        as the partial sum exceeds N (G(N) - ln l), an early exit that is exact for Shannon
        (n ln n >= 0) but not here, as G(1) = -1.27 < 0: counts 2, 1, 1, 1, 1 at l = 5 fail
        in ARX when the 2 is read first (2 G(2) = 1.46 > 6 (G(6) - ln 5) = 1.12) though the
        whole sum passes (exp(H) = 11.02). Which bucket comes first follows ARX's hash table
        (value code & capacity - 1), so that result depends on ARX's dictionary codes, not
        on the data; we keep the estimator (tests/core/test_privacy.py reproduces ARX's
        figure on adult)."""
        if estimator == "grassberger":
            sizes = np.rint(self.sizes).astype(np.int64)
            counts = np.rint(self.pair_count).astype(np.int64)
            g = grassberger_g(int(sizes.max()) if sizes.size else 0)
            with np.errstate(divide="ignore", invalid="ignore"):
                h = g[sizes] - self._per_class(counts * g[counts]) / sizes
            return np.exp(np.where(sizes > 0, h, 0.0))
        share = self.share
        plogp = np.log(share)
        plogp *= share
        entropy = self._per_class(plogp)
        np.negative(entropy, out=entropy)
        return np.exp(entropy, out=entropy)

    def recursive_ratio(self, l: int) -> np.ndarray:  # noqa: E741
        """r1 / (r_l + ... + r_m) per class (counts sorted from the most frequent); recursive
        (c,l)-diversity holds when it is below c (infinite with fewer than l values)."""
        order = np.lexsort((-self.pair_count, self.pair_class))
        cls, count = self.pair_class[order], self.pair_count[order]
        first = np.r_[0, np.flatnonzero(np.diff(cls)) + 1]
        rank = np.arange(cls.size) - np.repeat(first, np.diff(np.r_[first, cls.size]))
        top = np.zeros(self.n_classes)
        top[cls[first]] = count[first]
        tail = np.bincount(
            cls, weights=np.where(rank >= l - 1, count, 0.0), minlength=self.n_classes
        )
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(tail > 0, top / tail, np.inf)

    def emd(self, distance: str = "auto") -> np.ndarray:
        """Earth Mover's Distance of each class from the reference table (t-closeness):
        ordered distance (values sorted, Li et al. 2007), equal distance, or hierarchical
        distance (the tree this distribution was built with)."""
        ordered = self.ordered if distance == "auto" else distance == "ordered"
        share, overall = self.share, self.overall
        if distance == "hierarchical":
            if self.tree is None:
                raise ParameterError(
                    "t-closeness with hierarchical distance needs the sensitive attribute's "
                    "hierarchy."
                )
            emd = hierarchical_emd(
                self.pair_class, self.pair_value, share, overall, self.n_classes, self.tree
            )
        elif ordered:
            emd = ordered_emd(
                self.pair_class, self.pair_value, share, overall, self.n_classes, overall.size
            )
        else:
            table_share = overall[self.pair_value]
            term = np.subtract(share, table_share)
            np.abs(term, out=term)
            term -= table_share  # a value absent from the class adds its whole table share
            del table_share
            emd = self._per_class(term)
            emd += 1.0
            emd *= 0.5
        return np.clip(emd, 0.0, 1.0, out=emd)

    def delta(self) -> np.ndarray:
        """max |ln(share in class / share in table)| over the values present in each class
        (delta-disclosure privacy, Brickell and Shmatikov 2008; values absent from a class
        are not counted, as in ARX and pycanon; ARX states delta in log2 units)."""
        ratio = self.share / self.overall[self.pair_value]
        return self._max_per_class(np.abs(np.log(ratio)))

    def beta(self) -> np.ndarray:
        """max (share in class - share in table) / share in table per class (basic
        beta-likeness, Cao and Karras 2012): the largest relative gain of confidence."""
        p = self.overall[self.pair_value]
        return self._max_per_class((self.share - p) / p)

    def beta_enhanced_ok(self, beta: float) -> np.ndarray:
        """Enhanced beta-likeness per class: every gain (q - p) / p <= min(beta, -ln p)."""
        p = self.overall[self.pair_value]
        over = (self.share - p) / p > np.minimum(beta, -np.log(p)) + 1e-12
        return self._per_class(over.astype(float)) == 0

    def alpha(self) -> np.ndarray:
        """Largest share of one sensitive value per class ((alpha,k)-anonymity, Wong et al.
        2006: no value makes up more than alpha of a class)."""
        return self._max_per_class(self.share)


@dataclass(frozen=True)
class ClassModels:
    """The privacy models every kept equivalence class must meet (ARX's semantics: a class
    that fails *any* of them is suppressed, and the suppression limit bounds the records in
    those classes). PDPC guide, Annex C (k) and Step 4 (attribute disclosure).

    - ``k``: at least k records (Annex C).
    - ``l`` with ``l_kind``: ``distinct`` (at least l values), ``entropy`` (exp(H) >= l) or
      ``recursive`` with ``c`` (r1 < c (r_l + ... + r_m), Machanavajjhala et al. 2007).
    - ``t``: EMD from the whole table at most t (``t_distance`` equal/ordered/auto, or
      hierarchical with the sensitive attribute's hierarchy ``t_hierarchy``).
    - ``delta``: delta-disclosure privacy, |ln(q / p)| < delta for every value present.
    - ``beta``: beta-likeness, (q - p) / p <= beta (``enhanced_beta``: <= min(beta, -ln p)).
    - ``alpha``: (alpha,k)-anonymity, no value above a share alpha of its class.
    - ``k_map`` with ``population`` (N), ``k_map_estimator`` and ``k_map_significance``:
      k-map estimated as ARX does (``KMap(k, significance, population, estimator)``): every
      class of the n records must hold at least k' records, k' derived from k and the
      sampling fraction n / N (:func:`core.population_risk.kmap_derived_k`). A per-class
      model like k, monotone in both directions.
    - ``k_map`` with ``population_table`` instead of N: Sweeney's k-map with the population
      known (ARX ``KMap(k, DataSubset)``: the data is the population, the released records a
      subset of it): a class passes when at least ``k_map`` records of the population table
      share its (generalised) quasi-identifier values. Monotone in both directions too (a
      merged class stands for the sum of its parts' population records). The caller counts
      them (:meth:`failing`'s ``population_counts``); :func:`failing_records` does it for a
      population table generalised like the data.

    Which of them keep the lattice search's pruning exact (``monotone_with_suppression``,
    ``monotone_with_generalisation``) follows ARX's criteria classes; see :mod:`core.search`.
    """

    k: int = 1
    sensitive: str | None = None
    l: float | None = None  # noqa: E741
    l_kind: str = "distinct"
    c: float | None = None
    entropy_estimator: str = "shannon"
    t: float | None = None
    t_distance: str = "auto"
    t_hierarchy: Hierarchy | None = None
    delta: float | None = None
    beta: float | None = None
    enhanced_beta: bool = False
    alpha: float | None = None
    k_map: int | None = None
    population: float | None = None  # N, the population the records were drawn from
    k_map_estimator: str = "zero_truncated_poisson"
    k_map_significance: float = 0.01
    # k-map against the population's own records (ARX KMap(k, DataSubset)); not compared.
    population_table: pd.DataFrame | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        require_int("k", self.k, minimum=1)
        if self.population_table is not None:
            if not isinstance(self.population_table, pd.DataFrame):
                raise ParameterError("Parameter 'population_table' must be a table (DataFrame).")
            if self.k_map is None:
                raise ParameterError(
                    "A population table is used by k-map: give 'k_map' (the k of k-map) too."
                )
        if self.k_map is not None:
            require_int("k_map", self.k_map, minimum=1)
            require_choice("k_map_estimator", self.k_map_estimator, KMAP_ESTIMATORS)
            require_probability("k_map_significance", self.k_map_significance)
            if self.population is None and self.population_table is None:
                raise ParameterError(
                    "k-map needs 'population' (the size of the population) or "
                    "'population_table' (the population's records)."
                )
        if self.population is not None:
            require_positive("population", self.population)
        require_choice("l_kind", self.l_kind, L_KINDS)
        require_choice("entropy_estimator", self.entropy_estimator, ENTROPY_ESTIMATORS)
        require_choice("t_distance", self.t_distance, T_DISTANCES)
        if self.uses_sensitive and self.sensitive is None:
            raise ParameterError(
                "l-diversity, t-closeness, delta-disclosure, beta-likeness and "
                "(alpha,k)-anonymity need a 'sensitive' column."
            )
        if self.l is not None and self.l < 1:
            raise ParameterError(f"Parameter 'l' must be at least 1, got {self.l}.")
        if self.l_kind == "recursive" and self.l is not None:
            if self.c is None or self.c <= 0:
                raise ParameterError("Recursive (c,l)-diversity needs 'c' greater than 0.")
            if self.l != int(self.l) or self.l < 2:
                raise ParameterError(
                    f"Recursive (c,l)-diversity needs a whole 'l' of at least 2, got {self.l}."
                )
        if self.t is not None:
            require_probability("t", self.t)
        if self.t_hierarchy is not None and not isinstance(self.t_hierarchy, Hierarchy):
            raise ParameterError("Parameter 't_hierarchy' must be a hierarchy (read_hierarchy).")
        if self.t is not None and self.t_distance == "hierarchical" and self.t_hierarchy is None:
            raise ParameterError(
                "t-closeness with hierarchical distance needs the sensitive attribute's "
                "hierarchy ('t_hierarchy')."
            )
        if self.delta is not None:
            require_positive("delta", self.delta)
        if self.beta is not None:
            require_positive("beta", self.beta)
        if self.alpha is not None and require_probability("alpha", self.alpha) == 0:
            raise ParameterError("Parameter 'alpha' must be greater than 0.")

    @property
    def uses_sensitive(self) -> bool:
        return any(v is not None for v in (self.l, self.t, self.delta, self.beta, self.alpha))

    @property
    def monotone_with_suppression(self) -> bool:
        """True when a class that contains a passing class always passes (k, distinct l):
        then generalising can only shrink the set of suppressed records."""
        return (
            self.t is None
            and self.delta is None
            and self.beta is None
            and (self.alpha is None)
            and (self.l is None or self.l_kind == "distinct")
        )

    @property
    def grassberger(self) -> bool:
        return (
            self.l is not None
            and self.l_kind == "entropy"
            and (self.entropy_estimator == "grassberger")
        )

    @property
    def monotone_with_generalisation(self) -> bool:
        """True when merging passing classes always gives a passing class: every model but
        delta (shares and EMD are convex, Shannon entropy concave; the hierarchical EMD is
        the EMD of a tree metric, sum of |extra| under each node / (2 height), so convex too)
        and Grassberger's
        entropy estimate (no such argument; ARX assumes it, we check instead)."""
        return self.delta is None and not self.grassberger

    def _distinct_part(self) -> dict:
        """Every l-diversity kind needs at least ceil(l) values in a class (Shannon:
        exp(H) <= values; recursive and Grassberger: required, as in ARX): a monotone
        necessary condition that can prune when the l model itself cannot."""
        if self.l is None:
            return {}
        return {"sensitive": self.sensitive, "l": float(math.ceil(self.l - 1e-9))}

    def smallest_class(self, n_records: int) -> int:
        """The smallest class size a class must have: k, or k-map's derived k' for a
        table of ``n_records`` records, whichever is larger (ARX: the largest minimal class
        size of its criteria)."""
        if self.k_map is None or self.population_table is not None:
            return self.k  # with a population table, k-map is checked on its counts
        derived = kmap_derived_k(
            self.k_map,
            n_records,
            self.population,
            estimator=self.k_map_estimator,
            significance=self.k_map_significance,
        ).derived_k
        return max(self.k, derived)

    def _kmap_part(self) -> dict:
        names = ("k_map", "population", "k_map_estimator", "k_map_significance", "population_table")
        return {name: getattr(self, name) for name in names}

    def only_monotone_with_suppression(self) -> ClassModels:
        """A monotone-with-suppression necessary part of these models: k (and k-map), and
        at least ceil(l) sensitive values (exactly the l model when it is distinct l)."""
        return ClassModels(k=self.k, **self._kmap_part(), **self._distinct_part())

    def model_fields(self) -> dict:
        """The privacy-model fields of these models (a subclass such as
        :class:`core.search.Target` adds fields that are not privacy models)."""
        return {f.name: getattr(self, f.name) for f in fields(ClassModels)}

    def only_monotone_with_generalisation(self) -> ClassModels:
        """These models without delta, and with Grassberger's l replaced by its necessary
        distinct part: monotone with generalisation when nothing may be suppressed."""
        models = {**self.model_fields(), "delta": None}
        if self.grassberger:
            models.update(l_kind="distinct", entropy_estimator="shannon", **self._distinct_part())
        return ClassModels(**models)

    def failing(
        self,
        sizes: np.ndarray,
        dist: ClassDistribution | None,
        population_counts: np.ndarray | None = None,
    ) -> np.ndarray:
        """Boolean per class: the class fails at least one model (ARX: it is suppressed).
        ``population_counts``: with a population table, the population records of each
        class (k-map)."""
        fail = sizes < (self.smallest_class(int(round(sizes.sum()))) if self.k_map else self.k)
        if self.population_table is not None:
            if population_counts is None:
                raise ParameterError("k-map with a population table needs each class's count.")
            fail |= np.asarray(population_counts) < self.k_map
        if not self.uses_sensitive:
            return fail
        if dist is None:
            raise ParameterError("These privacy models need the sensitive attribute's values.")
        if self.l is not None:
            if self.l_kind == "distinct":
                fail |= dist.distinct() < self.l
            elif self.l_kind == "entropy":
                # At least l values as well (ARX): Grassberger's estimate of a small class
                # can exceed the log of its number of values.
                fail |= dist.entropy_l(self.entropy_estimator) < self.l - 1e-9
                fail |= dist.distinct() < math.ceil(self.l - 1e-9)
            else:
                fail |= ~(dist.recursive_ratio(int(self.l)) < self.c)
        if self.t is not None:
            fail |= dist.emd(self.t_distance) > self.t + 1e-12
        if self.delta is not None:
            fail |= dist.delta() >= self.delta
        if self.beta is not None:
            fail |= (
                ~dist.beta_enhanced_ok(self.beta)
                if self.enhanced_beta
                else (dist.beta() > self.beta + 1e-12)
            )
        if self.alpha is not None:
            fail |= dist.alpha() > self.alpha + 1e-12
        return fail

    def describe(self) -> str:
        parts = [f"k = {self.k}"] if self.k > 1 else []
        if self.k_map is not None and self.population_table is not None:
            parts.append(
                f"k-map k = {self.k_map} in a population table of "
                f"{len(self.population_table):,} records"
            )
        elif self.k_map is not None:
            estimator = self.k_map_estimator.replace("_", "-")
            parts.append(
                f"k-map k = {self.k_map} in a population of {self.population:,.0f} "
                f"({estimator} estimate, significance {self.k_map_significance:g})"
            )
        s = f"on '{self.sensitive}'"
        if self.l is not None:
            if self.l_kind == "recursive":
                parts.append(f"recursive (c,l)-diversity c = {self.c:g}, l = {self.l:g} {s}")
            elif self.l_kind == "entropy" and self.entropy_estimator == "grassberger":
                parts.append(f"entropy l-diversity (Grassberger) l = {self.l:g} {s}")
            else:
                parts.append(f"{self.l_kind} l-diversity l = {self.l:g} {s}")
        if self.t is not None:
            how = " (hierarchical distance)" if self.t_distance == "hierarchical" else ""
            parts.append(f"t-closeness t = {self.t:g}{how} {s}")
        if self.delta is not None:
            parts.append(f"delta-disclosure privacy delta = {self.delta:g} {s}")
        if self.beta is not None:
            kind = "enhanced" if self.enhanced_beta else "basic"
            parts.append(f"{kind} beta-likeness beta = {self.beta:g} {s}")
        if self.alpha is not None:
            parts.append(f"(alpha,k)-anonymity alpha = {self.alpha:g} {s}")
        return ", ".join(parts) or "k = 1"


def failing_records(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    models: ClassModels,
    *,
    counts: np.ndarray | None = None,
) -> np.ndarray:
    """Boolean per row: the record is in an equivalence class that fails ``models`` (what
    ARX suppresses). The reference distribution of t, delta and beta is ``df`` itself.
    ``counts``: ``df`` is a frequency table and row i stands for ``counts[i]`` records."""
    classes = equivalence_classes(df, quasi_identifiers, counts=counts)
    dist = None
    if models.uses_sensitive:
        require_columns(df, models.sensitive, parameter="sensitive")
        codes, n_values, is_ordered, tree = sensitive_coding(
            df[models.sensitive], models.t_distance, models.t_hierarchy
        )
        overall = np.bincount(codes, weights=counts, minlength=n_values) / max(
            int(classes.sizes.sum()), 1
        )
        dist = ClassDistribution.of(
            classes.class_of_record,
            codes,
            overall,
            tree=tree,
            n_classes=classes.sizes.size,
            ordered=is_ordered,
            weights=counts,
        )
    population_counts = None
    if models.population_table is not None:  # generalised like df (core.population_risk)
        per_record = kmap_population_counts(df, models.population_table, quasi_identifiers)
        population_counts = np.zeros(classes.sizes.size, dtype=np.int64)
        population_counts[classes.class_of_record] = per_record
    return models.failing(classes.sizes, dist, population_counts)[classes.class_of_record]


# --- Step 4 measures of the models above, pycanon's signature: f(df, quasi_identifiers, s) --


def class_distribution(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    sensitive: str,
    *,
    classes: EquivalenceClasses | None = None,
    ordered: bool | None = None,
    hierarchy: Hierarchy | None = None,
) -> ClassDistribution:
    """The sensitive attribute's spread over the equivalence classes of ``df`` (the whole
    table is the reference distribution); with ``hierarchy``, ready for the hierarchical
    EMD (``emd("hierarchical")``)."""
    require_columns(df, sensitive, parameter="sensitive")
    classes = _resolve_classes(df, quasi_identifiers, classes)
    return _distribution(df[sensitive], classes, ordered=ordered, hierarchy=hierarchy)


def _worst(values: np.ndarray, dist: ClassDistribution) -> float:
    present = dist.sizes > 0
    return float(values[present].max()) if present.any() else 0.0


def delta_disclosure(df: pd.DataFrame, quasi_identifiers: Sequence[str], sensitive: str) -> float:
    """The smallest delta for which the table is delta-disclosure private (Brickell and
    Shmatikov 2008): the largest |ln(share in class / share in table)| over the values
    present in each class (natural log, as pycanon; ARX states delta in log2 units).
    PDPC guide, Step 4 (attribute disclosure)."""
    dist = class_distribution(df, quasi_identifiers, sensitive)
    return _worst(dist.delta(), dist)


def beta_likeness(df: pd.DataFrame, quasi_identifiers: Sequence[str], sensitive: str) -> float:
    """The smallest beta for which the table has basic beta-likeness (Cao and Karras 2012):
    the largest relative gain (share in class - share in table) / share in table.
    PDPC guide, Step 4 (attribute disclosure)."""
    dist = class_distribution(df, quasi_identifiers, sensitive)
    return _worst(dist.beta(), dist)


def alpha_k_anonymity(
    df: pd.DataFrame, quasi_identifiers: Sequence[str], sensitive: str
) -> tuple[float, int]:
    """(alpha, k) of the table (Wong et al. 2006): the largest share one sensitive value
    takes in a class, and the smallest class. PDPC guide, Annex C and Step 4."""
    classes = equivalence_classes(df, quasi_identifiers)
    dist = class_distribution(df, quasi_identifiers, sensitive, classes=classes)
    return _worst(dist.alpha(), dist), classes.k


def recursive_cl_diversity(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    sensitive: str,
    *,
    l: int,  # noqa: E741
) -> float:
    """The bound c of recursive (c,l)-diversity (Machanavajjhala et al. 2007): the table
    is (c,l)-diverse for every c above the returned value, the largest r1 / (r_l + ... +
    r_m) over classes (counts sorted from the most frequent value; infinite when a class
    has fewer than l values). PDPC guide, Step 4."""
    if isinstance(l, bool) or not isinstance(l, int | np.integer) or l < 2:
        raise ParameterError(f"Parameter 'l' must be a whole number of at least 2, got {l!r}.")
    dist = class_distribution(df, quasi_identifiers, sensitive)
    return _worst(dist.recursive_ratio(int(l)), dist)
