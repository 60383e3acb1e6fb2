"""The project and presidio side by side on eval6, the sixth held-out set of issue 26.

The set (``bench/data/eval6/``, ``bench/make_eval6.py``; its README says how and from what
it was made) was written and committed before any detector ran on it: **measure only**,
never tune a detector on its rows, notes or misses. Printed, for both tools where both
apply, on the same inputs in the same run:

1. **Free text**: the 146 hand-written notes. Span recall per entity type, per name origin
   and of the direct-identifier spans (names, phones, IDs, SSN, emails, URLs; a span is
   found when a detection of a compatible kind overlaps it: ``bench/independent_eval.py``),
   precision (detections on a labelled span; on a span of their kind; per label), the
   labelled strings still verbatim after redaction (per type and origin), the ages over 89
   left in clear, and the CPU time to redact, as a ratio (each tool warmed on the first 5
   notes, then timed on one run over all, in this process: a first reading of the rest;
   ``bench/bench_detect_speed.py`` gives medians of several runs);
2. **Cells of the direct-identifier columns** (full name, given name alone, next of kin in
   lower case, national ID, phone, email): the share of cells in which a detection of the
   column's type is found, per column and, for the name columns, per origin;
3. **Step 1** (the project's :func:`core.schema.suggest_roles`; presidio has no column
   classifier): each column's suggested role against its true role, direct columns found,
   code columns called direct or a phone;
4. **Safe Harbor** (:func:`core.safe_harbor.apply_safe_harbor`, free text removed by
   default, then redacted): personal values left per 1,000 cells, rows affected, people
   aged 90+ with an exact age or birth year.

presidio (bench/requirements-bench.txt): analyzer + anonymizer 2.2.366 with spaCy
``en_core_web_sm`` 3.8 NER when installed (patterns only otherwise; the output says which),
phones of the ten regions of :data:`PRESIDIO_EVAL6_REGIONS`, and its recognisers of the
set's countries (:data:`PRESIDIO_EVAL6_RECOGNIZERS`: Singapore NRIC/FIN, Australian TFN and
Medicare, Canadian SIN and postal code, South African ID and phones, Philippine UMID and
TIN, UK NHS and postcode, Aadhaar; presidio has none for MyKad or the Irish PPSN), default
threshold; entities mapped to the project's labels by :data:`PRESIDIO_EVAL6_LABELS`.

Run: ``.venv/bin/python bench/bench_detect_eval6.py`` (``--no-presidio`` for the project
alone; ``--data DIR`` for another folder of the same layout, such as the small one
``--smoke DIR`` writes from eval5's first rows to check the script end to end, or a
notes-only folder of notes.csv and spans.csv alone, such as ``bench/data/eval7``, run with
``--presidio-setup eval7`` to give presidio eval7's countries; ``bench/data/eval8``, notes
and table, with ``--presidio-setup eval8``). By default nothing here prints the strings
missed: the report gives categories only. ``--show KIND...`` (span kinds or labels:
``date``, ``ADDRESS``, ``age``, ``all``) also prints the project's misses, ages over 89 left
and false alarms of those kinds in context: for a development set only (eval6 and eval7
now are), never for a held-out one (eval8).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import eval_common as common  # noqa: E402
from bench.eval_common import fmt, ours_detect, ours_redact  # noqa: E402
from bench.independent_eval import COMPATIBLE, left_verbatim  # noqa: E402

DATA = ROOT / "bench" / "data" / "eval6"
#: Span kinds scored -> the detection labels that find them (eval6 adds URLs).
COMPATIBLE6: dict[str, frozenset[str]] = {**COMPATIBLE, "url": frozenset({"URL"})}
SPAN_KINDS6 = tuple(COMPATIBLE6)
AGE = "age"  # ages over 89 in the notes: no tool labels them; counted as left or not
#: Direct-identifier columns (by key of columns.csv) scored cell by cell -> their label.
CELL_LABELS = {
    "name": "NAME",
    "given": "NAME",
    "kin": "NAME",
    "id": "ID",
    "phone": "PHONE",
    "email": "EMAIL",
}
PRESIDIO_EVAL6_REGIONS = ("SG", "MY", "AU", "PH", "IE", "CA", "ZA", "US", "GB", "IN")
PRESIDIO_EVAL6_LABELS = {
    "PERSON": "NAME",
    "PHONE_NUMBER": "PHONE",
    "ZA_MOBILE_NUMBER": "PHONE",
    "ZA_TELEPHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "LOCATION": "ADDRESS",
    "UK_POSTCODE": "ADDRESS",
    "CA_POSTAL_CODE": "ADDRESS",
    "DATE_TIME": "DATE",
    "SG_NRIC_FIN": "ID",
    "US_SSN": "ID",
    "UK_NHS": "ID",
    "IN_AADHAAR": "ID",
    "AU_TFN": "ID",
    "AU_MEDICARE": "ID",
    "CA_SIN": "ID",
    "ZA_ID_NUMBER": "ID",
    "PH_UMID": "ID",
    "PH_TIN": "ID",
    "URL": "URL",
    "IP_ADDRESS": "IP",
}
PRESIDIO_EVAL6_RECOGNIZERS = (
    "SgFinRecognizer",
    "AuTfnRecognizer",
    "AuMedicareRecognizer",
    "CaSinRecognizer",
    "CaPostalCodeRecognizer",
    "ZaIdNumberRecognizer",
    "ZaMobileNumberRecognizer",
    "ZaTelephoneNumberRecognizer",
    "PhUmidRecognizer",
    "PhTinRecognizer",
    "NhsRecognizer",
    "UkPostcodeRecognizer",
    "InAadhaarRecognizer",
)


# --------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Eval6:
    """The set as the bench reads it."""

    # The table parts are None for a notes-only folder (no table.csv: eval7).
    table: pd.DataFrame | None  # read as a user's file is (core.io.read_table)
    columns: pd.DataFrame | None  # column, key, role, group, holds
    header: dict[str, str] | None  # key -> the table's header
    people: pd.DataFrame | None
    notes: pd.DataFrame  # note, row (of the table), text
    spans: pd.DataFrame  # scored spans; ``row`` is the note's number
    ages: pd.DataFrame  # ages over 89 written in the notes
    neutral: pd.DataFrame  # ``ref`` spans: neither scored nor held against a detection


def load(folder: Path = DATA) -> Eval6:
    """The set in ``folder``; a folder without ``table.csv`` (notes.csv and spans.csv
    alone, as eval7) is read as notes only: its table parts are None."""
    from core.io import read_table

    spans = common.read_spans(folder).rename(columns={"note": "row"})
    spans["direct"] = spans["direct"].astype(str).str.lower() == "true"
    table = columns = header = people = None
    if (folder / "table.csv").exists():
        table = read_table(folder / "table.csv")
        people = common.read_people(folder)
        columns = pd.read_csv(folder / "columns.csv", dtype=str, keep_default_na=False)
        header = dict(zip(columns["key"], columns["column"], strict=True))
    scored = spans["kind"].isin(SPAN_KINDS6)
    return Eval6(
        table=table,
        columns=columns,
        header=header,
        people=people,
        notes=common.read_notes(folder),
        spans=spans[scored].reset_index(drop=True),
        ages=spans[spans["kind"] == AGE].reset_index(drop=True),
        neutral=spans[~scored & (spans["kind"] != AGE)].reset_index(drop=True),
    )


# --------------------------------------------------------------------------------------
# Scores (plain pandas, no detector inside: tests/scripts/test_bench_detect_eval6.py
# checks them by hand)
# --------------------------------------------------------------------------------------
_LABEL = re.compile(r"\[[A-Z][A-Z0-9 +_-]*\]|<[A-Z][A-Z0-9_]*>")


def ages_still_there(ages: pd.DataFrame, texts: pd.Series, redacted: pd.Series) -> pd.Series:
    """For each age span (row, text), whether it is still in clear after redaction, read
    by counting: in each note, for each age's number, the times it stands as a whole
    number in the text before and after redaction; the difference is how many of that
    note's ages with that number were replaced (an age "90" is not left because a "90"
    stands elsewhere in the note, in "BP 90/60" or another redacted age). Ages of a note
    and number are marked left from the first, as many as were not replaced."""
    if ages.empty:
        return pd.Series(dtype=bool)
    left = pd.Series(False, index=ages.index)
    for (row, value), group in ages.groupby(["row", "text"]):
        # a number in digits not glued to other digits ("91F" holds an age 91); one in
        # words, not to other letters
        edge = (r"(?<![\d.,])", r"(?![\d]|[.,]\d)") if value.isdigit() else (r"\b", r"\b")
        number = re.compile(edge[0] + re.escape(value) + edge[1])
        before = len(number.findall(texts.get(row, "") or ""))
        # (not the number in a redaction label: "[AGE 90+]" holds a 90)
        cleared = _LABEL.sub(" ", redacted.get(row, "") or "")
        after = len(number.findall(cleared))
        still = max(0, len(group) - (before - after))
        left[group.index[:still]] = True
    return left


def score_notes(
    spans: pd.DataFrame,
    found: pd.DataFrame,
    redacted: pd.Series,
    neutral: pd.DataFrame | None = None,
    ages: pd.DataFrame | None = None,
    texts: pd.Series | None = None,
) -> dict[str, object]:
    """Recall per kind, per name origin and of the direct spans, precision, the spans left
    verbatim, and the ages over 89 left verbatim.

    ``spans``: row, start, end, kind, origin, direct, text; ``found``: row, start, end,
    label; ``redacted``: each row's text after redaction (index = row); ``texts``: each
    row's text before it, to count the ages left (:func:`ages_still_there`; without it an
    age counts as left when its number stands anywhere in the redacted note).
    """
    # An age over 89 is personal data under HIPAA (scored apart, as "ages left"): a
    # detection on one is left out of precision like one on a neutral span, not counted
    # as a false alarm.
    apart = [x for x in (neutral, ages) if x is not None and not x.empty]
    scores = common.score_notes(
        spans, found, redacted, pd.concat(apart) if apart else None, compatible=COMPATIBLE6
    )
    direct = scores["truth"][scores["truth"]["direct"]]
    if ages is None or ages.empty:
        ages_left = 0
    elif texts is not None:
        ages_left = int(ages_still_there(ages, texts, redacted.fillna("")).sum())
    else:
        ages_left = int(left_verbatim(ages, redacted.fillna("")).sum())
    return {
        **scores,
        "direct_spans": len(direct),
        "direct_recall": float(direct["found"].mean()) if len(direct) else float("nan"),
        "direct_left": int(direct["left"].sum()),
        "ages": 0 if ages is None else len(ages),
        "ages_left": ages_left,
    }


def score_cells(
    table: pd.DataFrame,
    header: dict[str, str],
    found: pd.DataFrame,
    origins: dict[str, pd.Series],
) -> pd.DataFrame:
    """Per direct column of :data:`CELL_LABELS`: its cells, and the share in which a
    detection of its label is found (``found``: column, row, label); for the name
    columns, the share per origin too (``origins``: key -> each row's origin)."""
    rows = []
    for key, label in CELL_LABELS.items():
        column = header[key]
        filled = table[column].notna() & (table[column].astype(str).str.strip() != "")
        hits = found.loc[(found["column"] == column) & (found["label"] == label), "row"]
        hit = pd.Series(table.index.isin(hits), index=table.index)[filled]
        rows.append((f"{column} ({key})", "all", int(filled.sum()), float(hit.mean())))
        if key in origins:
            origin = origins[key][filled.to_numpy()]
            for name, share in hit.groupby(origin.to_numpy()).mean().items():
                rows.append((f"{column} ({key})", name, int((origin == name).sum()), float(share)))
    return pd.DataFrame(rows, columns=["column", "origin", "cells", "found"])


def safe_harbor_left(data: Eval6, out: pd.DataFrame) -> dict[str, object]:
    """Personal values of ``data.table`` left in the Safe Harbor output ``out`` (same rows),
    per 45 CFR 164.514(b)(2)(i): a name, ID, phone or email still in its cell (A, R, D, F);
    an address's street line or a whole postal code (B: every code of these seven
    countries is smaller than a state); a date of birth or visit showing more than its
    year (C); for people aged 90+, an exact age or the birth year (C); every labelled span
    of a note, and every age over 89 written in one, still in clear."""

    def label(key: str, what: str) -> str:
        return f"{data.header[key]} ({'note spans' if what == 'spans' else what or key})"

    marked = pd.concat([data.spans, data.ages], ignore_index=True)
    return common.harbor_values_left(
        data.table, out, data.people, data.notes, marked, data.header, label
    )


#: presidio set up for eval7's countries (Singapore, India, the UK, the US, New Zealand,
#: Hong Kong, Indonesia, Nigeria, Kenya): its phones there, and every recogniser it has of
#: them (none for the HKID, the NZ IRD number, the Indonesian NIK or Kenyan IDs; the US
#: ones are loaded by default). US_DRIVER_LICENSE stays out as for eval6.
PRESIDIO_EVAL7_REGIONS = ("SG", "IN", "GB", "US", "NZ", "HK", "ID", "NG", "KE")
PRESIDIO_EVAL7_RECOGNIZERS = (
    "SgFinRecognizer",
    "NhsRecognizer",
    "UkNinoRecognizer",
    "UkPassportRecognizer",
    "UkPostcodeRecognizer",
    "InAadhaarRecognizer",
    "InPanRecognizer",
    "InPassportRecognizer",
    "NgNinRecognizer",
)
PRESIDIO_EVAL7_LABELS = {
    **{
        k: v
        for k, v in PRESIDIO_EVAL6_LABELS.items()
        if not k.startswith(("ZA_", "AU_", "CA_", "PH_"))
    },
    "UK_NINO": "ID",
    "UK_PASSPORT": "ID",
    "IN_PAN": "ID",
    "IN_PASSPORT": "ID",
    "NG_NIN": "ID",
    "US_PASSPORT": "ID",
}
#: presidio set up for eval8's countries (Singapore, South Africa, Ghana, Pakistan,
#: Bangladesh, Sri Lanka, Vietnam, Thailand, Canada, Jamaica, Ireland, Australia, Malaysia,
#: the UAE): its phones there, and every recogniser it has of a person's number there (none
#: for Ghana, Pakistan, Bangladesh, Sri Lanka, Vietnam, Jamaica, Ireland, Malaysia or the
#: UAE; company numbers, licence plates and South African tax numbers left out as for
#: eval6 and eval7).
PRESIDIO_EVAL8_REGIONS = (
    "SG",
    "ZA",
    "GH",
    "PK",
    "BD",
    "LK",
    "VN",
    "TH",
    "CA",
    "JM",
    "IE",
    "AU",
    "MY",
    "AE",
)
PRESIDIO_EVAL8_RECOGNIZERS = (
    "SgFinRecognizer",
    "ZaIdNumberRecognizer",
    "ZaMobileNumberRecognizer",
    "ZaTelephoneNumberRecognizer",
    "ZaPassportRecognizer",
    "ThTninRecognizer",
    "CaSinRecognizer",
    "CaPostalCodeRecognizer",
    "AuTfnRecognizer",
    "AuMedicareRecognizer",
)
PRESIDIO_EVAL8_LABELS = {
    **{k: v for k, v in PRESIDIO_EVAL6_LABELS.items() if not k.startswith("PH_")},
    "ZA_PASSPORT": "ID",
    "TH_TNIN": "ID",
}
#: The presidio set-up per set: regions, recognisers, labels.
PRESIDIO_SETUPS = {
    "eval6": (PRESIDIO_EVAL6_REGIONS, PRESIDIO_EVAL6_RECOGNIZERS, PRESIDIO_EVAL6_LABELS),
    "eval7": (PRESIDIO_EVAL7_REGIONS, PRESIDIO_EVAL7_RECOGNIZERS, PRESIDIO_EVAL7_LABELS),
    "eval8": (PRESIDIO_EVAL8_REGIONS, PRESIDIO_EVAL8_RECOGNIZERS, PRESIDIO_EVAL8_LABELS),
}


#: Sets still held out (committed before any detector ran on them, not yet measured):
#: ``--show`` would list their misses, which ends a set's held-out status. eval8 was
#: measured once (docs/performance.md) and is a development set since; a ninth set goes
#: here until its first run.
HELD_OUT: tuple[str, ...] = ()


def refuse_show_on_held_out(folder: Path, show: list[str] | None) -> None:
    """SystemExit before anything is run when ``--show`` is asked of a held-out set."""
    if show and Path(folder).resolve().name in HELD_OUT:
        raise SystemExit(
            f"--show lists the misses of {Path(folder).name}, a held-out set: measure it "
            "without --show (bench/data/README.md)"
        )


# --------------------------------------------------------------------------------------
# The two tools
# --------------------------------------------------------------------------------------
def presidio_tool(setup: str = "eval6"):
    """presidio set up for the countries of ``setup`` (a key of :data:`PRESIDIO_SETUPS`),
    or None (with the reason printed)."""
    return common.presidio_or_none(*PRESIDIO_SETUPS[setup], setup)


def cell_texts(data: Eval6) -> pd.DataFrame:
    """The cells of the direct columns, one text each: column, row, text."""
    frames = [
        pd.DataFrame(
            {"column": data.header[k], "row": data.table.index, "text": data.table[data.header[k]]}
        )
        for k in CELL_LABELS
    ]
    cells = pd.concat(frames, ignore_index=True)
    cells = cells[cells["text"].notna()]
    return cells.assign(text=cells["text"].astype(str)).reset_index(drop=True)


def step1(data: Eval6) -> pd.DataFrame:
    return common.step1_roles(data.table, data.columns)


def safe_harbor(data: Eval6) -> dict[str, dict]:
    groups = data.columns.set_index("column")["group"]
    return common.safe_harbor_runs(data.table, groups, lambda out: safe_harbor_left(data, out))


# --------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------
def print_notes(ours: dict, theirs: dict | None, cpu: tuple[float, float], setup: str) -> None:
    n = int(ours["by_kind"].loc["all", "spans"])
    print(f"\n## Free text: {n} labelled spans; presidio: {setup or 'not run'}\n")
    print("| measure | project | presidio |\n|---|---|---|")
    row = common.table_row(ours, theirs)
    row(
        f"recall: direct-identifier spans ({ours['direct_spans']})",
        lambda s: fmt(s["direct_recall"]),
    )
    common.recall_rows(row, ours, SPAN_KINDS6)
    common.origin_recall_rows(row, ours)
    common.precision_rows(row, ("NAME", "PHONE", "ID", "EMAIL", "URL", "ADDRESS", "DATE"))
    row(f"labelled strings left verbatim after redaction (of {n})", lambda s: str(s["left"]))
    row("direct-identifier strings left verbatim", lambda s: str(s["direct_left"]))
    common.left_rows(row, ours, SPAN_KINDS6)
    common.origin_left_rows(row, ours)
    row(f"ages over 89 left verbatim (of {ours['ages']})", lambda s: str(s["ages_left"]))
    common.time_row("CPU time to redact the notes", cpu, theirs is not None, "the project's")


def _context(text: str, start: int, end: int, width: int = 40) -> str:
    left = text[max(0, start - width) : start].replace("\n", " ")
    right = text[end : end + width].replace("\n", " ")
    return f"...{left}[[{text[start:end]}]]{right}..."


def print_misses(ours: dict, data: Eval6, redacted: pd.Series, kinds: list[str]) -> None:
    """Each missed span, age over 89 left and detection on no labelled span of ``kinds``
    (span kinds or detection labels, any case; ``all`` for every one), in its note's
    context: a development aid (``--show``), never for a held-out set."""
    wanted = {k.lower() for k in kinds}
    every = "all" in wanted
    texts = data.notes["text"]
    truth, found = ours["truth"], ours["found"]
    missed = truth[~truth["found"] & (every | truth["kind"].str.lower().isin(wanted))]
    print(f"\n## Missed spans ({len(missed)})\n")
    for r in missed.sort_values(["kind", "row", "start"]).itertuples():
        touched = " (touched by another label)" if r.touched else ""
        print(f"- {r.kind} note {r.row}{touched}: {_context(texts[r.row], r.start, r.end)}")
    if every or AGE in wanted:
        ages = data.ages[ages_still_there(data.ages, texts, redacted.fillna("")).to_numpy()]
        print(f"\n## Ages over 89 left ({len(ages)})\n")
        for r in ages.itertuples():
            print(f"- note {r.row}: {_context(texts[r.row], r.start, r.end)}")
    alarms = found[~found["on_pii"] & (every | found["label"].str.lower().isin(wanted))]
    print(f"\n## Detections on no labelled span ({len(alarms)})\n")
    for r in alarms.sort_values(["label", "row", "start"]).itertuples():
        print(f"- {r.label} note {r.row}: {_context(texts[r.row], r.start, r.end)}")
    wrong = found[found["on_pii"] & ~found["correct"]]
    wrong = wrong[every | wrong["label"].str.lower().isin(wanted)]
    print(f"\n## Detections on a labelled span of another kind only ({len(wrong)})\n")
    for r in wrong.sort_values(["label", "row", "start"]).itertuples():
        print(f"- {r.label} note {r.row}: {_context(texts[r.row], r.start, r.end)}")


def main(argv: list[str] | None = None) -> None:
    from bench.bench_detect_eval5 import print_cells, print_safe_harbor, print_step1

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-presidio", action="store_true", help="the project alone")
    parser.add_argument("--data", type=Path, default=DATA, help="a folder of eval6's layout")
    parser.add_argument(
        "--smoke", type=Path, help="write a small folder of eval6's layout from eval5, and stop"
    )
    parser.add_argument(
        "--presidio-setup",
        choices=sorted(PRESIDIO_SETUPS),
        default="eval6",
        help="presidio's phone regions and recognisers: eval6's, eval7's or eval8's countries",
    )
    parser.add_argument(
        "--show",
        nargs="+",
        metavar="KIND",
        help=(
            "also print, for these span kinds or detection labels (name, date, ADDRESS, "
            "age, all...), each missed span, each age over 89 left, and each detection on "
            "no labelled span, in context: for a DEVELOPMENT set only, never a held-out one"
        ),
    )
    args = parser.parse_args(argv)
    if args.smoke:
        write_smoke(args.smoke)
        return
    refuse_show_on_held_out(args.data, args.show)
    data = load(args.data)
    notes = data.notes["text"]
    presidio = None if args.no_presidio else presidio_tool(args.presidio_setup)

    # Timed as presidio is below: warmed on the first 5 notes, then one run, a first
    # reading of the rest (bench_detect_speed.py gives medians of both measures).
    redacted, (_, ours_cpu) = ours_redact(notes, repeat=1, warm=5)
    ours = score_notes(data.spans, ours_detect(notes), redacted, data.neutral, data.ages, notes)
    theirs, theirs_cpu, setup = None, 0.0, ""
    if presidio is not None:
        p_found, p_redacted, (_, theirs_cpu) = presidio.run(notes)
        p_found = p_found.drop_duplicates(["row", "start", "end", "label"])
        theirs = score_notes(data.spans, p_found, p_redacted, data.neutral, data.ages, notes)
        regions = PRESIDIO_SETUPS[args.presidio_setup][0]
        setup = f"{presidio.setup}, phones of {len(regions)} regions, its recognisers of {args.presidio_setup}'s countries"
    print_notes(ours, theirs, (ours_cpu, theirs_cpu), setup)
    if args.show:
        print_misses(ours, data, redacted, args.show)
    if data.table is None:
        print("(notes only: no table.csv, so no cells, Step 1 or Safe Harbor)")
        return

    cells = cell_texts(data)
    origins = {
        "name": data.people["origin"],
        "given": data.people["origin"],
        "kin": data.people["kin_origin"],
    }
    _, (_, ours_cells_cpu) = ours_redact(cells["text"], repeat=1)
    ours_cells = score_cells(
        data.table, data.header, _with_columns(ours_detect(cells["text"]), cells), origins
    )
    theirs_cells, theirs_cells_cpu = None, 0.0
    if presidio is not None:
        p_found, _, (_, theirs_cells_cpu) = presidio.run(cells["text"])
        theirs_cells = score_cells(data.table, data.header, _with_columns(p_found, cells), origins)
    print_cells(ours_cells, theirs_cells, (ours_cells_cpu, theirs_cells_cpu))
    print("(times above: CPU seconds)")

    print_step1(step1(data))
    print_safe_harbor(safe_harbor(data), data.table.size, len(data.table))


def _with_columns(found: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    from bench.bench_detect_eval5 import with_columns

    return with_columns(found, cells)


# --------------------------------------------------------------------------------------
# A small folder of eval6's layout made from eval5 (to check this script end to end
# without running any detector on eval6)
# --------------------------------------------------------------------------------------
#: eval5's headers -> eval6's keys (the columns the bench reads by key).
_EVAL5_KEYS = {
    "c1": "name",
    "x": "given",
    "c6": "kin",
    "k": "id",
    "tel": "phone",
    "info": "email",
    "col_7": "address",
    "c8": "postal",
    "d": "dob",
    "n": "age",
    "s": "gender",
    "c12": "occupation",
    "b": "batch",
    "p": "product",
    "amt": "amount",
    "col_15": "clinic",
    "v": "visit",
    "w": "lab",
    "z": "notes",
}
_DIRECT_KINDS = ("name", "phone", "id", "ssn", "email", "url")


def write_smoke(folder: Path, notes: int = 5, rows: int = 60) -> None:
    """eval5's first ``notes`` notes and ``rows`` rows in eval6's layout (its columns
    c13, c18 and lot left out)."""
    source = ROOT / "bench" / "data" / "eval5"
    folder.mkdir(parents=True, exist_ok=True)
    table = pd.read_csv(source / "table.csv", dtype=str, keep_default_na=False).head(rows)
    table = table[list(_EVAL5_KEYS)]
    note_rows = pd.read_csv(source / "notes.csv", dtype=str, keep_default_na=False).head(notes)
    kept = note_rows["row"].astype(int)
    table.loc[~table.index.isin(kept), "z"] = ""
    table.to_csv(folder / "table.csv", index=False)
    note_rows.to_csv(folder / "notes.csv", index=False)
    columns = pd.read_csv(source / "columns.csv", dtype=str, keep_default_na=False)
    columns = columns[columns["column"].isin(_EVAL5_KEYS)]
    columns.insert(1, "key", columns["column"].map(_EVAL5_KEYS))
    columns.to_csv(folder / "columns.csv", index=False)
    spans = pd.read_csv(source / "spans.csv", dtype=str, keep_default_na=False)
    spans = spans[spans["note"].astype(int) < notes]
    spans.insert(5, "direct", spans["kind"].isin(_DIRECT_KINDS))
    spans.to_csv(folder / "spans.csv", index=False)
    people = pd.read_csv(source / "people.csv", dtype=str, keep_default_na=False).head(rows)
    people.to_csv(folder / "people.csv", index=False)
    print(f"{folder}: {len(table)} rows, {len(note_rows)} notes, {len(spans)} spans (from eval5)")


if __name__ == "__main__":
    main()
