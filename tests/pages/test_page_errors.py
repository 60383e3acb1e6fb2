"""A failing page shows a short message, never a traceback with server paths (issue 11)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pandas as pd
import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from core.recipe import EditHistory, Recipe

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
SHIPPED = CONFIG.get("client", {}).get("showErrorDetails", "full")  # Streamlit default: full


@pytest.fixture
def shipped_error_details():
    """The error-detail setting the dashboard ships with, instead of the tests' "full"."""
    config.set_option("client.showErrorDetails", SHIPPED)
    yield


def test_shipped_setting_hides_tracebacks_and_messages():
    # Streamlit 1.67 shows the stack trace for "full", "stacktrace" and the legacy false.
    assert SHIPPED in ("type", "none")


def everything_shown(at: AppTest) -> str:
    parts = [e.value for e in (*at.error, *at.warning, *at.markdown, *at.caption, *at.info)]
    parts += [str(e.value) for e in at.exception]
    return "\n".join(parts)


def open_with(**session) -> AppTest:
    """The dashboard's first run (through app.py) with ``session`` already in its state."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    table = pd.DataFrame({"age": [31, 42, 53], "sex": ["F", "M", "F"]})
    defaults = {
        "original": table,
        "source_name": "t.csv",
        "pseudonym_secret": 1,
        "history": EditHistory(Recipe(seed=1)),
    }
    for key, value in {**defaults, **session}.items():
        at.session_state[key] = value
    at.run()
    return at


def test_unexpected_error_shows_a_short_generic_message(shipped_error_details):
    at = open_with(history="not an edit history")  # every replay fails with AttributeError
    assert not at.exception
    expected = "Something went wrong on this page: AttributeError. Your data is unchanged"
    assert any(e.value.startswith(expected) for e in at.error), [e.value for e in at.error]
    shown = everything_shown(at)
    assert "Traceback" not in shown and str(ROOT) not in shown and ".py" not in shown
    assert "current" not in shown  # not even the exception's own message


def test_library_error_shows_its_own_one_line_message(shipped_error_details):
    step = {"step": "generalise", "column": "income", "width": 10}
    at = open_with(history=EditHistory(Recipe(steps=(step,), seed=1)))
    assert not at.exception
    assert any("Step 1 (generalise)" in e.value and "income" in e.value for e in at.error)
    shown = everything_shown(at)
    assert "Traceback" not in shown and str(ROOT) not in shown


def test_with_full_details_the_error_still_reaches_streamlit():
    # What the other page tests rely on: with "full", a crash is not hidden from them.
    at = open_with(history="not an edit history")
    assert at.exception
