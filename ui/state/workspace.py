"""The session's binding to its workspace (core.workspace): which file, opening it,
writing through to it, and the state of it this session last saw.

One SQLite file is the project's record: every change of data, roles, recipe and
settings is written through to it; :mod:`ui.state.following` takes over what others
changed in it. Also the differential-privacy budget kept there.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.errors import AnonymisationError
from core.workspace import Workspace, WorkspaceError
from core.workspace import default_path as default_workspace_path
from ui.state.cache import remember_table
from ui.state.session import KEEP_ROWS_KEY, original, recipe, session

# --- the workspace ------------------------------------------------------------------------
#
# One SQLite file (core.workspace) is the project's record: every change of data, roles,
# recipe and settings is written through to it, a new session (a restart) starts from it,
# and every rerun takes over what changed in it (ui.state.following).
# The session keeps working copies only (the table, the replay cache).

SEEN_KEY = "workspace_seen"  # the followed state as this session last saw it
SEEN_AT_KEY = "workspace_seen_at"  # (workspace file, revision) it was seen at
SYNC_NOTE_KEY = "workspace_sync_note"  # what was taken over, said once in the sidebar
# The data set shown but not yet in the workspace, and how to record it (a dict; see
# unrecorded_data_set): opening the dashboard writes nothing, so a sample shown because
# the workspace's project could not be reopened never replaces that project (issue 29).
UNRECORDED_KEY = "unrecorded_data_set"


def workspace_path() -> Path:
    """The session's workspace: the one opened on History, else $ANON_WORKSPACE, else
    ``workspace.anon.db`` in the working folder."""
    return Path(session().get("workspace_path") or default_workspace_path())


def open_workspace() -> Workspace:
    """The workspace, opened for one use (``with workspace.open_workspace() as ws:``)."""
    return Workspace(workspace_path())


def author() -> str:
    """Who acted: the dashboard has no log-in, so the account running it."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def write(action: Callable[[Workspace], Any], *, about_the_data: bool = True) -> Any:
    """Write through to the workspace. If it cannot be written, say so in the sidebar;
    the session's work goes on (and nothing half-written is left: one transaction).

    ``about_the_data``: the change is work on the table shown (roles, recipe, settings of
    the project), so a table not yet recorded becomes the project first; False for a
    choice about the workspace itself (e.g. whether it keeps rows)."""
    try:
        return write_through(action, about_the_data=about_the_data)
    except WorkspaceError as error:
        session()["workspace_error"] = str(error)
        return None


def write_through(action: Callable[[Workspace], Any], *, about_the_data: bool = True) -> Any:
    """:func:`write` for a caller that must know it failed: raises what the write raised."""
    seen = None
    with open_workspace() as ws, ws.transaction():
        # If nothing else wrote since this session last looked, what it sees now is
        # its own write: remember it, so the next rerun does not reload it.
        up_to_date = session().get(SEEN_AT_KEY) == revision_key(ws)
        # The first change on a table shown records it (opening the app wrote nothing).
        recorded = _record_data_set(ws) if about_the_data else None
        result = action(ws)
        if up_to_date:
            seen = (workspace_snapshot(ws), revision_key(ws))
    if recorded is not None and session().get(UNRECORDED_KEY) is recorded:
        session().pop(UNRECORDED_KEY)  # committed (a failed write keeps it for the next)
    if seen is not None:
        session()[SEEN_KEY], session()[SEEN_AT_KEY] = seen
    session().pop("workspace_error", None)
    return result


def keep_rows() -> bool:
    """Whether the workspace keeps a copy of the data set's rows (compressed Parquet): yes
    unless the user said no (setting ``keep_rows``), so an upload survives a restart."""
    return bool(session().get(KEEP_ROWS_KEY, True))


def unrecorded_data_set(
    name: str,
    *,
    sha256: str,
    source_path: str | None = None,
    shipped: bool = False,
    recipe_version: int | None = None,
) -> None:
    """Mark the loaded table as not yet in the workspace: the next write records it first
    (its fingerprint, its rows unless the user said no or it ships with the tool, then the
    recipe in force: ``recipe_version`` if it is one recorded before, else a new version)."""
    session()["data_sha256"] = sha256
    session()[UNRECORDED_KEY] = {
        "name": name,
        "sha256": sha256,
        "source_path": source_path,
        "shipped": shipped,
        "recipe_version": recipe_version,
    }


def _record_data_set(ws: Workspace) -> dict[str, Any] | None:
    """Record the data set marked by :func:`unrecorded_data_set` (in the open transaction)
    and make it, with its recipe, the workspace's current one; what was recorded."""
    pending = session().get(UNRECORDED_KEY)
    if pending is None:
        return None
    df, name = original(), pending["name"]
    store = keep_rows() and not pending["shipped"]
    sha = ws.add_dataset(
        df,
        name=name,
        source_path=pending["source_path"],
        sha256=pending["sha256"],
        store_data=store,
    )
    ws.set_setting(
        "current_data", {"sha256": sha, "name": name, "source_path": pending["source_path"]}
    )
    version = pending["recipe_version"]
    if version is None:
        text = recipe().to_yaml()
        version = ws.add_recipe_version(text, message=f"new data set {name!r}", author=author()).id
    ws.set_setting("current_recipe", version)
    if store or pending["source_path"]:  # other sessions could read it back anyway
        remember_table(sha, df)
    return pending


def record_recipe(message: str) -> None:
    """Record the recipe in force as a new version in the workspace, ``message`` saying
    what changed, and make it the current one."""
    text = recipe().to_yaml()

    def record(ws: Workspace) -> None:
        with ws.transaction():
            version = ws.add_recipe_version(text, message=message, author=author())
            ws.set_setting("current_recipe", version.id)
            _point_at_own_data_set(ws)

    write(record)


def _point_at_own_data_set(ws: Workspace) -> None:
    """Point the workspace at this session's data set too: the recipe pointer belongs to
    the data set pointer, so the last writer sets both and no session ever takes over a
    recipe made for another table (e.g. after it kept its own table when another tab
    opened one whose rows it could not read)."""
    sha = session().get("data_sha256")
    if not sha or (ws.settings().get("current_data") or {}).get("sha256") == sha:
        return
    known = next((d for d in ws.datasets() if d["sha256"] == sha), None)
    if known is not None:
        ws.set_setting(
            "current_data",
            {"sha256": sha, "name": known["name"], "source_path": known["source_path"]},
        )


def revision_key(ws: Workspace) -> tuple[str, int]:
    """Which workspace file, at which revision (the id of its last audit entry)."""
    return (str(ws.path), ws.revision())


def workspace_snapshot(ws: Workspace) -> dict[str, Any]:
    """The followed state as the workspace holds it now (a few small queries)."""
    settings = ws.settings()
    data_set = settings.get("current_data") or {}
    version = settings.get("current_recipe")
    return {
        "settings": settings,
        "roles": ws.roles(data_set["sha256"]) if data_set else None,
        "recipe": ws.recipe_version(version).yaml if version else None,
        "hierarchies": sorted(ws.hierarchy_columns()),
    }


def mark_seen() -> None:
    """Remember the workspace's state as this session's starting point."""
    try:
        with open_workspace() as ws:
            session()[SEEN_KEY], session()[SEEN_AT_KEY] = workspace_snapshot(ws), revision_key(ws)
    except WorkspaceError as error:
        session()["workspace_error"] = str(error)


def dp_ledger() -> dict[str, Any] | None:
    """The workspace's differential-privacy budget and the charges released so far."""
    try:
        with open_workspace() as ws:
            return ws.dp_budget()
    except WorkspaceError as error:
        session()["workspace_error"] = str(error)
        return None


def record_dp_release(
    epsilon: float, delta: float, charges: list[tuple[str, float, float]], about: dict[str, Any]
) -> None:
    """Charge a released noisy table's queries to the workspace's budget (download callback);
    the budget is then spent for every later session too (sequential composition)."""

    def record(ws: Workspace) -> None:
        with ws.transaction():
            ws.set_dp_budget(epsilon, delta)
            if charges:
                ws.add_dp_charges(charges, about=about)

    try:
        with open_workspace() as ws:
            record(ws)
    except AnonymisationError as error:  # e.g. the budget was spent meanwhile elsewhere
        session()["workspace_error"] = str(error)
