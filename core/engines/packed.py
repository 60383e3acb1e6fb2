"""The frequency table counted in this process from a stream of records, as packed codes.

A GROUP BY keeps every distinct combination of the columns' *values* in a hash table. On
tables where most combinations are unique (8 quasi-identifiers and a sensitive value:
29.5M combinations in 50M records) that table is larger than the data's columns. DuckDB's
held 7 GB for the bench_scale table of 50M rows; under the engine's 3 GB limit it spilled
to disk, and that cost most of the gap to the issue 15 time goal.

Here the engine only *reads* the records, in batches, and this module counts them:

1. each column's values are coded to small integers by a code book (:class:`CodeBook`:
   the distinct values seen so far; a batch whose values have all been seen is coded by
   one hash lookup per value);
2. the codes of a record are packed into one 64-bit integer, each column in a bit field
   wide enough for its code book (:class:`KeyLayout`: about 32 bits for the bench table);
3. the keys of about :data:`SORT_ROWS` records are sorted and counted, and those counts
   are merged into the running counts (sorted unique keys and how many records have
   each), so memory follows the number of distinct combinations, not of records.

The result is the frequency table :func:`core.engines.coded_frequency_table` makes from a
GROUP BY's rows (the same rows: one per distinct combination of values as read, missing
being a value of its own; in another order, which no figure depends on).

When a code book outgrows its bit field the fields are widened and the counts re-packed
(the order of the keys is the same in any layout, so they stay sorted). When the fields
together would need more than 63 bits (several columns of millions of distinct values)
:class:`KeysTooWide` is raised and the caller counts by a GROUP BY instead.

The Spark engine packs the same way, on its executors (:mod:`core.engines.spark_engine`):
it finds each column's values first, so its :class:`CodeBook` and :class:`KeyLayout` are
made whole, and :func:`frequency_frame` reads its keys as it reads these.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from core.io.numbers import categorical_of, small_int

#: Bits of a packed key: a signed 64-bit integer, kept non-negative so keys sort as codes.
KEY_BITS = 63

#: Spare bits given to a column's field when it is widened, so that a code book growing
#: over the batches (a column of ages: 70 values seen, then 90) is re-packed a few times,
#: not at every batch; dropped when the columns need every bit.
SPARE_BITS = 2

#: Keys sorted and counted at once before they are merged into the running counts (512 MiB
#: of keys): below it, one sort of every record's key and no merge. NumPy sorts 64-bit
#: integers fast (10M in about 0.06 s on this project's machine) while a merge looks up
#: each new key in the running counts (``searchsorted``, one cache miss a key): at 10M
#: records of bench_commands' table, 64 MiB at a time took 0.5-2.5 s to count against
#: 0.2 s for one sort. Above it memory still follows the distinct combinations.
SORT_ROWS = 67_108_864


class KeysTooWide(Exception):
    """The columns' codes need more than :data:`KEY_BITS` bits together."""


class CodeBook:
    """The distinct values of one column seen so far (a missing value is one of them), in
    the order they were first seen, and the codes of each batch into them."""

    def __init__(self, values: pa.Array | None = None) -> None:
        self.values = values

    def __len__(self) -> int:
        return 0 if self.values is None else len(self.values)

    def codes(self, array: pa.Array) -> np.ndarray:
        """Each value's code (its position in :attr:`values`, new values appended). A
        dictionary-encoded array (Parquet's text) is coded through its dictionary: only
        the distinct values are looked up, the rows' indices are mapped by one gather."""
        import pyarrow.compute as pc

        if pa.types.is_dictionary(array.type):
            local, indices = array.dictionary, array.indices
            if indices.null_count:  # a missing value: one more entry of the dictionary
                local = pa.concat_arrays([local, pa.nulls(1, local.type)])
                indices = pc.fill_null(indices, len(local) - 1)
            if pc.count_distinct(local, mode="all").as_py() == len(local):
                rows = indices.to_numpy(zero_copy_only=False)
                used = np.bincount(rows, minlength=len(local)) > 0  # a value no row has: none
                code_of_local = np.zeros(len(local), dtype=np.int64)
                code_of_local[used] = self._place(local.filter(pa.array(used)))
                small = code_of_local.astype(small_int(len(self)))
                return small[rows]
            array = array.dictionary_decode()  # a value twice in the dictionary: by value
        if self.values is not None:  # one hash lookup per value when all have been seen
            found = pc.index_in(array, value_set=self.values, skip_nulls=False)
            if found.null_count == 0:
                return found.to_numpy(zero_copy_only=False).astype(small_int(len(self)))
        encoded = pc.dictionary_encode(array, null_encoding="encode")
        code_of_local = self._place(encoded.dictionary)
        small = code_of_local.astype(small_int(len(self)))
        return small[encoded.indices.to_numpy(zero_copy_only=False)]

    def _place(self, local: pa.Array) -> np.ndarray:
        """The code of each of the distinct values ``local`` (a missing value among them
        at most once), values not seen before appended to :attr:`values`."""
        import pyarrow.compute as pc

        if self.values is None:
            self.values = local
            return np.arange(len(local))
        found = pc.index_in(local, value_set=self.values, skip_nulls=False)
        code_of_local = pc.fill_null(found, -1).to_numpy().astype(np.int64)
        new = code_of_local < 0
        if new.any():
            code_of_local[new] = len(self.values) + np.arange(np.count_nonzero(new))
            self.values = pa.concat_arrays([self.values, local.filter(pa.array(new))])
        return code_of_local

    def categorical(self, codes: np.ndarray, *, as_read: bool) -> pd.Categorical:
        """``codes`` (from :meth:`codes`) as a Categorical of the values
        (:func:`core.io.numbers.categorical_of`)."""
        values = self.values if self.values is not None else pa.array([], pa.string())
        return categorical_of(values, codes, as_read=as_read)


def _bits(cardinality: int) -> int:
    """Bits holding the codes ``0 .. cardinality - 1`` (at least one)."""
    return max(1, (cardinality - 1).bit_length())


@dataclass(frozen=True)
class KeyLayout:
    """The bit field of each column in a packed key: column 0 in the lowest bits."""

    widths: tuple[int, ...]

    @property
    def shifts(self) -> tuple[int, ...]:
        return tuple(int(s) for s in np.cumsum((0, *self.widths[:-1])))

    @classmethod
    def fitting(cls, cardinalities: Sequence[int]) -> KeyLayout:
        """The narrowest layout for codes ``0 .. cardinality - 1`` of each column."""
        return KeyLayout(tuple(1 for _ in cardinalities)).widened(cardinalities, spare=0)

    def holds(self, cardinalities: Sequence[int]) -> bool:
        return all(_bits(c) <= w for c, w in zip(cardinalities, self.widths, strict=True))

    def widened(self, cardinalities: Sequence[int], *, spare: int = SPARE_BITS) -> KeyLayout:
        """A layout holding ``cardinalities``: each field too narrow grows with ``spare``
        bits to spare (none when that would pass :data:`KEY_BITS`)."""
        needed = tuple(_bits(c) for c in cardinalities)
        if sum(needed) > KEY_BITS:
            raise KeysTooWide(f"the codes of {len(needed)} columns need {sum(needed)} bits")
        pairs = list(zip(needed, self.widths, strict=True))
        for layout in (
            tuple(w if n <= w else n + spare for n, w in pairs),  # grown with room
            tuple(max(n, w) for n, w in pairs),  # grown to fit, the others as they were
        ):
            if sum(layout) <= KEY_BITS:
                return KeyLayout(layout)
        return KeyLayout(needed)

    def pack(self, codes: Sequence[np.ndarray]) -> np.ndarray:
        key = np.zeros(len(codes[0]) if codes else 0, dtype=np.int64)
        for column, shift in zip(codes, self.shifts, strict=True):
            key |= column.astype(np.int64) << shift
        return key

    def unpack(self, keys: np.ndarray, column: int) -> np.ndarray:
        mask = (1 << self.widths[column]) - 1
        return (keys >> self.shifts[column]) & mask

    def unpacked(self, keys: np.ndarray) -> Iterator[np.ndarray]:
        """Each column's codes in ``keys``, one column at a time."""
        for column in range(len(self.widths)):
            yield self.unpack(keys, column)

    def repack(self, keys: np.ndarray, into: KeyLayout) -> np.ndarray:
        """``keys`` of this layout in layout ``into`` (same order: every field is compared
        from the last column to the first in either layout)."""
        packed = np.zeros_like(keys)
        for column, shift in enumerate(into.shifts):
            packed |= self.unpack(keys, column) << shift
        return packed


class RunningCounts:
    """Sorted distinct keys and how many records have each, growing batch by batch."""

    def __init__(self) -> None:
        self.keys = np.zeros(0, dtype=np.int64)
        self.counts = np.zeros(0, dtype=np.int64)
        self._pending: list[np.ndarray] = []
        self._pending_rows = 0

    def add(self, keys: np.ndarray) -> None:
        self._pending.append(keys)
        self._pending_rows += keys.size
        if self._pending_rows >= SORT_ROWS:
            self.flush()

    def flush(self) -> None:
        """Count the pending keys and merge them into the running counts."""
        if not self._pending:
            return
        keys = np.empty(self._pending_rows, dtype=np.int64)
        filled = 0
        while self._pending:  # each batch let go once copied: the keys are not held twice
            part = self._pending.pop(0)
            keys[filled : filled + part.size] = part
            filled += part.size
        self._pending_rows = 0
        keys.sort()
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        counts = np.diff(np.append(starts, keys.size))
        keys = keys[starts]
        del starts
        if not self.keys.size:  # the first counts: nothing to merge
            self.keys, self.counts = keys, counts
            return
        where = np.searchsorted(self.keys, keys)
        seen = where < self.keys.size
        seen[seen] = self.keys[where[seen]] == keys[seen]
        self.counts[where[seen]] += counts[seen]  # positions are distinct: no np.add.at
        new = ~seen
        self.keys = np.insert(self.keys, where[new], keys[new])
        self.counts = np.insert(self.counts, where[new], counts[new])

    def repack(self, layout: KeyLayout, into: KeyLayout) -> None:
        self.flush()
        self.keys = layout.repack(self.keys, into)


def count_packed(
    batches: Iterable[pa.RecordBatch],
    columns: Sequence[str],
    *,
    as_read: bool,
    on_batch=None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """The frequency table of ``batches`` (records: one column per attribute, in the order
    of ``columns``) as :func:`core.engines.coded_frequency_table` gives it: one Categorical
    column per attribute and the counts. ``on_batch(rows)`` hears each batch's size.
    Raises :class:`KeysTooWide` when the codes do not fit one 64-bit key."""
    books = [CodeBook() for _ in columns]
    layout = KeyLayout(tuple(1 for _ in columns))
    running = RunningCounts()
    for batch in batches:
        codes = [book.codes(batch.column(i)) for i, book in enumerate(books)]
        cardinalities = [len(book) for book in books]
        if not layout.holds(cardinalities):
            wider = layout.widened(cardinalities)
            running.repack(layout, wider)
            layout = wider
        running.add(layout.pack(codes))
        del codes
        if on_batch is not None:
            on_batch(batch.num_rows)
    running.flush()
    keys, counts = running.keys, running.counts
    del running
    table = frequency_frame(books, layout.unpacked(keys), columns, rows=keys.size, as_read=as_read)
    return table, counts


def frequency_frame(
    books: Sequence[CodeBook],
    codes: Iterable[np.ndarray],
    columns: Sequence[str],
    *,
    rows: int,
    as_read: bool,
) -> pd.DataFrame:
    """The frequency table's frame: one Categorical per attribute, its ``codes`` (one
    array per column, taken one at a time so that one column's temporaries exist at once)
    read in its code book."""
    table = pd.DataFrame(
        {
            f"g{i}": book.categorical(column, as_read=as_read)
            for i, (book, column) in enumerate(zip(books, codes, strict=True))
        },
        index=pd.RangeIndex(rows),
    )
    table.columns = list(columns)  # positional names first: any text is a column name
    return table
