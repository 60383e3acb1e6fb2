"""``verify``: check a workspace's file, audit chain, records, the anchors of reports and
bundles given, and re-run every release whose input is present (read-only; PDPC guide,
Step 5: be able to show what was done; issue 27 lists what each check closes).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from core.cli.commands import help_of
from core.cli.common import WORKSPACE_HELP, open_existing_workspace
from core.markup import terminal_line


def add_parser(subparsers: Any) -> None:
    """The ``verify`` subcommand."""
    verify = subparsers.add_parser(
        "verify",
        help=help_of("verify"),
    )
    verify.add_argument("--workspace", help=WORKSPACE_HELP)
    verify.add_argument(
        "--bundle",
        action="append",
        metavar="ZIP",
        help="a release bundle: the workspace must still hold the audit "
        "entry it was recorded at (repeatable)",
    )
    verify.add_argument(
        "--report",
        action="append",
        metavar="FILE",
        help="a release report (.json or .md), checked as --bundle",
    )
    verify.set_defaults(run=run)


UNKEYED_NOTE = (
    "note: this audit chain is not keyed (no ANON_AUDIT_KEY when the workspace was made): it "
    "shows damage and edits of single entries, not a rewrite by someone who can write the "
    "file; check a report or bundle of each release against it (--report, --bundle) to see "
    "that (SECURITY.md)."
)


def run(args: argparse.Namespace) -> int:
    """Exit 0 if the file, the audit chain, every row against its entry, every anchor given
    and every checkable release hold; else 1."""
    from core.audit_check import check_anchor, check_records, read_anchor
    from core.release.reproduce import verify_releases

    anchored = [*(args.bundle or []), *(args.report or [])]
    anchors = [(path, *read_anchor(path)) for path in anchored]  # unreadable: one line, exit 2
    with open_existing_workspace(args.workspace) as ws:
        chain = ws.verify_chain()
        print(terminal_line(chain.explanation()))
        if not chain.ok:
            return 1
        if not chain.keyed and not anchored:
            print(UNKEYED_NOTE)
        problems = check_records(ws)
        for path, anchor, released_sha in anchors:
            found = check_anchor(ws, anchor, released_sha)
            problems += [f"{path}: {problem}" for problem in found]
            if not found:
                print(
                    terminal_line(
                        f"{path}: release {anchor['release']} is in this workspace, "
                        f"at audit log entry {anchor['entries']} as recorded."
                    )
                )
        checks = verify_releases(ws)
    for problem in problems:
        print(terminal_line(f"problem: {problem}"))
    for check in checks:
        print(terminal_line(check.line()))  # it names recorded file paths
    mismatch = next((c for c in checks if c.status == "mismatch"), None)
    if mismatch is not None:
        print(f"error: release {mismatch.release_id} does not reproduce.", file=sys.stderr)
    if problems:
        print(f"error: {len(problems)} problem(s) with the workspace's record.", file=sys.stderr)
    return 1 if problems or mismatch is not None else 0
