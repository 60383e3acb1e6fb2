"""The independent labelled table of issue 26 and the scoring of detectors on it.

The data (``bench/data/independent_pii/``, written by ``bench/make_independent_pii.py``)
comes in two parts:

- ``dev`` (500 people): the detector developers may read it, and
  ``bench/bench_detect_independent.py --misses`` lists what was missed in it;
- ``test`` (1,500 people): **only ever measured.** Nobody reads its rows or its misses to
  tune a detector, a word list or a rule; its figures are the ones
  docs/guide/step1-know-your-data.md reports.
  A detector tuned on it would make those figures meaningless.

Each part has a table (20 columns under headers that say little), the labelled spans of its
free-text column ``txt`` (row, start, end, kind, origin of the name's tradition, text) and
a people file (country, origin, exact age, street line, postal code) used to count the
personal values Safe Harbor leaves.

Scoring (plain pandas, no detector inside, so tests can check it by hand):

- a true span is **found** when a detection of a compatible kind overlaps it
  (:data:`COMPATIBLE`), and **touched** when any detection overlaps it;
- a detection is **correct** when it overlaps a true span of a compatible kind, and
  **on PII** when it overlaps any true span (the precision of what was redacted);
- a span is **left** when its exact text is still in the redacted note of its row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

DATA = Path(__file__).resolve().parent / "data" / "independent_pii"
SPLITS = ("dev", "test")
#: Span kinds of the labels -> the detection labels that count as finding them.
COMPATIBLE: dict[str, frozenset[str]] = {
    "name": frozenset({"NAME"}),
    "phone": frozenset({"PHONE"}),
    "id": frozenset({"ID"}),
    "ssn": frozenset({"ID"}),
    "email": frozenset({"EMAIL"}),
    "address": frozenset({"ADDRESS"}),
    "date": frozenset({"DATE"}),
}
SPAN_KINDS = tuple(COMPATIBLE)
ORIGINS = ("Chinese", "Malay", "Indian", "Eurasian", "Western")

#: What each column holds and the role the PDPC guide's Step 1 table gives it (the guide
#: lists address, postal code, date of birth, age, gender and job title as indirect).
COLUMN_TRUTH: dict[str, tuple[str, str]] = {
    "c1": ("direct", "full name (8% with a title)"),
    "c2": ("direct", "first name alone"),
    "c3": ("direct", "next of kin's name, lower case"),
    "k1": ("direct", "NRIC/FIN (some 'S 1234567 D', some lower case)"),
    "k2": ("direct", "US SSN (US people only)"),
    "tel": ("direct", "phone, national format of 4 countries"),
    "c7": ("direct", "email"),
    "loc": ("indirect", "address, 4 countries' formats"),
    "pc": ("indirect", "postal code"),
    "d1": ("indirect", "date of birth"),
    "n1": ("indirect", "age (some 90+)"),
    "g": ("indirect", "gender (a few 'Other')"),
    "c13": ("indirect", "occupation"),
    "c14": ("indirect", "country"),
    "ref": ("other", "8-digit batch number, 40 values"),
    "c16": ("other", "hospital name"),
    "c17": ("target", "diagnosis"),
    "n2": ("target", "bill amount"),
    "d2": ("indirect", "visit date"),
    "txt": ("free_text", "notes with labelled spans"),
}
# Columns whose values are HIPAA Safe Harbor identifiers (45 CFR 164.514(b)(2)(i)):
# A names, B addresses and postal codes, C dates and ages over 89, D phones, F emails,
# G SSN, R other unique numbers (NRIC/FIN).
_WHOLE_VALUE = ("c1", "c2", "c3", "k1", "k2", "tel", "c7", "d2")


# Columns holding none of the 18 identifiers: a preset that keeps them keeps the data useful.
_NO_IDENTIFIER = ("g", "c13", "c14", "ref", "c16", "c17", "n2")


def _year_kept(text: str, dob: str) -> bool:
    """Whether a Safe Harbor cell still shows the birth year of ``dob`` (dd/mm/yyyy): the
    year alone or inside a date; "1935 or earlier" is an aggregate, not the year."""
    year = dob[6:10]
    if not year:
        return False
    text = text.strip()
    return (
        text == year
        or dob in text
        or bool(re.search(rf"\b{year}-\d{{1,2}}\b|\b\d{{1,2}}[/.-]{year}\b", text))
    )


@dataclass(frozen=True)
class Part:
    """One part of the data: the table, the spans of its notes and who each row is."""

    name: str
    table: pd.DataFrame
    spans: pd.DataFrame  # the scored spans (kinds of COMPATIBLE)
    people: pd.DataFrame
    neutral: pd.DataFrame  # spans neither scored nor held against a detection (kind "ref")


def load(split: str, rows: int | None = None) -> Part:
    """The ``dev`` or ``test`` part (``rows``: only the first rows, for a quick run)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    table = pd.read_csv(DATA / f"{split}_table.csv", dtype=str, keep_default_na=False)
    table = table.replace("", None)
    for column in ("n1", "n2"):
        table[column] = pd.to_numeric(table[column])
    spans = pd.read_csv(DATA / f"{split}_spans.csv", dtype={"text": str}, keep_default_na=False)
    people = pd.read_csv(DATA / f"{split}_people.csv", dtype=str, keep_default_na=False)
    people["age"] = people["age"].astype(int)
    if rows is not None:
        table = table.iloc[:rows]
        spans = spans[spans["row"] < rows]
        people = people.iloc[:rows]
    scored = spans["kind"].isin(list(COMPATIBLE))
    return Part(
        split,
        table,
        spans[scored].reset_index(drop=True),
        people,
        spans[~scored].reset_index(drop=True),
    )


def _pairs(
    truth: pd.DataFrame,
    found: pd.DataFrame,
    compatible: dict[str, frozenset[str]] | None = None,
) -> pd.DataFrame:
    """Every (true span, detection) pair of the same row that overlap (``compatible``:
    span kind -> labels that find it, :data:`COMPATIBLE` by default)."""
    left = truth[["row", "start", "end", "kind"]].reset_index(names="t")
    right = found[["row", "start", "end", "label"]].reset_index(names="d")
    pairs = left.merge(right, on="row", suffixes=("_t", "_d"))
    overlap = (pairs["start_d"] < pairs["end_t"]) & (pairs["start_t"] < pairs["end_d"])
    pairs = pairs.loc[overlap.to_numpy(dtype=bool)]  # (an empty mask must not select columns)
    allowed = pairs["kind"].map(compatible or COMPATIBLE)
    compatible = [lab in ok for lab, ok in zip(pairs["label"], allowed, strict=True)]
    return pairs.assign(compatible=np.array(compatible, dtype=bool))


def match(
    truth: pd.DataFrame,
    found: pd.DataFrame,
    neutral: pd.DataFrame | None = None,
    compatible: dict[str, frozenset[str]] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``truth`` with ``found`` and ``touched``; ``found`` with ``correct`` and ``on_pii``.

    ``truth``: row, start, end, kind (one of :data:`SPAN_KINDS`); ``found``: row, start,
    end, label (NAME, PHONE, ID, EMAIL, ADDRESS, DATE...). Offsets are half-open.
    A detection that overlaps a ``neutral`` span and no true span is left out.
    ``compatible``: span kind -> the labels that find it (:data:`COMPATIBLE` by default;
    a set with more kinds, such as eval6's ``url``, passes its own).
    """
    truth = truth.reset_index(drop=True)
    found = found.reset_index(drop=True)
    if neutral is not None and not neutral.empty and not found.empty:
        on_neutral = _pairs(neutral.assign(kind="name"), found)["d"]
        on_truth = _pairs(truth, found, compatible)["d"]
        found = found.drop(index=sorted(set(on_neutral) - set(on_truth))).reset_index(drop=True)
    pairs = _pairs(truth, found, compatible)
    good = pairs.loc[pairs["compatible"].to_numpy()]
    truth = truth.assign(found=truth.index.isin(good["t"]), touched=truth.index.isin(pairs["t"]))
    found = found.assign(correct=found.index.isin(good["d"]), on_pii=found.index.isin(pairs["d"]))
    return truth, found


def left_verbatim(truth: pd.DataFrame, redacted: pd.Series) -> pd.Series:
    """Whether each true span's text is still, exactly, in its row's redacted text."""
    texts = redacted.reindex(truth["row"]).fillna("").to_numpy()
    return pd.Series(
        [span in text for span, text in zip(truth["text"], texts, strict=True)], index=truth.index
    )


def recall_table(truth: pd.DataFrame, by: str) -> pd.DataFrame:
    """Spans, found and recall per value of ``by`` (kind or origin), plus an ``all`` row."""
    groups = truth.groupby(by)["found"].agg(["size", "sum"])
    groups.loc["all"] = [len(truth), int(truth["found"].sum())]
    groups.columns = ["spans", "found"]
    groups["recall"] = groups["found"] / groups["spans"].where(groups["spans"] > 0)
    return groups


def precision_by_label(found: pd.DataFrame) -> pd.Series:
    """Per detection label: the share of its detections on a true span of a compatible kind."""
    return found.groupby("label")["correct"].mean()


def precision(found: pd.DataFrame) -> tuple[float, float]:
    """(share of detections on any PII span, share on a span of a compatible kind)."""
    if found.empty:
        return float("nan"), float("nan")
    return float(found["on_pii"].mean()), float(found["correct"].mean())


def safe_harbor_left(part: Part, out: pd.DataFrame) -> dict[str, object]:
    """Personal values left in a Safe Harbor output ``out`` of ``part.table``.

    A value counts as left when its text is still in the cell of the same row and column
    (when the column is still there): names, NRIC/FIN, SSN, phones, emails and visit dates
    whole; an address's street line; a postal code (a US ZIP only with all 5 digits: Safe
    Harbor keeps 3); a date of birth with its day and month; an age over 89 or, for a
    person over 89, the year of birth; and every labelled span of the notes.
    """
    table, people = part.table, part.people.set_index(part.people["row"].astype(int))
    left = pd.DataFrame(False, index=table.index, columns=table.columns)
    old_exact = np.zeros(len(table), dtype=bool)

    def cell_text(column: str) -> pd.Series:
        return out[column].astype(object).where(out[column].notna(), "").astype(str)

    def contains(column: str, pieces: pd.Series) -> pd.Series:
        if column not in out.columns:
            return pd.Series(False, index=table.index)
        text = cell_text(column)
        return pd.Series(
            [bool(p) and p in t for p, t in zip(pieces.fillna(""), text, strict=True)],
            index=table.index,
        )

    for column in _WHOLE_VALUE:
        left[column] = contains(column, table[column].astype(object).fillna("").astype(str))
    left["loc"] = contains("loc", people["street"].reindex(table.index))
    left["pc"] = contains("pc", people["postal"].reindex(table.index))
    day_month = table["d1"].fillna("").str.slice(0, 5)  # dd/mm of dd/mm/yyyy
    left["d1"] = contains("d1", table["d1"].fillna("")) | contains("d1", day_month)
    ages = people["age"].reindex(table.index)
    old = (ages >= 90).to_numpy()
    if "n1" in out.columns:
        exact = pd.to_numeric(out["n1"], errors="coerce").to_numpy() == ages.to_numpy()
        left["n1"] = exact & old
        old_exact |= exact & old
    year_kept = np.zeros(len(table), dtype=bool)
    if "d1" in out.columns:
        year_kept = (
            np.array(
                [
                    _year_kept(text, dob)
                    for text, dob in zip(cell_text("d1"), table["d1"].fillna(""), strict=True)
                ]
            )
            & old
        )
    old_exact |= year_kept
    notes_left = 0
    if "txt" in out.columns and not part.spans.empty:
        verbatim = left_verbatim(part.spans, cell_text("txt"))
        notes_left = int(verbatim.sum())
        rows_with = part.spans.loc[verbatim.to_numpy(), "row"].unique()
        left.loc[left.index.isin(rows_with), "txt"] = True
    values_left = int(left.drop(columns="txt").to_numpy().sum()) + notes_left + int(year_kept.sum())
    cells = table.shape[0] * table.shape[1]
    by_column = {c: int(n) for c, n in left.drop(columns="txt").sum().items() if n}
    if notes_left:
        by_column["txt (spans)"] = notes_left
    if year_kept.any():
        by_column["d1 (birth year, 90+)"] = int(year_kept.sum())
    return {
        "values_left": values_left,
        "per_1000_cells": 1000 * values_left / cells,
        "rows_with_left": int((left.any(axis=1).to_numpy() | year_kept).sum()),
        "rows": len(table),
        "left_by_column": by_column,
        "plain_columns_kept": [c for c in _NO_IDENTIFIER if c in out.columns],
        "notes_spans_left": notes_left,
        "aged_90_plus": int(old.sum()),
        "aged_90_plus_exact": int(old_exact.sum()),
    }
