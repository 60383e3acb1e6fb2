"""Free-text redaction speed, the project against presidio, by CPU time (issue 26).

Timing only, no scores: the same notes are redacted by the project
(:func:`core.detect.text.redact_and_count`, every kind, labels) and by presidio's analyzer +
anonymizer (set up as in ``bench/bench_detect_eval5.py``: spaCy ``en_core_web_sm`` NER when
installed, phones of six regions, the SG/UK/IN/ES ID recognisers), alternating, ``--rounds``
times each. Each run is timed by this process's CPU time (``resource.getrusage``: user +
system, every thread), which other work on a shared machine changes far less than the clock
time; the clock time is printed beside it. Printed per set: the median of each tool and the
ratio of the medians, with the load average before and after.

Sets: ``eval5``, ``eval6`` and ``eval7`` (the hand-written notes of bench/data/eval5,
eval6 and eval7; nothing here reads their labels or misses) and ``independent`` (the 1,500 notes of the test part of
bench/data/independent_pii). Run under the machine's benchmark lock::

    flock /work/bench.lock .venv/bin/python bench/bench_detect_speed.py --rounds 3
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.detect.text import redact_and_count  # noqa: E402

SETS = ("eval5", "eval6", "eval7", "independent")


def notes(name: str) -> pd.Series:
    """The notes of one set, as the benches read them."""
    if name.startswith("eval"):
        frame = pd.read_csv(
            ROOT / f"bench/data/{name}/notes.csv", dtype={"text": str}, keep_default_na=False
        )
        return frame["text"]
    table = pd.read_csv(
        ROOT / "bench/data/independent_pii/test_table.csv", dtype=str, keep_default_na=False
    )
    return table["txt"]


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(function, texts: pd.Series) -> tuple[float, float]:
    """(CPU, clock) seconds of one call of ``function(texts)``. The garbage of the other
    tool's run is collected first, outside the timing: each tool pays for its own."""
    gc.collect()
    cpu, clock = cpu_seconds(), time.perf_counter()
    function(texts)
    return cpu_seconds() - cpu, time.perf_counter() - clock


def ours(texts: pd.Series) -> None:
    redact_and_count(texts, lambda e: f"[{e.label}]")


def presidio_redactor():
    from bench.bench_detect_eval5 import presidio_tool

    tool = presidio_tool()
    if tool is None:
        return None, ""

    def redact(texts: pd.Series) -> None:
        for text in texts.tolist():
            results = tool.analyzer.analyze(text, language="en", entities=tool.entities)
            tool.anonymizer.anonymize(text=text, analyzer_results=results)

    return redact, tool.setup


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tool per set")
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    parser.add_argument("--no-presidio", action="store_true", help="time the project alone")
    args = parser.parse_args(argv)
    theirs, setup = (None, "") if args.no_presidio else presidio_redactor()
    print(f"presidio: {setup or 'not run'}; load average before: {os.getloadavg()}")
    for name in args.sets:
        texts = notes(name)
        ours(texts.head(10))  # warm-up: compiled expressions, name lists, phone metadata
        if theirs is not None:
            theirs(texts.head(5))
        a, b = [], []
        for _ in range(args.rounds):
            a.append(timed(ours, texts))
            if theirs is not None:
                b.append(timed(theirs, texts))
        a_cpu, a_clock = np.median(np.array(a), axis=0)
        line = (
            f"{name}: {len(texts)} notes, {int(texts.str.len().sum()):,} characters; "
            f"project CPU {a_cpu:.4f} s (clock {a_clock:.4f} s; runs "
            + ", ".join(f"{c:.4f}" for c, _ in a)
            + ")"
        )
        if b:
            b_cpu, b_clock = np.median(np.array(b), axis=0)
            line += (
                f"; presidio CPU {b_cpu:.2f} s (clock {b_clock:.2f} s): "
                f"**{b_cpu / a_cpu:.0f}x** by CPU, {b_clock / a_clock:.0f}x by the clock"
            )
        print(line, flush=True)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
