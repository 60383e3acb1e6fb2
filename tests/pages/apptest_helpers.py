"""Shared helpers for the dashboard's AppTest tests (one place, as STYLE.md asks)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Dataframe

ROOT = Path(__file__).resolve().parents[2]


def open_app(page: str | None = None) -> AppTest:
    """The dashboard after its first run (default sample loaded), optionally on ``page``."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    if page is not None:
        at.switch_page(page).run()
        assert not at.exception, at.exception
    return at


def open_sample(
    sample: str, indirect: list[str], page: str, session: dict | None = None
) -> AppTest:
    """The dashboard with a sample_data table loaded, ``indirect`` marked as indirect
    identifiers (the Step 1 roles), further ``session`` state set, on ``page``."""
    from core.schema import Role

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    at.switch_page("pages/1_data.py").run()
    at.selectbox(key="sample").set_value(sample)
    at.button(key="load_sample").click().run()
    at.session_state["roles"] = {c: Role.INDIRECT for c in indirect}
    for key, value in (session or {}).items():
        at.session_state[key] = value
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    """The value of the metric labelled ``label`` (fails naming the labels shown)."""
    values = [m.value for m in at.metric if m.label == label]
    assert values, f"no metric {label!r} among {[m.label for m in at.metric]}"
    return values[0]


def shown(frame: Dataframe) -> pd.DataFrame:
    """The text a user reads in ``st.dataframe`` cells: a Styler's display values when the
    page formats its figures (ui.tables.figures), else the values themselves as text.
    (``frame.value`` holds the numbers underneath, which the grid sorts on.)"""
    display = frame.proto.arrow_data.styler.display_values
    if not display:
        return frame.value.astype(str)
    return pa.ipc.open_stream(display).read_pandas()
