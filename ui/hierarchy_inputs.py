"""The hierarchies section of Explore trade-offs (Step 3): ARX hierarchy files imported in
one go and matched to columns by name, then per quasi-identifier the kind of hierarchy,
its settings and a preview of its levels on this table (PDPC guide, Annex A:
Generalisation). The page calls :func:`hierarchies_section` and :func:`hierarchy_for`.

Widget keys (``to_kind_<column>``, ``to_w_<column>``, ``to_map_<column>``,
``to_up_<column>``) stay as they were on the page, since tests and the workspace's widget
registry name them. A hierarchy is shown by the name of the file a person uploaded, or as
built from the data; the name the workspace keeps it under is a key, never shown (issue 30).
"""

from __future__ import annotations

import hashlib
import json

import pandas as pd
import streamlit as st

from core.auto_hierarchy import auto_words
from core.errors import AnonymisationError
from core.hierarchy import Hierarchy
from core.hierarchy_files import HierarchyFile, read_hierarchy_files, shown_name
from core.markup import escape_markdown
from ui.page_errors import continue_on_error
from ui.progress import working
from ui.state import classify, presentation, session, tradeoffs, widgets
from ui.state import hierarchies as kept_hierarchies
from ui.state.cache import HIERARCHY_CACHE, memo
from ui.state.session import HIERARCHY_CHOICES_KEY
from ui.tradeoffs import (
    gaps_in_words,
    hierarchy_from_choice,
    hierarchy_gaps,
    level_preview_words,
    level_previews,
    value_counts,
)

#: The kinds of hierarchy a column can get, the first the default.
KINDS = ["auto", "numeric", "dates", "masking", "grouping", "suppress", "upload"]
#: Session key: per column, the content (sha256) of the imported file its choice was set
#: from, so a choice changed by hand afterwards is not set back on the next rerun.
_IMPORTED = "to_hier_imported"
_NO_COLUMN = "no column of that name"


def source_words(spec: dict) -> str:
    """Where a column's hierarchy comes from, as a person knows it: "the uploaded hierarchy
    'adult_hierarchy_age.csv'" or "the hierarchy built from the data (numeric)"."""
    if spec.get("kind") == "upload":
        file = spec.get("file")
        return (
            f"the uploaded hierarchy '{shown_name(str(file))}'" if file else "an uploaded hierarchy"
        )
    return f"the hierarchy built from the data ({spec.get('kind', 'auto')})"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _imported(sent: list[tuple[str, bytes]], columns: list[str]) -> list[HierarchyFile]:
    """The files sent, read and matched once per set of files (reruns reuse them)."""
    key = (_digest(b"".join(_digest(d).encode() + n.encode() for n, d in sent)), tuple(columns))
    return memo(
        "hierarchy_import",
        lambda: read_hierarchy_files(sent, columns),
        *key,
        cache_name=HIERARCHY_CACHE,
    )


def _take(column: str, file: HierarchyFile) -> None:
    """Keep ``file``'s hierarchy for ``column`` in the workspace and choose it ("upload"),
    once per file content: a later change by hand stands."""
    done = st.session_state.setdefault(_IMPORTED, {})
    digest = _digest(file.data)
    if done.get(column) == digest:
        return
    name = kept_hierarchies.save_hierarchy(column, file.hierarchy)
    tradeoffs.set_hierarchy_choice(column, {"kind": "upload", "name": name, "file": file.name})
    st.session_state[f"to_kind_{column}"] = "upload"  # drawn below, after this
    done[column] = digest


def import_section(data: pd.DataFrame, qi: list[str]) -> None:
    """One uploader for several ARX hierarchy files or a .zip of a folder of them, each
    matched to a column by its name (``<data>_hierarchy_<column>.csv`` or
    ``<column>.csv``), with a table of the match and a column to pick for a file no column
    matches."""
    uploads = st.file_uploader(
        "Import ARX hierarchies: several files at once, or a .zip of their folder",
        type=["csv", "txt", "zip"],
        accept_multiple_files=True,
        key="to_hier_files",
        help="Each file is matched to a column by its name, as ARX names them: "
        "adult_hierarchy_age.csv (or age.csv) gives the hierarchy of 'age'. Cells "
        "separated by ';' (or ',' when the file has no ';'), one line per value.",
    )
    if not uploads:
        st.session_state.pop(_IMPORTED, None)  # the same files sent again apply again
        return
    columns = [str(c) for c in data.columns]
    try:
        files = _imported([(u.name, u.getvalue()) for u in uploads], columns)
    except AnonymisationError as error:
        st.error(escape_markdown(error), icon=":material/error:")
        return
    rows = []
    for file in files:
        column = file.column
        if file.hierarchy is not None and column is None:
            picked = st.selectbox(
                f"Column for {escape_markdown(file.name)} ({file.problem or _NO_COLUMN})",
                [None, *columns],
                format_func=lambda c: "(leave it out)" if c is None else c,
                key=f"to_hier_pick_{_digest(file.name.encode() + file.data)[:16]}",
            )
            column = picked
        if file.hierarchy is not None and column is not None:
            with continue_on_error():
                _take(column, file)
        rows.append(
            {
                "file": file.name,
                "column": column or ("" if file.hierarchy is None else _NO_COLUMN),
                "levels": None if file.hierarchy is None else file.hierarchy.height,
                "status": _status(file, column, qi),
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="to_hier_matches")
    for file in files:
        if file.hierarchy is None and file.problem and "skipped" not in file.problem:
            st.error(escape_markdown(file.problem), icon=":material/error:")


def _status(file: HierarchyFile, column: str | None, qi: list[str]) -> str:
    if file.hierarchy is None:
        return file.problem or "not read"
    if column is None:
        return "not used: pick its column above"
    if column not in qi:
        return "kept; not a quasi-identifier now"
    return "used"


def hierarchy_inputs(data: pd.DataFrame, column: str) -> dict:
    """The hierarchy chosen for ``column`` (kind and its settings), kept in the workspace."""
    left, right = st.columns([1, 2])
    before = tradeoffs.hierarchy_choices().get(column, {})  # across pages and restarts
    key = widgets.showing(HIERARCHY_CHOICES_KEY, f"to_kind_{column}")
    if key not in st.session_state:  # set here, not as a default: an import may set it
        kind = before.get("kind", "auto")
        st.session_state[key] = kind if kind in KINDS else "auto"
    kind = left.selectbox(escape_markdown(column), KINDS, key=key)
    spec: dict = {"kind": kind}
    if kind == "auto":  # what Step 1 found decides the rule (core.auto_hierarchy)
        found = _detected(column)
        right.caption(
            escape_markdown(
                f"Step 1 found {found.replace('_', ' ') if found else 'no kind'}: "
                f"{auto_words(data[column], found)}"
            )
        )
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
        label = "Another ARX file for this column" if before.get("name") else "ARX hierarchy (CSV)"
        upload = right.file_uploader(label, key=f"to_up_{column}")
        spec["name"] = before.get("name")
        if before.get("file"):
            spec["file"] = before["file"]
        if upload is not None:
            with continue_on_error(right):
                name = kept_hierarchies.keep_uploaded_hierarchy(
                    column, upload.getvalue(), upload.name
                )
                spec.update(name=name, file=shown_name(upload.name))
        if spec["name"]:
            right.caption(f"Using {escape_markdown(source_words(spec))}, kept in the workspace.")
            with continue_on_error(right):
                hierarchy = kept_hierarchies.stored_hierarchy(spec["name"], spec.get("file"))
                if gaps := hierarchy_gaps(data[column], hierarchy):
                    shown = shown_name(str(spec.get("file") or "uploaded"))
                    right.warning(
                        escape_markdown(gaps_in_words(column, shown, gaps)),
                        icon=":material/warning:",
                    )
    tradeoffs.set_hierarchy_choice(column, spec)
    return spec


def preview(data: pd.DataFrame, column: str, spec: dict, basis: str) -> None:
    """Each level of ``column``'s hierarchy on this table: groups and the largest with their
    record counts, computed per distinct value and kept until the table or choice changes."""
    choice = json.dumps(spec, sort_keys=True, default=str)
    key = (session.data_set_id(), basis, len(data), column, choice, _detected(column))

    def build_levels() -> list:
        # an auto hierarchy reads every distinct value (addresses, dates): say so
        with working(f"Building the levels of '{column}' on {len(data):,} records..."):
            return level_previews(counts, hierarchy_for(data, column, spec))

    try:
        counts = memo(
            "value_counts", lambda: value_counts(data[column]), *key[:4], cache_name=HIERARCHY_CACHE
        )
        previews = memo("level_previews", build_levels, *key, cache_name=HIERARCHY_CACHE)
    except (AnonymisationError, ValueError) as error:
        st.caption(f"No preview of '{escape_markdown(column)}': {escape_markdown(error)}")
        return
    lines = [escape_markdown(level_preview_words(p)) for p in previews]
    # an upload is named in the caption just above; a built one says so here
    built = "" if spec.get("kind") == "upload" else f", {escape_markdown(source_words(spec))}"
    st.caption(
        f"Levels of '{escape_markdown(column)}'{built} (records in this table):  \n"
        + "  \n".join(lines)
    )


def hierarchies_section(
    data: pd.DataFrame, qi: list[str], basis: str = "original"
) -> dict[str, dict]:
    """The "Hierarchies" expander: the import of several files first, then each
    quasi-identifier's choice and the preview of its levels, by column."""
    with st.expander("Hierarchies", expanded=False):
        import_section(data, qi)
        presentation.explain(
            "ARX format: one line per value, 'value;level 1;...;*'. Several files at once are "
            "matched to columns by name; each column's choice below can still be changed.",
            "PDPC guide, Annex A: Generalisation",
        )
        specs = {}
        for column in qi:
            specs[column] = hierarchy_inputs(data, column)
            preview(data, column, specs[column], basis)
    return specs


def hierarchy_for(data: pd.DataFrame, column: str, spec: dict) -> Hierarchy:
    """The hierarchy ``spec`` describes for ``column`` of ``data`` ("auto" by the kind Step 1
    found in the column: :mod:`core.auto_hierarchy`)."""
    return hierarchy_from_choice(
        data[column].rename(column),
        spec,
        stored=kept_hierarchies.stored_hierarchy,
        detected=_detected(column),
    )


def _detected(column: str) -> str | None:
    """The kind Step 1 found in ``column`` (what "auto" builds from)."""
    return {str(c): s.kind for c, s in classify.suggestions().items()}.get(column)
