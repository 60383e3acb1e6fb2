"""Parquet files read for counting (:mod:`core.engines.packed`) straight by pyarrow: each
text column comes as its dictionary codes, so no row's text is decoded and hashed again.

DuckDB decodes a Parquet file's dictionaries into text, which this process then had to
code value by value: at 1M records of bench_commands' table that coding was most of the
engine's time. Read here, a text column costs one lookup of each row group's dictionary
(:meth:`core.engines.packed.CodeBook.codes`) and one gather of the rows' indices.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from core.engines.sources import Sources
from core.errors import DataReadError, parser_message

#: Rows per record batch read (a row group larger than this comes in several batches).
BATCH_ROWS = 1_048_576


def parquet_batches(sources: Sources, stored: list[str]) -> Iterator[Any]:
    """Every record's ``stored`` columns, in that order, file after file: pyarrow record
    batches whose text columns are dictionary-encoded (their values and each row's index);
    a read error is one line naming the file."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    import pyarrow.types as pa_types

    for file in sources.files:
        try:
            with pq.ParquetFile(file) as probe:
                schema = probe.schema_arrow
            text = [
                name
                for name in stored
                if pa_types.is_string(schema.field(name).type)
                or pa_types.is_large_string(schema.field(name).type)
                or pa_types.is_binary(schema.field(name).type)
                or pa_types.is_large_binary(schema.field(name).type)
            ]
            with pq.ParquetFile(file, read_dictionary=text) as handle:
                for batch in handle.iter_batches(batch_size=BATCH_ROWS, columns=stored):
                    # the file's column order, not the order asked: put back in ours
                    yield pa.RecordBatch.from_arrays(
                        [batch.column(name) for name in stored], names=list(stored)
                    )
        except (OSError, pa.ArrowException) as exc:
            raise DataReadError(
                f"File '{file}' could not be read as Parquet ({parser_message(exc)}). Export "
                "it again."
            ) from exc
