"""The frequency table by one ``groupBy().count()`` in Apache Spark, on ``local[*]`` or a
cluster (``--spark-master spark://host:7077``, ``yarn``, ...; or, under ``spark-submit``
or on Databricks, the session that is already running)."""

from __future__ import annotations

import os
import shutil

import pandas as pd

from core.engines.sources import Sources
from core.errors import AnonymisationError, DataReadError
from core.validation import require_columns


def spark_session(master: str | None = None, config: dict[str, str] | None = None):
    """The active SparkSession, or a new one on ``master`` (with extra ``config``); a
    one-line error when pyspark or Java is missing. ``master=None``: the master that
    ``spark-submit`` gives, else ``local[*]``."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise AnonymisationError(
            "The spark engine needs the pyspark package: pip install pyspark "
            "(or use --engine duckdb or pandas)."
        ) from None
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
        raise AnonymisationError(
            "The spark engine needs Java 17 or later: install it (Debian/Ubuntu: apt-get "
            "install default-jre-headless; scripts/setup.sh does) or set JAVA_HOME."
        )
    from pyspark import SparkConf

    builder = SparkSession.builder
    for key, value in (config or {}).items():
        builder = builder.config(key, value)
    if master is None:
        master = SparkConf().get("spark.master", "local[*]")
    return (
        builder.master(master)
        .appName("anonymisation-workbench")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        # local mode: a few shuffle partitions (Spark's 200 are for clusters)
        .config("spark.sql.shuffle.partitions", "8" if master.startswith("local") else "200")
        .getOrCreate()
    )


def read_sources(spark, sources: Sources):
    """A Spark DataFrame over ``sources``, columns renamed ``c0, c1, ...`` by position (a
    name from the data is never parsed as an expression); CSV fields are all text."""
    files = list(sources.files)
    if sources.format == "parquet":
        frame = spark.read.parquet(*files)
    else:
        frame = spark.read.csv(
            files,
            sep=sources.sep,
            header=True,
            inferSchema=False,
            quote='"',
            escape='"',
            multiLine=True,
            mode="FAILFAST",
            enforceSchema=False,
        )
    return frame.toDF(*[f"c{i}" for i in range(len(frame.columns))])


def _count(frame, positions: list[int]) -> pd.DataFrame:
    from pyspark.sql import functions as F  # noqa: N812

    from core.engines import COUNT

    names = [f"c{p}" for p in positions]
    grouped = frame.groupBy(*names).agg(F.count(F.lit(1)).alias(COUNT))
    return grouped.toPandas()


def group_counts_spark(sources: Sources, stored: list[str], *, master: str | None = None):
    """One row per distinct combination of ``stored`` columns, with ``__records__`` (a
    pyarrow Table)."""
    import pyarrow as pa
    from pyspark.errors import PySparkException

    spark = spark_session(master)
    try:
        frame = read_sources(spark, sources)
        counted = _count(frame, [sources.stored.index(name) for name in stored])
        return pa.Table.from_pandas(counted, preserve_index=False)
    except PySparkException as exc:
        first = sources.files[0]
        raise DataReadError(f"Spark could not read '{first}': {str(exc).splitlines()[0]}") from exc


def spark_frequency_table(frame, columns: list[str]):
    """The :class:`core.engines.FrequencyTable` of a Spark DataFrame already loaded (e.g.
    a Databricks table: ``spark.table("claims")``); values keep their Spark types."""
    import numpy as np

    from core.engines import COUNT, FrequencyTable

    columns = list(dict.fromkeys(columns))
    require_columns(pd.DataFrame(columns=frame.columns), columns, parameter="columns")
    positional = frame.toDF(*[f"c{i}" for i in range(len(frame.columns))])
    table = _count(positional, [frame.columns.index(c) for c in columns])
    counts = table.pop(COUNT).to_numpy(dtype=np.int64)
    table.columns = columns
    return FrequencyTable(table, counts, None)
