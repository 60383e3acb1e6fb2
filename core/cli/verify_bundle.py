"""``verify-bundle``: check a release bundle against its manifest, its recipe and the
workspace it was recorded in (read-only).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from core.cli.commands import help_of
from core.cli.common import WORKSPACE_HELP, open_existing_workspace
from core.errors import AnonymisationError
from core.markup import terminal_line
from core.release.bundle_reader import BundleFiles
from core.workspace import Workspace, sha256_bytes, sha256_file


def add_parser(subparsers: Any) -> None:
    """The ``verify-bundle`` subcommand."""
    bundle = subparsers.add_parser(
        "verify-bundle",
        help=help_of("verify-bundle"),
    )
    bundle.add_argument("bundle", help="the release bundle (.zip)")
    bundle.add_argument("--workspace", help=WORKSPACE_HELP)
    bundle.add_argument(
        "--data", help="the original data, checked against the release's input sha256"
    )
    bundle.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
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
    # recipe with rules instead of hierarchy files (core.release.bundle.recipient_recipe).
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
