"""How a sensitive attribute is spread over the equivalence classes (PDPC guide, Step 4:
attribute disclosure).

The sensitive column is coded once (:func:`sensitive_coding`: sorted when ordered, a
hierarchy's tree for hierarchical t-closeness), the (class, value) pairs are counted once
(:class:`ClassDistribution`), and every attribute-disclosure model (l, t, delta, beta,
alpha) reads the same sparse triples, so a node of the lattice search and a released table
are judged by the same code. :func:`classes_and_distribution` counts classes and pairs in
one sort, for the risk report.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.classes import (
    ClassCounts,
    EquivalenceClasses,
    equivalence_classes,
    resolve_classes,
)
from core.measures.codes import THREADED_ROWS, column_codes, columns_codes, combine_codes
from core.measures.emd import HierarchyTree, hierarchical_emd, hierarchy_tree, ordered_emd
from core.validation import (
    require_columns,
)

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
    #: Per-class figures computed once: the risk report reads the distinct values and the
    #: EMD for l and t and again for the privacy models' figures.
    _kept: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def _once(self, name: tuple, compute) -> np.ndarray:
        """``compute()`` the first time ``name`` is asked, the same array after; read-only,
        so no reader can change it for another."""
        kept = self._kept.get(name)
        if kept is None:
            kept = compute()
            kept.setflags(write=False)
            self._kept[name] = kept
        return kept

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
        """Distinct sensitive values per class (distinct l-diversity); read-only."""
        return self._once(
            ("distinct",), lambda: np.bincount(self.pair_class, minlength=self.n_classes)
        )

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
        distance (the tree this distribution was built with); read-only."""
        if distance == "auto":  # one array whichever name a reader asks it by (the
            # report's t asks "equal" or "ordered", the models' figures "auto")
            distance = "ordered" if self.ordered else "equal"
        return self._once(("emd", distance), lambda: self._emd(distance))

    def _emd(self, distance: str) -> np.ndarray:
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
        ratio = self.overall[self.pair_value]  # one array of the pairs' size, worked in place
        np.divide(self.share, ratio, out=ratio)
        np.log(ratio, out=ratio)
        np.abs(ratio, out=ratio)
        return self._max_per_class(ratio)

    def beta(self) -> np.ndarray:
        """max (share in class - share in table) / share in table per class (basic
        beta-likeness, Cao and Karras 2012): the largest relative gain of confidence."""
        p = self.overall[self.pair_value]
        gain = np.subtract(self.share, p)  # two arrays of the pairs' size, not three
        np.divide(gain, p, out=gain)
        del p
        return self._max_per_class(gain)

    def beta_enhanced_ok(self, beta: float) -> np.ndarray:
        """Enhanced beta-likeness per class: every gain (q - p) / p <= min(beta, -ln p)."""
        p = self.overall[self.pair_value]
        over = (self.share - p) / p > np.minimum(beta, -np.log(p)) + 1e-12
        return self._per_class(over.astype(float)) == 0

    def alpha(self) -> np.ndarray:
        """Largest share of one sensitive value per class ((alpha,k)-anonymity, Wong et al.
        2006: no value makes up more than alpha of a class)."""
        return self._max_per_class(self.share)


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
    classes = resolve_classes(df, quasi_identifiers, classes)
    return sensitive_distribution(df[sensitive], classes, ordered=ordered, hierarchy=hierarchy)


def sensitive_distribution(
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
    table), non-negative integers. The classes' keys are kept (``ClassCounts.keys``) when
    they are the columns' codes in mixed radix, for the impact of each quasi-identifier."""
    quasi_identifiers = tuple(require_columns(df, quasi_identifiers, parameter="quasi_identifiers"))
    require_columns(df, sensitive, parameter="sensitive")
    n = len(df)
    if n < THREADED_ROWS:
        value_codes, n_values, ordered, _ = sensitive_coding(df[sensitive])
        coded = columns_codes(df, quasi_identifiers, compact=True)
    else:  # the sensitive column is coded on a thread of its own while the others are
        with ThreadPoolExecutor(max_workers=1) as beside:
            sensitive_coded = beside.submit(sensitive_coding, df[sensitive])
            coded = columns_codes(df, quasi_identifiers, compact=True)
            value_codes, n_values, ordered, _ = sensitive_coded.result()
    weights = None if counts is None else np.asarray(counts, dtype=np.int64)
    records = n if weights is None else int(weights.sum())
    overall = np.bincount(value_codes, weights=weights, minlength=n_values) / max(records, 1)
    weight_bits = 0 if weights is None or n == 0 else max(int(weights.max()).bit_length(), 1)
    value_bits = (n_values - 1).bit_length()
    radix = math.prod(cardinality for _, cardinality in coded)
    cardinalities: tuple[int, ...] | None = tuple(cardinality for _, cardinality in coded)
    distinct_values = tuple(
        None if isinstance(df[column].dtype, pd.CategoricalDtype) else cardinality
        for column, cardinality in zip(quasi_identifiers, cardinalities, strict=True)
    )
    if n and (radix - 1).bit_length() + value_bits + weight_bits > _PACK_BITS:  # densely
        class_key, n_keys = combine_codes(coded, n)
        radix = n_keys
        if (radix - 1).bit_length() + value_bits + weight_bits > _PACK_BITS:  # two passes
            classes = equivalence_classes(df, quasi_identifiers, counts=weights)
            dist = sensitive_distribution(df[sensitive], classes, ordered=None, counts=weights)
            return ClassCounts(quasi_identifiers, classes.sizes, records), dist
        coded = [(class_key, n_keys)]
        cardinalities = None  # the class keys are dense numbers, not the columns' codes
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
        # one new array (np.diff of np.append made three, each a fresh table-sized one)
        pair_count = np.empty(starts.size, dtype=float)
        np.subtract(starts[1:], starts[:-1], out=pair_count[:-1])
        pair_count[-1:] = n - starts[-1:]
        key = key[starts]
    else:
        if not new_pair.all():  # rows that are one pair (else: a frequency table's rows)
            starts = np.flatnonzero(new_pair)
            weights, key = np.add.reduceat(weights, starts), key[starts]
        if not weights.all():  # a pair of no records is no pair (as ClassDistribution.of)
            key, weights = key[weights > 0], weights[weights > 0]
        pair_count = weights.astype(float)
    del new_pair, weights
    # each pair's value code, in the smallest type (a sensitive column has few values:
    # 1 byte a pair instead of 8 kept through the report, 200 MB at 50M records)
    pair_value = key & ((1 << value_bits) - 1)
    pair_value = pair_value.astype(np.min_scalar_type(max(n_values - 1, 0)), copy=False)
    key >>= value_bits  # each pair's class key
    new_class = np.empty(key.size, dtype=bool)
    new_class[:1] = True
    np.not_equal(key[1:], key[:-1], out=new_class[1:])
    class_keys = key[new_class] if cardinalities is not None else None
    del key
    pair_class = new_class.astype(np.int64)  # then summed in place: NumPy's running sum
    np.cumsum(pair_class, out=pair_class)  # of booleans into int64 is five times slower
    pair_class -= 1
    n_classes = int(pair_class[-1]) + 1 if pair_class.size else 0
    class_sizes = np.bincount(pair_class, weights=pair_count, minlength=n_classes)
    dist = ClassDistribution(class_sizes, pair_class, pair_value, pair_count, overall, ordered)
    sizes = class_sizes.astype(np.int64)  # sums of whole counts: exact in float64 below 2**53
    counted = ClassCounts(
        quasi_identifiers, sizes, records, class_keys, cardinalities, distinct_values
    )
    return counted, dist
