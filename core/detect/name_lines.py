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
line: "ishaan kapoor, +91 ..."). A whole place ("boon lay", "bukit timah") is not a name,
and :func:`names_a_person` asks more of the words than one sure name: lower-case dishes and
phrases of Malay, Hokkien or Spanish stand alone on a line too ("kencing manis", "yong
tau foo", "dolor de cabeza").

A line of one to four lower-case words and nothing else (a cell of a given-name or
next-of-kin column, a name on its own line of a note) is read by :func:`lone_lower_names`
even when its name is not sure in lower case: a sure given name alone ("priyanka"), or a
given name of the world list first, before words no list and no dictionary holds
("tendai mutasa": African, Thai and Pacific surnames are in none of the lists).
"""

from __future__ import annotations

import re

from core.detect.lexicon import NameLists
from core.detect.place_names import place_names

__all__ = [
    "LONE_LOWER_LINE",
    "alone_on_line",
    "lone_lower_names",
    "names_a_person",
    "names_a_place",
    "trim_everyday_ends",
]

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


# Particles that join a person's own name to a parent's: "siti binte osman", "muthu s/o
# raman", "jimmy anak ujang" (not "de", "da", "van": "dolor de cabeza" is a headache).
_PATRONYMIC = frozenset(
    {"bin", "binte", "binti", "bte", "bt", "s/o", "d/o", "w/o", "a/l", "a/p", "anak"}
)
# Given names shorter than this are syllables of other languages too ("com tam", "sin").
_GIVEN_LETTERS = 4


def names_a_person(words: list[str], particles: list[str], lists: NameLists) -> bool:
    """Whether lower-case ``words`` (with ``particles`` between them) alone on a line
    name a person, not a dish or a phrase of another language whose words the census
    surname lists also hold ("kencing manis", "masala dosa", "teh halia"). One word must
    be a sure name (``lists.strong_lower``), and

    - a patronymic particle joins the words ("siti binte osman", "jimmy anak ujang"); or
    - two different words are names of the lists (no everyday English word unless the
      hand-written list names it: "tan", "ah"), one of them a given name ("tan ah kow",
      "vivaan handa"); or
    - a sure given name of 4 letters or more stands with a surname no list has
      ("gilberto vercelloni"), or first, before surnames that are also English words
      ("sean walls", "marie berry"; not "roti john", a dish).

    Hyphenated words count by their parts ("wei-ming")."""
    parts = {part for word in words for part in word.split("-")}
    if not any(part in lists.strong_lower for part in parts):
        return False
    if any(particle in _PATRONYMIC for particle in particles):
        return True
    names = {
        part
        for part in parts
        if part in lists.listed or (part in lists.known and part not in lists.english)
    }
    if len(names) >= 2 and any(part in lists.given for part in names):
        return True

    def sure_given(part: str) -> bool:
        return len(part) >= _GIVEN_LETTERS and part in lists.given and part in lists.strong_lower

    if len(parts) < 2 or not any(sure_given(part) for part in parts):
        return False
    if not any(part in lists.english for part in parts):
        return True
    return sure_given(words[0].split("-")[0]) and all(
        part in lists.known for word in words[1:] for part in word.split("-")
    )


def names_a_place(piece: str) -> bool:
    """Whether the lower-case ``piece`` is, whole, a town or area of the gazetteer."""
    return " ".join(piece.split()) in place_names()


# A line of one to four lower-case ASCII words alone (RE2 and Python syntax: the scanner
# asks RE2 which texts hold one, inside a case-insensitive hint).
LONE_LOWER_LINE = r"(?m-i:^[ \t]*[a-z][a-z'’-]{1,24}(?:[ \t]+[a-z][a-z'’-]{1,24}){0,3}[ \t]*$)"
_LONE_LOWER_LINE = re.compile(LONE_LOWER_LINE)


def _no_word(word: str, lists: NameLists) -> bool:
    """Whether a lower-case ``word`` is an everyday or function word of some language the
    lists hold, a name that is also such a word ("tikka", a dish) or a word never in a
    name ("street", "clinic")."""
    return (
        word in lists.english
        or word in lists.function_words
        or word in lists.ambiguous
        or word in lists.not_name
    )


def lone_lower_names(text: str, lists: NameLists) -> list[tuple[int, int]]:
    """The lines of ``text`` that are a lower-case name and nothing else (module doc):

    - one word, a sure given name (``lists.strong_lower``, a given name: "priyanka"; not a
      surname alone, as "gracias" or "haka" are census surnames);
    - two to four words, the first a given name of 4 letters or more (the world list's
      too: "tendai"), each other word a name or a word of 3 letters or more no list and no
      dictionary holds, none an everyday or function word, and the whole no place."""
    found = []
    for match in _LONE_LOWER_LINE.finditer(text):
        words = match.group().split()
        parts = [part for word in words for part in word.split("-") if part]
        if not parts or any(_no_word(part, lists) for part in parts):
            continue
        first = words[0].split("-")[0]
        if len(words) == 1:
            if not (first in lists.strong_lower and first in lists.given):
                continue
        elif not (
            len(first) >= _GIVEN_LETTERS
            and first in lists.given
            and all(part in lists.known or len(part) >= 3 for part in parts)
        ):
            continue
        start = match.start() + len(match.group()) - len(match.group().lstrip())
        end = match.start() + len(match.group().rstrip())
        if not names_a_place(text[start:end]):
            found.append((start, end))
    return found


def trim_everyday_ends(
    text: str, stretch: list[tuple[int, int, str]], lists: NameLists
) -> list[tuple[int, int, str]]:
    """A lower-case run's ``stretch`` ((start, end, kind) of its words) without the words
    at its ends that are everyday English words the census lists also hold as rare
    surnames ("fought over lunch" after "hina tariq"); [] when none was set aside."""
    first, last = 0, len(stretch)

    def everyday(item: tuple[int, int, str]) -> bool:
        return item[2] == "known" and text[item[0] : item[1]] in lists.english

    while first < last and everyday(stretch[first]):
        first += 1
    while last > first and everyday(stretch[last - 1]):
        last -= 1
    return stretch[first:last] if 0 < last - first < len(stretch) else []
