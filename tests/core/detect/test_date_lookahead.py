"""The look-ahead that starts the date expression (``_DATE_START``) only skips places where
no date can start: every date that begins with a month word is still found, whole.

The look-ahead was tightened for speed (issue 26: a month word must be followed by
".", ",", a space, maybe "de ", then a digit, as in every form that starts with one). Each
note and its date below is written by hand; the last test compares the expression with the
same expression under the looser look-ahead it replaced, on those notes and on look-alikes.
"""

from __future__ import annotations

import re

import pytest

from core.detect import find_entities
from core.detect.patterns import PATTERNS

# Notes whose date starts with a month word, one per form of the expression.
MONTH_FIRST = [
    ("Seen on May 18, 2024 at the clinic.", "May 18, 2024"),  # month, day, year
    ("Review Sept. 5 with the results.", "Sept. 5"),  # month and day, no year
    ("Moved here in September 2025.", "September 2025"),  # month and year
    ("Admitted on December 3rd after a fall.", "December 3rd"),
    ("Born Ogos 1985 in Ipoh.", "Ogos 1985"),  # Malay month and year
    ("Nacido en marzo de 1990 en Madrid.", "marzo de 1990"),  # Spanish "de"
    ("Ipinanganak noong Setyembre 12, 1986.", "Setyembre 12, 1986"),  # Filipino
    ("arrivée en septembre, 2019 à Paris", "septembre, 2019"),
    ("Dezember 1988 eingezogen", "Dezember 1988"),
]


@pytest.mark.parametrize(("note", "date"), MONTH_FIRST)
def test_a_date_starting_with_a_month_word_is_found_whole(note: str, date: str) -> None:
    assert [e.text for e in find_entities(note, kinds="date")] == [date]


LOOK_ALIKES = [
    "May need a review in 2 weeks.",  # lower-case "may" and a number, no date
    "Marching 12 km a day; Mayor 3 visits; Decembers 2020",  # month inside longer words
    "Octobers\n2020 and June\n12",  # a line break between month and number
    "Jan-2020, 2020-01-31, 31/01/2024 and the 3rd of June",
    "seen on 18 May; called Sun 18 May; July, 2021; Feb. 2, 2020; Aug.  3",
]


def test_the_look_ahead_finds_what_the_looser_one_found() -> None:
    date = PATTERNS["date"].regex
    opening = "(?<![\\w@.+/-])(?:"
    # the look-ahead ends where the optional weekday before a date starts ("Sun 9 Nov")
    look_ahead = date.pattern[len(opening) : date.pattern.index("(?:(?:mon|monday|")]
    assert date.pattern.startswith(opening) and look_ahead.startswith("(?=")
    # the look-ahead before issue 26's speed-up: a digit or any three letters
    looser = re.compile(date.pattern.replace(look_ahead, r"(?=[0-9]|[^\W\d_]{3})", 1), date.flags)
    assert looser.pattern != date.pattern
    for text in [note for note, _ in MONTH_FIRST] + LOOK_ALIKES:
        assert [m.span() for m in date.finditer(text)] == [
            m.span() for m in looser.finditer(text)
        ], text
