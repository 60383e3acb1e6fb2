"""One huge cell must not hold a run for minutes (issue 27): the scan grows in proportion
to the length, and past :data:`MAX_SCANNED` characters the text is removed, not left
unread with personal data in it."""

from __future__ import annotations

import time

import pandas as pd
import pytest

from core.detect.addresses import find_addresses
from core.detect.text import MAX_SCANNED, UNSCANNED, redact_series


def _label(entity) -> str:
    return f"[{entity.label}]"


def _fastest(texts: list[str]) -> list[float]:
    """The fastest of several runs for each text, in CPU time of this process (other
    processes on a shared machine do not count), the runs interleaved (a, b, a, b...) so
    that a busy spell slows both alike; the fastest run is the one nearest the scan's own
    cost."""
    best = [float("inf")] * len(texts)
    for _ in range(3):
        for i, text in enumerate(texts):
            start = time.process_time()
            redact_series(pd.Series([text]), _label)
            best[i] = min(best[i], time.process_time() - start)
    return best


@pytest.mark.parametrize(
    "unit",
    [
        "Aa",  # one long "word": the word after a name was read to its end
        "1 ",  # one long run of digits: read by the phone matcher
        "Mr Tan Ah Kow, S1234567D, 9123 4567. ",  # thousands of findings to resolve
        "spoke to siti at blk 7 toa payoh lor 1 #02-33 on 18 May. ",
    ],
)
def test_the_scan_of_one_long_cell_grows_linearly(unit):
    # Four times the length takes four times as long for a linear scan and sixteen times
    # for a quadratic one (the 28 s cell of issue 27 grew with the square); 8x separates
    # the two with room for the noise of a shared machine. Relative, so the machine's
    # speed does not matter.
    short = (unit * (32_000 // len(unit) + 1))[:32_000]
    long = (unit * (128_000 // len(unit) + 1))[:128_000]
    _fastest([short[:4000]])  # warm the caches (name lists, phone metadata)
    short_time, long_time = _fastest([short, long])
    assert long_time / short_time < 8.0, (short_time, long_time)


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


def test_the_address_expression_on_one_long_hyphenated_cell_grows_linearly():
    # Step 1 reads the address expression on every sampled cell (up to 2,000 characters)
    # without the scan's pre-filter. A place before its county ("Ballinasloe, Co. Galway")
    # has words that run on over "-": started at every capital of "A-A-A-...", each start
    # read to the end of the cell. Same ratio as above (4x the length: 4x linear, 16x
    # quadratic).
    def fastest(text: str) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            find_addresses(text)
            best = min(best, time.process_time() - start)
        return best

    short, long = "A-" * 4_000, "A-" * 16_000
    assert fastest(long) / fastest(short) < 8.0
    assert find_addresses("They moved to Ballinasloe, Co. Galway last year") == [(14, 37)]
