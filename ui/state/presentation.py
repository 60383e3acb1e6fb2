"""What every page draws the same way: the sidebar, the explanation under a figure,
training mode, the button that asks before replacing work, and the words for which table
a page works on."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from core.figure_names import ANNEX_D_P_REID
from core.formatting import fmt_change, fmt_count, fmt_probability
from core.markup import code_span, escape_markdown
from core.recipe import describe_step
from ui.state.classify import role_problem, roles
from ui.state.keys import missing_keys
from ui.state.replay import current_data
from ui.state.risk import current_annex_d, current_risk, start_from_guide_values
from ui.state.session import has_data, recipe, session, source_name
from ui.state.workspace import SYNC_NOTE_KEY, workspace_path


def work_at_stake() -> str | None:
    """What replacing the data set would set aside, in words (None: nothing worth asking)."""
    if not has_data():
        return None
    steps, confirmed = len(recipe().steps), len(roles())
    if not steps and not confirmed:
        return None
    # The name comes from the data's owner: escaped, as it is shown in Markdown.
    return (
        f"the data set '{escape_markdown(source_name())}' with its recipe ({steps} "
        f"step(s)) and {confirmed} confirmed role(s)"
    )


def ask_before_replacing(
    key: str, label: str, action: Callable[[], None], on_click: Callable[[], None] | None = None
) -> None:
    """A button whose ``action`` replaces the data set or recipe: if work would be set
    aside, it asks first (the old state stays in the workspace's history either way).
    ``on_click`` is part of the action, run as a callback before the script (e.g. to set a
    widget drawn earlier): on the button itself when nothing is at stake, else on "Yes,
    replace" only, so that "Cancel" leaves everything as it was (issue 29)."""
    asking = f"{key}_confirm"

    def unasked() -> None:
        if on_click is not None and work_at_stake() is None:
            on_click()

    if st.button(label, key=key, on_click=unasked):
        if work_at_stake() is None:
            action()
            return
        session()[asking] = True
    if not session().get(asking):
        return
    stake = work_at_stake()
    if stake is None:  # nothing at stake any more (e.g. the data was replaced meanwhile)
        session().pop(asking, None)
        return
    st.warning(
        f"This replaces {stake}. They stay in the workspace's history (History page). Continue?",
        icon=":material/help:",
    )
    yes, no = st.columns(2)
    if yes.button("Yes, replace", key=f"{key}_yes", type="primary", on_click=on_click):
        session().pop(asking, None)
        action()
    if no.button("Cancel", key=f"{key}_no"):
        session().pop(asking, None)
        st.rerun()


def recipe_label() -> str:
    """Which table a page works on, in words: "the original table" or "the table after
    7 recipe steps"."""
    steps = len(recipe().steps)
    if steps == 0:
        return "the original table"
    return f"the table after {steps} recipe step{'s' if steps != 1 else ''}"


# --- presentation ----------------------------------------------------------------------


def start_training_mode() -> None:
    """Button callback: turn training mode on (callbacks run before the sidebar's toggle
    is drawn, so its value may still change)."""
    session()["training_mode"] = True


def start_workshop() -> None:
    """Button callback of the workshop: training mode on, and the guide's Annex D values
    (not the assumptions another project left in the workspace)."""
    start_training_mode()
    start_from_guide_values()


def training_mode() -> bool:
    return bool(session().get("training_mode", False))


_LAST_SOURCE = "explain_last_source"


def explain(sentence: str, section: str, *, training: str | None = None) -> None:
    """One plain sentence and its guide section under a figure; more in training mode.

    A source is named once for a run of captions citing it, not under every one of them
    (the sidebar, drawn first on every run, starts the count afresh).
    """
    if session().get(_LAST_SOURCE) == section:
        st.caption(sentence)
    else:
        st.caption(f"{sentence} *Source: {section}.*")
        session()[_LAST_SOURCE] = section
    if training and training_mode():
        st.info(training, icon=":material/school:")


#: Recipe steps listed in the sidebar (the latest ones); Techniques lists them all.
SIDEBAR_STEPS = 4
K_HELP = (
    "The number of records in the smallest group of records that look alike on the "
    "quasi-identifiers: each of them could be any of k people (PDPC guide, Step 4)."
)


def sidebar() -> None:
    """The loaded table, the current risk and the recipe, shown on every page."""
    session().pop(_LAST_SOURCE, None)  # each run names its sources afresh (see explain)
    with st.sidebar:
        st.toggle(
            "Training mode",
            key="training_mode",
            help="Longer explanations and the guide's worked examples, for workshops.",
        )
        st.caption(f"Workspace: {escape_markdown(workspace_path().name)} (History to switch)")
        if session().get("workspace_error"):
            st.warning(escape_markdown(session()["workspace_error"]), icon=":material/warning:")
        if session().get("restore_note"):
            st.warning(escape_markdown(session()["restore_note"]), icon=":material/history:")
        note = session().pop(SYNC_NOTE_KEY, None)
        if note:  # shown once, on the rerun that took the change over
            st.info(escape_markdown(note), icon=":material/sync:")
        if not has_data():
            st.caption("No table loaded.")
            return
        if missing_keys():
            st.caption(
                "The recipe needs an HMAC key this session does not have: type it on "
                "the page to see the data and its risk."
            )
            return
        data = current_data()
        st.markdown(
            f"**Data:** {code_span(source_name())}  \n{len(data):,} records, "
            f"{len(data.columns)} columns"
        )
        report = None if role_problem() else current_risk(data)
        if role_problem():
            st.caption(
                "The confirmed roles do not fit this table: confirm them again on **Classify**."
            )
        elif report is None:
            st.caption("Mark indirect identifiers on **Classify** to see the risk.")
        else:
            verdict = current_annex_d()
            st.metric("k (smallest group)", fmt_count(report.k), help=K_HELP)
            if verdict is not None:
                # The arrow points up when the Annex D P(re-ID) is above the threshold (red).
                # A margin within float rounding (0.6 / 6 - 0.1) reads 0, not -1.39e-17.
                margin = fmt_change(verdict.p_reid, verdict.threshold)
                st.metric(
                    ANNEX_D_P_REID.name,
                    fmt_probability(verdict.p_reid),
                    delta=f"{margin} against the threshold {fmt_probability(verdict.threshold)}",
                    # At the threshold (acceptable): no arrow, no colour, not a red "up 0".
                    delta_color="off" if margin == "0" else "inverse",
                    delta_arrow="off" if margin == "0" else "auto",
                    help=ANNEX_D_P_REID.help(),
                )
                if verdict.acceptable:
                    st.success("Within the Annex D threshold", icon=":material/check_circle:")
                else:
                    st.error(
                        f"Above the Annex D threshold: k of at least {verdict.min_k} would meet it",
                        icon=":material/warning:",
                    )
            disclosure = report.attribute_disclosure()
            if disclosure is not None:
                st.warning(
                    "l-diversity = 1: a group reveals its "
                    f"{escape_markdown(report.sensitive)} value (see Risk).",
                    icon=":material/visibility:",
                )
        steps = recipe().steps
        st.markdown(f"**Recipe:** {len(steps)} step(s)")
        shown = steps[-SIDEBAR_STEPS:]
        if len(steps) > len(shown):
            st.caption(f"... {len(steps) - len(shown)} earlier (all on Techniques)")
        for i, step in enumerate(shown, start=len(steps) - len(shown) + 1):
            st.caption(f"{i}\\. {escape_markdown(describe_step(step))}")
