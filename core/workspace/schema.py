"""The workspace's SQLite schema (core.workspace), as the steps that make a file current.

``PRAGMA user_version`` is a file's schema version; ``MIGRATIONS[i]`` takes a file from
version i to version i + 1, so an older workspace is upgraded when it is next opened to
write. The audit log's triggers refuse UPDATE and DELETE (a user of SQLite can still drop
them: the hash chain and its anchors, core.audit_check, are what show a change).
"""

from __future__ import annotations

#: Schema migrations: MIGRATIONS[i] takes a file from version i to version i + 1.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE datasets (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        sha256 TEXT NOT NULL UNIQUE,
        schema_json TEXT NOT NULL,
        n_rows INTEGER NOT NULL,
        source_path TEXT,
        data_parquet BLOB,
        created_at TEXT NOT NULL
    );
    CREATE TABLE role_sets (
        id INTEGER PRIMARY KEY,
        dataset_sha256 TEXT NOT NULL,
        roles_json TEXT NOT NULL,
        author TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE recipe_versions (
        id INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL,
        yaml TEXT NOT NULL,
        parent_id INTEGER REFERENCES recipe_versions(id),
        message TEXT NOT NULL,
        author TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE hierarchies (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        column_name TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE risk_computations (
        id INTEGER PRIMARY KEY,
        data_sha256 TEXT NOT NULL,
        recipe_version_id INTEGER REFERENCES recipe_versions(id),
        quasi_identifiers_json TEXT NOT NULL,
        sensitive TEXT,
        k INTEGER,
        p_reid REAL,
        l_diversity REAL,
        t_closeness REAL,
        annex_d_json TEXT,
        created_at TEXT NOT NULL
    );
    CREATE TABLE releases (
        id INTEGER PRIMARY KEY,
        data_sha256 TEXT NOT NULL,
        data_path TEXT,
        recipe_version_id INTEGER NOT NULL REFERENCES recipe_versions(id),
        seed INTEGER NOT NULL,
        output_sha256 TEXT NOT NULL,
        output_name TEXT NOT NULL,
        risk_id INTEGER REFERENCES risk_computations(id),
        report_json TEXT,
        created_at TEXT NOT NULL
    );
    CREATE TABLE dp_budgets (
        name TEXT PRIMARY KEY,
        epsilon REAL NOT NULL,
        delta REAL NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE dp_charges (
        id INTEGER PRIMARY KEY,
        budget_name TEXT NOT NULL REFERENCES dp_budgets(name),
        query TEXT NOT NULL,
        epsilon REAL NOT NULL,
        delta REAL NOT NULL,
        about_json TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE mapping_tables (
        id INTEGER PRIMARY KEY,
        release_id INTEGER REFERENCES releases(id),
        column_name TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('mapping', 'linking')),
        encrypted BLOB NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE signoffs (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT NOT NULL,
        statement TEXT NOT NULL,
        release_id INTEGER REFERENCES releases(id),
        created_at TEXT NOT NULL
    );
    CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at TEXT NOT NULL,
        action TEXT NOT NULL,
        object TEXT NOT NULL,
        summary_json TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
    );
    CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
    CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
    """,
    # 2: which engine made a release, and the rows of its blocks when it was streamed (seeded
    # steps draw per block), so that verify makes it again the same way.
    """
    ALTER TABLE releases ADD COLUMN engine TEXT NOT NULL DEFAULT 'pandas';
    ALTER TABLE releases ADD COLUMN block_rows INTEGER;
    """,
    # 3: the files a release was made from, each with its sha256, when it read several (a
    # glob or folder given to an engine): verify reads exactly those, never a pattern.
    """
    ALTER TABLE releases ADD COLUMN data_files_json TEXT;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
