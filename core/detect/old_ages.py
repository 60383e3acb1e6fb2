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
  "Mrs Agnes Wong, 96, at her flat", "Mr Peter Hall 92 - fall", "Ms Villanueva (99)",
  "Mr Pike is 93", "LIM/MEI LING MRS (91)", "Mrs Fox (2/3/1931) - 94";
- a person and a verb of being before it: "she's 96", "my gran is 98", "I am 91", "he would
  have been 100"; "died at 96"; a hedge after "age": "age maybe 92"; Malay and Indonesian
  "umur 94", "usia 97";
- a sex glued to it at the start of a clause: "ED triage: 93M from home" (not "T: 101F");
  "y"/"yrs" before a sex or the clause's end: "92y F", "90 yrs,"; "come June" after it;
- in words with any of these cues: "ninety-four come June", "aged one hundred and two";
- listed or corrected after an age found: "aged 90 or 91", "91F - actually 94".

After a word before it, a unit says it is not an age ("aged 90 days", "turned 90
degrees", "age 95%"). Only the number is reported (the ``value`` group), so the cue words
stay and the sentence still reads: "a [AGE 90+]-year-old man".
"""

from __future__ import annotations

import itertools
import re

__all__ = ["OLD_AGE", "OLD_AGE_LOOSER", "ages_after_names"]

# 90 to 119 in words: "ninety", "ninety-three", "a hundred", "one hundred and two".
_ONES = r"one|two|three|four|five|six|seven|eight|nine"
_TEENS = r"ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
_IN_WORDS = (
    rf"\bninety(?:[- ](?:{_ONES}))?\b"
    rf"|\b(?:a|one)[ ]hundred(?:[ ](?:and[ ])?(?:{_ONES}|{_TEENS}))?\b"
)
# 90 to 119, not glued to other digits or to a decimal point ("1,95", "0.95").
_NUMBER = rf"(?<![\d/])(?<!\d[.,])(?P<value>9[0-9]|1[01][0-9]|{_IN_WORDS})(?![\d]|[.,]\d)"
# Units after a number that make it a measure, not an age in years.
_UNIT = (
    r"(?!\s*(?:%|percent|mg|mcg|ml|kg|g\b|lbs?\b|days?\b|d\b|weeks?\b|wks?\b|months?\b|mos?\b|"
    r"degrees?\b|°|mm|cm|bpm|min|minutes?\b|hours?\b|hrs?\b|/|tablets?\b|tabs?\b))"
)
_WORD_BEFORE = r"\b(?:aged|age|ages|turned|turning|turns|at\s+the\s+age\s+of)\s*[:=]?\s*"
_MONTH_WORD = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
_WORD_AFTER = (
    r"(?:\s*-?\s*(?:years?|yrs?|yr)\s*-?\s*(?:old|of\s+age)\b"
    r"|\s*(?:y/o|y\.o\.?|yo|yoa)(?![A-Za-z])"
    # "92y F", "90 yrs," (a pharmacy's label): "y"/"yrs" before a sex or the clause's end
    r"|\s*(?:y|yr|yrs)\.?(?:\s*(?-i:[MF])\b|(?=\s*[,;)]|\s*$))"
    # "ninety-four come June", "she'll be 90 come Easter"
    rf"|\s+come\s+(?:{_MONTH_WORD}\b|christmas\b|easter\b|next\b|(?:her|his|my|their)\s+birthday\b))"
)
_THIS_YEAR_BEFORE = r"(?:,|\bis|\bwill\s+be)\s*"
# Whose age a bracketed number is: "(father, 93)", "(grandmother 97)".
_KIN = (
    r"(?:father|mother|dad|mum|mom|grandfather|grandmother|grandpa|grandma|granny|gran|"
    r"husband|wife|uncle|aunt|auntie|aunty|brother|sister|son|daughter|"
    r"father-in-law|mother-in-law|grandson|granddaughter|nephew|niece|cousin)"
)
_KIN_BEFORE = rf"\(\s*{_KIN}\s*,?\s*"

# Cues read backwards from the number (fixed-width look-behinds, tried only where a number
# of 90-119 starts: a cue-first group tried at every letter of a note made the expression
# five times slower):
# - a person and a verb of being: "she's 96", "my gran is 98", "I am 91", "he would have
#   been 100" (a person only: "HR is 96", "SpO2 was 94" are readings);
# - "died at", "passed away at"; Malay and Indonesian "umur", "usia" (age);
# - an age word and a hedge: "age maybe 92", "age approx 95" (no date of birth known).
_PEOPLE = (
    *("i", "he", "she", "who", "mum", "mom", "dad", "nan", "nana", "nanna", "gran", "granny"),
    *("grandma", "grandpa", "grandmother", "grandfather", "mother", "father", "husband"),
    *("wife", "mother-in-law", "father-in-law"),
)
_BEING = ("'s", "’s", "'m", "’m", " is", " was", " am", " will be", " would be")
_BEING += (" would have been", " turns", " turned")
_HEDGES = ("maybe", "about", "around", "approx", "approx.", "approximately", "roughly")
_HEDGES += ("possibly", "perhaps", "est.", "estimated", "~", "c.", "sudah", "kira-kira", "sekitar")
_CUES_BEFORE = sorted(
    # (each cue costs a comparison at every number 90-119 of a note: "she's now 96" and
    # "is already 98" are left out, "is 98 already" is read)
    {f"{who}{verb} " for who in _PEOPLE for verb in _BEING}
    | {f"{word} " for word in ("died at", "died aged", "passed at", "passed away at")}
    | {
        f"{word}{sep}{hedge} "
        for word in ("age", "aged", "umur", "usia")
        for sep in (" ", ": ")
        for hedge in _HEDGES
    }
    | {
        f"{word} {then}"
        for word in ("umur", "usia", "berumur", "berusia")
        for then in ("", "sudah ")
    },
    key=len,
)
_NUMBER_HERE = r"(?=(?:9[0-9]|1[01][0-9])(?![0-9])|ninety|(?:a|one)[ ]hundred)"
# One look-behind per length of cue (each must have one width), the cues inside it
# alternatives: a few assertions instead of hundreds.
_CUED_BACKWARDS = (
    "(?:"
    + "|".join(
        r"(?<=\b(?:" + "|".join(re.escape(c) for c in cues) + "))"
        for _, cues in itertools.groupby(_CUES_BEFORE, key=len)
    )
    + ")"
)
# The start of a clause, for a sex glued to the number: "ED triage: 93M from home",
# "Handover - 97F," (not a temperature "T: 101F" nor an amount "$93M").
_CLAUSE_START = (
    r"(?=(?:9[0-9]|1[01][0-9])[MF])(?:(?<![^\n:;(])|(?<=[\n:;(—–-][ ]))"
    r"(?<!\bt:[ ])(?<!\btemp:[ ])(?<!\btemperature:[ ])"
)

#: The expression (case-insensitive; the age is its ``value`` group). One group per cue
#: before the number, and a conditional after it asks for the cue's other half (Python
#: allows a group name once, so the forms share one ``value`` group this way).
OLD_AGE = (
    # every form starts with a digit, "a"(ge), "t"(urned), "i"(s), "w"(ill), "," or "(", or
    # a number in words ("ninety", "one hundred"): the look-ahead spares trying each form
    # at the other places (about twice as fast)
    r"(?=[0-9atiw,(]|ninety|one[ ]hundred)"
    rf"(?:(?P<word>{_WORD_BEFORE})|(?P<this_year>{_THIS_YEAR_BEFORE})|(?P<kin>{_KIN_BEFORE})"
    rf"|(?P<bracket>\(\s*)|{_NUMBER_HERE}(?P<backwards>{_CUED_BACKWARDS})"
    rf"|(?P<clause>{_CLAUSE_START}))?"
    + _NUMBER
    + rf"(?(word){_UNIT}|(?(backwards){_UNIT}|(?(this_year)\s+this\s+year\b|(?(kin)\s*\)|"
    + rf"(?(bracket)\s*/?\s*[MF]\s*\)|(?(clause)(?-i:[MF])(?![\w])|{_WORD_AFTER}))))))"
)
#: A looser RE2 form for the many-texts scan (every text the expression matches holds it).
OLD_AGE_LOOSER = "9[0-9]|1[01][0-9]|(?i:ninety|hundred)"

# Right after a name: ", 96," / " 92 - " / " (99)" / " 91 and" / " is 93" ... The number
# must end where a clause does (a comma, a bracket, a dash between spaces, the end, or a
# word that starts a clause), so "Mr Hall 92 Jalan Besar", "Hall, 95/60", "Wong, 91 mg",
# "92.5 kg" and "90-95" stay numbers; after "is", "was", "turns", only no unit may follow.
_AGE_NUMBER = r"9[0-9]|1[01][0-9]"
# Between the name and its age may stand a title written after the name, as in an
# airline's "TAN/MEI LING MRS (91)", or a bracketed aside such as the date of birth:
# "Mrs Ada Fox (2/3/1931) - 94".
_TITLE_AFTER = r"(?:[ \t]+(?-i:MR|MRS|MS|MSTR|MISS|DR))?(?:[ \t]*\([^()\n]{1,25}\)(?=[ \t]*[-–,]))?"
# (in words too, a sex glued to it, or a field of a line separated by semicolons: "Mr
# Pillai, ninety-three, bedbound", "Pt TAN MEI HUA, 92F, NH", "27/10;Lim Bee Hoon;96;Blk 5";
# an aside in brackets may follow: "Agnes Fernandez, ninety-four (honorary)")
_AFTER_NAME = re.compile(
    _TITLE_AFTER + rf"(?:(?:\s*[,;]\s*|[ \t]+)(?P<value>{_AGE_NUMBER}|{_IN_WORDS})"
    r"(?:(?-i:[MF])(?![\w]))?"
    r"(?=\s*[,;:)]|[ \t]*\((?![0-9])|[ \t]+[-–][ \t]|\s*$"
    r"|[ \t]+(?:lives|living|and|is|was|has|had|who|with)\b)"
    rf"|[ \t]*\([ \t]*(?P<bracketed>{_AGE_NUMBER})[ \t]*\)"
    rf"|[ \t]+(?:is|was|turns|turned)[ \t]+(?P<being>{_AGE_NUMBER})(?![\d]|[.,]\d){_UNIT}"
    r"|[ \t]+[-–][ \t]+(?P<dashed>" + _AGE_NUMBER + r")(?=\s*[.,;)]|\s*$))",
    re.IGNORECASE,
)
# A second age listed after one, or a correction: "aged 90 or 91", "age maybe 93, 96",
# "92-93", "91F - actually 94".
_LISTED_AFTER = re.compile(
    # what may follow the first age: its unit or a sex ("91F", "92 y/o")
    r"(?:[ \t]*(?:y/o|y\.o\.|yo|yrs?|y|years?(?:[ \t]+old)?|(?-i:[MF]))(?![A-Za-z]))?"
    r"(?:[ \t]*,[ \t]*|[ \t]+or[ \t]+|[ \t]*[-–/][ \t]*|[ \t]+to[ \t]+"
    r"|[ \t]*[-–—,]?[ \t]*(?:actually|really|in\s+fact|maybe|probably|possibly|perhaps)[ \t]+)"
    rf"(?P<value>{_AGE_NUMBER})"
    rf"(?![\d]|[.,]\d){_UNIT}",
    re.IGNORECASE,
)


def ages_after_names(
    text: str, names: list[tuple[int, int]], ages: list[tuple[int, int]] = ()
) -> list[tuple[int, int]]:
    """The spans of the ages over 89 written right after the ``names`` (start, end) of
    ``text`` (the name says the number is someone's age), and listed right after the
    ``ages`` over 89 already found ("aged 90 or 91": the second is an age too)."""
    spans = []
    for _, end in names:
        match = _AFTER_NAME.match(text, end)
        if match:
            group = next(g for g in ("value", "bracketed", "being", "dashed") if match.group(g))
            spans.append(match.span(group))
    pending = [*ages, *spans]
    while pending:
        match = _LISTED_AFTER.match(text, pending.pop()[1])
        if match:
            spans.append(match.span("value"))
            pending.append(match.span("value"))
    return spans
