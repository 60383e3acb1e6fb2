"""ui.state.loading.column_profile: the Data page's column profile is computed once per
table, not on every rerun of the page (0.2 s at 1M rows); the page's own formatting of it
never reaches the next rerun."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st
from streamlit.testing.v1 import AppTest

import ui.state.loading

ROOT = Path(__file__).resolve().parents[2]


def test_profiled_once_and_the_same_on_every_rerun(tmp_path, monkeypatch):
    monkeypatch.setenv("ANON_WORKSPACE", str(tmp_path / "test.anon.db"))
    path = tmp_path / "people.csv"
    # by hand: age 3 distinct of 4 (0.75), mean 36.5; town 2 distinct of 4 (0.5)
    pd.DataFrame({"age": [25, 54, 42, 25], "town": ["Bedok", "Bedok", "Yishun", "Yishun"]}).to_csv(
        path, index=False
    )
    monkeypatch.setenv("ANON_DATA", str(path))
    calls = []
    real_profile = ui.state.loading.profile

    def recorded(df, *args, **kwargs):
        calls.append(df.shape)
        return real_profile(df, *args, **kwargs)

    monkeypatch.setattr(ui.state.loading, "profile", recorded)
    st.cache_resource.clear()
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    app.run()
    assert not app.exception, app.exception
    shown = app.dataframe[1].value.set_index("column")  # the preview, then the profile
    assert shown.loc["age", "distinct"] == 3 and shown.loc["age", "uniqueness"] == 0.75
    assert shown.loc["age", "mean"] == "36.5"  # formatted by the page (fmt_number)
    assert shown.loc["town", "uniqueness"] == 0.5
    app.run()  # a rerun: the same profile, not formatted twice, not computed again
    assert not app.exception, app.exception
    again = app.dataframe[1].value.set_index("column")
    pd.testing.assert_frame_equal(again, shown)
    assert calls == [(4, 2)]
    st.cache_resource.clear()


def test_a_large_tables_profile_comes_on_the_run_after_its_preview(tmp_path, monkeypatch):
    # Issue 31: from loading.PROFILE_LATER_ROWS records (100,000; 3 here, so that the table
    # stays small), the first run sends the preview alone and the profile comes on the
    # rerun the browser asks for; a rerun never waits twice for the same table.
    monkeypatch.setenv("ANON_WORKSPACE", str(tmp_path / "test.anon.db"))
    monkeypatch.setattr(ui.state.loading, "PROFILE_LATER_ROWS", 3)
    path = tmp_path / "people.csv"
    # by hand: age 3 distinct of 4 (0.75); town 2 distinct of 4 (0.5)
    pd.DataFrame({"age": [25, 54, 42, 25], "town": ["Bedok", "Bedok", "Yishun", "Yishun"]}).to_csv(
        path, index=False
    )
    monkeypatch.setenv("ANON_DATA", str(path))
    st.cache_resource.clear()
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    app.run()
    assert not app.exception, app.exception
    assert len(app.dataframe) == 1  # the preview only
    assert len(app.dataframe[0].value) == 4
    assert any("Profiling the 2 columns of 4 records" in c.value for c in app.caption)
    app.run()  # what the browser's timer asks for
    assert not app.exception, app.exception
    shown = app.dataframe[1].value.set_index("column")
    assert shown.loc["age", "uniqueness"] == 0.75 and shown.loc["town", "uniqueness"] == 0.5
    assert not any("Profiling the" in c.value for c in app.caption)
    app.run()
    assert len(app.dataframe) == 2
    st.cache_resource.clear()
