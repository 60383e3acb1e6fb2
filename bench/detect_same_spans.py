"""Do two versions of the free-text scanner find the same spans? A check for speed work.

A change meant only to make the scanner faster must leave every finding as it was. This
script records what the scanner finds on the notes of eval5, eval6 and eval7 and the 1,500
test notes of bench/data/independent_pii (nothing here reads their labels), by each of
its paths: the column path that redaction and :func:`core.detect.scan_values` use
(``redact_and_count``: the spans, kinds and redacted texts), the one-text path
(:func:`core.detect.find_entities`, which must agree with it), and the release rescan of
the redacted notes (:func:`core.text_rescan.rescan` counts and ``scrub`` output). Run it
on the old code with ``--save``, on the new with ``--check``::

    .venv/bin/python bench/detect_same_spans.py --save /tmp/spans_before.json
    # ... change the scanner ...
    .venv/bin/python bench/detect_same_spans.py --check /tmp/spans_before.json

``--check`` prints each set's differences (the first few spans only present on one side)
and exits with status 1 when there is any. Detector rules that change on purpose change
the record too: compare versions that differ only by the speed work.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_detect_speed import SETS, notes  # noqa: E402
from core.detect import find_entities  # noqa: E402
from core.detect.text import redact_and_count  # noqa: E402
from core.text_rescan import rescan, scrub  # noqa: E402


def record(texts: pd.Series) -> dict[str, object]:
    """What the scanner's paths find on ``texts``, as JSON-ready values."""
    column: list[list[object]] = []

    def label(entity) -> str:
        column.append([entity.kind, entity.text])
        return f"[{entity.label}]"

    redacted, _, counts = redact_and_count(texts, label)
    spans = [
        [row, e.start, e.end, e.kind] for row, text in texts.items() for e in find_entities(text)
    ]
    # redact_and_count reads each distinct text once, in the order of first appearance.
    one_text = [[e.kind, e.text] for text in texts.unique() for e in find_entities(text)]
    released = redacted.astype(str)
    scrubbed = scrub(released).astype(str).tolist()
    return {
        "spans": spans,
        "column_entities": column,
        "one_text_entities": one_text,
        "counts": counts,
        "redacted": redacted.astype(str).tolist(),
        "rescan": rescan(released),
        "scrub_digest": hashlib.sha256("\x00".join(scrubbed).encode()).hexdigest(),
    }


def compare(name: str, before: dict, after: dict) -> int:
    """Print the differences of one set; the number of differing parts."""
    bad = 0
    for part in before:
        if before[part] == after.get(part):
            continue
        bad += 1
        print(f"{name}: {part} differs")
        if part == "spans":
            old = {tuple(s) for s in before[part]}
            new = {tuple(s) for s in after[part]}
            print(f"  only before: {sorted(old - new)[:5]}")
            print(f"  only after:  {sorted(new - old)[:5]}")
    return bad


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--save", type=Path, help="write the record of this code here")
    action.add_argument("--check", type=Path, help="compare this code with a saved record")
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    args = parser.parse_args(argv)
    records = {name: record(notes(name)) for name in args.sets}
    # JSON turns tuples into lists: compare both sides in that form.
    records = json.loads(json.dumps(records))
    if args.save:
        args.save.write_text(json.dumps(records))
        sizes = ", ".join(f"{n} {len(r['spans'])} spans" for n, r in records.items())
        print(f"saved {args.save}: {sizes}")
        return
    saved = json.loads(args.check.read_text())
    bad = sum(compare(name, saved[name], records[name]) for name in args.sets)
    for name in args.sets:
        if records[name]["column_entities"] != records[name]["one_text_entities"]:
            bad += 1
            print(f"{name}: the column path and the one-text path disagree")
    print("same spans on " + ", ".join(args.sets) if not bad else f"{bad} differences")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
