"""``apply`` before any work: the job (what is read and will be written), checked
names, paths, keys and passphrases, Step 1's direct identifiers and the release gate.
"""

from __future__ import annotations

import argparse
import getpass
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from core.cli.common import comma_list
from core.errors import AnonymisationError, ReleaseRefusedError, SecretError
from core.io import read_table
from core.outputs import Output, file_name_part, plan_outputs
from core.recipe import Recipe, RecipeResult, check_recipe_columns
from core.release.gate import ReleaseCheck, marked_name
from core.release.inputs import ReleaseRoles
from core.release.pipeline import check_recipe_release
from core.release.words import NOT_ANONYMISED_MARK, SUGGESTED_K
from core.roles import Role, Suggestion
from core.techniques.pseudonymisation import (
    key_from_env,
    passphrase_from_env,
    require_key,
    require_key_env_name,
)
from core.techniques.registry import Ref, resolve
from core.validation import require_columns
from core.workspace import ENV_VAR as WORKSPACE_ENV
from core.workspace import Workspace


@dataclass(frozen=True)
class ApplyJob:
    """What ``apply`` reads and will write, checked before any work is done."""

    data: pd.DataFrame = field(repr=False)
    recipe: Recipe
    base_dir: Path
    quasi_identifiers: list[str] | None
    inputs: dict[str, Path]
    out: Path
    report: Path | None
    direct_identifiers: list[str]
    # the passphrase that encrypts the identity mapping tables (None: --plaintext-mapping)
    passphrase: str | None = field(default=None, repr=False)
    # keys typed at --ask-keys, by key_env name: held in memory only, never in os.environ
    keys: dict[str, bytes] = field(default_factory=dict, repr=False)
    # Step 1's suggestions on the data (or a sample of it), read by the release gate
    suggestions: tuple[Suggestion, ...] = ()


def plan_apply(args: argparse.Namespace) -> ApplyJob:
    """Read the inputs and check every name and path, so a mistake costs no work."""
    df = read_table(args.data, sep=args.sep)
    recipe = Recipe.load(args.recipe)
    quasi_identifiers = comma_list(args.qi) if args.qi else None
    if quasi_identifiers:  # a misspelt name would understate the risk
        require_columns(df, quasi_identifiers, parameter="quasi_identifiers")
    check_recipe_columns(recipe, df)
    keys = require_keys(recipe, ask=args.ask_keys, written=Path(args.recipe))
    if args.seed is not None:
        recipe = Recipe(recipe.steps, args.seed, recipe.meta)
    base_dir = Path(args.recipe).resolve().parent
    inputs = {"data": Path(args.data), "recipe": Path(args.recipe)}
    inputs.update(recipe_input_files(recipe, base_dir))
    mapping, linking = pseudonymised_columns(recipe)
    direct, suggestions = step1_direct_identifiers(df, recipe)
    job = ApplyJob(
        df,
        recipe,
        base_dir,
        quasi_identifiers,
        inputs,
        Path(args.out),
        Path(args.report) if args.report else None,
        direct,
        mapping_passphrase(args, mapping),
        keys,
        suggestions,
    )
    plan_outputs(apply_outputs(job, mapping, linking), inputs, force=args.force)
    return job


def plan_record(args: argparse.Namespace, job: ApplyJob) -> tuple[str | None, list[Output]]:
    """The workspace to record in (--workspace, else $ANON_WORKSPACE) and the packages to
    write (the recipient --bundle, the internal --archive: core.release.bundle), all checked before
    any work is done. The archive holds personal data: written 0600, never over a file."""
    workspace = args.workspace or os.environ.get(WORKSPACE_ENV) or None
    if workspace and Path(workspace).exists():
        Workspace(workspace).close()  # refuses a bad file (not SQLite, too new, read-only)
    elif workspace:  # created only when the release is recorded: a refused one leaves none
        folder = Path(workspace).parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise AnonymisationError(
                f"Cannot create the workspace '{workspace}': the folder '{folder}' does not "
                "exist or is not writable."
            )
    packages = []
    chosen = (("--bundle", args.bundle, False), ("--archive", args.archive, True))
    for flag, path, private in chosen:
        if path:
            if Path(path).suffix.lower() != ".zip":
                raise AnonymisationError(f"{flag} '{path}' must end in .zip.")
            packages.append(Output(flag, Path(path), private=private, keep_existing=private))
    return workspace, list(plan_outputs(packages, job.inputs, force=args.force))


def step1_direct_identifiers(
    df: pd.DataFrame, recipe: Recipe
) -> tuple[list[str], tuple[Suggestion, ...]]:
    """(direct identifiers, Step 1's suggestions): the recipe's ``direct_identifiers``
    with the columns Step 1 is sure are direct, else all those Step 1 classifies as
    direct; the suggestions let the release gate name the columns Step 1 doubts that the
    recipe gives no place."""
    # Step 1's detectors (name lists, phone numbers) load here, as every release reads the
    # table; 'apply --help' and a refused argument need not wait for them (issue 31)
    from core.schema import suggest_roles

    suggestions = tuple(suggest_roles(df))
    classified = [s.column for s in suggestions if s.role is Role.DIRECT]
    if "direct_identifiers" in recipe.meta:
        names = recipe.meta["direct_identifiers"] or []
        declared = [names] if isinstance(names, str) else list(names)
        # those Step 1 is sure of count too, whatever the recipe says (an engine tracks
        # which still hold original values: core.release.backstops.with_classified)
        sure = [s.column for s in suggestions if s.role is Role.DIRECT and not s.uncertain]
        return list(dict.fromkeys([*declared, *sure])), suggestions
    return classified, suggestions


def gate_release(args: argparse.Namespace, job: ApplyJob, result: RecipeResult) -> ReleaseCheck:
    """The release check of the table as released (PDPC guide, Steps 4 and 5).

    A failing table is refused (exit 2, nothing written) unless ``--release-anyway``, in
    which case the acknowledgement goes into the report and every file name.
    """
    meta = job.recipe.meta
    check = check_recipe_release(
        job.data,
        result.data,
        job.recipe,
        roles=ReleaseRoles(
            quasi_identifiers=job.quasi_identifiers or meta.get("quasi_identifiers"),
            direct_identifiers=job.direct_identifiers,
            sensitive=meta.get("sensitive"),
        ),
        k_target=meta.get("k") or SUGGESTED_K[args.use_case],
        annex_d=meta.get("annex_d"),
        suggestions=job.suggestions,
        mappings=result.mappings,
    )
    return refuse_unless_acknowledged(args, check)


def refuse_unless_acknowledged(args: argparse.Namespace, check: ReleaseCheck) -> ReleaseCheck:
    """``check`` when it passed; acknowledged with ``--release-anyway``; else the refusal
    (exit 2, nothing written), for a table in memory and one an engine streamed alike."""
    if check.passed:
        return check
    if not args.release_anyway:
        raise ReleaseRefusedError(
            "The release check failed, so nothing was written: "
            + " ".join(check.problems)
            + f" Fix the recipe, or give --release-anyway to write the files marked "
            f"{NOT_ANONYMISED_MARK}."
        )
    return check.acknowledge()


def marked_release(job: ApplyJob, packages: list[Output]) -> tuple[ApplyJob, list[Output]]:
    """The job and packages of a release made despite the gate: every file of it says so
    in its name (core.release.gate.marked_name)."""
    job = replace(
        job,
        out=Path(marked_name(job.out)),
        report=Path(marked_name(job.report)) if job.report else None,
    )
    return job, [replace(p, path=Path(marked_name(p.path))) for p in packages]


def recipe_input_files(recipe: Recipe, base_dir: Path) -> dict[str, Path]:
    """The hierarchy files and k-map population tables the recipe reads, by label (inputs
    too: never to be overwritten)."""
    kinds = {"read_hierarchy": "hierarchy", "read_population_table": "population table"}
    files: dict[str, Path] = {}
    for position, step in enumerate(recipe.steps, start=1):
        values = list(resolve(step, position=position).kwargs.values())
        for value in values:  # grows: nested mappings (recode_locally's, k_map's) too
            if isinstance(value, dict):
                values.extend(value.values())
            elif isinstance(value, Ref) and value.function in kinds:
                path = Path(value.argument)
                path = path if path.is_absolute() else base_dir / path
                files[f"{kinds[value.function]} '{path}'"] = path
    return files


def require_kept_hierarchies(
    recipe: Recipe,
    kept: Mapping[str, str],
    base_dir: Path,
    workspace: str | None,
    *,
    engine: str | None = None,
) -> None:
    """Refuse, before any work, a recipe naming a hierarchy by the name a workspace keeps it
    under (``hierarchies/<column>-<hash>.csv``: built from the data or read from a zip, by
    the dashboard or ``search --workspace``) that neither the workspace given holds nor a
    file next to the recipe is (on an ``engine``, which reads hierarchy files only: any)."""
    from core.release.bundle import hierarchy_names, is_portable_name

    for step in recipe.steps:
        for name in hierarchy_names(step):
            if name in kept or not is_portable_name(name) or (base_dir / name).is_file():
                continue
            if engine is not None:
                where = f"--engine {engine} reads hierarchy files only; use --engine pandas"
            elif workspace:
                where = f"the workspace '{workspace}' does not hold it"
            else:
                where = f"give --workspace FILE (or set {WORKSPACE_ENV}) with the workspace that keeps it"
            raise AnonymisationError(
                f"The recipe names the hierarchy '{name}' of column "
                f"'{step.get('column', '?')}', which a workspace keeps (built from the data or "
                f"read from a .zip; never a file): {where}."
            )


def pseudonymised_columns(recipe: Recipe) -> tuple[list[str], list[str]]:
    """Columns whose identity mapping (and, for double coding, linking) table a run writes."""
    mapping: list[str] = []
    linking: list[str] = []
    for position, step in enumerate(recipe.steps, start=1):
        call = resolve(step, position=position)
        if call.produces_mapping:
            mapping.append(call.args[0])
            if call.function == "double_code":
                linking.append(call.args[0])
    return mapping, linking


def mapping_passphrase(args: argparse.Namespace, columns: list[str]) -> str | None:
    """The passphrase for the identity mapping tables, or None for --plaintext-mapping.

    PDPC guide, Step 5: "Encrypt the identity mapping tables". Plain CSV only when the
    user asks for it; a recipe that writes mapping tables needs one of the two options.
    """
    if args.mapping_passphrase_env:
        return passphrase_from_env(args.mapping_passphrase_env)
    if columns and not args.plaintext_mapping:
        names = ", ".join(repr(column) for column in dict.fromkeys(columns))
        raise AnonymisationError(
            f"The recipe writes identity mapping tables (of {names}): give "
            "--mapping-passphrase-env NAME to encrypt them with the passphrase held in the "
            "environment variable NAME (recommended), or --plaintext-mapping to write them "
            "as plain CSV."
        )
    return None


def _mapping_path(out: Path, kind: str, column: str, *, encrypted: bool) -> Path:
    # the column name is data: made safe before it becomes part of a path
    suffix = "enc" if encrypted else "csv"
    return out.with_name(f"{out.name}.{kind}-{file_name_part(column)}.{suffix}")


def apply_outputs(job: ApplyJob, mapping: list[str], linking: list[str]) -> list[Output]:
    """Every file ``apply`` writes: --out, each identity table, then --report."""
    outputs = [Output("--out", job.out)]
    for kind, columns in (("mapping", mapping), ("linking", linking)):
        outputs += [
            Output(
                f"identity {kind} table of {column!r}",
                _mapping_path(job.out, kind, column, encrypted=job.passphrase is not None),
                private=True,
                keep_existing=True,
            )
            for column in dict.fromkeys(columns)
        ]
    if job.report is not None:
        outputs.append(Output("--report", job.report))
    return outputs


def require_keys(recipe: Recipe, *, ask: bool, written: Path | None = None) -> dict[str, bytes]:
    """Check every pseudonymisation key the recipe names before any work is done.

    With ``ask``, a key missing from the environment is typed without echo and returned
    (by its ``key_env`` name) to be passed to the replay; it is never put in the process
    environment, a file, the recipe, the report or the log (PDPC guide, Annex A: "the
    encryption key ... must be securely protected"). A key that the recipe itself holds
    (its file ``written``, comments included, or its fields: a description "for the
    record") is refused: the recipe travels with the release, and whoever reads the key
    recomputes every pseudonym.
    """
    typed: dict[str, bytes] = {}
    text = recipe.to_yaml()
    if written is not None:
        text += written.read_bytes().decode("utf-8", errors="replace")
    for step in recipe.steps:
        name = step.get("key_env")
        if not name or name in typed:
            continue
        if ask and not os.environ.get(require_key_env_name(name)):
            key = typed[name] = require_key(
                getpass.getpass(f"Key for {name} (input hidden): ").encode("utf-8")
            )
        else:
            key = key_from_env(name)  # names the variable if it is unset or too short
        if key.decode("utf-8", errors="replace") in text:
            raise SecretError(
                f"The key in {name} is written in the recipe: anyone who receives the recipe "
                "(the release bundle carries it) can recompute every pseudonym. Take it out "
                "of the recipe and use a new key (PDPC guide, Annex A: Pseudonymisation)."
            )
    return typed
