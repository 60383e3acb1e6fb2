"""A column of US social security numbers written as 9 bare digits (Step 1, issue 26).

An SSN written ``AAA-GG-SSSS`` is read by its shape (:mod:`core.detect.patterns`); written
as 9 bare digits it has the shape of any 9-digit number, and its rules (area not 000, 666
or 900-999, group not 00, serial not 0000; SSA, "The SSN Numbering Scheme") pass about 8
random 9-digit numbers in 9 (0.898 x 0.99 x 0.9999 = 0.889). One number proves nothing,
but a column does: the chance that n random numbers all pass is 0.889^n, 3% for n = 30
and 0.3% for n = 50. A column is read as SSNs when

* at least :data:`~core.detect.evidence.THRESHOLD` of its values are 9 bare digits,
* :data:`_MIN_DISTINCT` distinct ones or more, of which at most :data:`_MAX_INVALID`
  break a rule (a random column breaks them 11 times in 100),
* and their areas (first 3 digits) are spread: at least half as many distinct areas as
  numbers (up to :data:`_SPREAD_CAP`), since SSNs of different people come from many
  areas where a run of record or batch numbers shares its first digits.

A numeric column that lost the leading zeros of areas 001-099 is read with them put back
only when most values already have 9 digits: a column of 8-digit batch numbers gains no
zero and is never an SSN column. A national identity number is a direct identifier (PDPC
guide, Step 1; HIPAA §164.514(b)(2)(i)(G), social security numbers).
"""

from __future__ import annotations

import pandas as pd

from core.detect.evidence import THRESHOLD, Evidence, pct
from core.detect.sample import ColumnSample

__all__ = ["bare_ssn_evidence"]

_MIN_DISTINCT = 30
_MAX_INVALID = 0.01
_SPREAD_CAP = 300
_NINE = r"[0-9]{9}"


def _nine_digits(s: ColumnSample) -> pd.Series:
    """The values as 9-digit strings where they are such (a numeric column's lost leading
    zeros put back when most of its values have 9 digits already)."""
    values = s.values
    if s.numeric:
        whole = values.str.replace(r"\.0$", "", regex=True)
        short = whole.str.fullmatch(r"[0-9]{7,8}")
        if s.share(whole.str.fullmatch(_NINE)) >= 0.5:
            return whole.where(~short, whole.str.zfill(9))
        return whole
    return values


def bare_ssn_evidence(s: ColumnSample) -> Evidence | None:
    """Evidence that the column holds US SSNs written as 9 bare digits, or None."""
    values = _nine_digits(s)
    nine = values.str.fullmatch(_NINE).fillna(False).astype(bool)
    share = s.share(nine)
    if share < THRESHOLD:
        return None
    numbers = values[nine]
    if len(numbers) < _MIN_DISTINCT:
        return None
    area, group, serial = numbers.str.slice(0, 3), numbers.str.slice(3, 5), numbers.str.slice(5)
    valid = (
        ~area.isin(["000", "666"])
        & ~area.str.startswith("9")
        & (group != "00")
        & (serial != "0000")
    )
    if (~valid).sum() > _MAX_INVALID * len(numbers):
        return None
    if area.nunique() < min(len(numbers) // 2, _SPREAD_CAP):
        return None
    return Evidence(
        "ssn",
        share,
        f"{pct(share)} of sampled values are 9-digit numbers, and {int(valid.sum()):,} of "
        f"their {len(numbers):,} distinct ones keep the US social security number rules "
        "(area not 000, 666 or 900-999, group not 00, serial not 0000) that 1 random "
        "9-digit number in 9 breaks, with areas as spread as people's; a national identity "
        "number is a direct identifier (PDPC guide, Step 1; HIPAA identifier G).",
    )
