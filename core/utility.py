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


def _il1s(original: np.ndarray, diff: np.ndarray) -> dict[str, float | None]:
    """sdcMicro's IL1s of one column (see the module docstring)."""
    present = ~np.isnan(original)
    sd = float(np.std(original[present], ddof=1)) if present.sum() > 1 else 0.0
    both = ~np.isnan(diff)
    if sd <= 0 or not both.any():
        return {}
    total = float(np.abs(diff[both]).sum() / (np.sqrt(2) * sd))
    return {"il1s": total, "il1s_mean": total / int(both.sum())}


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
        original = kept.to_numpy(dtype=float, na_value=np.nan)
        diff = aligned_after.to_numpy(dtype=float, na_value=np.nan) - original
        sd_before = float(np.nanstd(original))
        numeric = _il1s(before.to_numpy(dtype=float, na_value=np.nan), diff)
        numeric.update(
            mean_abs_change=float(np.nanmean(np.abs(diff))),
            mean_shift=float(np.nanmean(diff)),
            sd_ratio=float(
                np.nanstd(aligned_after.to_numpy(dtype=float, na_value=np.nan)) / sd_before
            )
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
