"""The files an engine reads: one file, a glob, or a folder of Parquet files, checked
before any engine starts (same format, same columns and types in every file), and the
CSV dialect detected as :mod:`core.io` does (delimiter among ``, ; tab |``, UTF-8)."""

from __future__ import annotations

import codecs
import csv
import glob
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from core.engines.batch_types import batch_kinds, combine_kinds, to_frame
from core.errors import DataReadError, parser_message
from core.io.header import require_unique_names, require_width
from core.io.reading import READ_FORMATS
from core.io.text import decode_text, detect_sep, normalise_sep
from core.validation import require_columns

_HEAD_BYTES = 64_000


@dataclass(frozen=True)
class Sources:
    """Files of one format with the same columns; ``names`` as the user sees them
    (stripped, as :func:`core.io.read_table` gives them) and ``stored`` as in the files."""

    files: tuple[str, ...]
    format: str  # "csv" or "parquet"
    names: tuple[str, ...]
    stored: tuple[str, ...]
    sep: str | None = None
    encoding: str | None = None
    skip: int = 0  # empty lines before a CSV header

    def stored_names(self, columns: Sequence[str]) -> list[str]:
        """The files' names of ``columns``; a name not in the files is an error."""
        require_columns(pd.DataFrame(columns=list(self.names)), columns, parameter="columns")
        return [self.stored[self.names.index(c)] for c in columns]


def resolve_sources(source: str, *, sep: str | None = None) -> Sources:
    """The files named by ``source`` (file, glob or folder), checked to hold one table."""
    return sources_of_files(_files(str(source)), sep=sep, source=str(source))


def sources_of_files(
    files: Sequence[str], *, sep: str | None = None, source: str | None = None
) -> Sources:
    """The table held by exactly these ``files`` (each read literally, never as a pattern:
    a recorded release's inputs, core.release.reproduce), checked as :func:`resolve_sources` checks."""
    files = [str(f) for f in files]
    source = source or ", ".join(files)
    kinds = {READ_FORMATS.get(Path(f).suffix.lower()) for f in files}
    if kinds - {"csv", "parquet"}:
        odd = next(
            f for f in files if READ_FORMATS.get(Path(f).suffix.lower()) not in ("csv", "parquet")
        )
        raise DataReadError(
            f"File '{odd}' is not CSV or Parquet; the duckdb and spark engines read only "
            "those (use --engine pandas for Excel, or save the sheet as CSV or Parquet)."
        )
    if len(kinds) > 1:
        raise DataReadError(
            f"'{source}' matches both CSV and Parquet files; give files of one format."
        )
    if kinds == {"parquet"}:
        return _parquet_sources(files)
    return _csv_sources(files, sep)


def _files(source: str) -> list[str]:
    path = Path(source).expanduser()
    if path.is_dir():
        files = sorted(str(p) for p in path.rglob("*") if p.suffix.lower() in (".parquet", ".pq"))
        if not files:
            raise DataReadError(
                f"Folder '{source}' holds no Parquet files (.parquet, .pq); give a file, a "
                "glob such as 'data/*.csv', or a folder of Parquet files."
            )
        return files
    if path.is_file():  # a file named 'p[1].csv' is that file, never a pattern
        return [str(path)]
    if any(ch in source for ch in "*?["):
        files = sorted(f for f in glob.glob(str(path), recursive=True) if Path(f).is_file())
        if not files:
            raise DataReadError(
                f"The pattern '{source}' matches no files. Check the folder and the pattern; "
                "nothing was read or written."
            )
        return files
    raise DataReadError(
        f"File '{source}' not found. Check the path and the spelling of the file name."
    )


def _parquet_sources(files: list[str]) -> Sources:
    import pyarrow.parquet as pq

    schemas = []
    for file in files:
        try:
            schemas.append(pq.read_schema(file))
        except Exception as exc:  # pyarrow raises several types on damaged files
            raise DataReadError(
                f"File '{file}' is not a readable Parquet file ({parser_message(exc)}). Export it "
                "again."
            ) from exc
    first = schemas[0]
    for file, schema in zip(files[1:], schemas[1:], strict=True):
        if schema.names != first.names:
            missing = [n for n in first.names if n not in schema.names]
            extra = [n for n in schema.names if n not in first.names]
            detail = (
                f"it lacks column(s) {', '.join(repr(m) for m in missing)}"
                if missing
                else f"it has extra column(s) {', '.join(repr(e) for e in extra)}"
                if extra
                else "its columns are in another order"
            )
            raise DataReadError(
                f"Parquet files differ: '{file}' does not have the columns of '{files[0]}' "
                f"({detail}). Give files of one table; nothing was written."
            )
        for field, other in zip(first, schema, strict=True):
            if field.type != other.type:
                raise DataReadError(
                    f"Parquet files differ: column {field.name!r} is {field.type} in "
                    f"'{files[0]}' but {other.type} in '{file}'. Give files of one table; "
                    "nothing was written."
                )
    names = tuple(str(n).strip() for n in first.names)
    require_width(len(names), files[0])
    require_unique_names(list(names), files[0])  # DuckDB would silently read one of two
    return Sources(tuple(files), "parquet", names, tuple(first.names))


def _csv_sources(files: list[str], sep: str | None) -> Sources:
    header, used_sep, encoding, skip = _csv_header(files[0], sep)
    for file in files[1:]:
        other, _, _, other_skip = _csv_header(file, used_sep)
        if other != header or other_skip != skip:
            missing = [h for h in header if h not in other]
            extra = [h for h in other if h not in header]
            detail = (
                f": it lacks column(s) {', '.join(repr(m) for m in missing)}"
                if missing
                else f": it has extra column(s) {', '.join(repr(e) for e in extra)}"
                if extra
                else ""
            )
            raise DataReadError(
                f"CSV files differ: the header of '{file}' is not the header of '{files[0]}'"
                f"{detail}. Give files of one table; nothing was written."
            )
    names = tuple(h.strip() for h in header)
    require_width(len(names), files[0])
    if "" in names:
        raise DataReadError(
            f"File '{files[0]}': every column needs a unique name in the header row."
        )
    require_unique_names(list(names), files[0])
    return Sources(tuple(files), "csv", names, names, used_sep, encoding, skip)


def _csv_header(file: str, sep: str | None) -> tuple[list[str], str, str, int]:
    with open(file, "rb") as handle:
        head = handle.read(_HEAD_BYTES)
    if not head.strip():
        raise DataReadError(f"File '{file}' is empty: there is no header and no data.")
    if not (head.startswith(codecs.BOM_UTF8) or _is_utf8(head)):
        raise DataReadError(
            f"File '{file}' is not UTF-8; the duckdb and spark engines read UTF-8 CSV. "
            "Convert it (e.g. iconv -f cp1252 -t utf-8), or use --engine pandas."
        )
    cut = head.rfind(b"\n") if len(head) == _HEAD_BYTES else len(head)
    text, encoding = decode_text(head[: cut if cut > 0 else len(head)], file, None)
    used_sep = detect_sep(text) if sep is None else normalise_sep(sep, file)
    try:
        header = next((row for row in csv.reader(io.StringIO(text), delimiter=used_sep) if row), [])
    except csv.Error as exc:  # e.g. a carriage return alone inside the header's line
        raise DataReadError(
            f"File '{file}': the header row cannot be read ({exc}). Lines must end with a "
            "line feed (Windows or Unix line ends); save the file again as CSV."
        ) from exc
    lines = text.lstrip("\ufeff").split("\n")
    skip = next((i for i, line in enumerate(lines) if line.strip("\r")), len(lines))
    return header, used_sep, encoding, skip


def _is_utf8(head: bytes) -> bool:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # a character cut at the end of the sample
    return True


def file_hashes(sources: Sources) -> list[tuple[str, str]]:
    """Each file of ``sources`` with its sha256 (what a release records it was made from)."""
    from core.workspace.fingerprints import sha256_file

    return [(f, sha256_file(f)) for f in sources.files]


def sources_sha256(sources: Sources, hashes: Sequence[tuple[str, str]] | None = None) -> str:
    """The data set's fingerprint, as a workspace records it: the sha256 of its file, or for
    a glob or folder the sha256 of its files' sha256s and paths (``hashes``, when already
    computed by :func:`file_hashes`)."""
    from core.workspace.fingerprints import sha256_bytes

    hashes = list(hashes) if hashes is not None else file_hashes(sources)
    if len(hashes) == 1:
        return hashes[0][1]
    return sha256_bytes("".join(f"{digest}  {f}\n" for f, digest in hashes).encode())


def expected_records(sources: Sources) -> tuple[int, bool]:
    """How many records the sources hold, and whether that is exact: the Parquet files'
    footers say; for CSV it is estimated from the files' sizes and the length of the
    first file's lines (for a progress bar, never for a figure)."""
    import pyarrow.parquet as pq

    if sources.format == "parquet":
        return sum(pq.ParquetFile(f).metadata.num_rows for f in sources.files), True
    with open(sources.files[0], "rb") as handle:
        head = handle.read(_HEAD_BYTES)
    line_bytes = len(head) / max(head.count(b"\n"), 1)
    size = sum(Path(f).stat().st_size for f in sources.files)
    return max(round(size / line_bytes) - 1, 1), False  # less a header


def sample_rows(sources: Sources, rows: int = 5000) -> pd.DataFrame:
    """The first rows of the first file, typed by the reader's rules on those rows (for
    Step 1's role suggestions before any engine starts)."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv
    import pyarrow.parquet as pq

    first = sources.files[0]
    names = [f"c{i}" for i in range(len(sources.names))]
    try:
        if sources.format == "parquet":
            batch = next(pq.ParquetFile(first).iter_batches(batch_size=rows), None)
            kinds = None
        else:
            reader = pa_csv.open_csv(
                first,
                read_options=pa_csv.ReadOptions(skip_rows=sources.skip + 1, column_names=names),
                parse_options=pa_csv.ParseOptions(delimiter=sources.sep, newlines_in_values=True),
                convert_options=pa_csv.ConvertOptions(
                    column_types=dict.fromkeys(names, pa.string()),
                    null_values=[""],
                    strings_can_be_null=True,
                    quoted_strings_can_be_null=True,
                ),
            )
            batch = next(iter(reader), None)
            kinds = combine_kinds([batch_kinds(batch)]) if batch is not None else None
    except (pa.ArrowInvalid, OSError) as exc:
        raise DataReadError(f"File '{first}' could not be read: {parser_message(exc)}") from exc
    if batch is None or not batch.num_rows:
        raise DataReadError(f"File '{first}' holds no records; nothing was written.")
    batch = batch.slice(0, rows)
    batch = pa.RecordBatch.from_arrays(list(batch.columns), names=names)
    return to_frame(batch, sources.names, kinds)


def nullable_columns(sources: Sources) -> frozenset[int]:
    """Positions of the Parquet integer and boolean columns that hold a missing value in
    some file. The whole-table reader turns such a column into floats (objects for
    booleans) in every row, so every batch must get that type, not only those with a gap;
    read from the files' statistics, else by reading that column."""
    import pyarrow.parquet as pq
    import pyarrow.types as pat

    if sources.format != "parquet":
        return frozenset()
    schema = pq.read_schema(sources.files[0])
    candidates = [
        i for i, f in enumerate(schema) if pat.is_integer(f.type) or pat.is_boolean(f.type)
    ]
    found: set[int] = set()
    for file in sources.files:
        handle = pq.ParquetFile(file)
        meta = handle.metadata
        for i in candidates:
            if i in found:
                continue
            leaf = handle.schema_arrow.get_field_index(schema.names[i])
            stats = [meta.row_group(g).column(leaf).statistics for g in range(meta.num_row_groups)]
            if all(s is not None and s.has_null_count for s in stats):
                nulls = sum(s.null_count for s in stats)
            else:
                nulls = handle.read(columns=[schema.names[i]]).column(0).null_count
            if nulls:
                found.add(i)
    return frozenset(found)
