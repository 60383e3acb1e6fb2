"""Command line: ``python -m core COMMAND ...`` (machine-readable with ``--json``).

Commands follow the guide's steps: ``classify`` (Step 1), ``apply`` (Steps 2-3 from a
recipe), ``risk`` (Step 4, Annex C), ``suda`` (Step 4, SUDA2 special uniques),
``reid-risk`` (Annex D), ``uniqueness`` (Gibbon & Aisbett), ``spatial-k`` (locations, NIST
SP 800-188), ``safe-harbor`` (HIPAA), ``log``, ``verify`` and ``verify-bundle`` (a
workspace's audit trail and the bundles recorded in it, Step 5: core.cli_audit), and
``decrypt-mapping`` (read back an encrypted identity mapping table).
A user mistake prints one clear line on stderr and exits with status 2; a traceback means
a bug. Every file a command writes follows :mod:`core.outputs`: never onto an input or
another output, never over an existing file without ``--force``, never over an identity
mapping table, all files of a command or none.
"""

from __future__ import annotations

import argparse
import getpass
import json
import math
import os
import sqlite3
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO

import pandas as pd

from core.cli_audit import add_commands as add_audit_commands
from core.engines import ENGINES, choose_engine, frequency_table
from core.errors import AnonymisationError, ReleaseRefusedError, SecretError
from core.file_lock import exclusive_lock
from core.io import output_format, read_table, stream_table, table_to_bytes
from core.markup import terminal_line
from core.model_risk import MODEL_METHODS, model_risk
from core.outputs import Output, file_name_part, plan_outputs, stage_content, write_outputs
from core.privacy import L_KINDS, T_DISTANCES
from core.progress import ProgressFn, TextBar, no_progress, stage
from core.recipe import Recipe, RecipeResult, apply_recipe, check_recipe_columns
from core.release.gate import (
    NOT_ANONYMISED_MARK,
    ReleaseCheck,
    check_release,
    marked_name,
    missing_rule,
)
from core.release.record import workspace_tables
from core.release.report import SUGGESTED_K, USE_CASES, Report, build_report, report_to_markdown
from core.release_targets import parse_targets, target_columns
from core.risk import (
    CONTROL_LEVELS,
    MOTIVATION_LEVELS,
    AnnexDResult,
    annex_d_risk,
    risk_report,
    uniqueness,
)
from core.safe_harbor import FREE_TEXT_CHOICES
from core.schema import Role, Suggestion, suggest_roles
from core.search.measures import MEASURES
from core.suda import DEFAULT_DIS_FRACTION, suda2
from core.survey_risk import MISSING_RULES, RISK_METHODS, sample_frequencies, survey_risk
from core.techniques.pseudonymisation import (
    decrypt_table,
    encrypt_table,
    key_from_env,
    passphrase_from_env,
    require_key,
    require_key_env_name,
)
from core.techniques.registry import Ref, resolve
from core.validation import require_columns
from core.workspace import ENV_VAR as WORKSPACE_ENV
from core.workspace import Workspace, sha256_file

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a writer whose reader left


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own usage errors
        self.print_usage(sys.stderr)
        self.exit(EXIT_USER_ERROR, f"error: {terminal_line(message)}\n")


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _progress_bar(args: argparse.Namespace) -> TextBar | None:
    """The bar of a long command: on stderr (never stdout, which may carry --json), drawn
    when stderr is a terminal or with --progress, and only once the work passes ~2 s."""
    wanted = getattr(args, "progress", False) or sys.stderr.isatty()
    return TextBar(args.command) if wanted else None


def _emit(data: object, as_json: bool, text: str) -> None:
    """``data`` as JSON, or ``text`` with each line's control characters shown as their
    escapes (a column name's escape sequence would retitle or recolour the terminal)."""
    if as_json:  # JSON escapes control characters itself
        print(json.dumps(_finite(data), indent=2, ensure_ascii=False))
    else:
        print("\n".join(terminal_line(line) for line in text.split("\n")))


def _finite(data: object) -> object:
    """``data`` with every NaN or infinite float as None: ``json.dumps`` writes them as
    ``NaN``/``Infinity``, which JSON does not have and strict parsers refuse."""
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(value) for value in data]
    return data


def _plain_warnings(run):
    """``run`` with each warning shown as one line of its text: Python's own format names
    the source file and line, a server path the user has no use for."""

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        print(f"warning: {terminal_line(message)}", file=sys.stderr)

    def run_showing_plain_warnings(args: argparse.Namespace) -> int:
        with warnings.catch_warnings():
            warnings.showwarning = show
            return run(args)

    return run_showing_plain_warnings


def cmd_classify(args: argparse.Namespace) -> int:
    df = read_table(args.data, sep=args.sep)
    suggestions = suggest_roles(df)
    rows = [
        {
            "column": str(s.column),
            "role": s.role.value,
            "kind": s.kind,
            "reason": s.reason,
            "technique": s.technique,
            "uncertain": s.uncertain,
            "judged_by": s.judged_by,
        }
        for s in suggestions
    ]
    width = max((len(r["column"]) for r in rows), default=6)
    text = "\n".join(
        f"{r['column']:<{width}}  {r['role']:<8}  {'(unsure: decide) ' * r['uncertain']}"
        f"{r['reason']}"
        for r in rows
    )
    _emit(rows, args.json, text)
    return 0


def cmd_risk(args: argparse.Namespace) -> int:
    engine = choose_engine(args.data, args.engine)
    if engine != "pandas":
        return _risk_on_engine(args, engine)
    progress = args.bar or no_progress
    progress(0.0, f"reading {Path(args.data).name}")
    df = read_table(args.data, sep=args.sep)
    report = risk_report(
        df,
        _split(args.qi),
        k_threshold=args.k,
        sensitive=args.sensitive,
        impact=not args.no_impact,
        progress=stage(progress, 0.5, 1.0),
    )
    _end_bar(args)  # the figures start on a line of their own
    data = report.to_dict()
    explanations = report.explanations()
    if args.missing == "sdcmicro":
        # sdcMicro's rule: a blank matches any value (what local suppression relies on)
        wildcard = sample_frequencies(df, report.quasi_identifiers, missing="sdcmicro").fk
        data["k_missing_as_wildcard"] = int(wildcard.min()) if len(wildcard) else 0
        explanations["k_missing_as_wildcard"] = (
            f"Counting a blank as any value (sdcMicro), the smallest group has "
            f"{data['k_missing_as_wildcard']} record(s); counting it as a value of its own, "
            f"{report.k}."
        )
    if args.weights or args.household or args.per_record:
        records = _new_output(args)
        survey = survey_risk(
            df,
            report.quasi_identifiers,
            weights=args.weights,
            household=args.household,
            method=args.risk_method,
            threshold=args.risk_threshold,
            missing=args.missing,
        )
        data.update(survey.to_dict())
        explanations.update(survey.explanations())
        if records is not None:
            per_record = {
                "fk": survey.frequencies.fk,
                "Fk": survey.frequencies.Fk,
                "individual_risk": survey.individual,
            }
            if survey.household is not None:
                per_record["household_risk"] = survey.household
            _write_table_output(records, pd.DataFrame(per_record), force=args.force)
    if args.model_risk:
        model = model_risk(
            df, report.quasi_identifiers, weights=args.weights, method=args.model_method
        )
        data.update(model.to_dict())
        explanations.update(model.explanations())
    _add_population_figures(args, report, data, explanations, df)
    text = "\n".join(f"{key}: {sentence}" for key, sentence in explanations.items())
    _emit(data, args.json, text)
    return 0


def _risk_on_engine(args: argparse.Namespace, engine: str) -> int:
    """Step 4 figures from the frequency table an engine computes (core.engines)."""
    if args.weights or args.household or args.per_record:
        raise AnonymisationError(
            "--weights, --household and --per-record need the records themselves: use "
            "--engine pandas with them."
        )
    qis = _split(args.qi)
    wanted = qis + ([args.sensitive] if args.sensitive else [])
    progress = args.bar or no_progress
    progress(0.0, f"counting the classes on {engine}")
    freq = frequency_table(
        args.data,
        wanted,
        engine=engine,
        sep=args.sep,
        spark_master=args.spark_master,
        progress=stage(progress, 0.0, 0.8),
    )
    report = risk_report(
        freq.table,
        qis,
        k_threshold=args.k,
        sensitive=args.sensitive,
        impact=not args.no_impact,
        counts=freq.counts,
        progress=stage(progress, 0.8, 1.0),
    )
    _end_bar(args)
    data, explanations = {**report.to_dict(), "engine": engine}, report.explanations()
    _add_population_figures(args, report, data, explanations, freq.table, freq.counts)
    text = "\n".join(f"{key}: {sentence}" for key, sentence in explanations.items())
    _emit(data, args.json, text)
    return 0


def _add_population_figures(
    args: argparse.Namespace,
    report,
    data: dict,
    explanations: dict,
    table: pd.DataFrame | None = None,
    counts: Any = None,
):
    """With --population N: estimated population uniqueness; with --population-table FILE:
    k-map against the population's records, on ``table`` (core.population_risk)."""
    if args.population_table and table is not None:
        from core.population_risk import kmap_figures

        population = read_table(args.population_table, sep=args.sep)
        figures, sentences = kmap_figures(
            table, population, report.quasi_identifiers, k=args.k, counts=counts
        )
        data.update(figures)
        explanations.update(sentences)
    if args.population is None:
        return
    from core.population_risk import population_figures, sizes_from_distribution

    sizes = sizes_from_distribution(report.class_sizes["class_size"], report.class_sizes["classes"])
    figures, sentences = population_figures(sizes, args.population, model=args.population_model)
    data.update(figures)
    explanations.update(sentences)


def cmd_search(args: argparse.Namespace) -> int:
    """Step 3: the least damaging generalisation levels meeting a target (core.search),
    on the records (pandas) or on the frequency table an engine counts (core.engines)."""
    from core.hierarchy import read_hierarchy
    from core.local_recoding import LOCAL_MEASURES, recode_suppressed
    from core.search.apply import recipe_steps
    from core.search.run import search
    from core.search.target import Target

    hierarchies, hierarchy_paths = {}, {}
    for given in args.hierarchy:
        column, sep, path = given.partition("=")
        if not sep or not column.strip() or not path.strip():
            raise AnonymisationError(
                f"--hierarchy {given!r} must be COLUMN=FILE, e.g. --hierarchy age=age.csv."
            )
        hierarchies[column.strip()] = read_hierarchy(path.strip())
        hierarchy_paths[column.strip()] = str(Path(path.strip()).resolve())  # for --recipe-out
    population = {
        "population": args.population,
        "max_average_risk": args.max_average_risk,
        "max_population_uniqueness": args.max_population_uniqueness,
        "population_model": args.population_model,
    }
    if args.population_solver_iterations is not None:  # ARX's iterationsPerTry
        from core.population_risk import SolverSettings

        population["population_solver"] = SolverSettings(
            iterations_per_try=args.population_solver_iterations
        )
    if args.k_map is not None:
        population.update(
            k_map=args.k_map,
            k_map_estimator=args.k_map_estimator,
            k_map_significance=args.k_map_significance,
        )
    if args.population_table:  # k-map against the population's records (ARX KMap(k, subset))
        if args.k_map is None:
            raise AnonymisationError(
                "--population-table is the population k-map counts in: give --k-map K too."
            )
        if args.recode_locally:
            raise AnonymisationError(
                "--recode-locally cannot be used with --population-table (ARX does not "
                "recode locally under k-map with a population table either)."
            )
        population["population_table"] = read_table(args.population_table, sep=args.sep)
    t_hierarchy = read_hierarchy(args.t_hierarchy) if args.t_hierarchy else None
    t_distance = "hierarchical" if t_hierarchy is not None else args.t_distance
    if t_hierarchy is not None and args.sensitive:  # named by the recipe's suppression step
        hierarchy_paths[args.sensitive] = str(Path(args.t_hierarchy).resolve())
    target = Target(
        k=args.k,
        max_suppressed=args.max_suppressed,
        sensitive=args.sensitive,
        l=args.l,
        l_kind=args.l_kind,
        t=args.t,
        t_distance=t_distance,
        t_hierarchy=t_hierarchy,
        **population,
    )
    engine = choose_engine(args.data, args.engine)
    if args.recode_locally and target.sample_based:
        raise AnonymisationError(
            "--recode-locally cannot be used with --max-average-risk or "
            "--max-population-uniqueness (whole-table targets; ARX does not either)."
        )
    if args.recode_locally and engine != "pandas":
        raise AnonymisationError(
            "--recode-locally releases suppressed records one by one, so it needs the "
            "records themselves: use --engine pandas with it."
        )
    if args.recode_step_share is not None and not args.recode_locally:
        raise AnonymisationError("--recode-step-share goes with --recode-locally.")
    if (args.recode_gs_factor != 0.5 or args.recode_adaption) and not args.recode_locally:
        raise AnonymisationError(
            "--recode-gs-factor and --recode-adaption go with --recode-locally."
        )
    if args.recode_locally and args.measure not in LOCAL_MEASURES:
        raise AnonymisationError(
            f"--recode-locally measures the released table with one of "
            f"{', '.join(LOCAL_MEASURES)}; --measure {args.measure} cannot be used with it."
        )
    recipe_out = None
    if args.recipe_out:
        read = {
            "data": Path(args.data),
            **{f"--hierarchy {c}": Path(p) for c, p in hierarchy_paths.items()},
        }
        if args.population_table:
            read["--population-table"] = Path(args.population_table)
        (recipe_out,) = plan_outputs(
            [Output("--recipe-out", Path(args.recipe_out))], read, force=args.force
        )
    wanted = [*hierarchies, *([args.sensitive] if args.sensitive else [])]
    progress = args.bar or no_progress
    progress(0.0, f"reading {Path(args.data).name}")
    if engine == "pandas":
        df, counts = read_table(args.data, sep=args.sep), None
    else:
        freq = frequency_table(
            args.data,
            wanted,
            engine=engine,
            sep=args.sep,
            spark_master=args.spark_master,
            progress=stage(progress, 0.0, 0.2),
        )
        df, counts = freq.table, freq.counts
    weights = {}
    for given in args.weight or []:
        column, sep, value = given.partition("=")
        try:
            weights[column.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep or not column.strip():
            raise AnonymisationError(
                f"--weight {given!r} must be COLUMN=NUMBER, e.g. --weight age=1 (ARX's "
                "attribute weight; 0.5 when not given)."
            )
    result = search(
        df,
        hierarchies,
        target,
        measure=args.measure,
        counts=counts,
        gs_factor=args.gs_factor,
        weights=weights,
        progress=stage(progress, 0.2, 1.0),
    )
    _end_bar(args)  # what follows starts on a line of its own
    data = {
        "engine": engine,
        "target": target.describe(),
        "measure": result.measure,
        "method": result.method,
        "optimum": _candidate_dict(result.optimum) if result.optimum else None,
        "frontier": [_candidate_dict(c) for c in result.frontier],
        "explanation": result.explanation(),
    }
    text = result.explanation()
    steps = None
    if result.optimum is not None:
        population_path = Path(args.population_table).resolve() if args.population_table else None
        steps = recipe_steps(
            result.optimum, hierarchy_paths, models=target, population_table_path=population_path
        )
    if args.recode_locally and result.optimum is not None:
        local = recode_suppressed(
            df,
            hierarchies,
            target,
            result.optimum,
            measure=args.measure,
            step_share=args.recode_step_share,
            gs_factor=args.recode_gs_factor,
            adaption=args.recode_adaption,
        )
        if local.rounds:
            steps = [local.recipe_step(hierarchy_paths)]
        data["local_recoding"] = {
            "rounds": [dict(levels) for levels in local.rounds],
            "released_per_round": list(local.released_per_round),
            "suppressed_before": local.suppressed_before,
            "suppressed_after": local.suppressed_after,
            "records_kept": local.kept,
            "loss_before": local.loss_before,
            "loss_after": local.loss_after,
            "explanation": local.explanation(),
        }
        text += "\n" + local.explanation()
    if recipe_out is not None:
        if steps is None:
            raise AnonymisationError(
                "No solution was found, so no recipe was written to --recipe-out."
            )
        meta = {"quasi_identifiers": list(hierarchies), "k": target.required_k}
        if target.sensitive:
            meta["sensitive"] = target.sensitive
        recipe = Recipe(steps=tuple(steps), meta=meta)
        write_outputs([(recipe_out, recipe.to_yaml().encode("utf-8"))], force=args.force)
        text += f"\nRecipe written to {recipe_out.path} (replay it with 'apply')."
    _emit(data, args.json, text)
    return 0


def _candidate_dict(candidate: Any) -> dict[str, Any]:
    return {
        "levels": dict(candidate.levels),
        "k": candidate.k,
        "classes": candidate.classes,
        "suppressed": candidate.suppressed,
        "share_suppressed": candidate.share_suppressed,
        "max_risk": candidate.max_risk,
        "measures": dict(candidate.measures),
        "sensitive_figures": dict(candidate.sensitive_figures),
        "table_figures": dict(candidate.table_figures),
    }


def _new_output(args: argparse.Namespace) -> Output | None:
    """The --per-record file, checked by the output rules (core.outputs) before any work."""
    if args.per_record is None:
        return None
    (output,) = plan_outputs(
        [Output("--per-record", Path(args.per_record))], {"data": Path(args.data)}, force=args.force
    )
    return output


def _write_table_output(output: Output, table: pd.DataFrame, *, force: bool) -> None:
    write_outputs([(output, table_to_bytes(table, output_format(output.path)))], force=force)


def cmd_suda(args: argparse.Namespace) -> int:
    df = read_table(args.data, sep=args.sep)
    records = _new_output(args)
    result = suda2(df, _split(args.qi), max_size=args.max_size, dis_fraction=args.dis_fraction)
    if records is not None:
        per_record = {"suda_score": result.score, "dis_suda_score": result.dis_score}
        per_record.update(
            {
                f"contribution_{qi}": result.contribution[:, i]
                for i, qi in enumerate(result.quasi_identifiers)
            }
        )
        _write_table_output(records, pd.DataFrame(per_record), force=args.force)
    text = "\n".join(f"{key}: {sentence}" for key, sentence in result.explanations().items())
    _emit(result.to_dict(), args.json, text)
    return 0


def cmd_reid_risk(args: argparse.Namespace) -> int:
    result = annex_d_risk(
        args.k,
        controls=args.controls,
        motivation=args.motivation,
        acquaintance=args.acquaintance,
        breach=args.breach,
        harm=args.harm,
    )
    data = {
        "k": result.k,
        "p_insider": result.p_insider,
        "p_acquaintance": result.p_acquaintance,
        "p_breach": result.p_breach,
        "p_attempt": result.p_attempt,
        "driving_scenario": result.driving_scenario,
        "p_reid": result.p_reid,
        "threshold": result.threshold,
        "acceptable": result.acceptable,
        "min_k": result.min_k,
    }
    _emit(data, args.json, result.explanation())
    return 0


@dataclass(frozen=True)
class _ApplyJob:
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


def cmd_apply(args: argparse.Namespace) -> int:
    engine = choose_engine(args.data, args.engine)
    if engine != "pandas":
        return _apply_on_engine(args, engine)
    progress: ProgressFn = args.bar or no_progress
    progress(0.0, f"reading {Path(args.data).name}")
    job = _plan_apply(args)
    workspace, packages = _plan_record(args, job)
    result = apply_recipe(
        job.data,
        job.recipe,
        base_dir=job.base_dir,
        keys=job.keys,
        progress=stage(progress, 0.2, 0.6),
        tables=workspace_tables(workspace, job.recipe),
    )
    progress(0.6, "checking the release")
    check = _gate(args, job, result)
    if check.acknowledged:  # every file of the release says so in its name
        job = replace(
            job,
            out=Path(marked_name(job.out)),
            report=Path(marked_name(job.report)) if job.report else None,
        )
        packages = [replace(p, path=Path(marked_name(p.path))) for p in packages]
    progress(0.7, "writing the release")
    outputs, staged, identities = _release_files(args, job, result, stage(progress, 0.7, 0.95))
    try:
        if packages:  # the bundle and archive may not take the path of another output either
            plan_outputs([*outputs, *packages], job.inputs, force=args.force)
        _place_and_record(
            args, job, result, check, outputs, staged, identities, workspace, packages
        )
    except BaseException:
        staged.unlink(missing_ok=True)
        raise
    _tell_what_was_written(outputs, result, check)
    return 0


def _apply_on_engine(args: argparse.Namespace, engine: str) -> int:
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
    quasi_identifiers = _split(args.qi) if args.qi else None
    if quasi_identifiers:
        require_columns(columns, quasi_identifiers, parameter="quasi_identifiers")
    check_recipe_columns(recipe, columns)
    keys = _require_keys(recipe, ask=args.ask_keys, written=Path(args.recipe))
    if args.seed is not None:
        recipe = Recipe(recipe.steps, args.seed, recipe.meta)
    seed = recipe.seed if recipe.seed is not None else secrets.randbelow(2**31)
    steps = streamable_steps(Recipe(recipe.steps, seed, recipe.meta), seed, engine)
    first = sample_rows(sources)
    base_dir = Path(args.recipe).resolve().parent
    inputs = {f"data '{file}'": Path(file) for file in sources.files}
    inputs.update({"recipe": Path(args.recipe)})
    inputs.update(_recipe_input_files(recipe, base_dir))
    mapping, linking = _pseudonymised_columns(recipe)
    direct, suggestions = _step1(first, recipe)
    suggestions = _unseen_in_sample(suggestions)
    job = _ApplyJob(
        columns,
        recipe,
        base_dir,
        quasi_identifiers,
        inputs,
        Path(args.out),
        Path(args.report) if args.report else None,
        direct,
        _mapping_passphrase(args, mapping),
        keys,
        suggestions,
    )
    (out, *_) = plan_outputs(_apply_outputs(job, mapping, linking), inputs, force=args.force)
    workspace, packages = _plan_record(args, job)
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
    # column too: core.release_targets judges it on the frequency table)
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
        check = check_release(
            columns,
            result.frequency,
            steps=len(recipe.steps),
            quasi_identifiers=qis or None,
            direct_identifiers=job.direct_identifiers,
            sensitive=sensitive,
            k_target=meta.get("k") or SUGGESTED_K[args.use_case],
            annex_d=meta.get("annex_d"),
            counts=result.counts,
            changed=result.changed,
            identifiers_left=result.identifiers_left,
            sample=first,
            **_gate_options(job),
        )
        if not check.passed:
            if not args.release_anyway:
                raise ReleaseRefusedError(
                    "The release check failed, so nothing was written: "
                    + " ".join(check.problems)
                    + " Fix the recipe, or give --release-anyway "
                    f"to write the files marked {NOT_ANONYMISED_MARK}."
                )
            check = check.acknowledge()
            job = replace(
                job,
                out=Path(marked_name(job.out)),
                report=Path(marked_name(job.report)) if job.report else None,
            )
            packages = [replace(p, path=Path(marked_name(p.path))) for p in packages]
        outputs = plan_outputs(
            _apply_outputs(job, list(result.mappings), []), inputs, force=args.force
        )
        if packages:  # the bundle and archive may not take the path of another output either
            plan_outputs([*outputs, *packages], inputs, force=args.force)
        tables = list(result.mappings.values())
        if job.passphrase is None:
            contents = [table_to_bytes(table, "csv") for table in tables]
        else:
            contents = [encrypt_table(table, job.passphrase) for table in tables]
        figures, recorded, done = {}, {}, None
        if counted is not None:
            figures, recorded, done = _counted_release(sources, steps, result, counted, engine)
            job = replace(job, data=counted.original)
        _place_and_record(
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
    _warn_released_anyway(check)
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
    sources: Any, steps: Any, result: Any, counted: Any, engine: str
) -> tuple[dict[str, Any], dict[str, Any], RecipeResult]:
    """An engine's release as the report and the workspace take it: the figures counted
    while it was written (core.engines.streaming.ReleaseCounts), the options of
    core.audit.record_release, and a RecipeResult with the step log and the release's
    columns (no rows)."""
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
    figures = {
        "frequency_before": counted.risk_table(),
        "frequency_after": after,
        "utility": counted.utility(),
        "formula_like_cells": formula_like_counts(counted.released, counted.formula_cells),
    }
    hashes = file_hashes(sources)  # several files: verify reads exactly these again
    recorded = {
        "original_rows": counted.records_in,
        "released_counts": after,
        "data_sha256": sources_sha256(sources, hashes),
        "engine": engine,
        "block_rows": BATCH_ROWS,
        "data_files": hashes if len(hashes) > 1 else None,
    }
    return figures, recorded, done


def _plan_record(args: argparse.Namespace, job: _ApplyJob) -> tuple[str | None, list[Output]]:
    """The workspace to record in (--workspace, else $ANON_WORKSPACE) and the packages to
    write (the recipient --bundle, the internal --archive: core.bundle), all checked before
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


def _place_and_record(
    args: argparse.Namespace,
    job: _ApplyJob,
    result: RecipeResult | None,
    check: ReleaseCheck,
    outputs: list[Output],
    staged: Path,
    identities: list[bytes],
    workspace: str | None,
    packages: list[Output],
    figures: dict[str, Any] | None = None,
    recorded: dict[str, Any] | None = None,
) -> None:
    """Record the release and place its files, all or nothing (issue 27).

    ``outputs`` are the released table (written in full to ``staged``), the identity
    tables (``identities``, their bytes) and the --report; ``packages`` the recipient
    --bundle and the internal --archive (core.bundle). The workspace records the release
    in one transaction that stays open while the files are placed and commits after: a
    release that cannot be recorded (a full disk, a damaged workspace, Ctrl-C) writes no
    file, and files whose record cannot be committed are removed. The report, bundle and
    archive carry the release's anchor in the audit log (core.audit_check). Identity
    tables go into the workspace and the internal archive only encrypted, never into the
    recipient bundle. An engine gives its counted ``figures`` for the report and the
    ``recorded`` options of :func:`core.audit.record_release` (rows, frequency table,
    input files).
    """
    from core.release.bundle import build_archive, build_bundle, portable_recipe
    from core.release.record import record_release

    identity_outputs = outputs[1 : 1 + len(identities)]
    files: list[tuple[Output, bytes | Path]] = [(outputs[0], staged)]
    files += list(zip(identity_outputs, identities, strict=True))
    report = None
    if job.report is not None or workspace or packages:
        report = _build_report(args, job, result, check, identity_outputs, **(figures or {}))
    # (an engine gives no result when nothing is recorded, reported or packaged)
    encrypted = (
        dict(zip(pairs_of(result), identities, strict=False))
        if job.passphrase is not None and result is not None
        else {}
    )
    placed, written = False, []
    try:
        with _recording(workspace) as ws:
            if ws is not None:
                done = record_release(
                    ws,
                    original=job.data,
                    data_path=args.data,
                    recipe=job.recipe,
                    result=result,
                    output=None,
                    output_sha256=sha256_file(staged),
                    output_name=job.out.name,
                    base_dir=job.base_dir,
                    quasi_identifiers=job.quasi_identifiers,
                    report=report.to_dict(),
                    encrypted_mappings=encrypted,
                    author=getpass.getuser(),
                    **(recorded or {}),
                )
                report = replace(report, audit=done.anchor)
                portable, hierarchies = done.recipe, done.hierarchies
            elif packages:
                portable, hierarchies = portable_recipe(job.recipe, base_dir=job.base_dir)
                portable = Recipe(portable.steps, result.seed, portable.meta)
            if job.report is not None:
                files.append((outputs[-1], _report_bytes(report, job.report)))
            for package in packages:
                release = {
                    "released": staged.read_bytes(),
                    "released_name": job.out.name,
                    "recipe": portable,
                    "hierarchies": hierarchies,
                    "report": report,
                }
                if package.label == "--archive":
                    mappings = {f"{c}-{kind}": blob for (c, kind), blob in encrypted.items()}
                    made = build_archive(**release, encrypted_mappings=mappings)
                else:
                    made = build_bundle(
                        **release,
                        made_mappings=bool(identities),
                        original=job.data,
                        released_table=result.data,
                        k=check.k_target,
                    )
                written.append((package, made))
            files += [(package, made.to_zip()) for package, made in written]
            write_outputs(files, force=args.force)
            placed = True
    except BaseException:
        if placed:  # the record was not committed: the release must not stand without it
            for output, _ in files:
                output.path.unlink(missing_ok=True)
        raise
    _end_bar(args)  # the messages below start on a line of their own
    if ws is not None:
        print(
            f"Recorded release {done.release_id} in workspace {workspace} (k = {done.k}, "
            f"P(re-ID) = {done.p_reid}; audit log entry {done.anchor['entries']}).",
            file=sys.stderr,
        )
    for package, made in written:
        if made.private:
            left_out = bool(identities) and not encrypted
            note = " Plaintext identity tables are not in it: keep them apart." if left_out else ""
            print(
                f"Reproduction archive (internal: holds personal data, mode 0600): "
                f"{package.path}.{note}",
                file=sys.stderr,
            )
        else:
            print(
                f"Release bundle (for the recipient: no original values, no identity "
                f"tables): {package.path}.",
                file=sys.stderr,
            )


def pairs_of(result: RecipeResult) -> list[tuple[str, str]]:
    """(column, "mapping" | "linking") of each identity table, in the order of the files."""
    return [*((c, "mapping") for c in result.mappings), *((c, "linking") for c in result.linking)]


@contextmanager
def _recording(workspace: str | None) -> Iterator[Workspace | None]:
    """The workspace to record in, with its write transaction open (None: no workspace)."""
    if not workspace:
        yield None
        return
    with Workspace(workspace) as ws, ws.transaction():
        yield ws


def _plan_apply(args: argparse.Namespace) -> _ApplyJob:
    """Read the inputs and check every name and path, so a mistake costs no work."""
    df = read_table(args.data, sep=args.sep)
    recipe = Recipe.load(args.recipe)
    quasi_identifiers = _split(args.qi) if args.qi else None
    if quasi_identifiers:  # a misspelt name would understate the risk
        require_columns(df, quasi_identifiers, parameter="quasi_identifiers")
    check_recipe_columns(recipe, df)
    keys = _require_keys(recipe, ask=args.ask_keys, written=Path(args.recipe))
    if args.seed is not None:
        recipe = Recipe(recipe.steps, args.seed, recipe.meta)
    base_dir = Path(args.recipe).resolve().parent
    inputs = {"data": Path(args.data), "recipe": Path(args.recipe)}
    inputs.update(_recipe_input_files(recipe, base_dir))
    mapping, linking = _pseudonymised_columns(recipe)
    direct, suggestions = _step1(df, recipe)
    job = _ApplyJob(
        df,
        recipe,
        base_dir,
        quasi_identifiers,
        inputs,
        Path(args.out),
        Path(args.report) if args.report else None,
        direct,
        _mapping_passphrase(args, mapping),
        keys,
        suggestions,
    )
    plan_outputs(_apply_outputs(job, mapping, linking), inputs, force=args.force)
    return job


def _step1(df: pd.DataFrame, recipe: Recipe) -> tuple[list[str], tuple[Suggestion, ...]]:
    """(direct identifiers, Step 1's suggestions): the recipe's ``direct_identifiers``
    with the columns Step 1 is sure are direct, else all those Step 1 classifies as
    direct; the suggestions let the release gate name the columns Step 1 doubts that the
    recipe gives no place."""
    suggestions = tuple(suggest_roles(df))
    classified = [s.column for s in suggestions if s.role is Role.DIRECT]
    if "direct_identifiers" in recipe.meta:
        names = recipe.meta["direct_identifiers"] or []
        declared = [names] if isinstance(names, str) else list(names)
        # those Step 1 is sure of count too, whatever the recipe says (an engine tracks
        # which still hold original values: core.release_backstops.with_classified)
        sure = [s.column for s in suggestions if s.role is Role.DIRECT and not s.uncertain]
        return list(dict.fromkeys([*declared, *sure])), suggestions
    return classified, suggestions


def _unseen_in_sample(suggestions: tuple[Suggestion, ...]) -> tuple[Suggestion, ...]:
    """An engine's Step 1 reads the first rows only (core.engines.sources.sample_rows): a
    column empty there may hold NRICs further down. It is not "empty" but "unseen", and
    the release check asks for a decision on it (core.release_gate.UNSURE_KINDS)."""
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


def _gate_options(job: _ApplyJob) -> dict[str, Any]:
    """What the release gate reads from the recipe besides the figures: its steps, Step
    1's suggestions and the recipe's decisions, reviews and targets."""
    meta = job.recipe.meta
    return {
        "recipe_steps": job.recipe.steps,
        "suggestions": job.suggestions,
        "not_quasi_identifiers": meta.get("not_quasi_identifiers"),
        "reviewed_text": meta.get("reviewed_text"),
        "targets": meta.get("targets"),
    }


def _gate(args: argparse.Namespace, job: _ApplyJob, result: RecipeResult) -> ReleaseCheck:
    """The release check of the table as released (PDPC guide, Steps 4 and 5).

    A failing table is refused (exit 2, nothing written) unless ``--release-anyway``, in
    which case the acknowledgement goes into the report and every file name.
    """
    meta = job.recipe.meta
    check = check_release(
        job.data,
        result.data,
        steps=len(job.recipe.steps),
        quasi_identifiers=job.quasi_identifiers or meta.get("quasi_identifiers"),
        direct_identifiers=job.direct_identifiers,
        sensitive=meta.get("sensitive"),
        k_target=meta.get("k") or SUGGESTED_K[args.use_case],
        annex_d=meta.get("annex_d"),
        missing=missing_rule(job.recipe.steps),
        mappings=result.mappings,
        **_gate_options(job),
    )
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


def _recipe_input_files(recipe: Recipe, base_dir: Path) -> dict[str, Path]:
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


def _pseudonymised_columns(recipe: Recipe) -> tuple[list[str], list[str]]:
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


def _mapping_passphrase(args: argparse.Namespace, columns: list[str]) -> str | None:
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


def _apply_outputs(job: _ApplyJob, mapping: list[str], linking: list[str]) -> list[Output]:
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


def _release_files(
    args: argparse.Namespace, job: _ApplyJob, result: RecipeResult, progress: ProgressFn
) -> tuple[list[Output], Path, list[bytes]]:
    """Every output of the release under paths checked again, the released table written
    in full to a temporary file beside --out (encoded straight into it, never held twice
    in memory; placed by :func:`_place_and_record`), and the identity tables' bytes."""
    outputs = plan_outputs(
        _apply_outputs(job, list(result.mappings), list(result.linking)),
        job.inputs,
        force=args.force,
    )
    tables = [*result.mappings.values(), *result.linking.values()]
    fmt = output_format(job.out)

    def released_table(handle: BinaryIO, part: ProgressFn) -> None:
        stream_table(handle, result.data, fmt, part)

    if job.passphrase is None:
        identities = [table_to_bytes(table, "csv") for table in tables]
    else:
        identities = [encrypt_table(table, job.passphrase) for table in tables]
    return outputs, stage_content(outputs[0], released_table, progress), identities


def _build_report(
    args: argparse.Namespace,
    job: _ApplyJob,
    result: RecipeResult | None,
    check: ReleaseCheck,
    identity_outputs: list[Output],
    **figures: Any,
) -> Report:
    """The release's report (one for --report, the workspace and the bundle); ``figures``
    are an engine's counted figures (:func:`core.report.build_report`'s
    ``frequency_before``, ``utility``, ...)."""
    identity_files = [
        {"table": output.label, "file": output.path.name, "encrypted": job.passphrase is not None}
        for output in identity_outputs
    ]
    return build_report(
        job.data,
        result,
        job.recipe,
        quasi_identifiers=job.quasi_identifiers,
        use_case=args.use_case,
        identity_files=identity_files,
        release_check=check,
        annex_d=_annex_d(job.recipe, check),
        direct_identifiers=job.direct_identifiers,
        **figures,
    )


def _report_bytes(report: Report, path: Path) -> bytes:
    """The --report file: Markdown for .md, else JSON."""
    if path.suffix.lower() in (".md", ".markdown"):
        return report_to_markdown(report).encode("utf-8")
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False).encode("utf-8")


def _annex_d(recipe: Recipe, check: ReleaseCheck) -> AnnexDResult | None:
    """The Annex D figures for the report, when the recipe gives the model's settings."""
    settings = recipe.meta.get("annex_d")
    return annex_d_risk(check.k, **settings) if settings and check.k else None


def _warn_released_anyway(check: ReleaseCheck) -> None:
    if check.acknowledged:
        print(
            terminal_line(
                f"warning: released anyway at your request; this is NOT an "
                f"anonymised release and every file is marked {NOT_ANONYMISED_MARK}. "
                f"{' '.join(check.problems)}"
            ),
            file=sys.stderr,
        )


def _tell_what_was_written(
    outputs: list[Output], result: RecipeResult, check: ReleaseCheck
) -> None:
    _warn_released_anyway(check)
    for output in outputs:
        if output.label == "--out":
            print(
                f"Wrote {len(result.data)} records to {output.path} (seed {result.seed}).",
                file=sys.stderr,
            )
        elif output.label.startswith("identity mapping"):
            how = (
                "encrypted; read it back with decrypt-mapping"
                if output.path.suffix == ".enc"
                else "PLAINTEXT (--plaintext-mapping)"
            )
            print(
                f"The {output.label}: {output.path} ({how}). Keep it secure and apart from "
                "the data (PDPC guide, Annex A: Pseudonymisation).",
                file=sys.stderr,
            )
        elif output.label.startswith("identity linking"):
            print(
                f"The {output.label}: {output.path}. Give it to the trusted third party "
                "only (double coding).",
                file=sys.stderr,
            )
        else:
            print(f"Report: {output.path}", file=sys.stderr)


def _require_keys(recipe: Recipe, *, ask: bool, written: Path | None = None) -> dict[str, bytes]:
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


def cmd_decrypt_mapping(args: argparse.Namespace) -> int:
    """Read back an identity mapping table that ``apply`` encrypted (kept private: 0600)."""
    passphrase = passphrase_from_env(args.passphrase_env)
    (output,) = plan_outputs(
        [Output("--out", Path(args.out), private=True, keep_existing=True)],
        {"encrypted file": Path(args.file)},
    )
    fmt = output_format(output.path)
    source = Path(args.file)
    if not source.is_file():  # checked before reading: a pipe or device would block
        raise AnonymisationError(
            f"'{source}' is not a regular file: give the .enc file that apply wrote."
        )
    table = decrypt_table(source.read_bytes(), passphrase)
    write_outputs([(output, table_to_bytes(table, fmt))])
    print(
        f"Wrote the decrypted table ({len(table)} rows) to {output.path}, readable by you "
        "only. It re-identifies people: keep it secure, apart from the data, and delete it "
        "when done (PDPC guide, Step 5).",
        file=sys.stderr,
    )
    return 0


def cmd_uniqueness(args: argparse.Namespace) -> int:
    estimate = uniqueness(args.population, days=args.days)
    data = {
        "population": estimate.population,
        "days": estimate.days,
        "p_unique": estimate.p_unique,
        "expected_unique_share": estimate.expected_unique_share,
        "expected_uniques": estimate.expected_uniques,
    }
    _emit(data, args.json, estimate.explanation())
    return 0


def cmd_spatial_k(args: argparse.Namespace) -> int:
    from core.geo import spatial_k

    df = read_table(args.data, sep=args.sep)
    result = spatial_k(
        df,
        args.lat,
        args.lon,
        k=args.k,
        cell_m=args.cell_m,
        decimals=args.decimals,
        radius_m=args.radius_m,
        warn=False,
    )
    text = (
        f"{result.n_records:,} records at {result.n_locations:,} locations "
        f"({result.describe_method()}); smallest count {result.min_count}; "
        f"{result.records_below:,} records at {result.locations_below:,} locations below "
        f"k = {result.k}."
    )
    _emit(result.to_dict(), args.json, text + (f"\n{result.warning}" if result.warning else ""))
    return 0


def cmd_safe_harbor(args: argparse.Namespace) -> int:
    from core.safe_harbor import apply_safe_harbor

    df = read_table(args.data, sep=args.sep)
    outputs = [Output("--out", Path(args.out))] if args.out else []
    outputs = plan_outputs(outputs, {"data": Path(args.data)}, force=args.force)
    result = apply_safe_harbor(df, reference_date=args.reference_date, free_text=args.free_text)
    for output in outputs:
        _write_table_output(output, result.data, force=args.force)
        print(f"Wrote {len(result.data)} records to {output.path}.", file=sys.stderr)
    table = result.to_frame()
    lines = [asdict(line) for line in result.identifiers]
    data = {
        "reference_date": result.reference_date,
        "columns": table.to_dict("records"),
        "identifiers": lines,
        "unchecked": list(result.unchecked),
        "redacted": list(result.redacted),
        "notes": list(result.notes()),
    }
    by_identifier = "\n".join(
        f"({line.letter}) {line.identifier}: {', '.join(line.columns) or 'no column'}"
        f"{f' (found by {line.judged_by})' if line.judged_by else ''}; {line.handling}."
        for line in result.identifiers
    )
    text = (
        "HIPAA Safe Harbor, 45 CFR 164.514(b)(2), identifier by identifier:\n"
        + by_identifier
        + "\n\nColumn by column:\n"
        + "\n".join(f"{r.column}: {r.action}. {r.detail}" for r in table.itertuples(index=False))
        + "\n"
        + "\n".join(result.notes())
    )
    _emit(data, args.json, text)
    return 0


def cmd_dp_aggregate(args: argparse.Namespace) -> int:
    from core import dp

    df = read_table(args.data, sep=args.sep)
    in_workspace = Path(args.ledger).suffix.lower() == ".db"  # the ledger of a workspace
    out, ledger = plan_outputs(
        [Output("--out", Path(args.out)), Output("--ledger", Path(args.ledger), update=True)],
        {"data": Path(args.data)},
        force=args.force,
    )
    measured = [*args.sums, *args.means]
    budget_delta = args.budget_delta if args.budget_delta is not None else args.delta
    # A JSON ledger is locked from its reading to its writing, so two runs on one ledger
    # cannot both spend what is left (issue 27); a workspace re-reads its budget under its
    # own write lock when it records the charges (Workspace.add_dp_charges).
    lock = nullcontext() if in_workspace else exclusive_lock(ledger.path, what="privacy ledger")
    with lock:
        if in_workspace:
            budget = _workspace_budget(args.ledger, args.budget, args.epsilon, budget_delta)
            charged_before = len(budget.charges)
        else:
            total = args.budget if args.budget is not None or ledger.path.exists() else args.epsilon
            budget = dp.open_ledger(ledger.path, epsilon=total, delta=budget_delta)
        release = dp.dp_release(
            df,
            _split(args.by),
            categories=dp.parse_categories(args.categories),
            epsilon=args.epsilon,
            delta=args.delta,
            mechanism=args.mechanism,
            count=args.count or not measured,
            sums=args.sums,
            means=args.means,
            bounds=dp.parse_bounds(args.bounds, measured),
            budget=budget,
        )
        # The ε record first, durably: a noisy table never exists without its ledger entry.
        if in_workspace:
            with Workspace(ledger.path) as ws, ws.transaction():
                ws.set_dp_budget(budget.epsilon, budget.delta)
                new = budget.charges[charged_before:]
                ws.add_dp_charges(
                    [(c.query, c.epsilon, c.delta) for c in new],
                    about={"data": str(args.data), "out": str(out.path)},
                )
        else:
            dp.write_ledger(ledger.path, release, budget, data=str(args.data), out=str(out.path))
    _write_table_output(out, release.table, force=args.force)
    print(
        f"Wrote {len(release.table)} cells to {out.path}; ε spent {budget.spent_epsilon:g} of "
        f"{budget.epsilon:g} (ledger {args.ledger}).",
        file=sys.stderr,
    )
    text = "\n".join([*(f.statement for f in release.figures), release.outside_statement])
    _emit(release.ledger(), args.json, text)
    return 0


def _workspace_budget(path: str, total: float | None, epsilon: float, delta: float) -> Any:
    """The workspace's privacy budget with its charges so far, or a new one (``total``, else
    this command's ``epsilon``). A recorded budget cannot change."""
    from core.dp import PrivacyBudget

    with Workspace(path) as ws:
        ledger = ws.dp_budget()
    if ledger is None:
        return PrivacyBudget(total if total is not None else epsilon, delta)
    budget = PrivacyBudget.from_dict(ledger)
    if total is not None and abs(total - budget.epsilon) > 1e-12 * max(1.0, total):
        raise AnonymisationError(
            f"The workspace '{path}' records a privacy budget of ε = {budget.epsilon:g}; a "
            f"release's budget cannot change to {total:g}. Omit --budget."
        )
    return budget


def _engine_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--engine",
        choices=("auto", *ENGINES),
        default="auto",
        help="where the data is processed: pandas (in memory), duckdb (files "
        "larger than memory, globs, folders of Parquet) or spark; auto: duckdb "
        "for globs, folders and files over 1 GiB, else pandas",
    )
    command.add_argument(
        "--spark-master",
        help="Spark master URL for --engine spark (default: spark-submit's "
        "--master, else local[*])",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m core",
        description="Anonymise tabular personal data following the PDPC Guide to Basic "
        "Anonymisation.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def data_command(name: str, help_text: str) -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.add_argument("data", help="CSV, Excel (.xlsx) or Parquet file")
        command.add_argument("--sep", help="CSV delimiter (detected when omitted)")
        command.add_argument("--json", action="store_true", help="print JSON")
        command.add_argument(
            "--progress",
            action="store_true",
            help="show a progress bar on stderr for work over ~2 s (default: "
            "only when stderr is a terminal)",
        )
        return command

    classify = data_command("classify", "Step 1: suggest a role and reason for each column.")
    classify.set_defaults(run=cmd_classify)

    risk = data_command("risk", "Step 4: k-anonymity and re-identification risk figures.")
    risk.add_argument("--qi", required=True, help="quasi-identifiers, comma-separated")
    risk.add_argument("--sensitive", help="sensitive (target) column for l-diversity/t-closeness")
    risk.add_argument("--k", type=int, default=5, help="target k (default 5)")
    _engine_options(risk)
    risk.add_argument(
        "--no-impact",
        action="store_true",
        help="skip the k and uniques without each quasi-identifier (faster)",
    )
    risk.add_argument(
        "--weights",
        help="sampling-weight column: survey risk with F_k = sum of "
        "weights (Benedetti-Franconi individual risk, as sdcMicro)",
    )
    risk.add_argument("--household", help="household id column: hierarchical (household) risk")
    risk.add_argument(
        "--risk-method",
        choices=RISK_METHODS,
        default="approx",
        help="individual risk: sdcMicro's approx (default) or exact",
    )
    risk.add_argument(
        "--risk-threshold",
        type=float,
        help="report the share of records with individual risk above this",
    )
    risk.add_argument(
        "--per-record",
        help="write f_k, F_k and the individual risk per record "
        "to this new file (.csv, .xlsx, .parquet)",
    )
    risk.add_argument("--force", action="store_true", help="replace an existing --per-record")
    risk.add_argument(
        "--missing",
        choices=MISSING_RULES,
        default="own_value",
        help="own_value: a blank is a value of its own (default); sdcmicro: a "
        "blank matches any value (adds k_missing_as_wildcard)",
    )
    risk.add_argument(
        "--population",
        type=float,
        help="size of the population the records were drawn from: adds the "
        "estimated population uniqueness (ARX's Pitman/Zayatz/SNB/Dankar)",
    )
    risk.add_argument(
        "--population-table",
        metavar="FILE",
        help="the population's own records, coded as DATA is: adds k-map (the "
        "fewest people of the population sharing a record's values) and the "
        "records standing for fewer than --k people",
    )
    risk.add_argument(
        "--population-model",
        choices=("dankar", "pitman", "zayatz", "snb"),
        default="dankar",
        help="population uniqueness model (default dankar: "
        "Dankar et al.'s rule picks one by the sampling fraction)",
    )
    risk.add_argument(
        "--model-risk",
        action="store_true",
        help="add sdcMicro's log-linear model risk (modRisk, main effects)",
    )
    risk.add_argument(
        "--model-method",
        choices=MODEL_METHODS,
        default="default",
        help="modRisk's model: default, CE, PML or weightedLLM",
    )
    risk.set_defaults(run=cmd_risk)

    find = data_command(
        "search",
        "Step 3: the least damaging generalisation levels that "
        "meet a k (and l, t) target, from hierarchies (lattice search).",
    )
    find.add_argument(
        "--hierarchy",
        action="append",
        required=True,
        metavar="COLUMN=FILE",
        help="a quasi-identifier and its hierarchy file (ARX format); repeat",
    )
    find.add_argument("--k", type=int, default=5, help="target k (default 5)")
    find.add_argument(
        "--max-suppressed",
        type=float,
        default=0.0,
        help="largest share of records that may be suppressed (0.01 = 1%%)",
    )
    find.add_argument("--sensitive", help="sensitive column for --l and --t")
    find.add_argument("--l", type=float, help="l-diversity of the sensitive column")
    find.add_argument("--l-kind", choices=L_KINDS, default="distinct", help="kind of l")
    find.add_argument("--t", type=float, help="t-closeness of the sensitive column")
    find.add_argument(
        "--t-distance",
        choices=T_DISTANCES,
        default="auto",
        help="ground distance of t: auto (ordered for numbers), equal, ordered, or "
        "hierarchical (with --t-hierarchy)",
    )
    find.add_argument(
        "--gs-factor",
        type=float,
        default=0.5,
        help="ARX's gsFactor for the arx_* measures: 0 = suppression free, "
        "1 = generalisation free (default 0.5: both weigh the same)",
    )
    find.add_argument(
        "--weight",
        action="append",
        metavar="COLUMN=NUMBER",
        help="ARX's attribute weight of a quasi-identifier for the arx_* measures "
        "(default 0.5 each; divided by the largest); repeat",
    )
    find.add_argument(
        "--t-hierarchy",
        metavar="FILE",
        help="the sensitive column's hierarchy file (ARX format): t-closeness "
        "with hierarchical distance",
    )
    find.add_argument(
        "--population",
        type=float,
        help="size of the population the records were drawn from (for --k-map "
        "and --max-population-uniqueness)",
    )
    find.add_argument(
        "--k-map",
        type=int,
        help="k-map: each class stands for at least k people of the population (ARX's estimate)",
    )
    find.add_argument(
        "--population-table",
        metavar="FILE",
        help="with --k-map: the population's own records (a table holding every "
        "record of DATA, e.g. the register it was drawn from); each class must "
        "stand for at least k of them, generalised alike (ARX KMap(k, subset))",
    )
    find.add_argument(
        "--k-map-estimator",
        choices=("poisson", "zero_truncated_poisson"),
        default="zero_truncated_poisson",
        help="k-map cell size estimator",
    )
    find.add_argument(
        "--k-map-significance",
        type=float,
        default=0.01,
        help="k-map significance level (default 0.01)",
    )
    find.add_argument(
        "--max-population-uniqueness",
        type=float,
        help="largest estimated share of population uniques (0.01 = 1%%)",
    )
    find.add_argument(
        "--population-model",
        choices=("dankar", "pitman", "zayatz", "snb"),
        default="dankar",
        help="population uniqueness model (default dankar)",
    )
    find.add_argument(
        "--population-solver-iterations",
        type=int,
        metavar="N",
        help="Newton-Raphson steps per start value for Pitman and SNB (ARX's "
        "ARXSolverConfiguration.iterationsPerTry; default 200)",
    )
    find.add_argument(
        "--max-average-risk",
        type=float,
        help="largest average re-identification risk (classes / records)",
    )
    find.add_argument(
        "--measure",
        choices=list(MEASURES),
        default="loss",
        help="what the optimum minimises (default loss)",
    )
    find.add_argument(
        "--recode-locally",
        action="store_true",
        help="search the records the optimum suppresses again and keep those "
        "whose classes then meet the target at other levels (local recoding; "
        "measures loss, arx_loss, precision, entropy, discernibility)",
    )
    find.add_argument(
        "--recode-step-share",
        type=float,
        help="with --recode-locally: each round releases at least this share "
        "of all records (ARX optimizeIterativeFast); default: each round keeps "
        "--max-suppressed",
    )
    find.add_argument(
        "--recode-gs-factor",
        type=float,
        default=0.5,
        help="with --recode-locally: ARX's gsFactor of each round's search "
        "(arx_loss; 0 = removing records free; default 0.5)",
    )
    find.add_argument(
        "--recode-adaption",
        type=float,
        default=0.0,
        help="with --recode-locally: added to the rounds' gsFactor when a round "
        "releases nothing, until it passes 1 (ARX optimizeIterative's "
        "adaptionFactor; default 0: stop)",
    )
    find.add_argument(
        "--recipe-out",
        help="write the optimum's recipe steps to this new YAML file (replay with 'apply')",
    )
    find.add_argument("--force", action="store_true", help="replace an existing --recipe-out")
    _engine_options(find)
    find.set_defaults(run=cmd_search)

    suda = data_command(
        "suda",
        "Step 4: SUDA2 special uniques (minimal sample uniques, "
        "SUDA and DIS-SUDA scores, as sdcMicro).",
    )
    suda.add_argument("--qi", required=True, help="quasi-identifiers, comma-separated")
    suda.add_argument("--max-size", type=int, help="largest MSU searched (default: all QIs)")
    suda.add_argument(
        "--dis-fraction",
        type=float,
        default=DEFAULT_DIS_FRACTION,
        help="sampling fraction for the DIS-SUDA score (sdcMicro's 0.01)",
    )
    suda.add_argument(
        "--per-record",
        help="write the SUDA and DIS-SUDA score and each "
        "quasi-identifier's contribution per record to this new file",
    )
    suda.add_argument("--force", action="store_true", help="replace an existing --per-record")
    suda.set_defaults(run=cmd_suda)

    reid = sub.add_parser("reid-risk", help="Annex D: probability of re-identification.")
    reid.add_argument("--k", type=int, required=True, help="k of the anonymised table")
    reid.add_argument("--controls", required=True, choices=CONTROL_LEVELS)
    reid.add_argument("--motivation", required=True, choices=MOTIVATION_LEVELS)
    reid.add_argument(
        "--acquaintance", type=float, default=0.0, help="P(recipient knows a person in the data)"
    )
    reid.add_argument(
        "--breach", type=float, default=0.0, help="P(data breach in the recipient's industry)"
    )
    reid.add_argument(
        "--harm", default="medium", help="low (0.2), medium (0.1), high (0.01) or a threshold"
    )
    reid.add_argument("--json", action="store_true", help="print JSON")
    reid.set_defaults(run=cmd_reid_risk)

    apply = data_command("apply", "Steps 2-3: apply a recipe and write the anonymised table.")
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
    _engine_options(apply)
    apply.set_defaults(run=cmd_apply)

    add_audit_commands(sub)  # log, verify, verify-bundle (core.cli_audit)

    decrypt = sub.add_parser(
        "decrypt-mapping",
        help="Decrypt an identity mapping table written by apply (--mapping-passphrase-env).",
    )
    decrypt.add_argument("file", help="encrypted table (.enc)")
    decrypt.add_argument(
        "--passphrase-env",
        required=True,
        metavar="NAME",
        help="environment variable holding the passphrase",
    )
    decrypt.add_argument("--out", required=True, help="decrypted table (.csv, .xlsx, .parquet)")
    decrypt.set_defaults(run=cmd_decrypt_mapping)

    unique = sub.add_parser("uniqueness", help="Chance of a unique birthday in a cell of N.")
    unique.add_argument("--population", type=int, required=True, help="people in the cell")
    unique.add_argument("--days", type=int, default=365, help="possible birthdays (365)")
    unique.add_argument("--json", action="store_true", help="print JSON")
    unique.set_defaults(run=cmd_uniqueness)

    spatial = data_command("spatial-k", "How many records share each location (NIST SP 800-188).")
    spatial.add_argument("--lat", required=True, help="latitude column (decimal degrees)")
    spatial.add_argument("--lon", required=True, help="longitude column (decimal degrees)")
    spatial.add_argument("--k", type=int, default=5, help="target k (default 5)")
    where = spatial.add_mutually_exclusive_group()
    where.add_argument("--cell-m", type=float, help="same cell of a grid of this many metres")
    where.add_argument("--decimals", type=int, help="same coordinates rounded to these places")
    where.add_argument("--radius-m", type=float, help="within this many metres")
    spatial.set_defaults(run=cmd_spatial_k)

    harbor = data_command("safe-harbor", "HIPAA Safe Harbor preset: what it would change.")
    harbor.add_argument("--reference-date", help="date for ages (default today)")
    harbor.add_argument(
        "--free-text",
        choices=tuple(FREE_TEXT_CHOICES),
        default="remove",
        help="free-text columns: "
        + "; ".join(f"'{k}': {v}" for k, v in FREE_TEXT_CHOICES.items()).replace("%", "%%"),
    )
    harbor.add_argument("--out", help="also write the transformed table here")
    harbor.add_argument("--force", action="store_true", help="replace an existing --out file")
    harbor.set_defaults(run=cmd_safe_harbor)

    dpa = data_command(
        "dp-aggregate",
        "Differentially private counts/sums/means per listed "
        "category (OpenDP noise; writes the table and a privacy ledger).",
    )
    dpa.add_argument("--by", required=True, help="grouping columns, comma-separated")
    dpa.add_argument(
        "--categories",
        action="append",
        default=[],
        help="every category of each grouping column: a=x|y,b=p|q",
    )
    dpa.add_argument("--count", action="store_true", help="release counts (default if no sums)")
    dpa.add_argument("--sum", action="append", default=[], dest="sums", help="column to sum")
    dpa.add_argument("--mean", action="append", default=[], dest="means", help="column to average")
    dpa.add_argument(
        "--bounds",
        action="append",
        default=[],
        help="clipping bounds lo,hi or col=lo,hi (use --bounds=-5,5 if negative)",
    )
    dpa.add_argument("--epsilon", type=float, required=True, help="ε of this command's queries")
    dpa.add_argument("--delta", type=float, default=0.0, help="δ (Gaussian mechanism only)")
    dpa.add_argument("--mechanism", choices=("laplace", "gaussian"), default="laplace")
    dpa.add_argument(
        "--budget", type=float, help="total ε of the release (new ledger; default --epsilon)"
    )
    dpa.add_argument("--budget-delta", type=float, help="total δ (new ledger; default --delta)")
    dpa.add_argument("--out", required=True, help="released table (.csv, .xlsx, .parquet)")
    dpa.add_argument(
        "--ledger",
        required=True,
        help="JSON record of ε spent (read if it exists); a "
        "file ending in .db is a workspace, whose ledger is kept across sessions",
    )
    dpa.add_argument("--force", action="store_true", help="replace an existing --out file")
    dpa.set_defaults(run=cmd_dp_aggregate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    args.bar = _progress_bar(args)
    args.run = _plain_warnings(args.run)
    try:
        code = args.run(args)
        sys.stdout.flush()  # a reader that went away (verify | head) is heard here
        return code
    except BrokenPipeError:
        # The reader of our output stopped (e.g. `verify | head`): end quietly, as a pipe's
        # writer does, without "Broken pipe" or a second error when Python flushes at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        _end_bar(args)
        print(
            "error: interrupted (Ctrl-C); files are written all or nothing and the "
            "workspace in one transaction, so nothing was left half-written.",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except AnonymisationError as error:
        _end_bar(args)
        print(f"error: {terminal_line(error)}", file=sys.stderr)
        return EXIT_USER_ERROR
    except sqlite3.Error as error:  # a workspace damaged or full beyond what it catches
        _end_bar(args)
        print(
            f"error: the workspace could not be read or written ({terminal_line(error)}); "
            "nothing was recorded. Check it with `python -m core verify`.",
            file=sys.stderr,
        )
        return EXIT_USER_ERROR
    except OSError as error:
        _end_bar(args)
        message = f"{error.strerror or error}: {error.filename or ''}".rstrip(": ")
        print(f"error: {terminal_line(message)}", file=sys.stderr)
        return EXIT_USER_ERROR
    finally:
        _end_bar(args)


def _end_bar(args: argparse.Namespace) -> None:
    if args.bar is not None:
        args.bar.close()
