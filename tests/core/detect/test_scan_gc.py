"""The free-text scan pauses Python's cycle collector while it runs (issue 26: its
collections made the median scan half as slow again as the fastest) and leaves it as it
found it, on or off, even when the scan fails."""

from __future__ import annotations

import gc

import pandas as pd
import pytest

from core.detect.text import redact_and_count, scan_values

NOTES = pd.Series(["Mr Tan Ah Kow, 9123 4567, S1234567D", "no one here", None])


def test_collector_is_paused_during_the_scan_and_back_on_after(monkeypatch) -> None:
    seen = []
    import core.detect.text as text

    original = text._find_many_now

    def spy(*args):
        seen.append(gc.isenabled())
        return original(*args)

    monkeypatch.setattr(text, "_find_many_now", spy)
    assert gc.isenabled()
    out, changed, counts = redact_and_count(NOTES, lambda e: f"[{e.label}]")
    assert seen == [False]
    assert gc.isenabled()
    assert counts == {"nric": 1, "phone": 1, "name": 1}


def test_a_collector_switched_off_by_the_caller_stays_off() -> None:
    gc.disable()
    try:
        scan_values(NOTES)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_comes_back_when_the_scan_fails(monkeypatch) -> None:
    import core.detect.text as text

    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(text, "_find_many_now", broken)
    with pytest.raises(RuntimeError):
        scan_values(NOTES)
    assert gc.isenabled()
