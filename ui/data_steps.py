"""Glue for the Data, Classify and De-identify pages (PDPC guide, Steps 1 and 2).

Small functions the pages call so that the pages stay thin and the behaviour can be
tested without a browser: reading an upload once and reporting errors, the roles table
for the editor, and the Step 2 recipe steps chosen per direct identifier.
Session state is only touched through :mod:`ui.state`.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.roles import Role, Suggestion
from ui.page_errors import error_text
from ui.progress import working
from ui.state import classify, loading, replay, session, widgets

ROLE_VALUES = [role.value for role in Role]

# --- Data page --------------------------------------------------------------------------


def handle_upload(data: bytes, name: str, token: str) -> tuple[bool, str | None]:
    """Load an uploaded file once per ``token``: (loaded just now, error message or None).

    On failure the previous table stays loaded and the error is remembered, so later
    reruns with the same file in the uploader show it again without re-reading the file.
    """
    last = loading.last_upload()
    if last is not None and last[0] == token:
        return False, last[1]
    try:
        loading.load_upload(data, name)
    except AnonymisationError as error:
        loading.set_last_upload(token, str(error))
        return False, str(error)
    loading.set_last_upload(token, None)
    return True, None


def receive_upload(data: bytes, name: str, token: str) -> None:
    """Page side of :func:`handle_upload`: show the error, or rerun with the new table."""
    with working(f"Reading '{name}' ({len(data) / 1e6:,.1f} MB)..."):
        loaded, error = handle_upload(data, name, token)
    if error is not None:
        st.error(
            f"{error_text(error)} The previous table is still loaded.",
            icon=":material/error:",
        )
    elif loaded:
        st.rerun()  # redraw the sidebar and the preview with the new table


def load_sample_or_error(name: str, *, fresh: bool = False) -> None:
    try:
        loading.load_sample(name, fresh=fresh)
    except AnonymisationError as error:
        st.error(
            f"{error_text(error)} The previous table is still loaded.",
            icon=":material/error:",
        )
        return
    st.rerun()


def source_details(df: pd.DataFrame) -> dict[str, Any]:
    """How the table was read (core.io records it in ``df.attrs["source"]``), without blanks."""
    source = df.attrs.get("source") or {}
    names = {"\t": "tab", ",": "comma", ";": "semicolon", "|": "pipe"}
    details = {k: v for k, v in source.items() if v is not None}
    if "name" in details:  # a sample's full path would show where the app is installed
        details["name"] = PurePath(str(details["name"])).name
    if "sep" in details:
        details["sep"] = f"{names.get(details['sep'], repr(details['sep']))} ({details['sep']!r})"
    return details


#: Seconds the browser waits, once it has the Data page of a large table, before it asks
#: for the run that computes the column profile (a timer in the browser: it fires when the
#: page's own drawing leaves its main thread free). Headless Chromium on the shared 2-core
#: machine took 0.8-1.4 s from the preview's bytes to the table on screen; that rerun
#: (0.2-0.3 s of the server's CPU, and the whole page sent again) slowed the table when it
#: came after 1 s: 1.22x the bare app against 1.16x after 2 s (8 rounds each, issue 31).
PROFILE_RERUN_S = 2.0


@st.fragment(run_every=PROFILE_RERUN_S)
def profile_after_the_preview() -> None:
    """Called by the Data page's run that left a large table's column profile for later
    (:func:`ui.state.loading.profile_waits`): Streamlit's timer for this fragment makes the
    browser ask for it again after :data:`PROFILE_RERUN_S`, and that call reruns the whole
    page, which computes and draws the profile. A full rerun also stops the timer (the
    browser drops a fragment's timer on every full run), so it fires once."""
    if loading.profile_asked_this_run():
        return  # the page's own run: the preview goes out first
    st.rerun()


def single_column_hint(df: pd.DataFrame) -> str | None:
    """A hint when a text table was read as one column: often the wrong delimiter."""
    source = df.attrs.get("source") or {}
    if df.shape[1] == 1 and source.get("format") not in ("excel", "parquet"):
        return (
            "Only one column was found. If the file uses another delimiter (e.g. spaces), "
            "save it as CSV with commas, semicolons, tabs or pipes and upload it again."
        )
    return None


# --- Classify page ----------------------------------------------------------------------


def roles_table(suggestions: dict[str, Suggestion], roles: dict[str, Role]) -> pd.DataFrame:
    """One row per column for the roles editor: the role shown is the confirmed one, or
    the suggestion until the user saves or accepts (PDPC guide, Step 1)."""
    rows = []
    for column, suggestion in suggestions.items():
        confirmed = roles.get(column)
        rows.append(
            {
                "column": str(column),
                "role": (confirmed or suggestion.role).value,
                "confirmed": confirmed is not None,
                "suggested": suggestion.role.value,
                "found": suggestion.kind.replace("_", " "),
                "unsure": suggestion.uncertain,
                "reason": suggestion.reason,
                "technique": suggestion.technique,
            }
        )
    columns = ["column", "role", "confirmed", "suggested", "found", "unsure", "reason", "technique"]
    return pd.DataFrame(rows, columns=columns)


def roles_from_table(table: pd.DataFrame, columns: list[Any]) -> dict[Any, Role]:
    """Roles from the edited table, keyed by the data's own column labels."""
    by_name = {str(c): c for c in columns}
    return {
        by_name[name]: Role(role)
        for name, role in zip(table["column"], table["role"], strict=True)
        if name in by_name and role in ROLE_VALUES
    }


def suggested_roles(suggestions: dict[Any, Suggestion]) -> dict[Any, Role]:
    return {column: s.role for column, s in suggestions.items()}


def role_widget_key(position: int) -> str:
    """The key of the Classify page's role picker of the column at ``position``; it names
    the data set too, so a picker never keeps a choice made for another table."""
    return f"role_pick_{session.data_set_id()[:16]}_{position}"


def accept_all_suggestions() -> None:
    """Button callback: confirm every suggested role and reset the pickers' choices."""
    suggestions = classify.suggestions()
    classify.set_roles(suggested_roles(suggestions))
    for position in range(len(suggestions)):
        widgets.forget_widget(role_widget_key(position))


# --- De-identify page -------------------------------------------------------------------

METHODS = {
    "keep": "Keep for now",
    "remove": "Remove (attribute suppression)",
    "random": "Pseudonymise: random tokens",
    "hmac": "Pseudonymise: keyed HMAC (persistent)",
    "double": "Double coding",
}


def deidentify_steps(choices: dict[Any, str], *, key_env: str) -> list[dict[str, Any]]:
    """Recipe steps for Step 2: one 'remove' step for all removed columns, then one
    'pseudonymise' step per pseudonymised column (the key itself never enters a step)."""
    steps: list[dict[str, Any]] = []
    removed = [column for column, method in choices.items() if method == "remove"]
    if removed:
        steps.append({"step": "remove", "columns": removed})
    for column, method in choices.items():
        if method in ("random", "double"):
            steps.append({"step": "pseudonymise", "column": column, "method": method})
        elif method == "hmac":
            steps.append(
                {"step": "pseudonymise", "column": column, "method": "hmac", "key_env": key_env}
            )
    return steps


def add_steps(steps: list[dict[str, Any]]) -> str | None:
    """Add all steps as one change (one undo), or none of them: the error message or None."""
    new = session.recipe()
    try:
        for step in steps:
            new = new.add(step)
        replay.replace_recipe(new)
    except AnonymisationError as error:
        return str(error)
    return None


def before_after(
    before: pd.DataFrame, after: pd.DataFrame, columns: list[Any], *, rows: int = 10
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The first ``rows`` records of the affected columns, before and after (same records)."""
    index = after.index[:rows]
    shown_before = before.loc[before.index.intersection(index), [c for c in columns if c in before]]
    return shown_before, after.loc[index, [c for c in columns if c in after]]
