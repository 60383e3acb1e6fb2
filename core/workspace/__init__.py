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

The package, by concern: :mod:`~core.workspace.store` (the connection, its errors and
transactions), :mod:`~core.workspace.schema` (the SQLite schema and its migrations),
:mod:`~core.workspace.opening` (opening a file: :class:`Workspace`),
:mod:`~core.workspace.audit` (the hash-chained log), :mod:`~core.workspace.inputs` (data
sets, roles, recipes, hierarchies), :mod:`~core.workspace.settings` (settings and their
shapes), :mod:`~core.workspace.runs` (risk, releases, mapping tables, the DP ledger,
sign-offs) and :mod:`~core.workspace.fingerprints` (sha256 of bytes, text, files, tables).
This ``__init__`` re-exports the public names so ``from core.workspace import Workspace``
keeps working; modules of the project import from the module that defines a name.
"""

from core.audit_chain import GENESIS_HASH
from core.workspace.audit import ENTRY_FIELDS
from core.workspace.fingerprints import sha256_bytes, sha256_file, sha256_text, table_sha256
from core.workspace.inputs import RecipeVersion
from core.workspace.opening import (
    APPLICATION_ID,
    DEFAULT_NAME,
    ENV_VAR,
    SQLITE_MAGIC,
    Workspace,
    default_path,
    open_workspace,
)
from core.workspace.schema import MIGRATIONS, SCHEMA_VERSION
from core.workspace.settings import SHAPES, setting_problem
from core.workspace.store import OlderSchemaError, WorkspaceError, stored_json

__all__ = [
    "APPLICATION_ID",
    "DEFAULT_NAME",
    "ENTRY_FIELDS",
    "ENV_VAR",
    "GENESIS_HASH",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "SHAPES",
    "SQLITE_MAGIC",
    "OlderSchemaError",
    "RecipeVersion",
    "Workspace",
    "WorkspaceError",
    "default_path",
    "open_workspace",
    "setting_problem",
    "sha256_bytes",
    "sha256_file",
    "sha256_text",
    "stored_json",
    "table_sha256",
]
