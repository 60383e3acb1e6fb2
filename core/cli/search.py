"""``search``: Step 3, the least damaging generalisation levels meeting a target
(core.search), with optional local recoding (core.local_recoding) and --recipe-out.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.cli.commands import help_of
from core.cli.common import EXIT_INTERRUPTED, add_engine_options, data_command, emit, end_bar
from core.cli.search_hierarchies import (
    add_hierarchy_options,
    complete_hierarchies,
    keep_in_workspace,
    plan_hierarchies,
    recipe_names,
    recipe_workspace,
    sent_paths,
    unfiled_columns,
)
from core.engines import choose_engine, frequency_table
from core.engines.sources import resolve_sources
from core.errors import AnonymisationError
from core.io import read_table
from core.markup import terminal_line
from core.measures.models.registry import MODELS
from core.outputs import Output, plan_outputs, write_outputs
from core.progress import ProgressFn, no_progress, stage
from core.search.measures import MEASURES


def add_parser(subparsers: Any) -> None:
    """The ``search`` subcommand."""
    find = data_command(
        subparsers,
        "search",
        help_of("search"),
    )
    add_hierarchy_options(find)
    add_target_flags(find)
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
    add_engine_options(find)
    find.set_defaults(run=run)


def _limits(find: argparse.ArgumentParser) -> None:
    find.add_argument(
        "--max-suppressed",
        type=float,
        default=0.0,
        help="largest share of records that may be suppressed (0.01 = 1%%)",
    )
    find.add_argument("--sensitive", help="sensitive column for --l and --t")


def _arx_measure_options(find: argparse.ArgumentParser) -> None:
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


#: Options that are not a privacy model's, after the model flag they follow in ``search
#: --help`` (the order users know).
_AFTER_FLAG = {"--k": _limits, "--t-distance": _arx_measure_options}


def add_target_flags(find: argparse.ArgumentParser) -> None:
    """The target's options: each privacy model's parameters that have a flag, from the
    registry (core.measures.models.registry.MODELS; the option's name is the ClassModels
    field), the suppression limit and the whole-table targets (population uniqueness,
    average risk), in one place."""
    for model in MODELS.values():
        for parameter in model.parameters:
            if parameter.flag is not None:
                find.add_argument(parameter.flag, dest=parameter.field, **parameter.cli)
                if parameter.flag in _AFTER_FLAG:
                    _AFTER_FLAG[parameter.flag](find)
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


def run(args: argparse.Namespace) -> int:
    """Step 3: the least damaging generalisation levels meeting a target (core.search),
    on the records (pandas) or on the frequency table an engine counts (core.engines)."""
    from core.hierarchy import read_hierarchy
    from core.local_recoding import LOCAL_MEASURES, recode_suppressed
    from core.search.apply import recipe_steps, with_hierarchy_words
    from core.search.run import search
    from core.search.target import Target

    t_paths: dict[str, str] = {}  # the sensitive column's t-closeness hierarchy file
    population = {
        "max_average_risk": args.max_average_risk,
        "max_population_uniqueness": args.max_population_uniqueness,
        "population_model": args.population_model,
    }
    if args.population_solver_iterations is not None:  # ARX's iterationsPerTry
        from core.population_risk import SolverSettings

        population["population_solver"] = SolverSettings(
            iterations_per_try=args.population_solver_iterations
        )
    models = {  # every model's parameters given by a flag (dest: the ClassModels field)
        parameter.field: getattr(args, parameter.field)
        for model in MODELS.values()
        for parameter in model.parameters
        if parameter.flag is not None
    }
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
        models["population_table"] = read_table(args.population_table, sep=args.sep)
    t_hierarchy = read_hierarchy(args.t_hierarchy) if args.t_hierarchy else None
    models["t_hierarchy"] = t_hierarchy
    if t_hierarchy is not None:
        models["t_distance"] = "hierarchical"
    if t_hierarchy is not None and args.sensitive:  # named by the recipe's suppression step
        t_paths[args.sensitive] = str(Path(args.t_hierarchy).resolve())
    target = Target.of(
        max_suppressed=args.max_suppressed,
        sensitive=args.sensitive,
        **population,
        **models,
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
        read = {"data": Path(args.data), **sent_paths(args)}
        if args.t_hierarchy:
            read["--t-hierarchy"] = Path(args.t_hierarchy)
        if args.population_table:
            read["--population-table"] = Path(args.population_table)
        (recipe_out,) = plan_outputs(
            [Output("--recipe-out", Path(args.recipe_out))], read, force=args.force
        )
    progress = args.bar or no_progress
    say = _sayer(args)
    progress(0.0, f"reading {Path(args.data).name}")
    df = read_table(args.data, sep=args.sep) if engine == "pandas" else None
    if df is None:  # an engine counts the columns asked for: their names first
        columns = list(resolve_sources(args.data, sep=args.sep).names)
    else:
        columns = list(df.columns)
    skip = {Path(p).resolve() for p in (args.data, args.population_table) if p}
    plan = plan_hierarchies(args, [str(c) for c in columns], say=say, skip=skip)
    workspace = recipe_workspace(args, unfiled_columns(plan)) if recipe_out else ""
    counts = None
    if df is None:
        if plan.auto:
            raise AnonymisationError(
                f"--auto builds '{plan.auto[0]}''s hierarchy from the records themselves: use "
                "--engine pandas with it, or give its hierarchy file."
            )
        freq = frequency_table(
            args.data,
            [*plan.quasi_identifiers, *([args.sensitive] if args.sensitive else [])],
            engine=engine,
            sep=args.sep,
            spark_master=args.spark_master,
            progress=stage(progress, 0.0, 0.2),
        )
        df, counts = freq.table, freq.counts
    built = complete_hierarchies(plan, df, say=say)
    hierarchies = {column: chosen.hierarchy for column, chosen in built.items()}
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
        progress=_best_noted(args, stage(progress, 0.2, 1.0)),
        keep_best_on_interrupt=True,  # Ctrl-C: the best found so far, labelled
    )
    end_bar(args)  # what follows starts on a line of its own
    if result.stopped:
        return _stopped(args, result, target)
    data = {
        "engine": engine,
        "target": target.describe(),
        "measure": result.measure,
        "method": result.method,
        "optimum": _candidate_dict(result.optimum) if result.optimum else None,
        "frontier": [_candidate_dict(c) for c in result.frontier],
        "explanation": result.explanation(),
        "hierarchies": [chosen.as_dict() for chosen in built.values()],
    }
    text = result.explanation()
    steps = None
    names, kept = recipe_names(built)
    hierarchy_paths = {**names, **t_paths}
    if result.optimum is not None:
        population_path = Path(args.population_table).resolve() if args.population_table else None
        steps = recipe_steps(
            result.optimum, hierarchy_paths, models=target, population_table_path=population_path
        )
        # each step says its hierarchy as the person knows it (their file's name, or built
        # from the data), a value of its level and its height: as the dashboard's (issue 30)
        sources = {column: chosen.file for column, chosen in built.items() if chosen.file}
        steps = with_hierarchy_words(
            steps, hierarchies, sources=sources, data=df if counts is None else None
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
        # imported here: the recipe brings every technique (and their detectors), which
        # a search that writes no recipe need not load (issue 31: start-up)
        from core.recipe import Recipe
        from core.release.bundle import hierarchy_names

        named = {name for step in steps for name in hierarchy_names(step)}
        if workspace and named & set(kept):  # before the recipe that names them
            columns_of = {name: column for column, name in names.items()}
            keep_in_workspace(workspace, {n: t for n, t in kept.items() if n in named}, columns_of)
            text += f"\nHierarchies built from the data or read from a .zip kept in {workspace}."
        meta = {"quasi_identifiers": list(hierarchies), "k": target.required_k}
        if target.sensitive:
            meta["sensitive"] = target.sensitive
        recipe = Recipe(steps=tuple(steps), meta=meta)
        write_outputs([(recipe_out, recipe.to_yaml().encode("utf-8"))], force=args.force)
        text += f"\nRecipe written to {recipe_out.path} (replay it with 'apply')."
    emit(data, args.json, text)
    return 0


def _sayer(args: argparse.Namespace) -> Callable[[str], None]:
    """One line on stderr (never stdout, which may carry --json), above the progress bar
    when one is drawn: what the hierarchies' files matched, built or left out."""

    def say(line: str) -> None:
        if not line.startswith(("warning:", "error:")):
            line = f"hierarchy: {line}"
        if args.bar is not None:
            args.bar.say(line)
        else:
            print(terminal_line(line), file=sys.stderr)

    return say


def _best_noted(args: argparse.Namespace, progress: ProgressFn) -> ProgressFn:
    """The search's progress for the bar: its one line keeps "N of M nodes checked" and
    the traversal's step, and each new best solution so far (the dashboard's words, too
    long for the bar) is printed in full on a line above it (core.search.watch)."""
    if args.bar is None:
        return progress
    last = [""]

    def report(fraction: float, message: str) -> None:
        head, found, best = message.partition("; best so far: ")
        if found and best != last[0]:
            last[0] = best
            args.bar.note(f"best so far: {best}")
        progress(fraction, head if found else message)

    return report


def _stopped(args: argparse.Namespace, result: Any, target: Any) -> int:
    """Ctrl-C during the search: the best found so far, labelled as such, no recipe written
    (it may not be the optimum); the exit status of an interrupted command."""
    data = {
        "stopped": True,
        "nodes_checked": result.evaluated,
        "lattice_size": result.lattice_size,
        "target": target.describe(),
        "measure": result.measure,
        "best_so_far": _candidate_dict(result.optimum) if result.optimum else None,
        "explanation": result.explanation(),
    }
    text = result.explanation()
    if args.recipe_out:
        text += " No recipe was written to --recipe-out: run the search to the end for one."
    emit(data, args.json, text)
    return EXIT_INTERRUPTED


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
