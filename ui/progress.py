"""The dashboard's drawing of long work: an ``st.progress`` bar fed by core.progress, and a
spinner that says what is being computed (issue 29: every computation of a second or more
says what it does, never a blank or greyed page)."""

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


@contextmanager
def working(text: str) -> Iterator[None]:
    """A spinner with ``text`` (what is being computed, e.g. "Scanning 50,000 cells of
    free text...") while the block runs; the text may hold column names (data): escaped
    as in :func:`progress_bar`."""
    with st.spinner(escape_markdown(terminal_line(text))):
        yield
