"""The quick way through UTF-8 text, which most exports are: only the file's head is
decoded, and pyarrow parses the rest straight from the file.

Separate from :mod:`core.io.delimited` because it may decline (returning ``None``), and
then the full reading decides and words any problem.
"""

from __future__ import annotations

import codecs
import csv
from collections.abc import Collection
from typing import Any

import numpy as np
import pandas as pd

from core.errors import DataReadError
from core.io.delimited import (
    QUICK_BLOCK_BYTES,
    arrow_csv,
    frame_from_text_columns,
    lift_csv_field_limit,
    text_lines,
)
from core.io.files import RegularFile, data_head, data_size
from core.io.header import require_width
from core.io.text import BOMS, SAMPLE_CHARS, detect_sep, normalise_sep

#: Bytes of a text file decoded to detect its delimiter and header: enough for
#: SAMPLE_CHARS characters of UTF-8 (at most 4 bytes each) and one more.
_HEAD_BYTES = 4 * (SAMPLE_CHARS + 1)


def read_utf8_text(
    data: bytes | RegularFile,
    display: str,
    sep: str | None,
    encoding: str | None,
    coded: Collection[str] = (),
) -> tuple[pd.DataFrame, str, str] | None:
    """The quick way through UTF-8 text, which most exports are: only the file's head is
    decoded (to detect the delimiter and read the header), and pyarrow's parser reads the
    rest straight from the file or the bytes, checking that it is UTF-8 as it parses.

    It gives the table :func:`core.io.delimited.read_text` would give, or ``None`` when
    that function must decide: another encoding, a head it does not settle (a header longer
    than the head, a delimiter absent from it, blank or binary content), a row longer than a
    parser block, or any problem, whose message that function words (naming the line or byte).
    The columns named in ``coded`` come as Categoricals, as that function gives them.
    """
    import pyarrow as pa

    if encoding is not None:
        try:
            if codecs.lookup(encoding).name != "utf-8":
                return None
        except LookupError:
            return None
    size = data_size(data)
    head = data_head(data, _HEAD_BYTES)
    whole = len(head) >= size
    if any(head.startswith(bom) for bom, _ in BOMS if bom != codecs.BOM_UTF8):
        return None  # UTF-16 or UTF-32
    skip = len(codecs.BOM_UTF8) if head.startswith(codecs.BOM_UTF8) else 0
    try:  # a character cut at the end of the head is completed by the rest of the file
        text = codecs.getincrementaldecoder("utf-8")().decode(head[skip:], final=whole)
    except UnicodeDecodeError:
        return None
    if "\x00" in text or not text or text.isspace():
        return None
    if sep is None:
        # the head holds more than the SAMPLE_CHARS characters the detection samples, so
        # it chooses as on the whole text
        used_sep = detect_sep(text)
    else:
        used_sep = normalise_sep(sep, display)
        if used_sep not in text:
            return None
    complete_lines = text if whole else text[: text.rfind("\n") + 1]
    lift_csv_field_limit()
    reader = csv.reader(text_lines(complete_lines), delimiter=used_sep)
    try:
        header = next((row for row in reader if row), None)
    except csv.Error:
        return None
    if header is None or (not whole and reader.line_num >= complete_lines.count("\n")):
        return None  # the header may go on beyond the head
    require_width(len(header), display)
    try:
        if isinstance(data, RegularFile):
            with data.arrow_stream(skip) as stream:
                table = arrow_csv(stream, used_sep, len(header), QUICK_BLOCK_BYTES)
        else:
            table = arrow_csv(
                pa.BufferReader(memoryview(data)[skip:]), used_sep, len(header), QUICK_BLOCK_BYTES
            )
    except (pa.ArrowException, DataReadError):
        return None
    if _holds_nul(table):
        return None
    used_encoding = encoding if encoding is not None else ("utf-8-sig" if skip else "utf-8")
    df = frame_from_text_columns(table, header, display, size, coded)
    return df, used_sep, used_encoding


def _holds_nul(table: Any) -> bool:
    """Whether any value of the parsed text holds a NUL byte (binary data)."""
    texts = (chunk.buffers()[2] for column in table.columns for chunk in column.chunks)
    return any(text and np.frombuffer(text, np.uint8).min() == 0 for text in texts)
