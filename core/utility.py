"""Utility metrics: how much information an anonymisation step cost, per column.

The guide asks that utility be judged per attribute, not for the whole table ("utility
should not be assessed at the level of the entire dataset", Introduction, section A),
so every figure here is per column, plus the share of records suppressed:

- ``entropy_loss``: 1 - H(after) / H(before), with H the Shannon entropy of the
  column's values. Generalisation and masking merge values and lower H; 0 means no
  detail lost, 1 means the column says nothing any more (removed or all one value).
- ``changed``: share of the kept records whose value is different after the step.
- ``mean_abs_change`` / ``mean_shift`` / ``sd_ratio`` for columns numeric before and
  after (perturbation): how far values moved, whether the average moved, and how the
  spread changed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd


def entropy(series: pd.Series) -> float:
    """Shannon entropy (bits) of a column's values; missing values count as a value."""
    if series.empty:
        return 0.0
    counts = series.value_counts(dropna=False).to_numpy(dtype=float)
    share = counts / counts.sum()
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

    def explanation(self) -> str:
        if self.status == "removed":
            return f"'{self.column}' was removed: all of its information is gone."
        if self.status == "unchanged":
            return f"'{self.column}' is unchanged."
        text = (
            f"'{self.column}': {self.changed:.0%} of values changed; {self.distinct_before} "
            f"distinct values became {self.distinct_after}, losing {self.entropy_loss:.0%} of "
            "its information (entropy)."
        )
        if self.mean_abs_change is not None:
            text += f" Values moved by {self.mean_abs_change:.3g} on average."
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

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([asdict(c) for c in self.columns])

    def to_dict(self) -> dict:
        return {
            "records_before": self.records_before,
            "records_after": self.records_after,
            "records_suppressed": self.records_suppressed,
            "share_suppressed": self.share_suppressed,
            "columns": [asdict(c) for c in self.columns],
        }


def _numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def column_loss(before: pd.Series, after: pd.Series | None) -> ColumnLoss:
    """Loss in one column; ``after`` is None when the column was removed.

    Rows are matched by index label, so suppressed records do not count as changed.
    """
    h_before = entropy(before)
    distinct_before = int(before.nunique(dropna=False))
    if after is None:
        return ColumnLoss(str(before.name), "removed", distinct_before, 0, h_before, 0.0, 1.0, 1.0)
    kept = before.loc[before.index.intersection(after.index)]
    aligned_after = after.loc[kept.index]
    same = (kept.astype(str).to_numpy() == aligned_after.astype(str).to_numpy()) | (
        kept.isna().to_numpy() & aligned_after.isna().to_numpy()
    )
    changed = float(1 - same.mean()) if len(kept) else 0.0
    h_after = entropy(after)
    loss = 1 - h_after / h_before if h_before > 0 else 0.0
    numeric = {}
    if _numeric(kept) and _numeric(aligned_after) and len(kept):
        diff = aligned_after.to_numpy(dtype=float) - kept.to_numpy(dtype=float)
        sd_before = float(np.nanstd(kept.to_numpy(dtype=float)))
        numeric = dict(
            mean_abs_change=float(np.nanmean(np.abs(diff))),
            mean_shift=float(np.nanmean(diff)),
            sd_ratio=float(np.nanstd(aligned_after.to_numpy(dtype=float)) / sd_before)
            if sd_before > 0
            else None,
        )
    return ColumnLoss(
        column=str(before.name),
        status="changed" if changed > 0 else "unchanged",
        distinct_before=distinct_before,
        distinct_after=int(after.nunique(dropna=False)),
        entropy_before=h_before,
        entropy_after=h_after,
        entropy_loss=max(0.0, loss),
        changed=changed,
        **numeric,
    )


def utility_report(before: pd.DataFrame, after: pd.DataFrame) -> UtilityReport:
    """Compare an original table with its anonymised version, column by column."""
    columns = tuple(
        column_loss(before[c], after[c] if c in after.columns else None) for c in before.columns
    )
    return UtilityReport(len(before), len(after), columns)
