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
        value_set = pa.array(leaves.array)
        if value_set.type != values.type:
            value_set = value_set.cast(values.type)
        if values.null_count:  # the value set ends with a null: row len(leaves)
            value_set = pa.concat_arrays([value_set, pa.nulls(1, type=values.type)])
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
    labels = HierarchyLabels([hierarchy])
    index = labels.start[0][None, :] + np.arange(len(hierarchy.levels) + 1)[:, None]
    return labels.label[index], labels.leaves[index]


class HierarchyLabels:
    """The labels of several hierarchies numbered at once: for hierarchy c, level l and row
    r (the last row: missing values), ``label[start[c][l] + r]`` is a number equal for equal
    labels of that level and different from every other level's (of any hierarchy), and
    ``leaves`` at the same place the hierarchy's leaves under that label (its domain share,
    as ARX counts it). Level 0 is the row itself (a hierarchy lists each value once); a
    hierarchy's other levels are hashed in one dictionary encoding (pyarrow's, or
    ``pd.factorize`` for text not held in pyarrow). A level's numbers lie in a band of
    ``widths[c]`` numbers from ``start[c][l]`` on: ``levels`` bands in all, ``size``
    numbers."""

    def __init__(self, hierarchies: list[Hierarchy]):
        codes, widths = [], []
        for h in hierarchies:
            rows = len(h.levels) + 1  # + the row of missing values
            text = [h.levels[level] for level in range(1, h.height + 1)]
            if not text:
                code, n_text = np.zeros(0, dtype=np.int64), 0
            elif all(arrow_strings(column) for column in text):  # no str objects
                arrays = [pa.array(column.array) for column in text]
                encoded = pa.chunked_array(
                    [
                        a if a.type == pa.large_string() else a.cast(pa.large_string())
                        for a in arrays
                    ]
                ).dictionary_encode()
                code = np.concatenate([chunk.indices.to_numpy() for chunk in encoded.chunks])
                n_text = len(encoded.chunks[-1].dictionary)
            else:
                code, uniques = pd.factorize(
                    np.concatenate([column.to_numpy(dtype=object) for column in text])
                )
                n_text = len(uniques)
            codes.append(code)
            widths.append(max(n_text + 1, rows))  # a level's numbers (+ missing): below this
        rows = [len(h.levels) + 1 for h in hierarchies]
        heights = [h.height + 1 for h in hierarchies]
        self.label = np.empty(sum(r * h for r, h in zip(rows, heights, strict=True)), np.int64)
        self.start: list[np.ndarray] = []
        self.band_start: list[np.ndarray] = []  # the first number of each level's band
        at, band = 0, 0
        for r, levels, width, code in zip(rows, heights, widths, codes, strict=True):
            self.start.append(at + r * np.arange(levels))
            self.band_start.append(band + width * np.arange(levels))
            self.label[at : at + r] = np.arange(r) + band  # level 0: the row
            for level in range(1, levels):
                block = self.label[at + level * r : at + (level + 1) * r]
                block[:-1] = code[(level - 1) * (r - 1) : level * (r - 1)] + band + level * width
                block[-1] = band + level * width + width - 1  # missing: its own label
            at, band = at + r * levels, band + width * levels
        self.widths, self.levels, self.size = widths, sum(heights), band
        # Leaves per label: the rows carrying it, missing rows apart (each is one leaf).
        missing = np.concatenate([s + r - 1 for s, r in zip(self.start, rows, strict=True)])
        counted = np.ones(self.label.size, dtype=bool)
        counted[missing] = False
        self.leaves = np.bincount(self.label[counted], minlength=band)[self.label]
        self.leaves[missing] = 1


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
) -> PreparedColumn:
    """:func:`prepare_column` from each row's hierarchy row (``rows_of``, as
    :func:`record_rows` gives; the rows may be groups of records, ``records`` of each)."""
    return columns_of_rows([name], [rows_of], [hierarchy], records, [label])[0]


def columns_of_rows(
    names: list[str],
    rows_of: list[np.ndarray],
    hierarchies: list[Hierarchy],
    records: np.ndarray | None,
    labels: list | None = None,
    codes_out: list[np.ndarray] | None = None,
) -> list[PreparedColumn]:
    """Several columns coded at once from each row's hierarchy row (``rows_of[c]``, as
    :func:`record_rows` gives; the rows may be groups of records, ``records`` of each, every
    one at least 1 unless some are 0). Every step works on the distinct values of all the
    columns and levels together, one call for all (the search's preparation is many calls
    on small arrays). ``labels``: the columns' labels for error messages (default:
    ``names``). ``codes_out[c]`` (levels x rows, int32): filled with each row's code at
    every level of column c (the search's units, :class:`PreparedTable`) in one take from
    a table of the hierarchy's rows; the value codes are then its level-0 row. Codes at a
    level are numbered in the order of their labels' numbers (:class:`HierarchyLabels`),
    at level 0 in hierarchy order."""
    labels = labels if labels is not None else names
    named = HierarchyLabels(hierarchies)
    heights = np.array([h.height + 1 for h in hierarchies])  # levels of each column
    presents, rows_present, row_records = [], [], []
    for r, h in zip(rows_of, hierarchies, strict=True):
        n_rows = len(h.levels) + 1
        counted = np.bincount(r, weights=records, minlength=n_rows)
        if records is None or records.min() > 0:  # a row present holds records
            present = counted > 0
        else:
            present = np.bincount(r, minlength=n_rows) > 0
        presents.append(present)
        rows_present.append(np.flatnonzero(present))
        row_records.append(counted)
    # Places: every (column, level, distinct value), column by column, level by level.
    sizes = np.array([rows.size for rows in rows_present])
    ends = np.cumsum(sizes * heights)
    blocks = ends - sizes * heights  # first place of each column
    first_level = np.cumsum(heights) - heights  # each column's level 0 among all levels
    place = np.concatenate(
        [
            (start[:, None] + rows).ravel()
            for start, rows in zip(named.start, rows_present, strict=True)
        ]
    )
    value_label = named.label[place]
    used = np.zeros(named.size, dtype=bool)
    used[value_label] = True
    group = np.cumsum(used) - 1  # every label used, numbered across all levels
    bands = np.concatenate(named.band_start)  # each level's first label number
    level_cards = np.add.reduceat(used, bands)
    level_start = np.cumsum(level_cards) - level_cards
    value_group = group[value_label]  # the group of each place
    level_of = np.searchsorted(bands, value_label, side="right") - 1  # its level of all
    codes = value_group - level_start[level_of]  # 0..cards - 1 within its level
    # Nesting: each level a function of the one before (classes only merge), all at once:
    # a place above level 0 against the same value's place one level down.
    column_of = np.repeat(np.arange(len(hierarchies)), sizes * heights)
    later = np.flatnonzero(np.arange(place.size) - blocks[column_of] >= sizes[column_of])
    earlier = later - sizes[column_of[later]]
    image = np.empty(group.size, dtype=np.int64)
    image[value_group[earlier]] = value_group[later]
    split = image[value_group[earlier]] != value_group[later]
    if split.any():  # the first column that splits raises, naming a value
        c = int(column_of[later[np.flatnonzero(split)[0]]])
        column_codes = codes[blocks[c] : ends[c]].reshape(heights[c], -1)
        for level in range(1, int(heights[c])):
            _check_nested(
                column_codes[level - 1],
                column_codes[level],
                int(level_cards[first_level[c] + level - 1]),
                rows_present[c],
                hierarchies[c],
                level,
                labels[c],
            )
    counts = np.concatenate(
        [np.tile(n[rows], h) for n, rows, h in zip(row_records, rows_present, heights, strict=True)]
    ).astype(float)
    group_records = np.bincount(value_group, weights=counts, minlength=group.size)
    entropy = -np.log2(counts / group_records[value_group])
    domain = np.array([len(h.levels) for h in hierarchies])[column_of]
    loss = np.where(domain > 1, (named.leaves[place] - 1.0) / np.maximum(domain - 1, 1), 0.0)
    loss_total = np.bincount(level_of, weights=loss * counts, minlength=named.levels)
    entropy_total = np.bincount(level_of, weights=entropy * counts, minlength=named.levels)
    columns = []
    for c, (name, h) in enumerate(zip(names, hierarchies, strict=True)):
        d, levels = int(sizes[c]), int(heights[c])
        span, own = slice(blocks[c], ends[c]), slice(first_level[c], first_level[c] + levels)
        groups = codes[span].reshape(levels, d)
        value_counts = counts[span][:d]
        n = float(value_counts.sum())
        if codes_out is not None:
            by_row = np.zeros((levels, len(h.levels) + 1), dtype=np.int32)  # absent: unread
            by_row[:, rows_present[c]] = groups
            # mode="clip": the rows are in range, and numpy buffers ``out`` in mode "raise".
            np.take(by_row, rows_of[c], axis=1, out=codes_out[c], mode="clip")
            value_codes = codes_out[c][0]  # level 0 numbers the values in hierarchy order
        else:
            value_codes = (np.cumsum(presents[c]) - 1)[rows_of[c]]
        cards = level_cards[own]
        column = PreparedColumn(
            name,
            h.height,
            groups,
            [max(int(card), 1) for card in cards],
            value_codes,
            list(loss[span].reshape(levels, d)),
            list(entropy[span].reshape(levels, d)),
        )
        column.level_totals["loss"] = loss_total[own]
        column.level_totals["entropy"] = entropy_total[own]
        column.level_totals["precision"] = np.arange(levels) / max(h.height, 1) * n
        column.value_max_entropy = -np.log2(value_counts / n)
        column.domain = len(h.levels)
        column.level_sizes = [
            group_records[start : start + card]
            for start, card in zip(level_start[own], cards, strict=True)
        ]
        columns.append(column)
    return columns


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
        codes_out, row = [], 0
        for height in self.heights.tolist():
            codes_out.append(self.unit_codes[row : row + height + 1])
            row += height + 1
        columns = columns_of_rows(
            [str(c) for c in self.qis],
            [r[first] for r in rows_of],
            [hierarchies[c] for c in self.qis],
            self.unit_records.astype(float),
            list(self.qis),
            codes_out,
        )
        for column, codes in zip(columns, codes_out, strict=True):
            column.codes = list(codes)
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
