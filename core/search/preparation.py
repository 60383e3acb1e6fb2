"""Preparation of a search: each column coded once against its hierarchy, records grouped.

Speed (PDPC guide, Step 3: the search evaluates thousands of nodes): each quasi-identifier's
values are factorised once and its integer codes at every level are computed once
(hierarchy lookup on the distinct values, all levels at once). Records are then grouped
into *units*: records alike on every quasi-identifier at level 0 (18,109 units for the
30,162 adult records); the sensitive attribute, if any, is coded once and kept as each
unit's distribution of values. Every class of every node is a union of units, so after
this module nothing in the search touches a record again. Apart from the evaluation
because it runs once per search, and local recoding prepares its columns the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from core._text import as_text
from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.codes import combine_codes, key_runs
from core.measures.distributions import ClassDistribution, sensitive_coding
from core.measures.models.class_models import ClassModels
from core.population_risk.kmap import PopulationLattice
from core.search.target import Target


@dataclass
class PreparedColumn:
    """One quasi-identifier coded against its hierarchy: the codes of its distinct values at
    every level, and the loss and entropy figures the measures sum (:func:`prepare_column`)."""

    name: str
    height: int
    value_groups: np.ndarray  # (levels, d): class code at each level of each distinct value
    cards: list[int]  # per level: number of codes
    value_codes: np.ndarray  # code of each record's original value (0..d-1)
    value_loss: list[np.ndarray]  # per level: loss metric of each original value
    value_entropy: list[np.ndarray]  # per level: -log2 P(value | generalised value)
    value_max_entropy: np.ndarray = field(default_factory=lambda: np.zeros(0))  # at "*"
    level_totals: dict[str, np.ndarray] = field(default_factory=dict)
    domain: int = 1  # leaves of the hierarchy (ARX's domain size for its loss)
    level_sizes: list[np.ndarray] = field(default_factory=list)  # per level: records per code
    codes: list[np.ndarray] = field(default_factory=list)  # per level: class code of each unit


def value_rows(series: pd.Series, hierarchy: Hierarchy) -> tuple[np.ndarray, np.ndarray]:
    """Each record's hierarchy row: the code of its value (0..d-1) and, per distinct value,
    its row of the hierarchy table (``len(hierarchy.levels)`` for a missing value), in
    ascending row order (:func:`record_rows`, then the rows present numbered densely)."""
    return dense_rows(record_rows(series, hierarchy), len(hierarchy.levels) + 1)


def record_rows(series: pd.Series, hierarchy: Hierarchy) -> np.ndarray:
    """Each record's row of the hierarchy table (``len(hierarchy.levels)`` for a missing
    value). Values are matched as text (``39`` and ``39.0`` are one value): one hash of the
    records (pyarrow's ``index_in`` for a pyarrow string column, else ``pd.factorize`` and
    the text of each distinct value; a numpy integer column spanning a short range is
    coded by offset, with no hash). A value the hierarchy does not cover raises, naming it
    and its row."""
    leaves = hierarchy.levels[0]
    if arrow_strings(series) and arrow_strings(leaves):
        values = pa.array(series.array)
        known = pa.array(leaves.array).cast(values.type)
        # The value set ends with a null: a missing value finds row len(leaves).
        value_set = pa.concat_arrays([known, pa.nulls(1, type=values.type)])
        found = pc.index_in(values, value_set=value_set, skip_nulls=False)
        if found.null_count:
            hierarchy.generalise(series, 0)  # raises, naming the first value not covered
        return found.to_numpy()
    values = series.to_numpy() if isinstance(series.dtype, np.dtype) else None
    if values is not None and values.dtype.kind == "i" and values.size:
        low = int(values.min())
        span = int(values.max()) - low + 1
        if span <= 4 * values.size + 1024:
            # By offset from the smallest value (a bincount, no hash: adult's ages, 30,162
            # records, in about a third of pd.factorize's time), each offset's row found
            # once; a record's row is then one lookup by its offset.
            offset = values.astype(np.int64, copy=False) - low  # (no int8 overflow)
            present = np.bincount(offset, minlength=span) > 0
            uniques = (np.flatnonzero(present) + low).astype(values.dtype)
            row_of_offset = np.zeros(span, dtype=np.int64)
            row_of_offset[present] = _rows_of_values(uniques, series, hierarchy)
            return row_of_offset[offset]
    raw_codes, raw_uniques = pd.factorize(series, use_na_sentinel=False)
    return _rows_of_values(raw_uniques, series, hierarchy)[np.asarray(raw_codes, dtype=np.intp)]


def _rows_of_values(uniques, series: pd.Series, hierarchy: Hierarchy) -> np.ndarray:
    """The hierarchy row of each of a column's distinct values ``uniques`` (of
    ``series``' type), matched as text; ``len(hierarchy.levels)`` for a missing value."""
    leaves = hierarchy.levels[0]
    if isinstance(uniques, np.ndarray) and uniques.dtype.kind in "iu" and arrow_strings(leaves):
        # Integers as text (what as_text gives them) in pyarrow, found by one index_in.
        text = pa.array(uniques).cast(pa.large_string())
        found = pc.index_in(text, value_set=pa.array(leaves.array).cast(pa.large_string()))
        if found.null_count:
            hierarchy.generalise(series, 0)  # raises, naming the first value not covered
        return found.to_numpy()
    text = as_text(pd.Series(uniques, name=series.name, dtype=series.dtype))
    rows = pd.Index(leaves.to_numpy(dtype=object)).get_indexer(
        text.to_numpy(dtype=object, na_value=None)
    )
    missing = text.isna().to_numpy()
    if ((rows < 0) & ~missing).any():
        hierarchy.generalise(series, 0)  # raises, naming the first value not covered
    return np.where(missing, len(leaves), rows)


def dense_rows(rows: np.ndarray, n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """``rows`` (hierarchy rows, below ``n_rows``) as codes 0..d-1 in ascending row order,
    and the d rows present."""
    present = np.bincount(rows, minlength=n_rows) > 0
    return (np.cumsum(present) - 1)[rows], np.flatnonzero(present)


def arrow_strings(values: pd.Series) -> bool:
    """Whether a column holds its text in pyarrow (pandas' default ``str`` dtype)."""
    dtype = values.dtype
    return isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"


def level_labels(hierarchy: Hierarchy) -> tuple[np.ndarray, np.ndarray]:
    """Per hierarchy row (plus a last row for missing values) and level: a label number
    (equal labels at a level, equal numbers; numbers of different levels never meet), and
    the leaves of the hierarchy under that label (its domain share, as ARX counts it)."""
    columns = [hierarchy.levels[level] for level in range(hierarchy.height + 1)]
    if all(arrow_strings(column) for column in columns):  # hashed by pyarrow, no str objects
        text = pa.concat_arrays([pa.array(c.array).cast(pa.large_string()) for c in columns])
        encoded = text.dictionary_encode()
        label, n_labels = encoded.indices.to_numpy().astype(np.int64), len(encoded.dictionary)
    else:
        label, labels = pd.factorize(np.concatenate([c.to_numpy(dtype=object) for c in columns]))
        n_labels = len(labels)
    shape = (len(columns[0]), len(columns))
    per_level = n_labels + 1  # + the label of missing values
    label = np.vstack([label.reshape(shape[::-1]).T, np.full((1, shape[1]), n_labels)])
    label = label + np.arange(shape[1]) * per_level
    leaves = np.bincount(label[:-1].ravel(), minlength=per_level * shape[1])[label]
    leaves[-1] = 1  # a missing value stays itself: one leaf
    return label, leaves


def prepare_column(
    series: pd.Series, hierarchy: Hierarchy, records: np.ndarray | None = None
) -> PreparedColumn:
    """A column coded against its hierarchy at every level (nesting checked on the values
    present). ``records``: how many records each row stands for (None: one each)."""
    return column_of_rows(
        str(series.name), record_rows(series, hierarchy), hierarchy, records, series.name
    )


def column_of_rows(
    name: str,
    rows_of: np.ndarray,
    hierarchy: Hierarchy,
    records: np.ndarray | None,
    label=None,
    codes_out: np.ndarray | None = None,
) -> PreparedColumn:
    """:func:`prepare_column` from each row's hierarchy row (``rows_of``, as
    :func:`record_rows` gives; the rows may be groups of records, ``records`` of each, every
    one at least 1 unless some are 0). Every step works on the distinct values, all levels
    at once. ``codes_out`` (levels x rows, int32): filled with each row's code at every
    level (the search's units: :class:`PreparedTable`), in one take from a table of the
    hierarchy's rows; the value codes are then its level-0 row."""
    n_rows = len(hierarchy.levels) + 1
    row_records = np.bincount(rows_of, weights=records, minlength=n_rows)
    if records is None or records.min() > 0:  # a row present holds records
        present = row_records > 0
    else:
        present = np.bincount(rows_of, minlength=n_rows) > 0
    rows = np.flatnonzero(present)
    d, levels, domain = len(rows), hierarchy.height + 1, len(hierarchy.levels)
    label_of, leaves = level_labels(hierarchy)
    value_label = label_of[rows].T  # (levels, d)
    used = np.zeros(label_of.max() + 1, dtype=bool)
    used[value_label] = True
    rank = np.cumsum(used) - 1
    cards = used.reshape(levels, -1).sum(axis=1)
    starts = np.concatenate([[0], np.cumsum(cards)[:-1]])
    groups = rank[value_label] - starts[:, None]  # dense 0..cards-1 per level
    for level in range(1, levels):
        _check_nested(
            groups[level - 1],
            groups[level],
            cards[level - 1],
            rows,
            hierarchy,
            level,
            name if label is None else label,
        )
    counts = row_records[rows].astype(float)
    if codes_out is not None and (groups[0] == np.arange(d)).all():
        by_row = np.zeros((levels, n_rows), dtype=np.int32)  # rows absent: never taken
        by_row[:, rows] = groups
        # mode="clip": the rows are in range, and numpy buffers ``out`` in mode "raise".
        np.take(by_row, rows_of, axis=1, out=codes_out, mode="clip")
        value_codes = codes_out[0]
    else:
        value_codes = (np.cumsum(present) - 1)[rows_of]
        if codes_out is not None:
            np.take(groups.astype(np.int32), value_codes, axis=1, out=codes_out, mode="clip")
    n = float(counts.sum())
    group_count = np.bincount((groups + starts[:, None]).ravel(), weights=np.tile(counts, levels))
    entropy = -np.log2(counts / group_count[groups + starts[:, None]])
    loss = (leaves[rows].T - 1.0) / (domain - 1) if domain > 1 else np.zeros((levels, d))
    column = PreparedColumn(
        name,
        hierarchy.height,
        groups,
        [max(int(c), 1) for c in cards],
        value_codes,
        list(loss),
        list(entropy),
    )
    column.level_totals["loss"] = loss @ counts
    column.level_totals["entropy"] = entropy @ counts
    column.level_totals["precision"] = np.arange(levels) / max(hierarchy.height, 1) * n
    column.value_max_entropy = -np.log2(counts / n)
    column.domain = domain
    column.level_sizes = np.split(group_count, np.cumsum(cards)[:-1])
    return column


def _check_nested(previous, group, previous_card, rows, hierarchy, level, column) -> None:
    """Level ``level`` must be a function of level ``level - 1`` (classes only merge)."""
    image = np.empty(previous_card, dtype=np.int64)
    image[previous] = group
    split = image[previous] != group
    if split.any():
        row = rows[int(np.flatnonzero(split)[0])]
        value = hierarchy.levels[0].iloc[row] if row < len(hierarchy.levels) else None
        raise ParameterError(
            f"The hierarchy{f' {hierarchy.name!r}' if hierarchy.name else ''} of column "
            f"'{column}' does not nest: values that share level {level - 1} (e.g. {value!r}) "
            f"are split at level {level}. Each level must merge groups of the one before."
        )


@dataclass(frozen=True)
class SensitiveColumn:
    """The sensitive attribute coded once for the t-closeness distance of the models
    (:func:`core.measures.distributions.sensitive_coding`), with its distribution over the
    whole table."""

    name: Any  # the column's label, as the table names it
    codes: np.ndarray
    values: int
    ordered: bool
    tree: Any  # core.measures.emd.HierarchyTree for hierarchical t-closeness, else None
    overall: np.ndarray  # share of each value in the whole table

    @classmethod
    def of(
        cls, column: pd.Series, models: ClassModels, counts: np.ndarray | None, n: int
    ) -> SensitiveColumn:
        codes, values, ordered, tree = sensitive_coding(
            column, models.t_distance, models.t_hierarchy
        )
        overall = np.bincount(codes, weights=counts, minlength=values)
        return cls(column.name, codes, values, ordered, tree, overall / max(n, 1))

    def distribution(self, class_codes, value_codes, n_classes: int, weights) -> ClassDistribution:
        """The distribution of the attribute over ``n_classes`` classes, from (class, value,
        records) triples."""
        return ClassDistribution.of(
            class_codes,
            value_codes,
            self.overall,
            n_classes=n_classes,
            ordered=self.ordered,
            weights=weights,
            tree=self.tree,
        )


def group_records(coded: list[tuple[np.ndarray, int]]) -> tuple[np.ndarray, np.ndarray]:
    """The units of records coded per column (``(codes, cardinality)`` each, as
    :func:`core.measures.codes.combine_codes` takes): each record's unit and the first
    record of each unit. Units are numbered in the order of their combined key, found by
    one sort (:func:`core.measures.codes.key_runs`; most records are distinct on 8
    columns, where a sort beats a hash); a key too wide for it is compressed by
    ``combine_codes``, one column alone is its values present, in hierarchy order."""
    n = coded[0][0].size
    radix = 1
    for _, cardinality in coded:
        radix *= cardinality
    runs = None
    if len(coded) > 1 and radix < 2**62:
        key = np.zeros(n, dtype=np.int64)
        for codes, cardinality in coded:
            key *= cardinality
            key += codes
        runs = key_runs(key)
    if runs is not None:
        return runs
    if len(coded) == 1:
        unit_of_record, present = dense_rows(*coded[0])
        n_units = present.size
    else:
        unit_of_record, n_units = combine_codes(coded, n)
    first = np.empty(n_units, dtype=np.int64)
    first[unit_of_record[::-1]] = np.arange(n - 1, -1, -1)
    return unit_of_record, first


class PreparedTable:
    """One search's table, prepared once: a :class:`PreparedColumn` per quasi-identifier
    (its codes per unit), the units (records alike on every quasi-identifier at level 0),
    the sensitive attribute's distribution over the units and, for k-map with a
    population table, its records coded alike."""

    def __init__(
        self,
        df: pd.DataFrame,
        hierarchies: Mapping[str, Hierarchy],
        target: Target,
        counts: np.ndarray | None = None,
    ):
        self.qis = tuple(hierarchies)
        self.n = len(df) if counts is None else int(counts.sum())
        models = target.models
        # Each record's hierarchy row per column, combined into units (records alike on
        # every quasi-identifier) straight away: only these passes touch every record; the
        # columns are then coded on the units (distinct values, losses, entropies, nesting).
        rows_of = [record_rows(df[c], hierarchies[c]) for c in self.qis]
        unit_of_record, first = group_records(
            [(r, len(hierarchies[c].levels) + 1) for r, c in zip(rows_of, self.qis, strict=True)]
        )
        n_units = first.size
        self.unit_records = np.bincount(unit_of_record, weights=counts, minlength=n_units).astype(
            np.int64, copy=False
        )
        self.n_units = n_units
        self.unit_first = first  # first record of each unit (ARX orders ties by it)
        self.heights = np.array([hierarchies[c].height for c in self.qis], dtype=np.int64)
        # From here on, codes are per unit: one row per (column, level) of one array, which
        # the measures read as a whole (core.search.measures), filled column by column as
        # each is coded. 32-bit: a code is below the number of distinct values, and keys
        # are 32-bit while their radix fits (core.search.rollup).
        self.unit_codes = np.empty((int((self.heights + 1).sum()), n_units), dtype=np.int32)
        # Units weighted by their records: a column's figures are those of its records.
        weights = self.unit_records.astype(float)
        columns, row = [], 0
        for r, c, height in zip(rows_of, self.qis, self.heights.tolist(), strict=True):
            codes = self.unit_codes[row : row + height + 1]
            column = column_of_rows(str(c), r[first], hierarchies[c], weights, c, codes)
            column.codes, row = list(codes), row + height + 1
            columns.append(column)
        del rows_of
        self.columns = columns
        self.population = None  # k-map with a population table: its records, coded alike
        if target.population_table is not None:
            self.population = PopulationLattice.of(
                target.population_table,
                hierarchies,
                {c.name: df[c.name].iloc[first] for c in columns},
                {c.name: c.codes for c in columns},
            )
        self.sensitive: SensitiveColumn | None = None
        self.unit_distribution: ClassDistribution | None = None
        if models.uses_sensitive:
            self.sensitive = SensitiveColumn.of(df[target.sensitive], models, counts, self.n)
            self.unit_distribution = self.sensitive.distribution(
                unit_of_record, self.sensitive.codes, n_units, counts
            )
