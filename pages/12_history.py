"""History: the workspace's audit log, recipe versions side by side, and past releases.

PDPC guide, Step 5: record "the details of the anonymisation process, parameters used and
controls", and keep the record securely. The workspace (core.workspace) holds that record;
this page shows it, checks its hash chain and re-runs a past release to compare its output.
"""

from __future__ import annotations

import difflib
import json
import math

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from core.audit_check import check_records
from core.audit_words import action_in_words, object_in_words
from core.figure_names import RECORD_RISK
from core.formatting import MISSING, fmt_count, fmt_probability
from core.markup import escape_markdown
from core.release.reproduce import reproduce_release
from ui.page_errors import continue_on_error, stop_on_error
from ui.state import following, presentation, session, workspace
from ui.tables import formatted_table

#: The workspace's column names as a person reads them (no created_at, output_sha256).
_HEADERS = {
    "id": "entry",
    "p_reid": RECORD_RISK.name,
    "created_at": "released at",
    "output_name": "file",
    "recipe_version_id": "recipe version",
    "output_sha256": "fingerprint of the file (sha256)",
}


def _readable(frame: pd.DataFrame, time_column: str, id_name: str = "entry") -> Styler:
    """Times to the second in UTC, k and the highest record risk 1/k through the app's
    formatter ("-" when an entry has none, never "None"), as a person reads a log, under
    headers in words; the grid still sorts the figures as numbers. Ids, seeds and recipe
    versions are names, shown as they are. The log's ``p_reid`` is 1/k
    (core.release.record.release_risk), not the Annex D P(re-ID): it is shown under its
    own name (core.figure_names)."""
    table = frame.assign(
        **{
            time_column: pd.to_datetime(frame[time_column], utc=True, format="ISO8601").dt.strftime(
                "%Y-%m-%d %H:%M:%S UTC"
            )
        }
    ).rename(columns={**_HEADERS, "id": id_name})
    figures = {"k": fmt_count, RECORD_RISK.name: fmt_probability}
    for column in table.columns:
        if not table[column].isna().any():
            continue
        # The browser draws an empty cell as a grey "None" whatever a Styler says: a column
        # with one is shown as text, "-" where an entry has none (it then sorts as text).
        table[column] = table[column].map(figures.get(column, _name_or_missing))
    names = [c for c in (id_name, "seed", "recipe version") if c in table.columns]
    numbers = [c for c in figures if c in table.columns and pd.api.types.is_numeric_dtype(table[c])]
    return formatted_table(
        table,
        counts=[c for c in numbers if c == "k"],
        measures=[c for c in numbers if c != "k"],
        labels=names,
    )


def _name_or_missing(value: object) -> str:
    """An id, seed or text as shown: "-" when missing, a whole float without ".0"."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


st.title("History")
presentation.explain(
    "Everything done in this project is kept in one workspace file: data sets, roles, every "
    "recipe version, settings, risk figures and releases, with an audit log that cannot be "
    "changed without it showing.",
    "PDPC guide, Step 5",
    training=(
        "Step 5 asks you to record what was done, with which parameters and controls, and "
        "to keep that record safe. Try it: change a step on Techniques and compare the two "
        "recipe versions below, then prepare a release on Report and re-run it here to "
        "see that the same recipe and seed make the same file."
    ),
)

# --- which workspace ----------------------------------------------------------------------
left, right = st.columns([3, 1])
path = left.text_input(
    "Workspace file",
    str(workspace.workspace_path()),
    key="hist_path",
    help="Opened if it exists, created otherwise (e.g. project.anon.db).",
)
if right.button("Open or create", key="hist_open"):
    with continue_on_error():
        following.switch_workspace(path)
        st.rerun()

with stop_on_error(), workspace.open_workspace() as ws:
    chain = ws.verify_chain()
    problems = check_records(ws) if chain.ok else []
    entries = ws.audit_entries()
    versions = ws.recipe_versions()
    releases = ws.releases()
    dataset_names = {d["sha256"]: d["name"] for d in ws.datasets()}

# --- audit log ----------------------------------------------------------------------------
st.subheader("Audit log")
(st.success if chain.ok else st.error)(escape_markdown(chain.explanation()))
for problem in problems:  # a row changed under an intact log (core.audit_check)
    st.error(escape_markdown(f"Record changed outside the audit log: {problem}"))
presentation.explain(
    "Each entry stores the fingerprint (sha256) of the one before, so an entry "
    "changed or removed afterwards breaks the chain from that entry on.",
    "PDPC guide, Step 5 (keep the record securely)",
)
if entries:
    log = pd.DataFrame(entries)[["id", "time", "action", "object", "k", "p_reid"]].iloc[::-1]
    # In words (core.audit_words); the exact tokens the chain hashes are in the download.
    log["action"] = log["action"].map(action_in_words)
    log["object"] = log["object"].map(lambda obj: object_in_words(obj, dataset_names))
    st.dataframe(
        _readable(log, "time"),
        hide_index=True,
        width="stretch",
        key="hist_log",
        # A data set's object names it and its shortened sha256: at its own width it
        # pushed the last column's header ("highest record risk (1/k)") past the grid's edge.
        column_config={
            "object": st.column_config.TextColumn(
                width="medium",
                help="What the entry is about, in words. The exact entry, as the hash "
                "chain covers it, is in the downloaded audit log below.",
            )
        },
    )
    with st.expander("Exact entries, for checking the chain"):
        st.caption(
            "The audit log as recorded: each entry's exact object (e.g. a data set's full "
            "sha256), its summary and its hash, as the chain covers them. The command line "
            "prints the same with python -m core log --json."
        )
        st.download_button(
            "Download the audit log (JSON)",
            json.dumps(entries, indent=2, ensure_ascii=False, default=str),
            file_name="audit_log.json",
            mime="application/json",
            key="hist_download_log",
        )

# --- recipe versions ----------------------------------------------------------------------
st.subheader("Recipe versions")
if not versions:
    st.info("No recipe version yet.")
else:
    labels = {
        v.id: f"v{v.id} · {v.created_at[:16].replace('T', ' ')} UTC · {v.message}" for v in versions
    }
    ids = list(labels)
    a, b = st.columns(2)
    older = a.selectbox(
        "Version", ids, index=max(len(ids) - 2, 0), format_func=labels.get, key="hist_v_old"
    )
    newer = b.selectbox(
        "Compared with", ids, index=len(ids) - 1, format_func=labels.get, key="hist_v_new"
    )
    by_id = {v.id: v for v in versions}
    # Plain text, not Streamlit's syntax colours: its YAML and diff token colours fail the
    # WCAG AA contrast ratio (axe, tests/browser/test_every_page.py).
    a.code(by_id[older].yaml, language=None)
    b.code(by_id[newer].yaml, language=None)
    diff = "\n".join(
        difflib.unified_diff(
            by_id[older].yaml.splitlines(),
            by_id[newer].yaml.splitlines(),
            f"v{older}",
            f"v{newer}",
            lineterm="",
        )
    )
    st.code(diff or "(the two versions are the same)", language=None)
    # Going back is a new record, never a rewrite (core.workspace.restore).
    with_settings = st.checkbox(
        "With the roles and settings in force then (k, Annex D, use case, targets...)",
        value=True,
        key="hist_restore_settings",
    )
    if st.button(f"Restore v{older} as the recipe in force", key="hist_restore"):
        with continue_on_error():
            following.restore_version(older, with_settings=with_settings)
            st.rerun()
    presentation.explain(
        "Restoring adds the chosen version again as the newest one, and an entry to the "
        "audit log saying who went back to what; the versions after it stay here.",
        "PDPC guide, Step 5 (record the process and parameters)",
    )

# --- releases -----------------------------------------------------------------------------
st.subheader("Releases")
if not releases:
    st.info("No release yet: downloading the data or the release bundle on Report records one.")
    st.stop()
table = pd.DataFrame(releases)
st.dataframe(
    _readable(
        table[
            [
                "id",
                "created_at",
                "output_name",
                "k",
                "p_reid",
                "seed",
                "recipe_version_id",
                "engine",
                "output_sha256",
            ]
        ],
        "created_at",
        id_name="release",
    ),
    hide_index=True,
    width="stretch",
    key="hist_releases",
)
presentation.explain(
    "Each release keeps its input's and output's sha256, the recipe version, "
    "the seed and the engine that made it (a release streamed by DuckDB or Spark "
    "is made again the same way, block by block), so it can be made again and "
    "compared byte for byte.",
    "PDPC guide, Step 5",
)
chosen = st.selectbox("Release", list(table["id"]), index=len(table) - 1, key="hist_release")
if st.button("Re-run this release", key="hist_rerun"):
    release = next(r for r in releases if r["id"] == chosen)
    # The loaded data set is used when it is the release's input (same sha256).
    same = session.has_data() and st.session_state.get("data_sha256") == release["data_sha256"]
    with st.spinner("Re-running the recorded recipe..."), workspace.open_workspace() as ws:
        outcome = reproduce_release(ws, release, session.original() if same else None)
    # The line names the recorded data path: text from a workspace someone may have sent.
    shown = escape_markdown(outcome.line())
    {"reproduced": st.success, "mismatch": st.error}.get(outcome.status, st.info)(shown)
