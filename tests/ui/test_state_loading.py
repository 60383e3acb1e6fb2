"""ui.state.loading: the table of $ANON_DATA is read once per server and held for every
session, each session getting a table of its own (issue 31: st.cache_data pickled the whole
table into its cache and unpickled a copy for each session)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st
from streamlit.testing.v1 import AppTest

import core.io
import ui.state.loading

ROOT = Path(__file__).resolve().parents[2]


def test_anon_data_is_read_once_and_each_session_has_its_own_table(tmp_path, monkeypatch):
    monkeypatch.setenv("ANON_WORKSPACE", str(tmp_path / "test.anon.db"))
    path = tmp_path / "people.csv"
    pd.DataFrame({"age": [30, 41, 52], "town": ["Bedok", "Jurong", "Yishun"]}).to_csv(
        path, index=False
    )
    monkeypatch.setenv("ANON_DATA", str(path))
    reads = []
    real_read = ui.state.loading.read_table

    def counted(*args, **kwargs):
        reads.append(args)
        return real_read(*args, **kwargs)

    monkeypatch.setattr(ui.state.loading, "read_table", counted)
    monkeypatch.setattr(core.io, "read_table", counted)  # the early read (ui.state.early_read)
    st.cache_resource.clear()
    first = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    first.run()
    assert not first.exception, first.exception
    mine = first.session_state["original"]
    mine.loc[0, "age"] = 99  # one session changes its table in place
    second = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    second.run()
    assert not second.exception, second.exception
    assert second.session_state["original"]["age"].tolist() == [30, 41, 52]
    assert len(reads) == 1  # the second session did not read the file again
    st.cache_resource.clear()
