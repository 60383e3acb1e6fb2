"""Check a workspace's record against what cannot be rewritten with it (issue 27, High 2).

The audit log's hash chain (core.audit_chain) shows that entries were not edited one by
one; it cannot show, alone, that its owner did not cut its last entries or recompute the
whole chain, and the tables beside it (releases, risk figures, recipe versions, the ε
ledger) are not in the chain at all. This module adds the two checks that close those:

- **Anchors.** At each release, the entry count and the head hash of the log are written
  into the report and the bundle that leave (:func:`anchor_of`). ``verify --report`` /
  ``--bundle`` (:func:`check_anchor`) fails when the workspace no longer holds that entry
  (the log was cut) or holds another hash there (the log was rewritten).
- **Rows against their entries.** Each recorded row is compared with the summary its
  audit entry logged when it was written (:func:`check_records`): a recipe's YAML with its
  sha256, a release's input/output sha256, seed, engine and k, a risk row's k and
  P(re-ID), a budget's ε and δ and the ε charged. A row changed under an intact log, or
  a row without an entry, is named.

PDPC guide, Step 5: keep the record of the anonymisation process securely and be able to
show it; NIST SP 800-188 §4 (documenting the de-identification process).
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from core.errors import AnonymisationError
from core.release.bundle_reader import MAX_KEPT_BYTES, BundleFiles, read_bundle
from core.workspace.fingerprints import sha256_text
from core.workspace.opening import Workspace
from core.workspace.store import stored_json

#: Largest report read from a bundle or a file (a report is a few hundred KB).
_MAX_REPORT_BYTES = MAX_KEPT_BYTES
_MD_ANCHOR = re.compile(r"release (\d+) at audit log entry (\d+) \(head ([0-9a-f]{64})(, keyed)?\)")


def anchor_of(workspace: Workspace, release_id: int, output_sha256: str) -> dict[str, Any]:
    """Where release ``release_id`` stands in the audit log, right after its entry."""
    entries, head = workspace.head()
    return {
        "release": int(release_id),
        "entries": entries,
        "head": head,
        "keyed": workspace.keyed,
        "output_sha256": output_sha256,
    }


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_anchor(
    workspace: Workspace, anchor: Mapping[str, Any], released_sha256: str | None = None
) -> list[str]:
    """What is wrong with the workspace against one ``anchor`` (empty: it holds).

    The chain itself must have been checked (:meth:`Workspace.verify_chain`): then the
    entry at the anchor's position having the anchor's hash means every entry up to it is
    the one the release was recorded after. ``released_sha256`` is the sha256 of the
    released file beside the anchor (a bundle's), checked against the record. The anchor
    comes from a file someone sent: its fields must have the types this tool writes.
    """
    release, entries, head = (anchor.get(key) for key in ("release", "entries", "head"))
    if not (_whole(release) and _whole(entries) and isinstance(head, str)):
        return [
            "the anchor is not readable: it needs release and entries (whole numbers) and "
            "head (text)."
        ]
    problems = []
    hashes = {entry["id"]: entry["hash"] for entry in workspace.audit_entries()}
    have, _ = workspace.head()
    if entries not in hashes:
        problems.append(
            f"the release was recorded at audit log entry {entries}, but the log now ends at "
            f"entry {have}: entries were cut."
        )
    elif hashes[entries] != head:
        problems.append(
            f"audit log entry {entries} is not the one the release was recorded after (its "
            "hash differs from the anchor's): the log was rewritten."
        )
    if anchor.get("keyed") and not workspace.keyed:
        problems.append("the release was recorded in a keyed audit log; this one is not keyed.")
    recorded = next((r["output_sha256"] for r in workspace.releases() if r["id"] == release), None)
    if recorded is None:
        problems.append(f"release {release} is not in the workspace.")
    else:
        for what, digest in (
            ("anchor", anchor.get("output_sha256")),
            ("released file", released_sha256),
        ):
            if digest is not None and digest != recorded:
                problems.append(
                    f"the {what}'s output sha256 {digest!r} is not release {release}'s "
                    f"recorded {recorded}."
                )
    return problems


def read_anchor(path: str | Path) -> tuple[dict[str, Any], str | None]:
    """The anchor in a report (``.json`` or ``.md``) or a bundle (``.zip``), and for a
    bundle the sha256 of its released table. Raises AnonymisationError if there is none."""
    path = Path(path)
    if path.suffix.lower() == ".zip":
        return anchor_in_bundle(read_bundle(path))
    try:
        # O_NONBLOCK: opening a FIFO to read would wait for a writer for ever
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise AnonymisationError(f"'{path}' is not a regular file (a report is one).")
            data = file.read(_MAX_REPORT_BYTES + 1)
        if len(data) > _MAX_REPORT_BYTES:
            raise AnonymisationError(f"'{path}' is too large to be a report.")
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise AnonymisationError(f"Cannot read '{path}': {error}.") from None
    if path.suffix.lower() in (".md", ".markdown"):
        found = _MD_ANCHOR.search(text.replace("\\", ""))
        if found is None:
            raise AnonymisationError(f"'{path}' carries no audit record (no workspace anchor).")
        release, entries, head, keyed = found.groups()
        return {
            "release": int(release),
            "entries": int(entries),
            "head": head,
            "keyed": bool(keyed),
        }, None
    return _anchor_in_json(text, path), None


def anchor_in_bundle(bundle: BundleFiles) -> tuple[dict[str, Any], str | None]:
    """The anchor in a bundle's report.json, and the sha256 of its released table."""
    data = bundle.kept.get("report.json")
    if data is None:
        raise AnonymisationError(
            f"'{bundle.path}' holds no report.json (of at most {_MAX_REPORT_BYTES // 2**20} MiB)."
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise AnonymisationError(f"Cannot read report.json in '{bundle.path}': {error}.") from None
    released = bundle.released
    return _anchor_in_json(text, bundle.path), bundle.sha256[released] if released else None


def _anchor_in_json(text: str, path: Path) -> dict[str, Any]:
    try:
        anchor = json.loads(text).get("audit")
    except (ValueError, AttributeError, RecursionError):  # RecursionError: "[[[[..." nested
        raise AnonymisationError(f"'{path}' is not a JSON report.") from None
    if not isinstance(anchor, dict):
        raise AnonymisationError(
            f"'{path}' carries no audit record: the release was not recorded in a workspace "
            "(or the report was made before reports carried one)."
        )
    return anchor


# --- rows against their audit entries ---------------------------------------------------


def _nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _same(a: Any, b: Any) -> bool:
    """Whether a table's value and its logged value agree. SQLite stores NaN (a figure with
    no class to measure) as NULL, while the log keeps NaN: the two are the same."""
    if _nan(a) or _nan(b):
        return (a is None or _nan(a)) and (b is None or _nan(b))
    if isinstance(a, float) or isinstance(b, float):
        try:
            return a is not None and b is not None and math.isclose(float(a), float(b))
        except (TypeError, ValueError):
            return False
    return a == b


def _entries(workspace: Workspace) -> dict[str, list[dict[str, Any]]]:
    """Audit entries by object ("release:3"), oldest first."""
    by_object: dict[str, list[dict[str, Any]]] = {}
    for entry in workspace.audit_entries():
        by_object.setdefault(entry["object"], []).append(entry)
    return by_object


def check_records(workspace: Workspace) -> list[str]:
    """Each recorded row against the summary its audit entry logged (empty: all agree)."""
    entries = _entries(workspace)
    problems: list[str] = []

    def logged(obj: str, action: str) -> dict[str, Any] | None:
        found = [e for e in entries.get(obj, []) if e["action"] == action]
        return found[-1]["summary"] if found else None

    def compare(
        what: str, row: Mapping[str, Any], summary: Mapping[str, Any], fields: Mapping[str, str]
    ) -> None:
        for column, key in fields.items():
            if key in summary and not _same(row[column], summary[key]):
                problems.append(
                    f"{what}: {column} is {row[column]!r} in its table but "
                    f"{summary[key]!r} in its audit entry."
                )

    for version in workspace.recipe_versions():
        what = f"recipe version {version.id}"
        summary = logged(f"recipe:{version.id}", "recipe")
        if summary is None:
            problems.append(f"{what} has no audit entry.")
            continue
        if sha256_text(version.yaml) != version.sha256:
            problems.append(f"{what}: its YAML does not have its recorded sha256.")
        compare(
            what,
            {"sha256": version.sha256, "parent_id": version.parent_id},
            summary,
            {"sha256": "recipe_sha256", "parent_id": "parent"},
        )
    for name, text in workspace.hierarchies().items():
        summary = logged(f"hierarchy:{name}", "hierarchy")
        if summary is None:
            problems.append(f"hierarchy {name!r} has no audit entry.")
        elif sha256_text(text) != summary.get("sha256"):
            problems.append(
                f"hierarchy {name!r}: its content is not the one its audit entry "
                "recorded (sha256 differs)."
            )
    for risk in workspace.risks():
        what = f"risk computation {risk['id']}"
        summary = logged(f"risk:{risk['id']}", "risk")
        if summary is None:
            problems.append(f"{what} has no audit entry.")
            continue
        row = {
            **risk,
            "quasi_identifiers": stored_json(
                risk["quasi_identifiers_json"], "risk row's quasi-identifiers"
            ),
        }
        compare(
            what,
            row,
            summary,
            {
                "data_sha256": "data_sha256",
                "k": "k",
                "p_reid": "p_reid",
                "recipe_version_id": "recipe_version",
                "quasi_identifiers": "quasi_identifiers",
                "sensitive": "sensitive",
                "l_diversity": "l",
                "t_closeness": "t",
            },
        )
    for release in workspace.releases():
        what = f"release {release['id']}"
        summary = logged(f"release:{release['id']}", "release")
        if summary is None:
            problems.append(f"{what} has no audit entry.")
            continue
        row = {
            **release,
            "data_files": stored_json(
                release.get("data_files_json") or "null", "release's data files"
            ),
        }
        compare(
            what,
            row,
            summary,
            {
                "data_sha256": "data_sha256",
                "recipe_sha256": "recipe_sha256",
                "recipe_version_id": "recipe_version",
                "seed": "seed",
                "output_sha256": "output_sha256",
                "output_name": "output_name",
                "engine": "engine",
                "block_rows": "block_rows",
                "k": "k",
                "p_reid": "p_reid",
                "data_path": "data_path",
                "data_files": "data_files",
                "risk_id": "risk",
            },
        )
    problems += _check_ledger(workspace, entries)
    return problems


def _check_ledger(workspace: Workspace, entries: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    """Each privacy budget and the ε/δ charged to it against the ledger's audit entries."""
    problems = []
    for name in workspace.dp_budget_names():
        ledger = workspace.dp_budget(name) or {}
        logged = entries.get(f"dp:{name}", [])
        budgets = [e["summary"] for e in logged if e["action"] == "dp_budget"]
        if not budgets:
            problems.append(f"privacy budget {name!r} has no audit entry.")
            continue
        budget = ledger.get("budget", {})
        for key in ("epsilon", "delta"):
            if not _same(float(budget.get(key, 0.0)), float(budgets[0].get(key, 0.0))):
                problems.append(
                    f"privacy budget {name!r}: {key} is {budget.get(key)} in its "
                    f"table but {budgets[0].get(key)} in its audit entry."
                )
        releases = [e["summary"] for e in logged if e["action"] == "dp_release"]
        charged = math.fsum(float(c["epsilon"]) for c in ledger.get("charges", []))
        spent = math.fsum(float(r.get("epsilon", 0.0)) for r in releases)
        queries = sum(len(r.get("queries", [])) for r in releases)
        if not _same(charged, spent) or queries != len(ledger.get("charges", [])):
            problems.append(
                f"privacy budget {name!r}: the ledger charges ε = {charged:g} in "
                f"{len(ledger.get('charges', []))} queries, but its audit entries record "
                f"ε = {spent:g} in {queries}."
            )
    return problems
