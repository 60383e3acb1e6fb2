"""What a project starts from, as a workspace keeps it: data sets (name, sha256, schema, row
count, where read from; the rows only if asked, as compressed Parquet), Step 1 roles (who,
when), recipe versions (full YAML, parent, message) and hierarchies (their content, not a
path). Each change logs an audit entry (:mod:`core.workspace.audit`).
"""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from core.audit_chain import canonical_json as _canonical
from core.workspace.audit import AuditLog
from core.workspace.fingerprints import sha256_text, table_sha256
from core.workspace.store import WorkspaceError, now, stored_json


@dataclass(frozen=True)
class RecipeVersion:
    """One recorded version of the recipe (its full YAML and where it came from)."""

    id: int
    sha256: str
    yaml: str
    parent_id: int | None
    message: str
    author: str
    created_at: str


class WorkspaceInputs(AuditLog):
    """Data sets, roles, recipe versions and hierarchies of an open workspace."""

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
                (name, digest, _canonical(schema), rows, source_path, blob, now()),
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
                (dataset_sha256, roles_json, author, now()),
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
                (digest, yaml_text, parent, message, author, now()),
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

    def recipe_of_data_set(self, dataset_sha256: str) -> RecipeVersion | None:
        """The recipe version last in force with the data set ``dataset_sha256`` (None if it
        never had one), read from the audit log: each change of the current data set, then
        of the current recipe, is an entry, so the same file opened again gets its recipe
        back (issue 29), in workspaces made before this too."""
        rows = self._conn.execute(
            "SELECT object, summary_json FROM audit_log WHERE action = 'setting' AND object IN "
            "('setting:current_data', 'setting:current_recipe') ORDER BY id"
        )
        data, found = None, None
        for obj, summary_json in rows:
            summary = stored_json(summary_json, "audit entry")
            value = summary.get("value") if isinstance(summary, dict) else None
            if obj == "setting:current_data":
                data = value.get("sha256") if isinstance(value, dict) else None
            elif data == dataset_sha256 and isinstance(value, int) and not isinstance(value, bool):
                found = value
        return self.recipe_version(found) if found is not None else None

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
                (name, column, digest, content, now()),
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
