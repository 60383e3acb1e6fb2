"""``apply`` on a table larger than memory (--engine duckdb or spark): the recipe
runs batch by batch, the release check and the report read the counts made on the way.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from core.cli.apply_plan import (
    ApplyJob,
    apply_outputs,
    mapping_passphrase,
    marked_release,
    plan_record,
    pseudonymised_columns,
    recipe_input_files,
    refuse_unless_acknowledged,
    require_kept_hierarchies,
    require_keys,
    step1_direct_identifiers,
)
from core.cli.apply_release import place_and_record, warn_released_anyway
from core.cli.common import comma_list
from core.io import output_format, table_to_bytes
from core.markup import terminal_line
from core.outputs import plan_outputs
from core.recipe import Recipe, RecipeResult, check_recipe_columns
from core.release.inputs import (
    EngineRun,
    ReleaseFigures,
    ReleaseRoles,
    ReleaseSource,
    StreamedFacts,
)
from core.release.pipeline import check_recipe_release
from core.release.targets import parse_targets, target_columns
from core.release.words import SUGGESTED_K
from core.roles import Suggestion
from core.techniques.pseudonymisation import encrypt_table
from core.validation import require_columns


def apply_on_engine(args: argparse.Namespace, engine: str) -> int:
    """``apply`` on a table larger than memory: the recipe runs batch by batch and the
    output is streamed to a temporary file, placed only when the release check passes
    (core.engines.streaming)."""
    import secrets

    from core.engines.apply import stream_on_engine
    from core.engines.sources import resolve_sources, sample_rows
    from core.engines.streaming import BatchWriter, ReleaseCounts, streamable_steps
    from core.outputs import staging_file

    sources = resolve_sources(args.data, sep=args.sep)
    columns = pd.DataFrame(columns=list(sources.names))
    recipe = Recipe.load(args.recipe)
    quasi_identifiers = comma_list(args.qi) if args.qi else None
    if quasi_identifiers:
        require_columns(columns, quasi_identifiers, parameter="quasi_identifiers")
    check_recipe_columns(recipe, columns)
    keys = require_keys(recipe, ask=args.ask_keys, written=Path(args.recipe))
    if args.seed is not None:
        recipe = Recipe(recipe.steps, args.seed, recipe.meta)
    seed = recipe.seed if recipe.seed is not None else secrets.randbelow(2**31)
    steps = streamable_steps(Recipe(recipe.steps, seed, recipe.meta), seed, engine)
    first = sample_rows(sources)
    base_dir = Path(args.recipe).resolve().parent
    # the batches read hierarchy files only: one a workspace keeps is named before any work
    require_kept_hierarchies(recipe, {}, base_dir, None, engine=engine)
    inputs = {f"data '{file}'": Path(file) for file in sources.files}
    inputs.update({"recipe": Path(args.recipe)})
    inputs.update(recipe_input_files(recipe, base_dir))
    mapping, linking = pseudonymised_columns(recipe)
    direct, suggestions = step1_direct_identifiers(first, recipe)
    suggestions = _unseen_in_sample(suggestions)
    job = ApplyJob(
        columns,
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
    (out, *_) = plan_outputs(apply_outputs(job, mapping, linking), inputs, force=args.force)
    workspace, packages = plan_record(args, job)
    meta = recipe.meta
    qis = job.quasi_identifiers or meta.get("quasi_identifiers") or []
    sensitive = meta.get("sensitive")
    counted = None  # what the report, the workspace and the bundle need, counted on the way
    if job.report is not None or workspace or packages:
        if qis:  # checked here, as the report checks them on a table in memory
            require_columns(columns, qis, parameter="quasi_identifiers")
        if sensitive:
            require_columns(columns, sensitive, parameter="sensitive")
        counted = ReleaseCounts(
            list(dict.fromkeys([*qis, *([sensitive] if sensitive else [])])), len(steps)
        )
    # the release check's columns, counted as the table is written (a target's sensitive
    # column too: core.release.targets judges it on the frequency table)
    targeted = target_columns(parse_targets(meta.get("targets")))
    gate_columns = list(dict.fromkeys([*qis, *([sensitive] if sensitive else []), *targeted]))
    staged = staging_file(out)
    try:
        writer = BatchWriter(staged, output_format(out.path))
        try:
            result = stream_on_engine(
                engine,
                sources,
                steps,
                writer,
                seed=seed,
                progress=args.bar,
                gate_columns=gate_columns,
                direct_identifiers=job.direct_identifiers,
                base_dir=base_dir,
                keys=keys,
                master=args.spark_master,
                release_counts=counted,
            )
        finally:
            writer.close()
        check = check_recipe_release(
            columns,
            result.frequency,
            job.recipe,
            roles=ReleaseRoles(
                quasi_identifiers=qis or None,
                direct_identifiers=job.direct_identifiers,
                sensitive=sensitive,
            ),
            k_target=meta.get("k") or SUGGESTED_K[args.use_case],
            annex_d=meta.get("annex_d"),
            suggestions=job.suggestions,
            streamed=StreamedFacts(
                counts=result.counts,
                changed=result.changed,
                identifiers_left=result.identifiers_left,
                sample=first,
            ),
        )
        check = refuse_unless_acknowledged(args, check)
        if check.acknowledged:  # every file of the release says so in its name
            job, packages = marked_release(job, packages)
        outputs = plan_outputs(
            apply_outputs(job, list(result.mappings), []), inputs, force=args.force
        )
        if packages:  # the bundle and archive may not take the path of another output either
            plan_outputs([*outputs, *packages], inputs, force=args.force)
        tables = list(result.mappings.values())
        if job.passphrase is None:
            contents = [table_to_bytes(table, "csv") for table in tables]
        else:
            contents = [encrypt_table(table, job.passphrase) for table in tables]
        figures, recorded, done = ReleaseFigures(), None, None
        if counted is not None:
            figures, recorded, done = _counted_release(
                args.data, sources, steps, result, counted, engine
            )
            job = replace(job, data=counted.original)
        place_and_record(
            args,
            job,
            done,
            check,
            outputs,
            staged,
            contents,
            workspace,
            packages,
            figures,
            recorded,
        )
    except BaseException:
        staged.unlink(missing_ok=True)
        raise
    warn_released_anyway(check)
    # the statement quotes the recipe's reasons and reviewers: text someone typed
    print(
        terminal_line(
            f"Wrote {result.records} records to {outputs[0].path} (engine {engine}, "
            f"seed {seed}; release check: {check.statement()})"
        ),
        file=sys.stderr,
    )
    for output in outputs[1 : 1 + len(tables)]:
        print(
            f"The {output.label}: {output.path}. Keep it secure and apart from the data "
            "(PDPC guide, Annex A: Pseudonymisation).",
            file=sys.stderr,
        )
    if job.report is not None:
        print(f"Report: {outputs[-1].path}", file=sys.stderr)
    return 0


def _counted_release(
    data_path: str, sources: Any, steps: Any, result: Any, counted: Any, engine: str
) -> tuple[ReleaseFigures, tuple[ReleaseSource, EngineRun], RecipeResult]:
    """An engine's release as the report and the workspace take it: the figures counted
    while it was written (core.engines.streaming.ReleaseCounts), its source and run as
    core.release.record.record_release records them, and a RecipeResult with the step
    log and the release's columns (no rows)."""
    from core.engines.sources import file_hashes, sources_sha256
    from core.engines.streaming import BATCH_ROWS
    from core.recipe import StepLog, describe_step
    from core.spreadsheet_safety import formula_like_counts

    log = tuple(
        StepLog(
            step.position,
            dict(step.step),
            describe_step(step.step),
            int(rows[0]),
            int(rows[1]),
            (),
            (),
            step.seed,
        )
        for step, rows in zip(steps, counted.step_rows, strict=True)
    )
    done = RecipeResult(counted.released, dict(result.mappings), {}, log, result.seed)
    after = (result.frequency, result.counts)
    figures = ReleaseFigures(
        frequency_before=counted.risk_table(),
        frequency_after=after,
        utility=counted.utility(),
        formula_like_cells=formula_like_counts(counted.released, counted.formula_cells),
    )
    hashes = file_hashes(sources)  # several files: verify reads exactly these again
    source = ReleaseSource(
        path=data_path,
        sha256=sources_sha256(sources, hashes),
        rows=counted.records_in,
        files=hashes if len(hashes) > 1 else None,
    )
    run = EngineRun(engine=engine, block_rows=BATCH_ROWS, released_counts=after)
    return figures, (source, run), done


def _unseen_in_sample(suggestions: tuple[Suggestion, ...]) -> tuple[Suggestion, ...]:
    """An engine's Step 1 reads the first rows only (core.engines.sources.sample_rows): a
    column empty there may hold NRICs further down. It is not "empty" but "unseen", and
    the release check asks for a decision on it (core.release.column_judges.UNSURE_KINDS)."""
    return tuple(
        replace(
            s,
            kind="unseen",
            uncertain=True,
            reason=(
                "Step 1 saw no value of this column in the first rows an engine samples; what "
                "the rest of the file holds is unknown, so check it (PDPC guide, Step 1)."
            ),
        )
        if s.kind == "empty"
        else s
        for s in suggestions
    )
