"""Automatic generalisation hierarchies built from what Step 1 found a column to hold.

The kind a column was classified as (:class:`core.roles.Suggestion.kind`, from
:func:`core.schema.suggest_roles`) decides the hierarchy, not its storage type alone, so a
postal code read as a number is masked rather than cut into bands of 50,000 and dates of
birth written as text keep their year:

* **dates** (``date_of_birth``, ``date``): day -> month -> year -> decade -> ``*``.
  Keeping the year is HIPAA Safe Harbor's limit for dates (45 CFR §164.514(b)(2)(i)(C):
  "all elements of dates (except year)") and NIST SP 800-188's first strategy for dates
  ("generalized to no greater specificity than the year"); the PDPC guide, Annex B,
  generalises a date of birth "to month and year, or year". Text in several formats is
  read (ISO, day first as Singapore writes it, month names; :func:`core.dates.parse_dates`).
* **postal codes and identifiers** (``postal_code``, NRIC, phone, plate, IU number, codes):
  character masking from the right, one character a level (PDPC guide, Annex A: Character
  masking; Annex B: "mask the last four digits of the postal code", 117438 -> 11xxxx, the
  2-digit postal sector): 560123 -> 56012* -> 5601** -> ... -> ``*``. Postal codes stored as
  numbers get back their leading zeros (18956 is written 018956) before masking.
* **addresses**: the house or block number and the unit are dropped first (the street
  stays), then the street (only the postal sector, the first two digits of a Singapore
  postal code, stays when the address carries one), then ``*`` (PDPC guide, Annex B:
  "generalise to a pre-defined zone ... and remove unit numbers").
* **numbers** (age, year of birth, measurements, amounts): bands of growing width
  (:func:`core.hierarchy.build_hierarchy`'s numeric choice; PDPC guide, Annex A:
  Generalisation, Annex B: "ranges of 5 or 10").
* **categories** (anything else): rare values grouped as ``Others`` by frequency (fewer
  than 5 records, then under 5% of the records), then ``*`` (PDPC guide, Annex B:
  "generalise rare groups into 'Others'"); a column with no rare value goes straight to
  ``*``.

Every builder works once per distinct value, never per row. A kind whose builder does not
fit the values (a date column already generalised to years by a recipe step) falls back to
the numbers or categories rule, so "auto" always gives a hierarchy.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
import pandas as pd

from core._text import as_text
from core.dates import parse_dates
from core.errors import ParameterError
from core.hierarchy import Hierarchy, build_hierarchy, masking_hierarchy

__all__ = [
    "ADDRESS_KINDS",
    "DATE_KINDS",
    "MASKING_KINDS",
    "NUMBER_KINDS",
    "auto_family",
    "auto_hierarchy",
    "auto_words",
    "detected_kind",
]

DATE_KINDS = frozenset({"date_of_birth", "date"})
MASKING_KINDS = frozenset(
    {
        "postal_code",
        "nric",
        "passport",
        "id_number",
        "account_number",
        "identifier_like",
        "ssn",
        "nino",
        "national_id",
        "phone",
        "vehicle_plate",
        "iu_number",
        "code",
        "near_unique",
    }
)
ADDRESS_KINDS = frozenset({"address"})
NUMBER_KINDS = frozenset({"age", "year_of_birth", "measurement", "money", "number", "gps"})

#: What each family of auto hierarchy does, in words (for the page and the docs).
FAMILY_WORDS = {
    "dates": "day → month → year → decade → *",
    "masking": "masked from the right, one character a level → *",
    "address": "house and unit dropped (street kept) → postal sector → *",
    "address_no_postal": "house and unit dropped (street kept) → *",
    "numbers": "bands of growing width → *",
    "categories": "rare values grouped as 'Others' → *",
}

# Records below which a category counts as rare at the first level; the second level
# groups values under this share of the records (PDPC guide, Annex B: rare groups).
_RARE_COUNT = 5
_RARE_SHARE = 0.05
OTHERS = "Others"


def auto_family(kind: str | None, series: pd.Series) -> str:
    """Which rule builds the auto hierarchy of a column of this Step 1 ``kind``: "dates",
    "masking", "address", "numbers" or "categories" (module docstring)."""
    if kind in DATE_KINDS:
        return "dates"
    if kind in MASKING_KINDS:
        return "masking"
    if kind in ADDRESS_KINDS:
        return "address"
    numeric = pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)
    if kind in NUMBER_KINDS and numeric:
        return "numbers"
    return "numbers" if numeric else "categories"


def detected_kind(series: pd.Series) -> str:
    """The kind Step 1 finds in this one column, header and values
    (:func:`core.schema.suggest_roles`), for callers that have no suggestion at hand."""
    from core.schema import suggest_roles

    frame = series.to_frame(name=series.name if series.name is not None else "value")
    return suggest_roles(frame)[0].kind


def auto_hierarchy(series: pd.Series, kind: str | None = None) -> Hierarchy:
    """The automatic hierarchy of ``series`` for its Step 1 ``kind`` (module docstring;
    detected from the column itself when None). Falls back to numbers or categories when
    the values do not fit the kind's rule. PDPC guide, Annex A."""
    if kind is None:
        kind = detected_kind(series)
    name = str(series.name) if series.name is not None else None
    family = auto_family(kind, series)
    built = None
    if family == "dates":
        built = _dates(series, name)
    elif family == "masking":
        built = _masking(series, name, postal=kind == "postal_code")
    elif family == "address":
        built = _address(series, name)
    if built is not None:
        return built
    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
        return build_hierarchy(series, "auto")
    return _categories(series, name)


def auto_words(series: pd.Series, kind: str | None) -> str:
    """What the auto hierarchy of this column does, in words ("day → month → year → ...")."""
    family = auto_family(kind, series)
    if family == "address":  # the first 5,000 values tell (the words are redrawn often)
        text = _distinct(series.head(5000)).str.replace(r"\s+", " ", regex=True)
        has_postal = _postal_codes(text).notna().mean() >= 0.5 if len(text) else False
        family = "address" if has_postal else "address_no_postal"
    return FAMILY_WORDS[family]


# --- the rules -----------------------------------------------------------------------------


def _distinct(series: pd.Series) -> pd.Series:
    return as_text(series).dropna().drop_duplicates().reset_index(drop=True)


def _table(original: pd.Series, levels: Iterable[Iterable[str]], name: str | None) -> Hierarchy:
    """A hierarchy from its level-0 values and levels 1..n-1, with ``*`` added last; a level
    equal to the one before (nothing generalised) is left out."""
    columns = [original.to_numpy(dtype=object)]
    for level in levels:
        level = np.asarray(list(level), dtype=object)
        if not (level == columns[-1]).all() and len(set(level)) > 1:
            columns.append(level)
    columns.append(np.full(len(original), "*", dtype=object))
    return Hierarchy(pd.DataFrame(dict(enumerate(columns))), name=name)


def _dates(series: pd.Series, name: str | None) -> Hierarchy | None:
    """Day -> month -> year -> decade -> * (None when a value is not a date)."""
    text = _distinct(series)
    # A year alone ("1985", a date of birth a recipe step generalised) is no date: pandas
    # would read it as 1 January. A date has a month at least (two numbers, or a name).
    parts = text.str.count(r"\d+") + text.str.contains(r"[A-Za-z]{3}", regex=True)
    if text.empty or (parts < 2).any():
        return None
    try:
        dates = parse_dates(text, name or "dates", latest=pd.Timestamp.today().normalize())
    except (ParameterError, ValueError, OverflowError):
        return None
    if dates.isna().any():
        return None
    year = dates.dt.year
    levels = [
        dates.dt.strftime("%Y-%m"),
        year.astype(str),
        (year // 10 * 10).astype(str) + "s",
    ]
    return _table(text, levels, name)


def _masking(series: pd.Series, name: str | None, *, postal: bool) -> Hierarchy | None:
    """Mask from the right, one character a level; postal codes stored as numbers get their
    leading zeros back first (a 6-digit code read as 18956 is 018956)."""
    text = _distinct(series)
    if text.empty:
        return None
    shown = text
    digits = text.str.fullmatch(r"\d+").all()
    if postal and digits and pd.api.types.is_numeric_dtype(series):
        width = int(text.str.len().mode().max())
        shown = text.str.zfill(width)
        if shown.duplicated().any():  # "018956" and "18956" both written: keep them apart
            shown = text
    try:
        masked = masking_hierarchy(shown, name=name)
    except ParameterError:  # values too long to mask one character a level
        return None
    levels = masked.levels.copy()
    levels[0] = text.to_numpy()
    return Hierarchy(levels, name=name)


# An address's parts, read from its distinct values: the house or block number in front,
# the unit ("#05-67", "Apt 4", "Unit 3B"), the postal code at the end (Singapore's 6 digits,
# written "Singapore 560123", "S(560123)" or alone).
_HOUSE = re.compile(
    r"^\s*(?:(?:blk|block|no\.?|house|lot)\s*)?\d{1,5}[A-Za-z]?\b[,\s]*", flags=re.IGNORECASE
)
_UNIT = re.compile(
    r"(?:,?\s*#\s?[0-9B]{1,3}\s?-\s?[0-9]{1,5}[A-Za-z]?|,?\s*\b(?:apt|unit|suite|flat|ste)\.?\s*#?[0-9A-Za-z-]{1,6})",
    flags=re.IGNORECASE,
)
_POSTAL_TAIL = re.compile(
    r"(?:,?\s*(?:singapore|s)\s*\(?\s*(\d{6})\s*\)?|,?\s+(\d{6}))\s*$", flags=re.IGNORECASE
)
_TOWN_TAIL = re.compile(r",?\s*singapore\s*$", flags=re.IGNORECASE)


def _postal_codes(text: pd.Series) -> pd.Series:
    """The 6-digit postal code at the end of each address (NaN where none)."""
    found = text.str.extract(_POSTAL_TAIL)
    return found[0].fillna(found[1])


def _address(series: pd.Series, name: str | None) -> Hierarchy | None:
    """Street (house number and unit dropped), then the postal sector (first two digits of
    the postal code) when the address ends with one, then *."""
    text = _distinct(series)
    if text.empty:
        return None
    # Runs of spaces made one first: the patterns' optional spaces then match at most one
    # character, so a hostile cell of many spaces costs linear time, not quadratic.
    spaced = text.str.replace(r"\s+", " ", regex=True).str.strip()
    postal = _postal_codes(spaced)
    street = spaced.str.replace(_POSTAL_TAIL, "", regex=True)
    street = street.str.replace(_UNIT, "", regex=True).str.replace(_HOUSE, "", regex=True)
    street = street.str.replace(_TOWN_TAIL, "", regex=True).str.strip(" ,;-")
    street = street.where(street != "", spaced)  # nothing left to keep: the value itself
    if postal.notna().mean() < 0.5:
        return _table(text, [street], name)
    sector = ("postal sector " + postal.str.slice(0, 2)).fillna("postal sector unknown")
    # The street of a sector (a street crossing two sectors is two groups), so the levels nest.
    return _table(text, [street + " (" + sector + ")", sector], name)


def _categories(series: pd.Series, name: str | None) -> Hierarchy:
    """Rare values as 'Others' (fewer than 5 records; then under 5% of the records), then *."""
    text = as_text(series).dropna()
    if text.empty:
        raise ParameterError(
            f"Column{'' if name is None else f' {name!r}'} has no values: a hierarchy needs "
            "at least one value to cover."
        )
    counts = text.value_counts(sort=False)
    values = pd.Series(counts.index.astype(str), dtype=object)
    sizes = counts.to_numpy()
    levels = []
    for limit in (_RARE_COUNT, max(_RARE_COUNT, _RARE_SHARE * len(text))):
        rare = sizes < limit
        if rare.sum() >= 2 and not rare.all():  # one rare value alone is not hidden
            levels.append(values.where(~rare, OTHERS).to_numpy(dtype=object))
    if OTHERS in set(values):  # a real value "Others" would merge with the rare ones
        levels = []
    return _table(values, levels, name)
