"""The project and presidio side by side on eval5, the fifth held-out set of issue 26.

The set (``bench/data/eval5/``, ``bench/make_eval5.py``; its README says how and from what
it was made) was written and committed before any detector ran on it: **measure only**,
never tune a detector on its rows, notes or misses. Printed, for both tools where both
apply, on the same inputs in the same run:

1. **Free text**: the 176 hand-written notes (431 labelled spans). Span recall per entity
   type and per name origin (a true span is found when a detection of a compatible kind
   overlaps it: ``bench/independent_eval.py``), precision (detections on a labelled span;
   on a span of their kind; per label), the labelled strings still verbatim after
   redaction (per type and origin), and the time to redact, as a ratio;
2. **Cells of the direct-identifier columns** (full name, given name alone, next of kin in
   lower case, national ID, phone, email): the share of cells in which a detection of the
   column's type is found, per column and, for the name columns, per origin; the time;
3. **Step 1** (the project's :func:`core.schema.suggest_roles`; presidio has no column
   classifier): each column's suggested role against its true role;
4. **Safe Harbor** (:func:`core.safe_harbor.apply_safe_harbor`, free text removed by
   default, then redacted): personal values left per 1,000 cells, rows affected, people
   aged 90+ with an exact age or birth year, and plain columns it removed.

presidio (bench/requirements-bench.txt): analyzer + anonymizer 2.2.366 with spaCy
``en_core_web_sm`` 3.8 NER when installed (patterns only otherwise; the output says which),
phones of SG, US, GB, IN, MY and AU, and the Singapore NRIC/FIN, UK NHS and NINO, UK
postcode, Aadhaar, PAN and Spanish NIF recognisers, default threshold; entities mapped to
the project's labels by :data:`PRESIDIO_EVAL5_LABELS`.

Run: ``.venv/bin/python bench/bench_detect_eval5.py`` (``--no-presidio`` for the project
alone). Nothing here prints the strings missed: the report gives categories only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import eval_common as common  # noqa: E402
from bench.independent_eval import SPAN_KINDS  # noqa: E402

DATA = ROOT / "bench" / "data" / "eval5"
NOTES = "z"
#: Direct-identifier columns scored cell by cell -> the detection label that finds them.
CELL_LABELS = {"c1": "NAME", "x": "NAME", "c6": "NAME", "k": "ID", "tel": "PHONE", "info": "EMAIL"}
NAME_COLUMNS = ("c1", "x", "c6")
#: The columns Safe Harbor is checked on (:data:`bench.eval_common.HARBOR_KEYS`).
HARBOR_COLUMNS = dict(
    zip(
        common.HARBOR_KEYS,
        ("c1", "x", "c6", "k", "tel", "info", "col_7", "c8", "d", "v", "n", NOTES),
        strict=True,
    )
)
PRESIDIO_EVAL5_LABELS = {
    "PERSON": "NAME",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "LOCATION": "ADDRESS",
    "UK_POSTCODE": "ADDRESS",
    "DATE_TIME": "DATE",
    "SG_NRIC_FIN": "ID",
    "US_SSN": "ID",
    "UK_NHS": "ID",
    "UK_NINO": "ID",
    "IN_AADHAAR": "ID",
    "IN_PAN": "ID",
    "ES_NIF": "ID",
    "URL": "URL",
    "IP_ADDRESS": "IP",
}
PRESIDIO_EVAL5_RECOGNIZERS = (
    "SgFinRecognizer",
    "NhsRecognizer",
    "UkNinoRecognizer",
    "UkPostcodeRecognizer",
    "InAadhaarRecognizer",
    "InPanRecognizer",
    "EsNifRecognizer",
)


# --------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------
def load() -> dict[str, pd.DataFrame]:
    """The table (read as a user's file is), its column truth, people, notes and spans
    (``row`` of a span is its note's number; ``ref`` spans apart as ``neutral``)."""
    from core.io import read_table

    spans = common.read_spans(DATA).rename(columns={"note": "row"})
    scored = spans["kind"].isin(SPAN_KINDS)
    return {
        "table": read_table(DATA / "table.csv"),
        "columns": pd.read_csv(DATA / "columns.csv", keep_default_na=False),
        "people": common.read_people(DATA),
        "notes": common.read_notes(DATA),
        "spans": spans[scored].reset_index(drop=True),
        "neutral": spans[~scored].reset_index(drop=True),
    }


# --------------------------------------------------------------------------------------
# Scores (plain pandas: tests/test_bench_eval5.py checks them by hand)
# --------------------------------------------------------------------------------------
def score_cells(
    table: pd.DataFrame, found: pd.DataFrame, origins: dict[str, pd.Series]
) -> pd.DataFrame:
    """Per direct column of :data:`CELL_LABELS`: its cells, and the share in which a
    detection of its label is found (``found``: column, row, label); for the name
    columns, the share per origin too (``origins``: column -> each row's origin)."""
    rows = []
    for column, label in CELL_LABELS.items():
        filled = table[column].notna() & (table[column].astype(str).str.strip() != "")
        hits = found.loc[(found["column"] == column) & (found["label"] == label), "row"]
        hit = pd.Series(table.index.isin(hits), index=table.index)[filled]
        rows.append((column, "all", int(filled.sum()), float(hit.mean())))
        if column in origins:
            for origin, share in hit.groupby(origins[column][filled]).mean().items():
                rows.append(
                    (column, origin, int((origins[column][filled] == origin).sum()), float(share))
                )
    return pd.DataFrame(rows, columns=["column", "origin", "cells", "found"])


def safe_harbor_left(
    table: pd.DataFrame,
    out: pd.DataFrame,
    people: pd.DataFrame,
    spans: pd.DataFrame,
    notes: pd.DataFrame,
) -> dict[str, object]:
    """Personal values of ``table`` left in the Safe Harbor output ``out`` (same rows),
    per 45 CFR 164.514(b)(2)(i): a name, ID, phone or email still in its cell (A, R, D, F);
    an address's street line or a full postal code (B; a US ZIP counts only with all 5
    digits); a date of birth or visit showing more than its year (C); for people aged 90+,
    an exact age or the birth year (C); every labelled span of a note still in clear."""

    return common.harbor_values_left(
        table,
        out,
        people,
        notes,
        spans,
        HARBOR_COLUMNS,
        lambda key, what: HARBOR_COLUMNS[key] + (f" ({what})" if what else ""),
    )


# --------------------------------------------------------------------------------------
# The two tools
# --------------------------------------------------------------------------------------
def presidio_tool():
    """presidio set up for eval5's countries, or None (with the reason printed)."""
    return common.presidio_or_none(
        ("SG", "US", "GB", "IN", "MY", "AU"),
        PRESIDIO_EVAL5_RECOGNIZERS,
        PRESIDIO_EVAL5_LABELS,
        "eval5",
    )


def cell_texts(table: pd.DataFrame) -> pd.DataFrame:
    """The cells of the direct columns, one text each: column, row, text."""
    frames = [
        pd.DataFrame({"column": c, "row": table.index, "text": table[c].astype(object)})
        for c in CELL_LABELS
    ]
    cells = pd.concat(frames, ignore_index=True)
    cells = cells[cells["text"].notna()]
    return cells.assign(text=cells["text"].astype(str)).reset_index(drop=True)


def with_columns(found: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    """Detections on ``cells`` (their ``row`` = position in ``cells``) -> column, row, label."""
    where = cells.loc[found["row"].to_numpy(), ["column", "row"]].reset_index(drop=True)
    return pd.concat([where, found[["label"]].reset_index(drop=True)], axis=1)


# --------------------------------------------------------------------------------------
# Step 1 and Safe Harbor (the project only)
# --------------------------------------------------------------------------------------
def safe_harbor(data: dict[str, pd.DataFrame]) -> dict[str, dict]:
    return common.safe_harbor_runs(
        data["table"],
        data["columns"].set_index("column")["group"],
        lambda out: safe_harbor_left(
            data["table"], out, data["people"], data["spans"], data["notes"]
        ),
    )


# --------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------
def print_notes(ours: dict, theirs: dict | None, seconds: tuple[float, float], setup: str) -> None:
    n = int(ours["by_kind"].loc["all", "spans"])
    print(f"\n## Free text: {n} labelled spans in 176 notes; presidio: {setup or 'not run'}\n")
    print("| measure | project | presidio |\n|---|---|---|")
    row = common.table_row(ours, theirs)
    common.recall_rows(row, ours, SPAN_KINDS)
    common.origin_recall_rows(row, ours)
    common.precision_rows(row)
    row(f"labelled strings left verbatim after redaction (of {n})", lambda s: str(s["left"]))
    common.left_rows(row, ours, SPAN_KINDS)
    common.origin_left_rows(row, ours)
    common.time_row("time to redact the notes", seconds, theirs is not None, "the project's")


def print_cells(
    ours: pd.DataFrame, theirs: pd.DataFrame | None, seconds: tuple[float, float]
) -> None:
    print("\n## Cells of the direct-identifier columns: share in which their type is found\n")
    print("| column | origin | cells | project | presidio |\n|---|---|---|---|---|")
    other = theirs.set_index(["column", "origin"])["found"] if theirs is not None else None
    for column, origin, cells, found in ours.itertuples(index=False):
        b = common.fmt(other.get((column, origin))) if other is not None else "-"
        print(f"| {column} | {origin} | {cells} | {common.fmt(found)} | {b} |")
    a, b = seconds
    print(
        f"\ntime to scan the {int(ours.loc[ours['origin'] == 'all', 'cells'].sum()):,} cells: "
        f"project {a:.2f} s"
        + (f", presidio {b:.1f} s ({b / a:.0f}x)" if theirs is not None else "")
    )


def print_step1(roles: pd.DataFrame) -> None:
    common.print_step1_roles(
        roles,
        "\n## Step 1: suggested role of each column (project; presidio has no column classifier)",
    )


def print_safe_harbor(results: dict[str, dict], cells: int, rows: int) -> None:
    print(f"\n## Safe Harbor preset ({cells:,} cells, {rows:,} rows)\n")
    print(
        "| free text | values left | per 1,000 cells | rows affected | aged 90+ exact | "
        "code/target columns removed | left by column |\n|---|---|---|---|---|---|---|"
    )
    for mode, r in results.items():
        print(
            f"| {mode}{' (default)' if mode == 'remove' else ''} | {r['values_left']} | "
            f"{r['per_1000_cells']:.1f} | {r['rows_affected']} | "
            f"{r['aged_90_plus_exact']} of {r['aged_90_plus']} | "
            f"{', '.join(r['plain_removed']) or 'none'} | {r['left_by_column']} |"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-presidio", action="store_true", help="the project alone")
    args = parser.parse_args(argv)
    data = load()
    table, people = data["table"], data["people"]
    notes = data["notes"]["text"]
    presidio = None if args.no_presidio else presidio_tool()

    redacted, (ours_s, _) = common.ours_redact(notes, repeat=1)  # clock time, as presidio's
    ours = common.score_notes(data["spans"], common.ours_detect(notes), redacted, data["neutral"])
    theirs, theirs_s, setup = None, 0.0, ""
    if presidio is not None:
        # presidio.run gives (clock, CPU) seconds; the project's side is timed by the clock
        p_found, p_redacted, (theirs_s, _) = presidio.run(notes)
        p_found = p_found.drop_duplicates(["row", "start", "end", "label"])
        theirs = common.score_notes(data["spans"], p_found, p_redacted, data["neutral"])
        setup = f"{presidio.setup}, phones SG/US/GB/IN/MY/AU, SG/UK/IN/ES ID recognisers"
    print_notes(ours, theirs, (ours_s, theirs_s), setup)

    cells = cell_texts(table)
    origins = {"c1": people["origin"], "x": people["origin"], "c6": people["kin_origin"]}
    _, (ours_cells_s, _) = common.ours_redact(cells["text"], repeat=1)
    ours_cells = score_cells(table, with_columns(common.ours_detect(cells["text"]), cells), origins)
    theirs_cells, theirs_cells_s = None, 0.0
    if presidio is not None:
        p_found, _, (theirs_cells_s, _) = presidio.run(cells["text"])
        theirs_cells = score_cells(table, with_columns(p_found, cells), origins)
    print_cells(ours_cells, theirs_cells, (ours_cells_s, theirs_cells_s))

    print_step1(common.step1_roles(table, data["columns"]))
    print_safe_harbor(safe_harbor(data), table.size, len(table))


if __name__ == "__main__":
    main()
