"""The Report page's ways out of a refused release, other than "release anyway" (issue 25).

Each refusal of the release check (:mod:`core.release.gate`) that is fixed by a decision
rather than by a recipe step is fixed here, and recorded in the recipe and the workspace:
why a column Step 1 doubts is not a quasi-identifier (``not_quasi_identifiers``), who
read a redacted free-text column (``reviewed_text``, with the before/after of the column
and what the rescan still finds), and the privacy-model targets (``targets``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.markup import code_span, escape_markdown
from core.measures.models.registry import MODELS, TARGET_MODELS
from core.release.gate import ReleaseCheck
from core.text_rescan import COUNTERS, MIN_REVIEWED_CELLS, rescan
from ui.page_errors import error_text
from ui.state import cache, classify, presentation, release, replay, session

STEP1 = "PDPC guide, Step 1 (Know your data)"
STEP2 = "PDPC guide, Step 2 (De-identify your data)"
STEP4 = "PDPC guide, Step 4 and Annex C"


def decisions_section(check: ReleaseCheck) -> None:
    """A reason field per column Step 1 doubts that the recipe gives no place."""
    decided = release.release_decisions()
    if not check.undecided and not decided:
        return
    st.markdown("#### Columns Step 1 doubts")
    for column in check.undecided:
        reason = st.text_input(
            f"Why is {code_span(column)} not a quasi-identifier?",
            key=f"decide_{column}",
            placeholder="e.g. nobody outside holds it",
        )
        if st.button(
            f"Record the reason for {column}",
            key=f"decide_button_{column}",
            disabled=not reason.strip(),
        ):
            release.set_release_decision(column, reason)
            st.rerun()
    for column, reason in decided.items():
        st.caption(
            f"{code_span(column)}: not a quasi-identifier, because {escape_markdown(reason)}"
        )
    presentation.explain(
        "Step 1 found these columns could identify a person with other data. "
        "Mark them indirect on Classify (they are then counted in k), remove "
        "them, or record here why they are not: the reason goes into the "
        "recipe and the report.",
        STEP1,
    )


def when(at: str) -> str:
    """A review's moment as people read it: '2026-11-28 00:02 UTC' for the recorded
    '2026-11-28T00:02:48+00:00'; a date alone, or text that is no date, as written."""
    try:
        moment = dt.datetime.fromisoformat(str(at))
    except ValueError:
        return escape_markdown(at)
    if len(str(at)) <= len("2026-11-28"):
        return str(at)
    if moment.tzinfo is None:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def free_text_section(check: ReleaseCheck) -> None:
    """Before/after of each free-text column the release keeps, what the rescan still
    finds, and the reviewer's signature."""
    if not check.free_text:
        return
    st.markdown("#### Free text: read it before you release it")
    original, released = session.original(), replay.current_data()
    reviews = release.text_reviews()
    for column in check.free_text:
        if column not in released.columns:
            continue
        found = cache.memo("rescan", lambda c=column: rescan(released[c]), column)
        # As many records as the review asks a person to read, each cell in full: st.table
        # wraps (a data grid showed 10 records, cut at its width). Its cells are Markdown
        # and hold the data's text: escaped.
        shown = released.index[:MIN_REVIEWED_CELLS]
        st.caption(
            f"{code_span(column)} before and as released (the first {len(shown):,} of "
            f"{len(released):,} records)"
        )
        st.table(
            pd.DataFrame(
                {
                    "before": original[column].reindex(shown).fillna("").map(escape_markdown),
                    "as released": released.loc[shown, column].fillna("").map(escape_markdown),
                }
            ),
            hide_index=True,
        )
        if found:
            st.table(
                pd.DataFrame(
                    {
                        "still found": [COUNTERS.get(k, k) for k in found],
                        "cells": list(found.values()),
                    }
                )
            )
            st.warning(
                f"The rescan of {code_span(column)} still finds something: on "
                '**De-identify**, redact it with "also replace digit runs and '
                'name-like words" (or remove the column).',
                icon=":material/search:",
            )
        else:
            st.success(f"The rescan finds nothing in {code_span(column)}.")
        cells = int(released[column].notna().sum())
        if column in reviews:
            review = reviews[column]
            st.caption(
                f"Reviewed by {escape_markdown(review['by'])} on {when(review['at'])} "
                f"({review['rows_checked']:,} cells read)."
            )
            continue
        by = st.text_input("Reviewed by", key=f"review_by_{column}")
        rows = st.number_input(
            "Cells read",
            min_value=0,
            max_value=cells,
            step=1,
            value=min(MIN_REVIEWED_CELLS, cells),
            key=f"review_rows_{column}",
        )
        if st.button(
            f"I reviewed {column}",
            key=f"review_button_{column}",
            disabled=not by.strip() or bool(found),
        ):
            try:
                release.set_text_review(column, by=by, rows_checked=int(rows))
            except AnonymisationError as error:
                st.error(error_text(error), icon=":material/error:")
            else:
                st.rerun()
    presentation.explain(
        "The redaction recognises what its detectors know; a person reads at "
        f"least {MIN_REVIEWED_CELLS} cells (all, if fewer) of the column as it "
        "will be released and signs for it. The review holds for that text only: "
        "a change to the recipe that changes the column asks for a new one.",
        STEP2,
    )


def targets_section(check: ReleaseCheck) -> None:
    """Choose the privacy-model targets the release must meet (the recipe's ``targets``)."""
    targets = release.release_targets()
    # Step 1 named a sensitive column: the road from the sidebar's l-diversity warning to a
    # target starts here open, on l-diversity (issue 30).
    sensitive = classify.sensitive_column(replay.current_data())
    with st.expander(
        "Privacy-model targets (l, t, delta, beta, (alpha,k), k-map)",
        expanded=bool(targets) or sensitive is not None,
    ):
        for _model, requirement, failing in check.targets:
            mark = "met" if failing == 0 else f"{failing:,} records fail"
            st.caption(f"{escape_markdown(requirement)}: {mark}")
        if sensitive is not None and not targets:
            st.info(
                escape_markdown(
                    f"'{sensitive}' is the sensitive attribute (Step 1): k alone lets a group "
                    f"whose records share one value of '{sensitive}' tell it to anyone who "
                    "places a person in the group. Require l-diversity (below) or t-closeness "
                    "or β-likeness for it."
                ),
                icon=":material/visibility:",
            )
        model = st.selectbox(
            "Model",
            TARGET_MODELS,
            key="target_model",
            index=TARGET_MODELS.index("l_diversity") if sensitive is not None else 0,
            format_func=lambda name: MODELS[name].title,
        )
        spec: dict[str, Any] = {}
        if MODELS[model].needs_sensitive:
            columns = [str(c) for c in replay.current_data().columns]
            chosen = str(sensitive)  # Classify's choice
            spec["sensitive"] = st.selectbox(
                "Sensitive column",
                columns,
                key="target_sensitive",
                index=columns.index(chosen) if chosen in columns else 0,
            )
        if model == "l_diversity":
            spec["kind"] = st.selectbox(
                "Kind", ["distinct", "entropy", "recursive"], key="target_l_kind"
            )
            if spec["kind"] == "recursive":
                spec["c"] = st.number_input("c", min_value=0.1, value=3.0, key="target_c")
        main = MODELS[model].main  # the level asked first, then the rest
        for parameter in (main, *(p for p in MODELS[model].parameters if p is not main)):
            if parameter.example is None:
                continue  # kind and c above; the rest keep their defaults
            name, default = parameter.key, parameter.example
            whole = isinstance(default, int) or (
                model == "l_diversity" and spec.get("kind") != "entropy"
            )
            # A whole number is typed and shown as one ('5', not '5.00'). Entropy l is the
            # one real l: its own key, as a widget keeps the type of its first value.
            key = f"target_{name}" + ("_entropy" if model == "l_diversity" and not whole else "")
            value = (
                st.number_input(name, min_value=1, value=int(default), step=1, key=key)
                if whole
                else st.number_input(name, value=float(default), key=key)
            )
            spec[name] = int(value) if whole else float(value)
        b1, b2 = st.columns(2)
        if b1.button("Require this target", key="target_add"):
            try:
                release.set_release_targets({**targets, model: spec})
            except AnonymisationError as error:
                st.error(error_text(error), icon=":material/error:")
            else:
                st.rerun()
        if targets and b2.button("Remove every target", key="target_clear"):
            release.set_release_targets({})
            st.rerun()
        presentation.explain(
            "k protects against being found; these models protect what a group "
            "reveals about its members (a sensitive value shared by the whole "
            "group). The release check judges them on the released table.",
            STEP4,
        )
