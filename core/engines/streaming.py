"""``apply`` on an engine: a recipe run batch by batch over a table larger than memory.

The engine reads the files (CSV or Parquet; a file, a glob or a folder of Parquet files)
and hands the rows over in batches, in file order; every recipe step runs on each batch
with the same :mod:`core.techniques` function as on a table in memory (one
implementation), and each batch is appended to the output file as soon as it is done, so
the table is never held whole.

- **Row-wise steps** (:data:`ROW_WISE`: remove, mask, keyed pseudonyms, generalise,
  round, seeded noise, redact, record suppression by a condition, ...) give each row what
  they would give it in the whole table.
- **Class steps** (``suppress_records`` with ``below_k`` and the privacy models: PDPC
  guide, Annex A record suppression, Annex C) need the size of each record's equivalence
  class over the whole table. A counting pass runs the steps before them over every batch
  and keeps only the frequency table of the quasi-identifiers (and the sensitive
  attribute); the classes that fail are decided on it with :func:`core.measures.models.class_models.failing_records`
  and their records are dropped from each batch of the writing pass.
- Other steps (swapping, microaggregation, aggregation, local suppression, PRAM, random
  pseudonyms, ...) need the whole table at once and are refused with a one-line error
  naming the step: use ``--engine pandas`` for them.

**Seeded noise** (and the other seeded row-wise steps) is drawn per block of
:data:`BATCH_ROWS` rows of the input: block 0 uses the step's seed exactly as the
in-memory path does, block ``b`` a seed derived from it and ``b``. So the output is the
same on every run and every engine; a table of at most :data:`BATCH_ROWS` rows gets the
very noise of ``--engine pandas``; a larger one gets other (equally random) draws than
pandas, which draws the whole column at once.

The release gate (:func:`core.release.gate.check_release`) judges the frequency table of
the output's quasi-identifiers, counted while the output is written to a temporary file;
a refused release leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from core.engines.batch_types import csv_kinds, to_frame
from core.engines.duckdb_engine import arrow_batches
from core.engines.sources import Sources, nullable_columns
from core.errors import AnonymisationError, DataReadError
from core.io.writing import table_to_bytes
from core.measures.models.class_models import ClassModels, failing_records
from core.measures.models.registry import CLASS_MODELS
from core.progress import ProgressFn, no_progress
from core.recipe import Recipe, keep_mapping, run_step, step_seed
from core.spreadsheet_safety import formula_like_cell_counts
from core.techniques.registry import TECHNIQUES, Call, resolve
from core.techniques.suppression import model_of_step
from core.utility import ColumnCounts, utility_from_counts

#: Rows per batch, and per block of seeded draws (the same on every engine).
BATCH_ROWS = 65_536

#: Technique functions whose output row depends only on the same input row (the registry
#: marks them: ``Technique.row_wise``).
ROW_WISE = frozenset(name for name, t in TECHNIQUES.items() if t.row_wise)
#: Steps that drop the records of equivalence classes failing k (and l, t, ...).
CLASS_STEPS = frozenset({"suppress_below_k", "suppress_failing_classes"})

Batches = Callable[[], Iterator[pd.DataFrame]]  # starts a new pass over the input


@dataclass(frozen=True)
class Step:
    """One recipe step as streamed: its position (from 1), the step, the resolved call and
    its seed (None for a step that draws nothing)."""

    position: int
    step: Mapping[str, Any]
    call: Call
    seed: int | None


@dataclass
class StreamResult:
    """What a streamed run wrote and counted (the table itself went to the file)."""

    records: int  # rows written
    columns: list[str]
    seed: int
    frequency: pd.DataFrame  # released quasi-identifiers (+ sensitive), one row per value mix
    counts: np.ndarray
    changed: bool
    identifiers_left: list[str]
    mappings: dict[str, pd.DataFrame] = field(default_factory=dict)


def streamable_steps(recipe: Recipe, seed: int, engine: str) -> list[Step]:
    """The recipe's steps, each with its seed; a step that needs the whole table is refused
    with a one-line error naming it."""
    steps = []
    for position, step in enumerate(recipe.steps, start=1):
        call = resolve(step, position=position)
        if call.function not in ROW_WISE | CLASS_STEPS:
            raise AnonymisationError(
                f"Step {position} ({step['step']}, {call.function}) needs the whole table at "
                f"once and cannot run batch by batch on the {engine} engine; use --engine "
                "pandas (the table must then fit in memory)."
            )
        used = step_seed(seed, position, step) if call.random else None
        steps.append(Step(position, step, call, used))
    return steps


def _block_seed(seed: int | None, block: int) -> int | None:
    """Block 0: the step's own seed (what pandas uses); block b: one derived from it."""
    if seed is None or block == 0:
        return seed
    return int(np.random.SeedSequence([seed, block]).generate_state(1)[0])


def plain_values(df: pd.DataFrame) -> pd.DataFrame:
    """Categorical columns as their values, so batches with different categories agree."""
    cats = [c for c in df.columns if isinstance(df[c].dtype, pd.CategoricalDtype)]
    if not cats:
        return df
    return df.assign(**{c: df[c].astype(df[c].cat.categories.dtype) for c in cats})


def row_keys(df: pd.DataFrame, columns: Sequence[str]) -> np.ndarray:
    """A 64-bit hash of each row's values in ``columns`` (missing is a value of its own)."""
    return pd.util.hash_pandas_object(plain_values(df[list(columns)]), index=False).to_numpy()


class FrequencyCounter:
    """The frequency table of some columns, accumulated batch by batch (only the distinct
    value combinations are kept, compacted as they grow)."""

    def __init__(self, columns: Sequence[str]):
        self.columns = list(columns)
        self.parts: list[pd.DataFrame] = []
        self.rows = 0

    def add(self, df: pd.DataFrame) -> None:
        if not self.columns or not len(df):
            if len(df):
                self.parts.append(pd.DataFrame({"__n": [len(df)]}))
            return
        part = plain_values(df[self.columns]).value_counts(dropna=False, sort=False)
        self.parts.append(part.rename("__n").reset_index())
        self.rows += len(self.parts[-1])
        if self.rows > 4 * BATCH_ROWS and len(self.parts) > 1:
            self.parts = [self._table()]
            self.rows = len(self.parts[0])

    def merge(self, other: FrequencyCounter) -> None:
        """Add the counts of ``other`` (the same columns, e.g. counted on an executor)."""
        for part in other.parts:
            self.parts.append(part)
            self.rows += len(part)
        if self.rows > 4 * BATCH_ROWS and len(self.parts) > 1:
            self.parts = [self._table()]
            self.rows = len(self.parts[0])

    def _table(self) -> pd.DataFrame:
        if not self.parts:
            return pd.DataFrame({**{c: [] for c in self.columns}, "__n": []})
        whole = pd.concat(self.parts, ignore_index=True)
        if not self.columns:
            return pd.DataFrame({"__n": [int(whole["__n"].sum())]})
        return whole.groupby(self.columns, dropna=False, sort=False)["__n"].sum().reset_index()

    def result(self) -> tuple[pd.DataFrame, np.ndarray]:
        table = self._table()
        return table[self.columns], table["__n"].to_numpy(dtype=np.int64)


def _class_step_models(step: Step) -> tuple[list[str], list[ClassModels]]:
    kwargs = dict(step.call.kwargs)
    qis = list(step.call.args[0])
    models = [ClassModels(k=int(kwargs.get("k", 1)))]
    models += [model_of_step(name, kwargs[name]) for name in CLASS_MODELS if kwargs.get(name)]
    if kwargs.get("k_map"):
        if "population_table" in kwargs["k_map"]:
            raise AnonymisationError(
                f"Step {step.position} ({step.step['step']}): k-map with a population table "
                "counts the population's records per class: use --engine pandas."
            )
        models.append(model_of_step("k_map", kwargs["k_map"]))
    if kwargs.get("average_risk") or kwargs.get("population_uniqueness"):
        # ARX removes the smallest classes first, ties in the order of their first record:
        # that order is not kept by the engines' hashed frequency tables.
        raise AnonymisationError(
            f"Step {step.position} ({step.step['step']}): average_risk and "
            "population_uniqueness need the records in order: use --engine pandas."
        )
    return qis, models


KEY = "__key"  # a row's hashed quasi-identifier values: its equivalence class


def class_frame(done: pd.DataFrame, step: Step) -> pd.DataFrame:
    """What a class step needs of a batch: each row's class key and sensitive value(s)."""
    qis = list(step.call.args[0])
    wanted = [*qis, *_sensitive_of(step)]
    missing = [c for c in wanted if c not in done.columns]
    if missing:
        raise AnonymisationError(
            f"Step {step.position} ({step.step['step']}): column {missing[0]!r} is not in the "
            "table at that step."
        )
    keys = row_keys(done, qis).view(np.int64)  # signed: Spark has no unsigned integers
    return pd.DataFrame({KEY: keys, **{s: done[s].to_numpy() for s in _sensitive_of(step)}})


def failing_keys(step: Step, table: pd.DataFrame, counts: np.ndarray) -> np.ndarray:
    """The class keys of every class the step suppresses, from the frequency table of
    (class key, sensitive values) with ``counts`` records per row (ARX semantics: a class
    failing any model)."""
    _, models = _class_step_models(step)
    fail = np.zeros(len(table), dtype=bool)
    for model in models:
        fail |= failing_records(table, [KEY], model, counts=counts)
    return np.unique(table[KEY].to_numpy(dtype=np.int64)[fail])


def run_batch(
    batch: pd.DataFrame,
    steps: Sequence[Step],
    failing: Mapping[int, np.ndarray],
    block: int,
    *,
    base_dir: Path | None,
    keys: Mapping[str, bytes] | None,
    mappings: dict[tuple[int, str], list[pd.DataFrame]] | None = None,
    step_rows: np.ndarray | None = None,
) -> pd.DataFrame:
    """One batch through ``steps`` (block ``block`` of the input for seeded draws); a class
    step drops the rows whose class key is in ``failing`` for its position. ``mappings`` and
    ``step_rows`` collect the pseudonym tables and the records before and after each step."""
    for index, step in enumerate(steps):
        rows_before = len(batch)
        try:
            if step.call.function in CLASS_STEPS:
                qis = step.call.args[0]
                missing = [c for c in qis if c not in batch.columns]
                if missing:
                    raise DataReadError(f"Column {missing[0]!r} is not in the table.")
                keys = row_keys(batch, qis).view(np.int64)
                batch = batch.loc[~np.isin(keys, failing[step.position])]
                pseudonymised = None
            else:
                batch, pseudonymised = run_step(
                    batch,
                    step.step,
                    seed=_block_seed(step.seed, block),
                    base_dir=base_dir,
                    keys=keys,
                )
        except AnonymisationError as error:
            raise type(error)(f"Step {step.position} ({step.step['step']}): {error}") from None
        if step_rows is not None:
            step_rows[index] += (rows_before, len(batch))
        if pseudonymised is not None and mappings is not None and pseudonymised.mapping is not None:
            # by step: a column pseudonymised twice has two tables, chained at the end
            mappings.setdefault((step.position, step.call.args[0]), []).append(
                pseudonymised.mapping
            )
    return batch


class ReleaseCounts:
    """What the report, the workspace record and the bundle need of a streamed release,
    counted batch by batch as frequency tables (the tables themselves are never held):

    - each input column's values, and per column kept its values after the recipe and the
      (before, after) pairs of the records kept: the utility figures
      (:func:`core.utility.utility_from_counts`, the in-memory code on counts);
    - the input's quasi-identifiers (and sensitive attribute): the risk before;
    - the records before and after each step, and the formula-like cells of the release.

    The frequency tables hold each column's distinct values: a column of millions of
    distinct values (a free-text field, a noisy number) holds them while counting.
    """

    def __init__(self, risk_columns: Sequence[str], steps: int):
        self.risk_columns = list(risk_columns)
        self.risk = FrequencyCounter(self.risk_columns)
        self.before: dict[str, FrequencyCounter] = {}
        self.after: dict[str, FrequencyCounter] = {}
        self.pairs: dict[str, FrequencyCounter] = {}
        self.step_rows = np.zeros((steps, 2), dtype=np.int64)
        self.formula_cells: np.ndarray | None = None
        self.records_in = 0
        self.records_out = 0
        self.original: pd.DataFrame | None = None  # the input's columns and types, no rows
        self.released: pd.DataFrame | None = None  # the release's columns and types, no rows

    def add(self, batch: pd.DataFrame, done: pd.DataFrame) -> None:
        """Count one input batch and what the recipe made of it (same index labels)."""
        if self.original is None:
            self.original = batch.iloc[:0]
            self.released = done.iloc[:0]
            self.before = {str(c): FrequencyCounter(["value"]) for c in batch.columns}
            self.after = {
                str(c): FrequencyCounter(["value"]) for c in batch.columns if c in done.columns
            }
            self.pairs = {c: FrequencyCounter(["before", "after"]) for c in self.after}
            self.formula_cells = np.zeros(done.shape[1], dtype=np.int64)
        for column in batch.columns:
            self.before[str(column)].add(pd.DataFrame({"value": batch[column]}))
            if str(column) in self.after:
                self.after[str(column)].add(pd.DataFrame({"value": done[column]}))
                kept = batch[column].loc[done.index]
                self.pairs[str(column)].add(pd.DataFrame({"before": kept, "after": done[column]}))
        self.risk.add(batch)
        self.formula_cells += formula_like_cell_counts(done)
        self.records_in += len(batch)
        self.records_out += len(done)

    def merge(self, other: ReleaseCounts) -> None:
        """Add the counts of ``other`` (another block, e.g. counted on a Spark executor)."""
        if other.original is None:
            return
        if self.original is None:
            self.original, self.released = other.original, other.released
            self.before = {c: FrequencyCounter(["value"]) for c in other.before}
            self.after = {c: FrequencyCounter(["value"]) for c in other.after}
            self.pairs = {c: FrequencyCounter(["before", "after"]) for c in other.pairs}
            self.formula_cells = np.zeros_like(other.formula_cells)
        for mine, theirs in (
            (self.before, other.before),
            (self.after, other.after),
            (self.pairs, other.pairs),
        ):
            for column, counter in theirs.items():
                mine[column].merge(counter)
        self.risk.merge(other.risk)
        self.step_rows += other.step_rows
        self.formula_cells += other.formula_cells
        self.records_in += other.records_in
        self.records_out += other.records_out

    def utility(self):
        """The :class:`core.utility.UtilityReport` of the release."""

        def frame(counter: FrequencyCounter) -> pd.DataFrame:
            table, counts = counter.result()
            return table.assign(n=counts)

        columns = [
            ColumnCounts(
                column,
                frame(counter),
                frame(self.after[column]) if column in self.after else None,
                frame(self.pairs[column]) if column in self.pairs else None,
            )
            for column, counter in self.before.items()
        ]
        return utility_from_counts(self.records_in, self.records_out, columns)

    def risk_table(self) -> tuple[pd.DataFrame, np.ndarray]:
        """The input's frequency table of the quasi-identifiers (and sensitive attribute)."""
        return self.risk.result()


def _sensitive_of(step: Step) -> list[str]:
    kwargs = step.call.kwargs
    return list(dict.fromkeys(kwargs[n]["sensitive"] for n in CLASS_MODELS if kwargs.get(n)))


def count_classes(
    batches: Batches,
    steps: Sequence[Step],
    *,
    base_dir: Path | None,
    keys: Mapping[str, bytes] | None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[int, np.ndarray]:
    """For each class step, the classes it suppresses: one counting pass per class step,
    running the steps before it over every batch (PDPC guide, Annex C).
    ``progress(pass, rows)`` is called after each batch."""
    failing: dict[int, np.ndarray] = {}
    for index, step in enumerate(steps):
        if step.call.function not in CLASS_STEPS:
            continue
        counter = FrequencyCounter([KEY, *_sensitive_of(step)])
        rows = 0
        for block, batch in enumerate(batches()):
            done = run_batch(batch, steps[:index], failing, block, base_dir=base_dir, keys=keys)
            counter.add(class_frame(done, step))
            rows += len(batch)
            if progress is not None:
                progress(len(failing), rows)
        failing[step.position] = failing_keys(step, *counter.result())
    return failing


def pass_progress(
    progress: ProgressFn | None, steps: Sequence[Step], total: int | None
) -> Callable[[int, int], None]:
    """Rows done in pass ``i`` as a share of the whole run (one counting pass per class
    step, then the writing pass); ``total`` rows when known (Parquet metadata)."""
    report = progress or no_progress
    passes = 1 + sum(step.call.function in CLASS_STEPS for step in steps)

    def done(index: int, rows: int) -> None:
        share = min(rows / total, 1.0) if total else 0.0
        what = "counting classes" if index < passes - 1 else "writing the release"
        report((index + share) / passes, f"pass {index + 1} of {passes} ({what}): {rows:,} rows")

    return done


def total_rows(sources: Sources) -> int | None:
    """Rows in Parquet files (from their metadata); None for CSV (known only once read)."""
    if sources.format != "parquet":
        return None
    import pyarrow.parquet as pq

    return sum(pq.ParquetFile(file).metadata.num_rows for file in sources.files)


def stream_recipe(
    batches: Batches,
    steps: Sequence[Step],
    write: Callable[[pd.DataFrame, bool], None],
    *,
    seed: int,
    gate_columns: Sequence[str],
    direct_identifiers: Sequence[str],
    base_dir: Path | None = None,
    keys: Mapping[str, bytes] | None = None,
    progress: Callable[[int, int], None] | None = None,
    release_counts: ReleaseCounts | None = None,
) -> StreamResult:
    """Run ``steps`` over every batch and hand each result to ``write(batch, first)``;
    count the frequency table of ``gate_columns`` (those still in the output) on the way,
    and what the report needs into ``release_counts`` when given.
    ``progress(pass, rows)`` (:func:`pass_progress`) is called after each batch."""
    failing = count_classes(batches, steps, base_dir=base_dir, keys=keys, progress=progress)
    final_pass = len(failing)
    counter: FrequencyCounter | None = None
    changed = False
    left: set[str] = set()
    mappings: dict[tuple[int, str], list[pd.DataFrame]] = {}
    records, rows, columns = 0, 0, None
    step_rows = release_counts.step_rows if release_counts is not None else None
    for block, batch in enumerate(batches()):
        done = run_batch(
            batch,
            steps,
            failing,
            block,
            base_dir=base_dir,
            keys=keys,
            mappings=mappings,
            step_rows=step_rows,
        )
        if release_counts is not None:
            release_counts.add(batch, done)
        if counter is None:
            columns = [str(c) for c in done.columns]
            counter = FrequencyCounter([c for c in gate_columns if c in done.columns])
        counter.add(done)
        changed = changed or not done.equals(batch)
        left.update(
            column
            for column in direct_identifiers
            if column in done.columns
            and column not in left
            and _values_left(batch[column], done[column])
        )
        write(done, block == 0)
        records += len(done)
        rows += len(batch)
        if progress is not None:
            progress(final_pass, rows)
    if counter is None:
        raise DataReadError("The input holds no records; nothing was written.")
    frequency, counts = counter.result()
    return StreamResult(
        records,
        columns or [],
        seed,
        frequency,
        counts,
        changed,
        sorted(left),
        merged_mappings(mappings),
    )


def _values_left(before: pd.Series, after: pd.Series) -> bool:
    from core.release.column_judges import original_values_left

    return original_values_left(before, after)


def merged_mappings(
    parts: Mapping[tuple[int, str], list[pd.DataFrame]],
) -> dict[str, pd.DataFrame]:
    """One identity mapping table per column from the batches' tables of each step (keyed
    by step position and column); a column pseudonymised by two steps gets the two chained
    back to its original values, as in memory (:func:`core.recipe.keep_mapping`)."""
    kept: dict[str, pd.DataFrame] = {}
    for (position, column), tables in sorted(parts.items(), key=lambda item: item[0][0]):
        try:
            kept[column] = keep_mapping(kept, column, _merge_mappings(column, tables))
        except AnonymisationError as error:
            raise type(error)(f"Step {position}: {error}") from None
    return kept


def _merge_mappings(column: str, parts: list[pd.DataFrame]) -> pd.DataFrame:
    """One identity mapping table from the batches' (pseudonym -> value), sorted by
    pseudonym; two values with one pseudonym across batches is refused as in memory."""
    whole = pd.concat(parts, ignore_index=True).drop_duplicates(ignore_index=True)
    first = whole.columns[0]
    if whole[first].duplicated().any():
        raise AnonymisationError(
            f"pseudonymise_hmac: two distinct values of column '{column}' got the same "
            "pseudonym; use a larger 'length'."
        )
    return whole.sort_values(first, ignore_index=True)


# --- reading the input in batches ------------------------------------------------------


def duckdb_batches(sources: Sources) -> Batches:
    """Batches of :data:`BATCH_ROWS` rows read by DuckDB, typed as :func:`core.io.read_table`
    types the whole file (a CSV column is numbers only when every value in every batch is)."""
    nullable = nullable_columns(sources)

    def typed() -> Iterator[pd.DataFrame]:
        kinds = csv_kinds(arrow_batches(sources, BATCH_ROWS)) if sources.format == "csv" else None
        offset = 0
        for batch in arrow_batches(sources, BATCH_ROWS):
            frame = to_frame(batch, sources.names, kinds, nullable)
            frame.index = pd.RangeIndex(offset, offset + len(frame))
            offset += len(frame)
            yield frame

    return typed


# --- writing the output batch by batch -------------------------------------------------


class BatchWriter:
    """Appends batches to an open temporary file as CSV/TSV (the bytes
    :func:`core.io.table_to_bytes` gives the whole table, formulas neutralised) or
    Parquet (one row group per batch, the first batch's column types)."""

    def __init__(self, path: Path, fmt: str):
        if fmt not in ("csv", "tsv", "parquet"):
            raise AnonymisationError(
                f"An engine writes .csv, .tsv or .parquet files batch by batch, not .{fmt}; "
                "choose one of those for --out (or --engine pandas for .xlsx)."
            )
        self.path, self.fmt = path, fmt
        self._file = None
        self._parquet = None
        self._schema = None

    def __call__(self, batch: pd.DataFrame, first: bool) -> None:
        if self.fmt != "parquet":
            if self._file is None:
                self._file = open(self.path, "ab")  # noqa: SIM115 - closed in close()
            self._file.write(table_to_bytes(batch, self.fmt, header=first))
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        plain = batch.copy()
        plain.attrs = {}
        plain.columns = [str(c) for c in plain.columns]
        if self._parquet is None:
            table = pa.Table.from_pandas(plain, preserve_index=False)
            self._schema = table.schema
            self._parquet = pq.ParquetWriter(self.path, self._schema)
        else:
            try:
                table = pa.Table.from_pandas(plain, schema=self._schema, preserve_index=False)
            except (pa.ArrowInvalid, pa.ArrowTypeError, ValueError) as exc:
                raise AnonymisationError(
                    f"A later batch of the output has other column types than the first "
                    f"({exc}); write .csv, or use --engine pandas."
                ) from exc
        if table.num_rows or first:
            self._parquet.write_table(table)

    def close(self) -> None:
        import os

        if self._parquet is not None:
            self._parquet.close()
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
        else:
            with open(self.path, "rb+") as handle:
                os.fsync(handle.fileno())
