"""core.workspace: the SQLite project file, its hash-chained audit log, bad files, concurrency."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pandas as pd
import pytest

from core.dp import BudgetExceededError
from core.techniques.pseudonymisation import decrypt_table, encrypt_table
from core.workspace import (
    GENESIS_HASH,
    SCHEMA_VERSION,
    Workspace,
    WorkspaceError,
    default_path,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ws_path(tmp_path: Path) -> Path:
    return tmp_path / "project.anon.db"


def _raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def test_new_workspace_is_wal_with_schema_version(ws_path: Path) -> None:
    Workspace(ws_path).close()
    with _raw(ws_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_audit_chain_links_each_entry_to_the_previous_hash(ws_path: Path) -> None:
    with Workspace(ws_path) as ws:
        ws.log("first", "x", {"k": 5})
        ws.log("second", "y", {"p_reid": 0.2})
        entries = ws.audit_entries()
        check = ws.verify_chain()
    assert check.ok and check.entries == 2
    assert entries[0]["k"] == 5 and entries[1]["p_reid"] == 0.2
    # Independent recomputation of the documented hash: sha256 over the canonical JSON list
    # [id, time, action, object, summary JSON, previous hash].
    with _raw(ws_path) as conn:
        rows = conn.execute("SELECT * FROM audit_log ORDER BY id").fetchall()
    assert rows[0][5] == GENESIS_HASH and rows[1][5] == rows[0][6]
    first = rows[0]
    payload = json.dumps(
        [first[0], first[1], first[2], first[3], first[4], first[5]],
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    assert hashlib.sha256(payload.encode()).hexdigest() == first[6]


def test_audit_log_is_append_only(ws_path: Path) -> None:
    with Workspace(ws_path) as ws:
        ws.log("a", "x")
    with _raw(ws_path) as conn, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE audit_log SET action = 'b'")
    with _raw(ws_path) as conn, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM audit_log")


@pytest.mark.parametrize(
    "tamper, bad_id",
    [
        ("UPDATE audit_log SET summary_json = '{\"k\":50}' WHERE id = 2", 2),
        ("DELETE FROM audit_log WHERE id = 2", 3),
        ("UPDATE audit_log SET created_at = '2020-01-01' WHERE id = 3", 3),
    ],
)
def test_tampering_is_detected_at_the_first_bad_entry(
    ws_path: Path, tamper: str, bad_id: int
) -> None:
    with Workspace(ws_path) as ws:
        for n in range(4):
            ws.log("step", f"object:{n}", {"k": n})
    with _raw(ws_path) as conn:  # an attacker with the file can drop the guards...
        conn.execute("DROP TRIGGER audit_log_no_update")
        conn.execute("DROP TRIGGER audit_log_no_delete")
        conn.execute(tamper)
    with Workspace(ws_path) as ws:  # ...but not hide the change
        check = ws.verify_chain()
    assert not check.ok and check.first_bad_id == bad_id
    assert f"entry {bad_id}" in check.explanation()


def test_records_persist_across_reopen(ws_path: Path) -> None:
    df = pd.DataFrame({"age": [31, 45], "zip": ["01234", "05678"]})
    with Workspace(ws_path) as ws:
        sha = ws.add_dataset(df, name="people.csv", source_path="/data/people.csv", store_data=True)
        ws.set_roles(sha, {"age": "quasi", "zip": "quasi"}, author="Ann")
        v1 = ws.add_recipe_version("steps: []\n", message="empty", author="Ann")
        v2 = ws.add_recipe_version("steps:\n- {step: remove, columns: [zip]}\n", message="rm")
        same = ws.add_recipe_version("steps:\n- {step: remove, columns: [zip]}\n", message="x")
        ws.put_hierarchy("hierarchies/age-abc.csv", "31;30-39;*\n45;40-49;*\n", column="age")
        ws.set_setting("k", 5)
        ws.set_setting("annex_d", {"controls": "high", "motivation": "low"})
        ws.sign_off(name="Bo", role="DPO", statement="Reviewed the release.")
    with Workspace(ws_path) as ws:
        [dataset] = ws.datasets()
        assert dataset["n_rows"] == 2 and dataset["schema"]["columns"] == ["age", "zip"]
        pd.testing.assert_frame_equal(ws.dataset_table(sha), df)  # leading zeros kept
        assert ws.roles(sha) == {"age": "quasi", "zip": "quasi"}
        assert same.id == v2.id and v2.parent_id == v1.id
        assert [v.message for v in ws.recipe_versions()] == ["empty", "rm"]
        assert ws.hierarchies() == {"hierarchies/age-abc.csv": "31;30-39;*\n45;40-49;*\n"}
        assert ws.settings() == {"annex_d": {"controls": "high", "motivation": "low"}, "k": 5}
        assert ws.signoffs()[0]["role"] == "DPO"
        actions = [e["action"] for e in ws.audit_entries()]
        assert actions == [
            "dataset",
            "roles",
            "recipe",
            "recipe",
            "hierarchy",
            "setting",
            "setting",
            "signoff",
        ]
        assert ws.verify_chain().ok


def test_dataset_rows_are_not_stored_unless_asked(ws_path: Path) -> None:
    with Workspace(ws_path) as ws:
        sha = ws.add_dataset(pd.DataFrame({"a": ["secret-value"]}), name="t.csv")
        assert ws.dataset_table(sha) is None
    assert b"secret-value" not in ws_path.read_bytes()


def test_mapping_tables_are_stored_encrypted_only(ws_path: Path) -> None:
    mapping = pd.DataFrame({"original": ["S1234567D"], "pseudonym": ["P001"]})
    blob = encrypt_table(mapping, "correct horse battery staple")
    with Workspace(ws_path) as ws:
        with pytest.raises(WorkspaceError, match="must be encrypted"):
            ws.add_mapping_table("nric", mapping.to_csv().encode())
        ws.add_mapping_table("nric", blob)
        [stored] = ws.mapping_tables()
    pd.testing.assert_frame_equal(
        decrypt_table(stored["encrypted"], "correct horse battery staple"), mapping
    )
    raw = ws_path.read_bytes() + (
        Path(f"{ws_path}-wal").read_bytes() if Path(f"{ws_path}-wal").exists() else b""
    )
    assert b"S1234567D" not in raw and b"correct horse" not in raw


def test_dp_ledger_persists_and_refuses_overspending(ws_path: Path) -> None:
    with Workspace(ws_path) as ws:
        ws.set_dp_budget(1.0)
        ws.add_dp_charges([("count by town", 0.6, 0.0)], about={"out": "a.csv"})
    with Workspace(ws_path) as ws:
        with pytest.raises(BudgetExceededError):
            ws.add_dp_charges([("mean income", 0.5, 0.0)])
        ledger = ws.dp_budget()
        with pytest.raises(WorkspaceError, match="cannot change"):
            ws.set_dp_budget(2.0)
    assert ledger["budget"] == {"epsilon": 1.0, "delta": 0.0}
    assert [c["query"] for c in ledger["charges"]] == ["count by town"]  # the refused one is not


def test_failed_write_changes_nothing(ws_path: Path) -> None:
    with Workspace(ws_path) as ws:
        ws.log("kept", "x")
        with pytest.raises(RuntimeError), ws.transaction():
            ws.log("lost", "y")
            ws.set_setting("k", 11)
            raise RuntimeError("interrupted")
        assert [e["action"] for e in ws.audit_entries()] == ["kept"]
        assert ws.settings() == {}


def test_revision_moves_with_every_change_seen_by_another_connection(ws_path: Path) -> None:
    with Workspace(ws_path) as reader, Workspace(ws_path) as writer:
        assert reader.revision() == 0  # nothing logged yet
        writer.set_setting("k", 5)
        assert reader.revision() == 1  # one audit entry: the setting
        writer.set_setting("k", 5)  # the same value is not a change: nothing logged
        assert reader.revision() == 1
        writer.add_recipe_version("steps: []\n", message="empty")
        writer.set_setting("current_recipe", 1)
        assert reader.revision() == 3


def test_opening_to_read_does_not_wait_for_another_writer(ws_path: Path) -> None:
    Workspace(ws_path).close()
    opened: list[int] = []

    def read() -> None:
        with Workspace(ws_path) as ws:
            opened.append(ws.revision())

    with Workspace(ws_path) as writer, writer.transaction():  # a long write holds the lock
        writer.set_setting("k", 7)
        reader = threading.Thread(target=read)
        reader.start()
        reader.join(timeout=3)  # waiting for the lock would take the 5 s busy timeout
        assert opened == [0]  # it read the last committed state, without the pending write
    with Workspace(ws_path) as ws:
        assert ws.revision() == 1


# --- bad files ---------------------------------------------------------------------------


def test_a_file_that_is_not_sqlite_is_refused_and_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "notes.anon.db"
    path.write_text("name,age\nAnn,31\n")
    with pytest.raises(WorkspaceError, match="not an SQLite database"):
        Workspace(path)
    assert path.read_text() == "name,age\nAnn,31\n"


def test_a_foreign_sqlite_database_is_refused_and_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with _raw(path) as conn:
        conn.execute("CREATE TABLE patients (name TEXT)")
    before = path.read_bytes()
    with pytest.raises(WorkspaceError, match="not a workspace"):
        Workspace(path)
    assert path.read_bytes() == before


def test_a_newer_schema_is_refused_and_unchanged(ws_path: Path) -> None:
    with Workspace(ws_path) as ws:
        ws.log("a", "x")
    with _raw(ws_path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = ws_path.read_bytes()
    with pytest.raises(WorkspaceError, match=f"schema version {SCHEMA_VERSION + 1}, newer"):
        Workspace(ws_path)
    assert ws_path.read_bytes() == before


def test_a_read_only_file_is_refused(ws_path: Path) -> None:
    Workspace(ws_path).close()
    ws_path.chmod(0o444)
    before = ws_path.read_bytes()
    try:
        with pytest.raises(WorkspaceError, match="read-only"):
            Workspace(ws_path)
    finally:
        ws_path.chmod(0o644)
    assert ws_path.read_bytes() == before


def test_a_read_only_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(WorkspaceError, match="read-only"):
            Workspace(folder / "w.anon.db")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_a_folder_is_not_a_workspace(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="is a folder"):
        Workspace(tmp_path)


def test_default_path_follows_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ANON_WORKSPACE", raising=False)
    assert default_path() == Path("workspace.anon.db")
    monkeypatch.setenv("ANON_WORKSPACE", str(tmp_path / "mine.anon.db"))
    assert default_path() == tmp_path / "mine.anon.db"


# --- concurrency and crashes -------------------------------------------------------------

_WRITER = textwrap.dedent(
    """
    import sys
    from core.workspace import Workspace
    path, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with Workspace(path) as ws:
        for n in range(count):
            with ws.transaction():
                ws.log("write", f"{name}:{n}", {"writer": name, "n": n})
                ws.set_setting(f"last_{name}", n)
    """
)


def _python(code: str, *args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", code, *args], env=env, **kwargs)


def test_two_processes_writing_in_parallel_lose_nothing(ws_path: Path) -> None:
    Workspace(ws_path).close()
    count = 150
    writers = [_python(_WRITER, str(ws_path), name, str(count)) for name in ("a", "b")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    with Workspace(ws_path) as ws:
        entries = ws.audit_entries()
        check = ws.verify_chain()
        settings = ws.settings()
    writes = [e["object"] for e in entries if e["action"] == "write"]
    assert sorted(writes) == sorted(f"{w}:{n}" for w in "ab" for n in range(count))
    assert check.ok and check.entries == len(entries)
    assert settings == {"last_a": count - 1, "last_b": count - 1}


_KILLED = textwrap.dedent(
    """
    import sys, time
    from core.workspace import Workspace
    ws = Workspace(sys.argv[1])
    with ws.transaction():
        for n in range(200):
            ws.log("half-done", f"x:{n}")
        ws.set_setting("k", 99)
        print("inside", flush=True)
        time.sleep(60)
    """
)


def test_a_writer_killed_mid_transaction_leaves_the_previous_state(ws_path: Path) -> None:
    with Workspace(ws_path) as ws:
        ws.log("before", "x")
        ws.set_setting("k", 5)
    writer = _python(_KILLED, str(ws_path), stdout=subprocess.PIPE, text=True)
    assert writer.stdout.readline().strip() == "inside"
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    with Workspace(ws_path) as ws:
        assert [e["action"] for e in ws.audit_entries()] == ["before", "setting"]
        assert ws.settings() == {"k": 5}
        assert ws.verify_chain().ok
        ws.log("after", "y")  # the lock was released: the next writer carries on
        assert ws.verify_chain().ok and ws.verify_chain().entries == 3


def test_a_workspace_of_schema_1_opens_with_its_releases_made_in_memory(
    ws_path: Path, monkeypatch
) -> None:
    """Schema 2 records the engine of a release: a file of schema 1 (releases made before
    there were engines) is brought up to date, its releases read as made by pandas, and
    its audit chain still holds."""
    import core.workspace.opening as workspace_module

    with monkeypatch.context() as old:
        old.setattr(workspace_module, "MIGRATIONS", workspace_module.MIGRATIONS[:1])
        old.setattr(workspace_module, "SCHEMA_VERSION", 1)
        with Workspace(ws_path) as ws:
            version = ws.add_recipe_version("steps: []\n", message="empty")
            ws._conn.execute(  # what schema 1's add_release wrote
                "INSERT INTO releases (data_sha256, recipe_version_id, seed, output_sha256, "
                "output_name, created_at) VALUES ('d', ?, 7, 'o', 'out.csv', 'now')",
                (version.id,),
            )
    with _raw(ws_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    with Workspace(ws_path) as ws:
        (release,) = ws.releases()
        assert (release["engine"], release["block_rows"]) == ("pandas", None)
        assert ws.verify_chain().ok
    with _raw(ws_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


# --- A damaged or altered workspace, read (issue 27, found by tests/core/test_fuzz_readers.py)


@pytest.mark.parametrize(
    ("alteration", "read"),
    [
        # text that is not UTF-8: sqlite3's OperationalError ('Could not decode'), raised
        # when the row is fetched, after execute
        (
            "UPDATE audit_log SET created_at = CAST(X'80323032' AS TEXT) WHERE id = 1",
            lambda ws: ws.verify_chain(),
        ),
        # a summary that is not JSON: json.loads raised its own error (a NULL: TypeError)
        ("UPDATE audit_log SET summary_json = '{oops' WHERE id = 1", lambda ws: ws.audit_entries()),
        ("UPDATE settings SET value_json = '{not json' ", lambda ws: ws.settings()),
    ],
)
def test_a_damaged_workspace_is_one_workspace_error_when_read(tmp_path, alteration, read):
    path = tmp_path / "w.anon.db"
    with Workspace(path) as ws:
        ws.set_setting("current_recipe", 1)
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TRIGGER IF EXISTS audit_log_no_update")
        conn.execute(alteration)
    with Workspace(path) as ws, pytest.raises(WorkspaceError) as error:
        read(ws)
    assert "damaged" in str(error.value) and "\n" not in str(error.value)


def test_the_recipe_of_a_data_set_is_the_last_one_in_force_with_it(ws_path: Path) -> None:
    """A data set opened again gets back the recipe version last current with it (issue
    29): A with v1 then v2, B with v3, back to A later finds v2, B finds v3, C none."""
    with Workspace(ws_path) as ws:
        assert ws.recipe_of_data_set("a" * 64) is None
        for data, recipes in (("a", ["steps: []\n", "steps: [1]\n"]), ("b", ["steps: [2]\n"])):
            ws.set_setting("current_data", {"sha256": data * 64, "name": data, "source_path": None})
            for text in recipes:
                ws.set_setting("current_recipe", ws.add_recipe_version(text, message="m").id)
        assert ws.recipe_of_data_set("a" * 64).yaml == "steps: [1]\n"
        assert ws.recipe_of_data_set("b" * 64).yaml == "steps: [2]\n"
        assert ws.recipe_of_data_set("c" * 64) is None
