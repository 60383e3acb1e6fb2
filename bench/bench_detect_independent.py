"""Personal-data detection on data the detectors never saw, side by side with presidio (issue 26).

Scores the project's detectors on the **test** part of the independent table
(``bench/independent_eval.py``; 1,500 people from Singapore, the US, the UK and India,
built by ``bench/make_independent_pii.py`` from Faker, presidio-evaluator's published data
and hand-written notes, apart from the project's own generator):

1. **Free text** (column ``txt``, every span labelled): span recall per kind and per name
   origin (a true span is found when a detection of a compatible kind overlaps it),
   precision (detections on a true span), the PII strings left verbatim after redaction
   (``core.detect.text.redact_and_count``), and the time to redact, as a ratio to presidio's
   analyzer + anonymizer on the same notes;
2. **Names in the name column**, cell by cell, per origin (both tools);
3. **Step 1** (:func:`core.schema.suggest_roles`): each column's suggested role against
   its true role: every direct identifier found? the 8-digit batch numbers called a phone?
4. **Safe Harbor** (:func:`core.safe_harbor.apply_safe_harbor`): personal values left per
   1,000 cells, rows with any, and people over 89 whose age or birth year stays exact.

presidio (bench/requirements-bench.txt): analyzer + anonymizer 2.2.366, spaCy
``en_core_web_sm`` 3.8 NER for persons, locations and dates (the pattern recognisers
and a blank spaCy pipeline when the model is not installed: the output says which), the
Singapore NRIC/FIN recogniser, phones for regions SG, US, GB and IN, and the UK NINO,
UK postcode, Aadhaar and PAN recognisers; default score threshold; each entity mapped to
the project's labels (:data:`PRESIDIO_LABELS`).

Run: ``.venv/bin/python bench/bench_detect_independent.py`` (``--rows 300`` for a quick
run, ``--no-presidio`` for the project alone). ``--misses FILE`` writes what was missed in
the **dev** part only; the test part's misses are never printed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import subprocess
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.eval_common import (  # noqa: E402
    LABELS,
    REFERENCE_DATE,
    Presidio,
    fmt,
    ours_detect,
    ours_redact,
    score_notes,
)
from bench.independent_eval import (  # noqa: E402
    COLUMN_TRUTH,
    ORIGINS,
    SPAN_KINDS,
    Part,
    load,
    safe_harbor_left,
)

PRESIDIO_LABELS = {
    "PERSON": "NAME",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "SG_NRIC_FIN": "ID",
    "US_SSN": "ID",
    "UK_NINO": "ID",
    "IN_AADHAAR": "ID",
    "IN_PAN": "ID",
    "LOCATION": "ADDRESS",
    "UK_POSTCODE": "ADDRESS",
    "DATE_TIME": "DATE",
    "URL": "URL",
    "IP_ADDRESS": "IP",
}


#: presidio's recognisers of Singapore, the UK and India (the US ones are loaded by default).
PRESIDIO_RECOGNIZERS = (
    "SgFinRecognizer",
    "UkNinoRecognizer",
    "UkPostcodeRecognizer",
    "InAadhaarRecognizer",
    "InPanRecognizer",
)


# --------------------------------------------------------------------------------------
# Measures
# --------------------------------------------------------------------------------------
def notes_scores(part: Part, found: pd.DataFrame, redacted: pd.Series) -> dict:
    return score_notes(part.spans, found, redacted, part.neutral)


def name_cells(part: Part, detect) -> pd.Series:
    """Share of full-name cells (column c1) in which a NAME is found, per origin."""
    cells = part.table["c1"]
    found = detect(cells)
    hit = cells.index.isin(found.loc[found["label"] == "NAME", "row"])
    origin = part.people["origin"].to_numpy()
    shares = pd.Series(hit).groupby(origin).mean()
    shares["all"] = hit.mean()
    return shares


def step1(part: Part) -> pd.DataFrame:
    from core.schema import suggest_roles

    rows = []
    for s in suggest_roles(part.table):
        role, what = COLUMN_TRUTH[str(s.column)]
        rows.append((s.column, what, role, str(s.role), s.kind))
    return pd.DataFrame(rows, columns=["column", "holds", "true role", "suggested", "kind"])


def safe_harbor(part: Part) -> dict[str, dict]:
    """Values left by the preset with its default handling of free text, then each of
    "redact" and "remove" that it offers besides."""
    import inspect

    from core import safe_harbor as preset

    default = inspect.signature(preset.apply_safe_harbor).parameters["free_text"].default
    modes = [default] + [
        m
        for m in ("redact", "remove")
        if m != default and m in getattr(preset, "FREE_TEXT_MODES", ())
    ]
    out = {}
    for mode in modes:
        result = preset.apply_safe_harbor(part.table, reference_date=REFERENCE_DATE, free_text=mode)
        out[f"{mode} (default)" if mode == default else mode] = safe_harbor_left(part, result.data)
    return out


# --------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------
def print_notes(part: Part, ours: dict, theirs: dict | None, times: tuple, setup: str) -> None:
    n = len(part.spans)
    print(f"\n## Free text: {len(part.table):,} notes, {n:,} labelled spans ({part.name} part)")
    print(f"presidio: {setup if theirs else 'not run'}\n")
    print("| measure | project | presidio |\n|---|---|---|")

    def row(label: str, a: str, b: str) -> None:
        print(f"| {label} | {a} | {b if theirs else '-'} |")

    for kind in ("all", *SPAN_KINDS):
        if kind not in ours["by_kind"].index:
            continue
        spans = int(ours["by_kind"].loc[kind, "spans"])
        b = fmt(theirs["by_kind"].loc[kind, "recall"]) if theirs else "-"
        row(f"recall: {kind} ({spans:,} spans)", fmt(ours["by_kind"].loc[kind, "recall"]), b)
    for origin in ORIGINS:
        table = ours["by_origin"]
        if origin in table.index:
            spans = int(table.loc[origin, "spans"])
            b = fmt(theirs["by_origin"].loc[origin, "recall"]) if theirs else "-"
            row(f"recall: names, {origin} ({spans:,})", fmt(table.loc[origin, "recall"]), b)
    row(
        "precision (detections on a PII span)",
        fmt(ours["precision"]),
        fmt(theirs["precision"]) if theirs else "-",
    )
    row(
        "precision (on a span of its kind)",
        fmt(ours["precision_kind"]),
        fmt(theirs["precision_kind"]) if theirs else "-",
    )
    for label in LABELS:
        a = ours["precision_by_label"].get(label, float("nan"))
        b = theirs["precision_by_label"].get(label, float("nan")) if theirs else float("nan")
        row(f"precision: {label} detections", fmt(a), fmt(b))
    row("detections", f"{ours['detections']:,}", f"{theirs['detections']:,}" if theirs else "-")
    row(
        "PII strings left verbatim after redaction",
        f"{ours['left']:,} of {n:,}",
        f"{theirs['left']:,} of {n:,}" if theirs else "-",
    )
    (ours_s, ours_cpu), (theirs_s, theirs_cpu) = times
    if theirs:
        row(
            "time to redact the notes (clock)",
            f"{ours_s:.2f} s ({theirs_s / ours_s:.0f}x faster)",
            f"{theirs_s:.2f} s (1x)",
        )
        row(
            "time to redact the notes (CPU)",
            f"{ours_cpu:.2f} s ({theirs_cpu / ours_cpu:.0f}x faster)",
            f"{theirs_cpu:.2f} s (1x)",
        )
    else:
        row("time to redact the notes (clock / CPU)", f"{ours_s:.2f} s / {ours_cpu:.2f} s", "-")


def print_name_cells(ours: pd.Series, theirs: pd.Series | None) -> None:
    print("\n## Names in the full-name column (c1), cell by cell\n")
    print("| origin | project | presidio |\n|---|---|---|")
    for origin in (*ORIGINS, "all"):
        if origin in ours.index:
            b = fmt(theirs[origin]) if theirs is not None else "-"
            print(f"| {origin} | {fmt(ours[origin])} | {b} |")


def step1_summary(table: pd.DataFrame) -> str:
    """Direct identifiers called direct, indirect ones called indirect (or direct), the
    batch-code column's fate, and columns holding no identifier that were flagged."""
    direct = table[table["true role"] == "direct"]
    indirect = table[table["true role"] == "indirect"]
    plain = table[table["true role"].isin(["other", "target"])]
    code = table[table["column"] == "ref"].iloc[0]
    flagged = plain[plain["suggested"].isin(["direct", "indirect"])]["column"].tolist()
    return (
        f"direct-identifier columns called direct: {int((direct['suggested'] == 'direct').sum())}"
        f" of {len(direct)}; indirect columns called indirect: "
        f"{int((indirect['suggested'] == 'indirect').sum())} of {len(indirect)} (called direct: "
        f"{int((indirect['suggested'] == 'direct').sum())}); 8-digit batch code: "
        f"{code['suggested']} ({code['kind']}), called a phone: "
        f"{'yes' if code['kind'] == 'phone' else 'no'}; columns with no identifier flagged: "
        f"{', '.join(flagged) or 'none'}"
    )


def print_step1(table: pd.DataFrame) -> None:
    print("\n## Step 1: suggested role of each column (project only)\n")
    print(table.to_markdown(index=False) if _has_tabulate() else table.to_string(index=False))
    print("\n" + step1_summary(table))


def _has_tabulate() -> bool:
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


def print_safe_harbor(results: dict[str, dict]) -> None:
    print("\n## Safe Harbor preset (project only)\n")
    print(
        "| free text | values left | per 1,000 cells | rows with any | 90+ exact | "
        "columns without identifier kept | left by column |"
    )
    print("|---|---|---|---|---|---|---|")
    for mode, r in results.items():
        print(
            f"| {mode} | {r['values_left']:,} | {r['per_1000_cells']:.1f} | "
            f"{r['rows_with_left']:,} of {r['rows']:,} | {r['aged_90_plus_exact']} of "
            f"{r['aged_90_plus']} | {len(r['plain_columns_kept'])} of 7 | "
            f"{r['left_by_column']} |"
        )


def write_misses(path: Path, part: Part, scores: dict, extra: list[str] = ()) -> None:
    """What the project missed, and what it flagged that is not PII, in the dev part."""
    truth, found = scores["truth"], scores["found"]
    notes = part.table["txt"]
    head = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%h %s"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    lines = [
        "Misses of the project's detectors on the DEV part of the independent table",
        "(bench/data/independent_pii/dev_*; issue 26). The test part is never listed.",
        f"Code: {head or 'unknown commit'}; written {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC.",
        "Command: .venv/bin/python bench/bench_detect_independent.py --split dev "
        "--no-presidio --misses FILE",
        "",
        "# Recall per kind, and of names per origin (dev part)",
        scores["by_kind"].round(2).to_string(),
        scores["by_origin"].round(2).to_string(),
        f"precision (detections on a PII span): {scores['precision']:.2f}",
        "",
        *extra,
        "",
    ]
    missed = truth[~truth["found"]].sort_values(["kind", "row"])
    lines.append(
        f"# Missed spans: {len(missed)} of {len(truth)} "
        "(kind | span | touched by another kind? | note)"
    )
    for _, span in missed.iterrows():
        note = notes.iloc[int(span["row"])].replace("\n", " / ")
        touched = "touched" if span["touched"] else "untouched"
        lines.append(f"{span['kind']} | {span['text']!r} | {touched} | {note}")
    wrong = found[~found["on_pii"]]
    lines += [
        "",
        f"# Detections on no labelled span: {len(wrong)} of {len(found)} (label | text | note)",
    ]
    for _, hit in wrong.iterrows():
        note = notes.iloc[int(hit["row"])].replace("\n", " / ")
        lines.append(f"{hit['label']} | {hit['text']!r} | {note}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"\nwrote {len(missed)} misses and {len(wrong)} false detections to {path}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("test", "dev"), default="test")
    parser.add_argument("--rows", type=int, default=None, help="only the first N people")
    parser.add_argument("--no-presidio", action="store_true", help="the project alone")
    parser.add_argument("--misses", type=Path, help="write the dev part's misses to this file")
    args = parser.parse_args(argv)
    if args.misses and args.split != "dev":
        raise SystemExit("--misses lists the dev part only: the test part is only measured.")
    part = load(args.split, args.rows)
    notes = part.table["txt"]
    found = ours_detect(notes)
    # Timed as presidio is below: warmed on the first 5 notes, then one run, a first
    # reading of the rest (bench_detect_speed.py gives medians of several runs).
    redacted, ours_s = ours_redact(notes, repeat=1, warm=5)
    ours = notes_scores(part, found, redacted)
    theirs, theirs_s, setup, presidio_names = None, (0.0, 0.0), "", None
    if not args.no_presidio:
        presidio = Presidio(("SG", "US", "GB", "IN"), PRESIDIO_RECOGNIZERS, PRESIDIO_LABELS)
        setup = presidio.setup
        p_found, p_redacted, theirs_s = presidio.run(notes)
        theirs = notes_scores(part, p_found, p_redacted)
        presidio_names = name_cells(part, lambda cells: presidio.run(cells)[0])
    print_notes(part, ours, theirs, (ours_s, theirs_s), setup)
    print_name_cells(name_cells(part, ours_detect), presidio_names)
    roles = step1(part)
    print_step1(roles)
    kept = safe_harbor(part)
    print_safe_harbor(kept)
    if args.misses:
        extra = [
            "# Step 1 on the dev part",
            roles.to_string(index=False),
            step1_summary(roles),
            "",
            "# Safe Harbor on the dev part: personal values left (free-text handling: "
            "values left, per 1,000 cells, left by column)",
        ]
        extra += [
            f"{mode}: {r['values_left']}, {r['per_1000_cells']:.1f}, "
            f"{r['left_by_column']}; aged 90+ left exact: {r['aged_90_plus_exact']} of "
            f"{r['aged_90_plus']}"
            for mode, r in kept.items()
        ]
        write_misses(args.misses, part, ours, extra)


if __name__ == "__main__":
    main()
