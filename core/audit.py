"""Record a release in a workspace, and check later that every recorded release still holds.

PDPC guide, Step 5 and the accountability obligation: an organisation must be able to
show which data was released, with which decisions and what residual risk. A release is
recorded with everything needed to make it again (the input's sha256 and path, the full
recipe with its hierarchies as content and its seed); :func:`verify_releases` re-runs
each one whose input file is still present and compares the output's sha256.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from core.bundle import (
    portable_recipe,
    replay,
    stored_tables,
    uses_random_pseudonyms,
    write_hierarchies,
)
from core.errors import AnonymisationError
from core.io import output_format, read_table, table_to_bytes
from core.recipe import Recipe, RecipeResult
from core.risk import risk_report
from core.workspace import Workspace, sha256_bytes, sha256_file, stored_json


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


def record_release(
    workspace: Workspace,
    *,
    original: pd.DataFrame,
    data_path: str | os.PathLike[str] | None,
    recipe: Recipe,
    result: RecipeResult,
    output: bytes | None,
    output_name: str,
    base_dir: str | Path | None = None,
    quasi_identifiers: Sequence[str] | None = None,
    report: Mapping[str, Any] | None = None,
    encrypted_mappings: Mapping[tuple[str, str], bytes] | None = None,
    author: str = "",
    annex_d: Mapping[str, Any] | None = None,
    data_sha256: str | None = None,
    original_rows: int | None = None,
    released_counts: tuple[pd.DataFrame, np.ndarray] | None = None,
    engine: str = "pandas",
    block_rows: int | None = None,
    output_sha256: str | None = None,
    data_files: Sequence[tuple[str, str]] | None = None,
) -> RecordedRelease:
    """Record data set, recipe version, hierarchies, risk and release in one transaction.

    The data set is known by its file's sha256: ``data_sha256`` (e.g. of an upload's
    bytes), else that of the file at ``data_path``, else a fingerprint of the table.
    An engine's ``apply`` (which never holds the tables) gives ``original`` without rows
    and ``original_rows``, and the frequency table of the released quasi-identifiers (and
    sensitive attribute) with its counts as ``released_counts``, its ``engine`` and the
    rows of the blocks it streamed (``block_rows``: seeded steps draw per block), which
    :func:`check_release` needs to make the release again the same way; when it read
    several files, each one's path and sha256 (``data_files``). A released table staged in
    a file gives its ``output_sha256`` instead of its bytes (``output``).

    Called inside the caller's transaction, the record is part of the release: the caller
    places the files before it commits, and removes them if the commit fails.
    """
    from core.audit_check import anchor_of

    portable, hierarchies = portable_recipe(
        recipe, base_dir=base_dir, known=workspace.hierarchies()
    )
    portable = Recipe(portable.steps, result.seed, portable.meta)
    if data_sha256 is None and data_path is not None:
        data_sha256 = sha256_file(data_path)
    data_sha = data_sha256
    released, counts = released_counts or (result.data, None)
    kept, k, p_reid, extra = release_risk(released, recipe, quasi_identifiers, counts)
    output_sha = output_sha256 if output is None else sha256_bytes(output)
    if output_sha is None:
        raise AnonymisationError("record_release needs the released bytes or their sha256.")
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
            block_rows=block_rows,
            data_files=data_files,
        )
        anchor = anchor_of(workspace, release_id, output_sha)
    return RecordedRelease(
        release_id, portable, hierarchies, data_sha, output_sha, k, p_reid, anchor
    )


@dataclass(frozen=True)
class ReleaseCheck:
    """The outcome of re-running one recorded release."""

    release_id: int
    status: str  # "reproduced", "mismatch" or "not checked"
    detail: str

    def line(self) -> str:
        return f"release {self.release_id}: {self.status}. {self.detail}"


def check_release(
    workspace: Workspace, release: Mapping[str, Any], original: pd.DataFrame | None = None
) -> ReleaseCheck:
    """Re-run one recorded release from its recorded inputs and compare the output sha256.

    ``original`` is the release's input table when the caller already holds it (the
    dashboard, whose data set has the release's sha256); otherwise it is read from the
    recorded path, if that file is still there with the recorded sha256.
    """
    release_id = int(release["id"])
    path = release.get("data_path")
    recipe = Recipe.from_yaml(workspace.recipe_version(release["recipe_version_id"]).yaml)
    recipe = Recipe(recipe.steps, int(release["seed"]), recipe.meta)
    suffix = Path(release["output_name"]).suffix.lower().lstrip(".") or "csv"

    def skip(reason: str) -> ReleaseCheck:
        return ReleaseCheck(release_id, "not checked", reason)

    engine = release.get("engine") or "pandas"
    if engine != "pandas":
        return _check_streamed_release(workspace, release, recipe, engine, suffix)
    if original is None:
        if not path or not Path(path).is_file():
            return skip(f"the original data is not at '{path}' (put it back to check).")
        if sha256_file(path) != release["data_sha256"]:
            return skip(f"the file at '{path}' is not the recorded original (its sha256 differs).")
    if uses_random_pseudonyms(recipe):
        return skip("random pseudonyms are drawn from secret entropy on every run.")
    if suffix in ("xlsx", "xls", "excel"):
        return skip("Excel files carry their creation time, so their bytes differ on each run.")
    try:
        table = original if original is not None else read_table(path)
        result = replay(
            table, recipe, workspace.hierarchies(), tables=stored_tables(workspace, recipe)
        )
        output = table_to_bytes(result.data, "parquet" if suffix == "pq" else suffix)
    except AnonymisationError as error:  # e.g. a key not in the environment
        return skip(f"the recipe cannot run here: {error}")
    if sha256_bytes(output) != release["output_sha256"]:
        return ReleaseCheck(
            release_id,
            "mismatch",
            f"re-running recipe version {release['recipe_version_id']} on "
            f"{'the loaded data' if original is not None else repr(path)} gives "
            f"sha256 {sha256_bytes(output)}, but {release['output_sha256']} was released.",
        )
    wrong_k = _recount_k(release, result.data, recipe)
    if wrong_k:
        return ReleaseCheck(release_id, "mismatch", wrong_k)
    return ReleaseCheck(
        release_id,
        "reproduced",
        f"output sha256 {release['output_sha256']}"
        f"{'' if release.get('k') is None else ', k counted again'}.",
    )


def _recount_k(
    release: Mapping[str, Any],
    released: pd.DataFrame,
    recipe: Recipe,
    counts: np.ndarray | None = None,
) -> str:
    """Count k of the re-made release over its recorded quasi-identifiers; a recorded k
    that differs (an edited risk row, or one its log entry was rewritten to) is named.
    With ``counts``, ``released`` is the frequency table of the re-made release."""
    if release.get("k") is None or not release.get("quasi_identifiers_json"):
        return ""
    names = stored_json(release["quasi_identifiers_json"], "release's quasi-identifiers")
    _, k, _, _ = release_risk(released, recipe, names, counts)
    if k == int(release["k"]):
        return ""
    return (
        f"the release records k = {release['k']}, but its re-made table has k = {k} over "
        f"{', '.join(map(str, names))}: the recorded risk was changed."
    )


def _recount_streamed_k(
    release: Mapping[str, Any], remade: Path, recipe: Recipe, engine: str
) -> str:
    """:func:`_recount_k` on a streamed release, counted by its engine from the re-made
    file (never held in memory)."""
    from core.engines import frequency_table

    if release.get("k") is None or not release.get("quasi_identifiers_json"):
        return ""
    names = stored_json(release["quasi_identifiers_json"], "release's quasi-identifiers")
    try:
        counted = frequency_table(str(remade), names, engine=engine)
    except AnonymisationError:
        return ""  # e.g. a quasi-identifier the recipe removed: nothing to count
    return _recount_k(release, counted.table, recipe, counted.counts)


def _check_streamed_release(
    workspace: Workspace, release: Mapping[str, Any], recipe: Recipe, engine: str, suffix: str
) -> ReleaseCheck:
    """Make a release an engine streamed (``apply --engine duckdb|spark``) again the same
    way: read by the same engine, block by block with the recorded block size, since seeded
    steps draw per block (core.engines.streaming); a re-run in memory draws once for the
    whole table, and its bytes would differ from the release's though nothing changed."""
    from core.engines import streaming
    from core.engines.sources import sources_of_files, sources_sha256

    release_id, path = int(release["id"]), release.get("data_path")

    def skip(reason: str) -> ReleaseCheck:
        return ReleaseCheck(release_id, "not checked", reason)

    blocks = release.get("block_rows")
    if blocks is not None and int(blocks) != streaming.BATCH_ROWS:
        return skip(
            f"it was streamed in blocks of {int(blocks):,} rows; this version streams "
            f"{streaming.BATCH_ROWS:,}, so its seeded draws would differ."
        )
    # The recorded files, each read as the file it names: never a pattern or a folder to
    # search again (a workspace someone sent may record '/usr/**/*.csv').
    recorded = stored_json(release.get("data_files_json") or "null", "release's data files") or [
        [path, release["data_sha256"]]
    ]
    for file, digest in recorded:
        if not file or not Path(file).is_file():
            return skip(
                f"the original data is not at '{file}' (put it back to check; "
                "a pattern or folder is never searched)."
            )
        if len(recorded) > 1 and sha256_file(file) != digest:
            return skip(f"the file '{file}' is not the recorded original (its sha256 differs).")
    try:
        sources = sources_of_files([file for file, _ in recorded])
    except AnonymisationError as error:
        return skip(f"the recorded data cannot be read: {error}")
    if sources_sha256(sources) != release["data_sha256"]:
        return skip(f"the data at '{path}' is not the recorded original (its sha256 differs).")
    if uses_random_pseudonyms(recipe):
        return skip("random pseudonyms are drawn from secret entropy on every run.")
    with tempfile.TemporaryDirectory(prefix="anon-verify-") as folder:
        remade = Path(folder) / f"release.{suffix}"
        try:  # a stored name that is not a bundle name is refused here, never written
            write_hierarchies(workspace.hierarchies(), folder)
            steps = streaming.streamable_steps(recipe, int(release["seed"]), engine)
            writer = streaming.BatchWriter(remade, output_format(remade))
            try:
                streaming.stream_on_engine(
                    engine,
                    sources,
                    steps,
                    writer,
                    seed=int(release["seed"]),
                    gate_columns=[],
                    direct_identifiers=[],
                    base_dir=Path(folder),
                )
            finally:
                writer.close()
        except AnonymisationError as error:  # a key not in the environment, no Java, ...
            return skip(f"the recipe cannot run here on {engine}: {error}")
        remade_sha256 = sha256_file(remade)
        wrong_k = ""
        if remade_sha256 == release["output_sha256"]:
            wrong_k = _recount_streamed_k(release, remade, recipe, engine)
    if remade_sha256 != release["output_sha256"]:
        return ReleaseCheck(
            release_id,
            "mismatch",
            f"re-running recipe version {release['recipe_version_id']} on {engine} over "
            f"{path!r} gives sha256 {remade_sha256}, but {release['output_sha256']} was "
            "released.",
        )
    if wrong_k:
        return ReleaseCheck(release_id, "mismatch", wrong_k)
    return ReleaseCheck(
        release_id,
        "reproduced",
        f"output sha256 {release['output_sha256']} (made again on {engine}"
        f"{'' if release.get('k') is None else ', k counted again'}).",
    )


def verify_releases(workspace: Workspace) -> list[ReleaseCheck]:
    """Check every recorded release, oldest first."""
    return [check_release(workspace, release) for release in workspace.releases()]
