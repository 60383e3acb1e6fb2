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

Inside a page, a step that may fail on the user's choices sits in ``with stop_on_error():``
(the message, then nothing more of the page: what follows needs the step's result) or
``with continue_on_error():`` (the message, then the rest of the page). Both show the same
escaped message as :func:`friendly_errors`: messages name columns and values from the data.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from core.errors import AnonymisationError
from core.markup import escape_markdown

_LOGGER = logging.getLogger(__name__)


def generic_message(error: BaseException) -> str:
    """The text shown for an unexpected error: its type only, never its message or paths."""
    return (
        f"Something went wrong on this page: {type(error).__name__}. Your data is unchanged "
        "(the original table is never modified); try again, or undo the last step."
    )


#: A file-system path of two folders or more: POSIX ('/tmp/x/age.csv', not '1/k' or
#: 'groups / records') or Windows ('C:\\Users\\x\\age.csv').
_PATH = re.compile(
    r"(?<![\w.~/])~?/(?:[^\s'\"/]+/)+(?P<posix>[^\s'\"/]+)"
    r"|\b[A-Za-z]:\\(?:[^\s'\"\\]+\\)+(?P<windows>[^\s'\"\\]+)"
)


def without_paths(text: str) -> str:
    """``text`` with each file-system path cut to its file's name: a message from a step
    that read a file (a hierarchy, a population table) names the server's folders
    ("... is not in hierarchy '/tmp/.../age-463f35372e.csv'", issue 30), which no one with
    the browser open needs to see."""
    return _PATH.sub(lambda m: m.group("posix") or m.group("windows"), text)


def error_text(error: BaseException) -> str:
    """A refusal's one-line message as shown: paths cut to file names, escaped."""
    return escape_markdown(without_paths(str(error)))


def show_error(error: BaseException, where: DeltaGenerator | None = None) -> None:
    """Show the library's one-line message in an error box (in ``where``, else the page).

    The message is escaped: it names columns and values from the user's data, which must not
    turn into Markdown, HTML or Streamlit colours (issue 11, item 8); a path in it is cut
    to its file's name (:func:`without_paths`).
    """
    (st if where is None else where).error(error_text(error), icon=":material/error:")


@contextmanager
def stop_on_error() -> Iterator[None]:
    """Run a block; if the library refuses it, show why and stop the page there (st.stop)."""
    try:
        yield
    except AnonymisationError as error:
        show_error(error)
        st.stop()


@contextmanager
def continue_on_error(where: DeltaGenerator | None = None) -> Iterator[None]:
    """Run a block; if the library refuses it, show why (in ``where``, else the page) and
    go on after the block."""
    try:
        yield
    except AnonymisationError as error:
        show_error(error, where)


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
        show_error(error)
    except Exception as error:
        if _show_details():
            raise
        _LOGGER.exception("A dashboard page failed")  # the server's log, not the browser
        st.error(generic_message(error), icon=":material/error:")
