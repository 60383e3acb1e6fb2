"""The hierarchies section of Explore trade-offs (Step 3): per quasi-identifier, the kind of
generalisation hierarchy and its settings, kept in the workspace (PDPC guide, Annex A:
Generalisation). The page calls :func:`hierarchies_section` and :func:`hierarchy_for`;
widget keys (``to_kind_<column>``, ``to_w_<column>``, ``to_map_<column>``,
``to_up_<column>``) stay as they were on the page, since tests and the workspace's
widget registry name them."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.hierarchy import Hierarchy
from core.markup import escape_markdown
from ui.page_errors import continue_on_error
from ui.state import classify, presentation, tradeoffs, widgets
from ui.state import hierarchies as kept_hierarchies
from ui.state.session import HIERARCHY_CHOICES_KEY
from ui.tradeoffs import gaps_in_words, hierarchy_from_choice, hierarchy_gaps

#: The kinds of hierarchy a column can get, the first the default.
KINDS = ["auto", "numeric", "dates", "masking", "grouping", "suppress", "upload"]


def hierarchy_inputs(data: pd.DataFrame, column: str) -> dict:
    """The hierarchy chosen for ``column`` (kind and its settings), kept in the workspace."""
    left, right = st.columns([1, 2])
    before = tradeoffs.hierarchy_choices().get(column, {})  # across pages and restarts
    kind = left.selectbox(
        escape_markdown(column),
        KINDS,
        key=widgets.showing(HIERARCHY_CHOICES_KEY, f"to_kind_{column}"),
        index=KINDS.index(before.get("kind", "auto")),
    )
    spec: dict = {"kind": kind}
    if kind == "numeric":
        spec["widths"] = right.text_input(
            "Band widths",
            before.get("widths", "5, 10, 20, 40"),
            key=widgets.showing(HIERARCHY_CHOICES_KEY, f"to_w_{column}"),
        )
    elif kind == "grouping":
        spec["mapping"] = right.text_area(
            "value: group, one a line",
            before.get("mapping", ""),
            key=widgets.showing(HIERARCHY_CHOICES_KEY, f"to_map_{column}"),
        )
    elif kind == "upload":
        upload = right.file_uploader("ARX hierarchy (CSV, ';')", key=f"to_up_{column}")
        spec["name"] = before.get("name")
        if upload is not None:
            with continue_on_error(right):
                spec["name"] = kept_hierarchies.keep_uploaded_hierarchy(column, upload.getvalue())
        if spec["name"]:
            right.caption(
                f"Using the uploaded hierarchy {escape_markdown(repr(spec['name']))}, kept in the "
                "workspace."
            )
            with continue_on_error(right):
                hierarchy = kept_hierarchies.stored_hierarchy(spec["name"])
                if gaps := hierarchy_gaps(data[column], hierarchy):
                    right.warning(
                        escape_markdown(gaps_in_words(column, spec["name"], gaps)),
                        icon=":material/warning:",
                    )
    tradeoffs.set_hierarchy_choice(column, spec)
    return spec


def hierarchies_section(data: pd.DataFrame, qi: list[str]) -> dict[str, dict]:
    """The "Hierarchies" expander: each quasi-identifier's choice, by column."""
    with st.expander("Hierarchies", expanded=False):
        specs = {column: hierarchy_inputs(data, column) for column in qi}
        presentation.explain(
            "ARX format: one line per value, 'value;level 1;...;*'.",
            "PDPC guide, Annex A: Generalisation",
        )
    return specs


def hierarchy_for(data: pd.DataFrame, column: str, spec: dict) -> Hierarchy:
    """The hierarchy ``spec`` describes for ``column`` of ``data`` ("auto" by the kind Step 1
    found in the column: :mod:`core.auto_hierarchy`)."""
    detected = {str(c): s.kind for c, s in classify.suggestions().items()}.get(column)
    return hierarchy_from_choice(
        data[column].rename(column),
        spec,
        stored=kept_hierarchies.stored_hierarchy,
        detected=detected,
    )
