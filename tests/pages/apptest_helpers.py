"""Shared helpers for the dashboard's AppTest tests (one place, as STYLE.md asks)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def open_app(page: str | None = None) -> AppTest:
    """The dashboard after its first run (default sample loaded), optionally on ``page``."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    if page is not None:
        at.switch_page(page).run()
        assert not at.exception, at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    """The value of the metric labelled ``label`` (fails naming the labels shown)."""
    values = [m.value for m in at.metric if m.label == label]
    assert values, f"no metric {label!r} among {[m.label for m in at.metric]}"
    return values[0]
