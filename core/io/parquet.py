"""Parquet files: the schema, the cell count and the decoded size checked on the file's
metadata and dictionaries before any column is decoded into the table.
"""

from __future__ import annotations

import io
from collections.abc import Collection

import numpy as np
import pandas as pd

from core.errors import DataReadError, parser_message
from core.io.header import apply_header, require_unique_names, require_width
from core.io.numbers import dictionary_categorical

#: Limits on what a Parquet file may unpack to. Its column encodings (dictionary, run
#: length) and compression let a file of a few KiB stand for billions of cells or one long
#: value repeated millions of times, so the cells are checked on the file's metadata and
#: the decoded size (text measured through its dictionaries) before any column is
#: decoded into the table. Larger tables: the DuckDB or Spark engine (docs/engines.md).
MAX_PARQUET_CELLS = 500_000_000
MAX_PARQUET_UNPACKED_BYTES = 8 * 2**30


def read_parquet(data: bytes, display: str, coded: Collection[str] = ()) -> pd.DataFrame:
    """The table in the Parquet file ``data``, its stored types kept; the text columns
    named in ``coded`` become Categoricals of their values, from the file's dictionaries
    (:func:`core.io.numbers.dictionary_categorical`), without decoding the text of every row."""
    import pyarrow.parquet as pq
    import pyarrow.types as pa_types

    try:
        schema = pq.read_schema(io.BytesIO(data))
    except Exception as exc:  # pyarrow raises ArrowInvalid, OSError, ... on damaged files
        raise DataReadError(
            f"File '{display}' is not a readable Parquet file (it may be damaged or in another "
            f"format: {parser_message(exc)}). Export the table again."
        ) from exc
    require_width(len(schema.names), display)
    require_unique_names([str(n).strip() for n in schema.names], display)
    nested = [str(f.name) for f in schema if pa_types.is_nested(f.type)]
    if nested:  # checked on the schema, before the data is read
        listed = ", ".join(repr(n) for n in nested)
        raise DataReadError(
            f"File '{display}': column(s) {listed} hold nested values (lists, structs or "
            "maps), which a table of one value per cell cannot hold. Flatten them into plain "
            "columns first (e.g. one column per struct field), or drop them."
        )
    try:
        rows = pq.read_metadata(io.BytesIO(data)).num_rows
        if rows * len(schema) > MAX_PARQUET_CELLS:
            raise DataReadError(
                f"File '{display}' holds {rows * len(schema):,} cells ({rows:,} rows x "
                f"{len(schema):,} columns), more than the {MAX_PARQUET_CELLS:,} this tool "
                "reads into memory. Use --engine duckdb (or spark), or select fewer rows "
                "or columns first."
            )
        text = [f.name for f in schema if _is_text(f.type)]
        # Text stays dictionary-encoded until its decoded size is known to be within bounds.
        table = pq.read_table(io.BytesIO(data), read_dictionary=text)
        unpacked = table.nbytes - sum(table[name].nbytes for name in text)
        unpacked += sum(_decoded_text_bytes(table[name]) for name in text)
        if unpacked > MAX_PARQUET_UNPACKED_BYTES:
            raise DataReadError(
                f"File '{display}' would unpack to {unpacked:,} bytes, more than the "
                f"{MAX_PARQUET_UNPACKED_BYTES:,} this tool reads into memory (a file of "
                f"{len(data):,} bytes: its values repeat through dictionaries or "
                "compression). Use --engine duckdb (or spark), or check where the file "
                "came from."
            )
        keep = {name for name in text if str(name).strip() in coded}
        table = _decode_dictionaries(table, [name for name in text if name not in keep])
    except DataReadError:
        raise
    except Exception as exc:  # pyarrow raises ArrowInvalid, OSError, ... on damaged files
        raise DataReadError(
            f"File '{display}' is not a readable Parquet file (it may be damaged or in another "
            f"format: {parser_message(exc)}). Export the table again."
        ) from exc
    names = [str(n).strip() for n in table.column_names]
    placeholder = table.rename_columns([f"_c{i}" for i in range(len(names))])
    try:
        if keep:  # the kept dictionaries become Categoricals here, the rest as pandas reads
            placeholders = placeholder.column_names
            at = {i for i, name in enumerate(table.column_names) if name in keep}
            body = placeholder.select([i for i in range(len(names)) if i not in at]).to_pandas()
            body = pd.DataFrame(
                {
                    name: dictionary_categorical(placeholder.column(i)) if i in at else body[name]
                    for i, name in enumerate(placeholders)
                },
                index=pd.RangeIndex(table.num_rows),
                copy=False,
            )
        else:
            body = placeholder.to_pandas()
    except Exception as exc:
        raise DataReadError(
            f"File '{display}' holds column types that cannot be converted to a table ({parser_message(exc)})."
        ) from exc
    body.attrs = {}
    return apply_header(body, names, display)


def _is_text(arrow_type) -> bool:
    import pyarrow.types as pa_types

    if pa_types.is_dictionary(arrow_type):
        arrow_type = arrow_type.value_type
    return (
        pa_types.is_string(arrow_type)
        or pa_types.is_large_string(arrow_type)
        or (pa_types.is_binary(arrow_type) or pa_types.is_large_binary(arrow_type))
    )


def _decoded_text_bytes(column) -> int:
    """Bytes of text ``column`` (dictionary-encoded) holds once every index is decoded."""
    import pyarrow.compute as pc

    total = 0
    for chunk in column.chunks:
        lengths = pc.binary_length(chunk.dictionary).fill_null(0).to_numpy().astype(np.int64)
        indices = chunk.indices.fill_null(0).to_numpy()
        uses = np.bincount(indices, minlength=len(lengths))  # how often each value is used
        total += int(uses @ lengths) + 8 * len(chunk)  # text, then offsets and validity
    return total


def _decode_dictionaries(table, text: list[str]):
    """``table`` with its text columns as plain text again, as Parquet without dictionaries
    reads (a dictionary column would become a pandas Categorical)."""
    for name in text:
        column = table[name]
        if hasattr(column.type, "value_type"):
            position = table.schema.get_field_index(name)
            table = table.set_column(position, name, column.cast(column.type.value_type))
    return table
