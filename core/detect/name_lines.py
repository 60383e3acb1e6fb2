"""A line that holds a name and nothing else (issue 26): the cell of a next-of-kin, contact
or signatory column written in lower case ("tan ah kow", "priya ramasamy (wife)",
"father - siti binte osman").

In running lower-case text a name needs a cue ("wife priya") or two sure names side by
side ("lim boon huat"): lower-case words are also everyday words of many languages. A
line that is *only* a short run of name-like words says more: nothing around it is a
sentence. :mod:`core.detect.names` reads such a run as a name when one of its words is a
sure name (a name of the lists that is no everyday word); this module says when a run
stands alone on its line: at the start of the line (or of a sentence), or after a note of one or two words and a
separator ("father - ", "nok: "), and at the line's end, or before a separator and a note
of one to three words ("(father)", ", wife", "/ son in law") or before a comma (a contact
line: "ishaan kapoor, +91 ..."). A whole place ("boon lay", "bukit timah") is not a name.
"""

from __future__ import annotations

import re

from core.detect.place_names import place_names

__all__ = ["alone_on_line", "names_a_place"]

_NOTE = r"[A-Za-z]+(?:[ -][A-Za-z]+){0,2}"
# What may stand before the run: the start of a line or a sentence, then nothing or a
# short note and a separator.
_BEFORE = re.compile(r"(?:^|[.!?;/\n\"“])[ \t]*(?:[A-Za-z]+(?: [A-Za-z]+)?[ \t]*[-–:/][ \t]*)?$")
# What may follow it: the end of the line, a comma (a contact line), or a separator or a
# bracket and a short note ending the line.
_AFTER = re.compile(
    rf"[ \t]*(?:,|[\r\n]|$|(?:[-–:/;][ \t]*\(?|\()[ \t]*{_NOTE}[ \t]*\)?\.?[ \t]*(?:[\r\n]|$))"
)
# How far back the start of the line is looked for (a note of two words and a separator).
_REACH = 40


def alone_on_line(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands alone on its line (see the module doc)."""
    return bool(_BEFORE.search(text, max(0, start - _REACH), start) and _AFTER.match(text, end))


def names_a_place(piece: str) -> bool:
    """Whether the lower-case ``piece`` is, whole, a town or area of the gazetteer."""
    return " ".join(piece.split()) in place_names()
