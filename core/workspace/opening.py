"""Opening a workspace file: :class:`Workspace` and :func:`open_workspace`.

A file that is not SQLite, a SQLite file that is not a workspace, a schema newer than this
code and a read-only file or folder are refused with a clear message before anything is
written. ``PRAGMA user_version`` is the schema version; :data:`MIGRATIONS`
(:mod:`core.workspace.schema`) lists the steps from one version to the next, run when a
file is opened to write. :class:`Workspace` is the open file: the layers of what it keeps
(:mod:`~core.workspace.audit`, :mod:`~core.workspace.inputs`,
:mod:`~core.workspace.settings`, :mod:`~core.workspace.runs`) over the store
(:mod:`~core.workspace.store`).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from core.audit_chain import CHAIN_SETTING, KEYED_CHAIN, audit_key
from core.errors import SecretError
from core.workspace.runs import WorkspaceRuns
from core.workspace.schema import MIGRATIONS, SCHEMA_VERSION
from core.workspace.settings import WorkspaceSettings
from core.workspace.store import (
    OlderSchemaError,
    WorkspaceConnection,
    WorkspaceError,
    stored_json,
)

#: Written into the file header (``PRAGMA application_id``) so a workspace is recognisable.
APPLICATION_ID = 0x414E4F4E  # "ANON"
SQLITE_MAGIC = b"SQLite format 3\x00"
ENV_VAR = "ANON_WORKSPACE"
DEFAULT_NAME = "workspace.anon.db"
_BUSY_TIMEOUT_MS = 5_000


def default_path() -> Path:
    """``$ANON_WORKSPACE`` if set, else ``workspace.anon.db`` in the working folder."""
    return Path(os.environ.get(ENV_VAR) or DEFAULT_NAME)


def _writable(path: Path) -> bool:
    """Writable by us *and* not marked read-only (the super-user may write anything, but a
    file or folder without any write permission bit was meant to stay unchanged)."""
    return os.access(path, os.W_OK) and bool(path.stat().st_mode & 0o222)


def _check_openable(path: Path, *, read_only: bool = False) -> bool:
    """Refuse a path that cannot be a writable workspace (with ``read_only``: an existing,
    readable one); True if the file already exists."""
    if path.is_dir():
        raise WorkspaceError(
            f"Workspace '{path}' is a folder; give a file name, e.g. {DEFAULT_NAME}."
        )
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise WorkspaceError(f"Cannot create workspace '{path}': folder '{folder}' does not exist.")
    exists = path.exists()
    if exists:
        try:
            with open(path, "rb") as handle:
                header = handle.read(len(SQLITE_MAGIC))
        except OSError as error:
            raise WorkspaceError(f"Cannot read workspace '{path}': {error.strerror}.") from None
        if header and header != SQLITE_MAGIC:
            raise WorkspaceError(
                f"'{path}' is not a workspace (not an SQLite database). Choose another file "
                "name; this file was left unchanged."
            )
        if read_only:
            return True
        if not _writable(path):
            raise WorkspaceError(
                f"Workspace '{path}' is read-only. Make it writable or copy it elsewhere; "
                "nothing was changed."
            )
    if read_only:
        raise WorkspaceError(f"No workspace at '{path}'.")
    # WAL mode keeps two companion files (-wal, -shm) next to the workspace.
    if not _writable(folder):
        raise WorkspaceError(
            f"The folder '{folder}' of workspace '{path}' is read-only: a workspace needs to "
            "write its journal next to it. Choose a writable folder; nothing was changed."
        )
    return exists


class Workspace(WorkspaceRuns, WorkspaceSettings):
    """An open workspace file. Use as a context manager, or call :meth:`close`.

    ``read_only`` opens an existing workspace to read it (``log``, ``verify``): a file or
    folder without write permission is then accepted, and nothing is ever written.
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.path = Path(path).expanduser()
        self.read_only = read_only
        self._depth = 0  # nesting of transaction()
        try:
            self._key = audit_key()  # never written anywhere
        except SecretError as error:
            raise WorkspaceError(str(error)) from None
        self._chain = "sha256"  # until the file says otherwise (_chain_kind)
        existed = _check_openable(self.path, read_only=read_only)
        try:
            self._conn = self._connect()
        except sqlite3.Error as error:
            raise WorkspaceError(f"Cannot open workspace '{self.path}': {error}.") from None
        try:
            self._conn.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
            self._check_schema(existed)
            if not read_only:
                self._conn.execute("PRAGMA journal_mode = WAL")
                self._conn.execute("PRAGMA foreign_keys = ON")
                self._migrate()
            elif self._conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                raise OlderSchemaError(
                    f"Workspace '{self.path}' has an older schema; open it once writable "
                    "(any command that records) to upgrade it, then read it again."
                )
            self._chain = self._chain_kind()
            self._conn.opened = self.path  # from now on a damaged page is one clear line
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
            self._conn.close()
            raise WorkspaceError(
                f"'{self.path}' is not a usable workspace ({error}). Choose another file; this "
                "one was left unchanged."
            ) from None
        except WorkspaceError:
            self._conn.close()
            raise

    # -- opening -------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        options = {
            "timeout": _BUSY_TIMEOUT_MS / 1000,
            "isolation_level": None,
            "factory": WorkspaceConnection,
        }
        if not self.read_only:
            return sqlite3.connect(self.path, **options)
        uri = self.path.resolve().as_uri()
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, **options)
        try:  # a WAL file in a read-only folder without its -shm cannot be read this way
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError:
            conn.close()  # nobody can write it either: read it as it stands on disk
            conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, **options)
        conn.execute("PRAGMA query_only = ON")
        return conn

    def _chain_kind(self) -> str:
        """ "sha256", or :data:`KEYED_CHAIN` for a workspace made with the audit key."""
        row = self._conn.execute(
            "SELECT value_json FROM settings WHERE key = ?", (CHAIN_SETTING,)
        ).fetchone()
        return (
            KEYED_CHAIN if row and stored_json(row[0], "chain setting") == KEYED_CHAIN else "sha256"
        )

    def _check_schema(self, existed: bool) -> None:
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        app_id = self._conn.execute("PRAGMA application_id").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise WorkspaceError(
                f"Workspace '{self.path}' has schema version {version}, newer than this "
                f"program understands ({SCHEMA_VERSION}). Update the program; the file was "
                "left unchanged."
            )
        tables = self._conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if existed and (app_id not in (0, APPLICATION_ID) or (version == 0 and tables)):
            raise WorkspaceError(
                f"'{self.path}' is an SQLite database but not a workspace. Choose another "
                "file name; this file was left unchanged."
            )

    def _migrate(self) -> None:
        # A current file needs no write lock: opening it to read (e.g. the dashboard's
        # check on every rerun) must not wait behind another program's long write.
        if self._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            return
        with self.transaction():  # the version is read again under the lock
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            for step in range(version, SCHEMA_VERSION):
                for statement in _split_sql(MIGRATIONS[step]):
                    self._conn.execute(statement)
            if version < SCHEMA_VERSION:
                self._conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            if version == 0 and self._key is not None:  # a new workspace, made with a key
                self._chain = KEYED_CHAIN
                self.set_setting(CHAIN_SETTING, KEYED_CHAIN)


def _split_sql(script: str) -> list[str]:
    """The statements of a migration (triggers keep their inner ``;`` until ``END;``)."""
    statements, current = [], []
    for line in script.strip().splitlines():
        current.append(line)
        text = "\n".join(current).strip()
        if text.endswith(";") and sqlite3.complete_statement(text):
            statements.append(text)
            current = []
    if "\n".join(current).strip():
        statements.append("\n".join(current))
    return statements


def open_workspace(path: str | os.PathLike[str] | None = None) -> Workspace:
    """Open (creating if new) the workspace at ``path``, default :func:`default_path`."""
    return Workspace(path if path is not None else default_path())
