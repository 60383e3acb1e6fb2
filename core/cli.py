"""Command line: ``python -m core COMMAND ...`` (machine-readable with ``--json``).

Commands follow the guide's steps: ``classify`` (Step 1), ``apply`` (Steps 2-3 from a
recipe), ``risk`` (Step 4, Annex C), ``suda`` (Step 4, SUDA2 special uniques),
``reid-risk`` (Annex D), ``uniqueness`` (Gibbon & Aisbett), ``spatial-k`` (locations, NIST SP 800-188) and ``safe-harbor`` (HIPAA). A user
mistake prints one clear line on stderr and exits with status 2; a traceback means a bug.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from core.errors import AnonymisationError
from core.io import read_table, write_table
from core.recipe import Recipe, apply_recipe, check_recipe_columns
from core.report import USE_CASES, build_report, report_to_markdown
from core.risk import CONTROL_LEVELS, MOTIVATION_LEVELS, annex_d_risk, risk_report, uniqueness
from core.schema import suggest_roles
from core.suda import DEFAULT_DIS_FRACTION, suda2
from core.survey_risk import RISK_METHODS, survey_risk
from core.validation import require_columns

EXIT_USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own usage errors
        self.print_usage(sys.stderr)
        self.exit(EXIT_USER_ERROR, f"error: {message}\n")


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _emit(data: object, as_json: bool, text: str) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False) if as_json else text)


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
        }
        for s in suggestions
    ]
    width = max((len(r["column"]) for r in rows), default=6)
    text = "\n".join(f"{r['column']:<{width}}  {r['role']:<8}  {r['reason']}" for r in rows)
    _emit(rows, args.json, text)
    return 0


def cmd_risk(args: argparse.Namespace) -> int:
    df = read_table(args.data, sep=args.sep)
    report = risk_report(df, _split(args.qi), k_threshold=args.k, sensitive=args.sensitive)
    data = report.to_dict()
    explanations = report.explanations()
    if args.weights or args.household or args.per_record:
        data_path = Path(args.data)
        records = Path(args.per_record) if args.per_record else None
        if records is not None and (records.exists() or records.resolve() == data_path.resolve()):
            raise AnonymisationError(
                f"--per-record file '{records}' already exists (or is the input): choose a new "
                "file name; nothing was written."
            )
        survey = survey_risk(
            df, report.quasi_identifiers, weights=args.weights, household=args.household,
            method=args.risk_method, threshold=args.risk_threshold,
        )  # fmt: skip
        data.update(survey.to_dict())
        explanations.update(survey.explanations())
        if records is not None:
            per_record = {"fk": survey.frequencies.fk, "Fk": survey.frequencies.Fk,
                          "individual_risk": survey.individual}  # fmt: skip
            if survey.household is not None:
                per_record["household_risk"] = survey.household
            write_table(pd.DataFrame(per_record), records)
    text = "\n".join(f"{key}: {sentence}" for key, sentence in explanations.items())
    _emit(data, args.json, text)
    return 0


def _new_output(path: str | None, data: str) -> Path | None:
    if path is None:
        return None
    out = Path(path)
    if out.exists() or out.resolve() == Path(data).resolve():
        raise AnonymisationError(
            f"--per-record file '{out}' already exists (or is the input): choose a new "
            "file name; nothing was written."
        )
    return out


def cmd_suda(args: argparse.Namespace) -> int:
    df = read_table(args.data, sep=args.sep)
    records = _new_output(args.per_record, args.data)
    result = suda2(df, _split(args.qi), max_size=args.max_size, dis_fraction=args.dis_fraction)
    if records is not None:
        per_record = {"suda_score": result.score, "dis_suda_score": result.dis_score}
        per_record.update(
            {f"contribution_{qi}": result.contribution[:, i]
             for i, qi in enumerate(result.quasi_identifiers)}
        )  # fmt: skip
        write_table(pd.DataFrame(per_record), records)
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


def cmd_apply(args: argparse.Namespace) -> int:
    df = read_table(args.data, sep=args.sep)
    recipe = Recipe.load(args.recipe)
    quasi_identifiers = _split(args.qi) if args.qi else None
    if quasi_identifiers:  # before any work: a misspelt name would understate the risk
        require_columns(df, quasi_identifiers, parameter="quasi_identifiers")
    check_recipe_columns(recipe, df)
    if args.ask_keys:
        _prompt_for_keys(recipe)
    if args.seed is not None:
        recipe = Recipe(recipe.steps, args.seed, recipe.meta)
    result = apply_recipe(df, recipe, base_dir=Path(args.recipe).resolve().parent)
    out = write_table(result.data, args.out)
    print(f"Wrote {len(result.data)} records to {out} (seed {result.seed}).", file=sys.stderr)
    for column, mapping in result.mappings.items():
        path = Path(f"{out}.mapping-{column}.csv")
        mapping.to_csv(path, index=False)
        print(f"Identity mapping table for '{column}': {path}. Keep it secure and apart "
              "from the data (PDPC guide, Annex A: Pseudonymisation).", file=sys.stderr)  # fmt: skip
    for column, linking in result.linking.items():
        path = Path(f"{out}.linking-{column}.csv")
        linking.to_csv(path, index=False)
        print(f"Linking table for '{column}': {path}. Give it to the trusted third party "
              "only (double coding).", file=sys.stderr)  # fmt: skip
    if args.report:
        report = build_report(
            df,
            result,
            recipe,
            quasi_identifiers=quasi_identifiers,
            use_case=args.use_case,
        )
        report_path = Path(args.report)
        if report_path.suffix.lower() in (".md", ".markdown"):
            report_path.write_text(report_to_markdown(report), encoding="utf-8")
        else:
            report_path.write_text(
                json.dumps(report.to_dict(), indent=2, ensure_ascii=False), encoding="utf-8"
            )
        print(f"Report: {report_path}", file=sys.stderr)
    return 0


def _prompt_for_keys(recipe: Recipe) -> None:
    """Ask for each pseudonymisation key the recipe names but the environment lacks.

    The key is typed without echo and put only in this process's environment: it is
    never written to a file, the recipe, the report or the log (PDPC guide, Annex A:
    "the encryption key ... must be securely protected").
    """
    for step in recipe.steps:
        name = step.get("key_env")
        if name and not os.environ.get(name):
            os.environ[name] = getpass.getpass(f"Key for {name} (input hidden): ")


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
    result = spatial_k(df, args.lat, args.lon, k=args.k, cell_m=args.cell_m,
                       decimals=args.decimals, radius_m=args.radius_m, warn=False)  # fmt: skip
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
    result = apply_safe_harbor(df, reference_date=args.reference_date)
    if args.out:
        out = write_table(result.data, args.out)
        print(f"Wrote {len(result.data)} records to {out}.", file=sys.stderr)
    table = result.to_frame()
    data = {"reference_date": result.reference_date, "columns": table.to_dict("records"),
            "unchecked": list(result.unchecked), "notes": list(result.notes())}  # fmt: skip
    text = (
        "\n".join(f"{r.column}: {r.action}. {r.detail}" for r in table.itertuples(index=False))
        + "\n"
        + "\n".join(result.notes())
    )
    _emit(data, args.json, text)
    return 0


def cmd_dp_aggregate(args: argparse.Namespace) -> int:
    from core import dp

    df = read_table(args.data, sep=args.sep)
    measured = [*args.sums, *args.means]
    budget_delta = args.budget_delta if args.budget_delta is not None else args.delta
    total = args.budget if args.budget is not None or Path(args.ledger).exists() else args.epsilon
    budget = dp.open_ledger(args.ledger, epsilon=total, delta=budget_delta)
    release = dp.dp_release(
        df, _split(args.by), categories=dp.parse_categories(args.categories),
        epsilon=args.epsilon, delta=args.delta, mechanism=args.mechanism,
        count=args.count or not measured, sums=args.sums, means=args.means,
        bounds=dp.parse_bounds(args.bounds, measured), budget=budget,
    )  # fmt: skip
    out = write_table(release.table, args.out)
    dp.write_ledger(args.ledger, release, budget, data=str(args.data), out=str(out))
    print(f"Wrote {len(release.table)} cells to {out}; ε spent {budget.spent_epsilon:g} of "
          f"{budget.epsilon:g} (ledger {args.ledger}).", file=sys.stderr)  # fmt: skip
    text = "\n".join([*(f.statement for f in release.figures), release.outside_statement])
    _emit(release.ledger(), args.json, text)
    return 0


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
        return command

    classify = data_command("classify", "Step 1: suggest a role and reason for each column.")
    classify.set_defaults(run=cmd_classify)

    risk = data_command("risk", "Step 4: k-anonymity and re-identification risk figures.")
    risk.add_argument("--qi", required=True, help="quasi-identifiers, comma-separated")
    risk.add_argument("--sensitive", help="sensitive (target) column for l-diversity/t-closeness")
    risk.add_argument("--k", type=int, default=5, help="target k (default 5)")
    risk.add_argument("--weights", help="sampling-weight column: survey risk with F_k = sum of "
                      "weights (Benedetti-Franconi individual risk, as sdcMicro)")  # fmt: skip
    risk.add_argument("--household", help="household id column: hierarchical (household) risk")
    risk.add_argument("--risk-method", choices=RISK_METHODS, default="approx",
                      help="individual risk: sdcMicro's approx (default) or exact")  # fmt: skip
    risk.add_argument("--risk-threshold", type=float,
                      help="report the share of records with individual risk above this")  # fmt: skip
    risk.add_argument("--per-record", help="write f_k, F_k and the individual risk per record "
                      "to this new file (.csv, .xlsx, .parquet)")  # fmt: skip
    risk.set_defaults(run=cmd_risk)

    suda = data_command("suda", "Step 4: SUDA2 special uniques (minimal sample uniques, "
                        "SUDA and DIS-SUDA scores, as sdcMicro).")  # fmt: skip
    suda.add_argument("--qi", required=True, help="quasi-identifiers, comma-separated")
    suda.add_argument("--max-size", type=int, help="largest MSU searched (default: all QIs)")
    suda.add_argument("--dis-fraction", type=float, default=DEFAULT_DIS_FRACTION,
                      help="sampling fraction for the DIS-SUDA score (sdcMicro's 0.01)")  # fmt: skip
    suda.add_argument("--per-record", help="write the SUDA and DIS-SUDA score and each "
                      "quasi-identifier's contribution per record to this new file")  # fmt: skip
    suda.set_defaults(run=cmd_suda)

    reid = sub.add_parser("reid-risk", help="Annex D: probability of re-identification.")
    reid.add_argument("--k", type=int, required=True, help="k of the anonymised table")
    reid.add_argument("--controls", required=True, choices=CONTROL_LEVELS)
    reid.add_argument("--motivation", required=True, choices=MOTIVATION_LEVELS)
    reid.add_argument("--acquaintance", type=float, default=0.0,
                      help="P(recipient knows a person in the data)")  # fmt: skip
    reid.add_argument("--breach", type=float, default=0.0,
                      help="P(data breach in the recipient's industry)")  # fmt: skip
    reid.add_argument("--harm", default="medium",
                      help="low (0.2), medium (0.1), high (0.01) or a threshold")  # fmt: skip
    reid.add_argument("--json", action="store_true", help="print JSON")
    reid.set_defaults(run=cmd_reid_risk)

    apply = data_command("apply", "Steps 2-3: apply a recipe and write the anonymised table.")
    apply.add_argument("--recipe", required=True, help="recipe YAML file")
    apply.add_argument("--out", required=True, help="output file (.csv, .xlsx, .parquet)")
    apply.add_argument("--report", help="write a report (.json or .md)")
    apply.add_argument("--qi", help="quasi-identifiers for the report (default: recipe's)")
    apply.add_argument("--use-case", default="external", choices=list(USE_CASES))
    apply.add_argument("--seed", type=int, help="override the recipe's seed")
    apply.add_argument("--ask-keys", action="store_true",
                       help="prompt (without echo) for pseudonymisation keys not set in the "
                       "environment")  # fmt: skip
    apply.set_defaults(run=cmd_apply)

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
    harbor.add_argument("--out", help="also write the transformed table here")
    harbor.set_defaults(run=cmd_safe_harbor)

    dpa = data_command("dp-aggregate", "Differentially private counts/sums/means per listed "
                       "category (OpenDP noise; writes the table and a privacy ledger).")  # fmt: skip
    dpa.add_argument("--by", required=True, help="grouping columns, comma-separated")
    dpa.add_argument("--categories", action="append", default=[],
                     help="every category of each grouping column: a=x|y,b=p|q")  # fmt: skip
    dpa.add_argument("--count", action="store_true", help="release counts (default if no sums)")
    dpa.add_argument("--sum", action="append", default=[], dest="sums", help="column to sum")
    dpa.add_argument("--mean", action="append", default=[], dest="means", help="column to average")
    dpa.add_argument("--bounds", action="append", default=[],
                     help="clipping bounds lo,hi or col=lo,hi (use --bounds=-5,5 if negative)")  # fmt: skip
    dpa.add_argument("--epsilon", type=float, required=True, help="ε of this command's queries")
    dpa.add_argument("--delta", type=float, default=0.0, help="δ (Gaussian mechanism only)")
    dpa.add_argument("--mechanism", choices=("laplace", "gaussian"), default="laplace")
    dpa.add_argument("--budget", type=float, help="total ε of the release (new ledger; "
                     "default --epsilon)")  # fmt: skip
    dpa.add_argument("--budget-delta", type=float, help="total δ (new ledger; default --delta)")
    dpa.add_argument("--out", required=True, help="released table (.csv, .xlsx, .parquet)")
    dpa.add_argument("--ledger", required=True, help="JSON record of ε spent (read if it exists)")
    dpa.set_defaults(run=cmd_dp_aggregate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except AnonymisationError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USER_ERROR
    except OSError as error:
        print(f"error: {error.strerror or error}: {error.filename or ''}".rstrip(": "),
              file=sys.stderr)  # fmt: skip
        return EXIT_USER_ERROR
