"""The audit log's hash chain: how an entry's hash is made, with or without a key.

Each entry of a workspace's audit log (core.workspace) stores the hash of the previous
entry and its own hash over its position, time, action, object, summary and that previous
hash, so an entry changed, removed or reordered breaks the chain from there on.

What a chain can show depends on who can recompute it. A plain sha256 chain can be
recomputed by anyone who can write the file: on its own it shows that the file was not
damaged or naively edited, not that its owner did not rewrite it. Two things make it
evidence (issue 27): *anchors* (the entry count and head hash at each release, carried by
the report and bundle that left, core.audit_check), which a rewritten chain no longer
meets; and an optional *key* (``$ANON_AUDIT_KEY``, never written anywhere) that makes each
hash an HMAC-SHA256 which nobody without the key can recompute.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from dataclasses import dataclass
from typing import Any

from core.errors import SecretError

GENESIS_HASH = "0" * 64
#: The environment variable of the optional audit key: with it, each entry's hash is an
#: HMAC-SHA256, which nobody without the key can recompute (the key is never written).
AUDIT_KEY_VAR = "ANON_AUDIT_KEY"
#: The setting that says a workspace's chain is keyed (fixed when the workspace is made).
CHAIN_SETTING = "audit_chain"
KEYED_CHAIN = "hmac-sha256"
_MIN_AUDIT_KEY_BYTES = 16


def canonical_json(value: Any) -> str:
    """The one JSON text of ``value`` every hash is taken over (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def entry_hash(
    entry_id: int,
    created_at: str,
    action: str,
    obj: str,
    summary_json: str,
    prev_hash: str,
    key: bytes | None = None,
) -> str:
    """The hash of one audit entry: over its position, content and the previous hash;
    an HMAC-SHA256 with ``key`` (a keyed chain, :data:`AUDIT_KEY_VAR`)."""
    text = canonical_json([entry_id, created_at, action, obj, summary_json, prev_hash])
    if key is None:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def audit_key() -> bytes | None:
    """The audit key from ``$ANON_AUDIT_KEY``, or None when it is not set."""
    value = os.environ.get(AUDIT_KEY_VAR)
    if not value:
        return None
    key = value.encode("utf-8")
    if len(key) < _MIN_AUDIT_KEY_BYTES:
        raise SecretError(
            f"${AUDIT_KEY_VAR} holds only {len(key)} bytes; an audit key needs at least "
            f'{_MIN_AUDIT_KEY_BYTES} (e.g. python -c "import secrets; '
            'print(secrets.token_hex(32))"), kept apart from the workspace.'
        )
    return key


@dataclass(frozen=True)
class ChainCheck:
    """The result of :meth:`Workspace.verify_chain`."""

    ok: bool
    entries: int
    first_bad_id: int | None = None
    reason: str = ""

    keyed: bool = False

    def explanation(self) -> str:
        if self.ok:
            how = "HMAC-chained with the audit key" if self.keyed else "each hash chained"
            return f"Audit log intact: {self.entries} entries, {how} to the previous."
        if self.first_bad_id is None:
            return f"Audit log cannot be trusted: {self.reason}"
        return f"Audit log entry {self.first_bad_id} fails the check: {self.reason}"
