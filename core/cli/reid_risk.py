"""``reid-risk``: the PDPC guide's Annex D probability of re-identification."""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.commands import help_of
from core.cli.common import emit
from core.risk import CONTROL_LEVELS, MOTIVATION_LEVELS, annex_d_risk


def add_parser(subparsers: Any) -> None:
    """The ``reid-risk`` subcommand."""
    reid = subparsers.add_parser("reid-risk", help=help_of("reid-risk"))
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
    reid.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``reid-risk``: Annex D's P(re-identification) for the given k and setting."""
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
    emit(data, args.json, result.explanation())
    return 0
