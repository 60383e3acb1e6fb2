"""Short error messages instead of tracebacks on the dashboard's pages.

A traceback shows the server's paths and sometimes values from the data; a privacy tool
should show neither to whoever has the browser open. :func:`friendly_errors` wraps a page
(app.py wraps every page and the sidebar with it): a mistake the library explains
(:class:`core.errors.AnonymisationError`) is shown as its own one-line message, anything
else as a short generic message naming only the kind of error. The full traceback goes to
the server's log. ``.streamlit/config.toml`` sets ``client.showErrorDetails = "type"`` for
whatever escapes (an error in app.py itself).

Developers who want Streamlit's own traceback box run the app with
``--client.showErrorDetails=full`` (the page tests do the same, so a crash still fails them).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from core.errors import AnonymisationError
from core.markup import escape_markdown

_LOGGER = logging.getLogger(__name__)


def generic_message(error: BaseException) -> str:
    """The text shown for an unexpected error: its type only, never its message or paths."""
    return (
        f"Something went wrong on this page: {type(error).__name__}. Your data is unchanged "
        "(the original table is never modified); try again, or undo the last step."
    )


def _show_details() -> bool:
    """True when the operator asked for full error details (development, tests)."""
    return str(st.get_option("client.showErrorDetails")) == "full"


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Run a page body; turn its errors into a short message (see the module docstring).

    Streamlit's own control flow (st.stop, st.rerun, st.switch_page) derives from
    BaseException, not Exception, so it passes through untouched.
    """
    try:
        yield
    except AnonymisationError as error:
        if _show_details():
            raise
        st.error(escape_markdown(error), icon=":material/error:")
    except Exception as error:
        if _show_details():
            raise
        _LOGGER.exception("A dashboard page failed")  # the server's log, not the browser
        st.error(generic_message(error), icon=":material/error:")
