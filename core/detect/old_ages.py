"""Ages over 89 written in free text (HIPAA §164.514(b)(2)(i)(C)).

Safe Harbor lets an age stay only under 90: "all ages over 89 ... aggregated into a single
category of age 90 or older". An age column is top-coded by :mod:`core.safe_harbor`; this
expression finds the same ages inside notes, so the redaction writes the one category
(``[AGE 90+]``) in their place. Ages under 90 are not identifiers and are not matched.

A number of 90-119 is read as an age only with a cue that says it is one, because most
such numbers in notes are not (doses "90 mg", "BP 95/60", "room 91", "90%", "1990"):

- a word before it: "aged 92", "age: 97", "at the age of 99", "turned 90", "turns 91";
- a word after it: "95 years old", "94-year-old", "96 yrs old", "101 years of age",
  "94yo", "94 y/o", "94 y.o.";
- sex after it in brackets: "(95F)", "(93 M)", "(95/F)";
- "this year" after it with a comma or "is"/"will be" before: "Hajah Zaiton, 91 this year";
- a kinship word before it in brackets: "(father, 93)", "(grandmother 97)";
- a person's name just before it (:func:`ages_after_names`, run on the names found):
  "Mrs Agnes Wong, 96, at her flat", "Mr Peter Hall 92 - fall", "Ms Villanueva (99)".

After a word before it, a unit says it is not an age ("aged 90 days", "turned 90
degrees", "age 95%"). Only the number is reported (the ``value`` group), so the cue words
stay and the sentence still reads: "a [AGE 90+]-year-old man".
"""

from __future__ import annotations

import re

__all__ = ["OLD_AGE", "OLD_AGE_LOOSER", "ages_after_names"]

# 90 to 119, not glued to other digits or to a decimal point ("1,95", "0.95").
_NUMBER = r"(?<![\d/])(?<!\d[.,])(?P<value>9[0-9]|1[01][0-9])(?![\d]|[.,]\d)"
# Units after a number that make it a measure, not an age in years.
_UNIT = (
    r"(?!\s*(?:%|percent|mg|mcg|ml|kg|g\b|lbs?\b|days?\b|d\b|weeks?\b|wks?\b|months?\b|mos?\b|"
    r"degrees?\b|°|mm|cm|bpm|min|minutes?\b|hours?\b|hrs?\b|/))"
)
_WORD_BEFORE = r"\b(?:aged|age|ages|turned|turning|turns|at\s+the\s+age\s+of)\s*[:=]?\s*"
_WORD_AFTER = (
    r"(?:\s*-?\s*(?:years?|yrs?|yr)\s*-?\s*(?:old|of\s+age)\b"
    r"|\s*(?:y/o|y\.o\.?|yo|yoa)(?![A-Za-z]))"
)
_THIS_YEAR_BEFORE = r"(?:,|\bis|\bwill\s+be)\s*"
# Whose age a bracketed number is: "(father, 93)", "(grandmother 97)".
_KIN = (
    r"(?:father|mother|dad|mum|mom|grandfather|grandmother|grandpa|grandma|granny|gran|"
    r"husband|wife|uncle|aunt|auntie|aunty|brother|sister|son|daughter|"
    r"father-in-law|mother-in-law|grandson|granddaughter|nephew|niece|cousin)"
)
_KIN_BEFORE = rf"\(\s*{_KIN}\s*,?\s*"

#: The expression (case-insensitive; the age is its ``value`` group). One group per cue
#: before the number, and a conditional after it asks for the cue's other half (Python
#: allows a group name once, so the four forms share one ``value`` group this way).
OLD_AGE = (
    # every form starts with a digit, "a"(ge), "t"(urned), "i"(s), "w"(ill), "," or "(": the
    # look-ahead spares trying each form at the other places (about twice as fast)
    r"(?=[0-9atiw,(])"
    rf"(?:(?P<word>{_WORD_BEFORE})|(?P<this_year>{_THIS_YEAR_BEFORE})|(?P<kin>{_KIN_BEFORE})"
    r"|(?P<bracket>\(\s*))?"
    + _NUMBER
    + rf"(?(word){_UNIT}|(?(this_year)\s+this\s+year\b|(?(kin)\s*\)|"
    + rf"(?(bracket)\s*/?\s*[MF]\s*\)|{_WORD_AFTER}))))"
)
#: A looser RE2 form for the many-texts scan (every text the expression matches holds it).
OLD_AGE_LOOSER = "9[0-9]|1[01][0-9]"

# Right after a name: ", 96," / " 92 - " / " (99)" / " 91 and" ... The number must end
# where a clause does (a comma, a bracket, a dash between spaces, the end, or a word that
# starts a clause), so "Mr Hall 92 Jalan Besar", "Hall, 95/60", "Wong, 91 mg", "92.5 kg"
# and "90-95" stay numbers.
_AFTER_NAME = re.compile(
    r"(?:\s*,\s*|[ \t]+)(?P<value>9[0-9]|1[01][0-9])"
    r"(?=\s*[,;:)]|[ \t]+[-–][ \t]|\s*$|[ \t]+(?:lives|living|and|is|was|has|had|who|with)\b)"
    r"|[ \t]*\([ \t]*(?P<bracketed>9[0-9]|1[01][0-9])[ \t]*\)",
    re.IGNORECASE,
)


def ages_after_names(text: str, names: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of the ages over 89 written right after the ``names`` (start, end) of
    ``text``: the name says the number is someone's age."""
    spans = []
    for _, end in names:
        match = _AFTER_NAME.match(text, end)
        if match:
            group = "value" if match.group("value") else "bracketed"
            spans.append(match.span(group))
    return spans
