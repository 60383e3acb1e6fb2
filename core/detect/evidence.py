"""The value evidence of one column (Step 1): what kind, how much of the sample, and why.

Shared by :mod:`core.detect.columns` (identifiers) and :mod:`core.detect.quasi`
(quasi-identifiers read from the values: age, gender, occupation, postal code, year of
birth).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["STEP1", "THRESHOLD", "Evidence", "pct"]

STEP1 = "(PDPC guide, Step 1)"
#: A kind counts when at least this share of sampled values is of that kind.
THRESHOLD = 0.8


@dataclass(frozen=True)
class Evidence:
    """What the sampled values look like: a kind, its share and the sentence saying so.

    ``uncertain`` is True when the values fit the kind but could as well be something
    else (a 5-digit number may be a ZIP code or a count; whole numbers of 0-100 may be
    ages or scores): the reason says what to check, and a person decides.
    """

    kind: str
    share: float
    reason: str
    uncertain: bool = False


def pct(share: float) -> str:
    """A share as a whole percentage: 0.923 -> '92%'."""
    return f"{share:.0%}"
