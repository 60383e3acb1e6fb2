"""The commands of ``python -m core``: each command's name, the module that adds it to the
parser and runs it, and its one-line help.

The table lets ``python -m core <command>`` import only that command's module: the other
commands are listed (``--help``, "invalid choice") by name and help alone, so a command does
not pay for importing every other command's part of the library (issue 31: start-up).
"""

from __future__ import annotations

#: name -> (module, one-line help), in the order ``python -m core --help`` lists them
COMMANDS: dict[str, tuple[str, str]] = {
    "classify": ("core.cli.classify", "Step 1: suggest a role and reason for each column."),
    "risk": ("core.cli.risk", "Step 4: k-anonymity and re-identification risk figures."),
    "search": (
        "core.cli.search",
        "Step 3: the least damaging generalisation levels that meet a k (and l, t) target, from hierarchies (lattice search).",
    ),
    "suda": (
        "core.cli.suda",
        "Step 4: SUDA2 special uniques (minimal sample uniques, SUDA and DIS-SUDA scores, as sdcMicro).",
    ),
    "reid-risk": ("core.cli.reid_risk", "Annex D: probability of re-identification."),
    "apply": ("core.cli.apply", "Steps 2-3: apply a recipe and write the anonymised table."),
    "log": ("core.cli.log", "Print a workspace's audit log."),
    "verify": (
        "core.cli.verify",
        "Check a workspace: the file, its audit chain, each recorded row against its audit entry, the anchors of reports and bundles given, and re-run every release whose input is present.",
    ),
    "verify-bundle": (
        "core.cli.verify_bundle",
        "Check a release bundle: its manifest, that anonymise.py is the script of its recipe, and its table, recipe and anchor against the workspace it was recorded in.",
    ),
    "decrypt-mapping": (
        "core.cli.decrypt_mapping",
        "Decrypt an identity mapping table written by apply (--mapping-passphrase-env).",
    ),
    "uniqueness": ("core.cli.uniqueness", "Chance of a unique birthday in a cell of N."),
    "spatial-k": ("core.cli.spatial_k", "How many records share each location (NIST SP 800-188)."),
    "safe-harbor": ("core.cli.safe_harbor", "HIPAA Safe Harbor preset: what it would change."),
    "dp-aggregate": (
        "core.cli.dp_aggregate",
        "Differentially private counts/sums/means per listed category (OpenDP noise; writes the table and a privacy ledger).",
    ),
}


def help_of(name: str) -> str:
    """The one-line help of the command ``name``."""
    return COMMANDS[name][1]
