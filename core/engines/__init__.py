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

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from core.engines.sources import Sources, resolve_sources
from core.errors import ParameterError
from core.io import MAX_FILE_BYTES, _numbers_or_none

ENGINES = ("pandas", "duckdb", "spark")
COUNT = "__records__"

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


@dataclass(frozen=True)
class FrequencyTable:
    """Distinct value combinations (``table``, one column per attribute, named as in the
    data) and how many records have each (``counts``)."""

    table: pd.DataFrame
    counts: np.ndarray
    sources: Sources | None  # None for a Spark DataFrame given directly

    @property
    def records(self) -> int:
        return int(self.counts.sum())


def frequency_table(
    source: str,
    columns: Sequence[str],
    *,
    engine: str = "duckdb",
    sep: str | None = None,
    spark_master: str | None = None,
) -> FrequencyTable:
    """Count the records of every distinct combination of ``columns`` in ``source`` (a
    CSV or Parquet file, a glob such as ``'data/part-*.parquet'``, or a folder of Parquet
    files) with ``engine`` (``duckdb`` or ``spark``)."""
    if engine not in ("duckdb", "spark"):
        raise ParameterError(
            f"Parameter 'engine' must be duckdb or spark for a frequency table, got {engine!r}."
        )
    columns = list(dict.fromkeys(columns))
    if not columns:
        raise ParameterError("Parameter 'columns' is empty: name at least one column.")
    sources = resolve_sources(source, sep=sep)
    stored = sources.stored_names(columns)
    if engine == "duckdb":
        from core.engines.duckdb_engine import group_counts
    else:
        from core.engines.spark_engine import group_counts_spark as group_counts

        group_counts = _with_master(group_counts, spark_master)
    counted = group_counts(sources, stored)  # a pyarrow Table
    counts = counted.column(COUNT).to_numpy().astype(np.int64)
    arrays = [counted.column(i) for i in range(len(columns))]
    if sources.format == "csv":  # the reader's text/number rule, on the distinct values
        arrays = [_as_read(array) for array in arrays]
    names = [f"g{i}" for i in range(len(columns))]
    table = pa.table(arrays, names=names).to_pandas(split_blocks=True)
    table.columns = columns
    return FrequencyTable(table, counts, sources)


def _as_read(array):
    numbers = _numbers_or_none(array)
    return array if numbers is None else numbers


def _with_master(function, master: str | None):
    def run(sources: Sources, stored: list[str]) -> pd.DataFrame:
        return function(sources, stored, master=master)

    return run
