"""Record a release in the workspace before anything of it leaves, once (issue 27, "The
release escapes its record").

PDPC guide, Step 5 and the accountability obligation: an organisation must be able to
show which data was released, with which decisions and what residual risk. A release is
recorded with everything needed to make it again (the input's sha256 and path, the full
recipe with its hierarchies as content and its seed; :mod:`core.release.reproduce` makes
it again later).

``apply`` (core.cli.apply) and the dashboard's Report page record a release the same way: the
workspace stores it (:func:`record_release`: data set, recipe version, hierarchies, risk
and release in one transaction), then the files are made, and the report and the
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from core.audit_check import anchor_of
from core.errors import AnonymisationError
from core.recipe import Recipe, RecipeResult
from core.release.bundle import hierarchy_names, portable_recipe, stored_tables
from core.release.inputs import EngineRun, ReleasedFile, ReleaseSource
from core.risk import risk_report
from core.workspace import Workspace, sha256_bytes, sha256_file, sha256_text


@dataclass(frozen=True)
class RecordedRelease:
    """What :func:`record_release` stored: ids and hashes for messages and bundles."""

    release_id: int
    recipe: Recipe  # portable (hierarchies by content name), with the seed used
    hierarchies: dict[str, str]
    data_sha256: str
    output_sha256: str
    k: int | None
    p_reid: float | None
    #: Where the release stands in the audit log (core.audit_check.anchor): for the report
    #: and bundle that leave, so a cut or rewritten log shows later.
    anchor: dict[str, Any]


def release_risk(
    released: pd.DataFrame,
    recipe: Recipe,
    quasi_identifiers: Sequence[str] | None = None,
    counts: np.ndarray | None = None,
) -> tuple[list[str], int | None, float | None, dict[str, Any]]:
    """(QIs kept, k, P(re-ID), l/t figures) of a released table (Step 4, Annex C).

    P(re-ID) is the prosecutor risk of the most exposed record, 1 / (smallest class).
    Quasi-identifiers a step removed are no longer a risk and are left out. With
    ``counts``, ``released`` is an engine's frequency table of the released
    quasi-identifiers (and sensitive attribute), row ``i`` standing for ``counts[i]`` records.
    """
    names = list(quasi_identifiers or recipe.meta.get("quasi_identifiers") or [])
    kept = [name for name in names if name in released.columns]
    records = len(released) if counts is None else int(np.sum(counts))
    if not kept or not records:
        return kept, None, None, {}
    sensitive = recipe.meta.get("sensitive")
    sensitive = sensitive if sensitive in released.columns else None
    report = risk_report(
        released,
        kept,
        k_threshold=int(recipe.meta.get("k") or 5),
        sensitive=sensitive,
        counts=counts,
    )
    extra = {"sensitive": sensitive, "l": report.l_distinct, "t": report.t_closeness}
    return kept, int(report.k), float(report.max_risk), extra


def released_sha256(output: ReleasedFile) -> str:
    """The sha256 of the released bytes (given, or computed from ``output.content``)."""
    digest = output.sha256 if output.content is None else sha256_bytes(output.content)
    if digest is None:
        raise AnonymisationError("record_release needs the released bytes or their sha256.")
    return digest


def record_release(
    workspace: Workspace,
    *,
    original: pd.DataFrame,
    source: ReleaseSource,
    recipe: Recipe,
    result: RecipeResult,
    output: ReleasedFile,
    base_dir: str | Path | None = None,
    quasi_identifiers: Sequence[str] | None = None,
    report: Mapping[str, Any] | None = None,
    encrypted_mappings: Mapping[tuple[str, str], bytes] | None = None,
    author: str = "",
    annex_d: Mapping[str, Any] | None = None,
    engine_run: EngineRun = EngineRun(),
) -> RecordedRelease:
    """Record data set, recipe version, hierarchies, risk and release in one transaction.

    The data set (``source``, :class:`~core.release.inputs.ReleaseSource`) is known by its
    file's sha256: ``source.sha256`` (e.g. of an upload's bytes), else that of the file at
    ``source.path``, else a fingerprint of the table. An engine's ``apply`` (which never
    holds the tables) gives ``original`` without rows and ``source.rows``, and in
    ``engine_run`` the frequency table of the released quasi-identifiers (and sensitive
    attribute) with its counts, its engine and the rows of the blocks it streamed (seeded
    steps draw per block), which :func:`core.release.reproduce.reproduce_release` needs to
    make the release again the same way; when it read several files, each one's path and
    sha256 (``source.files``). A released table staged in a file gives its sha256 in
    ``output`` instead of its bytes.

    Called inside the caller's transaction, the record is part of the release: the caller
    places the files before it commits, and removes them if the commit fails.
    """
    data_path, data_sha256 = source.path, source.sha256
    original_rows, data_files = source.rows, source.files
    output_name = output.name
    released_counts, engine = engine_run.released_counts, engine_run.engine
    portable, hierarchies = portable_release_recipe(workspace, recipe, result.seed, base_dir)
    if data_sha256 is None and data_path is not None:
        data_sha256 = sha256_file(data_path)
    data_sha = data_sha256
    released, counts = released_counts or (result.data, None)
    kept, k, p_reid, extra = release_risk(released, recipe, quasi_identifiers, counts)
    output_sha = released_sha256(output)
    with workspace.transaction():
        data_sha = workspace.add_dataset(
            original,
            name=Path(data_path).name if data_path is not None else "table",
            source_path=str(Path(data_path).resolve()) if data_path is not None else None,
            sha256=data_sha,
            rows=original_rows,
        )
        for name, text in hierarchies.items():
            column = name.split("/", 1)[1].rsplit("-", 1)[0]
            workspace.put_hierarchy(name, text, column=column)
        version = workspace.add_recipe_version(
            portable.to_yaml(), message=f"applied to {Path(output_name).name}", author=author
        )
        risk_id = workspace.add_risk(
            data_sha256=output_sha,
            recipe_version_id=version.id,
            quasi_identifiers=kept,
            sensitive=extra.get("sensitive"),
            k=k,
            p_reid=p_reid,
            l_diversity=extra.get("l"),
            t_closeness=extra.get("t"),
            annex_d=annex_d,
        )
        release_id = workspace.add_release(
            data_sha256=data_sha,
            data_path=str(Path(data_path).resolve()) if data_path is not None else None,
            recipe_version_id=version.id,
            seed=result.seed,
            output_sha256=output_sha,
            output_name=str(output_name),
            risk_id=risk_id,
            report=report,
            mapping_tables=encrypted_mappings,
            engine=engine,
            block_rows=engine_run.block_rows,
            data_files=data_files,
        )
        anchor = anchor_of(workspace, release_id, output_sha)
    return RecordedRelease(
        release_id, portable, hierarchies, data_sha, output_sha, k, p_reid, anchor
    )


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
    workspace: Workspace | None, recipe: Recipe, seed: int | None, base_dir: Any = None
) -> tuple[Recipe, dict[str, str]]:
    """The recipe as a release records it (hierarchies by content, the seed used) and the
    hierarchies' text: the same as :func:`record_release` stores, and what the bundle and
    archive carry. A hierarchy the workspace keeps is read from it (the dashboard keeps
    uploaded ones there); without a workspace, every one from disk, relative to
    ``base_dir``."""
    known = workspace.hierarchies() if workspace is not None else None
    portable, hierarchies = portable_recipe(recipe, base_dir=base_dir, known=known)
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
    output: ReleasedFile,
    base_dir: Any = None,
    sign_off: Mapping[str, str] | None = None,
    **recorded: Any,
) -> PreparedRelease:
    """Record the release of ``output`` made by ``recipe`` (with ``result.seed``),
    unless the workspace holds one of the same output and recipe version already; record
    the sign-off's people with it. One transaction: all of it or nothing.

    ``recorded`` are the other options of :func:`record_release` (original, source,
    quasi_identifiers, report, author, annex_d...).
    """
    output_sha256 = released_sha256(output)
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
                output=output,
                base_dir=base_dir,
                **recorded,
            )
            release_id, anchor = done.release_id, done.anchor
        _record_sign_offs(workspace, release_id, sign_off or {})
    return PreparedRelease(release_id, anchor, portable, hierarchies, new=not found)


def workspace_hierarchies(
    workspace: str | os.PathLike[str] | None, recipe: Recipe
) -> dict[str, str]:
    """The hierarchies ``recipe`` names that the workspace at ``workspace`` keeps (name ->
    text): those the dashboard and ``search --workspace`` keep there rather than in a file
    (built from the data, they list original values), for ``apply`` to replay the recipe.
    None, or no such file: none (a name the workspace does not hold is read as a path)."""
    names = {name for step in recipe.steps for name in hierarchy_names(step)}
    if not names or not workspace or not Path(workspace).exists():
        return {}
    with Workspace(workspace) as ws:
        return {name: text for name, text in ws.hierarchies().items() if name in names}


def workspace_tables(
    workspace: str | os.PathLike[str] | None, recipe: Recipe
) -> dict[str, pd.DataFrame]:
    """The k-map population tables ``recipe`` names that the workspace at ``workspace``
    keeps (the dashboard keeps uploaded ones there, never in a file; core.release.bundle), for
    ``apply`` to run a recipe made on the dashboard. None, or no such file: none."""
    if not workspace or not Path(workspace).exists():
        return {}
    with Workspace(workspace) as ws:
        return stored_tables(ws, recipe)
