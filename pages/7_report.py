"""Report (Step 5): controls for the use case, sign-off, risk and utility, and the downloads.

PDPC guide, Step 5 ("Manage your re-identification and disclosure risks"): record the
process, parameters and controls, keep the record secure, and keep identity mapping
tables encrypted and apart from the data. Logic lives in core.release.report and core.release.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import pandas as pd
import streamlit as st

from core.figure_names import RECORD_RISK
from core.formatting import fmt_count, fmt_percent, fmt_value
from core.io import table_to_bytes
from core.markup import code_span, escape_markdown
from core.recipe import to_python_script
from core.release.gate import marked_name
from core.release.inputs import ReleaseFigures, ReleaseRoles
from core.release.pipeline import with_anchor
from core.release.report import DECRYPT_COMMAND, build_report, controls_for
from core.release.report_files import (
    SIGN_OFF_FIELDS,
    identity_table,
    report_json,
    report_markdown,
    sign_off,
)
from core.release.words import NOT_ANONYMISED_MARK, SUGGESTED_K, USE_CASES
from core.schema import Role
from core.techniques import encrypt_table
from core.techniques.pseudonymisation import MIN_PASSPHRASE_CHARS, passphrase_problem
from core.utility import utility_report
from ui import guide_examples, release_fixes
from ui.charts import labelled_bars
from ui.page_errors import stop_on_error
from ui.state import cache, classify, loading, presentation, risk, session, widgets
from ui.state import release as release_state
from ui.tables import formatted_table

CLASSIFY, DEIDENTIFY = "pages/2_classify.py", "pages/3_deidentify.py"
TECHNIQUES, RISK = "pages/4_techniques.py", "pages/5_risk.py"
#: Per kind of release-check problem (core.release.gate): a short name, what to do, and
#: the pages where it is done.
FIXES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "roles": (
        "roles not confirmed",
        "Open Classify (Step 1) and save or accept the roles.",
        (CLASSIFY,),
    ),
    "untouched": (
        "original data",
        "Open De-identify (Step 2) and Techniques (Step 3) and add steps to the recipe.",
        (DEIDENTIFY, TECHNIQUES),
    ),
    "direct_identifiers": (
        "direct identifiers left",
        "Open De-identify (Step 2) and remove or pseudonymise them.",
        (DEIDENTIFY,),
    ),
    "free_text": (
        "free text not clean",
        "Open De-identify (Step 2): redact the column with the "
        "residue option (or remove it); the rescan must find nothing.",
        (DEIDENTIFY,),
    ),
    "text_review": (
        "free text not reviewed",
        "Read the redacted column below (before and after) and sign that you reviewed it.",
        (),
    ),
    "undecided": (
        "Step 1's doubts not decided",
        "Below, record why each column is not a "
        "quasi-identifier, or mark it indirect on Classify (Step 1), or remove it.",
        (CLASSIFY,),
    ),
    "targets": (
        "privacy-model target missed",
        "Open Techniques (Step 3) and generalise or suppress further, or review the targets below.",
        (TECHNIQUES,),
    ),
    "no_quasi_identifiers": (
        "no quasi-identifiers",
        "Open Classify (Step 1) and mark the indirect identifiers.",
        (CLASSIFY,),
    ),
    "k": (
        "k below target",
        "Open Techniques (Step 3): generalise the quasi-identifiers or "
        "suppress the records below k.",
        (TECHNIQUES,),
    ),
    "annex_d": (
        "above the Annex D threshold",
        "Open Techniques (Step 3) to raise k, or Risk (Step 4) to review the Annex D settings.",
        (TECHNIQUES, RISK),
    ),
    "l_diversity": (
        "l-diversity below target",
        "Open Techniques (Step 3) and generalise or suppress further.",
        (TECHNIQUES,),
    ),
    "t_closeness": (
        "t-closeness above target",
        "Open Techniques (Step 3) and generalise or suppress further.",
        (TECHNIQUES,),
    ),
}
PAGE_TITLES = {
    CLASSIFY: "Classify",
    DEIDENTIFY: "De-identify",
    TECHNIQUES: "Techniques",
    RISK: "Risk",
}

st.title("Report")
guide_examples.show_workshop_task("Report")
if not loading.require_data() or not classify.require_known_columns():
    st.stop()

# --- use case and controls --------------------------------------------------------------
ids = list(USE_CASES)
use_case = st.selectbox(
    "Release use case",
    ids,
    index=ids.index(release_state.use_case()),
    format_func=USE_CASES.get,
    key=widgets.showing("use_case", "use_case"),
)
release_state.set_use_case(use_case)
presentation.explain(
    f"The use case sets which controls the guide recommends; it suggests k of at least "
    f"{SUGGESTED_K[use_case]} here (your target is k = {classify.k_target()}).",
    "PDPC guide, Use cases and Step 5",
    training="Step 5 of the guide: anonymised data can still be re-identified as other data "
    "sets appear, so the release comes with controls. For external sharing: a contract that "
    "forbids re-identification and onward sharing, access limited to those who need it, "
    "the mapping tables kept apart and encrypted, and a record of what was done (this "
    "report). Tick each control you have in place: the report lists the ones you have not.",
)
st.subheader("Controls checklist")
controls = controls_for(use_case)
done: list[str] = []
if not controls:
    st.info(
        "The guide assumes minimal residual risk for heavily anonymised synthetic data "
        "and lists no further controls (Step 5)."
    )
for kind in ("technical", "process", "legal"):
    group = [(i, c) for i, c in enumerate(controls) if c.kind == kind]
    if group:
        st.markdown(f"**{kind.title()} controls**")
    for i, control in group:
        label = f"{control.area}: {control.text}" + (f" ({control.note})" if control.note else "")
        in_place = control.text in (risk.controls_in_place() or ())
        key = widgets.showing(risk.CONTROLS_KEY, f"control_{use_case}_{i}")
        if st.checkbox(label, value=in_place, key=key):
            done.append(control.text)
risk.set_controls_in_place(done)  # kept in the workspace; they set Annex D's controls
if from_checklist := risk.controls_from_checklist():
    level, ticked, recommended = from_checklist
    controls_words = (
        f"{ticked} of {recommended} controls in place: Annex D's extent of mitigating "
        f"controls is **{level}** (all: high, at least half: medium, some: low, none: none), "
        "as the Risk page and the report use it."
    )
else:
    controls_words = (
        f"Annex D's extent of mitigating controls is "
        f"**{risk.annex_d_settings()['controls']}** (set on Risk) until you tick the "
        "controls here."
    )
presentation.explain(
    "Tick the controls in place; ticked ones are marked done in the report. " + controls_words,
    "PDPC guide, Step 5: technical, process and legal controls; Annex D, Scenario #1",
)

st.subheader("Sign-off")
cols = st.columns(len(SIGN_OFF_FIELDS))
kept = release_state.sign_off_fields()  # as typed before, kept in the workspace
values = {
    key: col.text_input(
        label,
        value=kept.get(key, ""),
        key=widgets.showing(session.SIGN_OFF_KEY, f"signoff_{key}"),
        placeholder=dt.date.today().isoformat() if key == "date" else "",
    )
    for col, (key, label) in zip(cols, SIGN_OFF_FIELDS.items(), strict=True)
}
release_state.set_sign_off_fields(values)
signed = sign_off(values)

# --- risk and utility --------------------------------------------------------------------
with stop_on_error():
    original = session.original()
    result = release_state.release_result()
    release = release_state.release_recipe()
    before, after = risk.current_risk(original), risk.current_risk()
    verdict = risk.current_annex_d()
    check = release_state.release_check()
    with st.spinner("Building the report..."):
        utility = cache.memo("utility", lambda: utility_report(original, result.data))
        report = build_report(
            original,
            result,
            release,
            use_case=use_case,
            annex_d=verdict,
            k_threshold=classify.k_target(),
            sign_off=signed,
            release_check=check,
            roles=ReleaseRoles(
                sensitive=release.meta.get("sensitive"),
                direct_identifiers=classify.columns_with_role(Role.DIRECT, original),
            ),
            figures=ReleaseFigures(risk_before=before, risk_after=after, utility=utility),
        )

# Direct identifiers left: the release check's table below names each one and what to do,
# so one line here says how many instead of a warning per column repeating it.
for warning in report.warnings:
    if warning not in report.identifier_warnings:
        st.warning(escape_markdown(warning), icon=":material/warning:")
if report.identifier_warnings:
    left = len(report.identifier_warnings)
    st.warning(
        f"{fmt_count(left)} column{'s' if left > 1 else ''} classified as direct "
        f"identifier{'s' if left > 1 else ''} still hold{'' if left > 1 else 's'} "
        "original values: the release check below names "
        f"{'them' if left > 1 else 'it'} (PDPC guide, Step 2).",
        icon=":material/warning:",
    )
st.subheader("Risk before and after (Step 4)")
if before is None:
    st.info("Mark indirect identifiers on **Classify** to compute the risk.")
else:
    figures = [
        ("k", "k (smallest group)"),
        ("uniques", "Unique records"),
        ("records_below_k", "Records below target k"),
        ("max_risk", RECORD_RISK.name),
        ("avg_risk", "Average prosecutor risk"),
    ]
    notes = (after or before).explanations()
    # st.table, whose cells wrap: the explanations are read in full, not cut at a column's
    # width as in a data grid. Its cells are Markdown and the explanations name columns from
    # the data: escaped. The same texts as report.md (core.formatting).
    st.table(
        pd.DataFrame(
            [
                {
                    "figure": label,
                    "before": fmt_value(getattr(before, key)),
                    "after": fmt_value(getattr(after, key) if after else None),
                    "what it means": escape_markdown(notes.get(key, "")),
                }
                for key, label in figures
            ]
        ),
        hide_index=True,
    )
    presentation.explain(
        "The same figures on the original and on the released table.",
        "PDPC guide, Step 4 and Annex C",
    )
    if note := classify.removed_note():
        st.caption(note)
if verdict is not None:
    (st.success if verdict.acceptable else st.error)(verdict.explanation())
    presentation.explain(
        "The chance of re-identification against the threshold for the harm.", "PDPC guide, Annex D"
    )
# The figures above count the quasi-identifiers confirmed on Classify; the release check
# also counts a direct identifier kept in a changed form (masked, swapped...): say so when
# its k differs, or the page shows k = 5 in green above a refusal for k = 1.
if check.kept_identifiers and after is not None and check.k is not None and check.k != after.k:
    st.warning(
        f"These figures count the quasi-identifiers confirmed on Classify. The release "
        "check below also counts the direct identifier(s) "
        f"{', '.join(map(code_span, check.kept_identifiers))} that the recipe keeps in "
        f"a changed form: with them, k = {check.k}.",
        icon=":material/warning:",
    )

st.subheader("Utility cost per column")
if report.utility is None:
    st.info("The release is aggregated, so record-level utility is not compared.")
else:
    loss = report.utility.to_frame()
    loss["explanation"] = [c.explanation() for c in report.utility.columns]
    st.caption(
        f"{fmt_count(report.utility.records_suppressed)} of "
        f"{fmt_count(report.utility.records_before)} records suppressed "
        f"({fmt_percent(report.utility.share_suppressed)})."
    )
    shown = [
        "column",
        "status",
        "distinct_before",
        "distinct_after",
        "entropy_loss",
        "changed",
        "explanation",
    ]
    st.dataframe(
        formatted_table(
            loss[shown], counts=["distinct_before", "distinct_after"], shares=["changed"]
        ),
        hide_index=True,
        width="stretch",
        column_config={
            "distinct_before": st.column_config.NumberColumn("distinct before"),
            "distinct_after": st.column_config.NumberColumn("distinct after"),
            "entropy_loss": st.column_config.ProgressColumn(
                "information lost", format="percent", min_value=0.0, max_value=1.0
            ),
            "changed": st.column_config.NumberColumn("values changed"),
            "explanation": st.column_config.TextColumn("explanation", width="large"),
        },
    )
    presentation.explain(
        "Per column: how many values changed and how much information (entropy) "
        "was lost; the guide judges utility per attribute.",
        "PDPC guide, Introduction section A; Step 3",
    )
    if not loss["entropy_loss"].gt(0).any():
        # an empty bar chart says nothing: say it in words
        st.caption("No column has lost information: no step of the recipe changed a value.")
    else:
        bars = labelled_bars(
            loss,
            "entropy_loss",
            "column",
            title="Information lost",
            number_format=".0%",
            domain_max=1.0,
            row_height=24,
        )
        st.altair_chart(bars, width="stretch")
        presentation.explain(
            "0% means the column keeps all its detail, 100% that it says nothing "
            "any more (removed or one value).",
            "PDPC guide, Step 3",
        )

# --- release check (Steps 4 and 5) ------------------------------------------------------
st.subheader("Release check")
if check.passed:
    st.success(escape_markdown(check.statement()), icon=":material/verified:")
else:
    st.error(
        "This table is not ready to be released as anonymised. The data download stays "
        "locked until every problem below is fixed.",
        icon=":material/block:",
    )
    # st.table: its cells wrap, so each problem is read in full. Its cells are Markdown and
    # the problems quote column names, which come from the data: escaped.
    st.table(
        pd.DataFrame(
            {
                "problem": [escape_markdown(problem) for problem in check.problems],
                "what to do": [FIXES[kind][1] for kind in check.kinds],
            }
        ),
        hide_index=True,
    )
    pages = dict.fromkeys(page for kind in check.kinds for page in FIXES[kind][2])
    for column, page in zip(st.columns(len(pages)) if pages else [], pages, strict=True):
        with column:
            st.page_link(page, label=f"Go to {PAGE_TITLES[page]}", icon=":material/arrow_forward:")
    names = "; ".join(dict.fromkeys(FIXES[kind][0] for kind in check.kinds))
    if st.checkbox(
        f"Release anyway, knowing the data is NOT anonymised ({names}). The report "
        f"and the file name will say so ({NOT_ANONYMISED_MARK}).",
        value=False,
        key="release_anyway",
    ):
        check = check.acknowledge()
        report = dataclasses.replace(report, release_check=check)
        st.warning(
            "You release this table although it is not anonymised: the report says so "
            f"and the file name carries {NOT_ANONYMISED_MARK}.",
            icon=":material/warning:",
        )
release_fixes.decisions_section(check)
release_fixes.free_text_section(check)
release_fixes.targets_section(check)
presentation.explain(
    "A table leaves the workbench as anonymised only when the roles are confirmed, "
    "the direct identifiers are handled and the risk of the released table meets "
    "the target k and the Annex D threshold.",
    "PDPC guide, Step 4 and Step 5; Annex D",
)

# --- downloads -------------------------------------------------------------------------
# Recorded first (issue 27): the workspace records the release, and only then are its
# data, report and bundle offered, each carrying the release's anchor in the audit log.
st.subheader("Downloads")
fmt = st.radio("Data format", ["csv", "xlsx"], horizontal=True, key="data_format")
prepared = None
if check.releasable:
    data_bytes = cache.memo("data_bytes", lambda: table_to_bytes(result.data, fmt), fmt)
    prepared = release_state.prepared_release(data_bytes, fmt, check.acknowledged, signed)
    if prepared is None:
        if (earlier := release_state.stale_release()) is not None:
            st.info(
                f"Release {earlier} was prepared for another recipe, format or sign-off: "
                "prepare this one to download it.",
                icon=":material/update:",
            )
        if st.button(
            "Prepare the release",
            key="prepare_release",
            type="primary",
            help="Records the release in the workspace (recipe, risk, sign-off, "
            "audit log entry); its downloads follow.",
        ):
            problem = release_state.prepare_release(
                report.to_dict(), data_bytes, fmt, check.acknowledged
            )
            if problem is None:
                st.rerun()  # drawn again: its downloads in place of the button
            st.error(
                f"The release was not recorded, so nothing is offered for download: "
                f"{escape_markdown(problem)}",
                icon=":material/error:",
            )
if prepared is not None:
    anchor = prepared["anchor"]
    report = with_anchor(report, anchor)  # the report and bundle carry it
    said = "Recorded as" if prepared["new"] else "Already recorded as"
    st.success(
        f"{said} release {anchor['release']} at audit log entry {anchor['entries']}: "
        "the data, report and bundle below carry this record, so `verify --report` "
        "shows later whether the log was cut or rewritten.",
        icon=":material/task_alt:",
    )
d1, d2 = st.columns(2)
if prepared is not None:
    # The name the workspace recorded (History shows it), the one inside the bundle too.
    name = prepared.get("data_name") or release_state.data_file_name(
        fmt, released_anyway=not check.passed
    )
    label = "Anonymised data" if check.passed else "Data (NOT anonymised, released anyway)"
    d1.download_button(label, data_bytes, file_name=name, key="download_data")
    bundle = release_state.release_bundle(report, data_bytes, fmt, result)
    bundle_name = "release-bundle.zip" if check.passed else marked_name("release-bundle.zip")
    # A short label: a longer one is cut off with an ellipsis in its half of the page. What
    # the zip holds is said below the buttons.
    d1.download_button(
        "Release bundle for the recipient (zip)",
        bundle,
        file_name=bundle_name,
        mime="application/zip",
        key="download_bundle",
    )
else:
    why = "prepare the release first" if check.releasable else "locked: see the release check"
    d1.download_button(
        f"Anonymised data ({why})",
        b"",
        file_name=release_state.data_file_name(fmt, released_anyway=False),
        key="download_data",
        disabled=True,
    )
    d1.download_button(
        f"Release bundle ({why})",
        b"",
        file_name="release-bundle.zip",
        key="download_bundle",
        disabled=True,
    )
d1.download_button(
    "Recipe (YAML)",
    release.to_yaml(),
    file_name="recipe.yaml",
    mime="application/x-yaml",
    key="download_recipe",
)
d1.download_button(
    "Python script",
    to_python_script(release),
    file_name="anonymise.py",
    mime="text/x-python",
    key="download_script",
)
markdown = report_markdown(report, done)  # with the release's record, once there is one
# A releasable table's report leaves only with its record; a refused one's report (no
# release) says why it was refused.
report_locked = check.releasable and prepared is None
report_note = " (prepare the release first)" if report_locked else ""
d2.download_button(
    f"Report (Markdown){report_note}",
    b"" if report_locked else markdown,
    file_name="report.md",
    mime="text/markdown",
    key="download_report_md",
    disabled=report_locked,
)
d2.download_button(
    f"Report (JSON){report_note}",
    b"" if report_locked else report_json(report, done),
    file_name="report.json",
    mime="application/json",
    key="download_report_json",
    disabled=report_locked,
)
presentation.explain(
    "Keep the report and recipe secure: releasing the parameters may help "
    "re-identification. None of these files contains a key or passphrase. The "
    "release bundle holds the data, the report, the recipe and the script, and no "
    "value of the original table that the released table does not: "
    "hierarchies go in as the rule that builds them, hierarchy files listing "
    "original values and identity mapping tables stay in your internal archive.",
    "PDPC guide, Step 5",
)

identities = identity_table(result.mappings, result.linking)
sealed = {}  # the encrypted identity tables, for the internal archive below
st.markdown("**Identity mapping tables (encrypted)**")
if identities.empty:  # nothing to encrypt: no passphrase or download to show
    st.caption("No pseudonymisation step made an identity mapping table.")
else:
    passphrase = st.text_input(
        "Passphrase for the mapping tables",
        type="password",
        key="mapping_passphrase",
        help=f"At least {MIN_PASSPHRASE_CHARS} characters, mixing upper and "
        "lower case, digits and symbols (Step 5).",
    )
    weak = passphrase_problem(passphrase)
    if passphrase and weak:
        st.warning(weak)
    blob = encrypt_table(identities, passphrase) if weak is None else b""
    sealed = {"identities": blob} if weak is None else {}
    st.download_button(
        "Identity mapping tables (encrypted)",
        blob,
        file_name="mapping.enc",
        mime="application/octet-stream",
        disabled=weak is not None,
        key="download_mapping_encrypted",
    )
    presentation.explain(
        "Keep the mapping tables apart from the data and never share them; send the "
        "passphrase separately. To read them back, put the passphrase in an "
        f"environment variable NAME and run `{DECRYPT_COMMAND}`.",
        "PDPC guide, Step 5 and Annex A: Pseudonymisation",
    )

st.markdown("**For your records (internal)**")
archive_name = "INTERNAL-reproduction-archive.zip"
if prepared is None:
    why = "prepare the release first" if check.releasable else "locked: see the release check"
    st.download_button(
        f"Reproduction archive ({why})",
        b"",
        file_name=archive_name,
        key="download_archive",
        disabled=True,
    )
# Built only on request (a second zip of the release on every rerun otherwise), and the
# request is a person saying they know what the file holds.
elif st.checkbox(
    "Prepare the reproduction archive. It holds personal data (hierarchy "
    "files listing original values, the encrypted identity tables): I keep it "
    "as securely as the original data and never send it to a recipient.",
    key="prepare_archive",
):
    archive = release_state.release_archive(report, data_bytes, fmt, sealed)
    st.download_button(
        "Reproduction archive (internal: holds personal data)",
        archive,
        file_name=archive_name if check.passed else marked_name(archive_name),
        mime="application/zip",
        key="download_archive",
    )
presentation.explain(
    "The archive re-runs this release from the original data: it holds the "
    "hierarchy files, the recipe, the script and, once a passphrase is set above, "
    "the encrypted identity mapping tables; its README.txt says it holds personal "
    "data. What goes to a recipient is the release bundle above.",
    "PDPC guide, Step 5 and Annex A: Pseudonymisation",
)

with st.expander("Report preview", expanded=False):
    st.markdown(markdown)
