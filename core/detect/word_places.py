"""Where a word is written alone in a text, found by string search (no expression per word).

:mod:`core.detect.names` reads every word of a name found again wherever the text writes
it. One expression compiled for each such word cost about a tenth of a millisecond for
each name word of new notes, and each took a place in Python's cache of 512 compiled
expressions, which drops the oldest when full (libphonenumber's among them).
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["written_alone"]


def _glued(char: str, also: str) -> bool:
    """A word character (as ``\\w`` reads it: letters, digits of any script, "_") or one
    of ``also``."""
    return char.isalnum() or char == "_" or char in also


def written_alone(text: str, word: str) -> Iterator[int]:
    """Where ``word`` is written in ``text`` not glued to a word character, "@", or a
    ".", "'", "’" or "-" before it (an "@" or "-" after it), left to right, each after
    the last: the places of the expression ``(?<![\\w@.'’-])WORD(?![\\w@-])``."""
    at, size = text.find(word), len(word)
    while at >= 0:
        after = at + size
        if (at and _glued(text[at - 1], "@.'’-")) or (
            after < len(text) and _glued(text[after], "@-")
        ):
            at = text.find(word, at + 1)
        else:
            yield at
            at = text.find(word, after)
