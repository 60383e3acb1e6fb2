"""Following the workspace: the table the dashboard opens with, switching workspaces,
restoring a session from one, and taking over on every rerun what another session (or
the command line) changed there."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.io import read_table
from core.recipe import EditHistory, Recipe
from core.roles import Role
from core.workspace import Workspace, WorkspaceError, sha256_file
from core.workspace.restore import restore_version as restore_in_workspace
from ui.page_errors import error_text
from ui.state import early_read
from ui.state.cache import forget_session_caches, remember_table, remembered_table
from ui.state.loading import (
    DEFAULT_SAMPLE,
    install_original,
    load_path,
    show_sample,
)
from ui.state.risk import CONTROLS_KEY, INSIDER_TABLE_KEY
from ui.state.session import (
    DECISIONS_KEY,
    HIERARCHY_CHOICES_KEY,
    K_TARGET_KEY,
    KEEP_ROWS_KEY,
    REVIEWS_KEY,
    SENSITIVE_KEY,
    SIGN_OFF_KEY,
    TARGETS_KEY,
    has_data,
    history,
    original,
    recipe,
    session,
    source_name,
)
from ui.state.widgets import forget_widgets_showing
from ui.state.workspace import (
    SEEN_AT_KEY,
    SEEN_KEY,
    SYNC_NOTE_KEY,
    author,
    mark_seen,
    open_workspace,
    revision_key,
    workspace_snapshot,
    write_through,
)


def load_startup_table() -> None:
    """The table the dashboard opens with: where the workspace left off (its data set,
    recipe, roles and settings), else $ANON_DATA if set, else the default sample. Opening
    never replaces the workspace's project (issue 29): when it holds one it cannot reopen,
    the sample is shown without writing anything until the user works on it.

    ``ANON_DATA=/path/to/file.csv bash scripts/start.sh`` opens your own file directly.
    """
    path = os.environ.get("ANON_DATA")
    if restore_from_workspace():
        if path:
            early_read.forget(path)  # read while app.py imported the library: not needed
        mark_seen()
        return
    if path:
        try:
            load_path(path)
            mark_seen()
            return
        except AnonymisationError as error:
            st.error(
                f"ANON_DATA could not be opened: {error_text(error)} "
                "The sample table is shown instead."
            )
    # A project it cannot reopen, or a new workspace: the sample is shown, and recorded
    # only at the first change made on it (opening the app writes no version, no audit).
    # (a restore_note, if any, is said beside it)
    show_sample(DEFAULT_SAMPLE)
    mark_seen()


def switch_workspace(path: str) -> None:
    """Open (or create) the workspace at ``path`` and continue from what it holds."""
    Workspace(path).close()  # raises WorkspaceError with a clear message; nothing changes
    state = session()
    for key in (
        "original",
        "history",
        "roles",
        "data_sha256",
        HIERARCHY_CHOICES_KEY,
        "tradeoff_result",
        "local_recoding",
    ):
        state.pop(key, None)
    # Another workspace is another project: its own assumptions, k, sign-off... (or the
    # defaults when it has none), never this one's (issue 29: Annex D carried over).
    for setting, key in _FOLLOWED_SETTINGS.items():
        state.pop(key, None)
        forget_widgets_showing(setting)
    forget_session_caches()
    state["workspace_path"] = str(path)
    state.pop(SEEN_AT_KEY, None)
    if not restore_from_workspace():
        show_sample(DEFAULT_SAMPLE)  # recorded at the first change made on it
    mark_seen()


def restore_from_workspace() -> bool:
    """Continue where the workspace left off: its data set, recipe, roles and settings.

    False if it holds no data set yet, or its rows are neither stored nor at the recorded
    path with the same content (then the user loads the data again).
    """
    try:
        with open_workspace() as ws:
            settings = ws.settings()
            current = settings.get("current_data")
            if not current:
                return False
            df = _rows_of(ws, current)
            if df is None:
                session()["restore_note"] = (
                    f"The workspace remembers the data set {current['name']!r}, but its rows "
                    "are not stored and its file was not found: upload it again on Data and "
                    "its roles and recipe come back. Until then the sample table is shown, and "
                    "nothing in the workspace has changed."
                )
                return False
            version = settings.get("current_recipe")
            recipe_text = ws.recipe_version(version).yaml if version else None
            roles_saved = ws.roles(current["sha256"])
    except (WorkspaceError, AnonymisationError) as error:
        session()["workspace_error"] = str(error)
        # said beside the table shown instead (a later write may clear workspace_error)
        session()["restore_note"] = f"The workspace could not be read: {error}"
        return False
    install_original(df, current["name"])
    state = session()
    state.pop("restore_note", None)
    state["data_sha256"] = current["sha256"]
    if recipe_text:
        state["history"] = EditHistory(Recipe.from_yaml(recipe_text))
    _set_roles_from(roles_saved)
    _apply_settings(settings, set(_FOLLOWED_SETTINGS))
    state[HIERARCHY_CHOICES_KEY] = settings.get(HIERARCHY_CHOICES_KEY, {})
    state[KEEP_ROWS_KEY] = bool(settings.get("keep_rows", True))
    return True


def restore_version(version_id: int, *, with_settings: bool) -> None:
    """Go back to recipe version ``version_id`` (History): it becomes the recipe in force
    (undo returns to the one before), with the roles and settings in force when it was
    recorded if ``with_settings``; recorded in the workspace and its audit log
    (core.workspace.restore). Raises WorkspaceError, e.g. for another data set's version.
    """
    then = write_through(
        lambda ws: restore_in_workspace(
            ws,
            version_id,
            author=author(),
            data_sha256=str(session().get("data_sha256")),
            with_settings=with_settings,
        )
    )
    with open_workspace() as ws:
        text = ws.recipe_version(version_id).yaml
    history().push(Recipe.from_yaml(text))
    what = "recipe"
    if with_settings:
        if then.roles:
            _set_roles_from(then.roles)
            forget_widgets_showing("roles")
        _apply_settings(then.settings, set(then.settings))
        for key in then.settings:
            forget_widgets_showing(key)
        what = "recipe, roles and settings"
    session()[SYNC_NOTE_KEY] = (
        f"Restored the {what} of version {version_id}; the versions after it stay on History."
    )


def _rows_of(ws: Workspace, data_set: dict[str, Any]) -> pd.DataFrame | None:
    """The rows of a data set the workspace points at: already in memory (by sha256), else
    stored in the workspace, else its recorded file if that still has the same content."""
    sha = data_set["sha256"]
    path = Path(data_set["source_path"]) if data_set.get("source_path") else None
    on_disk = path is not None and path.is_file() and sha256_file(path) == sha
    stored = any(known["sha256"] == sha and known["stored"] for known in ws.datasets())
    if not (stored or on_disk):
        return None  # also when this server still has it in memory: not this workspace's
    df = remembered_table(sha)
    if df is None and stored:
        df = ws.dataset_table(sha)
    elif df is None:
        # $ANON_DATA's file, reopened on a restart, was read as app.py started (early_read)
        df = early_read.take(str(path))
        df = read_table(path) if df is None else df
    if df is not None:
        remember_table(sha, df)
        df = df.copy()  # each session its own copy
    return df


def _set_roles_from(saved: dict[str, str]) -> None:
    columns = original().columns
    session()["roles"] = {c: Role(r) for c, r in saved.items() if c in columns}


#: Workspace settings a session follows, and the session key each is kept under.
_FOLLOWED_SETTINGS = {
    "k": K_TARGET_KEY,
    "sensitive": SENSITIVE_KEY,
    "annex_d": "annex_d",
    "use_case": "release_use_case",
    HIERARCHY_CHOICES_KEY: HIERARCHY_CHOICES_KEY,
    "keep_rows": KEEP_ROWS_KEY,
    "not_quasi_identifiers": DECISIONS_KEY,
    "reviewed_text": REVIEWS_KEY,
    "targets": TARGETS_KEY,
    SIGN_OFF_KEY: SIGN_OFF_KEY,
    CONTROLS_KEY: CONTROLS_KEY,
    INSIDER_TABLE_KEY: INSIDER_TABLE_KEY,
}


def _apply_settings(settings: dict[str, Any], keys: set[str]) -> None:
    """Copy the workspace's ``settings`` named in ``keys`` (those it has) into the session."""
    for key in keys & settings.keys():
        value = settings[key]
        if key == "k":
            value = int(value)
        elif key == "keep_rows":
            value = bool(value)
        session()[_FOLLOWED_SETTINGS[key]] = value


# --- following the workspace on every rerun --------------------------------------------
#
# The workspace is the single source of truth of the state (data set pointer, recipe
# version, roles, settings, hierarchies). Every rerun compares the workspace's revision
# (the id of its last audit entry) with the one this session last saw; only when it moved
# does the session read the state again, and it takes over what changed *there* since
# (another tab, another session or the CLI): last writer wins, and the session is told.
# What is expensive stays cached: tables by sha256 (never re-read on a rerun), replays by
# recipe content (the prefix cache). HMAC keys typed in a session are never in the
# workspace: a recipe taken over that needs one asks for it (require_data).


def sync_with_workspace() -> None:
    """Run first on every rerun: open the startup table if none is loaded, else take over
    what changed in the workspace since this session last looked (cheap when nothing did).
    """
    if not has_data():
        load_startup_table()
        return
    state = session()
    try:
        with open_workspace() as ws:
            at = revision_key(ws)
            if state.get(SEEN_AT_KEY) == at:
                return
            snapshot = workspace_snapshot(ws)
            notes = _follow(ws, snapshot, state.get(SEEN_KEY) or {})
    except (WorkspaceError, AnonymisationError) as error:
        state["workspace_error"] = str(error)
        return
    state[SEEN_KEY], state[SEEN_AT_KEY] = snapshot, at
    if notes:
        state[SYNC_NOTE_KEY] = " ".join(notes)


def _follow(ws: Workspace, now: dict[str, Any], seen: dict[str, Any]) -> list[str]:
    """Take over into the session what differs between the workspace's state ``now`` and
    the state this session ``seen`` last; return what to tell the user."""
    state = session()
    settings, before = now["settings"], seen.get("settings", {})
    data_set = settings.get("current_data")
    sha = data_set["sha256"] if data_set else None
    seen_sha = (before.get("current_data") or {}).get("sha256")
    notes = []
    data_changed = False
    if data_set and sha != seen_sha and sha != state.get("data_sha256"):
        df = _rows_of(ws, data_set)
        if df is None:
            return [
                f"Another session opened the data set '{data_set['name']}', whose rows "
                "are neither stored in the workspace nor found at their recorded path: "
                f"this session keeps working on '{source_name()}'."
            ]
        install_original(df, data_set["name"])
        state["data_sha256"] = sha
        state.pop("restore_note", None)
        notes.append(f"The data set changed in another session: now '{data_set['name']}'.")
        data_changed = True
        seen = {}  # everything below belongs to the new data set: take it all
        before = {}
    if sha != state.get("data_sha256"):
        return notes  # the workspace's roles and recipe are about another data set
    if now["recipe"] is not None and now["recipe"] != seen.get("recipe"):
        theirs = Recipe.from_yaml(now["recipe"])
        if theirs.to_yaml() != recipe().to_yaml():
            history().push(theirs)  # undo goes back to this session's recipe
            if not data_changed:  # a new data set comes with its recipe: said once
                notes.append(
                    "The recipe changed in another session: now version "
                    f"{settings['current_recipe']}."
                )
    if now["roles"] is not None and now["roles"] != seen.get("roles"):
        _set_roles_from(now["roles"])
        forget_widgets_showing("roles")
    changed = {key for key in _FOLLOWED_SETTINGS if settings.get(key) != before.get(key)}
    _apply_settings(settings, changed)
    for key in changed & settings.keys():
        forget_widgets_showing(key)
    return notes
