"""``uniqueness``: the chance of a unique birthday in a cell (Gibbon & Aisbett)."""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.commands import help_of
from core.cli.common import emit
from core.risk import uniqueness


def add_parser(subparsers: Any) -> None:
    """The ``uniqueness`` subcommand."""
    unique = subparsers.add_parser("uniqueness", help=help_of("uniqueness"))
    unique.add_argument("--population", type=int, required=True, help="people in the cell")
    unique.add_argument("--days", type=int, default=365, help="possible birthdays (365)")
    unique.add_argument("--json", action="store_true", help="print JSON")
    unique.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``uniqueness``: the chance that a cell of N people holds a unique birthday."""
    estimate = uniqueness(args.population, days=args.days)
    data = {
        "population": estimate.population,
        "days": estimate.days,
        "p_unique": estimate.p_unique,
        "expected_unique_share": estimate.expected_unique_share,
        "expected_uniques": estimate.expected_uniques,
    }
    emit(data, args.json, estimate.explanation())
    return 0
