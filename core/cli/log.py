"""``log``: print a workspace's audit log (read-only)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from core.cli.commands import help_of
from core.cli.common import WORKSPACE_HELP, open_existing_workspace
from core.markup import terminal_line


def add_parser(subparsers: Any) -> None:
    """The ``log`` subcommand."""
    log = subparsers.add_parser("log", help=help_of("log"))
    log.add_argument("--workspace", help=WORKSPACE_HELP)
    log.add_argument("--json", action="store_true", help="print JSON")
    log.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``log``: the workspace's audit log as lines or JSON."""
    with open_existing_workspace(args.workspace) as ws:
        entries = ws.audit_entries()
    if args.json:
        print(json.dumps(entries, indent=2, ensure_ascii=False))
        return 0
    for e in entries:
        figures = "  ".join(
            f"{name}={str(e[name])[:12] if name.endswith('sha256') else e[name]}"
            for name in ("data_sha256", "recipe_sha256", "output_sha256", "k", "p_reid")
            if e[name] is not None
        )
        print(
            terminal_line(
                f"{e['id']:>5}  {e['time']}  {e['action']:<13} {e['object']!r}  {figures}"
            )
        )
    return 0
