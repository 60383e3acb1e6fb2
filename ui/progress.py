"""The dashboard's drawing of core.progress: an ``st.progress`` bar for long work."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from core.markup import escape_markdown, terminal_line
from core.progress import ProgressFn


@contextmanager
def progress_bar(text: str) -> Iterator[ProgressFn]:
    """An ``st.progress`` element fed by a :data:`core.progress.ProgressFn`, removed when
    the work is done (or failed). Messages may hold column names (data): Streamlit reads
    the text as Markdown, so it is escaped, after :func:`core.markup.terminal_line` shows
    invisible characters (controls, bidirectional overrides) as escapes, as the CLI does."""
    bar = st.progress(0.0, text=escape_markdown(terminal_line(text)))

    def report(fraction: float, message: str) -> None:
        bar.progress(min(max(fraction, 0.0), 1.0), text=escape_markdown(terminal_line(message)))

    try:
        yield report
    finally:
        bar.empty()
