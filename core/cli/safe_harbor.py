"""``safe-harbor``: what the HIPAA Safe Harbor preset, 45 CFR 164.514(b)(2), would change."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from core.cli.commands import help_of
from core.cli.common import data_command, emit, write_table_output
from core.io import read_table
from core.outputs import Output, plan_outputs
from core.safe_harbor_report import FREE_TEXT_CHOICES


def add_parser(subparsers: Any) -> None:
    """The ``safe-harbor`` subcommand."""
    harbor = data_command(subparsers, "safe-harbor", help_of("safe-harbor"))
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
    harbor.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``safe-harbor``: what the preset changes, identifier by identifier."""
    from core.safe_harbor import apply_safe_harbor

    df = read_table(args.data, sep=args.sep)
    outputs = [Output("--out", Path(args.out))] if args.out else []
    outputs = plan_outputs(outputs, {"data": Path(args.data)}, force=args.force)
    result = apply_safe_harbor(df, reference_date=args.reference_date, free_text=args.free_text)
    for output in outputs:
        write_table_output(output, result.data, force=args.force)
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
    emit(data, args.json, text)
    return 0
