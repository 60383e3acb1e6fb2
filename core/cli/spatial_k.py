"""``spatial-k``: how many records share each location (NIST SP 800-188; core.geo)."""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.commands import help_of
from core.cli.common import data_command, emit
from core.io import read_table


def add_parser(subparsers: Any) -> None:
    """The ``spatial-k`` subcommand."""
    spatial = data_command(subparsers, "spatial-k", help_of("spatial-k"))
    spatial.add_argument("--lat", required=True, help="latitude column (decimal degrees)")
    spatial.add_argument("--lon", required=True, help="longitude column (decimal degrees)")
    spatial.add_argument("--k", type=int, default=5, help="target k (default 5)")
    where = spatial.add_mutually_exclusive_group()
    where.add_argument("--cell-m", type=float, help="same cell of a grid of this many metres")
    where.add_argument("--decimals", type=int, help="same coordinates rounded to these places")
    where.add_argument("--radius-m", type=float, help="within this many metres")
    spatial.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``spatial-k``: the records sharing each location, against k."""
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
    emit(result.to_dict(), args.json, text + (f"\n{result.warning}" if result.warning else ""))
    return 0
