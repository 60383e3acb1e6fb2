"""bench/bench_detect_speed.py: each first-reading round reads the notes in a fresh fork of
the warmed process, so what a tool remembers of them never reaches the next round."""

from __future__ import annotations

import os

import pandas as pd
import pytest

from bench.bench_detect_speed import first_readings

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def test_each_round_reads_the_notes_for_the_first_time():
    seen: set[str] = set()  # a memo, as the project's parsed phone numbers are one

    def tool(texts: pd.Series) -> None:
        new = [t for t in texts if t not in seen]
        seen.update(texts)
        if new and texts.iloc[0] == "note 1":
            sum(range(200_000 * len(new)))  # work only for notes not read before

    notes = pd.Series(["note 1", "note 2", "note 3"])
    times = first_readings({"a": tool, "b": tool}, notes, rounds=3, read_before=pd.Series(["x"]))
    assert list(times) == ["a", "b"] and all(len(runs) == 3 for runs in times.values())
    # The parent never read the notes: its memo holds none of them after the rounds.
    assert seen == set()
    # In every round the tool timed first found the notes new and did the work; the
    # second, in the same fork, found them read (round 1 is 'a' then 'b', round 2 'b'
    # then 'a'): the work shows in the first tool's CPU time only.
    a, b = times["a"], times["b"]
    assert a[0][0] > 5 * b[0][0] and b[1][0] > 5 * a[1][0] and a[2][0] > 5 * b[2][0]
