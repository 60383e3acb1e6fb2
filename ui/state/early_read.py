"""Reading the table the dashboard opens with ($ANON_DATA) while the server imports the
library, on a cold server (issue 31).

A new server's first page run spends about 0.3 s of CPU importing the library (recipes,
techniques, the workspace) before it can read the file, and the read itself is pyarrow's
parser, which runs outside Python's global interpreter lock: started on a thread before
those imports (app.py, right after the menu), the two overlap on a second core. Only the
first run of a process starts it (after that the table is in ``loading``'s shared cache),
and only for a session with no table yet.

The thread reads with :func:`core.io.read_table`, exactly what the page would call;
:func:`take` hands the table (or the error, raised as the page's own read would raise it)
to the page's read, once; a restart that reopens the workspace's project from that same
file (its rows not kept in the workspace) takes it too. When the workspace reopens a
project from its stored rows instead, :func:`forget` drops the table, read for nothing once
per server process. The file's sha256, which the workspace records, is hashed on a second
thread meanwhile (:func:`take_digest`). This module imports nothing of the library itself,
so that app.py can start the read before importing it.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future
from typing import Any

import streamlit as st

#: Paths whose early read was started in this process (never started twice).
_started: set[str] = set()
#: Reads started and not yet taken or forgotten.
_reads: dict[str, Future[Any]] = {}
#: The file's sha256 (what the workspace records of it), hashed beside the read.
_digests: dict[str, Future[str]] = {}
_reads_lock = threading.Lock()


def start_reading_startup_table() -> None:
    """Start reading $ANON_DATA on a background thread, once per server process, if this
    session has no table yet (its first run opens the startup table)."""
    path = os.environ.get("ANON_DATA")
    if not path or st.session_state.get("original") is not None:
        return
    with _reads_lock:
        if path in _started:
            return
        _started.add(path)
        read: Future[Any] = Future()
        _reads[path] = read
        digest: Future[str] = Future()
        _digests[path] = digest

    def run() -> None:
        try:
            from core.io import read_table  # the library, imported off the page's thread

            read.set_result(read_table(path))
        except Exception as error:  # noqa: BLE001 - handed to the page, which reports it
            read.set_exception(error)

    def fingerprint() -> None:
        # hashlib and the file's reads let go of Python's lock: the 0.06 s of a 37 MB file
        # run on the second core while the table is parsed, not after it on the page's thread.
        try:
            from core.workspace.fingerprints import sha256_file

            digest.set_result(sha256_file(path))
        except Exception as error:  # noqa: BLE001 - the page hashes the file itself then
            digest.set_exception(error)

    threading.Thread(target=run, name="early-read", daemon=True).start()
    threading.Thread(target=fingerprint, name="early-hash", daemon=True).start()


def take(path: str) -> Any | None:
    """The table at ``path`` read by :func:`start_reading_startup_table` (waiting for the
    read to end), or None if none was started or it was taken already; raises the read's
    error, e.g. core.errors.DataReadError with its message."""
    with _reads_lock:
        read = _reads.pop(path, None)
    return None if read is None else read.result()


def take_digest(path: str) -> str | None:
    """The sha256 of the file at ``path`` hashed beside :func:`take`'s read (waiting for
    it), or None if none was started, it was taken already or the hashing failed."""
    with _reads_lock:
        digest = _digests.pop(path, None)
    if digest is None or digest.exception() is not None:
        return None
    return digest.result()


def forget(path: str) -> None:
    """Drop a table read early that no page will take (the workspace reopened a project)."""
    with _reads_lock:
        _reads.pop(path, None)
        _digests.pop(path, None)
