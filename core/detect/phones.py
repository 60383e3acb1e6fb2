"""Phone numbers of any country, with Google's libphonenumber (the ``phonenumbers`` package).

A value is a phone number when libphonenumber says it is a *valid* number (right length
and a range in use for that country): written with a country code (``+1 617-555-0100``,
``+44 20 7946 0000``, ``0065 9123 4567``), with the country code but no ``+``
(``44 20 7946 0000``), or in the national format of the default region (Singapore by
default: ``9123 4567``, ``6123-4567``). Digit runs that are dates, NRIC numbers or postal
codes are not valid phone numbers and are left alone. The PDPC guide (Step 1) lists the
mobile number as a direct identifier; HIPAA Safe Harbor lists telephone and fax numbers
(D, E). Nothing is fetched: the numbering plan metadata ships inside the package.
"""

from __future__ import annotations

import re

import pandas as pd
import phonenumbers
from phonenumbers import Leniency, PhoneNumberMatcher

from core.detect.patterns import fast_fullmatch

__all__ = ["DEFAULT_REGION", "find_phones", "is_phone", "phone_share"]

DEFAULT_REGION = "SG"
# A cell that could be a phone number: digits with spaces, dots, dashes, brackets, an
# optional leading + or 00, 7 to 15 digits.
_CELL_SHAPE = re.compile(r"(?:\+|00)?[0-9 ().-]{7,22}(?:\s*(?:[Ee][Xx][Tt]\.?|[Xx])\s*[0-9]{1,5})?")
# Dates are written with the same characters: never parsed as phone numbers.
_DATE_LIKE = r"[0-9]{1,4}[-/. ][0-9]{1,2}[-/. ][0-9]{1,4}"
# A run of at least 7 digits inside text (separators allowed), not glued to letters or
# other digits: the phone-number candidates.
_DIGIT_RUN = re.compile(r"(?<![\w+])(?:\+|00)?[0-9](?:[ ().-]{0,2}[0-9]){6,}(?![\w])")


def _valid(text: str, region: str) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(text, region))
    except phonenumbers.NumberParseException:
        return False


def is_phone(value: str, region: str = DEFAULT_REGION) -> bool:
    """True when ``value`` (a whole cell) is a valid phone number (see the module doc)."""
    text = value.strip()
    if not _CELL_SHAPE.fullmatch(text):
        return False
    digits = re.sub(r"\D", "", text)
    if not 7 <= len(digits) <= 15:
        return False
    if text.startswith("00"):  # the common international call prefix, as a "+"
        text = "+" + text[2:]
    if _valid(text, region):
        return True
    # A country code written without "+" (e.g. "44 20 7946 0000", "1 617 555 0100").
    # Only when written with separators, like a phone number: a bare run of 11 digits is
    # more often an account number than a foreign phone number.
    spaced = bool(re.search(r"[0-9][ .-][0-9]", text))
    return (
        spaced
        and not text.startswith(("+", "0"))
        and len(digits) >= 10
        and _valid("+" + digits, region)
    )


def phone_share(values: pd.Series, counts: pd.Series | None, region: str = DEFAULT_REGION) -> float:
    """Share of rows whose value is a phone number; ``values`` are distinct stripped
    strings and ``counts`` their frequencies (None: each once)."""
    if len(values) == 0:
        return 0.0
    shaped = fast_fullmatch(values, _CELL_SHAPE.pattern) & ~fast_fullmatch(values, _DATE_LIKE)
    mask = pd.Series(False, index=values.index)
    if shaped.any():
        mask[shaped] = [is_phone(v, region) for v in values[shaped]]
    if counts is None:
        return float(mask.mean())
    return float(counts[mask.to_numpy()].sum()) / float(counts.sum())


def find_phones(
    text: str, region: str = DEFAULT_REGION, *, skip: list[tuple[int, int]] | None = None
) -> list[tuple[int, int]]:
    """Spans ``(start, end)`` of valid phone numbers inside ``text``.

    Each run of 7 or more digits (spaces, dots, dashes and brackets allowed between them)
    is parsed by libphonenumber: as written (the default region's national format, or a
    ``+``/``00`` country code), then, for runs of 10-15 digits written with separators,
    with a ``+`` put in front. A run that is not one valid number as a whole (two numbers
    side by side, a date glued to a number) goes to libphonenumber's matcher. Runs inside
    ``skip`` spans (dates, IDs, IP addresses already found) are left alone; a text without
    a run of 7 digits costs one regular-expression search.
    """
    spans: list[tuple[int, int]] = []
    for run in _DIGIT_RUN.finditer(text):
        start, end = run.span()
        if skip and any(s <= start and end <= e for s, e in skip):
            continue
        candidate = run.group()
        if start > 0 and text[start - 1] == "(":  # "(617) 555-0100"
            start, candidate = start - 1, "(" + candidate
        digits = re.sub(r"\D", "", candidate)
        if _valid(candidate, region) or (
            not candidate.startswith("+")
            and 10 <= len(digits) <= 15
            and re.search(r"[0-9][ .-][0-9]", candidate)  # a bare run: an account number
            and _valid("+" + digits, region)
        ):
            spans.append((start, end))
        elif len(digits) > 12:
            spans += [
                (start + m.start, start + m.end)
                for m in PhoneNumberMatcher(candidate, region, leniency=Leniency.VALID)
            ]
    return spans
