"""The frequency table counted by Apache Spark, on ``local[*]`` or a cluster
(``--spark-master spark://host:7077``, ``yarn``, ...; or, under ``spark-submit`` or on
Databricks, the session that is already running). ``apply`` on Spark's executors is
:mod:`core.engines.spark_apply`.

The records are counted as packed integer codes (:func:`_packed_count`, the idea of
:mod:`core.engines.packed`), so the driver receives a key and a count per combination
instead of its values as text; a column of more than :data:`MAX_BROADCAST_VALUES` values
falls back to a ``groupBy().count()`` of the values. Measured with
``bench/bench_scale.py`` (``local[*]``, 2 cores): at 50M records from CSV 200 s and
3.2 GB for the driver's Python against 284 s and 7.4 GB by the values (269 s and 3.7 GB
collected as Arrow); at 10M from Parquet 22 s against 35 s. It reads the data twice, which
costs on a CSV of 10M records (43 s against 34 s by the values as Arrow)."""

from __future__ import annotations

import functools
import os
import re
import shutil
import sys
import threading
from contextlib import contextmanager
from dataclasses import replace

import numpy as np
import pandas as pd

from core.engines.frequency import COUNT, FrequencyTable, coded_frequency_table
from core.engines.packed import CodeBook, KeyLayout, KeysTooWide, frequency_frame
from core.engines.sources import Sources
from core.errors import AnonymisationError, DataReadError
from core.progress import ProgressFn
from core.validation import require_columns


def running_stages(tracker) -> tuple[float, str] | None:
    """The tasks done of the Spark stages running now, from Spark's status tracker
    (``SparkContext.statusTracker()``): the fraction and a message, or None when no stage
    runs."""
    infos = [tracker.getStageInfo(stage) for stage in tracker.getActiveStageIds()]
    infos = [info for info in infos if info is not None]
    if not infos:
        return None
    total = sum(info.numTasks for info in infos)
    done = sum(info.numCompletedTasks for info in infos)
    names = ", ".join(str(info.stageId) for info in sorted(infos, key=lambda i: i.stageId))
    word = "stage" if len(infos) == 1 else "stages"
    return (done / total if total else 0.0), f"Spark {word} {names}: {done:,} of {total:,} tasks"


#: How often :func:`watching` asks Spark's status tracker (seconds).
POLL_SECONDS = 0.5


@contextmanager
def watching(spark, progress: ProgressFn | None, what: str, *, interval: float | None = None):
    """While the block runs, report the running stages' tasks (:func:`running_stages`) to
    ``progress`` every ``interval`` seconds, from a small thread polling Spark's status
    tracker (a Spark job is one long call: nothing else could report)."""
    if progress is None:
        yield
        return
    tracker = spark.sparkContext.statusTracker()
    stop = threading.Event()
    progress(0.0, what)
    interval = POLL_SECONDS if interval is None else interval

    def poll() -> None:
        while not stop.wait(interval):
            state = running_stages(tracker)
            if state is not None:
                progress(state[0], f"{what}: {state[1]}")

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


#: Memory of a local-mode Spark this project starts (``spark-defaults.conf``,
#: ``spark-submit --driver-memory`` or ``config`` take precedence): the heap holds the
#: GROUP BY and the result collected for the driver.
LOCAL_MEMORY = {"spark.driver.memory": "4g", "spark.driver.maxResultSize": "2g"}


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
    if master.startswith("local"):
        # local workers run this interpreter (with this project's packages), not python3
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        # in local mode the driver's JVM is the whole of Spark: its default 1 GiB heap runs
        # out on the frequency table of a 10M-row table (unless configured otherwise)
        conf = SparkConf()
        for key, value in LOCAL_MEMORY.items():
            if not conf.contains(key) and key not in (config or {}):
                builder = builder.config(key, value)
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


def literal_path(file: str) -> str:
    """``file`` as a Hadoop glob that matches only that file: Spark globs every path it
    reads, so ``p[1].csv`` would read ``p1.csv``; a backslash escapes each of Hadoop's
    glob characters ``\\ * ? [ ] { }``."""
    return re.sub(r"([\\*?\[\]{}])", r"\\\1", file)


def read_sources(spark, sources: Sources, *, ordered: bool = False):
    """A Spark DataFrame over ``sources``, columns renamed ``c0, c1, ...`` by position (a
    name from the data is never parsed as an expression); CSV fields are all text.
    ``ordered``: partitions follow the files' order (Spark packs files by size otherwise),
    one read per file joined by ``union``, which keeps its inputs' partition order."""
    if ordered and len(sources.files) > 1:
        frames = [read_sources(spark, replace(sources, files=(file,))) for file in sources.files]
        return functools.reduce(lambda a, b: a.union(b), frames)
    files = [literal_path(f) for f in sources.files]
    if sources.format == "parquet":
        frame = spark.read.parquet(*files)
    else:
        from pyspark.sql.types import StringType, StructField, StructType

        # The schema is given, not inferred: inferring a multi-line CSV's header globs the
        # files' paths once more, unescaped (a folder 'd[1]' matched nothing). Every file's
        # header has been checked against the first one's (core.engines.sources).
        text = StructType([StructField(f"c{i}", StringType()) for i in range(len(sources.names))])
        frame = spark.read.csv(
            files,
            schema=text,
            sep=sources.sep,
            header=True,
            quote='"',
            escape='"',
            multiLine=True,
            mode="FAILFAST",
            enforceSchema=True,
        )
    return frame.toDF(*[f"c{i}" for i in range(len(frame.columns))])


#: A column with more distinct values than this is counted by a GROUP BY of the values
#: themselves: the packed count sends each column's values to every executor.
MAX_BROADCAST_VALUES = 1_000_000


def _count(frame, positions: list[int]):
    """The frequency table by a GROUP BY of the values, as a pyarrow Table (Arrow, not
    pandas: a frame of text objects for 29.5M combinations peaked at 7.4 GB)."""
    from pyspark.sql import functions as F  # noqa: N812

    names = [f"c{p}" for p in positions]
    return frame.groupBy(*names).agg(F.count(F.lit(1)).alias(COUNT)).toArrow()


def _packed_count(frame, positions: list[int]):
    """The frequency table as packed codes (:mod:`core.engines.packed`), counted by Spark:
    each column's distinct values in one pass (GROUPING SETS; a small result), coded on
    the driver, the codes joined to the records on the executors (broadcast) and packed
    into one 64-bit key per record, then ``groupBy(key).count()``. The driver receives 16
    bytes per combination (key and count), not its values as text.

    Returns the code books, the layout, the keys and the counts; raises
    :class:`core.engines.packed.KeysTooWide` when a column has more than
    :data:`MAX_BROADCAST_VALUES` values or the codes need more than 63 bits."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from pyspark.sql import functions as F  # noqa: N812

    spark = frame.sparkSession
    names = [f"c{p}" for p in positions]
    n = len(names)
    # grouping_id() of the set {names[i]}: a bit per column left out, the first highest
    alone = [(1 << n) - 1 - (1 << (n - 1 - i)) for i in range(n)]
    values = (
        frame.groupingSets([[F.col(c)] for c in names], *names)
        .agg(F.grouping_id().alias("__set"))
        .localCheckpoint()  # computed once: the sizes and the values read the same rows
    )
    try:
        counted_sets = values.groupBy("__set").count().collect()
        sizes = {row["__set"]: row["count"] for row in counted_sets}
        cardinalities = [int(sizes.get(code, 0)) for code in alone]
        if max(cardinalities, default=0) > MAX_BROADCAST_VALUES:
            raise KeysTooWide(f"a column has {max(cardinalities):,} distinct values")
        layout = KeyLayout.fitting(cardinalities)
        collected = values.toArrow()
    finally:
        values.unpersist()  # the executors' copy: a long-lived session keeps no leftovers
    books, coded, key = [], frame.select(*names), F.lit(0).cast("long")
    for i, (name, code, shift) in enumerate(zip(names, alone, layout.shifts, strict=True)):
        mine = collected.filter(pc.equal(collected["__set"], code))[name].combine_chunks()
        books.append(CodeBook(mine))
        book = spark.createDataFrame(
            pa.table({f"__v{i}": mine, f"__k{i}": pa.array(range(len(mine)), pa.int64())})
        )
        coded = coded.join(F.broadcast(book), coded[name].eqNullSafe(book[f"__v{i}"]), "left")
        key = key.bitwiseOR(F.shiftleft(F.col(f"__k{i}"), shift))
    counted = coded.groupBy(key.alias("__key")).count().toArrow()
    keys = counted["__key"]
    if keys.null_count:  # a value missing from its column's distinct values: never expected
        raise AnonymisationError(
            "Spark's codes missed a value; count with --engine duckdb and report this."
        )
    return (
        books,
        layout,
        keys.to_numpy().astype(np.int64, copy=False),
        counted["count"].to_numpy().astype(np.int64, copy=False),
    )


def _frequency(frame, positions: list[int], columns: list[str], *, as_read: bool):
    """The frequency table of ``frame``'s columns at ``positions`` (named ``columns``) and
    its counts, as :func:`core.engines.frequency_table` gives them: packed codes
    (:func:`_packed_count`), else a GROUP BY of the values."""
    try:
        books, layout, keys, counts = _packed_count(frame, positions)
    except KeysTooWide:
        grouped = _count(frame, positions)
        return coded_frequency_table(grouped.to_batches(), columns, as_read=as_read)
    table = frequency_frame(books, layout.unpacked(keys), columns, rows=keys.size, as_read=as_read)
    return table, counts


def spark_counts(
    sources: Sources,
    stored: list[str],
    columns: list[str],
    *,
    master: str | None = None,
    progress: ProgressFn | None = None,
):
    """The frequency table of the ``stored`` columns of ``sources`` (named ``columns``)
    and its counts (:func:`_frequency`); ``progress`` hears the Spark tasks done."""
    from pyspark.errors import PySparkException

    spark = spark_session(master)
    try:
        with watching(spark, progress, "counting the classes on Spark"):
            frame = read_sources(spark, sources)
            positions = [sources.stored.index(name) for name in stored]
            return _frequency(frame, positions, columns, as_read=sources.format == "csv")
    except PySparkException as exc:
        first = sources.files[0]
        raise DataReadError(f"Spark could not read '{first}': {str(exc).splitlines()[0]}") from exc


def spark_frequency_table(frame, columns: list[str]):
    """The :class:`core.engines.FrequencyTable` of a Spark DataFrame already loaded (e.g.
    a Databricks table: ``spark.table("claims")``); values keep their Spark types."""
    columns = list(dict.fromkeys(columns))
    require_columns(pd.DataFrame(columns=frame.columns), columns, parameter="columns")
    positional = frame.toDF(*[f"c{i}" for i in range(len(frame.columns))])
    positions = [frame.columns.index(c) for c in columns]
    table, counts = _frequency(positional, positions, columns, as_read=False)
    return FrequencyTable(table, counts, None)
