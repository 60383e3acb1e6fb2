"""``dp-aggregate``: differentially private counts, sums and means per category
(core.dp), with the privacy ledger in a JSON file or a workspace.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from core.cli.commands import help_of
from core.cli.common import comma_list, data_command, emit, write_table_output
from core.errors import AnonymisationError
from core.file_lock import exclusive_lock
from core.io import read_table
from core.outputs import Output, plan_outputs
from core.workspace import Workspace


def add_parser(subparsers: Any) -> None:
    """The ``dp-aggregate`` subcommand."""
    dpa = data_command(
        subparsers,
        "dp-aggregate",
        help_of("dp-aggregate"),
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
    dpa.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dp-aggregate``: charge the ledger, then write the noisy table."""
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
            comma_list(args.by),
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
    write_table_output(out, release.table, force=args.force)
    print(
        f"Wrote {len(release.table)} cells to {out.path}; ε spent {budget.spent_epsilon:g} of "
        f"{budget.epsilon:g} (ledger {args.ledger}).",
        file=sys.stderr,
    )
    text = "\n".join([*(f.statement for f in release.figures), release.outside_statement])
    emit(release.ledger(), args.json, text)
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
