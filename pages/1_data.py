"""Data: load a table (upload or sample), preview it and profile its columns (Step 1)."""

from __future__ import annotations

import streamlit as st

from core.formatting import fmt_number
from core.markup import code_span, escape_markdown
from ui import data_steps, guide_examples
from ui.state import loading, presentation, session, widgets, workspace

STEP1 = "PDPC guide, Step 1 (Know your data)"

st.title("Data")
presentation.explain(
    "Load the personal data you want to anonymise; it stays on this computer and the "
    "original is never changed: every change is a recorded step.",
    STEP1,
    training="Step 1 of the guide starts with knowing what each attribute of a record is. "
    "Look at the preview and the column profile before classifying the columns.",
)

# One above the other, full width: beside each other the uploader's list of file types
# was cut ("... XLSM, PARQ...").
upload_col, sample_col = st.container(), st.container()
with upload_col:
    uploaded = st.file_uploader(
        "Upload a table (CSV, TSV, Excel or Parquet)",
        type=["csv", "tsv", "txt", "tab", "xlsx", "xlsm", "parquet", "pq"],
        key="upload",
        help=f"Up to {loading.MAX_UPLOAD_MB} MB. Delimiter and encoding are detected.",
    )
    keep = st.checkbox(
        "Keep uploaded tables in the workspace (recommended)",
        value=loading.keep_rows(),
        key=widgets.showing("keep_rows", "data_keep_rows"),
        help="Off: the workspace records only the table's fingerprint (sha256), its columns "
        "and where it was read from; after a restart you upload it again, and its roles and "
        "recipe come back.",
    )
    loading.set_keep_rows(keep)
    # Quoted, not a code span: code in a caption fails the WCAG AA contrast ratio (axe).
    where = f"'{escape_markdown(workspace.workspace_path().name)}'"
    if keep:
        st.caption(
            f"An uploaded table is kept in the workspace file {where} on this computer "
            "(compressed), with its roles and recipe, so your work is still here after you "
            "close the browser or restart. Anyone who can open that file can read the "
            "records: keep it as securely as the data itself, or untick the box to keep "
            "only the table's fingerprint."
        )
    else:
        st.caption(
            f"Uploaded tables are not kept: the workspace file {where} records only their "
            "fingerprint (sha256) and columns. After a restart, upload the same file again "
            "and its roles and recipe come back."
        )
    last = loading.last_upload()
    if uploaded is not None:
        handled = last is not None and last[0] == uploaded.file_id
        stake = None if handled else presentation.work_at_stake()  # ask before setting work aside
        if stake is None:
            data_steps.receive_upload(uploaded.getvalue(), uploaded.name, uploaded.file_id)
        else:
            st.warning(
                f"Loading '{escape_markdown(uploaded.name)}' replaces {stake}. They stay "
                "in the workspace's history (History page). Continue?",
                icon=":material/help:",
            )
            yes, no = st.columns(2)
            if yes.button("Yes, load it", key="upload_yes", type="primary"):
                data_steps.receive_upload(uploaded.getvalue(), uploaded.name, uploaded.file_id)
            if no.button("Cancel", key="upload_no"):
                loading.set_last_upload(uploaded.file_id, None)  # handled: keep the current data
                st.rerun()
with sample_col:
    samples = loading.sample_files()
    current_name = session.source_name()
    sample = st.selectbox(
        "…or pick a sample table",
        samples,
        index=samples.index(current_name) if current_name in samples else 0,
        key="sample",
        help="Synthetic Singapore people, and the guide's worked-example tables.",
    )
    presentation.ask_before_replacing(
        "load_sample", "Load sample", lambda: data_steps.load_sample_or_error(sample)
    )


presentation.ask_before_replacing(
    "workshop_start",
    "Start the workshop (30 minutes)",
    lambda: data_steps.load_sample_or_error(guide_examples.WORKSHOP_TABLE, fresh=True),
    on_click=presentation.start_workshop,  # the guide's tables, values and longer explanations
)
if presentation.training_mode():
    with st.expander(
        "The 30-minute workshop", expanded=session.source_name() == guide_examples.WORKSHOP_TABLE
    ):
        st.markdown(guide_examples.workshop_tasks_markdown())
        st.caption(
            "The guide's Annex C example, one task per page in the order of its five "
            "steps; each page shows its own task at the top, and training mode adds the "
            "guide's worked examples."
        )


if not loading.require_data():
    st.stop()
if reopened := loading.reopened_note():
    st.success(escape_markdown(reopened), icon=":material/history:")

df = session.original()
st.subheader(f"{code_span(session.source_name())}: {len(df):,} records, {df.shape[1]} columns")
details = data_steps.source_details(df)
if details:
    st.caption(" · ".join(f"**{key}**: {escape_markdown(value)}" for key, value in details.items()))
hint = data_steps.single_column_hint(df)
if hint:
    st.warning(escape_markdown(hint), icon=":material/warning:")

st.markdown("#### Preview (first 100 records)")
st.dataframe(df.head(100), width="stretch")
presentation.explain(
    "These are the original records as read from the file; nothing has been changed yet.",
    STEP1,
)

st.markdown("#### Column profile")
if loading.profile_waits(df):
    # A large table's first run: the preview is drawn first, the profile a moment later.
    st.caption(f"Profiling the {df.shape[1]} columns of {len(df):,} records...")
    data_steps.profile_after_the_preview()
else:
    with st.spinner("Profiling the columns..."):
        table = loading.column_profile(df)
    # The range reads as the values do (six significant digits keep a coordinate's
    # decimals) and a text column shows the app's missing figure "-", not the grid's "None".
    RANGE = ("min", "max", "mean")
    table[list(RANGE)] = table[list(RANGE)].map(lambda value: fmt_number(value, 6))
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        column_config={
            "uniqueness": st.column_config.ProgressColumn(
                "uniqueness", min_value=0.0, max_value=1.0, format="%.2f"
            ),
            **{name: st.column_config.TextColumn(name, alignment="right") for name in RANGE},
        },
    )
presentation.explain(
    "Uniqueness is distinct values divided by filled-in values: near 1 means almost every "
    "record has its own value, the mark of a direct identifier; few distinct values "
    "combined with others can still single people out (indirect identifiers).",
    STEP1,
    training="The guide's Step 1 table: direct identifiers (name, NRIC, email, mobile) are "
    "unique to a person; indirect identifiers (age, gender, postal code, job title) are not "
    "unique alone but may re-identify when combined; target attributes (salary, diagnosis) "
    "hold the utility of the data. Columns you do not need should be removed (data "
    "minimisation).",
)
st.page_link(
    "pages/2_classify.py",
    label="Next: classify the columns (Step 1)",
    icon=":material/arrow_forward:",
)
