"""Step 3 · Apply techniques: Annex A techniques as recipe steps, with a preview first."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.markup import escape_markdown
from core.measures.classes import k_anonymity
from core.recipe import describe_step
from core.survey_risk import sample_frequencies
from core.techniques.registry import STEPS
from core.utility import column_loss
from ui import guide_examples
from ui.page_errors import continue_on_error, error_text
from ui.state import classify, loading, presentation, replay, risk, session
from ui.step_forms import TECHNIQUE_TITLES, TECHNIQUES, technique_form

if not loading.require_data() or not classify.require_known_columns():
    st.stop()

st.title("Techniques")
guide_examples.show_workshop_task("Techniques")
presentation.explain(
    "Apply techniques to the indirect identifiers, then check the risk (Step 4); repeat until "
    "k reaches 3, 5 or more.",
    "PDPC guide, Step 3",
    training="Annex C's taxi example: generalise Age to 10-year bands (21 to 30, 31 to 40), "
    "group occupations (database administrator and programmer become IT), then suppress the "
    "records still in groups smaller than 5 (the banker).",
)
guide_examples.show_annex_c_taxi()
data = replay.current_data()
qi = classify.quasi_identifiers(data)


def show_preview(step: dict, column: str | None) -> None:
    """Before/after of ``column`` and the change in k and information, without adding."""
    with st.spinner("Running the step on the current table..."):
        preview = replay.preview_step(step)
    after = preview.data
    for message in preview.warnings:
        st.warning(escape_markdown(message))
    if step["step"] == "aggregate":
        st.dataframe(after.head(20))
    elif column is not None and column in data.columns:
        before = data[column].head(20)
        shown = {f"{column} before": before.astype(str)}
        if column in after.columns:
            shown[f"{column} after"] = after[column].reindex(before.index).astype(str)
        else:
            shown[f"{column} after"] = "(column removed)"
        shown["record kept"] = before.index.isin(after.index)
        st.dataframe(pd.DataFrame(shown), hide_index=False)
    left, middle, right = st.columns(3)
    left.metric("Records after", f"{len(after):,}", delta=len(after) - len(data))
    qi_after = [c for c in qi if c in after.columns]
    report = risk.current_risk()
    if report is not None and qi_after and not after.empty and step["step"] != "aggregate":
        k_after = k_anonymity(after, qi_after)
        middle.metric("k after this step", k_after, delta=k_after - report.k)
        with middle:
            presentation.explain(
                f"The smallest group on {', '.join(map(escape_markdown, qi_after))} would have "
                f"{k_after} record(s) "
                f"(now {report.k}).",
                "PDPC guide, Step 4",
            )
    if step["step"] == "local_suppression" and qi_after and not after.empty:
        blanks = after[qi_after].isna().sum() - data[qi_after].isna().sum()
        wildcard_k = int(sample_frequencies(after, qi_after, missing="sdcmicro").fk.min())
        st.metric("k, a blank matching any value", wildcard_k)
        presentation.explain(
            f"{int(blanks.sum()):,} cell(s) blanked ("
            + ", ".join(f"{escape_markdown(c)}: {int(n):,}" for c, n in blanks.items() if n)
            + f"); counting a blank as any value, the smallest group is {wildcard_k}. The k "
            "above counts a blank as a value of its own, so it stays low.",
            "PDPC guide, Annex A (suppression) and Annex C; sdcMicro localSuppression",
        )
    if column is not None and column in data.columns and step["step"] != "aggregate":
        loss = column_loss(data[column], after[column] if column in after.columns else None)
        right.metric(f"Information lost in {escape_markdown(column)}", f"{loss.entropy_loss:.0%}")
        with right:
            presentation.explain(
                escape_markdown(loss.explanation()), "entropy of the column; Step 3 on utility"
            )
    if preview.seed is not None:
        st.caption(f"Random step: seed {preview.seed}, derived from the recipe's seed.")


technique = st.selectbox("Technique", TECHNIQUES, key="technique", format_func=TECHNIQUE_TITLES.get)
presentation.explain(STEPS[technique].summary, f"PDPC guide, {STEPS[technique].guide}")
form = technique_form(technique, data)
if form.action is not None:
    column = form.column or (qi[0] if qi else None)
    with continue_on_error():
        step = form.build()
        if form.action == "add":
            replay.add_step(step)
            st.toast(f"Added: {escape_markdown(describe_step(step))}")
            st.rerun()
        show_preview(step, column)

st.subheader("Recipe")
history = session.history()
undo, redo = st.columns(2)
if undo.button("Undo", key="undo", disabled=not history.can_undo, icon=":material/undo:"):
    replay.undo()
    st.rerun()
if redo.button("Redo", key="redo", disabled=not history.can_redo, icon=":material/redo:"):
    replay.redo()
    st.rerun()

steps = session.recipe().steps
if not steps:
    st.caption("No steps yet: preview a technique above, then add it.")
change = None
for i, step in enumerate(steps):
    text, up, down, delete = st.columns([10, 1, 1, 1], vertical_alignment="center")
    text.markdown(f"**{i + 1}.** {escape_markdown(describe_step(step))}")
    if up.button(":material/arrow_upward:", key=f"up_{i}", disabled=i == 0):
        change = session.recipe().move_step(i, i - 1)
    if down.button(":material/arrow_downward:", key=f"down_{i}", disabled=i == len(steps) - 1):
        change = session.recipe().move_step(i, i + 1)
    if delete.button(":material/delete:", key=f"delete_{i}"):
        change = session.recipe().remove_step(i)
if change is not None:
    try:
        replay.replace_recipe(change)
        st.rerun()
    except AnonymisationError as error:
        st.error(f"The recipe was not changed: {error_text(error)}", icon=":material/error:")

before, after = risk.current_risk(session.original()), risk.current_risk()
if before is not None and after is not None:
    left, right = st.columns(2)
    left.metric("k of the original table", before.k)
    right.metric("k after the recipe", after.k, delta=after.k - before.k)
    presentation.explain(
        f"The recipe takes the smallest group on "
        f"{', '.join(map(escape_markdown, after.quasi_identifiers))} from "
        f"{before.k} to {after.k} record(s); the target is {classify.k_target()}.",
        "PDPC guide, Step 4 and Annex C",
    )
    if note := classify.removed_note():
        st.caption(note)
else:
    st.caption("Confirm the indirect identifiers on **Classify** to see k before and after.")

st.subheader("Current table (first 20 rows)")
st.dataframe(data.head(20))
