"""Roll-up: the equivalence classes of a node from those of a node below it, cached.

Speed (PDPC guide, Step 3): a node is one mixed-radix key over the units' code arrays
(:mod:`core.search.preparation`), for one representative of each class of the evaluated
specialisation with the fewest classes, and one ``bincount``. Its classes are merges of
the specialisation's, so one representative unit per class of the specialisation is keyed,
and class sizes (and sensitive distributions) are summed over the merge; no per-unit array
is touched. A node with no evaluated node below it is keyed from a *coarse root*.
Apart from the evaluation because what a node's classes are does not depend on the models
judging them, and the cache has its own memory rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.measures.codes import key_runs
from core.measures.distributions import ClassDistribution
from core.search.preparation import PreparedTable


@dataclass(frozen=True)
class Classes:
    """The equivalence classes of one node: a representative unit of each (every unit of a
    class has the class's generalised values), its records and, with a sensitive
    attribute, its distribution. Enough to roll the node up to any generalisation."""

    reps: np.ndarray
    sizes: np.ndarray
    dist: ClassDistribution | None
    first: np.ndarray | None = None  # first record of each class (whole-table targets only)

    @property
    def size(self) -> int:
        return int(self.reps.size)


class RollUp:
    """The classes of any node of one search's lattice, by roll-up from cached nodes.

    ``sample_based``: the target has whole-table criteria, so each class keeps its first
    record (ARX orders ties by it)."""

    _CACHE_ELEMENTS = 16_000_000  # class arrays kept for roll-up (float64 / int64: 128 MB)

    def __init__(self, table: PreparedTable, sample_based: bool):
        self.columns = table.columns
        self.sensitive = table.sensitive
        # The root of every roll-up: the units themselves (a partition finer than any node).
        root = Classes(
            np.arange(table.n_units),
            table.unit_records.astype(float),
            table.unit_distribution,
            table.unit_first if sample_based else None,
        )
        # Coarse roots (coarse_root): the units, then coarser partitions built when needed.
        self._coarse_roots: dict[int, tuple[Classes, list | None]] = {0: (root, None)}
        columns = self.columns
        self._root_columns = [
            i
            for i in np.argsort([-c.cards[0] for c in columns], kind="stable")
            if columns[i].height >= 1 and columns[i].cards[1] < columns[i].cards[0]
        ]
        # The roll-up cache: slot i holds a node's levels, class count and classes (None
        # once evicted). ``_below[c][level]`` has bit i set when slot i's node is at or below
        # ``level`` in column c, so the cached nodes below a node are one AND per column.
        self._below = [[0] * (column.height + 1) for column in columns]
        self._cache_nodes: list[tuple[int, ...]] = []
        self._cache_classes: list[int] = []
        self._cache_entries: list[Classes | None] = []
        self._cache_elements = 0
        self._cards = [list(column.cards) for column in columns]  # per column and level
        # Whether every unit holds records (no zero count in a frequency table's rows).
        self._records_everywhere = bool((table.unit_records > 0).all())

    def key(
        self,
        levels: Sequence[int],
        rows: np.ndarray | None,
        codes: list | None = None,
        distinct: bool = False,
    ) -> tuple[np.ndarray, int]:
        """Class key at ``levels`` of each unit in ``rows`` (all units when None): a
        mixed-radix number over the columns' codes, below the returned radix; compacted
        (dense, radix = classes) only when the radix is large for the number of units.
        Codes are 32-bit while the radix fits (half the memory traffic of 64-bit); the key
        is returned as intp, which scatters and bincount take without a cast of their own.
        ``codes``: per column and level, the codes to key (default: the units').
        ``distinct``: most keys differ (a coarse root), compacted by a sort (:func:`dense`)."""
        cards_of = self._cards
        parts = []
        radix = 1
        for i, level in enumerate(levels):
            card = cards_of[i][level]
            if card > 1:
                parts.append((card, i))
                radix *= card
        codes_of = codes or [column.codes for column in self.columns]
        if rows is not None:
            size = rows.size
        else:
            size = codes[0].size if codes else self.columns[0].codes[0].size
        dtype = np.int32 if radix < 2**31 else np.int64
        if not parts:  # every column at one value: one class
            key = np.zeros(size, dtype=dtype)
        radix = 1
        for card, i in parts:
            column_codes = codes_of[i][levels[i]]
            if rows is not None:
                column_codes = column_codes[rows]
            if radix == 1:  # the first column's codes are the key so far (a copy)
                key = column_codes.astype(dtype, copy=rows is None)
            else:
                if radix * card > 2**62:
                    key, radix = dense(key)
                key *= card
                key += column_codes
            radix *= card
        if radix > 4 * size + 1024:
            return dense(key, by_sort=distinct)
        return key.astype(np.intp, copy=False), radix  # numpy indexes by intp: cast once

    def node_classes(self, levels: Sequence[int]) -> Classes:
        """The classes of the node ``levels``, by roll-up from the cached specialisation with
        the fewest classes (only its representatives need a key), else from the units.
        (Reaching a node one column at a time through cached steps keys a third as many
        classes on adult, but costs more: the fixed cost of a roll-up dominates; so does
        rolling up through a shared coarser specialisation, such as every level capped at 1.)"""
        node = tuple(int(level) for level in levels)
        below = self._cached_below(node)
        if not below:
            root, codes = self.coarse_root(np.asarray(node, dtype=np.int64))
            return self._roll_up(node, root, None, codes)
        slot = self._fewest_classes(below)
        source = self._cache_entries[slot]
        if self._cache_nodes[slot] == node:
            return source
        return self._roll_up(node, source, source.reps)

    def _cached_below(self, node: Sequence[int]) -> int:
        """The slots of the cached nodes at or below ``node``, as bits."""
        below = -1
        for masks, level in zip(self._below, node, strict=True):
            below &= masks[level]
        return below

    def _fewest_classes(self, slots: int) -> int:
        """The slot with the fewest classes among the bits of ``slots`` (the first such)."""
        classes = self._cache_classes
        if slots.bit_count() <= 32:
            best, fewest = -1, 0
            while slots:
                low = slots & -slots
                slot = low.bit_length() - 1
                if best < 0 or classes[slot] < fewest:
                    best, fewest = slot, classes[slot]
                slots ^= low
            return best
        bits = np.unpackbits(
            np.frombuffer(slots.to_bytes((slots.bit_length() + 7) // 8, "little"), np.uint8),
            bitorder="little",
        )
        candidates = np.flatnonzero(bits)
        return int(candidates[np.argmin(np.asarray(classes)[candidates])])

    def forget(self) -> None:
        """Empty the roll-up cache (the coarse roots stay): every node is keyed again."""
        self._below = [[0] * len(masks) for masks in self._below]
        self._cache_nodes, self._cache_classes, self._cache_entries = [], [], []
        self._cache_elements = 0

    def coarse_root(self, node: np.ndarray) -> tuple[Classes, list | None]:
        """The partition to key a node from when no evaluated node is below it: the
        coarsest of the *coarse roots* below it, with its classes' codes laid out in order
        (keyed like the units, without gathering through representatives). Coarse root j
        raises to level 1 the j columns with the most distinct values (on adult: age, then
        native-country, education, occupation...), one column more each (the units are
        root 0). A root is built when a node first needs it, in one roll-up from the
        coarsest root built so far below it: building every root between (the chain) cost
        more than it saved when a few deep roots are used (cup without suppression keys
        its nodes from roots 4, 5 and 7 only). On adult, 486 of the 520 nodes keyed from
        the 18,109 units are above root 1 (11,984 classes)."""
        roots = self._coarse_roots
        j = 0
        while j < len(self._root_columns) and node[self._root_columns[j]] >= 1:
            j += 1
        if j not in roots:
            levels = np.zeros(len(self.columns), dtype=np.int64)
            levels[self._root_columns[:j]] = 1
            parent, parent_codes = roots[max(i for i in roots if i < j)]
            classes = self._roll_up(levels, parent, None, parent_codes, root=True)
            roots[j] = (classes, [RootCodes(column.codes, classes.reps) for column in self.columns])
        return roots[j]

    def _roll_up(
        self,
        node: np.ndarray,
        source: Classes,
        rows: np.ndarray | None,
        codes: list | None = None,
        root: bool = False,
    ) -> Classes:
        """The classes of ``node`` from those of a specialisation (``rows``: its
        representatives; None for all its classes, keyed through ``codes``, laid out in its
        order), cached unless ``root`` (a coarse root, whose keys are mostly distinct).
        Classes are numbered in the order of their keys; each keeps the last of its source
        classes' units."""
        key, radix = self.key(node, rows, codes, distinct=root)
        if source.dist is None and source.first is None and self._records_everywhere:
            # Every class holds records: the keys present are the non-zero sums.
            sizes = np.bincount(key, source.sizes, radix)
            present = np.flatnonzero(sizes)
            unit = np.empty(radix, dtype=np.int64)  # a unit of each key present
            unit[key] = source.reps
            classes = Classes(unit[present], sizes[present], None, None)
            if not root:
                self._remember(node, classes)
            return classes
        unit = np.full(radix, -1, dtype=np.int64)  # a unit of each key present
        unit[key] = source.reps
        present = np.flatnonzero(unit >= 0)
        reps, n_classes = unit[present], present.size
        merged = None
        if source.dist is not None or source.first is not None:
            merged = (np.cumsum(unit >= 0) - 1)[key]  # class number of each source class
        first = None
        if source.first is not None:
            first = np.full(n_classes, np.iinfo(np.int64).max)
            np.minimum.at(first, merged, source.first)
        if source.dist is None:
            sizes, dist = np.bincount(key, source.sizes, radix)[present], None
        else:
            d = source.dist
            dist = self.sensitive.distribution(
                merged[d.pair_class], d.pair_value, n_classes, d.pair_count
            )
            sizes = dist.sizes
        classes = Classes(reps, sizes, dist, first)
        if not root:
            self._remember(node, classes)
        return classes

    def _remember(self, node: tuple[int, ...], classes: Classes) -> None:
        """Cache a node's classes for later roll-ups; when the memory budget is spent, the
        cached node with the most classes (the least useful source) makes room (its slot
        stays, in no column's masks)."""
        elements = 2 * classes.size + (
            0 if classes.dist is None else 3 * classes.dist.pair_class.size
        )
        count = len(self._cache_entries)
        while count and self._cache_elements + elements > self._CACHE_ELEMENTS:
            worst = int(np.argmax(self._cache_classes))
            gone = self._cache_entries[worst]
            if gone is None or self._cache_classes[worst] <= classes.size:
                return
            self._cache_entries[worst] = None
            self._cache_elements -= 2 * gone.size + (
                0 if gone.dist is None else 3 * gone.dist.pair_class.size
            )
            self._cache_classes[worst] = -1
            keep = ~(1 << worst)
            for masks in self._below:
                for level, mask in enumerate(masks):
                    masks[level] = mask & keep
        bit = 1 << count
        for masks, level in zip(self._below, node, strict=True):
            for above in range(level, len(masks)):
                masks[above] |= bit
        self._cache_entries.append(classes)
        self._cache_elements += elements
        self._cache_nodes.append(node)
        self._cache_classes.append(classes.size)


class RootCodes:
    """One column's codes at each level for the classes of a coarse root (``codes[level]``
    of its representative units ``reps``), each level gathered when first read: a search
    keys a few nodes from each root, at a few of the levels (cup's search without
    suppression reads 50 level arrays of its 7 roots, where gathering every level above
    each root gathered 168; adult's 0% search 83 instead of 164)."""

    __slots__ = ("_codes", "_reps", "_gathered", "size")

    def __init__(self, codes: Sequence[np.ndarray], reps: np.ndarray):
        self._codes = codes
        self._reps = reps
        self._gathered: list[np.ndarray | None] = [None] * len(codes)
        self.size = reps.size  # classes of the root

    def __getitem__(self, level: int) -> np.ndarray:
        gathered = self._gathered[level]
        if gathered is None:
            gathered = self._gathered[level] = self._codes[level][self._reps]
        return gathered


def dense(key: np.ndarray, by_sort: bool = False) -> tuple[np.ndarray, int]:
    """A key renumbered 0..distinct - 1, and the number of distinct keys (at least 1), by
    a hash; ``by_sort``: by one sort (:func:`core.measures.codes.key_runs`) unless the key
    is too wide to sort packed, for keys mostly distinct (a coarse root: on adult's
    11,000-18,000-class roots 60-95 us against pd.factorize's 110-130; a node's key, whose
    values repeat, hashes faster: cup's with 1% suppressed, 25 against 35 ms)."""
    runs = key_runs(key) if by_sort else None
    if runs is not None:
        codes, first = runs
        return codes, max(first.size, 1)
    codes, uniques = pd.factorize(key)
    return codes.astype(np.int64, copy=False), max(len(uniques), 1)
