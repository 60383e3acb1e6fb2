"""What a project did, as a workspace keeps it: every risk computation and every release
(input, recipe version, seed, output sha256, report), so a past release can be re-run and
compared byte for byte; identity mapping tables *encrypted* (never the key); the
differential-privacy ε/δ ledger; and sign-offs (name, role, statement, time). PDPC guide,
Step 5 (record the process and its controls). Each change logs an audit entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.audit_chain import canonical_json as _canonical
from core.workspace.fingerprints import sha256_bytes
from core.workspace.inputs import WorkspaceInputs
from core.workspace.store import WorkspaceError, now, stored_json


class WorkspaceRuns(WorkspaceInputs):
    """Risk computations, releases, mapping tables, the DP ledger and sign-offs of an open
    workspace (a release names a recipe version: :class:`WorkspaceInputs`)."""

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
                    now(),
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
                    now(),
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
            (release_id, column, kind, bytes(blob), now()),
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
                (name, float(epsilon), float(delta), now()),
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
                    (name, query, float(epsilon), float(delta), about_json, now()),
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
                (name, role, statement, release_id, now()),
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
