"""What the builders of the evaluation sets share (issue 26): the mark-up of the
hand-written notes, weighted draws, ages, month names and the CSV writer.

Used by ``make_eval3.py``, ``make_eval5.py``, ``make_eval6.py``, ``make_eval7.py``,
``make_eval8.py`` and ``make_independent_pii.py``. Nothing here imports ``core``: a set is
built apart from the code it measures. Every builder must still rewrite its committed
files byte for byte, so a change here that moves a random draw changes every set.
"""

from __future__ import annotations

import csv
import datetime as dt
import random
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

#: A marked span of a note: ``{{kind|text}}``, or ``{{name:Origin|text}}`` for a name.
MARKUP = re.compile(r"\{\{([a-z]+)(?::([A-Za-z]+))?\|([^{}]+)\}\}")
#: A span neither scored nor held against a detection (a claim number, a clinic's address).
NEUTRAL = "ref"
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def pick(rng: random.Random, weighted) -> str:
    """One value of ``weighted`` ((value, weight) pairs), drawn by weight."""
    values, weights = zip(*weighted, strict=True)
    return rng.choices(values, weights=weights)[0]


def age_on(born: dt.date, day: dt.date) -> int:
    """Age in whole years on ``day`` of someone born on ``born``."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def ascii_fold(text: str) -> str:
    """``text`` with its diacritics dropped (and any other letter outside ASCII)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def write_csv(path: Path, header: list[str], rows: Iterable) -> None:
    """``rows`` under ``header`` as UTF-8 CSV (the csv module's quoting and line ends)."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)


def parse_marked_notes(
    text: str,
    kinds: tuple[str, ...],
    origins: tuple[str, ...],
    direct_kinds: tuple[str, ...] | None = None,
) -> tuple[list[str], list[tuple]]:
    """The notes of a ``notes.txt`` without their marks, and each span: note, start, end,
    kind, origin, (whether the kind is one of ``direct_kinds``, when given), text.

    Lines starting with ``#`` and blank lines are not notes. A kind outside ``kinds`` and
    :data:`NEUTRAL`, a name without an origin of ``origins`` (or another kind with one)
    and a mark left open are refused with the note's number.
    """
    notes: list[str] = []
    spans: list[tuple] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        number, note, cut = len(notes), "", 0
        for m in MARKUP.finditer(line):
            note += line[cut : m.start()]
            kind, origin, value = m.group(1), m.group(2) or "", m.group(3)
            if kind not in (*kinds, NEUTRAL):
                raise ValueError(f"note {number}: unknown kind {kind!r}")
            if (kind == "name") != bool(origin) or (origin and origin not in origins):
                raise ValueError(
                    f"note {number}: name origin {origin!r} for kind {kind!r} "
                    f"(name spans need an origin of {origins})"
                )
            start = len(note)
            direct = () if direct_kinds is None else (kind in direct_kinds,)
            spans.append((number, start, start + len(value), kind, origin, *direct, value))
            note += value
            cut = m.end()
        note += line[cut:]
        if "{{" in note or "}}" in note:
            raise ValueError(f"note {number}: a mark left open: {line[:60]!r}")
        notes.append(note)
    return notes, spans


def phone_region(value: str, regions: tuple[str, ...]) -> str:
    """The region a written phone is valid in by libphonenumber: read as international when
    it starts with + or 00, else in each of ``regions`` in turn; ValueError if none."""
    import phonenumbers

    text = value.strip()
    text = "+" + text[2:] if text.startswith("00") else text
    for region in (None,) if text.startswith("+") else regions:
        try:
            number = phonenumbers.parse(text, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            return phonenumbers.region_code_for_number(number)
    raise ValueError(f"phone {value!r} is valid in none of {', '.join(regions)}")
