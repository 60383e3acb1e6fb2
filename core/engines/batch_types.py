"""The CSV reader's text/number rule (:mod:`core.io.numbers`) on the Arrow batches an
engine reads: each column's kind (text, int or float) judged over every batch, and a
batch turned into the table :func:`core.io.read_table` would give.

Separate from :mod:`core.engines.streaming` because the sample of Step 1
(:func:`core.engines.sources.sample_rows`), ``apply`` on DuckDB and ``apply`` on Spark
all type batches this way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pandas as pd

from core.io.numbers import numbers_or_none


def _kind(array: Any) -> str:
    if array.null_count == len(array):
        return "empty"
    numbers = numbers_or_none(array)
    if numbers is None:
        return "text"
    return "int" if str(numbers.type) == "int64" else "float"


def batch_kinds(batch: Any) -> list[str]:
    """Per column of a pyarrow batch of CSV text: empty, text, int or float."""
    return [_kind(batch.column(i)) for i in range(batch.num_columns)]


def combine_kinds(per_batch: Iterator[list[str]]) -> list[str]:
    """Per column: text, int or float over every batch (the reader's rule on the whole)."""
    seen: list[set[str]] | None = None
    for kinds in per_batch:
        seen = seen or [set() for _ in kinds]
        for column, kind in zip(seen, kinds, strict=True):
            column.add(kind)
    result = []
    for column in seen or []:
        if "text" in column or column <= {"empty"}:
            result.append("text")
        else:
            result.append("int" if column == {"int"} else "float")
    return result


def csv_kinds(batches: Iterator[Any]) -> list[str]:
    """Per column: text, int or float over every pyarrow batch of CSV text in ``batches``."""
    return combine_kinds(batch_kinds(batch) for batch in batches)


def to_frame(
    batch: Any,
    column_names: Sequence[str],
    kinds: list[str] | None,
    nullable: frozenset[int] = frozenset(),
) -> pd.DataFrame:
    """A pyarrow batch (columns ``c0, c1, ...``) as the reader's table: CSV columns typed
    by ``kinds``, Parquet integer/boolean columns with a gap somewhere (``nullable``,
    :func:`core.engines.sources.nullable_columns`) as floats/objects in every batch, the
    columns named ``column_names`` (the files' column names)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.types as pat

    arrays = list(batch.columns)
    objects = []
    for i in nullable:
        if pat.is_boolean(arrays[i].type):
            objects.append(i)
        elif arrays[i].null_count == 0:
            arrays[i] = arrays[i].cast(pa.float64())  # as a batch with a gap converts
    if kinds is not None:
        for i, kind in enumerate(kinds):
            if kind != "text":  # every value is a plain number (checked by csv_kinds)
                target = pa.int64() if kind == "int" else pa.float64()
                arrays[i] = pc.cast(pc.utf8_trim_whitespace(arrays[i]), target)
    names = [f"c{i}" for i in range(len(arrays))]
    frame = pa.Table.from_arrays(arrays, names=names).to_pandas(split_blocks=True)
    for i in objects:
        frame[names[i]] = frame[names[i]].astype(object)
    frame.columns = list(column_names)
    return frame
