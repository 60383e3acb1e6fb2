"""The ASCII form of an expression, for texts written in ASCII alone (a faster scan).

Python's engine compares letters faster under ``re.ASCII`` than under full Unicode,
above all in expressions read in either case (``re.IGNORECASE``: the date, record-code
and cue-word expressions of the free-text scan run a quarter to a third faster). On a
*plain* text (:data:`NOT_PLAIN` finds none of its characters: ASCII without the four
information separators ``\\x1c``-``\\x1f``), an expression matches exactly what its ASCII
form matches, when the expression holds none of the four letters beyond ASCII that Python
folds to an ASCII letter (``İ``, ``ı``, ``ſ``, Kelvin ``K``) except in a class that also
holds that ASCII letter:

* ``\\w``, ``\\d``, ``\\b`` and their negations read an ASCII character alike in both
  forms; ``\\s`` differs on ASCII only at ``\\x1c``-``\\x1f``, which plain texts lack;
* in either case, a letter of the expression matches the same ASCII characters in both
  forms, but for the four letters above, which under Unicode also match ``i``/``I``,
  ``s``/``S``, ``k``/``K`` (the Python ``re`` documentation names these four; every other
  letter beyond ASCII folds to no ASCII letter: checked by the tests over every code point).

:func:`ascii_form` reads the parsed expression and gives its ASCII form, or None when
it cannot show the two the same (a rare letter, a negated class holding one, an inline
flag it does not read).
"""

from __future__ import annotations

import re
from functools import cache

# Python's own expression parser (as core.detect.first_chars reads it): a Python that
# moves it gets no ASCII form (the same matches, only slower), never a failed import.
try:
    from re import _constants as sre
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover - depends on the Python version
    sre = sre_parse = None

__all__ = ["NOT_PLAIN", "ascii_form"]

#: A character that makes a text not plain (RE2 and Python syntax alike).
NOT_PLAIN = r"[^\x00-\x1b\x20-\x7f]"
# The letters beyond ASCII that Python's engine folds to an ASCII letter, in either case.
_FOLDS_TO_ASCII = {0x130: "i", 0x131: "i", 0x17F: "s", 0x212A: "k"}


def _class_safe(items) -> bool:
    """A character class whose letters beyond ASCII fold to an ASCII letter only when the
    class holds that letter too (so the ASCII form matches the same ASCII characters)."""
    negated = any(op is sre.NEGATE for op, _ in items)
    holds: set[str] = set()
    folding: set[str] = set()
    for op, value in items:
        if op is sre.LITERAL:
            holds.add(chr(value).lower() if value < 128 else "")
            if value in _FOLDS_TO_ASCII:
                folding.add(_FOLDS_TO_ASCII[value])
        elif op is sre.RANGE:
            low, high = value
            holds.update(chr(c).lower() for c in range(low, min(high, 127) + 1))
            folding.update(
                letter for code, letter in _FOLDS_TO_ASCII.items() if low <= code <= high
            )
        elif op not in (sre.NEGATE, sre.CATEGORY):
            return False
    if negated:
        return not folding
    return folding <= holds


def _safe(items) -> bool:
    """Whether every part of the parsed ``items`` matches alike in both forms on plain
    texts (see the module doc); anything not read here is taken as unsafe."""
    for op, value in items:
        if op in (sre.LITERAL, sre.NOT_LITERAL):
            if value in _FOLDS_TO_ASCII:
                return False
        elif op is sre.IN:
            if not _class_safe(value):
                return False
        elif op is sre.BRANCH:
            if not all(_safe(branch.data) for branch in value[1]):
                return False
        elif op is sre.SUBPATTERN:
            if not _safe(value[3].data):
                return False
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            if not _safe(value[2].data):
                return False
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            if not _safe(value[1].data):
                return False
        elif op is sre.ATOMIC_GROUP:
            if not _safe(value.data):
                return False
        elif op is sre.GROUPREF_EXISTS:
            if not all(part is None or _safe(part.data) for part in value[1:]):
                return False
        elif op not in (sre.ANY, sre.AT, sre.CATEGORY, sre.GROUPREF):
            return False
    return True


@cache
def ascii_form(regex: re.Pattern[str]) -> re.Pattern[str] | None:
    """``regex`` compiled with ``re.ASCII``: the same matches, groups and spans on every
    plain text (no character of :data:`NOT_PLAIN`); None when that cannot be shown, or
    for an expression not read in either case as a whole (its ASCII form is not faster
    enough to pay for reading the plain texts apart)."""
    if sre_parse is None or not isinstance(regex.pattern, str):
        return None
    if not regex.flags & re.IGNORECASE:
        return None  # measured: no faster on the scan's other expressions
    try:
        if not _safe(sre_parse.parse(regex.pattern, regex.flags).data):
            return None
        return re.compile(regex.pattern, (regex.flags & ~re.UNICODE) | re.ASCII)
    except (re.error, ValueError, AttributeError):  # an inline (?u), a parser that moved
        return None
