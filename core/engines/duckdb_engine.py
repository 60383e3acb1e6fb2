"""The frequency table by one GROUP BY in DuckDB (embedded, out of core: it spills to a
temporary folder when the groups exceed its memory limit)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

from core.engines.frequency import COUNT
from core.engines.sources import Sources
from core.errors import AnonymisationError, DataReadError

#: DuckDB's memory limit; above it the GROUP BY spills to disk.
MEMORY_LIMIT = "3GB"


def connect():
    """A new in-memory DuckDB connection, or a one-line error saying what to install."""
    try:
        import duckdb
    except ImportError:
        raise AnonymisationError(
            "The duckdb engine needs the duckdb package: pip install duckdb "
            "(or use --engine pandas)."
        ) from None
    con = duckdb.connect(config={"memory_limit": MEMORY_LIMIT})
    con.execute("SET enable_progress_bar = false")  # it would be drawn on stdout (--json)
    return con


def quote(name: str) -> str:
    """A column name as a DuckDB identifier (any text is safe inside double quotes)."""
    return '"' + str(name).replace('"', '""') + '"'


def literal_path(file: str) -> str:
    """``file`` as a DuckDB pattern that matches only that file: DuckDB globs every path
    it is given, so ``p[1].csv`` would read ``p1.csv``. Each of ``* ? [`` becomes a
    one-character class (``[*]``); the path is made absolute, so no name is read as a
    URL (``http://``, ``s3://``)."""
    return re.sub(r"([*?\[])", r"[\1]", os.path.abspath(file))


def relation_sql(sources: Sources) -> tuple[str, list]:
    """``FROM`` clause reading ``sources`` and its parameters (file names are parameters,
    never pasted into the SQL, and read literally). CSV columns are named ``c0, c1, ...``
    and read as text."""
    files = [literal_path(f) for f in sources.files]
    if sources.format == "parquet":
        return "read_parquet(?)", [files]
    columns = ", ".join(f"'c{i}': 'VARCHAR'" for i in range(len(sources.names)))
    return (
        "read_csv(?, delim = ?, skip = ?, header = true, quote = '\"', escape = '\"', "
        f"auto_detect = false, columns = {{{columns}}}, strict_mode = true, "
        "null_padding = false)",
        [files, sources.sep, sources.skip],
    )


def _select_names(sources: Sources, stored: list[str]) -> list[str]:
    if sources.format == "parquet":
        return [quote(name) for name in stored]
    return [f"c{sources.stored.index(name)}" for name in stored]


#: Rows per record batch asked of DuckDB (its own vector size times 512). For a GROUP BY
#: at 50M records (a 30M-row result) fetching and coding took 14.6 s against 16-18 s with
#: batches of 131,072, for about 40 MB more at the peak. A scan in no particular order
#: (:func:`scan_batches`) gives batches of this size too.
BATCH_ROWS = 1_048_576


def _query_batches(
    sources: Sources, select: str, rows: int, *, after: str = "", in_file_order: bool = False
) -> Iterator[Any]:
    """The record batches of ``SELECT {select} FROM`` the sources ``{after}``, on a
    connection of its own that spills to a temporary folder, removed when the last batch
    has been read or the reader is closed; a read error is one line naming the file."""
    con = connect()  # first: names the package when duckdb is not installed
    import duckdb

    spill = tempfile.mkdtemp(prefix="anon-duckdb-")
    try:
        con.execute("SET temp_directory = ?", [spill])
        # Counting needs no order: without it DuckDB's threads hand over batches as they end.
        con.execute(f"SET preserve_insertion_order = {str(in_file_order).lower()}")
        relation, parameters = relation_sql(sources)
        try:
            result = con.sql(f"SELECT {select} FROM {relation} {after}", params=parameters)
            reader = getattr(result, "to_arrow_reader", None) or result.fetch_record_batch
            yield from reader(rows)
        except duckdb.Error as exc:
            raise DataReadError(
                f"DuckDB could not read {_describe(sources)}: {str(exc).splitlines()[0]}"
            ) from exc
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)


def _named(sources: Sources, stored: list[str], prefix: str) -> str:
    selected = _select_names(sources, stored)
    return ", ".join(f"{s} AS {prefix}{i}" for i, s in enumerate(selected))


def group_count_batches(sources: Sources, stored: list[str]) -> Iterator[Any]:
    """One row per distinct combination of ``stored`` columns (named ``g0, g1, ...``),
    with ``__records__``: pyarrow record batches of up to :data:`BATCH_ROWS` rows, fetched
    one at a time (the connection closes when the last one has been read)."""
    select = f"{_named(sources, stored, 'g')}, count(*) AS {COUNT}"
    yield from _query_batches(sources, select, BATCH_ROWS, after="GROUP BY ALL")


def scan_batches(sources: Sources, stored: list[str]) -> Iterator[Any]:
    """Every record's ``stored`` columns (named ``g0, g1, ...``), in no particular order:
    pyarrow record batches as DuckDB's reading threads finish them (for counting in this
    process, :mod:`core.engines.packed`)."""
    yield from _query_batches(sources, _named(sources, stored, "g"), BATCH_ROWS)


def _describe(sources: Sources) -> str:
    first = sources.files[0]
    more = f" and {len(sources.files) - 1} more file(s)" if len(sources.files) > 1 else ""
    return f"'{first}'{more}"


def arrow_batches(sources: Sources, rows: int) -> Iterator[Any]:
    """Every row of ``sources`` in file order, as pyarrow record batches of ``rows`` rows
    (the last may be shorter); columns ``c0, c1, ...`` by position, CSV fields as text."""
    import pyarrow as pa

    pending: list[Any] = []
    held = 0
    select = _named(sources, list(sources.stored), "c")
    for batch in _query_batches(sources, select, rows, in_file_order=True):
        pending.append(batch)
        held += batch.num_rows
        while held >= rows:  # exactly ``rows`` per batch: seeded draws are per block
            table = pa.Table.from_batches(pending)
            yield from table.slice(0, rows).combine_chunks().to_batches()
            rest = table.slice(rows)
            pending, held = rest.to_batches(), rest.num_rows
    if held:
        yield from pa.Table.from_batches(pending).combine_chunks().to_batches()
