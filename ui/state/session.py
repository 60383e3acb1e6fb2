"""The session's own state: the loaded original table, its recipe history, and the
names of the session-state keys several parts of the package share.

The lowest module of :mod:`ui.state`: everything else reads the session through it.
Streamlit caching and session state live in this package only (shared/STYLE.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from core.recipe import EditHistory, Recipe

#: The project folder (recipes name hierarchy files and samples relative to it).
ROOT = Path(__file__).resolve().parents[2]


def session() -> Any:
    """This browser session's state (``st.session_state``): read only through this package."""
    return st.session_state


def has_data() -> bool:
    return session().get("original") is not None


def original() -> pd.DataFrame:
    return session()["original"]


def source_name() -> str:
    return session().get("source_name", "")


def data_set_id() -> str:
    """Which data set is loaded: its fingerprint (else its name), e.g. for widget keys."""
    return str(session().get("data_sha256") or source_name())


# Not "sensitive" / "k_target": those are the keys of the Classify page's widgets, and
# Streamlit drops a widget's value from the session when another page is shown.
SENSITIVE_KEY = "sensitive_column"
# The recipe's not_quasi_identifiers, reviewed_text and targets (core.release.gate).
DECISIONS_KEY = "release_decisions"
REVIEWS_KEY = "text_reviews"
TARGETS_KEY = "release_targets"
# The Report's sign-off fields as typed (also the workspace setting's name).
SIGN_OFF_KEY = "sign_off"
K_TARGET_KEY = "k_target_value"
# Explore trade-offs' hierarchy choices (also the workspace setting's name).
HIERARCHY_CHOICES_KEY = "tradeoff_hierarchies"
# Whether the workspace keeps the data set's rows (the setting is "keep_rows").
KEEP_ROWS_KEY = "keep_rows_in_workspace"


def history() -> EditHistory:
    """The recipe's versions in this session (undo, redo)."""
    return session()["history"]


def recipe() -> Recipe:
    """The recipe in force."""
    return history().current
