"""Checks every hand-marked evaluation set passes (eval5, eval6, eval7, eval8): its CSV
files are what its notes.txt says, and each span sits on its text. Used by
tests/test_bench_eval5.py, test_bench_eval6.py, test_bench_eval7.py and
tests/scripts/test_bench_eval8.py; no detector runs here."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from bench.eval_build import NEUTRAL
from bench.eval_common import read_notes, read_spans


def spans_and_notes_fixtures(folder: Path):
    """The module-scoped fixtures ``spans`` and ``notes`` of the set in ``folder`` (a test
    module binds them to those names: ``spans, notes = spans_and_notes_fixtures(DATA)``)."""

    @pytest.fixture(scope="module")
    def spans() -> pd.DataFrame:
        return read_spans(folder)

    @pytest.fixture(scope="module")
    def notes() -> pd.DataFrame:
        return read_notes(folder)

    return spans, notes


def assert_csv_is_what_notes_txt_says(
    spans: pd.DataFrame, notes: pd.DataFrame, texts: list[str], marked: list[tuple]
) -> None:
    """notes.csv holds the parsed notes and spans.csv the parsed spans, in order."""
    assert notes["text"].tolist() == texts
    assert [tuple(s) for s in spans.itertuples(index=False)] == [tuple(m) for m in marked]


def assert_spans_sit_on_their_text(
    spans: pd.DataFrame,
    notes: pd.DataFrame,
    kinds: tuple[str, ...],
    origins: tuple[str, ...],
    direct_kinds: tuple[str, ...] | None = None,
) -> None:
    """Each span cuts its text out of its note, unpadded; its kind is known; a name has an
    origin and nothing else has one; ``direct`` says whether the kind is a direct one."""
    for span in spans.itertuples(index=False):
        assert notes["text"][span.note][span.start : span.end] == span.text, span
        assert span.text == span.text.strip() and span.text, span
        assert span.kind in (*kinds, NEUTRAL), span
        assert (span.origin in origins) if span.kind == "name" else span.origin == "", span
        if direct_kinds is not None:
            assert span.direct == (span.kind in direct_kinds), span


def assert_distinct_notes_with_every_kind_and_origin(
    spans: pd.DataFrame,
    notes: pd.DataFrame,
    kinds: tuple[str, ...],
    origins: tuple[str, ...],
    at_least: int,
) -> None:
    """At least ``at_least`` notes, no two alike, every kind marked somewhere and names of
    every origin."""
    assert len(notes) >= at_least
    assert not notes["text"].duplicated().any()
    assert set(kinds) <= set(spans["kind"])
    assert set(origins) == set(spans.loc[spans["kind"] == "name", "origin"])


def assert_spans_do_not_overlap(spans: pd.DataFrame) -> None:
    """No two spans of a note share a character."""
    ordered = spans.sort_values(["note", "start"])
    same_note = ordered["note"].eq(ordered["note"].shift())
    assert not (same_note & (ordered["start"] < ordered["end"].shift())).any()
