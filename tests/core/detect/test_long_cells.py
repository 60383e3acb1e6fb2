"""One huge cell must not hold a run for minutes (issue 27): the scan grows in proportion
to the length, and past :data:`MAX_SCANNED` characters the text is removed, not left
unread with personal data in it."""

from __future__ import annotations

import time

import pandas as pd
import pytest

from core.detect.text import MAX_SCANNED, UNSCANNED, redact_series


def _label(entity) -> str:
    return f"[{entity.label}]"


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(2):  # the fastest of two: other work on the machine only slows
        start = time.perf_counter()
        redact_series(pd.Series([text]), _label)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize(
    "unit",
    [
        "Aa",  # one 100,000-letter "word": the word after a name was read to its end
        "1 ",  # one 100,000-character run of digits: read by the phone matcher
        "Mr Tan Ah Kow, S1234567D, 9123 4567. ",  # thousands of findings to resolve
        "spoke to siti at blk 7 toa payoh lor 1 #02-33 on 18 May. ",
    ],
)
def test_the_scan_of_one_long_cell_grows_linearly(unit):
    # Doubling the length doubles a linear scan's time and quadruples a quadratic one's
    # (the 28 s cell of issue 27 took 4x as long at 128k as at 64k); 3x separates them
    # with room for timing noise. Relative, so the machine's speed does not matter.
    half = (unit * (64_000 // len(unit) + 1))[:64_000]
    whole = (unit * (128_000 // len(unit) + 1))[:128_000]
    _seconds(half[:4000])  # warm the caches (name lists, phone metadata)
    assert _seconds(whole) / _seconds(half) < 3.0


def test_text_past_the_scanned_length_is_removed_not_left():
    note = "Mr Tan Ah Kow called 9123 4567. "
    head = note * (MAX_SCANNED // len(note))
    tail = "NRIC S1234567D of Mdm Siti Rahmah " * 10
    out, changed = redact_series(pd.Series([head + tail]), _label)
    assert changed.tolist() == [True]
    result = out.iloc[0]
    assert "S1234567D" not in result and "Siti" not in result
    assert "Tan Ah Kow" not in result
    # The head is MAX_SCANNED characters ending in a space: the cut is at that space.
    assert len(head) == MAX_SCANNED and head.endswith(" ")
    assert result.endswith(UNSCANNED.format(n=len(head + tail) - (MAX_SCANNED - 1)))
