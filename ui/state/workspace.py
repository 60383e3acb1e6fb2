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
from ui.state.session import recipe, session

# --- the workspace ------------------------------------------------------------------------
#
# One SQLite file (core.workspace) is the project's record: every change of data, roles,
# recipe and settings is written through to it, a new session (a restart) starts from it,
# and every rerun takes over what changed in it (ui.state.following).
# The session keeps working copies only (the table, the replay cache).

SEEN_KEY = "workspace_seen"  # the followed state as this session last saw it
SEEN_AT_KEY = "workspace_seen_at"  # (workspace file, revision) it was seen at
SYNC_NOTE_KEY = "workspace_sync_note"  # what was taken over, said once in the sidebar


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


def write(action: Callable[[Workspace], Any]) -> Any:
    """Write through to the workspace. If it cannot be written, say so in the sidebar;
    the session's work goes on (and nothing half-written is left: one transaction)."""
    try:
        return write_through(action)
    except WorkspaceError as error:
        session()["workspace_error"] = str(error)
        return None


def write_through(action: Callable[[Workspace], Any]) -> Any:
    """:func:`write` for a caller that must know it failed: raises what the write raised."""
    seen = None
    with open_workspace() as ws, ws.transaction():
        # If nothing else wrote since this session last looked, what it sees now is
        # its own write: remember it, so the next rerun does not reload it.
        up_to_date = session().get(SEEN_AT_KEY) == revision_key(ws)
        result = action(ws)
        if up_to_date:
            seen = (workspace_snapshot(ws), revision_key(ws))
    if seen is not None:
        session()[SEEN_KEY], session()[SEEN_AT_KEY] = seen
    session().pop("workspace_error", None)
    return result


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
