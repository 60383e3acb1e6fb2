"""``apply``: Steps 2-3, replay a recipe and write the release (table, identity tables,
report, bundle, archive) after the release check; on an engine, batch by batch.

The release pipeline is split by what it does: :mod:`core.cli.apply_plan` checks every
input and output before any work, :mod:`core.cli.apply_release` places and records the
files all or nothing, :mod:`core.cli.apply_engine` streams a table larger than memory.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from core.cli.commands import help_of
from core.cli.common import add_engine_options, data_command
from core.release.words import NOT_ANONYMISED_MARK, USE_CASES
from core.workspace import ENV_VAR as WORKSPACE_ENV


def add_parser(subparsers: Any) -> None:
    """The ``apply`` subcommand."""
    apply = data_command(subparsers, "apply", help_of("apply"))
    apply.add_argument("--recipe", required=True, help="recipe YAML file")
    apply.add_argument("--out", required=True, help="output file (.csv, .xlsx, .parquet)")
    apply.add_argument("--report", help="write a report (.json or .md)")
    apply.add_argument("--qi", help="quasi-identifiers for the report (default: recipe's)")
    apply.add_argument("--use-case", default="external", choices=list(USE_CASES))
    apply.add_argument("--seed", type=int, help="override the recipe's seed")
    apply.add_argument(
        "--force",
        action="store_true",
        help="replace existing output files (never an identity mapping table)",
    )
    mapping = apply.add_mutually_exclusive_group()
    mapping.add_argument(
        "--mapping-passphrase-env",
        metavar="NAME",
        help="encrypt identity mapping tables with the passphrase in this "
        "environment variable (at least 12 characters)",
    )
    mapping.add_argument(
        "--plaintext-mapping",
        action="store_true",
        help="write identity mapping tables as plain CSV (recorded in the report)",
    )
    apply.add_argument(
        "--release-anyway",
        action="store_true",
        help="write a release that fails the release check, every file "
        f"marked {NOT_ANONYMISED_MARK} and the report saying so",
    )
    apply.add_argument(
        "--ask-keys",
        action="store_true",
        help="prompt (without echo) for pseudonymisation keys not set in the environment",
    )
    apply.add_argument(
        "--workspace",
        help=f"record the release in this workspace file (default ${WORKSPACE_ENV} if set)",
    )
    apply.add_argument(
        "--bundle",
        help="also write the release bundle for the recipient "
        "(.zip: table, report, recipe, script; no original values)",
    )
    apply.add_argument(
        "--archive",
        help="also write the internal reproduction archive (.zip: "
        "hierarchy files, encrypted mapping tables; holds personal data, "
        "written 0600, never over a file)",
    )
    add_engine_options(apply)
    apply.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``apply``: replay the recipe, check the release, write and record its files."""
    # The work's imports are here, not at the top: building the parser (``apply --help``,
    # a usage error) needs none of the techniques, the gate or the report (issue 31).
    from core.cli.apply_engine import apply_on_engine
    from core.cli.apply_plan import (
        gate_release,
        marked_release,
        plan_apply,
        plan_record,
        require_kept_hierarchies,
    )
    from core.cli.apply_release import place_and_record, release_files, tell_what_was_written
    from core.engines import choose_engine
    from core.outputs import plan_outputs
    from core.progress import ProgressFn, no_progress, stage
    from core.recipe import apply_recipe
    from core.release.record import workspace_hierarchies, workspace_tables

    engine = choose_engine(args.data, args.engine)
    if engine != "pandas":
        return apply_on_engine(args, engine)
    progress: ProgressFn = args.bar or no_progress
    progress(0.0, f"reading {Path(args.data).name}")
    job = plan_apply(args)
    workspace, packages = plan_record(args, job)
    hierarchies = workspace_hierarchies(workspace, job.recipe)
    require_kept_hierarchies(job.recipe, hierarchies, job.base_dir, workspace)
    result = apply_recipe(
        job.data,
        job.recipe,
        base_dir=job.base_dir,
        keys=job.keys,
        progress=stage(progress, 0.2, 0.6),
        tables=workspace_tables(workspace, job.recipe),
        hierarchies=hierarchies,
    )
    progress(0.6, "checking the release")
    check = gate_release(args, job, result)
    if check.acknowledged:  # every file of the release says so in its name
        job, packages = marked_release(job, packages)
    progress(0.7, "writing the release")
    outputs, staged, identities = release_files(args, job, result, stage(progress, 0.7, 0.95))
    try:
        if packages:  # the bundle and archive may not take the path of another output either
            plan_outputs([*outputs, *packages], job.inputs, force=args.force)
        place_and_record(args, job, result, check, outputs, staged, identities, workspace, packages)
    except BaseException:
        staged.unlink(missing_ok=True)
        raise
    tell_what_was_written(outputs, result, check)
    return 0
