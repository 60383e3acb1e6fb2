"""Utility metrics: how much information an anonymisation step cost, per column.

The guide asks that utility be judged per attribute, not for the whole table ("utility
should not be assessed at the level of the entire dataset", Introduction, section A),
so every figure here is per column, plus the share of records suppressed:

- ``entropy_loss``: 1 - H(after) / H(before), with H the Shannon entropy of the
  column's values. Generalisation and masking merge values and lower H; 0 means no
  detail lost, 1 means the column says nothing any more (removed or all one value).
- ``changed``: share of the kept records whose value is different after the step (for a
  categorical column after PRAM, sdcMicro's ``percChanges``/100; a blank left by local
  suppression counts as a change).
- ``mean_abs_change`` / ``mean_shift`` / ``sd_ratio`` for columns numeric before and
  after (perturbation): how far values moved, whether the average moved, and how the
  spread changed.
- ``il1s`` for columns numeric before and after (noise, microaggregation): sdcMicro's
  ``dUtility(method="IL1s")`` (Mateo-Sanz, Sebe and Domingo-Ferrer 2004), the sum over
  records of |x - x'| / (sqrt(2) * sd(x)), sd the original column's sample standard
  deviation, over records with a value before and after; ``il1s_mean`` divides it by that
  number of records (the original, per-value form: 0 = unchanged, about 1 = values moved
  as far as two independent draws of the column would differ). The table's IL1s is the
  sum over columns, as sdcMicro.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from core.formatting import fmt_count, fmt_number, fmt_percent


def entropy(series: pd.Series) -> float:
    """Shannon entropy (bits) of a column's values; missing values count as a value."""
    return entropy_of_counts(series.value_counts(dropna=False).to_numpy())


def entropy_of_counts(counts: np.ndarray) -> float:
    """Shannon entropy (bits) of a column from how many records hold each distinct value.

    The terms are summed largest count first (``value_counts``' order), so the figure is
    the same to the last bit whatever order the counts come in (an engine's frequency
    table has none).
    """
    counts = np.sort(np.asarray(counts, dtype=float))[::-1]
    total = counts.sum()
    if total <= 0:
        return 0.0
    share = counts[counts > 0] / total
    return float(-(share * np.log2(share)).sum())


@dataclass(frozen=True)
class ColumnLoss:
    """Information lost in one column (see the module docstring for each figure)."""

    column: str
    status: str  # "unchanged", "changed", "removed"
    distinct_before: int
    distinct_after: int
    entropy_before: float
    entropy_after: float
    entropy_loss: float
    changed: float
    mean_abs_change: float | None = None
    mean_shift: float | None = None
    sd_ratio: float | None = None
    il1s: float | None = None
    il1s_mean: float | None = None

    def explanation(self) -> str:
        if self.status == "removed":
            return f"'{self.column}' was removed: all of its information is gone."
        if self.status == "unchanged":
            if self.entropy_loss > 0:
                # No kept value changed: what was lost went with the suppressed records.
                return (
                    f"'{self.column}' is unchanged in the records kept; the "
                    f"{fmt_percent(self.entropy_loss)} of its information lost is from the "
                    "suppressed records."
                )
            return f"'{self.column}' is unchanged."
        text = (
            f"'{self.column}': {fmt_percent(self.changed)} of values changed; "
            f"{fmt_count(self.distinct_before)} distinct values became "
            f"{fmt_count(self.distinct_after)}, losing {fmt_percent(self.entropy_loss)} of "
            "its information (entropy)."
        )
        if self.mean_abs_change is not None:
            text += f" Values moved by {fmt_number(self.mean_abs_change)} on average."
        if self.il1s_mean is not None:
            text += (
                f" IL1s {self.il1s:.4g} (sdcMicro): {self.il1s_mean:.3g} per value, in units "
                "of the column's spread (0 = unchanged)."
            )
        return text


@dataclass(frozen=True)
class UtilityReport:
    """Per-column loss plus records suppressed, between an original and a released table."""

    records_before: int
    records_after: int
    columns: tuple[ColumnLoss, ...]

    @property
    def records_suppressed(self) -> int:
        return self.records_before - self.records_after

    @property
    def share_suppressed(self) -> float:
        return self.records_suppressed / self.records_before if self.records_before else 0.0

    @property
    def il1s(self) -> float | None:
        """sdcMicro's IL1s of the table: the sum over numeric columns (None if none)."""
        values = [c.il1s for c in self.columns if c.il1s is not None]
        return float(sum(values)) if values else None

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([asdict(c) for c in self.columns])

    def to_dict(self) -> dict:
        return {
            "records_before": self.records_before,
            "records_after": self.records_after,
            "records_suppressed": self.records_suppressed,
            "share_suppressed": self.share_suppressed,
            "il1s": self.il1s,
            "columns": [asdict(c) for c in self.columns],
        }


def _numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def value_counts(series: pd.Series) -> pd.DataFrame:
    """A column's frequency table: each distinct value (``value``, missing included) and how
    many records hold it (``n``)."""
    counts = series.value_counts(dropna=False, sort=False)
    return pd.DataFrame({"value": counts.index, "n": counts.to_numpy(dtype=np.int64)})


def pair_counts(before: pd.Series, after: pd.Series) -> pd.DataFrame:
    """The frequency table of (value before, value after) over the same records (matched by
    position): ``before``, ``after`` and ``n``."""
    pairs = pd.DataFrame(
        {"before": before.reset_index(drop=True), "after": after.reset_index(drop=True)}
    )
    counted = pairs.groupby(["before", "after"], dropna=False, sort=False, observed=True).size()
    return counted.rename("n").reset_index()


@dataclass(frozen=True)
class ColumnCounts:
    """What the loss of one column is computed from: frequency tables, never the records.

    ``before`` and ``after`` are :func:`value_counts` of the column in the original and the
    released table (``after`` is None when the column was removed); ``pairs`` is
    :func:`pair_counts` over the records kept (matched by row). An engine adds them up batch
    by batch (:mod:`core.engines.streaming`); in memory :func:`column_loss` counts them.
    """

    column: str
    before: pd.DataFrame
    after: pd.DataFrame | None
    pairs: pd.DataFrame | None


def _weighted_values(values: pd.Series, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct present values (sorted) and their summed weights: a canonical order, so every
    sum below is the same to the last bit however the frequency table was ordered."""
    numbers = values.to_numpy(dtype=float, na_value=np.nan)
    present = ~np.isnan(numbers)
    distinct, inverse = np.unique(numbers[present], return_inverse=True)
    return distinct, np.bincount(inverse, weights=weights[present], minlength=len(distinct))


def _weighted_std(values: pd.Series, weights: np.ndarray, ddof: int = 0) -> float:
    """``np.nanstd`` of the records a frequency table stands for (``ddof`` as numpy's)."""
    distinct, w = _weighted_values(values, weights)
    total = w.sum()
    if total - ddof <= 0:
        return float("nan")
    mean = (distinct * w).sum() / total
    return float(np.sqrt((w * (distinct - mean) ** 2).sum() / (total - ddof)))


def _numeric_loss(counts: ColumnCounts) -> dict[str, float | None]:
    """mean_abs_change, mean_shift, sd_ratio and IL1s of a column numeric before and after."""
    pairs = counts.pairs
    weights = pairs["n"].to_numpy(dtype=float)
    before = pairs["before"].to_numpy(dtype=float, na_value=np.nan)
    after = pairs["after"].to_numpy(dtype=float, na_value=np.nan)
    both = ~(np.isnan(before) | np.isnan(after))
    order = np.lexsort((after[both], before[both]))  # distinct pairs: one canonical order
    diff = (after[both] - before[both])[order]
    w = weights[both][order]
    moved = w.sum()
    sd = _weighted_std(counts.before["value"], counts.before["n"].to_numpy(dtype=float), ddof=1)
    numeric: dict[str, float | None] = {}
    if sd > 0 and moved > 0:  # sdcMicro's IL1s (see the module docstring)
        total = float((np.abs(diff) * w).sum() / (np.sqrt(2) * sd))
        numeric.update(il1s=total, il1s_mean=total / moved)
    sd_before = _weighted_std(pairs["before"], weights)
    numeric.update(
        mean_abs_change=float((np.abs(diff) * w).sum() / moved) if moved else float("nan"),
        mean_shift=float((diff * w).sum() / moved) if moved else float("nan"),
        sd_ratio=_weighted_std(pairs["after"], weights) / sd_before if sd_before > 0 else None,
    )
    return numeric


def loss_from_counts(counts: ColumnCounts) -> ColumnLoss:
    """The :class:`ColumnLoss` of one column from its frequency tables (:class:`ColumnCounts`)."""
    h_before = entropy_of_counts(counts.before["n"].to_numpy())
    distinct_before = len(counts.before)
    if counts.after is None or counts.pairs is None:
        return ColumnLoss(counts.column, "removed", distinct_before, 0, h_before, 0.0, 1.0, 1.0)
    pairs = counts.pairs
    weights = pairs["n"].to_numpy(dtype=np.int64)
    kept = int(weights.sum())
    same = (pairs["before"].astype(str).to_numpy() == pairs["after"].astype(str).to_numpy()) | (
        pairs["before"].isna().to_numpy() & pairs["after"].isna().to_numpy()
    )
    changed = float(1 - int(weights[same].sum()) / kept) if kept else 0.0
    h_after = entropy_of_counts(counts.after["n"].to_numpy())
    loss = 1 - h_after / h_before if h_before > 0 else 0.0
    numeric = {}
    if _numeric(pairs["before"]) and _numeric(pairs["after"]) and kept:
        numeric = _numeric_loss(counts)
    return ColumnLoss(
        column=counts.column,
        status="changed" if changed > 0 else "unchanged",
        distinct_before=distinct_before,
        distinct_after=len(counts.after),
        entropy_before=h_before,
        entropy_after=h_after,
        entropy_loss=max(0.0, loss),
        changed=changed,
        **numeric,
    )


def column_counts(before: pd.Series, after: pd.Series | None) -> ColumnCounts:
    """The :class:`ColumnCounts` of a column in memory (rows matched by index label, so
    suppressed records do not count as changed)."""
    if after is None:
        return ColumnCounts(str(before.name), value_counts(before), None, None)
    kept = before.loc[before.index.intersection(after.index)]
    pairs = pair_counts(kept, after.loc[kept.index])
    return ColumnCounts(str(before.name), value_counts(before), value_counts(after), pairs)


def column_loss(before: pd.Series, after: pd.Series | None) -> ColumnLoss:
    """Loss in one column; ``after`` is None when the column was removed.

    Rows are matched by index label, so suppressed records do not count as changed.
    """
    return loss_from_counts(column_counts(before, after))


def utility_report(before: pd.DataFrame, after: pd.DataFrame) -> UtilityReport:
    """Compare an original table with its anonymised version, column by column."""
    columns = tuple(
        column_loss(before[c], after[c] if c in after.columns else None) for c in before.columns
    )
    return UtilityReport(len(before), len(after), columns)


def utility_from_counts(
    records_before: int, records_after: int, columns: list[ColumnCounts]
) -> UtilityReport:
    """:func:`utility_report` from each column's frequency tables (an engine's, batch by batch)."""
    return UtilityReport(records_before, records_after, tuple(map(loss_from_counts, columns)))
