"""``apply`` on Spark: the recipe run on Spark's executors block by block
(``applyInPandas``), with the same technique functions and the same blocks of seeded
draws as on DuckDB (:mod:`core.engines.streaming`); class steps decided on frequency
tables Spark aggregates, the released rows handed back to the driver in file order.

Separate from :mod:`core.engines.spark_engine` (the session, reading, counting), which
the frequency table needs without the recipe machinery.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd

import core.engines.streaming as st
from core.engines.batch_types import batch_kinds, combine_kinds, to_frame
from core.engines.sources import Sources, nullable_columns
from core.engines.spark_engine import read_sources, spark_session, watching
from core.errors import AnonymisationError, DataReadError
from core.progress import ProgressFn, stage
from core.release.gate import original_values_left

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

    def kinds(batches):
        for batch in batches:
            yield pa.RecordBatch.from_pydict({"kinds": [",".join(batch_kinds(batch))]})

    rows = frame.mapInArrow(kinds, "kinds string").collect()
    return combine_kinds(row["kinds"].split(",") for row in rows)


def _class_counter(batch_of, before, step, failing, base_dir, keys):
    """The executors' part of a class step: run the steps before it on a block and count
    its (class key, sensitive values)."""

    def classes(pdf: pd.DataFrame) -> pd.DataFrame:
        batch, block = batch_of(pdf)
        done = st.run_batch(batch, before, failing, block, base_dir=base_dir, keys=keys)
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

    risk_columns = release_counts.risk_columns if release_counts is not None else None

    def side(pdf: pd.DataFrame) -> pd.DataFrame:
        batch, block = batch_of(pdf)
        part = st.ReleaseCounts(risk_columns, len(steps)) if risk_columns is not None else None
        mappings: dict[tuple[int, str], list[pd.DataFrame]] = {}
        done = st.run_batch(
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
        batch = to_frame(table.combine_chunks().to_batches()[0], sources.names, kinds, nullable)
        batch.index = pd.RangeIndex(start, start + len(batch))
        return batch, block

    sample_pdf = numbered.filter(F.col("__row") < min(rows, 2000)).toPandas()
    sample, _ = batch_of(sample_pdf)
    failing: dict[int, np.ndarray] = {}
    run = st.run_batch
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
            if c in done.columns and original_values_left(batch[c], done[c])
        ]
        out = st.plain_values(done).reset_index(drop=True)
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
    counter = st.FrequencyCounter([c for c in gate_columns if c in columns])
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
