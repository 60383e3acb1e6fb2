"""``suda``: Step 4, SUDA2 special uniques and scores as sdcMicro (core.suda)."""

from __future__ import annotations

import argparse
from typing import Any

import pandas as pd

from core.cli.commands import help_of
from core.cli.common import comma_list, data_command, emit, per_record_output, write_table_output
from core.io import read_table
from core.suda import DEFAULT_DIS_FRACTION, suda2


def add_parser(subparsers: Any) -> None:
    """The ``suda`` subcommand."""
    suda = data_command(
        subparsers,
        "suda",
        help_of("suda"),
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
    suda.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``suda``: SUDA2's special uniques and scores (with --per-record, per record)."""
    df = read_table(args.data, sep=args.sep)
    records = per_record_output(args)
    result = suda2(df, comma_list(args.qi), max_size=args.max_size, dis_fraction=args.dis_fraction)
    if records is not None:
        per_record = {"suda_score": result.score, "dis_suda_score": result.dis_score}
        per_record.update(
            {
                f"contribution_{qi}": result.contribution[:, i]
                for i, qi in enumerate(result.quasi_identifiers)
            }
        )
        write_table_output(records, pd.DataFrame(per_record), force=args.force)
    text = "\n".join(f"{key}: {sentence}" for key, sentence in result.explanations().items())
    emit(result.to_dict(), args.json, text)
    return 0
