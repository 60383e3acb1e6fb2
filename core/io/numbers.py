"""The text/number rule (see :mod:`core.io`): a text column becomes numbers only when
every present value is a plain decimal number with no leading zero, no ``+`` and at most
15 digits, so identifiers survive. Vectorised in pyarrow.

Separate because the engines (:mod:`core.engines`) apply the same rule to what DuckDB and
Spark read.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

_NUMBER = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
_KEEP_AS_TEXT = re.compile(r"^(?:[+-]?0\d|\+)")
_MAX_DIGITS = 15


def to_number_or_text(values: pd.Series) -> pd.Series:
    """Convert a text column to numbers when it is entirely numeric (the rule in :mod:`core.io`)."""
    import pyarrow as pa

    array = pa.array(values.astype(object).where(values.notna(), None), type=pa.string())
    numbers = numbers_or_none(array)
    if numbers is None:
        return values
    return pd.Series(numbers.to_pandas(), index=values.index, name=values.name)


def numbers_or_none(array: Any) -> Any:
    """The pyarrow text ``array`` as int64 (no missing values) or float64 numbers when
    every present value is a plain decimal number with no leading zero, no ``+`` and at
    most 15 digits (:mod:`core.io`); ``None`` when it stays text. Vectorised in pyarrow."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if array.null_count == len(array):
        return None
    # Judge a sample first: text columns and identifiers with leading zeros fail at once.
    if not _plain_numbers(pc.utf8_trim_whitespace(array.slice(0, 1000).drop_null())):
        return None
    whole = _canonical_integers(array)
    if whole is not None:
        return whole if array.null_count == 0 else pc.cast(whole, pa.float64())
    if not _plain_numbers(pc.utf8_trim_whitespace(pc.unique(array.drop_null()))):
        return None
    trimmed = pc.utf8_trim_whitespace(array)
    if array.null_count == 0:
        try:
            return pc.cast(trimmed, pa.int64())
        except pa.ArrowInvalid:
            pass  # decimals or exponents: floats, as pandas.to_numeric gives
    return pc.cast(trimmed, pa.float64())


def _plain_numbers(stripped: Any) -> bool:
    """Every value of the pyarrow text array is a number that the rules let be a number."""
    import pyarrow.compute as pc

    if len(stripped) == 0:
        return True
    return bool(
        pc.all(pc.match_substring_regex(stripped, _NUMBER.pattern)).as_py()
        and not pc.any(pc.match_substring_regex(stripped, _KEEP_AS_TEXT.pattern)).as_py()
        and pc.max(pc.count_substring_regex(stripped, r"\d")).as_py() <= _MAX_DIGITS
    )


def small_int(cardinality: int) -> type:
    """The smallest signed integer type holding codes ``-1 .. cardinality`` (pandas' own
    choice for a Categorical's codes, so it keeps them without a copy)."""
    for dtype in (np.int8, np.int16, np.int32):
        if cardinality < np.iinfo(dtype).max:
            return dtype
    return np.int64


def categorical_of(values: Any, codes: np.ndarray, *, as_read: bool) -> pd.Categorical:
    """``codes`` (positions in the pyarrow array of distinct ``values``) as a Categorical of
    the values. ``as_read``: judge the distinct values by the text/number rule (each value
    once, not once per row); values it reads as one number (``7`` and ``7.0``) become one
    category; missing is code -1, as in any Categorical. Grouping and counting this column
    gives what grouping the column :func:`core.io.read_table` reads gives."""
    if as_read:
        numbers = numbers_or_none(values)
        values = values if numbers is None else numbers
    category_of_value, categories = pd.factorize(values.to_pandas(), use_na_sentinel=True)
    dtype = small_int(len(categories))
    if np.array_equal(category_of_value, np.arange(len(values))):
        codes = codes.astype(dtype, copy=False)  # each value a category: codes stand
    else:
        codes = category_of_value.astype(dtype)[codes]
    # valid by construction (-1 .. categories - 1): no pass over tens of millions to check
    return pd.Categorical.from_codes(codes, categories=categories, validate=False)


def dictionary_categorical(column: Any, *, as_read: bool = False) -> pd.Categorical:
    """The dictionary-encoded pyarrow column (text as Parquet stores it, or as the CSV
    parser codes it) as a Categorical of its values, from the dictionaries: no row's text
    is decoded. A value of a dictionary that no row uses is no category (a category count
    is a count of values present). ``as_read``: the values present are judged by the
    text/number rule (:func:`categorical_of`), as a CSV column's text is."""
    import pyarrow as pa

    column = column.unify_dictionaries()  # one dictionary for every chunk
    if column.num_chunks == 0:
        return categorical_of(pa.array([], pa.string()), np.zeros(0, np.int8), as_read=as_read)
    values = column.chunk(0).dictionary
    indices = [chunk.indices for chunk in column.chunks]
    codes = np.concatenate([i.fill_null(-1).to_numpy(zero_copy_only=False) for i in indices])
    if column.null_count:  # a missing index: a missing value, put at the dictionary's end
        values = pa.concat_arrays([values, pa.nulls(1, values.type)])
        codes[codes < 0] = len(values) - 1
    used = np.bincount(codes, minlength=len(values)) > 0
    if not used.all():
        position = np.cumsum(used) - 1
        values = values.filter(pa.array(used))
        codes = position[codes]
    return categorical_of(values, codes, as_read=as_read)


_MINUS, _PLUS, _ZERO = b"-+0"


def _canonical_integers(array: Any) -> Any:
    """The array as int64 when every present value is written exactly as Python writes
    the integer (optional '-', no leading zero, no '+', no spaces, at most 15 digits): the
    common case, checked by one cast and a look at each value's first bytes and length.

    The cast accepts only an optional '-' then digits, or a '0x' hexadecimal literal; both
    a leading zero and '0x' start with '0', so refusing a '0' (or '-0') that is not the
    whole value leaves digits written as Python writes them. Values the check refuses go
    to the general rule in :func:`numbers_or_none`."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        numbers = pc.cast(array, pa.int64())
    except pa.ArrowInvalid:
        return None
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    for chunk in chunks:
        if len(chunk) == chunk.null_count:
            continue
        starts, lengths, data = _value_extents(chunk)
        first = data[starts]
        minus = first == _MINUS
        if (
            (first == _PLUS).any()
            or ((first == _ZERO) & (lengths > 1)).any()
            or (lengths - minus > _MAX_DIGITS).any()
            or (minus.any() and (data[starts[minus] + 1] == _ZERO).any())
        ):
            return None
    return numbers


def _value_extents(chunk: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start offsets and byte lengths of the present values of a pyarrow string array,
    and its bytes, read from its buffers without copying the text."""
    import pyarrow as pa

    if pa.types.is_large_string(chunk.type):
        width = np.int64
    else:
        width = np.int32
        if not pa.types.is_string(chunk.type):  # e.g. a string view from DuckDB
            chunk = chunk.cast(pa.string())
    _, offsets, data = chunk.buffers()
    item = np.dtype(width).itemsize
    bounds = np.frombuffer(offsets, width, count=len(chunk) + 1, offset=chunk.offset * item)
    starts, lengths = bounds[:-1], np.diff(bounds)
    if chunk.null_count:
        present = chunk.is_valid().to_numpy(zero_copy_only=False)
        starts, lengths = starts[present], lengths[present]
    return starts, lengths, np.frombuffer(data, np.uint8)
