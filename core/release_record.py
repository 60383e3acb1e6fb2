"""Record a release before anything of it leaves, once (issue 27, "The release escapes its
record").

``apply`` (core.cli) and the dashboard's Report page record a release the same way: the
workspace stores it (core.audit.record_release: data set, recipe version, hierarchies,
risk and release in one transaction), then the files are made, and the report and the
recipient's bundle carry the release's anchor in the audit log (core.audit_check), so
``verify --report`` / ``--bundle`` shows later whether the log was cut or rewritten.

The dashboard may ask again for the same release (a second visit to the Report page, a
new session, another click): :func:`record_once` finds a release of the same output
(sha256) made with the same recipe version and gives its anchor instead of recording a
second one. The sign-off typed on the page is recorded with the release (Step 5).

PDPC guide, Step 5 (keep a record of the anonymisation process); NIST SP 800-188 §4.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from core.audit import RecordedRelease, record_release
from core.bundle import portable_recipe, stored_tables
from core.errors import AnonymisationError
from core.recipe import Recipe, RecipeResult
from core.workspace import Workspace, sha256_text

#: The sign-off roles recorded with a release (core.release.SIGN_OFF_FIELDS' people).
SIGNING_ROLES = ("Prepared by", "Reviewed by", "Approved by")
#: The sign-off field that says what the release is for (part of each signed statement).
PURPOSE = "Purpose of release"


@dataclass(frozen=True)
class PreparedRelease:
    """A release as recorded: its id, its anchor in the audit log, the portable recipe and
    hierarchies its bundle carries, and whether this call recorded it (``new``) or found it
    recorded already."""

    release_id: int
    anchor: dict[str, Any]
    recipe: Recipe
    hierarchies: dict[str, str]
    new: bool


def portable_release_recipe(
    workspace: Workspace, recipe: Recipe, seed: int, base_dir: Any = None
) -> tuple[Recipe, dict[str, str]]:
    """The recipe as a release records it (hierarchies by content, the seed used) and the
    hierarchies' text: the same as :func:`core.audit.record_release` stores."""
    portable, hierarchies = portable_recipe(
        recipe, base_dir=base_dir, known=workspace.hierarchies()
    )
    return Recipe(portable.steps, seed, portable.meta), hierarchies


def release_entry_anchor(workspace: Workspace, release: Mapping[str, Any]) -> dict[str, Any]:
    """The anchor of a recorded release: the position and hash of its own audit entry (what
    core.audit_check.anchor_of gave when it was recorded, as its entry ends its record).
    Raises AnonymisationError if the release has no entry (a log cut or edited)."""
    release_id = int(release["id"])
    entry = next(
        (
            e
            for e in reversed(workspace.audit_entries())
            if e["action"] == "release" and e["object"] == f"release:{release_id}"
        ),
        None,
    )
    if entry is None:
        raise AnonymisationError(
            f"Release {release_id} has no entry in the workspace's audit log: run "
            "`python -m core verify` on the workspace before releasing from it."
        )
    return {
        "release": release_id,
        "entries": int(entry["id"]),
        "head": entry["hash"],
        "keyed": workspace.keyed,
        "output_sha256": release["output_sha256"],
    }


def _record_sign_offs(workspace: Workspace, release_id: int, sign_off: Mapping[str, str]) -> None:
    """The sign-off's people, each recorded once with the release."""
    purpose = str(sign_off.get(PURPOSE, "")).strip()
    have = {(s["name"], s["role"]) for s in workspace.signoffs() if s["release_id"] == release_id}
    for role in SIGNING_ROLES:
        name = str(sign_off.get(role, "")).strip()
        if name and (name, role) not in have:
            statement = f"{role} release {release_id}" + (f" for: {purpose}" if purpose else "")
            workspace.sign_off(name=name, role=role, statement=statement, release_id=release_id)


def record_once(
    workspace: Workspace,
    *,
    result: RecipeResult,
    recipe: Recipe,
    output_sha256: str,
    base_dir: Any = None,
    sign_off: Mapping[str, str] | None = None,
    **recorded: Any,
) -> PreparedRelease:
    """Record the release of ``output_sha256`` made by ``recipe`` (with ``result.seed``),
    unless the workspace holds one of the same output and recipe version already; record
    the sign-off's people with it. One transaction: all of it or nothing.

    ``recorded`` are the other options of :func:`core.audit.record_release` (original,
    data_path, output_name, quasi_identifiers, report, author, annex_d, data_sha256...).
    """
    with workspace.transaction():
        portable, hierarchies = portable_release_recipe(workspace, recipe, result.seed, base_dir)
        recipe_sha = sha256_text(portable.to_yaml())
        found = [
            r
            for r in workspace.releases()
            if r["output_sha256"] == output_sha256 and r["recipe_sha256"] == recipe_sha
        ]
        if found:
            release_id, anchor = int(found[-1]["id"]), release_entry_anchor(workspace, found[-1])
        else:
            done: RecordedRelease = record_release(
                workspace,
                result=result,
                recipe=recipe,
                output=None,
                output_sha256=output_sha256,
                base_dir=base_dir,
                **recorded,
            )
            release_id, anchor = done.release_id, done.anchor
        _record_sign_offs(workspace, release_id, sign_off or {})
    return PreparedRelease(release_id, anchor, portable, hierarchies, new=not found)


def workspace_tables(
    workspace: str | os.PathLike[str] | None, recipe: Recipe
) -> dict[str, pd.DataFrame]:
    """The k-map population tables ``recipe`` names that the workspace at ``workspace``
    keeps (the dashboard keeps uploaded ones there, never in a file; core.bundle), for
    ``apply`` to run a recipe made on the dashboard. None, or no such file: none."""
    if not workspace or not Path(workspace).exists():
        return {}
    with Workspace(workspace) as ws:
        return stored_tables(ws, recipe)
