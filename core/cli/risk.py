"""``risk``: Step 4's figures (k-anonymity, re-identification risk, survey and
population risk; PDPC guide, Annex C), on the records or an engine's frequency table.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pandas as pd

from core.cli.commands import help_of
from core.cli.common import (
    add_engine_options,
    comma_list,
    data_command,
    emit,
    end_bar,
    per_record_output,
    write_table_output,
)
from core.engines import choose_engine, frequency_table
from core.errors import AnonymisationError
from core.io import read_table
from core.model_risk import MODEL_METHODS, model_risk
from core.progress import no_progress, stage
from core.risk import risk_report
from core.survey_risk import MISSING_RULES, RISK_METHODS, sample_frequencies, survey_risk


def add_parser(subparsers: Any) -> None:
    """The ``risk`` subcommand."""
    risk = data_command(subparsers, "risk", help_of("risk"))
    risk.add_argument("--qi", required=True, help="quasi-identifiers, comma-separated")
    risk.add_argument("--sensitive", help="sensitive (target) column for l-diversity/t-closeness")
    risk.add_argument("--k", type=int, default=5, help="target k (default 5)")
    add_engine_options(risk)
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
    risk.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``risk``: Step 4's figures on the records or on an engine's frequency table."""
    engine = choose_engine(args.data, args.engine)
    if engine != "pandas":
        return _risk_on_engine(args, engine)
    progress = args.bar or no_progress
    progress(0.0, f"reading {Path(args.data).name}")
    qis = comma_list(args.qi)
    # The report only groups and counts the quasi-identifiers and the sensitive column, so
    # they may come coded; the figures that read the values themselves get them plain.
    by_value = args.weights or args.household or args.per_record or args.model_risk
    counted_only = not by_value and args.missing != "sdcmicro" and not args.population_table
    coded = [*qis, *([args.sensitive] if args.sensitive else [])] if counted_only else []
    df = read_table(args.data, sep=args.sep, coded=coded)
    report = risk_report(
        df,
        qis,
        k_threshold=args.k,
        sensitive=args.sensitive,
        impact=not args.no_impact,
        progress=stage(progress, 0.5, 1.0),
    )
    end_bar(args)  # the figures start on a line of their own
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
        records = per_record_output(args)
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
            write_table_output(records, pd.DataFrame(per_record), force=args.force)
    if args.model_risk:
        model = model_risk(
            df, report.quasi_identifiers, weights=args.weights, method=args.model_method
        )
        data.update(model.to_dict())
        explanations.update(model.explanations())
    _add_population_figures(args, report, data, explanations, df)
    text = "\n".join(f"{key}: {sentence}" for key, sentence in explanations.items())
    emit(data, args.json, text)
    return 0


def _risk_on_engine(args: argparse.Namespace, engine: str) -> int:
    """Step 4 figures from the frequency table an engine computes (core.engines)."""
    if args.weights or args.household or args.per_record:
        raise AnonymisationError(
            "--weights, --household and --per-record need the records themselves: use "
            "--engine pandas with them."
        )
    qis = comma_list(args.qi)
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
    end_bar(args)
    data, explanations = {**report.to_dict(), "engine": engine}, report.explanations()
    _add_population_figures(args, report, data, explanations, freq.table, freq.counts)
    text = "\n".join(f"{key}: {sentence}" for key, sentence in explanations.items())
    emit(data, args.json, text)
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
