"""A workspace with one damaged page, shared by the command-line and dashboard tests
(tests/core/test_cli_audit.py, tests/pages/test_hostile_workspace.py).

Importable from both folders because pytest puts tests/ (the folder of tests/conftest.py)
on ``sys.path``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


def damage_the_datasets_page(path: Path) -> None:
    """Write a nonsense cell count into the header of the datasets table's page: a page
    neither the audit chain nor the releases read, so only a check of the file sees it
    (SQLite then reports "database disk image is malformed" when the page is read)."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'datasets'"
        ).fetchone()[0]
    data = bytearray(path.read_bytes())
    offset = (root - 1) * page_size
    data[offset + 3 : offset + 5] = b"\xff\xff"
    path.write_bytes(bytes(data))
