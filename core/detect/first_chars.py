"""A look-ahead on the first character of a match, so Python's engine skips the other places.

Most expressions of the free-text scan start with a look-behind (``(?<![\\w@.+/-])``) or a
long list of words: Python's engine then has no first character to look for and tries the
whole expression at every place of a note. :func:`gated` puts in front of an expression a
look-ahead on the characters a match of it can start with (read from the parsed
expression), which the engine checks in one step (issue 26: the scan of long notes about a
quarter faster). The look-ahead admits every character a match can start with, so the
matches are the same; where the parsed expression holds anything this module does not
read (a class like ``\\w``, a back-reference, a group that may be empty...), or where
nearly any letter may start a match (nothing to gain), the expression is left as it is.
"""

from __future__ import annotations

import re
import string
from functools import cache

# Python's own expression parser (3.11+): a private module, so a Python that moves it
# leaves every expression as it is (the same matches, only slower), never a failed import.
try:
    from re import _constants as sre
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover - depends on the Python version
    sre = sre_parse = None

__all__ = ["gated"]

# More distinct lower-case letters than this in the look-ahead: most words start with
# one of them, and the extra check costs more than it spares.
_MOST_LETTERS = 19


# Parts that take no character: a look-ahead, a look-behind, an anchor (^, $, \\b).
_ZERO_WIDTH = () if sre is None else (sre.ASSERT, sre.ASSERT_NOT, sre.AT)


def _first(items, folded_case: bool) -> tuple[set[str], set[str]] | None:
    """(characters matched as written, characters matched in either case) that a match
    of the parsed ``items`` can start with; None when unknown or possibly empty."""
    plain: set[str] = set()
    either: set[str] = set()
    for op, value in items:
        into = either if folded_case else plain
        if op is sre.LITERAL:
            into.add(chr(value))
            return plain, either
        if op is sre.IN:
            for item_op, item in value:
                if item_op is sre.LITERAL:
                    into.add(chr(item))
                elif item_op is sre.RANGE and item[1] - item[0] <= 512:
                    into.update(map(chr, range(item[0], item[1] + 1)))
                else:  # a negated class, \w, \d...: any character may come
                    return None
            return plain, either
        if op is sre.BRANCH:
            takes_none = False  # an alternative of look-arounds only ("(?<=on )|(?<=seen )")
            for alternative in value[1]:
                if all(item_op in _ZERO_WIDTH for item_op, _ in alternative.data):
                    takes_none = True
                    continue
                found = _first(alternative.data, folded_case)
                if found is None:
                    return None
                plain |= found[0]
                either |= found[1]
            if takes_none:
                continue  # that alternative takes no character: what follows may start
            return plain, either
        if op is sre.SUBPATTERN:
            _, added, removed, inner = value
            if (added | removed) & ~sre.SRE_FLAG_IGNORECASE:
                return None
            # (?i:...) reads its letters in either case; (?-i:...) in an expression read
            # in either case is kept with the rest (a wider look-ahead is still right).
            found = _first(inner.data, folded_case or bool(added & sre.SRE_FLAG_IGNORECASE))
            if found is None:
                return None
            plain |= found[0]
            either |= found[1]
            return plain, either
        if op is sre.MAX_REPEAT or op is sre.MIN_REPEAT:
            least, _, inner = value
            found = _first(inner.data, folded_case)
            if found is None:
                return None
            plain |= found[0]
            either |= found[1]
            if least > 0:
                return plain, either
            continue  # may be absent: what follows may start the match
        if op is sre.ASSERT or op is sre.ASSERT_NOT:
            continue  # a look-around takes no character
        return None
    return None  # the whole sequence may match nothing


def _class(chars: set[str]) -> str:
    return "[" + "".join(re.escape(c) for c in sorted(chars)) + "]"


@cache
def gated(regex: re.Pattern[str]) -> re.Pattern[str]:
    """``regex`` with a look-ahead on its first character in front (same matches, same
    groups), or ``regex`` itself when its first characters are unknown or too many."""
    if sre_parse is None:
        return regex
    found = _first(sre_parse.parse(regex.pattern, regex.flags).data, False)
    if found is None:
        return regex
    plain, either = found
    if regex.flags & re.IGNORECASE:
        either, plain = either | plain, set()
    letters = {c.lower() for c in either} | plain
    if len(letters & set(string.ascii_lowercase)) > _MOST_LETTERS:
        return regex
    parts = ([_class(plain)] if plain else []) + ([f"(?i:{_class(either)})"] if either else [])
    return re.compile(f"(?={'|'.join(parts)})" + regex.pattern, regex.flags)
