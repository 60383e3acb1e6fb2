"""One exception hierarchy for the whole library.

Every error a user can cause (a bad file, a missing column, a parameter out of range,
a malformed recipe) is an :class:`AnonymisationError`. Its message says *what* is wrong
(naming the file, column, row or parameter) and *how to fix it*, so the command line and
the dashboard can show it as is, without a traceback.
"""

from __future__ import annotations

import re

# Line breaks of every kind: an error is shown as one line.
_BREAK = re.compile(r"[\r\n\x85\u2028\u2029]")


def _one_line(text: str) -> str:
    """``text`` with each line break shown as its Python escape (``\\n``): a name from
    the data that holds one stays recognisable and cannot start a second line."""
    return _BREAK.sub(lambda found: found.group().encode("unicode_escape").decode(), text)


def parser_message(error: BaseException) -> str:
    """A parser's error text (YAML, pandas, pyarrow, zipfile) to quote in ours: its lines
    joined by spaces (they are layout, not data)."""
    return " ".join(str(error).split())


class AnonymisationError(Exception):
    """Base class of every user-facing error raised by ``core``; its text is one line
    (a parser's text quoted in it goes through :func:`parser_message` first)."""

    def __str__(self) -> str:
        return _one_line(super().__str__())


class DataReadError(AnonymisationError):
    """A file could not be read as a table (empty, undecodable, wrong delimiter...)."""


class ColumnNotFoundError(AnonymisationError, KeyError):
    """A column named by the user does not exist in the table."""

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return _one_line(str(self.args[0])) if self.args else ""


class ParameterError(AnonymisationError, ValueError):
    """A parameter is missing, of the wrong type, or out of range."""


class RecipeError(AnonymisationError):
    """A recipe file is malformed or one of its steps failed."""


class SecretError(AnonymisationError):
    """A pseudonymisation key or salt is missing or unusable."""


class ReleaseRefusedError(AnonymisationError):
    """The release gate (core.release.gate) found the table unsafe to call anonymised."""


class AnonymisationWarning(UserWarning):
    """A result is valid but deserves the user's attention (e.g. a small aggregate cell)."""
