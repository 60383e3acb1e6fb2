"""The sampled values of one column, counted once per distinct value (Step 1).

:class:`ColumnSample` holds a column's distinct stripped values with their counts and a
quick sample of the first values, so each check of :mod:`core.detect.columns` and
:mod:`core.detect.column_phones` runs once per distinct value and may settle on the quick
sample within the Hoeffding margin. Kept apart so both can use it without importing each
other.
"""

from __future__ import annotations

import math

import pandas as pd

from core.detect.evidence import THRESHOLD
from core.detect.patterns import full_match_share

__all__ = ["CLASSIFY_CHARS", "QUICK_SAMPLE", "ColumnSample", "hoeffding_margin"]

# Cells longer than this are cut for classification (whole-cell shapes are short).
CLASSIFY_CHARS = 2_000


def hoeffding_margin(n: int, confidence: float = 0.95) -> float:
    """Half-width of a Hoeffding interval for a share estimated from ``n`` samples."""
    return math.sqrt(math.log(2 / (1 - confidence)) / (2 * n)) if n else 1.0


# Each check runs first on the first QUICK_SAMPLE sampled values; a column whose share there is
# below THRESHOLD by more than the Hoeffding margin is rejected without the full sample.
QUICK_SAMPLE = 500
# Phone numbers are parsed by libphonenumber (slow): their share is read on the quick sample.


class ColumnSample:
    """Distinct stripped values with their counts (work is done once per distinct value)."""

    def __init__(self, text: pd.Series, *, numeric: bool = False, quick: bool = True) -> None:
        text = text.str.slice(0, CLASSIFY_CHARS)
        counts = text.value_counts(sort=False)
        self.n = int(len(text))
        self.numeric = numeric
        self.values = pd.Series(counts.index.astype(str), dtype="str")
        self.counts = pd.Series(counts.to_numpy(), index=self.values.index)
        self.upper = self.values.str.upper()
        self.quick = (
            ColumnSample(text.iloc[:QUICK_SAMPLE], numeric=numeric, quick=False)
            if quick and self.n > 2 * QUICK_SAMPLE
            else None
        )

    def rows_per_value(self) -> float:
        """How many sampled rows hold each distinct value, on average (1.0: all distinct).
        Read on the whole sample, not the quick one: the fewer rows, the less a repeated
        code shows its repeats."""
        return self.n / len(self.values) if len(self.values) else 1.0

    def share(self, mask: pd.Series) -> float:
        mask = mask.fillna(False).astype(bool).to_numpy()
        return float(self.counts[mask].sum()) / self.n if self.n else 0.0

    def kind(self, kind: str, values: pd.Series | None = None) -> float:
        target = self.values if values is None else values
        return full_match_share(target, self.counts, kind)

    def measure(self, share_of, threshold: float = THRESHOLD) -> float:
        """``share_of(sample)``, on the quick sample first when that settles it."""
        if self.quick is not None:
            quick = share_of(self.quick)
            if quick < threshold - hoeffding_margin(self.quick.n):
                return quick
        return share_of(self)
