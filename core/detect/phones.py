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

import bisect
import itertools
import re
from functools import lru_cache

import pandas as pd
import phonenumbers
from phonenumbers import Leniency, PhoneNumberMatcher

from core.detect.patterns import fast_fullmatch

__all__ = [
    "DEFAULT_REGION",
    "DIGIT_RUN",
    "find_phones",
    "is_phone",
    "phone_share",
    "phones_in_runs",
]

DEFAULT_REGION = "SG"

# libphonenumber compiles the expressions of its metadata on first use, through Python's
# cache of 512 compiled expressions, which drops the oldest when full: a scan meeting many
# regions' numbers (every region of a country code is tried: 25 for +1) beside other work
# compiled them again and again (a quarter of a millisecond each). The package can keep
# them itself (a bounded set: its fixed metadata); versions without the switch compile
# as before.
if hasattr(phonenumbers, "enable_pattern_cache"):
    phonenumbers.enable_pattern_cache()
# A cell that could be a phone number: digits with spaces, dots, dashes, brackets, an
# optional leading + or 00, 7 to 15 digits.
_CELL_SHAPE = re.compile(r"(?:\+|00)?[0-9 ().-]{7,22}(?:\s*(?:[Ee][Xx][Tt]\.?|[Xx])\s*[0-9]{1,5})?")
# Dates are written with the same characters: never parsed as phone numbers.
_DATE_LIKE = r"[0-9]{1,4}[-/. ][0-9]{1,2}[-/. ][0-9]{1,4}"
# A run of at least 7 digits inside text (separators allowed), not glued to letters or
# other digits: the phone-number candidates.
DIGIT_RUN = re.compile(r"(?<![\w+])(?:\+|00)?[0-9](?:[ ().-]{0,2}[0-9]){6,}(?![\w])")


@lru_cache(maxsize=65536)
def _valid(text: str, region: str) -> bool:
    # Cached: a column repeats the same numbers, and parsing is the costly step.
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(text, region))
    except phonenumbers.NumberParseException:
        return False


@lru_cache(maxsize=65536)
def _possible_international(text: str) -> bool:
    """A number written with its country code (``+`` or ``00``) of a possible length for
    that country, though libphonenumber does not know the range as in use (the UK's
    ``+44 7700 900xxx`` drama range, a newly opened block)."""
    if text.startswith("00"):
        text = "+" + text[2:]
    try:
        number = phonenumbers.parse(text, None)
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.is_possible_number(number) and bool(
        phonenumbers.region_code_for_country_code(number.country_code) != "ZZ"
    )


# Numbers set aside for drama and examples, in national format: the UK's Ofcom ranges
# (mobile 07700 900000-900999, London 020 7946 0000-0999, the 0113-0191 city ranges
# xxx 496 0000-0999, 01632 960000-960999) and the US 555-0100 to 555-0199. libphonenumber
# rejects them as not in use, but they stand for a real person's number in a note.
_FICTIONAL = re.compile(
    r"07700[ .-]?900[ .-]?[0-9]{3}|\(?020\)?[ .-]?7946[ .-]?0[0-9]{3}"
    r"|\(?01[1-9]1\)?[ .-]?496[ .-]?0[0-9]{3}|\(?011[3-8]\)?[ .-]?496[ .-]?0[0-9]{3}"
    r"|\(?01632\)?[ .-]?960[ .-]?[0-9]{3}"
    r"|(?:\+?1[ .-]?)?\(?[2-9][0-9]{2}\)?[ .-]?555[ .-]?01[0-9]{2}"
)
# Words that announce a phone number just before it ("tel", "mobile", "call me on").
_PHONE_CUE = re.compile(
    r"\b(?:tel|telephone|phone|phoned|ph|mobile|mob|hp|h/p|handphone|cell|cellphone|fax|"
    r"landline|whatsapp|sms|call|called|calling|ring|rang|reach|reached|contact|contacted|"
    r"text|texted|dial|dialled|dialed|tried|try|"
    # a number asked for in a chat, answered on the next turn ("agent: number? | cust: ...")
    r"number(?=\s*\?)|"
    # the same words in Malay, Indonesian, Spanish, French, German (issue 26)
    r"telefon|telepon|telp|ponsel|bimbit|nombor|tel[eé]fono|llamar|llame|m[oó]vil|celular|"
    r"t[eé]l[eé]phone|t[eé]l|appeler|appelez|portable|anrufen|rufen|handy|mobil)\b[^\n0-9]{0,24}$",
    re.IGNORECASE,
)
# Without a cue, a number written in the national format of one of these countries is a
# phone number too (the countries of the people in the issue-26 sample and of the users'
# relatives; Indonesia's 08xx mobiles, 10-13 digits, are written by many helpers' families): libphonenumber checks it is valid there. Only numbers of 9 digits or more
# written with separators or brackets ("415.938.1277", "98765 43210", "(02) 9876 5432"),
# or bare runs of exactly 10 digits valid in India or the US ("9876543210"): another bare
# run of digits, or a shorter one, is more often a batch, lot or invoice number.
HINT_REGIONS = ("US", "GB", "IN", "MY", "AU", "ID")
# ... unless the word just before names it a code: "Order 07911 123456", "Invoice 012-345
# 6789", "batch no. 0412 345 678" are not read as phones of another country.
_CODE_CUE = re.compile(
    r"\b(?:order|invoice|inv|batch|lot|ref|reference|receipt|serial|tracking|policy|"
    r"account|acct|a/c|case|claim|ticket|booking|transaction|txn|item|sku|model|part|"
    r"cheque|check|voucher|bill|po)\b(?:[ \t]*(?:no|num|number|#)\.?)?[ \t]*[:#.]?[ \t]*$",
    re.IGNORECASE,
)
# ... or the run is glued by a hyphen to a code of letters: "PO-2024-776512", "INV-0311-482957"
# (unless the letters are a phone's own cue: "Tel-6123 4567", "HP-9123 4567").
_CODE_PREFIX = re.compile(
    r"(?<![\w-])(?!(?:tel|hp|ph|mob|mobile|fax|cell|phone|call|contact|whatsapp|wa)-)"
    r"[A-Za-z]{1,6}-$",
    re.IGNORECASE,
)
_DECIMAL = re.compile(r"[0-9]+\.[0-9]+")
_GROUPED = re.compile(r"[0-9][ .-]+[0-9]|^\(|\)")


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
    runs = [run.span() for run in DIGIT_RUN.finditer(text)]
    return phones_in_runs(text, runs, region, skip=skip)


def phones_in_runs(
    text: str,
    runs: list[tuple[int, int]],
    region: str = DEFAULT_REGION,
    *,
    skip: list[tuple[int, int]] | None = None,
) -> list[tuple[int, int]]:
    """:func:`find_phones` from the spans of the digit runs (``DIGIT_RUN``) already found
    in ``text``; the free-text scanner finds them for a whole column in one pass."""
    spans: list[tuple[int, int]] = []
    inside_skip = _inside(skip or [])
    for start, end in runs:
        if inside_skip(start, end) or _CODE_PREFIX.search(text, max(0, start - 8), start):
            continue
        candidate = text[start:end]
        if start > 0 and text[start - 1] == "(":  # "(617) 555-0100"
            start, candidate = start - 1, "(" + candidate
        digits = re.sub(r"\D", "", candidate)
        # Any of these makes the run a phone; the tests that read the text alone (a cue
        # word, a drama number) come before those libphonenumber parses (a parse costs
        # 20-30 us, and a run no region knows was parsed seven times).
        international = candidate.startswith(("+", "00"))
        if (
            (not international and _unlisted_phone(text, start, candidate, digits, region))
            or _valid(candidate, region)
            or (
                not candidate.startswith("+")
                and 10 <= len(digits) <= 15
                and re.search(r"[0-9][ .-][0-9]", candidate)  # a bare run: an account number
                and _valid("+" + digits, region)
            )
            or (
                not _CODE_CUE.search(text, max(0, start - 30), start)
                and _national_elsewhere(candidate, digits, region)
            )
            or (international and _unlisted_phone(text, start, candidate, digits, region))
        ):
            spans.append((start, end))
        elif len(digits) > 12:
            spans += _matched(candidate, start, region)
    return spans


def _inside(spans: list[tuple[int, int]]):
    """A test "is (start, end) inside one of ``spans``" in log time: for the spans sorted
    by start, the furthest end reached so far (a cell with thousands of IDs and runs
    stays linear, issue 27)."""
    if not spans:
        return lambda start, end: False
    ordered = sorted(spans)
    starts = [s for s, _ in ordered]
    reach = list(itertools.accumulate((e for _, e in ordered), max))

    def test(start: int, end: int) -> bool:
        i = bisect.bisect_right(starts, start) - 1
        return i >= 0 and reach[i] >= end

    return test


def _national_elsewhere(candidate: str, digits: str, region: str) -> bool:
    """A valid number in the national format of a :data:`HINT_REGIONS` country, written
    with separators and of 9 digits or more (see there)."""
    if len(digits) < 9 or candidate.startswith(("+", "00")):
        return False
    if not _GROUPED.search(candidate):
        # A bare run of exactly 10 digits is how Indian mobiles (starting 6-9) and US
        # numbers are often written ("7675857833"); other bare runs stay codes.
        return len(candidate) == 10 and (
            (candidate[0] in "6789" and _valid(candidate, "IN")) or _valid(candidate, "US")
        )
    if _DECIMAL.fullmatch(candidate):
        return False  # "77.2164013": a decimal number (a longitude), not "772-164-013"
    return any(_valid(candidate, other) for other in HINT_REGIONS if other != region)


# Runs longer than this are read by the matcher in overlapping windows of this length
# (a phone number is at most ~25 characters), so a cell of 100,000 digits and spaces
# costs time in proportion to its length (issue 27).
_WINDOW = 120


def _matched(candidate: str, start: int, region: str) -> list[tuple[int, int]]:
    """Numbers side by side in one run ("9123 4567 6123 4567"): libphonenumber's matcher
    finds the valid ones, with the default region, then each hint region; a long run is
    read in overlapping windows, with the default region only."""
    if len(candidate) <= _WINDOW:
        for hint in (region, *[r for r in HINT_REGIONS if r != region]):
            found = [
                (start + m.start, start + m.end)
                for m in PhoneNumberMatcher(candidate, hint, leniency=Leniency.VALID)
            ]
            if found:
                return found
        return []
    found = set()
    for offset in range(0, len(candidate), _WINDOW // 2):
        window = candidate[offset : offset + _WINDOW]
        found.update(
            (start + offset + m.start, start + offset + m.end)
            for m in PhoneNumberMatcher(window, region, leniency=Leniency.VALID)
        )
    kept: list[tuple[int, int]] = []  # a number found by two windows, or cut by one: the
    for span in sorted(found, key=lambda s: (s[0], -s[1])):  # first and longest
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


def _unlisted_phone(text: str, start: int, candidate: str, digits: str, region: str) -> bool:
    """A run that is not a valid number of ``region`` but is still a phone number: written
    with a country code and of a possible length for it, a fictional (drama) number, or,
    after a cue word such as "tel", "mobile" or "contacted on", any run of 7 to 15 digits
    (a number libphonenumber does not know as in use is still someone's number in a note;
    dates and identifiers were taken out before)."""
    if candidate.startswith(("+", "00")):
        return _possible_international(candidate)
    if _FICTIONAL.fullmatch(candidate):
        return True
    return 7 <= len(digits) <= 15 and bool(_PHONE_CUE.search(text, max(0, start - 40), start))
