"""Engines: the frequency table of quasi-identifier combinations, computed where the data is.

Everything Step 4 needs (k, classes, uniques, records below k, prosecutor risk, the
per-quasi-identifier impact, l-diversity, t-closeness; PDPC guide Step 4 and Annex C/D)
can be computed from the **frequency table**: one row per distinct combination of the
quasi-identifiers (and the sensitive attribute), with how many records have it. That is
one GROUP BY, which a database engine runs over files larger than memory; the table it
returns is usually orders of magnitude smaller than the data, and the same code as for
an in-memory table (:func:`core.risk.risk_report` with ``counts=``) turns it into the
figures. So every engine gives the same answers:

- ``pandas`` (default): :func:`core.io.read_table` reads the file into memory;
- ``duckdb``: an embedded database (``pip install duckdb``) reads CSV or Parquet files,
  globs and folders of Parquet files, spilling to disk when the data exceeds memory;
- ``spark``: Apache Spark (``pip install pyspark`` and Java) on ``local[*]`` or a cluster.

Values are judged by the reader's rules on the frequency table's distinct values: CSV
fields are read as text and a column becomes numbers only when every value is a plain
number (no leading zero, no ``+``, at most 15 digits), as :mod:`core.io` does; only an
empty field is missing. Parquet columns keep their stored types.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from pathlib import Path
from typing import TypeVar

import numpy as np
import pandas as pd

from core.engines import duckdb_engine, spark_engine
from core.engines.frequency import COUNT, FrequencyTable, coded_frequency_table
from core.engines.packed import KeysTooWide, count_packed
from core.engines.parquet_scan import parquet_batches
from core.engines.sources import Sources, expected_records, resolve_sources
from core.errors import DataReadError, ParameterError
from core.io.files import MAX_FILE_BYTES
from core.progress import ProgressFn

__all__ = [
    "AUTO_DUCKDB_BYTES",
    "COUNT",
    "ENGINES",
    "FrequencyTable",
    "choose_engine",
    "coded_frequency_table",
    "frequency_table",
    "read_ahead",
]

T = TypeVar("T")

ENGINES = ("pandas", "duckdb", "spark")

#: ``--engine auto`` uses DuckDB for a file larger than this (where :func:`core.io.read_table`
#: stops: it refuses files over ``MAX_FILE_BYTES``), and for globs and folders.
AUTO_DUCKDB_BYTES = MAX_FILE_BYTES


def choose_engine(source: str, engine: str = "auto") -> str:
    """``engine`` itself, or for ``auto``: duckdb for a glob, a folder or a file over
    :data:`AUTO_DUCKDB_BYTES`, pandas otherwise."""
    if engine != "auto":
        return engine
    path = Path(str(source)).expanduser()
    if path.is_dir() or (not path.exists() and any(ch in str(source) for ch in "*?[")):
        return "duckdb"
    if path.is_file() and path.stat().st_size > AUTO_DUCKDB_BYTES:
        return "duckdb"
    return "pandas"


def frequency_table(
    source: str,
    columns: Sequence[str],
    *,
    engine: str = "duckdb",
    sep: str | None = None,
    spark_master: str | None = None,
    progress: ProgressFn | None = None,
) -> FrequencyTable:
    """Count the records of every distinct combination of ``columns`` in ``source`` (a
    CSV or Parquet file, a glob such as ``'data/part-*.parquet'``, or a folder of Parquet
    files) with ``engine`` (``duckdb`` or ``spark``).

    DuckDB reads CSV records (pyarrow reads Parquet files, handing over each text column's
    dictionary codes: :mod:`core.engines.parquet_scan`) and this process counts them as
    packed integer codes (:mod:`core.engines.packed`: memory follows the distinct
    combinations, and no hash table of text spills to disk); when the codes do not fit
    one 64-bit key, DuckDB counts them by a GROUP BY. Spark counts packed codes too, on its executors
    (:mod:`core.engines.spark_engine`). ``progress`` hears the records counted (DuckDB) or
    the Spark tasks done."""
    if engine not in ("duckdb", "spark"):
        raise ParameterError(
            f"Parameter 'engine' must be duckdb or spark for a frequency table, got {engine!r}."
        )
    columns = list(dict.fromkeys(columns))
    if not columns:
        raise ParameterError("Parameter 'columns' is empty: name at least one column.")
    sources = resolve_sources(source, sep=sep)
    stored = sources.stored_names(columns)
    table, counts = _count_on(engine, sources, stored, columns, spark_master, progress)
    if not counts.sum():  # read_table refuses such a table: a report of 0 records means nothing
        files = sources.files
        which = f"File '{files[0]}' has" if len(files) == 1 else f"The {len(files)} files have"
        raise DataReadError(
            f"{which} a header row ({len(sources.names)} column(s)) but no data rows. "
            "Choose the file that contains the records."
        )
    return FrequencyTable(table, counts, sources)


def _count_on(
    engine: str,
    sources: Sources,
    stored: list[str],
    columns: list[str],
    spark_master: str | None,
    progress: ProgressFn | None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """The frequency table and its counts, counted by ``engine`` (:func:`frequency_table`)."""
    as_read = sources.format == "csv"
    if engine == "duckdb":
        if sources.format == "parquet":  # dictionary codes, not text (core.engines.parquet_scan)
            scan = read_ahead(parquet_batches(sources, stored))
        else:
            scan = read_ahead(duckdb_engine.scan_batches(sources, stored))
        try:
            with closing(scan):  # closed (DuckDB's connection too) before any GROUP BY
                return count_packed(
                    scan, columns, as_read=as_read, on_batch=_records_counted(sources, progress)
                )
        except KeysTooWide:  # columns of millions of values each: DuckDB's GROUP BY
            if progress is not None:
                progress(0.0, "counting the classes by a GROUP BY in DuckDB")
            return coded_frequency_table(
                read_ahead(duckdb_engine.group_count_batches(sources, stored)),
                columns,
                as_read=as_read,
            )
    return spark_engine.spark_counts(
        sources, stored, columns, master=spark_master, progress=progress
    )


def _records_counted(sources: Sources, progress: ProgressFn | None):
    """A callback telling ``progress`` how many records have been counted, against the
    sources' number of records (exact for Parquet, estimated from the size for CSV)."""
    if progress is None:
        return None
    total, exact = expected_records(sources)
    about = "" if exact else "about "
    done = [0]

    def counted(rows: int) -> None:
        done[0] += rows
        fraction = min(done[0] / total, 0.99) if total else 0.0
        progress(fraction, f"counted {done[0]:,} of {about}{total:,} records")

    return counted


def read_ahead(items: Iterable[T], depth: int = 2) -> Iterator[T]:
    """``items`` in order, the next ones fetched by a second thread while the caller works
    on the current one.

    The engine reads the next record batch (DuckDB's scan of the files, or a GROUP BY's
    result) while this process codes the current one: both release the GIL, so on two
    cores the two steps overlap instead of taking turns (for the 30M rows of a GROUP BY's
    result at 50M records, about 14 s each; coding on more threads gained nothing more).
    The first item is fetched here, in the calling thread: for a GROUP BY it is the one
    that waits for the whole aggregation, which Ctrl-C must be able to interrupt (only
    the main thread hears signals). When the caller stops early (an error, Ctrl-C), the
    thread stops after the item it is fetching and closes ``items`` (a generator's
    ``finally`` runs: DuckDB's connection and spill folder are gone when this returns)."""
    iterator = iter(items)
    try:
        first = next(iterator)
    except StopIteration:
        return
    waiting: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()
    done = object()

    def fetch() -> None:
        try:
            for item in iterator:
                if not _offer(waiting, (None, item), stop):
                    break
            else:
                _offer(waiting, (None, done), stop)
        except BaseException as exc:  # handed to the caller, raised there
            _offer(waiting, (exc, None), stop)
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                close()

    fetcher = threading.Thread(target=fetch, name="read-ahead", daemon=True)
    fetcher.start()
    try:
        yield first
        del first
        while True:
            error, item = waiting.get()
            if error is not None:
                raise error
            if item is done:
                return
            yield item
    finally:
        stop.set()
        fetcher.join()


def _offer(waiting: queue.Queue, entry: tuple, stop: threading.Event) -> bool:
    """Put ``entry`` in ``waiting`` unless ``stop`` is set first (then False)."""
    while not stop.is_set():
        try:
            waiting.put(entry, timeout=0.1)
            return True
        except queue.Full:
            continue
    return False
