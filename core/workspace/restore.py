"""Restoring an earlier state of a project: a recipe version, and the roles and settings in
force when it was recorded (issue 29).

Nothing is rewritten: a restore adds what it brings back as the newest record (a recipe
version "restored from vN", a role set, setting changes) and one ``restore`` entry in the
hash-chained audit log, so the log shows who went back to what, and when; the versions
after it stay in history. The state at a version is read from the audit log itself (each
change of roles and settings is an entry with its full value), so it works for any
workspace this tool wrote.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.workspace.opening import Workspace
from core.workspace.settings import setting_problem
from core.workspace.store import WorkspaceError

#: Settings of the project a restore brings back (not the pointers, nor the workspace's
#: own choices such as whether it keeps rows or how its audit chain is made).
PROJECT_SETTINGS = (
    "k",
    "sensitive",
    "annex_d",
    "use_case",
    "not_quasi_identifiers",
    "reviewed_text",
    "targets",
    "tradeoff_hierarchies",
    "controls_in_place",
    "annex_d_insider_table",
)


@dataclass(frozen=True)
class StateAt:
    """The project as it stood when one recipe version was recorded."""

    version: int
    data_sha256: str | None  # the current data set then
    data_name: str | None
    roles: dict[str, str] = field(default_factory=dict)  # of that data set
    settings: dict[str, Any] = field(default_factory=dict)  # PROJECT_SETTINGS set by then


def state_at(ws: Workspace, version_id: int) -> StateAt:
    """The data set, roles and project settings in force when recipe version
    ``version_id`` was recorded (replayed from the audit log up to its entry)."""
    ws.recipe_version(version_id)  # a clear error if it does not exist
    data: dict[str, Any] = {}
    roles: dict[str, dict[str, str]] = {}
    settings: dict[str, Any] = {}
    for entry in ws.audit_entries():
        action, obj, summary = entry["action"], entry["object"], entry["summary"]
        if not isinstance(summary, Mapping):
            continue
        if action == "setting" and isinstance(obj, str) and obj.startswith("setting:"):
            key = obj.removeprefix("setting:")
            if key == "current_data" and isinstance(summary.get("value"), Mapping):
                data = dict(summary["value"])
            elif key in PROJECT_SETTINGS and setting_problem(key, summary.get("value")) is None:
                settings[key] = summary.get("value")
        elif action == "roles" and isinstance(summary.get("roles"), Mapping):
            roles[str(summary.get("data_sha256"))] = {
                str(c): str(r) for c, r in summary["roles"].items()
            }
        elif action == "recipe" and obj == f"recipe:{version_id}":
            break
    sha = data.get("sha256") if isinstance(data.get("sha256"), str) else None
    name = data.get("name") if isinstance(data.get("name"), str) else None
    return StateAt(version_id, sha, name, roles.get(str(sha), {}), settings)


def restore_version(
    ws: Workspace, version_id: int, *, author: str, data_sha256: str, with_settings: bool
) -> StateAt:
    """Make recipe version ``version_id`` the current recipe again (a new version "restored
    from vN" with its YAML) and, ``with_settings``, the roles and project settings in force
    then; one ``restore`` audit entry names what came back. Refused when the version was
    made for another data set than ``data_sha256`` (its steps name that table's columns).
    A setting first set after that version keeps its value (there is none to go back to).
    """
    then = state_at(ws, version_id)
    if then.data_sha256 is not None and then.data_sha256 != data_sha256:
        raise WorkspaceError(
            f"Version v{version_id} was made for the data set {then.data_name!r}, not the one "
            "loaded: load that data set on Data first, then restore it."
        )
    old = ws.recipe_version(version_id)
    with ws.transaction():
        new = ws.add_recipe_version(old.yaml, message=f"restored from v{version_id}", author=author)
        ws.set_setting("current_recipe", new.id)
        restored = ["recipe"]
        if with_settings:
            if then.roles and then.roles != ws.roles(data_sha256):
                ws.set_roles(data_sha256, then.roles, author=author)
            restored.append("roles")
            for key, value in then.settings.items():
                ws.set_setting(key, value)
            restored.append("settings")
        ws.log(
            "restore",
            f"recipe:{version_id}",
            {
                "data_sha256": data_sha256,
                "recipe_sha256": old.sha256,
                "restored_as": new.id,
                "restored": restored,
                "author": author,
            },
        )
    return then
