"""Report (Step 5): controls for the use case, sign-off, risk and utility, and the downloads.

PDPC guide, Step 5 ("Manage your re-identification and disclosure risks"): record the
process, parameters and controls, keep the record secure, and keep identity mapping
tables encrypted and apart from the data. Logic lives in core.report and core.release.
"""

from __future__ import annotations

import datetime as dt

import altair as alt
import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.io import table_to_bytes
from core.recipe import to_python_script
from core.release import SIGN_OFF_FIELDS, identity_table, report_json, report_markdown, sign_off
from core.report import SUGGESTED_K, USE_CASES, build_report, controls_for
from core.schema import Role
from core.techniques import encrypt_table
from core.utility import utility_report
from ui import state

MIN_PASSPHRASE = 12  # Step 5: passwords of at least 12 characters
STEM = "anonymised"

st.title("Report and release")
if not state.require_data():
    st.stop()

# --- use case and controls --------------------------------------------------------------
ids = list(USE_CASES)
use_case = st.selectbox("Release use case", ids, index=ids.index(state.use_case()),
                        format_func=USE_CASES.get, key="use_case")  # fmt: skip
state.set_use_case(use_case)
state.explain(
    f"The use case sets which controls the guide recommends; it suggests k of at least "
    f"{SUGGESTED_K[use_case]} here (your target is k = {state.k_target()}).",
    "PDPC guide, Use cases and Step 5",
)
st.subheader("Controls checklist")
controls = controls_for(use_case)
done: list[str] = []
if not controls:
    st.info("The guide assumes minimal residual risk for heavily anonymised synthetic data "
            "and lists no further controls (Step 5).")  # fmt: skip
for kind in ("technical", "process", "legal"):
    group = [(i, c) for i, c in enumerate(controls) if c.kind == kind]
    if group:
        st.markdown(f"**{kind.title()} controls**")
    for i, control in group:
        label = f"{control.area}: {control.text}" + (f" ({control.note})" if control.note else "")
        if st.checkbox(label, key=f"control_{use_case}_{i}"):
            done.append(control.text)
state.explain("Tick the controls in place; ticked ones are marked done in the report.",
              "PDPC guide, Step 5: technical, process and legal controls")  # fmt: skip

st.subheader("Sign-off")
cols = st.columns(len(SIGN_OFF_FIELDS))
values = {
    key: col.text_input(label, key=f"signoff_{key}",
                        placeholder=dt.date.today().isoformat() if key == "date" else "")
    for col, (key, label) in zip(cols, SIGN_OFF_FIELDS.items(), strict=True)
}  # fmt: skip
signed = sign_off(values)

# --- risk and utility --------------------------------------------------------------------
try:
    original = state.original()
    result = state.release_result()
    release = state.release_recipe()
    before, after = state.current_risk(original), state.current_risk()
    verdict = state.current_annex_d()
    with st.spinner("Building the report..."):
        utility = state.memo("utility", lambda: utility_report(original, result.data))
        report = build_report(original, result, release, use_case=use_case, annex_d=verdict,
                              sensitive=release.meta.get("sensitive"), k_threshold=state.k_target(),
                              sign_off=signed, risk_before=before, risk_after=after,
                              utility=utility,
                              direct_identifiers=state.columns_with_role(Role.DIRECT, original))  # fmt: skip
except AnonymisationError as error:
    st.error(str(error))
    st.stop()

for warning in report.warnings:
    st.warning(warning, icon=":material/warning:")
st.subheader("Risk before and after (Step 4)")
if before is None:
    st.info("Mark indirect identifiers on **Classify** to compute the risk.")
else:
    figures = [("k", "k (smallest group)"), ("uniques", "Unique records"),
               ("records_below_k", "Records below target k"),
               ("max_risk", "Max prosecutor risk"), ("avg_risk", "Average prosecutor risk")]  # fmt: skip
    notes = (after or before).explanations()
    st.dataframe(
        pd.DataFrame([{"figure": label, "before": getattr(before, key),
                       "after": getattr(after, key) if after else None,
                       "what it means": notes.get(key, "")} for key, label in figures]),
        hide_index=True, width="stretch",
    )  # fmt: skip
    state.explain("The same figures on the original and on the released table.",
                  "PDPC guide, Step 4 and Annex C")  # fmt: skip
if verdict is not None:
    (st.success if verdict.acceptable else st.error)(verdict.explanation())
    state.explain("The chance of re-identification against the threshold for the harm.",
                  "PDPC guide, Annex D")  # fmt: skip

st.subheader("Utility cost per column")
if report.utility is None:
    st.info("The release is aggregated, so record-level utility is not compared.")
else:
    loss = report.utility.to_frame()
    loss["explanation"] = [c.explanation() for c in report.utility.columns]
    st.caption(f"{report.utility.records_suppressed:,} of {report.utility.records_before:,} "
               f"records suppressed ({report.utility.share_suppressed:.1%}).")  # fmt: skip
    shown = ["column", "status", "distinct_before", "distinct_after", "entropy_loss", "changed",
             "explanation"]  # fmt: skip
    st.dataframe(
        loss[shown],
        hide_index=True,
        width="stretch",
        column_config={
            "distinct_before": st.column_config.NumberColumn("distinct before"),
            "distinct_after": st.column_config.NumberColumn("distinct after"),
            "entropy_loss": st.column_config.ProgressColumn(
                "information lost", format="percent", min_value=0.0, max_value=1.0
            ),
            "changed": st.column_config.NumberColumn("values changed", format="percent"),
            "explanation": st.column_config.TextColumn("explanation", width="large"),
        },
    )
    state.explain("Per column: how many values changed and how much information (entropy) "
                  "was lost; the guide judges utility per attribute.",
                  "PDPC guide, Introduction section A; Step 3")  # fmt: skip
    bars = alt.Chart(loss).mark_bar().encode(
        x=alt.X("entropy_loss:Q", title="Information lost", axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("column:N", sort="-x", title=None),
        tooltip=["column", "status", alt.Tooltip("entropy_loss:Q", format=".0%")],
    )  # fmt: skip
    st.altair_chart(bars, width="stretch")
    state.explain("0% means the column keeps all its detail, 100% that it says nothing any "
                  "more (removed or one value).", "PDPC guide, Step 3")  # fmt: skip

# --- downloads -------------------------------------------------------------------------
st.subheader("Downloads")
markdown = report_markdown(report, done)
d1, d2 = st.columns(2)
fmt = d1.radio("Data format", ["csv", "xlsx"], horizontal=True, key="data_format")
data_bytes = state.memo("data_bytes", lambda: table_to_bytes(result.data, fmt), fmt)
d1.download_button("Anonymised data", data_bytes,
                   file_name=f"{STEM}.{fmt}", key="download_data")  # fmt: skip
d1.download_button("Recipe (YAML)", release.to_yaml(), file_name="recipe.yaml",
                   mime="application/x-yaml", key="download_recipe")  # fmt: skip
d1.download_button("Python script", to_python_script(release), file_name="anonymise.py",
                   mime="text/x-python", key="download_script")  # fmt: skip
d2.download_button("Report (Markdown)", markdown, file_name="report.md",
                   mime="text/markdown", key="download_report_md")  # fmt: skip
d2.download_button("Report (JSON)", report_json(report, done), file_name="report.json",
                   mime="application/json", key="download_report_json")  # fmt: skip
state.explain("Keep the report and recipe secure: releasing the parameters may help "
              "re-identification. None of these files contains a key or passphrase.",
              "PDPC guide, Step 5")  # fmt: skip

identities = identity_table(result.mappings, result.linking)
st.markdown("**Identity mapping tables (encrypted)**")
if identities.empty:
    st.caption("No pseudonymisation step made an identity mapping table.")
passphrase = st.text_input("Passphrase for the mapping tables", type="password",
                           key="mapping_passphrase", disabled=identities.empty,
                           help=f"At least {MIN_PASSPHRASE} characters, mixing upper and lower "
                                "case, digits and symbols (Step 5).")  # fmt: skip
ready = not identities.empty and len(passphrase) >= MIN_PASSPHRASE
if passphrase and not ready:
    st.warning(f"Type at least {MIN_PASSPHRASE} characters to enable the download.")
blob = encrypt_table(identities, passphrase) if ready else b""
st.download_button("Identity mapping tables (encrypted)", blob, file_name="mapping.enc",
                   mime="application/octet-stream", disabled=not ready,
                   key="download_mapping_encrypted")  # fmt: skip
state.explain("Keep the mapping tables apart from the data and never share them; send the "
              "passphrase separately. Decrypt with core.techniques.decrypt_table.",
              "PDPC guide, Step 5 and Annex A: Pseudonymisation")  # fmt: skip

with st.expander("Report preview", expanded=False):
    st.markdown(markdown)
