"""Step 1, the free-text scanner and Safe Harbor on a third, hand-written set (issue 26).

The set (``bench/data/eval3/``, written by ``bench/make_eval3.py``; measure only: never tune
a detector on it) is a clinic / HR / CRM export from Malaysia, the Philippines, Australia and
Singapore: 300 rows, 25 columns under headers such as ``nama``, ``no_kp``, ``tel_bimbit``,
``emp#``, ``c07``, code columns shaped like phones and IDs, and a notes column of 214
hand-written sentences with their personal-data spans labelled exactly. It is read the way a
user's file is read (:func:`core.io.read_table`). Printed:

1. **Step 1** (:func:`core.schema.suggest_roles`): each column's true role against the
   suggested one; direct-identifier columns missed; code columns called direct or a phone;
2. **Free text** (``catatan``): span recall per kind, precision per label (a true span is
   found when a detection of a compatible kind overlaps it: ``bench/independent_eval.py``),
   the labelled strings left in clear after redaction (``redact_and_count``), and the same
   for presidio when it is installed (bench/requirements-bench.txt), side by side;
3. **Names in the name column** ``nama``, cell by cell, per tradition (both tools);
4. **Safe Harbor** (:func:`core.safe_harbor.apply_safe_harbor`, free text removed by
   default, then redacted): personal values left per 1,000 cells, and people over 89 whose
   age or year of birth stays exact.

Run: ``.venv/bin/python bench/bench_detect_eval3.py`` (``--no-presidio`` for the project
alone; ``--list-left`` also prints the strings left in clear: read them to describe kinds
of misses, never to tune a detector on them).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import eval_common as common  # noqa: E402
from bench.independent_eval import SPAN_KINDS, left_verbatim  # noqa: E402

DATA = ROOT / "bench" / "data" / "eval3"
NOTES = "catatan"
NAMES = "nama"
#: column -> (true role in the PDPC guide's Step 1, group, what it holds). Groups: direct,
#: indirect, code (looks like an identifier, is not one), target, free_text.
COLUMN_TRUTH: dict[str, tuple[str, str, str]] = {
    "bil": ("other", "code", "row number 1-300"),
    "nama": ("direct", "direct", "full name, 8 traditions, some in hanzi"),
    "c07": ("direct", "direct", "first / preferred name alone"),
    "no_kp": ("direct", "direct", "MyKad (with and without hyphens), NRIC/FIN, passport"),
    "emp#": ("direct", "direct", "employee number (E-00417 or 6 digits)"),
    "tel_bimbit": ("direct", "direct", "mobile, MY/PH/AU/SG, several ways of writing"),
    "emel": ("direct", "direct", "email"),
    "alamat": ("indirect", "indirect", "address, MY/PH/AU/SG (some all capitals)"),
    "poskod": ("indirect", "indirect", "postal code, 4-6 digits"),
    "dob": ("indirect", "indirect", "date of birth, 5 formats"),
    "umur": ("indirect", "indirect", "age (some 90+)"),
    "jantina": ("indirect", "indirect", "gender: L/P, M/F, Male/Female"),
    "pekerjaan": ("indirect", "indirect", "occupation, Malay or English"),
    "negara": ("indirect", "indirect", "country, in Malay"),
    "waris": ("direct", "direct", "next of kin's name, lower case"),
    "tarikh_lawatan": ("indirect", "indirect", "visit date, 5 formats"),
    "inv_no": ("other", "code", "invoice number (INV-2024-01234 or 8 digits)"),
    "sku": ("other", "code", "SKU or EAN-13"),
    "icd10": ("target", "target", "ICD-10 code"),
    "hba1c": ("target", "target", "lab value"),
    "no_resit": ("other", "code", "receipt number, 10 digits starting 01 (a MY mobile's shape)"),
    "lot_no": ("other", "code", "lot number, 12 digits starting with a date (a MyKad's shape)"),
    "ts": ("other", "code", "system timestamp"),
    "amaun": ("target", "target", "amount in RM"),
    "catatan": ("free_text", "free_text", "hand-written notes, labelled spans"),
}
# Columns whose whole value is a Safe Harbor identifier (45 CFR 164.514(b)(2)(i): A names,
# R other unique numbers, D phones, F emails).
_WHOLE_VALUE = ("nama", "c07", "no_kp", "emp#", "tel_bimbit", "emel", "waris")
PRESIDIO_EVAL3_LABELS = {
    "PERSON": "NAME",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "LOCATION": "ADDRESS",
    "DATE_TIME": "DATE",
    "URL": "URL",
    "IP_ADDRESS": "IP",
    "SG_NRIC_FIN": "ID",
    "US_SSN": "ID",
    "AU_MEDICARE": "ID",
    "AU_TFN": "ID",
    "AU_ABN": "ID",
    "AU_ACN": "ID",
    "PH_TIN": "ID",
    "PH_UMID": "ID",
    "PH_PASSPORT": "ID",
}
PRESIDIO_EVAL3_RECOGNIZERS = (
    "SgFinRecognizer",
    "AuMedicareRecognizer",
    "AuTfnRecognizer",
    "AuAbnRecognizer",
    "AuAcnRecognizer",
    "PhTinRecognizer",
    "PhUmidRecognizer",
    "PhPassportRecognizer",
)


def load() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(table as a user's file is read, scored spans, neutral spans, people)."""
    from core.io import read_table

    table = read_table(DATA / "table.csv")
    spans = common.read_spans(DATA)
    people = common.read_people(DATA)
    scored = spans["kind"].isin(SPAN_KINDS)
    return (
        table,
        spans[scored].reset_index(drop=True),
        spans[~scored].reset_index(drop=True),
        people,
    )


# --------------------------------------------------------------------------------------
# Step 1
# --------------------------------------------------------------------------------------
def step1(table: pd.DataFrame) -> pd.DataFrame:
    truth = pd.DataFrame(
        [(c, what, role, group) for c, (role, group, what) in COLUMN_TRUTH.items()],
        columns=["column", "holds", "role", "group"],
    )
    return common.step1_roles(table, truth)


# --------------------------------------------------------------------------------------
# Free text
# --------------------------------------------------------------------------------------
def name_cells(names: pd.Series, origins: pd.Series, found: pd.DataFrame) -> pd.Series:
    """Share of name cells in which a NAME is found, per tradition, plus ``all``."""
    hit = names.index.isin(found.loc[found["label"] == "NAME", "row"])
    shares = pd.Series(hit).groupby(origins.to_numpy()).mean()
    shares["all"] = hit.mean()
    return shares


# --------------------------------------------------------------------------------------
# Safe Harbor
# --------------------------------------------------------------------------------------
def year_kept(text: str, original: str, born: dt.date) -> bool:
    """Whether a cell still shows a birth year: the 4-digit year, or the cell as written."""
    return str(born.year) in text or (bool(original) and original in text)


def safe_harbor_left(
    table: pd.DataFrame, out: pd.DataFrame, spans: pd.DataFrame, people: pd.DataFrame
) -> dict[str, object]:
    """Personal values of ``table`` left in the Safe Harbor output ``out`` (same rows).

    Counted per cell: a whole-value identifier (names, IDs, phones, emails) still in its
    cell; an address's street line; a postal code; a date of birth or visit date showing
    more than its year; for people over 89, an exact age or their birth year; and every
    labelled span of the notes still in clear.
    """

    def cells(column: str) -> list[str]:
        if column not in out.columns:
            return [""] * len(table)
        return ["" if pd.isna(v) else str(v) for v in out[column]]

    def original(column: str) -> list[str]:
        return ["" if pd.isna(v) else str(v) for v in table[column]]

    left: dict[str, np.ndarray] = {}
    for column in _WHOLE_VALUE:
        left[column] = np.array(
            [bool(a) and a in b for a, b in zip(original(column), cells(column), strict=True)]
        )
    left["alamat"] = np.array(
        [s in c for s, c in zip(people["street"], cells("alamat"), strict=True)]
    )
    left["poskod"] = np.array(
        [p in c for p, c in zip(people["postal"], cells("poskod"), strict=True)]
    )
    for column in ("dob", "tarikh_lawatan"):
        left[column] = np.array([common.date_kept(c) for c in cells(column)])
    old = (people["age"] >= 90).to_numpy()
    ages = pd.to_numeric(pd.Series(cells("umur")), errors="coerce").to_numpy()
    left["umur"] = old & (ages == people["age"].to_numpy())
    born = [dt.date.fromisoformat(d) for d in people["dob"]]
    birth_year = old & np.array(
        [year_kept(c, o, b) for c, o, b in zip(cells("dob"), original("dob"), born, strict=True)]
    )
    # a birth year kept, but not the person's (a 2-digit year read in the wrong century)
    dob_out = pd.Series(cells("dob"), dtype=object)
    kept_years = pd.to_numeric(
        dob_out.where(dob_out.str.fullmatch(r"\s*\d{4}\s*")), errors="coerce"
    ).to_numpy(dtype=float)
    wrong_year = ~np.isnan(kept_years) & (kept_years != np.array([b.year for b in born]))
    notes_left = 0
    if NOTES in out.columns and not spans.empty:
        notes_left = int(left_verbatim(spans, pd.Series(cells(NOTES), index=table.index)).sum())
    by_column = {c: int(v.sum()) for c, v in left.items() if v.any()}
    year_only = birth_year & ~left["dob"]  # a date kept whole is counted once, as a date
    if year_only.any():
        by_column["dob (birth year, 90+)"] = int(year_only.sum())
    if notes_left:
        by_column[f"{NOTES} (spans)"] = notes_left
    values = sum(by_column.values())
    cells_total = table.shape[0] * table.shape[1]
    groups = {c: g for c, (_, g, _) in COLUMN_TRUTH.items()}
    return {
        "values_left": values,
        "per_1000_cells": 1000 * values / cells_total,
        "left_by_column": by_column,
        "aged_90_plus": int(old.sum()),
        "aged_90_plus_exact": int((left["umur"] | birth_year).sum()),
        "birth_year_wrong": int(wrong_year.sum()),
        "plain_removed": common.plain_removed(table, out, groups),
    }


def safe_harbor(table, spans, people) -> dict[str, dict]:
    from core.safe_harbor import apply_safe_harbor

    return {
        mode: safe_harbor_left(
            table,
            apply_safe_harbor(table, reference_date=common.REFERENCE_DATE, free_text=mode).data,
            spans,
            people,
        )
        for mode in ("remove", "redact")
    }


# --------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------
def print_step1(roles: pd.DataFrame) -> None:
    common.print_step1_roles(roles, "## Step 1: suggested role of each column (project)")


def print_notes(ours: dict, theirs: dict | None, times: tuple[float, float], setup: str) -> None:
    n = int(ours["by_kind"].loc["all", "spans"])
    print(f"\n## Free text ({NOTES}): {n} labelled spans; presidio: {setup or 'not run'}\n")
    print("| measure | project | presidio |\n|---|---|---|")
    row = common.table_row(ours, theirs)
    common.recall_rows(row, ours, SPAN_KINDS)
    common.precision_rows(row)
    row(f"labelled strings left in clear after redaction (of {n})", lambda s: str(s["left"]))
    common.left_rows(row, ours, SPAN_KINDS, words="left in clear")
    common.time_row("time to redact the notes", times, theirs is not None, "the project's time")


def print_names(ours: pd.Series, theirs: pd.Series | None) -> None:
    print(f"\n## Names in the name column ({NAMES}), cell by cell, per tradition\n")
    print("| tradition | cells | project | presidio |\n|---|---|---|---|")
    for origin in ours.index:
        b = common.fmt(theirs[origin]) if theirs is not None else "-"
        print(
            f"| {origin} | {ours.attrs['cells'].get(origin, '')} | {common.fmt(ours[origin])} | {b} |"
        )


def print_safe_harbor(results: dict[str, dict], cells: int) -> None:
    print(f"\n## Safe Harbor preset ({cells:,} cells)\n")
    print(
        "| free text | values left | per 1,000 cells | aged 90+ exact | birth years in the "
        "wrong century | code/target columns removed | left by column |\n"
        "|---|---|---|---|---|---|---|"
    )
    for mode, r in results.items():
        print(
            f"| {mode}{' (default)' if mode == 'remove' else ''} | {r['values_left']} | "
            f"{r['per_1000_cells']:.1f} | {r['aged_90_plus_exact']} of {r['aged_90_plus']} | "
            f"{r['birth_year_wrong']} | "
            f"{', '.join(r['plain_removed']) or 'none'} | {r['left_by_column']} |"
        )


def run_presidio(notes: pd.Series, names: pd.Series):
    """presidio's detections and redaction of the notes, its time, its set-up, and its
    detections in the name column; None when presidio is not installed."""
    presidio = common.presidio_or_none(
        ("MY", "PH", "AU", "SG"), PRESIDIO_EVAL3_RECOGNIZERS, PRESIDIO_EVAL3_LABELS, "eval3"
    )
    if presidio is None:
        return None
    found, redacted, (seconds, _) = presidio.run(notes)  # clock time
    cells, _, _ = presidio.run(names)
    setup = f"{presidio.setup}, phones MY/PH/AU/SG, SG/AU/PH ID recognisers"
    return found, redacted, seconds, setup, cells


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-presidio", action="store_true", help="the project alone")
    parser.add_argument(
        "--list-left",
        action="store_true",
        help="print the labelled strings the project left in clear",
    )
    args = parser.parse_args(argv)
    table, spans, neutral, people = load()
    print_step1(step1(table))
    notes = table[NOTES].where(table[NOTES].notna(), "").astype(str)
    names = table[NAMES].astype(str)
    redacted, (ours_s, _) = common.ours_redact(notes, repeat=1)  # clock time, as presidio's
    ours = common.score_notes(spans, common.ours_detect(notes), redacted, neutral)
    other = None if args.no_presidio else run_presidio(notes, names)
    theirs, theirs_s, setup, their_names = None, 0.0, "", None
    origins = people["origin"]
    if other:
        p_found, p_redacted, theirs_s, setup, p_cells = other
        theirs = common.score_notes(spans, p_found, p_redacted, neutral)
        their_names = name_cells(names, origins, p_cells)
    print_notes(ours, theirs, (ours_s, theirs_s), setup)
    our_names = name_cells(names, origins, common.ours_detect(names))
    our_names.attrs["cells"] = {**origins.value_counts().to_dict(), "all": len(origins)}
    print_names(our_names, their_names)
    print_safe_harbor(safe_harbor(table, spans, people), table.size)
    if args.list_left:
        truth = ours["truth"]
        print("\n## Labelled strings the project left in clear (measure only: do not tune on them)")
        for kind, text in truth.loc[truth["left"], ["kind", "text"]].itertuples(index=False):
            print(f"{kind}\t{text}")
        wrong = ours["found"][~ours["found"]["on_pii"]]
        print("\n## Project detections on no labelled span")
        for label, text in wrong[["label", "text"]].itertuples(index=False):
            print(f"{label}\t{text}")


if __name__ == "__main__":
    main()
