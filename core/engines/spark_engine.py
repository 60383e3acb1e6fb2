"""The frequency table counted by Apache Spark, on ``local[*]`` or a cluster
(``--spark-master spark://host:7077``, ``yarn``, ...; or, under ``spark-submit`` or on
Databricks, the session that is already running), and ``apply`` on Spark's executors.

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
from pathlib import Path

import numpy as np
import pandas as pd

from core.engines.sources import Sources, nullable_columns
from core.errors import AnonymisationError, DataReadError
from core.progress import ProgressFn, stage
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

    from core.engines import COUNT

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

    from core.engines.packed import CodeBook, KeyLayout, KeysTooWide

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
    from core.engines import coded_frequency_table
    from core.engines.packed import KeysTooWide, frequency_frame

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
    from core.engines import FrequencyTable

    columns = list(dict.fromkeys(columns))
    require_columns(pd.DataFrame(columns=frame.columns), columns, parameter="columns")
    positional = frame.toDF(*[f"c{i}" for i in range(len(frame.columns))])
    positions = [frame.columns.index(c) for c in columns]
    table, counts = _frequency(positional, positions, columns, as_read=False)
    return FrequencyTable(table, counts, None)


# --- apply: the recipe on the executors, block by block ---------------------------------

_HELPERS = ("__row", "__block", "__changed", "__left")


def _spark_schema(sample: pd.DataFrame):
    """The Spark schema of a pandas batch (via Arrow: text as string, categories as their
    values, an all-missing column as string)."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import from_arrow_schema

    fields = []
    for field in pa.Schema.from_pandas(sample, preserve_index=False):
        kind = field.type
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        if pa.types.is_large_string(kind) or pa.types.is_null(kind):
            kind = pa.string()
        fields.append(pa.field(field.name, kind))
    return from_arrow_schema(pa.schema(fields))


def _numbered(frame, rows: int):
    """``frame`` with each row's number in file order (``__row``) and its block of
    ``rows`` rows (``__block``): the same blocks, and so the same seeded draws, as DuckDB."""
    from pyspark.sql import functions as F  # noqa: N812

    ids = frame.select(
        "*", F.monotonically_increasing_id().alias("__id"), F.spark_partition_id().alias("__pid")
    )
    sizes = dict(ids.groupBy("__pid").count().collect())
    offsets, total = [], 0
    for partition in range(max(sizes, default=-1) + 1):
        offsets.append(total)
        total += sizes.get(partition, 0)
    # monotonically_increasing_id = partition id << 33 + position in the partition
    position = F.col("__id") - F.shiftleft(F.col("__pid").cast("long"), 33)
    start = F.element_at(F.array(*[F.lit(o) for o in offsets or [0]]), F.col("__pid") + 1)
    numbered = ids.withColumn("__row", start + position)
    numbered = numbered.withColumn("__block", F.floor(F.col("__row") / rows).cast("long"))
    return numbered.drop("__id", "__pid"), total


def _csv_kinds_spark(frame) -> list[str]:
    import pyarrow as pa

    from core.engines.streaming import batch_kinds, combine_kinds

    def kinds(batches):
        for batch in batches:
            yield pa.RecordBatch.from_pydict({"kinds": [",".join(batch_kinds(batch))]})

    rows = frame.mapInArrow(kinds, "kinds string").collect()
    return combine_kinds(row["kinds"].split(",") for row in rows)


def _class_counter(batch_of, before, step, failing, base_dir, keys):
    """The executors' part of a class step: run the steps before it on a block and count
    its (class key, sensitive values)."""
    from core.engines import streaming as st

    def classes(pdf: pd.DataFrame) -> pd.DataFrame:
        batch, block = batch_of(pdf)
        done = st._run_batch(batch, before, failing, block, base_dir=base_dir, keys=keys)
        part = st.class_frame(done, step)
        return part.value_counts(dropna=False, sort=False).rename("__n").reset_index()

    return classes


def _side_results(numbered, batch_of, steps, failing, release_counts, base_dir, keys):
    """What the driver needs besides the released rows, from one more pass of the recipe on
    the executors: the counts of the report (:class:`core.engines.streaming.ReleaseCounts`,
    when ``release_counts`` is given) and the identity mapping tables of keyed pseudonyms
    (each block's distinct (pseudonym, value) pairs). Each block's part is sent back
    pickled and added up on the driver; the mappings (by step position and column, in
    block order) are returned."""
    import pickle

    from core.engines import streaming as st

    risk_columns = release_counts.risk_columns if release_counts is not None else None

    def side(pdf: pd.DataFrame) -> pd.DataFrame:
        batch, block = batch_of(pdf)
        part = st.ReleaseCounts(risk_columns, len(steps)) if risk_columns is not None else None
        mappings: dict[tuple[int, str], list[pd.DataFrame]] = {}
        done = st._run_batch(
            batch,
            steps,
            failing,
            block,
            base_dir=base_dir,
            keys=keys,
            mappings=mappings,
            step_rows=part.step_rows if part is not None else None,
        )
        if part is not None:
            part.add(batch, done)
        distinct = {
            key: pd.concat(parts, ignore_index=True).drop_duplicates(ignore_index=True)
            for key, parts in mappings.items()
        }
        return pd.DataFrame({"__block": [block], "side": [pickle.dumps((part, distinct))]})

    rows = numbered.groupBy("__block").applyInPandas(side, "__block long, side binary")
    mappings: dict[tuple[int, str], list[pd.DataFrame]] = {}
    for row in sorted(rows.collect(), key=lambda row: row["__block"]):
        part, distinct = pickle.loads(row["side"])  # noqa: S301 - our own executors' output
        if part is not None:
            release_counts.merge(part)
        for key, table in distinct.items():  # key: (step position, column)
            mappings.setdefault(key, []).append(table)
    return mappings


def _keys_for_executors(steps, keys):
    """Every key the steps read (``key_env``), read here on the driver: the executors'
    environment does not hold the driver's variables, so the keys travel inside the task
    (never into a log, a file or the recipe)."""
    from core.techniques.pseudonymisation import key_from_env

    given = dict(keys or {})
    for step in steps:
        name = step.step.get("key_env")
        if name and name not in given:
            given[name] = key_from_env(name)
    return given


def spark_stream_recipe(
    sources: Sources,
    steps,
    write,
    *,
    seed: int,
    gate_columns,
    direct_identifiers,
    base_dir=None,
    keys=None,
    master: str | None = None,
    release_counts=None,
    progress: ProgressFn | None = None,
):
    """:func:`core.engines.streaming.stream_recipe` on Spark: every block of
    :data:`~core.engines.streaming.BATCH_ROWS` rows runs the recipe on an executor
    (``applyInPandas``) with the same functions; class steps are decided on frequency tables
    Spark aggregates; the released rows come back in file order and are handed to
    ``write`` on the driver. ``progress`` hears each pass and its Spark tasks done."""
    import tempfile

    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyspark.errors import PySparkException
    from pyspark.sql import functions as F  # noqa: N812

    from core.engines import streaming as st

    spark = spark_session(master)
    rows = st.BATCH_ROWS
    keys = _keys_for_executors(steps, keys)
    side = release_counts is not None or any(step.call.produces_mapping for step in steps)
    passes = 2 + sum(step.call.function in st.CLASS_STEPS for step in steps) + side
    done_passes = iter(range(passes))

    def next_pass(what: str):
        index = next(done_passes)
        part = stage(progress, index / passes, (index + 1) / passes) if progress else None
        return watching(spark, part, f"pass {index + 1} of {passes} ({what})")

    try:
        with next_pass("reading the input"):
            frame = read_sources(spark, sources, ordered=True)
            kinds = _csv_kinds_spark(frame) if sources.format == "csv" else None
            numbered, records_in = _numbered(frame, rows)
    except PySparkException as exc:
        raise DataReadError(
            f"Spark could not read '{sources.files[0]}': {str(exc).splitlines()[0]}"
        ) from exc
    if not records_in:
        raise DataReadError("The input holds no records; nothing was written.")
    names = [f"c{i}" for i in range(len(sources.names))]
    nullable = nullable_columns(sources)

    def batch_of(pdf: pd.DataFrame):
        pdf = pdf.sort_values("__row")
        start, block = int(pdf["__row"].iloc[0]), int(pdf["__block"].iloc[0])
        table = pa.Table.from_pandas(pdf[names], preserve_index=False)
        if kinds is not None:
            table = table.cast(pa.schema([pa.field(n, pa.string()) for n in names]))
        batch = st.to_frame(table.combine_chunks().to_batches()[0], sources, kinds, nullable)
        batch.index = pd.RangeIndex(start, start + len(batch))
        return batch, block

    sample_pdf = numbered.filter(F.col("__row") < min(rows, 2000)).toPandas()
    sample, _ = batch_of(sample_pdf)
    failing: dict[int, np.ndarray] = {}
    run = st._run_batch
    for index, step in enumerate(steps):
        if step.call.function not in st.CLASS_STEPS:
            continue
        classes = _class_counter(batch_of, steps[:index], step, dict(failing), base_dir, keys)
        example = classes(sample_pdf)
        grouped = numbered.groupBy("__block").applyInPandas(classes, _spark_schema(example))
        columns = [c for c in example.columns if c != "__n"]
        with next_pass("counting classes"):
            table = grouped.groupBy(*columns).agg(F.sum("__n").alias("__n")).toPandas()
        failing[step.position] = st.failing_keys(
            step, table[columns], table["__n"].to_numpy(dtype=np.int64)
        )

    def release(pdf):
        batch, block = batch_of(pdf)
        done = run(batch, steps, failing, block, base_dir=base_dir, keys=keys)
        left = [
            c
            for c in direct_identifiers
            if c in done.columns and st._values_left(batch[c], done[c])
        ]
        out = st._plain(done).reset_index(drop=True)
        return out.assign(
            __row=done.index.to_numpy(dtype=np.int64),
            __block=block,
            __changed=not done.equals(batch),
            __left=",".join(left),
        )

    mappings = {}
    if side:
        with next_pass("counting the release" if release_counts is not None else "mappings"):
            mappings = _side_results(
                numbered, batch_of, steps, failing, release_counts, base_dir, keys
            )
    example = release(sample_pdf)
    released = numbered.groupBy("__block").applyInPandas(release, _spark_schema(example))
    columns = [c for c in example.columns if c not in _HELPERS]
    counter = st._Counter([c for c in gate_columns if c in columns])
    changed, left, records = False, set(), 0
    folder = tempfile.mkdtemp(prefix=".anon-spark-")
    try:
        with next_pass("writing the release"):
            released.orderBy("__row").write.mode("overwrite").parquet(folder)
        parts = sorted(p for p in Path(folder).glob("part-*.parquet"))
        first = True
        for part in parts:
            for piece in pq.ParquetFile(part).iter_batches(batch_size=rows):
                done = piece.to_pandas()
                if not len(done):
                    continue
                changed = changed or bool(done["__changed"].any())
                left.update(x for text in done["__left"].unique() for x in text.split(",") if x)
                done = done.drop(columns=list(_HELPERS))
                counter.add(done)
                write(done, first)
                first, records = False, records + len(done)
        if first:  # every record suppressed: the header (or schema) only
            empty = example.drop(columns=list(_HELPERS)).iloc[:0]
            counter.add(empty)
            write(empty, True)
    except PySparkException as exc:
        raise AnonymisationError(f"Spark failed: {str(exc).splitlines()[0]}") from exc
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    frequency, counts = counter.result()
    return st.StreamResult(
        records,
        columns,
        seed,
        frequency,
        counts,
        changed or records != records_in,
        sorted(left),
        st.merged_mappings(mappings),
    )
