"""Make a recorded release again and check that it still holds (``verify``, the History page).

PDPC guide, Step 5 and the accountability obligation: a release is recorded with
everything needed to make it again (:mod:`core.release.record`); :func:`verify_releases`
re-runs each one whose input file is still present and compares the output's sha256, then
counts k again over the recorded quasi-identifiers. This is a reproduction of the record,
not the release gate's verdict on a table (:func:`core.release.gate.check_release`).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from core.errors import AnonymisationError
from core.io import output_format, read_table, table_to_bytes
from core.recipe import Recipe
from core.release.bundle import replay, stored_tables, uses_random_pseudonyms, write_hierarchies
from core.release.record import release_risk
from core.workspace import Workspace, sha256_bytes, sha256_file, stored_json


@dataclass(frozen=True)
class ReproductionCheck:
    """The outcome of re-running one recorded release (not the release gate's verdict)."""

    release_id: int
    status: str  # "reproduced", "mismatch" or "not checked"
    detail: str

    def line(self) -> str:
        return f"release {self.release_id}: {self.status}. {self.detail}"


def reproduce_release(
    workspace: Workspace, release: Mapping[str, Any], original: pd.DataFrame | None = None
) -> ReproductionCheck:
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

    def skip(reason: str) -> ReproductionCheck:
        return ReproductionCheck(release_id, "not checked", reason)

    engine = release.get("engine") or "pandas"
    if engine != "pandas":
        return _reproduce_streamed_release(workspace, release, recipe, engine, suffix)
    if original is None:
        if not path:  # a table loaded without a file (a sample, an upload): load it again
            return skip(
                "the release records no file for its original data: load the original "
                "table again (Data page) to check it."
            )
        if not Path(path).is_file():
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
        return ReproductionCheck(
            release_id,
            "mismatch",
            f"re-running recipe version {release['recipe_version_id']} on "
            f"{'the loaded data' if original is not None else repr(path)} gives "
            f"sha256 {sha256_bytes(output)}, but {release['output_sha256']} was released.",
        )
    wrong_k = _recount_k(release, result.data, recipe)
    if wrong_k:
        return ReproductionCheck(release_id, "mismatch", wrong_k)
    return ReproductionCheck(
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


def _reproduce_streamed_release(
    workspace: Workspace, release: Mapping[str, Any], recipe: Recipe, engine: str, suffix: str
) -> ReproductionCheck:
    """Make a release an engine streamed (``apply --engine duckdb|spark``) again the same
    way: read by the same engine, block by block with the recorded block size, since seeded
    steps draw per block (core.engines.streaming); a re-run in memory draws once for the
    whole table, and its bytes would differ from the release's though nothing changed."""
    from core.engines import streaming
    from core.engines.apply import stream_on_engine
    from core.engines.sources import sources_of_files, sources_sha256

    release_id, path = int(release["id"]), release.get("data_path")

    def skip(reason: str) -> ReproductionCheck:
        return ReproductionCheck(release_id, "not checked", reason)

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
        if not file:
            return skip("the release records no file for its original data.")
        if not Path(file).is_file():
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
                stream_on_engine(
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
        return ReproductionCheck(
            release_id,
            "mismatch",
            f"re-running recipe version {release['recipe_version_id']} on {engine} over "
            f"{path!r} gives sha256 {remade_sha256}, but {release['output_sha256']} was "
            "released.",
        )
    if wrong_k:
        return ReproductionCheck(release_id, "mismatch", wrong_k)
    return ReproductionCheck(
        release_id,
        "reproduced",
        f"output sha256 {release['output_sha256']} (made again on {engine}"
        f"{'' if release.get('k') is None else ', k counted again'}).",
    )


def verify_releases(workspace: Workspace) -> list[ReproductionCheck]:
    """Check every recorded release, oldest first."""
    return [reproduce_release(workspace, release) for release in workspace.releases()]
