"""The workspace's append-only audit log: each entry stores the sha256 of the previous
entry and its own hash over its content (an HMAC with the audit key when the workspace was
made with one), so an edited, removed or reordered entry is detected by
:meth:`AuditLog.verify_chain` (PDPC guide, Step 5: "the details of the anonymisation
process, parameters used and controls should also be clearly recorded"). The hashing is
:mod:`core.audit_chain`; anchors kept outside the file are :mod:`core.audit_check`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from core.audit_chain import (
    AUDIT_KEY_VAR,
    GENESIS_HASH,
    KEYED_CHAIN,
    ChainCheck,
    entry_hash,
)
from core.audit_chain import canonical_json as _canonical
from core.workspace.store import WorkspaceError, WorkspaceStore, now, stored_json

#: Summary fields every audit entry exposes at top level (None when not applicable).
ENTRY_FIELDS = ("data_sha256", "recipe_sha256", "output_sha256", "k", "p_reid")


class AuditLog(WorkspaceStore):
    """The audit log of an open workspace: every change logs one entry (:meth:`log`)."""

    def log(self, action: str, obj: str, summary: Mapping[str, Any] | None = None) -> int:
        """Append one audit entry (in the current transaction, or its own); return its id."""
        summary_json = _canonical(dict(summary or {}))
        key = self._chain_key(writing=True)
        with self.transaction() as conn:
            last = conn.execute(
                "SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1"
            ).fetchone()
            entry_id = (last[0] + 1) if last else 1
            prev_hash = last[1] if last else GENESIS_HASH
            created_at = now()
            digest = entry_hash(entry_id, created_at, action, obj, summary_json, prev_hash, key)
            conn.execute(
                "INSERT INTO audit_log (id, created_at, action, object, summary_json, prev_hash,"
                " hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (entry_id, created_at, action, obj, summary_json, prev_hash, digest),
            )
        return entry_id

    def revision(self) -> int:
        """The id of the last audit entry: every change to the workspace logs one, so a
        reader that cached what it saw at revision N knows nothing changed while it is N."""
        return int(self._conn.execute("SELECT coalesce(max(id), 0) FROM audit_log").fetchone()[0])

    def audit_entries(self) -> list[dict[str, Any]]:
        """Every audit entry, oldest first, with the common summary fields at top level."""
        entries = []
        for row in self._query("SELECT * FROM audit_log ORDER BY id"):
            summary = stored_json(row["summary_json"], f"audit entry {row['id']}")
            entry = {
                "id": row["id"],
                "time": row["created_at"],
                "action": row["action"],
                "object": row["object"],
            }
            entry.update({name: summary.get(name) for name in ENTRY_FIELDS})
            entry["summary"] = summary
            entry["hash"] = row["hash"]
            entries.append(entry)
        return entries

    def _chain_key(self, *, writing: bool = False) -> bytes | None:
        """The key of this workspace's chain (None: a plain sha256 chain)."""
        if self._chain != KEYED_CHAIN:
            return None
        if self._key is None:
            doing = "record anything in it" if writing else "check its audit log"
            raise WorkspaceError(
                f"Workspace '{self.path}' keeps a keyed audit log: set ${AUDIT_KEY_VAR} to "
                f"the key it was made with to {doing}."
            )
        return self._key

    @property
    def keyed(self) -> bool:
        """Whether this workspace's audit chain is an HMAC (made with the audit key)."""
        return self._chain == KEYED_CHAIN

    def storage_problems(self) -> list[str]:
        """What SQLite's ``PRAGMA quick_check`` finds wrong with the file (empty: none)."""
        try:
            rows = self._conn.execute("PRAGMA quick_check(20)").fetchall()
        except (sqlite3.DatabaseError, WorkspaceError) as error:
            return [str(error)]
        problems = [str(row[0]) for row in rows]
        return [] if problems == ["ok"] else problems

    def head(self) -> tuple[int, str]:
        """(number of entries, hash of the last entry): what an anchor records."""
        row = self._conn.execute("SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1")
        last = row.fetchone()
        return (int(last[0]), str(last[1])) if last else (0, GENESIS_HASH)

    def verify_chain(self) -> ChainCheck:
        """Check the file (``PRAGMA quick_check``: a damaged file is never "intact"), then
        recompute every entry's hash; name the first entry that does not match."""
        problems = self.storage_problems()
        if problems:
            return ChainCheck(
                False,
                0,
                None,
                f"the workspace file is damaged (SQLite quick_check: {'; '.join(problems[:3])}).",
            )
        try:
            key = self._chain_key()
        except WorkspaceError as error:
            return ChainCheck(False, 0, None, str(error))
        prev = GENESIS_HASH
        rows = self._conn.execute(
            "SELECT id, created_at, action, object, summary_json, prev_hash, hash "
            "FROM audit_log ORDER BY id"
        ).fetchall()
        for position, (entry_id, at, action, obj, summary, prev_hash, digest) in enumerate(
            rows, start=1
        ):
            if entry_id != position:
                return ChainCheck(
                    False,
                    len(rows),
                    entry_id,
                    f"entry {position} is missing (ids must run 1, 2, 3, ...).",
                )
            if prev_hash != prev:
                return ChainCheck(
                    False, len(rows), entry_id, "it does not point at the previous entry's hash."
                )
            if entry_hash(entry_id, at, action, obj, summary, prev_hash, key) != digest:
                return ChainCheck(
                    False,
                    len(rows),
                    entry_id,
                    "its content does not match its hash (it was changed).",
                )
            prev = digest
        return ChainCheck(True, len(rows), keyed=key is not None)
