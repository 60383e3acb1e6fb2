"""The frequency table an engine returns: one row per distinct combination of the
quasi-identifiers (and the sensitive attribute) with how many records have it, each
column a pandas Categorical, so the in-memory figures read its codes.

Separate from :mod:`core.engines` (which chooses the engine and runs it) so that the
DuckDB and Spark engines build the same table without importing the package that
imports them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from core.engines.packed import CodeBook, frequency_frame
from core.engines.sources import Sources

#: The name of the column that holds each combination's number of records in a GROUP BY.
COUNT = "__records__"


@dataclass(frozen=True)
class FrequencyTable:
    """Distinct value combinations (``table``, one column per attribute, named as in the
    data) and how many records have each (``counts``). From
    :func:`core.engines.frequency_table` every column is a pandas Categorical (integer codes
    and one copy of each distinct value; missing is code -1): the in-memory figures read
    codes, as for any Categorical."""

    table: pd.DataFrame
    counts: np.ndarray
    sources: Sources | None  # None for a Spark DataFrame given directly

    @property
    def records(self) -> int:
        return int(self.counts.sum())


def coded_frequency_table(
    batches: Iterable[pa.RecordBatch], columns: Sequence[str], *, as_read: bool
) -> tuple[pd.DataFrame, np.ndarray]:
    """The frame of a GROUP BY's result (record batches: one column per attribute, then
    ``__records__``) with each column Categorical, and the counts.

    Each batch is dictionary-encoded as it arrives and only its integer codes are kept, so
    the result's text never exists for all rows at once: on a table where most value
    combinations are unique the frequency table has nearly as many rows as the data, and
    its text would cost several times its codes. ``as_read``: judge each column's distinct
    values by the CSV reader's text/number rule (:mod:`core.io`); values it reads as one
    number (``7`` and ``7.0``) become one category, and a missing value is code -1."""
    books = [CodeBook() for _ in columns]
    parts: list[list[np.ndarray]] = [[] for _ in columns]
    counts = []
    for batch in batches:
        for index, book in enumerate(books):
            parts[index].append(book.codes(batch.column(index)))
        records = batch.column(len(columns)).to_numpy(zero_copy_only=False)
        # 32 bits while DuckDB still holds its memory (a group of over 2**31 records: 64)
        narrow = records.size and records.max() < np.iinfo(np.int32).max
        counts.append(records.astype(np.int32) if narrow else records)
    counted = (
        np.concatenate(counts).astype(np.int64, copy=False) if counts else np.zeros(0, np.int64)
    )
    del counts
    pa.default_memory_pool().release_unused()  # the batches' text, freed: back to the system

    def joined() -> Iterator[np.ndarray]:  # each column's parts let go once joined
        for index in range(len(columns)):
            pieces, parts[index] = parts[index], []
            codes = np.concatenate(pieces) if pieces else np.zeros(0, np.int8)
            del pieces
            yield codes

    table = frequency_frame(books, joined(), columns, rows=counted.size, as_read=as_read)
    return table, counted
