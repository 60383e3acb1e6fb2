"""Step 3 · Explore trade-offs: the least damaging generalisation that meets a risk target."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.hierarchy import build_hierarchy
from core.risk import annex_d_risk
from core.search import MEASURES, Target, apply_candidate, recipe_steps, search
from ui import state

if not state.require_data() or not state.require_known_columns():
    st.stop()

st.title("Explore trade-offs")
state.explain(
    "Searches every combination of generalisation levels, one per quasi-identifier, for the "
    "ones that meet your risk target with the least loss of information.",
    "PDPC guide, Step 3 and Annex C",
    training="Each quasi-identifier gets a hierarchy (age -> 5-year bands -> 10-year bands "
    "-> ... -> *). The search keeps the combinations where every group has at least k "
    "records after removing at most the allowed share of records, like the guide's Annex C "
    "example, and ranks them by how much detail they remove.",
)
flash = st.session_state.pop("to_flash", None)
if flash:
    st.success(flash)
# The search runs on the original unless the user chooses the table the recipe makes:
# generalising an already generalised table would stack the two without saying so.
BASES = {"original": "the original table"}
if state.recipe().steps:
    BASES["current"] = state.recipe_label()
basis = st.radio("Search on", list(BASES), format_func=BASES.get, horizontal=True,
                 key="to_basis")  # fmt: skip
data = state.original() if basis == "original" else state.current_data()
st.caption(f"Works on {BASES[basis]} ({len(data):,} records).")
columns = [str(c) for c in data.columns]
default_qi = [c for c in state.quasi_identifiers(data) if c in columns]
qi = st.multiselect("Quasi-identifiers", columns, default=default_qi, key="to_qi")
if note := state.removed_note():
    st.caption(note)
if not qi:
    st.info("Pick the quasi-identifiers (indirect identifiers) to generalise.")
    st.stop()

KINDS = ["auto", "numeric", "dates", "masking", "grouping", "suppress", "upload"]
with st.expander("Hierarchies", expanded=False):
    specs = {}
    saved = state.hierarchy_choices()  # kept in the workspace: across pages and restarts
    for column in qi:
        left, right = st.columns([1, 2])
        before = saved.get(column, {})
        kind = left.selectbox(column, KINDS, key=f"to_kind_{column}",
                              index=KINDS.index(before.get("kind", "auto")))  # fmt: skip
        spec: dict = {"kind": kind}
        if kind == "numeric":
            spec["widths"] = right.text_input("Band widths", before.get("widths", "5, 10, 20, 40"),
                                              key=f"to_w_{column}")  # fmt: skip
        elif kind == "grouping":
            spec["mapping"] = right.text_area("value: group, one a line",
                                              before.get("mapping", ""), key=f"to_map_{column}")  # fmt: skip
        elif kind == "upload":
            upload = right.file_uploader("ARX hierarchy (CSV, ';')", key=f"to_up_{column}")
            spec["name"] = before.get("name")
            if upload is not None:
                try:
                    spec["name"] = state.keep_uploaded_hierarchy(column, upload.getvalue())
                except AnonymisationError as error:
                    right.error(str(error))
            if spec["name"]:
                right.caption(f"Using the uploaded hierarchy {spec['name']!r}, kept in the "
                              "workspace.")  # fmt: skip
        specs[column] = spec
        state.set_hierarchy_choice(column, spec)
    state.explain("ARX format: one line per value, 'value;level 1;...;*'.",
                  "PDPC guide, Annex A: Generalisation")  # fmt: skip


def hierarchy_for(column: str, spec: dict):
    series = data[column].rename(column)
    if spec["kind"] == "numeric":
        widths = [float(w) for w in spec["widths"].replace(";", ",").split(",") if w.strip()]
        return build_hierarchy(series, "numeric", widths=widths)
    if spec["kind"] == "grouping":
        pairs = [line.split(":", 1) for line in spec["mapping"].splitlines() if ":" in line]
        return build_hierarchy(series, "grouping",
                               mappings={a.strip(): b.strip() for a, b in pairs})  # fmt: skip
    if spec["kind"] == "upload":
        if not spec.get("name"):
            raise AnonymisationError(f"Upload a hierarchy file for '{column}'.")
        return state.stored_hierarchy(spec["name"])
    return build_hierarchy(series, spec["kind"])


c1, c2, c3 = st.columns(3)
k = int(c1.number_input("Target k", 1, value=state.k_target(), key="to_k"))
suppression = c2.number_input("Records suppressed at most (%)", 0.0, 100.0, 1.0, 0.5,
                              key="to_supp")  # fmt: skip
measure = c3.selectbox("Optimise", list(MEASURES), format_func=MEASURES.get, key="to_measure")
others = [c for c in columns if c not in qi]
c4, c5, c6 = st.columns(3)
sensitive = c4.selectbox("Sensitive attribute (optional)", [None, *others],
                         format_func=lambda c: "(none)" if c is None else c,
                         key="to_sensitive")  # fmt: skip
l_value = c5.number_input("Distinct l-diversity l (0 = off)", 0, value=0, key="to_l")
use_annex_d = c6.checkbox("Meet the Annex D threshold (settings of the Risk page)",
                          key="to_annexd")  # fmt: skip

if st.button("Search", key="to_run", type="primary"):
    bar = st.progress(0.0, text="Preparing hierarchies...")
    try:
        hierarchies = {c: hierarchy_for(c, specs[c]) for c in qi}
        extra = {}
        if use_annex_d:
            verdict = annex_d_risk(1, insider_table=state.insider_table(),
                                   **state.annex_d_settings())  # fmt: skip
            extra = {"p_reid_threshold": verdict.threshold, "p_attempt": verdict.p_attempt}
        target = Target(k=k, max_suppressed=suppression / 100, sensitive=sensitive,
                        l=(l_value or None) if sensitive else None, **extra)  # fmt: skip
        result = search(data, hierarchies, target, measure=measure,
                        progress=lambda f, text: bar.progress(min(f, 1.0), text=text))  # fmt: skip
        state.set_tradeoff_result((result, hierarchies, basis))
    except (AnonymisationError, ValueError) as error:
        st.error(str(error))
    bar.empty()

stored = state.tradeoff_result()
if stored is None or stored[2] != basis or set(stored[0].quasi_identifiers) - set(columns):
    st.stop()
result, hierarchies = stored[:2]
st.success(result.explanation())
state.explain(
    f"{result.evaluated:,} of {result.lattice_size:,} combinations were evaluated in "
    f"{result.seconds:.2f} s ({result.method} search); {result.note or 'pruning is exact.'}",
    "PDPC guide, Step 3",
)
if result.optimum is None:
    st.stop()

frame = result.to_frame()
risk = "p_reid" if "p_reid" in frame else "max_risk"
chart = (
    alt.Chart(frame)
    .mark_circle(size=90)
    .encode(
        x=alt.X(f"{result.measure}:Q", title=f"Information loss ({result.measure})"),
        y=alt.Y(f"{risk}:Q", title="P(re-ID)" if risk == "p_reid" else "Max risk = 1/k"),
        color=alt.Color("optimum:N", title="Optimum"),
        tooltip=["candidate", "k", "suppressed", result.measure, risk],
    )
)
st.altair_chart(chart, width="stretch")
state.explain(
    f"Each dot is a minimal solution: lower is safer, further left keeps more detail "
    f"(measure: {MEASURES[result.measure]}).",
    "PDPC guide, Annex C (k-anonymity) and Annex D (P(re-ID) = P(attempt)/k)",
)

labels = [c.label() for c in result.candidates]
pick = st.selectbox("Candidate", labels, index=labels.index(result.optimum.label()),
                    key="to_candidate")  # fmt: skip
candidate = result.candidates[labels.index(pick)]
m1, m2, m3 = st.columns(3)
m1.metric("k after suppression", candidate.k)
m2.metric("Records suppressed", f"{candidate.suppressed:,}")
m3.metric(f"Loss ({result.measure})", f"{candidate.measures[result.measure]:.4g}")
state.explain(
    f"Records in groups smaller than k = {result.target.required_k} are removed; "
    "the rest form groups of at least k.",
    "PDPC guide, Annex A: Record suppression; Annex C",
)
loss = pd.DataFrame({"column": list(candidate.column_loss),
                     "loss": list(candidate.column_loss.values()),
                     "level": [candidate.levels[c] for c in candidate.column_loss]})  # fmt: skip
st.altair_chart(
    alt.Chart(loss).mark_bar().encode(
        x=alt.X("loss:Q", scale=alt.Scale(domain=[0, 1]), title="Loss metric (0-1)"),
        y=alt.Y("column:N", sort=None), tooltip=["column", "level", "loss"]),
    width="stretch",
)  # fmt: skip
state.explain(
    "Per quasi-identifier loss: 0 = unchanged, 1 = fully generalised to '*' or suppressed "
    "(ARX loss metric).",
    "PDPC guide, Introduction A (judge utility per attribute)",
)
released = apply_candidate(data, hierarchies, candidate, models=result.target.models)
st.dataframe(released.head(20), key="to_preview")

if basis == "original" and state.recipe().steps:
    st.caption(f"Apply adds these steps after the recipe's {len(state.recipe().steps)} "
               "step(s), which already change the table: review them on Techniques.")  # fmt: skip
if st.button("Apply: add these steps to the recipe", key="to_apply"):
    paths = {column: state.save_hierarchy(column, hierarchies[column])
             for column, level in candidate.levels.items() if level > 0}  # fmt: skip
    steps = recipe_steps(candidate, paths, models=result.target.models)
    new = state.recipe()
    for step in steps:
        new = new.add(step)
    try:
        state.replace_recipe(new, f"Explore trade-offs: {candidate.label()}")  # all or none
    except AnonymisationError as error:
        st.error(str(error))
    else:
        # Rerun so the sidebar (drawn before this page) shows the new recipe and k at once.
        st.session_state["to_flash"] = (
            f"Added {len(steps)} step(s) to the recipe; see Techniques to review them."
        )
        st.rerun()
