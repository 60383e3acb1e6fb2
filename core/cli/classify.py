"""``classify``: Step 1, a role and a reason for each column (core.schema)."""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.commands import help_of
from core.cli.common import data_command, emit
from core.io import read_table
from core.schema import suggest_roles


def add_parser(subparsers: Any) -> None:
    """The ``classify`` subcommand."""
    classify = data_command(subparsers, "classify", help_of("classify"))
    classify.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``classify``: each column's suggested role and reason."""
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
    emit(rows, args.json, text)
    return 0
