"""Free-text redaction speed, the project against presidio, by CPU time (issue 26).

Timing only, no scores: the same notes are redacted by the project
(:func:`core.detect.text.redact_and_count`, every kind, labels) and by presidio's analyzer +
anonymizer (set up as in ``bench/bench_detect_eval5.py``: spaCy ``en_core_web_sm`` NER when
installed, phones of six regions, the SG/UK/IN/ES ID recognisers), in one process. Each run
is timed by the process's CPU time (``resource.getrusage``: user + system, every thread),
which other work on a shared machine changes far less than the clock time; the clock time
is printed beside it. Two measures per set, each the median of ``--rounds`` runs of each
tool and the ratio of the medians:

* **first reading**: both tools are first warmed on the notes of the *other* sets (models,
  lists, compiled expressions, phone metadata loaded; every expression of libphonenumber's
  metadata, which both use, compiled), then each round runs in a fresh
  fork of that warmed process, where each tool reads the set's notes for the first time
  (the order of the two alternates from round to round). This is a user's case: new notes
  read once. Nothing either tool remembers of a text it has read (the project's memo of
  parsed phone numbers, Python's cache of compiled expressions, spaCy's tokenizer cache and
  vocabulary) comes from these notes.
* **read again**: in the warmed process, each tool warmed on the set's first notes, then
  the two alternate on the whole set, garbage collected before each run; from the second
  run on each tool reads notes it has read before, which both tools' memos make faster
  (the project's more: its memo of parsed phone numbers skips libphonenumber).

The load average is printed before and after.

Sets: ``eval5``, ``eval6`` and ``eval7`` (the hand-written notes of bench/data/eval5,
eval6 and eval7; nothing here reads their labels or misses) and ``independent`` (the 1,500 notes of the test part of
bench/data/independent_pii). Run under the machine's benchmark lock::

    flock /work/bench.lock .venv/bin/python bench/bench_detect_speed.py --rounds 5 --sets eval6 eval7
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import sys
import time
from collections.abc import Callable
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


def compile_phone_metadata() -> int:
    """Every expression of libphonenumber's metadata compiled, into the package's own cache
    (switched on by :mod:`core.detect.phones`): both tools use the package, which compiles
    a region's expressions when it first meets a number of it; without this the tool
    reading a set first in a round paid for the regions new to both (the project 8 ms of
    eval7's 55 when it went first). The number of expressions."""
    import phonenumbers
    from phonenumbers.re_util import re_compile

    metadata = [
        phonenumbers.PhoneMetadata.metadata_for_region(r) for r in phonenumbers.SUPPORTED_REGIONS
    ]
    metadata += [
        phonenumbers.PhoneMetadata.metadata_for_nongeo_region(code)
        for code in phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS
    ]
    patterns: set[str] = set()
    for region in filter(None, metadata):
        for value in vars(region).values():
            if isinstance(value, phonenumbers.PhoneNumberDesc) and value.national_number_pattern:
                patterns.add(value.national_number_pattern)
        for field in ("international_prefix", "national_prefix_for_parsing", "leading_digits"):
            if getattr(region, field, None):
                patterns.add(getattr(region, field))
        for number_format in [*region.number_format, *region.intl_number_format]:
            patterns.add(number_format.pattern)
            patterns.update(number_format.leading_digits_pattern)
    for pattern in patterns:
        re_compile(pattern)
    return len(patterns)


def first_readings(
    tools: dict[str, Callable[[pd.Series], None]],
    texts: pd.Series,
    rounds: int,
    read_before: pd.Series,
) -> dict[str, list[tuple[float, float]]]:
    """(CPU, clock) seconds of each tool's first reading of ``texts``, once per round, each
    round in a fresh fork of this (warmed) process; the tools' order alternates. In the
    fork each tool first reads ``read_before`` again (notes this process has read), so the
    memory pages it uses are copied before it is timed, not while (a fork shares them until
    written: copying them cost the project's run 9 ms, on 20)."""
    names = list(tools)
    out: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    gc.collect()
    gc.freeze()  # the warmed objects stay out of the children's collections (both tools)
    for round_ in range(rounds):
        order = names if round_ % 2 == 0 else names[::-1]
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: time each tool once, report, leave
            os.close(read)
            for name in order:
                tools[name](read_before)
            times = {name: timed(tools[name], texts) for name in order}
            os.write(write, json.dumps(times).encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            times = json.loads(pipe.read().decode())
        os.waitpid(pid, 0)
        for name in names:
            out[name].append(tuple(times[name]))
    gc.unfreeze()
    return out


def read_again(
    tools: dict[str, Callable[[pd.Series], None]], texts: pd.Series, rounds: int
) -> dict[str, list[tuple[float, float]]]:
    """(CPU, clock) seconds of each tool's runs over ``texts`` in this process, after a
    warm-up on its first notes, the tools alternating."""
    ours(texts.head(10))
    for name, tool in tools.items():
        if name != "project":
            tool(texts.head(5))
    out: dict[str, list[tuple[float, float]]] = {name: [] for name in tools}
    for _ in range(rounds):
        for name, tool in tools.items():
            out[name].append(timed(tool, texts))
    return out


def report(measure: str, name: str, texts: pd.Series, times: dict) -> str:
    a_cpu, a_clock = np.median(np.array(times["project"]), axis=0)
    line = (
        f"{name}, {measure}: {len(texts)} notes, {int(texts.str.len().sum()):,} characters; "
        f"project CPU {a_cpu:.4f} s (clock {a_clock:.4f} s; runs "
        + ", ".join(f"{c:.4f}" for c, _ in times["project"])
        + ")"
    )
    if "presidio" in times:
        b_cpu, b_clock = np.median(np.array(times["presidio"]), axis=0)
        line += (
            f"; presidio CPU {b_cpu:.2f} s (clock {b_clock:.2f} s; runs "
            + ", ".join(f"{c:.2f}" for c, _ in times["presidio"])
            + f"): **{b_cpu / a_cpu:.0f}x** by CPU, {b_clock / a_clock:.0f}x by the clock"
        )
    return line


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tool per set")
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    parser.add_argument("--no-presidio", action="store_true", help="time the project alone")
    parser.add_argument(
        "--measures",
        nargs="+",
        choices=("first", "again"),
        default=["first", "again"],
        help="first reading (fresh forks of the warmed process), read again, or both",
    )
    args = parser.parse_args(argv)
    theirs, setup = (None, "") if args.no_presidio else presidio_redactor()
    tools: dict[str, Callable[[pd.Series], None]] = {"project": ours}
    if theirs is not None:
        tools["presidio"] = theirs
    compiled = compile_phone_metadata()
    print(f"presidio: {setup or 'not run'}; load average before: {os.getloadavg()}")
    print(f"warm-up: {compiled:,} expressions of libphonenumber's metadata compiled")
    for name in args.sets if "first" in args.measures else ():
        # In a child of this process, which has read no notes yet: warmed on the other
        # hand-written sets (not the independent notes: 1,500 of them take presidio 15 s),
        # so every expression is compiled and every list loaded, but nothing of this set.
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            others = [notes(s) for s in SETS if s.startswith("eval") and s != name]
            for other in others:
                for tool in tools.values():
                    tool(other)
            texts = notes(name)
            times = first_readings(tools, texts, args.rounds, others[-1])
            print(report("first reading", name, texts, times))
            sys.stdout.flush()
            os._exit(0)
        os.waitpid(pid, 0)
    for name in args.sets if "again" in args.measures else ():
        texts = notes(name)
        print(report("read again", name, texts, read_again(tools, texts, args.rounds)), flush=True)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
