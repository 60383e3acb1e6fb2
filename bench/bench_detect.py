"""Accuracy and speed of the personal-data detectors (issue 16), on labelled held-out data.

Prints precision and recall per entity kind for

1. **column classification** (Step 1, :func:`core.schema.suggest_roles`): columns made by
   the seeded generators of ``scripts/make_pii_data.py`` with headers that say nothing
   (``c0``, ``c1``...), plus the guide's Step 1 customer table and
   ``sample_data/singapore_people.csv`` under their own headers with their known kinds;
2. **in-text detection** (:func:`core.detect.find_entities`): generated notes with the
   exact entities written into them; a true entity counts as found when a detected
   entity of the same kind overlaps it, and a detection is correct when it overlaps a
   true entity of its kind;

and the time to classify a 100,000-row x 50-column table (each column is read on a
sample of 5,000 values; every share is then within +/-1.9 points of the column's share
95% of the time, by Hoeffding's inequality; the costly checks (phone numbers, names)
first run on 500 values, +/-6.1 points, and only go on to the full sample when that
share is near the 80% threshold), and the time to redact 100,000 generated notes, as a
ratio to a plain ``re.finditer`` loop running the scanner's expressions over the same
notes in the same run (and to the scanner reading one distinct note at a time). The
hand-written notes come in two sets: bench/detect_notes.py and the held-out
bench/detect_notes_heldout.py, only ever used to measure.

The names of the generated people come from held-out lists written apart from the
detector's list, so the figures measure names the detector may not know.

Run: ``.venv/bin/python bench/bench_detect.py`` (add ``--quick`` for a smaller run).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.detect import find_entities  # noqa: E402
from core.schema import suggest_roles  # noqa: E402
from scripts import make_pii_data  # noqa: E402

KINDS = ("name", "email", "phone", "id", "address", "date", "ip", "mac", "url", "vehicle_plate")
# Step 1 kinds -> the entity kind they count as (anything else is "other").
_COLUMN_GROUP = {
    "name": "name",
    "email": "email",
    "phone": "phone",
    "nric": "id",
    "ssn": "id",
    "nino": "id",
    "identifier_like": "id",
    "near_unique": "id",
    "address": "address",
    "date": "date",
    "date_of_birth": "date",
    "ipv4": "ip",
    "ipv6": "ip",
    "ip_address": "ip",
    "mac": "mac",
    "url": "url",
    "vehicle_plate": "vehicle_plate",
}
# Scanner kinds -> entity kind.
_TEXT_GROUP = {
    "nric": "id",
    "ssn": "id",
    "nino": "id",
    "record_code": "id",
    "ipv4": "ip",
    "ipv6": "ip",
}


def _scores(pairs: list[tuple[str, str]], kinds=KINDS) -> pd.DataFrame:
    """Precision and recall per kind from (true, predicted) pairs."""
    rows = []
    for kind in kinds:
        tp = sum(t == kind and p == kind for t, p in pairs)
        fn = sum(t == kind and p != kind for t, p in pairs)
        fp = sum(t != kind and p == kind for t, p in pairs)
        if tp + fn + fp == 0:
            continue
        rows.append(
            {
                "kind": kind,
                "true": tp + fn,
                "found": tp,
                "false alarms": fp,
                "precision": tp / (tp + fp) if tp + fp else float("nan"),
                "recall": tp / (tp + fn) if tp + fn else float("nan"),
            }
        )
    return pd.DataFrame(rows).set_index("kind")


def labelled_tables(rows: int, seed: int, copies: int) -> list[tuple[pd.DataFrame, dict]]:
    """(table, {column: true kind}) pairs: the generated columns under c0, c1... headers,
    the guide's Step 1 customers and the Singapore sample with their own headers."""
    gen = make_pii_data
    columns = gen.labelled_columns(rows, seed, copies=copies)
    table = pd.DataFrame({f"c{i}": values for i, (_, values) in enumerate(columns)})
    truth = {f"c{i}": kind for i, (kind, _) in enumerate(columns)}
    tables = [(table, truth)]
    customers = pd.read_csv(
        ROOT / "sample_data" / "guide_step1_customers.csv", dtype={"Postal code": str}
    )
    tables.append((customers, {"Customer ID": "id", "Name": "name", "Date of birth": "date"}))
    people = pd.read_csv(ROOT / "sample_data" / "singapore_people.csv", dtype={"postal_code": str})
    tables.append(
        (
            people,
            {
                "nric": "id",
                "name": "name",
                "date_of_birth": "date",
                "email": "email",
                "mobile": "phone",
            },
        )
    )
    return tables


def column_scores(rows: int = 1000, seed: int = 2026, copies: int = 10) -> pd.DataFrame:
    pairs = []
    for table, truth in labelled_tables(rows, seed, copies):
        for suggestion in suggest_roles(table):
            predicted = _COLUMN_GROUP.get(suggestion.kind, "other")
            pairs.append((truth.get(suggestion.column, "other"), predicted))
    return _scores(pairs)


def text_scores(n: int = 3000, seed: int = 7) -> pd.DataFrame:
    """In-text scores on ``n`` generated notes (held-out names)."""
    notes = make_pii_data.labelled_notes(n, seed)
    return score_notes([(note.text, list(note.entities)) for note in notes])


def handwritten_scores(held_out: bool = False) -> pd.DataFrame:
    """In-text scores on the hand-written notes of bench/detect_notes.py, or (``held_out``)
    on the second set of bench/detect_notes_heldout.py, never used to change a detector."""
    if held_out:
        from bench.detect_notes_heldout import NOTES
    else:
        from bench.detect_notes import NOTES

    return score_notes(NOTES)


def score_notes(notes: list[tuple[str, list[tuple[str, str]]]]) -> pd.DataFrame:
    """Precision and recall per kind: a true entity is found when a detection of its kind
    overlaps it; a detection is correct when it overlaps a true entity of its kind."""
    counts = {k: {"true": 0, "found": 0, "detected": 0, "correct": 0} for k in KINDS}
    for text, entities in notes:
        truth = []
        for kind, value in entities:
            start = text.index(value)
            truth.append((kind, start, start + len(value)))
        detected = [(_TEXT_GROUP.get(e.kind, e.kind), e.start, e.end) for e in find_entities(text)]
        for kind, start, end in truth:
            counts[kind]["true"] += 1
            counts[kind]["found"] += any(
                k == kind and s < end and start < e for k, s, e in detected
            )
        for kind, start, end in detected:
            if kind not in counts:
                continue
            counts[kind]["detected"] += 1
            counts[kind]["correct"] += any(k == kind and s < end and start < e for k, s, e in truth)
    rows = []
    for kind, c in counts.items():
        if c["true"] == 0 and c["detected"] == 0:
            continue
        rows.append(
            {
                "kind": kind,
                "true": c["true"],
                "found": c["found"],
                "false alarms": c["detected"] - c["correct"],
                "precision": c["correct"] / c["detected"] if c["detected"] else float("nan"),
                "recall": c["found"] / c["true"] if c["true"] else float("nan"),
            }
        )
    return pd.DataFrame(rows).set_index("kind")


def speed(rows: int = 100_000, width: int = 50, seed: int = 11) -> tuple[float, float]:
    """Seconds to classify a ``rows`` x ``width`` table, and to scan+redact 100k notes."""
    from core.techniques import redact_text

    columns = make_pii_data.labelled_columns(2000, seed, copies=3)
    rng = np.random.default_rng(seed)
    data = {}
    for i in range(width):
        _, values = columns[i % len(columns)]
        data[f"c{i}"] = values.to_numpy()[rng.integers(0, len(values), size=rows)]
    table = pd.DataFrame(data)
    start = time.perf_counter()
    suggest_roles(table)
    classify = time.perf_counter() - start
    notes = pd.DataFrame({"notes": [n.text for n in make_pii_data.labelled_notes(rows, seed)]})
    _cold_caches()
    start = time.perf_counter()
    redact_text(notes, ["notes"])
    redact = time.perf_counter() - start
    return classify, redact, notes["notes"]


def _cold_caches() -> None:
    """Forget the phone numbers already parsed, so each timed scan starts alike."""
    from core.detect import phones

    phones._valid.cache_clear()
    phones._possible_international.cache_clear()


def scanner_expressions() -> list:
    """Every regular expression the free-text scanner runs: the in-text patterns, the
    digit runs read as phone candidates, addresses, capitalised runs and name cues."""
    from core.detect.addresses import ADDRESS
    from core.detect.names import CUED_NAME, NAME_RUN
    from core.detect.patterns import PATTERNS
    from core.detect.phones import DIGIT_RUN
    from core.detect.text import entity_kinds

    patterns = [PATTERNS[k].regex for k in entity_kinds() if k in PATTERNS]
    return [*patterns, DIGIT_RUN, ADDRESS, NAME_RUN, CUED_NAME]


def finditer_baseline(notes: pd.Series) -> float:
    """Seconds for the plainest scanner: a Python loop over every note running each of the
    scanner's expressions with ``re.finditer`` (no validation, no name lists, no overlap
    rule). The redaction time is reported as a ratio to it, so the ratio holds on a slower
    or busier machine."""
    expressions = scanner_expressions()
    start = time.perf_counter()
    for text in notes.tolist():
        for expression in expressions:
            for _ in expression.finditer(text):
                pass
    return time.perf_counter() - start


def one_by_one(notes: pd.Series) -> float:
    """Seconds for the scanner run one distinct note at a time (the scanner before the
    column-wide search), for comparison."""
    from core.detect.text import _find, entity_kinds

    kinds = entity_kinds()
    _cold_caches()
    start = time.perf_counter()
    for text in notes.drop_duplicates().tolist():
        _find(text, kinds, "SG")
    return time.perf_counter() - start


def _markdown(table: pd.DataFrame) -> str:
    lines = [
        "| kind | true | found | false alarms | precision | recall |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for kind, row in table.iterrows():
        lines.append(
            f"| {kind} | {int(row['true'])} | {int(row['found'])} | {int(row['false alarms'])} | "
            f"{row['precision']:.3f} | {row['recall']:.3f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller tables")
    parser.add_argument("--repeats", type=int, default=2, help="timings taken (fastest kept)")
    args = parser.parse_args()
    copies, notes, rows = (3, 500, 20_000) if args.quick else (10, 3000, 100_000)
    print("Column classification (Step 1), held-out generated columns + guide + sample:")
    print(_markdown(column_scores(copies=copies)))
    print("\nIn-text detection (free-text scanner), held-out generated notes:")
    print(_markdown(text_scores(notes)))
    print("\nIn-text detection, hand-written notes (bench/detect_notes.py):")
    print(_markdown(handwritten_scores()))
    print("\nIn-text detection, held-out hand-written notes (bench/detect_notes_heldout.py):")
    print(_markdown(handwritten_scores(held_out=True)))
    classify, redact, notes = speed(rows=rows)
    baseline = finditer_baseline(notes)
    single = one_by_one(notes)
    # The machine is shared: the three timings are taken again, interleaved, and the
    # fastest of each is kept (load only ever adds time).
    from core.techniques import redact_text

    frame = pd.DataFrame({"notes": notes})
    for _ in range(args.repeats - 1):
        _cold_caches()
        start = time.perf_counter()
        redact_text(frame, ["notes"])
        redact = min(redact, time.perf_counter() - start)
        baseline = min(baseline, finditer_baseline(notes))
        single = min(single, one_by_one(notes))
    print(
        f"\nClassify {rows:,} rows x 50 columns: {classify:.2f} s (sample of 5,000 values "
        "per column; +/-1.9 points at 95%, Hoeffding)."
    )
    print(
        f"Redact {rows:,} generated notes (every kind, labels, fastest of {args.repeats}): "
        f"{redact:.2f} s; a plain "
        f"re.finditer loop over the notes with the scanner's {len(scanner_expressions())} "
        f"expressions: {baseline:.2f} s; ratio {redact / baseline:.2f}. The scanner one "
        f"distinct note at a time (before): {single:.2f} s, ratio "
        f"{single / baseline:.2f}."
    )


if __name__ == "__main__":
    main()
