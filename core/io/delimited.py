"""Delimited text (CSV/TSV/TXT) in any encoding: the whole file decoded, checked and
parsed by pyarrow, every problem named with its line. Also the parsing and the building of
the table that the quick UTF-8 path (:mod:`core.io.quick_text`) shares.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pandas as pd

from core.errors import DataReadError, parser_message
from core.io.header import apply_header, require_width
from core.io.numbers import dictionary_categorical, numbers_or_none
from core.io.text import decode_text, detect_sep, normalise_sep

#: Longest text cell read from a delimited file or Parquet. The csv module's own limit
#: (131,072 characters) is lifted, so long free-text notes load; beyond this, an error
#: names the row and column.
MAX_CELL_CHARS = 10 * 2**20
_CSV_FIELD_LIMIT = 2**31 - 1  # the csv module's limit is a C long; ours is checked after

#: pyarrow parses text in blocks of this size on its threads; a record longer than a block
#: sends the file to the slower reading, whose blocks hold the longest record.
QUICK_BLOCK_BYTES = 1 << 20
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


def _first_bad_line(text: str, sep: str, expected: int) -> tuple[int, int] | None:
    """(line number, field count) of the first record whose field count differs."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    counts = np.fromiter(map(len, reader), dtype=np.int64)
    bad = np.flatnonzero((counts != expected) & (counts != 0))
    if bad.size == 0:
        return None
    target = int(bad[0])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    start = 1
    for index, _row in enumerate(reader):
        if index == target:
            return start, int(counts[target])
        start = reader.line_num + 1
    return None  # pragma: no cover


def read_text(
    data: bytes,
    display: str,
    sep: str | None,
    encoding: str | None,
    coded: Collection[str] = (),
) -> tuple[pd.DataFrame, str, str]:
    """Any encoding: the whole file is decoded (detecting the encoding), checked, and
    given to pyarrow's parser as UTF-8. Every problem is named here. The columns named in
    ``coded`` come as Categoricals (:func:`frame_from_text_columns`)."""
    text, used_encoding = decode_text(data, display, encoding)
    lift_csv_field_limit()
    if "\x00" in text:
        raise DataReadError(
            f"File '{display}' contains binary data (NUL bytes), so it is not a text table. "
            "If it is an Excel or Parquet file, give it the right extension (.xlsx, .parquet)."
        )
    if not text or text.isspace():  # without copying the text
        raise DataReadError(
            f"File '{display}' contains only blank lines: there is no header and no data. "
            "Choose the file that contains the data."
        )
    if sep is None:
        used_sep = detect_sep(text)
    else:
        used_sep = normalise_sep(sep, display)
        if used_sep not in text:
            detected = detect_sep(text)
            hint = (
                f" The file seems to use {_DELIMITER_NAMES.get(detected, repr(detected))} "
                f"({detected!r})."
                if detected in text
                else ""
            )
            raise DataReadError(
                f"The delimiter {used_sep!r} does not occur in file '{display}'.{hint} Give "
                "the right delimiter, or leave it empty to detect it."
            )

    try:
        header = next((row for row in csv.reader(text_lines(text), delimiter=used_sep) if row), [])
    except csv.Error as exc:  # e.g. a carriage return alone inside the header's line
        raise DataReadError(
            f"File '{display}': the header row cannot be read ({exc}). Lines must end with a "
            "line feed (Windows or Unix line ends); save the file again as CSV."
        ) from exc
    require_width(len(header), display)
    utf8 = data if used_encoding in ("utf-8", "utf-8-sig") else text.encode("utf-8")
    del text  # the parser reads the bytes; the decoded text is not needed any more
    if utf8.startswith(codecs.BOM_UTF8):
        utf8 = utf8[len(codecs.BOM_UTF8) :]
    table = _parse_csv(utf8, display, used_sep, header)
    df = frame_from_text_columns(table, header, display, len(utf8), coded)
    return df, used_sep, used_encoding


def frame_from_text_columns(
    table: Any, header: list[str], display: str, size: int, coded: Collection[str] = ()
) -> pd.DataFrame:
    """The DataFrame of the parsed text: the text/number rule per column (:mod:`core.io`), the
    header checks, and the cell-length limit. A column named (spaces around the name
    aside) in ``coded`` becomes a Categorical of the values the plain column holds: its text
    is coded once by pyarrow and the rule judged on its distinct values
    (:func:`core.io.numbers.categorical_of`), so no number is converted row by row and the
    caller, which only groups and counts it, codes no text again."""
    import pyarrow as pa
    import pyarrow.compute as pc

    # A cell has at most as many characters as bytes: a chunk whose text is within the limit
    # in bytes, or whose longest value is, needs no count of characters.
    maybe_too_long = size > MAX_CELL_CHARS and any(
        chunk.buffers()[2].size > MAX_CELL_CHARS
        and (pc.max(pc.binary_length(chunk)).as_py() or 0) > MAX_CELL_CHARS
        for column in table.columns
        for chunk in column.chunks
        if chunk.buffers()[2] is not None
    )
    coded = {i for i, name in enumerate(header) if name.strip() in coded}

    def convert(position: int) -> Any:
        column = table.column(position)
        if position in coded:  # the parsed rows only: the header's word is no value here
            return dictionary_categorical(pc.dictionary_encode(column), as_read=True)
        return numbers_or_none(column) or column

    with ThreadPoolExecutor(max_workers=2) as pool:  # pyarrow and NumPy release the GIL
        columns = list(pool.map(convert, range(table.num_columns)))
    plain = [i for i in range(table.num_columns) if i not in coded]
    names = table.column_names
    df = pa.table([columns[i] for i in plain], names=[names[i] for i in plain]).to_pandas(
        split_blocks=True
    )
    if coded:  # the Categoricals join the plain columns in the file's order
        df = pd.DataFrame(
            {name: columns[i] if i in coded else df[name] for i, name in enumerate(names)},
            index=pd.RangeIndex(table.num_rows),
            copy=False,
        )
    df = apply_header(df, [h.strip() for h in header], display)
    if maybe_too_long:
        _check_cell_lengths(df, display)
    return df


def lift_csv_field_limit() -> None:
    """Let the csv module read fields of any length (it stops at 131,072 characters)."""
    if csv.field_size_limit() < _CSV_FIELD_LIMIT:
        csv.field_size_limit(_CSV_FIELD_LIMIT)  # process-wide; MAX_CELL_CHARS is ours


def text_lines(text: str):
    """The lines of ``text`` one at a time, without copying the whole text (the header may
    follow blank lines and hold quoted line breaks, so the csv module reads the lines)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end + 1
        yield text[start:end]
        start = end


def arrow_csv(source: Any, sep: str, width: int, block_bytes: int, bad: list | None = None) -> Any:
    """Every field of the delimited text in ``source`` as text, the header row skipped
    (pyarrow's multi-threaded parser; only "" is missing). A record whose field count is
    not ``width`` makes it raise ``ArrowInvalid`` (and is appended to ``bad``), as does a
    record longer than ``block_bytes``."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    def refuse(row: Any) -> str:
        if bad is not None:
            bad.append(row)
        return "error"

    placeholders = [f"_c{i}" for i in range(width)]
    return pa_csv.read_csv(
        source,
        read_options=pa_csv.ReadOptions(
            # the header is read by the csv module
            skip_rows=0,
            column_names=placeholders,
            block_size=block_bytes,
        ),
        parse_options=pa_csv.ParseOptions(
            delimiter=sep, newlines_in_values=True, invalid_row_handler=refuse
        ),
        convert_options=pa_csv.ConvertOptions(
            # large_string is the type pandas' text columns hold: to_pandas need not convert
            column_types=dict.fromkeys(placeholders, pa.large_string()),
            null_values=[""],
            strings_can_be_null=True,
            quoted_strings_can_be_null=True,
        ),
    ).slice(1)  # the header row


def _parse_csv(utf8: bytes, display: str, sep: str, header: list[str]) -> Any:
    """:func:`arrow_csv` on the whole text, in blocks that hold the longest record; a
    record whose field count differs from the header's is refused with its line number."""
    import pyarrow as pa

    bad: list[Any] = []
    try:
        return arrow_csv(
            io.BytesIO(utf8),
            sep,
            len(header),
            max(QUICK_BLOCK_BYTES, min(len(utf8) + 1, 64 << 20)),
            bad,
        )
    except (pa.ArrowInvalid, pa.ArrowException) as exc:
        if bad:
            problem = _first_bad_line(utf8.decode("utf-8"), sep, len(header))
            if problem is not None:
                line, found = problem
                raise DataReadError(
                    f"File '{display}': line {line} has {found} field(s) but the header has "
                    f"{len(header)} (delimiter {sep!r}). Check that line for a missing or extra "
                    f"delimiter or an unclosed quote, or choose another delimiter."
                ) from exc
        raise DataReadError(
            f"File '{display}' could not be parsed as a table with delimiter {sep!r} "
            f"({parser_message(exc)}). Check the delimiter and the quotes in the file."
        ) from exc


def _check_cell_lengths(df: pd.DataFrame, display: str) -> None:
    """Refuse a text cell longer than :data:`MAX_CELL_CHARS`, naming its row and column."""
    for column in df.columns:
        series = df[column]
        if not (pd.api.types.is_string_dtype(series) or series.dtype == object):
            continue
        try:
            lengths = series.str.len()
        except AttributeError:  # an object column that holds no text
            continue
        too_long = (lengths > MAX_CELL_CHARS).to_numpy(dtype=bool, na_value=False)
        if too_long.any():
            row = int(too_long.nonzero()[0][0])
            raise DataReadError(
                f"File '{display}': the cell in row {row + 1}, column {str(column)!r} holds "
                f"{int(lengths.iloc[row]):,} characters, more than the {MAX_CELL_CHARS:,} this "
                "tool reads in one cell. Shorten or remove that text (free text rarely belongs "
                "in an anonymised release), or split it over several columns."
            )
