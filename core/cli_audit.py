"""``python -m core log | verify | verify-bundle``: read a workspace's record and check it.

These commands only read: the workspace is opened read-only (a read-only file or folder,
e.g. an archived copy, can be checked), and nothing is written anywhere. PDPC guide,
Step 5: be able to show what was done; issue 27 lists what each check closes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from core.errors import AnonymisationError
from core.markup import terminal_line
from core.release.bundle_reader import BundleFiles
from core.workspace import ENV_VAR as WORKSPACE_ENV
from core.workspace import OlderSchemaError, Workspace, sha256_bytes, sha256_file
from core.workspace import default_path as default_workspace_path

UNKEYED_NOTE = (
    "note: this audit chain is not keyed (no ANON_AUDIT_KEY when the workspace was made): it "
    "shows damage and edits of single entries, not a rewrite by someone who can write the "
    "file; check a report or bundle of each release against it (--report, --bundle) to see "
    "that (SECURITY.md)."
)


def open_existing_workspace(path: str | None) -> Workspace:
    """The workspace to read (``path``, else ``$ANON_WORKSPACE``, else the default), read-only."""
    chosen = Path(path) if path else default_workspace_path()
    if not chosen.is_file():
        raise AnonymisationError(
            f"No workspace at '{chosen}'. Give --workspace FILE or set {WORKSPACE_ENV}."
        )
    try:
        return Workspace(chosen, read_only=True)
    except OlderSchemaError:
        if not (os.access(chosen, os.W_OK) and chosen.stat().st_mode & 0o222):
            raise
    Workspace(chosen).close()  # a writable file of an older version: upgraded once, as before
    return Workspace(chosen, read_only=True)


def cmd_log(args: argparse.Namespace) -> int:
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


def cmd_verify(args: argparse.Namespace) -> int:
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


def cmd_verify_bundle(args: argparse.Namespace) -> int:
    """Check a release bundle against itself, the recipe and the workspace it was recorded
    in; exit 0 if everything holds, else 1."""
    from core.audit_check import anchor_in_bundle, check_anchor
    from core.release.bundle_reader import read_bundle

    files = read_bundle(args.bundle)  # refuses a crafted zip in one line (core.bundle_reader)
    problems = _bundle_problems(files)
    anchor, released_sha = anchor_in_bundle(files)
    with open_existing_workspace(args.workspace) as ws:
        chain = ws.verify_chain()
        print(terminal_line(chain.explanation()))
        if not chain.ok:
            problems.append("the workspace's audit log does not hold (see above).")
        problems += check_anchor(ws, anchor, released_sha)
        release = next((r for r in ws.releases() if r["id"] == anchor.get("release")), None)
        if release is not None:
            problems += _against_release(ws, release, files, args.data)
    print(
        "note: MANIFEST.sha256 is a list of checksums, not a signature: anyone who changes "
        "a file can write a new one. What holds is checked against the workspace."
    )
    for problem in problems:
        print(terminal_line(f"problem: {problem}"))
    if problems:
        print(
            f"error: the bundle does not match its record ({len(problems)} problem(s)).",
            file=sys.stderr,
        )
        return 1
    print(
        terminal_line(
            f"Bundle {args.bundle}: every file matches its manifest, anonymise.py is "
            f"the script of recipe.yaml, and release {anchor['release']} in the "
            "workspace records this table, recipe and input."
        )
    )
    return 0


def _bundle_problems(files: BundleFiles) -> list[str]:
    """The bundle against its own manifest, and anonymise.py against its recipe."""
    from core.recipe import Recipe, to_python_script

    problems = []
    manifest = files.kept.get("MANIFEST.sha256", b"").decode("utf-8", "replace")
    listed = {}
    for line in manifest.splitlines():
        digest, _, name = line.partition("  ")
        listed[name] = digest
    for name, digest in files.sha256.items():
        if name == "MANIFEST.sha256":
            continue
        if listed.get(name) != digest:
            problems.append(f"{name} does not match its line in MANIFEST.sha256.")
    problems += [
        f"{name} is listed in MANIFEST.sha256 but missing."
        for name in listed
        if name not in files.sha256
    ]
    try:
        recipe = Recipe.from_yaml(files.kept["recipe.yaml"].decode("utf-8"))
    except (KeyError, UnicodeDecodeError, AnonymisationError) as error:
        return [*problems, f"recipe.yaml cannot be read ({error})."]
    if files.kept.get("anonymise.py") != to_python_script(recipe).encode("utf-8"):
        problems.append(
            "anonymise.py is not the script recipe.yaml makes (it was changed: do not run it)."
        )
    return problems


def _against_release(
    ws: Workspace, release: dict[str, Any], files: BundleFiles, data: str | None
) -> list[str]:
    """The bundle's (or archive's) recipe, hierarchies and (with ``data``) input against
    the release."""
    from core.recipe import Recipe
    from core.release.bundle import recipient_recipe

    problems = []
    recorded = ws.recipe_version(release["recipe_version_id"])
    stored = ws.hierarchies()
    # The internal archive carries the recorded recipe; the recipient bundle the same
    # recipe with rules instead of hierarchy files (core.bundle.recipient_recipe).
    recipient = recipient_recipe(Recipe.from_yaml(recorded.yaml), stored).recipe.to_yaml()
    if files.kept.get("recipe.yaml") not in (
        recorded.yaml.encode("utf-8"),
        recipient.encode("utf-8"),
    ):
        problems.append(
            f"recipe.yaml is not recipe version {recorded.id} that release {release['id']} "
            "recorded."
        )
    for name, digest in files.sha256.items():
        if name in stored and sha256_bytes(stored[name].encode("utf-8")) != digest:
            problems.append(f"{name} is not the hierarchy the workspace keeps under it.")
    if data is not None and sha256_file(data) != release["data_sha256"]:
        problems.append(
            f"'{data}' is not the input of release {release['id']} (sha256 "
            f"{release['data_sha256']} recorded)."
        )
    return problems


def add_commands(sub: Any) -> None:
    """The ``log``, ``verify`` and ``verify-bundle`` subcommands."""
    workspace_help = f"workspace file (default ${WORKSPACE_ENV} or workspace.anon.db)"
    log = sub.add_parser("log", help="Print a workspace's audit log.")
    log.add_argument("--workspace", help=workspace_help)
    log.add_argument("--json", action="store_true", help="print JSON")
    log.set_defaults(run=cmd_log)

    verify = sub.add_parser(
        "verify",
        help="Check a workspace: the file, its audit chain, each "
        "recorded row against its audit entry, the anchors of reports and "
        "bundles given, and re-run every release whose input is present.",
    )
    verify.add_argument("--workspace", help=workspace_help)
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
    verify.set_defaults(run=cmd_verify)

    bundle = sub.add_parser(
        "verify-bundle",
        help="Check a release bundle: its manifest, that "
        "anonymise.py is the script of its recipe, and its table, recipe "
        "and anchor against the workspace it was recorded in.",
    )
    bundle.add_argument("bundle", help="the release bundle (.zip)")
    bundle.add_argument("--workspace", help=workspace_help)
    bundle.add_argument(
        "--data", help="the original data, checked against the release's input sha256"
    )
    bundle.set_defaults(run=cmd_verify_bundle)
