"""The workspace's storage layer: the SQLite connection, its errors and its transactions.

Design notes. The file uses WAL mode (readers do not block the writer); every write is one
``BEGIN IMMEDIATE`` transaction, retried while another process holds the write lock, so
two writers never interleave and a writer killed mid-transaction leaves the previous state
(SQLite rolls the unfinished transaction back). A damaged file met while reading is one
clear :class:`WorkspaceError` line for every caller. Opening a file (checks, schema,
migrations) is :mod:`core.workspace.opening`; what is stored is in the modules by concern
(:mod:`~core.workspace.audit`, :mod:`~core.workspace.inputs`,
:mod:`~core.workspace.settings`, :mod:`~core.workspace.runs`), each a layer of
:class:`core.workspace.opening.Workspace` over :class:`WorkspaceStore`.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Self

from core.errors import AnonymisationError

_LOCK_RETRIES = 40  # each waits up to the busy timeout: minutes of patience in all


class WorkspaceError(AnonymisationError):
    """The workspace file cannot be opened or written (not SQLite, too new, read-only...)."""


class OlderSchemaError(WorkspaceError):
    """A workspace opened read-only has an older schema, which only a writer can upgrade."""


def now() -> str:
    """The time a row is recorded: UTC, ISO 8601 to the microsecond."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


class WorkspaceConnection(sqlite3.Connection):
    """A connection that turns a damaged file met while reading (SQLITE_CORRUPT, not a
    database) into one :class:`WorkspaceError` line, for every caller (the dashboard's
    pages too, not only the command line). Locks and full disks (OperationalError) pass
    through: :meth:`Workspace.transaction` retries and words them."""

    opened: Path | None = None  # set once the workspace is open (opening words its own)

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        try:
            return self.cursor(_Cursor).execute(sql, parameters)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
            raise self.damaged(error) from None

    def damaged(self, error: sqlite3.DatabaseError | UnicodeDecodeError) -> BaseException:
        """``error`` itself, or for damage met once the workspace is open, one line."""
        if self.opened is None or not _is_damage(error):
            return error
        return WorkspaceError(
            f"Workspace '{self.opened}' is damaged ({error}): check it with `python -m "
            "core verify` and restore it from a copy."
        )


def _is_damage(error: sqlite3.DatabaseError | UnicodeDecodeError) -> bool:
    """A damaged file (SQLITE_CORRUPT, not a database, text that is not UTF-8, even in the
    schema), not a lock or a full disk, which pass through to be retried or worded as a
    failed write."""
    if isinstance(error, sqlite3.OperationalError):
        return str(error).startswith("Could not decode")
    return True


class _Cursor(sqlite3.Cursor):
    """Rows are read (and a damaged page met) when fetched, after ``execute``: the same
    one-line error then (a fuzzed workspace raised 'database disk image is malformed'
    from ``fetchall``, and undecodable text from ``fetchone``)."""

    def _read(self, fetch, *args):
        try:
            return fetch(*args)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
            raise self.connection.damaged(error) from None

    def fetchone(self):
        return self._read(super().fetchone)

    def fetchmany(self, size: int = 1):
        return self._read(super().fetchmany, size)

    def fetchall(self):
        return self._read(super().fetchall)

    def __next__(self):
        return self._read(super().__next__)


def stored_json(text: object, what: str) -> Any:
    """A JSON value stored in the workspace; a damaged or crafted one is one clear line."""
    try:
        return json.loads(text)  # type: ignore[arg-type]
    except (TypeError, ValueError, RecursionError):
        raise WorkspaceError(
            f"The workspace's {what} is not readable JSON: the file is damaged or was "
            "altered. Check it with `python -m core verify` and restore it from a copy."
        ) from None


class WorkspaceStore:
    """The connection of an open workspace and its write transactions; the layers of
    :class:`core.workspace.opening.Workspace` build on it. The attributes are set when the
    file is opened (:class:`~core.workspace.opening.Workspace`)."""

    path: Path
    read_only: bool
    _conn: sqlite3.Connection
    _depth: int  # nesting of transaction()
    _key: bytes | None  # the audit key, never written anywhere
    _chain: str  # "sha256" or core.audit_chain.KEYED_CHAIN

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Workspace({str(self.path)!r})"

    # -- transactions --------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (nested calls join the outer one).

        ``BEGIN IMMEDIATE`` takes the write lock at the start, so the previous audit hash
        read inside cannot change before the commit; while another process holds the lock,
        SQLite waits up to the busy timeout and we retry.
        """
        if self._depth:
            self._depth += 1
            try:
                yield self._conn
            finally:
                self._depth -= 1
            return
        if self.read_only:
            raise WorkspaceError(
                f"Workspace '{self.path}' was opened read-only; nothing can be recorded in it."
            )
        for attempt in range(_LOCK_RETRIES):
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise self._write_error(error) from None
                time.sleep(min(0.05 * (attempt + 1), 0.5))
        else:
            raise WorkspaceError(
                f"Workspace '{self.path}' stayed locked by another program; try again."
            )
        self._depth = 1
        try:
            yield self._conn
        except sqlite3.Error as error:  # a full disk, a damaged file: one line, not a trace
            self._rollback()
            raise self._write_error(error) from None
        except BaseException:
            self._rollback()
            raise
        else:
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as error:
                self._rollback()
                raise self._write_error(error) from None
        finally:
            self._depth = 0

    def _rollback(self) -> None:
        """Undo the open transaction. SQLite may have rolled it back already (a full disk,
        a damaged page): then there is nothing to undo, and no second error to raise."""
        if self._conn.in_transaction:
            with suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")

    def _write_error(self, error: sqlite3.Error) -> WorkspaceError:
        return WorkspaceError(f"Cannot write workspace '{self.path}': {error}.")

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        cursor = self._conn.execute(sql, params)
        cursor.row_factory = sqlite3.Row
        return cursor.fetchall()
