"""Classify (Step 1): confirm the role of every column; pick the sensitive column and k."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.markup import code_span, escape_markdown
from core.schema import Role
from ui import data_steps, guide_examples
from ui.state import classify, loading, presentation, session, widgets

STEP1 = "PDPC guide, Step 1 (Know your data)"

if not loading.require_data():
    st.stop()

st.title("Classify")
guide_examples.show_workshop_task("Classify")
presentation.explain(
    "Decide for each column whether it is a direct identifier, an indirect identifier, a "
    "target attribute or other; later steps treat each role differently.",
    STEP1,
)
with st.expander("What the roles mean", expanded=presentation.training_mode()):
    for role in Role:
        st.markdown(f"- **{role.value}**: {role.description}")

if presentation.training_mode():
    st.info(
        "The guide's Example 2 (customer data record): Customer ID and Name are direct "
        "identifiers; Gender, Date of birth, Postal code, Occupation, Education and Marital "
        "status are indirect identifiers; Income is the target attribute.",
        icon=":material/school:",
    )
    st.dataframe(
        pd.DataFrame(
            {
                "attribute": [
                    "Customer ID",
                    "Name",
                    "Gender",
                    "Date of birth",
                    "Postal code",
                    "Occupation",
                    "Income",
                    "Education",
                    "Marital status",
                ],
                "role": [
                    "direct",
                    "direct",
                    "indirect",
                    "indirect",
                    "indirect",
                    "indirect",
                    "target",
                    "indirect",
                    "indirect",
                ],
            }
        ),
        hide_index=True,
    )

data = session.original()
confirmed = classify.roles()
if confirmed:
    st.success(
        f"Roles confirmed for {len(confirmed)} of {data.shape[1]} columns.",
        icon=":material/check_circle:",
    )
else:
    st.warning(
        "No roles confirmed yet: the roles below are only suggestions until you save or "
        "accept them.",
        icon=":material/pending:",
    )

table = data_steps.roles_table(classify.suggestions(), confirmed)
# One click picks a role: a segmented control per column (a table cell needed a
# double-click and often a retry). Widget keys go by position, never by column name.
header = st.columns([3, 5, 6])
header[0].markdown("**Column** (what its values look like)")
header[1].markdown("**Role**")
header[2].markdown("**Why this suggestion** (and the Annex B technique)")
picked = []
for position, row in table.iterrows():
    name, role, reason = st.columns([3, 5, 6], vertical_alignment="center")
    unsure = "  \n:orange[unsure what it holds: check and decide]" if row["unsure"] else ""
    name.markdown(f"{code_span(row['column'])}  \n:gray[{escape_markdown(row['found'])}]{unsure}")
    choice = role.segmented_control(
        f"Role of {row['column']}",
        data_steps.ROLE_VALUES,
        default=row["role"],
        required=True,
        key=widgets.showing("roles", data_steps.role_widget_key(position)),
        label_visibility="collapsed",
    )
    picked.append(choice or row["role"])
    reason.caption(f"{escape_markdown(row['reason'])} *{escape_markdown(row['technique'])}*")
edited = table.assign(role=picked)
accept_col, save_col = st.columns(2)
accept_col.button(
    "Accept all suggestions",
    key="accept_all",
    on_click=data_steps.accept_all_suggestions,
    icon=":material/done_all:",
)
if save_col.button("Save roles", key="save_roles", type="primary", icon=":material/save:"):
    classify.set_roles(data_steps.roles_from_table(edited, list(data.columns)))
    st.rerun()
presentation.explain(
    "Suggestions come from column names and sampled values ('found': what the values look "
    "like, e.g. person names, phone numbers, addresses, whatever the header says), with the "
    "technique Annex B of the guide suggests; click a role to change it, then save.",
    f"{STEP1}; Annex B",
)
with st.expander("All columns as a table (roles as picked above)"):
    # read-only (the pickers above set the roles); a keyed editor so tests can find it
    st.data_editor(edited, key="roles_editor", disabled=True, hide_index=True, width="stretch")

st.markdown("#### Sensitive column and target k")
options = [None, *data.columns]
if classify.sensitive_choice() not in options:
    classify.set_sensitive(None)
sensitive = st.selectbox(
    "Sensitive (target) column for l-diversity and t-closeness",
    options,
    index=options.index(classify.sensitive_choice()),
    format_func=lambda c: "(the first column marked target)" if c is None else str(c),
    key=widgets.showing("sensitive", "sensitive"),
)
if sensitive != classify.sensitive_choice():
    classify.set_sensitive(sensitive)
    st.rerun()
presentation.explain(
    "The target attribute whose values should not be disclosed for a group of records.",
    "PDPC guide, Annex A (l-diversity, t-closeness)",
)
k = st.number_input(
    "Target k (smallest group size)",
    min_value=2,
    step=1,
    value=max(2, classify.k_target()),
    key=widgets.showing("k", "k_target"),
)
if k != classify.k_target():
    classify.set_k_target(k)
    st.rerun()
presentation.explain(
    "Generally the industry threshold for k-anonymity is 3 or 5: 5 or more for external "
    "sharing, 3 may do for internal sharing or long-term retention.",
    "PDPC guide, Step 4 (note)",
)
st.page_link(
    "pages/3_deidentify.py",
    label="Next: remove or pseudonymise direct identifiers (Step 2)",
    icon=":material/arrow_forward:",
)
