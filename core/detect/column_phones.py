"""Phone numbers in a column, of any country, and codes that only look like them (Step 1).

A column is a phone column when at least 80% of its rows are valid numbers by Google's
libphonenumber: Singapore's plan first (the default region), then, for numbers written as
phone numbers (separators, brackets, a trunk "0", "(+44)"), the regions the column itself
names with "+" codes and the users' common countries; a bare run of digits is read only
with the regions the written-out numbers showed, or with the one region whose plan at
least 80% of the bare numbers fit. Bare numbers that share half their leading digits,
and numbers written in any form that repeat over many rows (5 rows a value on average),
are codes (batch, product, drug, order numbers), not people's phones (issue 26). Used by :func:`core.detect.columns.value_evidence`.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pandas as pd
import phonenumbers

from core.detect.evidence import STEP1, THRESHOLD, Evidence, pct
from core.detect.phones import DEFAULT_REGION, is_phone
from core.detect.sample import ColumnSample

__all__ = ["phone_evidence"]


# National formats tried when a number is not one of the default region's (SG): the
# countries of the users and their relatives (US, UK, India, Malaysia, Australia, Hong
# Kong, the Philippines, Indonesia, China), after any country the column itself names
# with a "+" prefix. Only numbers written as phone numbers are read this way (separators,
# brackets or a trunk "0"): 84% of random 10-digit strings are a valid number of one of
# these countries, so a bare run of digits is read only with the regions that the
# column's other values showed.
_PHONE_REGIONS = ("US", "GB", "IN", "MY", "AU", "HK", "PH", "ID", "CN")
_WRITTEN_AS_PHONE = re.compile(r"[ ().-]|^0[1-9]")
_BARE_DIGITS = re.compile(r"[0-9]+")


def _column_regions(values: pd.Series) -> list[str]:
    """Regions named by the column's own "+country code" values, commonest first."""
    codes: dict[str, int] = {}
    for value in values[values.str.match(r"(?:\+|00)[1-9]")].head(200):
        text = "+" + value[2:] if value.startswith("00") else value
        try:
            region = phonenumbers.region_code_for_number(phonenumbers.parse(text, None))
        except phonenumbers.NumberParseException:
            continue
        if region and region != "ZZ":
            codes[region] = codes.get(region, 0) + 1
    return sorted(codes, key=lambda r: -codes[r])


def _phone_regions(x: ColumnSample) -> tuple[pd.Series, dict[str, int]]:
    """Per distinct value the region it is a valid phone number of ('' if none), and how
    many distinct values each region took."""
    shaped = x.values.str.fullmatch(r"(?:\+|00)?[0-9 ().-]{7,22}") & ~x.values.str.fullmatch(
        r"[0-9]{1,4}[-/. ][0-9]{1,2}[-/. ][0-9]{1,4}"
    )
    regions = pd.Series("", index=x.values.index, dtype=object)
    tried = [r for r in _column_regions(x.values) if r != DEFAULT_REGION]
    tried += [r for r in _PHONE_REGIONS if r not in tried]
    bare: list[int] = []
    written = x.values.str.replace(r"^\(\+([0-9]{1,3})\)", r"+\1", regex=True)  # (+44) 20...
    shaped |= written.str.fullmatch(r"\+[0-9 ().-]{7,22}")
    for index, value in written[shaped].items():
        if is_phone(value, DEFAULT_REGION):
            regions[index] = DEFAULT_REGION
        elif _WRITTEN_AS_PHONE.search(value):
            regions[index] = next((r for r in tried if is_phone(value, r)), "")
        elif _BARE_DIGITS.fullmatch(value):
            bare.append(index)
    taken = regions[regions != ""].value_counts()
    shown = [r for r in taken.index if r != DEFAULT_REGION and taken[r] >= 2]
    if not shown and bare and x.share(regions != "") < THRESHOLD:
        shown = _one_region_of_bare_numbers(x, bare)
    for index in bare:  # a bare number: only the regions the column showed
        regions[index] = next((r for r in shown if is_phone(x.values[index], r)), "")
    return regions, regions[regions != ""].value_counts().to_dict()


def _one_region_of_bare_numbers(x: ColumnSample, bare: list[int]) -> list[str]:
    """The one region whose numbering plan at least 80% of the bare numbers (by rows)
    fit, as a column of Indian mobiles ('9820012345') or US numbers ('4159381277') does;
    random codes fit one region far less often (at most 64% for the US plan, 40% for
    India's mobiles)."""
    values = x.values[bare]
    weights = x.counts[bare]
    best, best_share = "", 0.0
    for region in _PHONE_REGIONS:
        valid = np.fromiter((is_phone(v, region) for v in values), bool, len(values))
        share = float(weights[valid].sum()) / float(weights.sum())
        if share > best_share:
            best, best_share = region, share
    return [best] if best_share >= THRESHOLD else []


def _common_prefix(values: pd.Series) -> int:
    low, high = min(values), max(values)
    return len(os.path.commonprefix([low, high]))


# Phone numbers held by this many rows each, on average, are codes: a person's number
# repeats over that person's few records, a product or batch code over many (issue 26: 40
# batch numbers over 2,000 rows; NDC drug codes 4-4-2 and order numbers 2-4-4, a few
# hundred over 2,000 rows, written like phone numbers).
_CODE_ROWS_PER_VALUE = 5


def _looks_like_codes(x: ColumnSample, phones: pd.Series, rows_per_value: float, n: int) -> str:
    """Why numbers that parse as phone numbers are more likely codes, or ''.

    Phone numbers of people are nearly all distinct and share no long prefix; batch,
    product or order numbers repeat over many rows and start alike: each distinct value
    on 5 rows or more on average (``rows_per_value`` over ``n`` rows, read on the whole
    sample), written as bare digits or as phone numbers are, or bare digits that all
    start with the same half of their digits."""
    bare = x.values[phones].str.fullmatch(_BARE_DIGITS.pattern)
    # written as phone numbers (separators, brackets, "+"): a shared prefix says nothing
    if x.share(phones.where(bare, False)) >= THRESHOLD * x.share(phones):
        digits = x.values[phones][bare]
        prefix = _common_prefix(digits)
        if len(digits) >= 10 and prefix * 2 >= digits.str.len().min():
            return f"all {len(digits)} distinct numbers start with the same {prefix} digits"
    if n >= 50 and rows_per_value >= _CODE_ROWS_PER_VALUE:
        return (
            f"only {n / rows_per_value:.0f} distinct values repeat over {n} sampled rows "
            f"({rows_per_value:.0f} rows each on average)"
        )
    return ""


def phone_evidence(s: ColumnSample) -> Evidence | None:
    """Phone numbers of any country, or codes that only look like them (see the module doc)."""
    if s.numeric and s.values.str.contains(".", regex=False).any():
        return None  # fractional numbers are measurements, not phone numbers
    x = s.quick or s
    regions, by_region = _phone_regions(x)
    phones = regions != ""
    share = x.share(phones)
    if share < THRESHOLD:
        return None
    codes = _looks_like_codes(x, phones, s.rows_per_value(), s.n)
    if codes:
        return Evidence(
            "code",
            share,
            f"{pct(share)} of sampled values parse as phone numbers, but {codes}, like "
            "batch, product or order numbers rather than people's phone numbers; check what "
            f"the column holds {STEP1}.",
            uncertain=True,
        )
    plus = x.share(x.values.str.match(r"\+|00"))
    countries = ", ".join(f"{r} {n}" for r, n in sorted(by_region.items(), key=lambda i: -i[1]))
    how = f"{pct(plus)} written with a country code"
    if plus < share:
        national = f"in national formats; distinct numbers by country: {countries}"
        how = f"{how}, the rest {national}" if plus else national
    if plus == 0 and set(by_region) == {DEFAULT_REGION}:
        how = "in the Singapore format (8 digits starting with 3, 6, 8 or 9, optionally +65)"
    # Bare runs of digits of another country's plan: account numbers look the same.
    bare = x.share(phones & x.values.str.fullmatch(_BARE_DIGITS.pattern))
    foreign_bare = bare >= THRESHOLD * share and set(by_region) - {DEFAULT_REGION}
    return Evidence(
        "phone",
        share,
        f"{pct(share)} of sampled values are valid phone numbers by libphonenumber's "
        f"numbering plans ({how}; {x.n} values parsed); a phone number is a direct "
        f"identifier {STEP1}"
        + (
            "; written as bare digits, which account numbers also are, so check."
            if foreign_bare
            else "."
        ),
        uncertain=bool(foreign_bare),
    )
