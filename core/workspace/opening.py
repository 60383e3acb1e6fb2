"""The workspace: one SQLite file that is the single source of truth of a project.

The PDPC guide asks that "the details of the anonymisation process, parameters used and
controls should also be clearly recorded" (Step 5) and the accountability obligation asks
an organisation to be able to *show* what it did. A workspace keeps, in one file that the
dashboard and ``python -m core`` share:

- data sets (name, sha256, schema, row count, where read from; the rows only if asked,
  as compressed Parquet), Step 1 roles (who, when), recipe versions (full YAML, parent,
  message), hierarchies (their content, not a path), settings (k, Annex D, l/t targets,
  sensitive column, use case);
- every risk computation and every release (input, recipe version, seed, output sha256,
  report), so a past release can be re-run and compared byte for byte;
- the differential-privacy ε/δ ledger, identity mapping tables *encrypted* (never the
  key), and sign-offs (name, role, statement, time);
- an append-only audit log: each entry stores the sha256 of the previous entry and its
  own hash over its content, so an edited, removed or reordered entry is detected by
  :meth:`Workspace.verify_chain`.

Design notes. The file uses WAL mode (readers do not block the writer); every write is one
``BEGIN IMMEDIATE`` transaction, retried while another process holds the write lock, so
two writers never interleave and a writer killed mid-transaction leaves the previous state
(SQLite rolls the unfinished transaction back). ``PRAGMA user_version`` is the schema
version; :data:`MIGRATIONS` lists the steps from one version to the next. A file that is
not SQLite, a SQLite file that is not a workspace, a schema newer than this code and a
read-only file or folder are refused with a clear message before anything is written.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from core.audit_chain import (
    AUDIT_KEY_VAR,
    CHAIN_SETTING,
    GENESIS_HASH,
    KEYED_CHAIN,
    ChainCheck,
    audit_key,
    entry_hash,
)
from core.audit_chain import canonical_json as _canonical
from core.errors import AnonymisationError, SecretError
from core.workspace_schema import MIGRATIONS, SCHEMA_VERSION
from core.workspace_settings import setting_problem

#: Written into the file header (``PRAGMA application_id``) so a workspace is recognisable.
APPLICATION_ID = 0x414E4F4E  # "ANON"
SQLITE_MAGIC = b"SQLite format 3\x00"
ENV_VAR = "ANON_WORKSPACE"
DEFAULT_NAME = "workspace.anon.db"
_BUSY_TIMEOUT_MS = 5_000
_LOCK_RETRIES = 40  # each waits up to the busy timeout: minutes of patience in all

#: Summary fields every audit entry exposes at top level (None when not applicable).
ENTRY_FIELDS = ("data_sha256", "recipe_sha256", "output_sha256", "k", "p_reid")


class WorkspaceError(AnonymisationError):
    """The workspace file cannot be opened or written (not SQLite, too new, read-only...)."""


class OlderSchemaError(WorkspaceError):
    """A workspace opened read-only has an older schema, which only a writer can upgrade."""


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_text(text: str) -> str:
    return sha256_bytes(text.encode("utf-8"))


def sha256_file(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def table_sha256(df: pd.DataFrame) -> str:
    """A fingerprint of a table's content (values, column names and types, row order)."""
    hashed = pd.util.hash_pandas_object(df, index=False).to_numpy().tobytes()
    header = json.dumps([[str(c), str(t)] for c, t in df.dtypes.items()]).encode("utf-8")
    return sha256_bytes(header + b"\n" + hashed)


def default_path() -> Path:
    """``$ANON_WORKSPACE`` if set, else ``workspace.anon.db`` in the working folder."""
    return Path(os.environ.get(ENV_VAR) or DEFAULT_NAME)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class RecipeVersion:
    id: int
    sha256: str
    yaml: str
    parent_id: int | None
    message: str
    author: str
    created_at: str


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


class _Connection(sqlite3.Connection):
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


class Workspace:
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
            "factory": _Connection,
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

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Workspace:
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

    # -- the audit log -------------------------------------------------------------------
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
            created_at = _now()
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

    # -- data sets -----------------------------------------------------------------------
    def add_dataset(
        self,
        df: pd.DataFrame,
        *,
        name: str,
        source_path: str | None = None,
        sha256: str | None = None,
        store_data: bool = False,
        rows: int | None = None,
    ) -> str:
        """Record a data set (its fingerprint, not its rows unless ``store_data``); its sha256.

        ``sha256`` is the file's hash when the table was read from a file (so ``verify``
        can find the file again); otherwise the table's content fingerprint is used.
        ``rows`` is the number of records when ``df`` holds only the columns (a table an
        engine read batch by batch, with ``sha256`` given).
        """
        rows = len(df) if rows is None else rows
        digest = sha256 or table_sha256(df)
        schema = {"columns": [str(c) for c in df.columns], "dtypes": [str(t) for t in df.dtypes]}
        blob = _to_parquet(df) if store_data else None
        with self.transaction() as conn:
            known = conn.execute(
                "SELECT id, data_parquet IS NOT NULL FROM datasets WHERE sha256 = ?", (digest,)
            ).fetchone()
            if known:
                if blob is not None and not known[1]:
                    conn.execute(
                        "UPDATE datasets SET data_parquet = ? WHERE id = ?", (blob, known[0])
                    )
                    self.log("store_data", f"dataset:{digest}", {"data_sha256": digest})
                return digest
            conn.execute(
                "INSERT INTO datasets (name, sha256, schema_json, n_rows, source_path, "
                "data_parquet, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (name, digest, _canonical(schema), rows, source_path, blob, _now()),
            )
            self.log(
                "dataset",
                f"dataset:{digest}",
                {
                    "data_sha256": digest,
                    "name": name,
                    "rows": rows,
                    "columns": len(df.columns),
                    "source_path": source_path,
                    "data_stored": blob is not None,
                },
            )
        return digest

    def datasets(self) -> list[dict[str, Any]]:
        rows = self._query(
            "SELECT id, name, sha256, schema_json, n_rows, source_path, "
            "data_parquet IS NOT NULL AS stored, created_at FROM datasets ORDER BY id"
        )
        return [
            {**dict(r), "schema": stored_json(r["schema_json"], "data set schema")} for r in rows
        ]

    def dataset_table(self, sha256: str) -> pd.DataFrame | None:
        """The stored rows of a data set, or None if only its fingerprint was recorded."""
        row = self._conn.execute(
            "SELECT data_parquet FROM datasets WHERE sha256 = ?", (sha256,)
        ).fetchone()
        if row is None or row[0] is None:
            return None
        return pd.read_parquet(io.BytesIO(row[0]))

    # -- Step 1 roles ----------------------------------------------------------------------
    def set_roles(self, dataset_sha256: str, roles: Mapping[str, str], *, author: str) -> None:
        roles_json = _canonical({str(k): str(v) for k, v in roles.items()})
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO role_sets (dataset_sha256, roles_json, author, created_at) "
                "VALUES (?, ?, ?, ?)",
                (dataset_sha256, roles_json, author, _now()),
            )
            self.log(
                "roles",
                f"dataset:{dataset_sha256}",
                {
                    "data_sha256": dataset_sha256,
                    "roles": stored_json(roles_json, "roles"),
                    "author": author,
                },
            )

    def roles(self, dataset_sha256: str) -> dict[str, str]:
        row = self._conn.execute(
            "SELECT roles_json FROM role_sets WHERE dataset_sha256 = ? ORDER BY id DESC LIMIT 1",
            (dataset_sha256,),
        ).fetchone()
        return stored_json(row[0], "roles") if row else {}

    # -- recipes -------------------------------------------------------------------------
    def add_recipe_version(
        self, yaml_text: str, *, message: str, author: str = "", parent_id: int | None = None
    ) -> RecipeVersion:
        """Record a recipe version (the full YAML); the same YAML as the latest is not repeated.

        ``parent_id`` defaults to the latest version, so versions form a history.
        """
        digest = sha256_text(yaml_text)
        with self.transaction() as conn:
            latest = self.latest_recipe()
            if latest is not None and latest.sha256 == digest:
                return latest
            parent = parent_id if parent_id is not None else (latest.id if latest else None)
            cursor = conn.execute(
                "INSERT INTO recipe_versions (sha256, yaml, parent_id, message, author, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (digest, yaml_text, parent, message, author, _now()),
            )
            version_id = int(cursor.lastrowid)
            self.log(
                "recipe",
                f"recipe:{version_id}",
                {"recipe_sha256": digest, "parent": parent, "message": message, "author": author},
            )
        return self.recipe_version(version_id)

    def recipe_version(self, version_id: int) -> RecipeVersion:
        rows = self._query("SELECT * FROM recipe_versions WHERE id = ?", (version_id,))
        if not rows:
            raise WorkspaceError(f"Recipe version {version_id} is not in workspace '{self.path}'.")
        return _recipe_version(rows[0])

    def latest_recipe(self) -> RecipeVersion | None:
        rows = self._query("SELECT * FROM recipe_versions ORDER BY id DESC LIMIT 1")
        return _recipe_version(rows[0]) if rows else None

    def recipe_versions(self) -> list[RecipeVersion]:
        return [
            _recipe_version(r) for r in self._query("SELECT * FROM recipe_versions ORDER BY id")
        ]

    # -- hierarchies ---------------------------------------------------------------------
    def put_hierarchy(self, name: str, content: str, *, column: str) -> str:
        """Store a hierarchy's text under ``name`` (``hierarchies/<column>-<hash>.csv``, the
        shape core.release.bundle.portable_name makes: a name that could climb out of a folder or
        name a root is refused, since whoever opens the workspace may write it as a file)."""
        from core.release.bundle import is_portable_name

        if not is_portable_name(name):
            raise WorkspaceError(
                f"Hierarchy name {name!r} is not allowed: a workspace keeps hierarchies as "
                "hierarchies/<letters, digits, - or _>.csv (core.release.bundle.portable_name)."
            )
        digest = sha256_text(content)
        with self.transaction() as conn:
            known = conn.execute(
                "SELECT sha256 FROM hierarchies WHERE name = ?", (name,)
            ).fetchone()
            if known:
                if known[0] != digest:
                    raise WorkspaceError(
                        f"A different hierarchy is already stored as '{name}'; use another name."
                    )
                return digest
            conn.execute(
                "INSERT INTO hierarchies (name, column_name, sha256, content, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (name, column, digest, content, _now()),
            )
            self.log("hierarchy", f"hierarchy:{name}", {"column": column, "sha256": digest})
        return digest

    def hierarchies(self) -> dict[str, str]:
        """Every stored hierarchy: name -> content."""
        return self._hierarchy_texts("content")

    def hierarchy_columns(self) -> dict[str, str]:
        """Every stored hierarchy: name -> the column it was made for."""
        return self._hierarchy_texts("column_name")

    def _hierarchy_texts(self, field: str) -> dict[str, str]:
        """name -> ``field`` of every stored hierarchy, both text (SQLite keeps any type in
        any column: a crafted file's bytes would fail whoever reads them)."""
        rows = self._conn.execute(f"SELECT name, {field} FROM hierarchies ORDER BY id")
        found = dict(rows)
        for name, value in found.items():
            if not (isinstance(name, str) and isinstance(value, str)):
                raise WorkspaceError(
                    f"The workspace's hierarchy {name!r} is not text: the file was altered or "
                    "made by another tool. Restore it from a copy."
                )
        return found

    # -- settings ------------------------------------------------------------------------
    def set_setting(self, key: str, value: Any) -> None:
        """Save a threshold or target (k, annex_d, l, t, sensitive, use_case...)."""
        value_json = _canonical(value)
        with self.transaction() as conn:
            old = conn.execute("SELECT value_json FROM settings WHERE key = ?", (key,)).fetchone()
            if old and old[0] == value_json:
                return
            conn.execute(
                "INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, "
                "updated_at = excluded.updated_at",
                (key, value_json, _now()),
            )
            self.log("setting", f"setting:{key}", {"value": value})

    def settings(self) -> dict[str, Any]:
        """Every setting, each of the shape this tool writes (core.workspace_settings)."""
        rows = self._conn.execute("SELECT key, value_json FROM settings ORDER BY key")
        settings = {key: stored_json(value, f"setting {key!r}") for key, value in rows}
        for key, value in settings.items():
            problem = setting_problem(key, value)
            if problem is not None:
                raise WorkspaceError(problem)
        return settings

    # -- risk and releases ---------------------------------------------------------------
    def add_risk(
        self,
        *,
        data_sha256: str,
        quasi_identifiers: Sequence[str],
        k: int | None,
        p_reid: float | None,
        recipe_version_id: int | None = None,
        sensitive: str | None = None,
        l_diversity: float | None = None,
        t_closeness: float | None = None,
        annex_d: Mapping[str, Any] | None = None,
    ) -> int:
        with self.transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO risk_computations (data_sha256, recipe_version_id, "
                "quasi_identifiers_json, sensitive, k, p_reid, l_diversity, t_closeness, "
                "annex_d_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    data_sha256,
                    recipe_version_id,
                    _canonical(list(quasi_identifiers)),
                    sensitive,
                    k,
                    p_reid,
                    l_diversity,
                    t_closeness,
                    _canonical(dict(annex_d)) if annex_d else None,
                    _now(),
                ),
            )
            risk_id = int(cursor.lastrowid)
            self.log(
                "risk",
                f"risk:{risk_id}",
                {
                    "data_sha256": data_sha256,
                    "recipe_version": recipe_version_id,
                    "quasi_identifiers": list(quasi_identifiers),
                    "sensitive": sensitive,
                    "k": k,
                    "p_reid": p_reid,
                    "l": l_diversity,
                    "t": t_closeness,
                    "annex_d": dict(annex_d) if annex_d else None,
                },
            )
        return risk_id

    def add_release(
        self,
        *,
        data_sha256: str,
        recipe_version_id: int,
        seed: int,
        output_sha256: str,
        output_name: str,
        data_path: str | None = None,
        risk_id: int | None = None,
        report: Mapping[str, Any] | None = None,
        mapping_tables: Mapping[tuple[str, str], bytes] | None = None,
        engine: str = "pandas",
        block_rows: int | None = None,
        data_files: Sequence[tuple[str, str]] | None = None,
    ) -> int:
        """Record a release; ``mapping_tables`` maps (column, kind) to *encrypted* bytes.
        ``engine`` made it (core.engines); a streamed release (duckdb, spark) gives the rows
        of its blocks, ``block_rows``, and, when it read several files (a glob, a folder),
        each file's path and sha256 as ``data_files``: a recorded input is files, never a
        pattern to search again."""
        files_json = _canonical([[str(p), str(h)] for p, h in data_files]) if data_files else None
        with self.transaction() as conn:
            recipe = self.recipe_version(recipe_version_id)
            risk = conn.execute(
                "SELECT k, p_reid FROM risk_computations WHERE id = ?", (risk_id,)
            ).fetchone()
            cursor = conn.execute(
                "INSERT INTO releases (data_sha256, data_path, recipe_version_id, seed, "
                "output_sha256, output_name, risk_id, report_json, created_at, engine, "
                "block_rows, data_files_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    data_sha256,
                    data_path,
                    recipe_version_id,
                    seed,
                    output_sha256,
                    output_name,
                    risk_id,
                    _canonical(dict(report)) if report else None,
                    _now(),
                    engine,
                    block_rows,
                    files_json,
                ),
            )
            release_id = int(cursor.lastrowid)
            for (column, kind), blob in (mapping_tables or {}).items():
                self._add_mapping(release_id, column, kind, blob)
            self.log(
                "release",
                f"release:{release_id}",
                {
                    "data_sha256": data_sha256,
                    "recipe_sha256": recipe.sha256,
                    "recipe_version": recipe_version_id,
                    "seed": seed,
                    "output_sha256": output_sha256,
                    "output_name": output_name,
                    "engine": engine,
                    "block_rows": block_rows,
                    "data_path": data_path,
                    "data_files": stored_json(files_json, "release files") if files_json else None,
                    "risk": risk_id,
                    "k": risk[0] if risk else None,
                    "p_reid": risk[1] if risk else None,
                    "mapping_tables": sorted(f"{c} ({k})" for c, k in (mapping_tables or {})),
                },
            )
        return release_id

    def releases(self) -> list[dict[str, Any]]:
        rows = self._query(
            "SELECT r.*, v.sha256 AS recipe_sha256, c.k, c.p_reid, "
            "c.quasi_identifiers_json FROM releases r "
            "JOIN recipe_versions v ON v.id = r.recipe_version_id "
            "LEFT JOIN risk_computations c ON c.id = r.risk_id ORDER BY r.id"
        )
        return [dict(r) for r in rows]

    def risks(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self._query("SELECT * FROM risk_computations ORDER BY id")]

    # -- mapping tables (encrypted) ------------------------------------------------------
    def _add_mapping(self, release_id: int | None, column: str, kind: str, blob: bytes) -> None:
        from core.techniques.pseudonymisation import is_encrypted_table

        if not is_encrypted_table(blob):
            raise WorkspaceError(
                f"The {kind} table of '{column}' must be encrypted (encrypt_table) before it "
                "is stored in a workspace."
            )
        self._conn.execute(
            "INSERT INTO mapping_tables (release_id, column_name, kind, encrypted, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (release_id, column, kind, bytes(blob), _now()),
        )

    def add_mapping_table(
        self, column: str, encrypted: bytes, *, kind: str = "mapping", release_id: int | None = None
    ) -> None:
        """Store an identity mapping table already encrypted with ``encrypt_table``."""
        with self.transaction():
            self._add_mapping(release_id, column, kind, encrypted)
            self.log(
                "mapping_table",
                f"mapping:{column}",
                {
                    "column": column,
                    "kind": kind,
                    "release": release_id,
                    "sha256": sha256_bytes(bytes(encrypted)),
                },
            )

    def mapping_tables(self, release_id: int | None = None) -> list[dict[str, Any]]:
        sql = "SELECT id, release_id, column_name, kind, encrypted, created_at FROM mapping_tables"
        rows = (
            self._query(sql + " WHERE release_id = ? ORDER BY id", (release_id,))
            if release_id is not None
            else self._query(sql + " ORDER BY id")
        )
        return [dict(r) for r in rows]

    # -- the differential-privacy ledger -------------------------------------------------
    def dp_budget_names(self) -> list[str]:
        return [row[0] for row in self._conn.execute("SELECT name FROM dp_budgets ORDER BY name")]

    def dp_budget(self, name: str = "default") -> dict[str, Any] | None:
        """The budget ``name`` with its charges, in the shape of a JSON ledger, or None."""
        row = self._conn.execute(
            "SELECT epsilon, delta FROM dp_budgets WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            return None
        charges = self._query(
            "SELECT query, epsilon, delta, about_json, created_at FROM dp_charges "
            "WHERE budget_name = ? ORDER BY id",
            (name,),
        )
        return {
            "budget": {"epsilon": row[0], "delta": row[1]},
            "charges": [
                {
                    "query": c["query"],
                    "epsilon": c["epsilon"],
                    "delta": c["delta"],
                    "time": c["created_at"],
                    **stored_json(c["about_json"], "DP charge"),
                }
                for c in charges
            ],
        }

    def set_dp_budget(self, epsilon: float, delta: float = 0.0, *, name: str = "default") -> None:
        """Create the budget ``name``; an existing budget cannot change (start another name)."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT epsilon, delta FROM dp_budgets WHERE name = ?", (name,)
            ).fetchone()
            if row is not None:
                if (row[0], row[1]) != (float(epsilon), float(delta)):
                    raise WorkspaceError(
                        f"The privacy budget '{name}' is ε = {row[0]:g}, δ = {row[1]:g}; a "
                        "release's budget cannot change. Start a budget under another name."
                    )
                return
            conn.execute(
                "INSERT INTO dp_budgets (name, epsilon, delta, created_at) VALUES (?, ?, ?, ?)",
                (name, float(epsilon), float(delta), _now()),
            )
            self.log("dp_budget", f"dp:{name}", {"epsilon": epsilon, "delta": delta})

    def add_dp_charges(
        self,
        charges: Sequence[tuple[str, float, float]],
        *,
        name: str = "default",
        about: Mapping[str, Any] | None = None,
    ) -> None:
        """Record queries' (query, ε, δ) against budget ``name`` (refused if over budget)."""
        from core.dp.budget import PrivacyBudget

        about_json = _canonical(dict(about or {}))
        with self.transaction() as conn:
            ledger = self.dp_budget(name)
            if ledger is None:
                raise WorkspaceError(
                    f"No privacy budget '{name}' in this workspace; set one first."
                )
            budget = PrivacyBudget.from_dict(ledger)
            for query, epsilon, delta in charges:
                budget.charge(query, epsilon, delta)  # raises BudgetExceededError
            for query, epsilon, delta in charges:
                conn.execute(
                    "INSERT INTO dp_charges (budget_name, query, epsilon, delta, about_json, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (name, query, float(epsilon), float(delta), about_json, _now()),
                )
            self.log(
                "dp_release",
                f"dp:{name}",
                {
                    "queries": [q for q, _, _ in charges],
                    "epsilon": sum(e for _, e, _ in charges),
                    "spent_epsilon": budget.spent_epsilon,
                    **dict(about or {}),
                },
            )

    # -- sign-offs -----------------------------------------------------------------------
    def sign_off(
        self, *, name: str, role: str, statement: str, release_id: int | None = None
    ) -> int:
        """Record that ``name`` (``role``) signs ``statement`` (about a release, if given)."""
        for label, value in (("name", name), ("role", role), ("statement", statement)):
            if not str(value).strip():
                raise WorkspaceError(f"A sign-off needs a {label}.")
        with self.transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO signoffs (name, role, statement, release_id, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (name, role, statement, release_id, _now()),
            )
            signoff_id = int(cursor.lastrowid)
            self.log(
                "signoff",
                f"signoff:{signoff_id}",
                {"name": name, "role": role, "statement": statement, "release": release_id},
            )
        return signoff_id

    def signoffs(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self._query("SELECT * FROM signoffs ORDER BY id")]


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


def _recipe_version(row: sqlite3.Row) -> RecipeVersion:
    return RecipeVersion(
        row["id"],
        row["sha256"],
        row["yaml"],
        row["parent_id"],
        row["message"],
        row["author"],
        row["created_at"],
    )


def _to_parquet(df: pd.DataFrame) -> bytes:
    plain = df.copy()
    plain.attrs = {}
    plain.columns = [str(c) for c in plain.columns]
    buffer = io.BytesIO()
    plain.to_parquet(buffer, index=False, engine="pyarrow", compression="zstd")
    return buffer.getvalue()


def open_workspace(path: str | os.PathLike[str] | None = None) -> Workspace:
    """Open (creating if new) the workspace at ``path``, default :func:`default_path`."""
    return Workspace(path if path is not None else default_path())
