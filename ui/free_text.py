"""Free text on the De-identify page (PDPC guide, Step 2): scan text columns, offer redaction.

The scan and the step come from the library (:mod:`core.detect.text`, the ``redact_text``
recipe step); this module only picks the columns, caches the scan per recipe and draws
the section, so the page stays thin and the same detectors serve every page.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.detect import entity_kinds, label_of, scan_table
from core.errors import SecretError
from core.markup import code_span
from core.release.kept_identifiers import treatment
from core.techniques.redaction import REDACTION_MODES
from core.text_rescan import COUNTERS, MIN_REVIEWED_CELLS, rescan
from ui import data_steps
from ui.page_errors import error_text
from ui.progress import working
from ui.state import cache, classify, keys, presentation, replay, session

STEP2 = "PDPC guide, Step 2 (De-identify your data)"
_TEXT_KINDS = ("free_text", "text")


def text_columns(data: pd.DataFrame) -> list[str]:
    """Columns of the current table that Step 1 found to be free text or unpatterned text."""
    suggestions = classify.suggestions()
    return [c for c in data.columns if c in suggestions and suggestions[c].kind in _TEXT_KINDS]


def _is_text(values: pd.Series) -> bool:
    return pd.api.types.is_string_dtype(values) or pd.api.types.is_object_dtype(values)


def counts_table(data: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """Entities per column (rows) and kind (columns), from one scan cached per recipe."""
    if not columns:
        return pd.DataFrame()

    def scan() -> pd.DataFrame:
        cells = len(data) * len(columns)
        with working(f"Scanning {cells:,} cells of free text for names, numbers and addresses..."):
            return scan_table(data, columns)

    found = cache.memo("free_text_scan", scan, tuple(map(str, columns)))
    if found.empty:
        return pd.DataFrame(index=pd.Index(columns, name="column"))
    table = found.pivot_table(
        index="column", columns="kind", values="cells", aggfunc="sum", fill_value=0
    )
    return table.reindex(columns, fill_value=0).astype(int)


def redacted_columns() -> list[str]:
    """Columns of the current table that a ``redact_text`` step of the recipe redacted."""
    steps = session.recipe().steps
    data = replay.current_data()
    return [c for c in data.columns if "redact_text" in treatment(steps, str(c)).forms]


def redact_step(
    columns: list[str], kinds: list[str], mode: str, key_env: str, *, residue: bool = True
) -> dict[str, Any]:
    """The ``redact_text`` recipe step for the choices made on the page."""
    step: dict[str, Any] = {"step": "redact_text", "columns": list(columns), "mode": mode}
    if residue:
        step["residue"] = True
    if kinds and set(kinds) != set(entity_kinds()):
        step["kinds"] = list(kinds)
    if mode == "pseudonym":
        step["key_env"] = key_env
    return step


def _rescan(values: pd.Series) -> dict[str, int]:
    with working(f"Rescanning {len(values):,} redacted cells of '{values.name}'..."):
        return rescan(values)


def rescan_section() -> None:
    """Each redacted column before and after, and what the release check's rescan still
    finds in it (the same rescan, core.text_rescan): the page and the check agree."""
    columns = redacted_columns()
    if not columns:
        return
    st.markdown("#### Redacted free text: what the rescan still finds")
    original, data = session.original(), replay.current_data()
    for column in columns:
        found = cache.memo("rescan", lambda c=column: _rescan(data[c]), column)
        before, after = data_steps.before_after(original, data, [column], rows=5)
        left, right = st.columns(2)
        left.caption(f"{code_span(column)} before")
        left.dataframe(before, width="stretch")
        right.caption(f"{code_span(column)} after the recipe")
        right.dataframe(after, width="stretch")
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
                f"The release check will refuse {code_span(column)} while the rescan finds "
                'something: add a redaction with "also replace digit runs, block '
                'numbers and name-like words" ticked, or remove the column.',
                icon=":material/search:",
            )
        else:
            st.success(
                f"The rescan finds nothing in {code_span(column)}. Before release, a "
                f"person reads at least {MIN_REVIEWED_CELLS} of its cells and signs "
                "for it on the **Report** page.",
                icon=":material/check_circle:",
            )
    presentation.explain(
        "The scanner, plus runs of 5 or more digits, block and unit numbers and "
        "name-like words in any case: the same rescan as the release check.",
        STEP2,
    )


def section() -> None:
    """The free-text section of the De-identify page."""
    data = replay.current_data()
    rescan_section()
    st.markdown("#### Free text: identifiers inside text cells")
    candidates = text_columns(data)
    others = [c for c in data.columns if c not in candidates and _is_text(data[c])]
    columns = st.multiselect(
        "Text columns to scan", [*candidates, *others], default=candidates, key="ft_columns"
    )
    if not columns:
        st.info(
            "No free-text column in the current table (Step 1 found none); pick a text "
            "column above to scan it anyway."
        )
        return
    counts = counts_table(data, columns)
    if not counts.empty:  # a table of no kind at all would be an empty frame: said below
        st.dataframe(counts, width="stretch")
        presentation.explain(
            "Cells holding at least one name, email, phone number, ID, address, date... found "
            "by the scanner, per column and kind. Detection is not perfect: read a sample too.",
            STEP2,
        )
    found = [k for k in counts.columns if counts[k].sum() > 0] if not counts.empty else []
    # The rescan reads every cell again (as long as the scan itself): only needed when the
    # scanner found nothing to redact (issue 29: 11 s more on 50,000 notes, unannounced).
    residual = (
        []
        if found
        else [c for c in columns if cache.memo("rescan", lambda c=c: _rescan(data[c]), c)]
    )
    if not found and not residual:
        st.success("The scanner found no identifier inside these columns.")
        return
    if not found:  # the rescan's counters still find something the scanner does not
        st.info(
            "The scanner finds no identifier it recognises, but the rescan still counts "
            f"digit runs, block numbers or name-like words in {', '.join(map(code_span, residual))}: "
            "add a redaction with the option below ticked."
        )
    kinds = st.multiselect(
        "Kinds to redact",
        list(entity_kinds()),
        default=found,
        format_func=lambda k: f"{k} -> [{label_of(k)}]",
        key="ft_kinds",
    )
    mode = st.radio(
        "Replace each one by",
        list(REDACTION_MODES),
        horizontal=True,
        key="ft_mode",
        format_func={
            "label": "its label, e.g. [NAME]",
            "pseudonym": "a keyed pseudonym per entity, e.g. [NAME-3f2a9c1b]",
        }.get,
    )
    key_env = "ANON_PSEUDONYM_KEY"
    if mode == "pseudonym":
        key_env = st.text_input(
            "Environment variable holding the key (its name starts with ANON_)",
            value=key_env,
            key="ft_key_env",
        ).strip()
        try:
            source = keys.key_source(key_env)
        except SecretError as error:
            st.error(error_text(error), icon=":material/error:")
            return
        if source is None:
            st.warning(
                f"{code_span(key_env)} is not set: set it in the app's environment before "
                "starting, or type a key for this session where the keyed HMAC method "
                "is chosen above.",
                icon=":material/key:",
            )
    residue = st.checkbox(
        "Also replace digit runs, block numbers and name-like words in any "
        "case (what the release check's rescan counts)",
        value=True,
        key="ft_residue",
    )
    step = redact_step(columns, kinds, mode, key_env, residue=residue)
    if st.button(
        "Add the redaction to the recipe",
        key="ft_add",
        icon=":material/add:",
        disabled=not kinds and not residue,
    ):
        rows = len(replay.current_data())
        with working(f"Redacting free text in {rows:,} records ({', '.join(columns)})..."):
            error = data_steps.add_steps([step])
        if error:
            st.error(error_text(error), icon=":material/error:")
        else:
            st.rerun()
