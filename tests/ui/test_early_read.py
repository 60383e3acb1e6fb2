"""ui.state.early_read: $ANON_DATA read on a thread while app.py imports the library
(issue 31), handed once to the page's read, its errors raised as the page's read raises
them, and dropped when the workspace reopens a project instead."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import core.io
import ui.state.early_read as early_read
import ui.state.loading
from core.errors import DataReadError
from core.io import read_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_process(monkeypatch):
    """As in a new server process: no read started yet."""
    monkeypatch.setattr(early_read, "_started", set())
    monkeypatch.setattr(early_read, "_reads", {})
    monkeypatch.setattr(early_read, "_digests", {})


def people_csv(folder: Path) -> Path:
    path = folder / "people.csv"
    pd.DataFrame({"age": [30, 41, 52], "town": ["Bedok", "Jurong", "Yishun"]}).to_csv(
        path, index=False
    )
    return path


def test_the_table_read_early_is_the_pages_table_handed_over_once(
    tmp_path, monkeypatch, fresh_process
):
    path = people_csv(tmp_path)
    monkeypatch.setenv("ANON_DATA", str(path))
    early_read.start_reading_startup_table()
    early = early_read.take(str(path))
    pd.testing.assert_frame_equal(early, read_table(path))
    assert early_read.take(str(path)) is None  # once: the page's cache holds it from then
    early_read.start_reading_startup_table()  # a second session of the same server
    assert early_read.take(str(path)) is None  # ...starts no second read


def test_a_file_that_cannot_be_read_raises_the_pages_message(tmp_path, monkeypatch, fresh_process):
    missing = tmp_path / "nowhere.csv"
    monkeypatch.setenv("ANON_DATA", str(missing))
    early_read.start_reading_startup_table()
    with pytest.raises(DataReadError) as early:
        early_read.take(str(missing))
    with pytest.raises(DataReadError) as direct:
        read_table(missing)
    assert str(early.value) == str(direct.value)


def test_the_files_fingerprint_is_hashed_beside_the_read_once(tmp_path, monkeypatch, fresh_process):
    path = people_csv(tmp_path)
    monkeypatch.setenv("ANON_DATA", str(path))
    early_read.start_reading_startup_table()
    by_hand = hashlib.sha256(path.read_bytes()).hexdigest()  # not core.workspace's code
    assert early_read.take_digest(str(path)) == by_hand
    assert early_read.take_digest(str(path)) is None  # once


def test_the_page_records_the_fingerprint_hashed_early(tmp_path, monkeypatch, fresh_process):
    path = people_csv(tmp_path)
    monkeypatch.setenv("ANON_DATA", str(path))
    monkeypatch.setenv("ANON_WORKSPACE", str(tmp_path / "test.anon.db"))
    hashed_on_the_page = []
    real_hash = ui.state.loading.sha256_file

    def recorded(*args, **kwargs):
        hashed_on_the_page.append(args)
        return real_hash(*args, **kwargs)

    monkeypatch.setattr(ui.state.loading, "sha256_file", recorded)
    st.cache_resource.clear()
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    app.run()
    assert not app.exception, app.exception
    assert app.session_state["data_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert hashed_on_the_page == []  # the early thread's digest was used
    st.cache_resource.clear()


def test_forgotten_when_not_needed(tmp_path, monkeypatch, fresh_process):
    path = people_csv(tmp_path)
    monkeypatch.setenv("ANON_DATA", str(path))
    early_read.start_reading_startup_table()
    early_read.forget(str(path))
    assert early_read.take(str(path)) is None  # nothing held
    assert early_read.take_digest(str(path)) is None


def test_the_dashboard_opens_anon_data_read_once(tmp_path, monkeypatch, fresh_process):
    path = people_csv(tmp_path)
    monkeypatch.setenv("ANON_DATA", str(path))
    monkeypatch.setenv("ANON_WORKSPACE", str(tmp_path / "test.anon.db"))
    reads = []
    real_read = core.io.read_table

    def counted(*args, **kwargs):
        reads.append(threading.current_thread().name)
        return real_read(*args, **kwargs)

    monkeypatch.setattr(core.io, "read_table", counted)  # the thread's read
    monkeypatch.setattr("ui.state.loading.read_table", counted)  # the page's own
    st.cache_resource.clear()
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    app.run()
    assert not app.exception, app.exception
    assert app.session_state["original"]["town"].tolist() == ["Bedok", "Jurong", "Yishun"]
    assert reads == ["early-read"]  # read once, on the thread started before the imports
    assert early_read.take(str(path)) is None  # taken by the page, not held twice
    st.cache_resource.clear()


def test_a_restart_on_the_recorded_file_reads_it_once(tmp_path, monkeypatch, fresh_process):
    # The workspace's project is $ANON_DATA's file, recorded without its rows (keep rows
    # off): on a restart the early read is the one read of it.
    from core.workspace import Workspace, sha256_file

    path = people_csv(tmp_path)
    workspace = tmp_path / "test.anon.db"
    sha = sha256_file(path)
    with Workspace(workspace) as ws:
        ws.add_dataset(read_table(path), name=path.name, source_path=str(path), sha256=sha)
        ws.set_setting("current_data", {"sha256": sha, "name": path.name, "source_path": str(path)})
    monkeypatch.setenv("ANON_DATA", str(path))
    monkeypatch.setenv("ANON_WORKSPACE", str(workspace))
    reads = []
    real_read = core.io.read_table

    def counted(*args, **kwargs):
        reads.append(threading.current_thread().name)
        return real_read(*args, **kwargs)

    monkeypatch.setattr(core.io, "read_table", counted)
    monkeypatch.setattr("ui.state.loading.read_table", counted)
    monkeypatch.setattr("ui.state.following.read_table", counted)
    st.cache_resource.clear()
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    app.run()
    assert not app.exception, app.exception
    assert app.session_state["original"]["town"].tolist() == ["Bedok", "Jurong", "Yishun"]
    assert app.session_state["data_sha256"] == sha  # reopened from the workspace
    assert reads == ["early-read"]
    st.cache_resource.clear()
