"""What a column's values look like: the value evidence of Step 1 ("Know your data").

:func:`value_evidence` reads a sample of a column's values (as stripped strings) and says
which kind of identifier most of them are, with the share and a plain sentence of
evidence ("92% of sampled values look like person names: ..."). A kind counts when at
least :data:`THRESHOLD` (80%) of sampled values are of that kind. Every check is done once
per *distinct* value, so a column of categories costs little whatever its length.

What is read, whatever the header (issue 26): names (lower case, after a title, first
names alone), NRIC/FIN also written with spaces, national IDs of several countries in one
column, phone numbers of any country (numbers written as phones are read with the
regions the column itself shows, then the users' common countries; numbers sharing half
their digits or repeating over many rows are codes, not phones), addresses of the common
English-speaking forms in any case, dates (spanning a lifetime: dates of birth), and the
quasi-identifiers of :mod:`core.detect.quasi` (age, year of birth, gender, country, job
title, place, postal code). Evidence that fits two kinds comes back ``uncertain``.

The sample bounds the error of each share: with n sampled values, the true share differs
from the sampled one by more than sqrt(ln(2/0.05) / (2n)) with probability at most 5%
(Hoeffding's inequality): +/-1.9 points for n = 5,000 (the default of
:func:`core.schema.suggest_roles`), +/-4.3 points for n = 1,000.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd

from core.dates import LOCAL_MONTH_NAMES, english_month_names, two_digit_years_not_after
from core.detect.addresses import ADDRESS
from core.detect.bare_ssn import bare_ssn_evidence
from core.detect.column_phones import phone_evidence
from core.detect.evidence import THRESHOLD, Evidence, pct
from core.detect.lexicon import name_lists
from core.detect.name_cells import name_shares, non_latin_script
from core.detect.name_words import RELATIONS
from core.detect.national_ids import NATIONAL_ID_SHAPES
from core.detect.patterns import PATTERNS, fast_fullmatch, full_match_mask
from core.detect.phones import phone_share
from core.detect.quasi import (
    age_evidence,
    birth_year_evidence,
    country_evidence,
    gender_evidence,
    occupation_evidence,
    occupation_words,
    place_evidence,
    postal_evidence,
)
from core.detect.sample import ColumnSample, hoeffding_margin
from core.detect.text import scan_values
from core.detect.world_ids import UNCHECKED_WORLD_IDS, WORLD_ID_NAMES, WORLD_ID_SHAPES
from core.identifiers import NRIC_PATTERN

__all__ = ["THRESHOLD", "Evidence", "hoeffding_margin", "value_evidence"]

# Mixed columns: identifying kinds that together reach THRESHOLD, each at least this much.
_MIXED_PART = 0.2
# A code of letters and digits (both required, checked apart: RE2 has no lookaheads).
_CODE = r"[A-Z0-9][A-Z0-9/-]{3,18}[A-Z0-9]"
_DATE_SHAPES = (
    r"[0-9]{1,4}[-/.][0-9]{1,2}[-/.][0-9]{1,4}(?:[ T][0-9:.]+)?"
    r"|[0-9]{1,2} [A-Za-z]{3,9},? [0-9]{4}|[0-9]{1,2}-[A-Za-z]{3,9}-[0-9]{2,4}"
    r"|[A-Za-z]{3,9} [0-9]{1,2},? [0-9]{4}"
    # other languages: "5. März 1990", "1er février 1990", "5 de mayo de 1990"
    r"|(?:[0-9]{1,2}\.?|1er) (?:de )?\pL{3,10}\.?,? (?:del? )?[0-9]{4}"
)
_STEP1 = "(PDPC guide, Step 1)"


def _code_mask(upper: pd.Series) -> pd.Series:
    """Codes of letters *and* digits (MRN1234567A, AC-20391): near-unique ones are IDs."""
    return (
        fast_fullmatch(upper, _CODE)
        & upper.str.contains("[0-9]", regex=True)
        & upper.str.contains("[A-Z]", regex=True)
    )


_pct = pct


def value_evidence(text: pd.Series, sample: pd.Series) -> Evidence | None:
    """What the sampled values look like, judged on the values only (no column name).

    ``text`` holds the sampled values as stripped strings, ``sample`` the same values in
    their own type (numbers, dates). Returns None when no kind reaches the threshold.
    """
    if len(text) == 0:
        return None
    numeric = pd.api.types.is_numeric_dtype(sample) or pd.api.types.is_bool_dtype(sample)
    s = ColumnSample(text, numeric=numeric)
    checks = (
        _nric,
        _simple("email", "are email addresses; an email address is a direct identifier"),
        _simple("url", "are web addresses (URLs), HIPAA identifier N"),
        _simple(
            "ipv4",
            "are IPv4 addresses (four numbers of 0-255); an IP address is an indirect identifier",
        ),
        _simple("ipv6", "are IPv6 addresses; an IP address is an indirect identifier"),
        _simple("mac", "are MAC (device) addresses, device identifiers (HIPAA M)"),
        _simple(
            "ssn",
            "are US social security numbers (valid area, group and serial); a "
            "national identity number is a direct identifier",
        ),
        _simple(
            "nino",
            "are UK National Insurance numbers (allocated prefixes); a national "
            "identity number is a direct identifier",
        ),
        _national_ids,
        bare_ssn_evidence,  # after the national IDs: a column of TFNs (9 digits) is theirs
        _registered,
        _plate,
        phone_evidence,
        _simple(
            "postal_code",
            "are 6-digit numbers, the shape of a Singapore postal code "
            "(other 6-digit codes look the same, so check); a postal code is an indirect "
            "identifier",
            uncertain=True,
        ),
        _simple(
            "money",
            "are dollar amounts; amounts such as salary or purchases are usually target attributes",
        ),
    )
    for check in (*checks, _postal, _birth_year, _age):
        found = check(s)
        if found is not None:
            return found
    if pd.api.types.is_datetime64_any_dtype(sample):
        return _dates_evidence(pd.Series(sample.dropna().unique()), 1.0)
    if not numeric:
        checks = (
            _date,
            _day_month,
            _image,
            _coordinates,
            _address,
            _name,
            _gender,
            _country,
            _occupation,
            _place,
            _code,
            _mixed,
        )
        for check in checks:
            found = check(s)
            if found is not None:
                return found
    return None


def _postal(s: ColumnSample) -> Evidence | None:
    return postal_evidence(s.values, s.counts, numeric=s.numeric)


def _birth_year(s: ColumnSample) -> Evidence | None:
    return birth_year_evidence(s.values, s.counts)


def _age(s: ColumnSample) -> Evidence | None:
    return age_evidence(s.values, s.counts)


def _gender(s: ColumnSample) -> Evidence | None:
    return gender_evidence(s.values, s.counts)


def _country(s: ColumnSample) -> Evidence | None:
    return country_evidence(s.values, s.counts)


def _place(s: ColumnSample) -> Evidence | None:
    return place_evidence(s.values, s.counts)


def _occupation(s: ColumnSample) -> Evidence | None:
    return occupation_evidence(s.values, s.counts)


def _simple(kind: str, what: str, *, uncertain: bool = False):
    def check(s: ColumnSample) -> Evidence | None:
        share = s.measure(lambda x: x.kind(kind))
        if share >= THRESHOLD:
            reason = f"{_pct(share)} of sampled values {what} {_STEP1}."
            return Evidence(kind, share, reason, uncertain=uncertain)
        return None

    return check


def _compact(upper: pd.Series) -> pd.Series:
    """'S 1234567 D', 'S-1234567-D' -> 'S1234567D' (identifiers written with separators)."""
    return upper.str.replace(r"[\s.-]+", "", regex=True)


def _nric(s: ColumnSample) -> Evidence | None:
    shape = NRIC_PATTERN.strip("^$")
    shaped = s.measure(lambda x: x.share(fast_fullmatch(_compact(x.upper), shape)))
    if shaped < THRESHOLD:
        return None
    valid = s.kind("nric", _compact(s.upper))
    if valid >= THRESHOLD:
        return Evidence(
            "nric",
            valid,
            f"{_pct(valid)} of sampled values are NRIC/FIN numbers with a valid check letter; "
            f"NRIC/FIN numbers are direct identifiers {_STEP1}.",
        )
    if s.rows_per_value() >= _UNCHECKED_ROWS_PER_VALUE:
        return _repeated_code(
            s,
            shaped,
            f"have the shape of an NRIC/FIN number but only {_pct(valid)} a correct check letter",
        )
    if shaped >= THRESHOLD:
        return Evidence(
            "identifier_like",
            shaped,
            f"{_pct(shaped)} of sampled values have the shape of an NRIC/FIN number but only "
            f"{_pct(valid)} have a correct check letter, so they may be test, masked or "
            "mistyped numbers; treat the column as a direct identifier until checked "
            f"{_STEP1}.",
        )
    return None


# National ID shapes no check digit confirms: any 12 digits written 4-4-4 fit PhilSys.
_UNCHECKED_IDS = frozenset({"psn", *UNCHECKED_WORLD_IDS})
# Values of an identifier's shape held by this many rows each, on average, with no check
# to confirm them, are codes: see _repeated_code.
_UNCHECKED_ROWS_PER_VALUE = 2


def _repeated_code(s: ColumnSample, share: float, shape: str) -> Evidence:
    """Values of a personal identifier's shape that nothing confirms (no check digit, or
    check letters that fail) and that repeat: each distinct value on 2 rows or more on
    average, as a category's values are. An identifier of a person is unique to that
    person and near-unique in a table of people; a code many records share is a product,
    drug, lot or order code (issue 26: lot numbers 2024-0312-1942 read as PhilSys
    numbers). A number whose check confirms it (NRIC/FIN, NHS, Aadhaar...) stays an
    identifier however often it repeats: a table of visits repeats a patient's number."""
    return Evidence(
        "code",
        share,
        f"{_pct(share)} of sampled values {shape}, but {len(s.values)} distinct values "
        f"repeat over {s.n} sampled rows ({s.rows_per_value():.1f} rows each on average), "
        "like product, lot or order codes that many records share rather than one "
        f"person's identifier; check what the column holds {_STEP1}.",
        uncertain=True,
    )


_NATIONAL_IDS = {
    "nric": "NRIC/FIN",
    "ssn": "US SSN",
    "nino": "UK NINO",
    "mykad": "Malaysian MyKad",
    "nik": "Indonesian NIK",
    "psn": "PhilSys",
    "tfn": "Australian TFN",
    "medicare": "Australian Medicare",
    "hkid": "Hong Kong ID",
    "dni": "Spanish DNI/NIE",
    "nir": "French NIR",
    "nhs": "UK NHS",
    "aadhaar": "Indian Aadhaar",
    **WORLD_ID_NAMES,
}
# MyKad numbers written as 12 bare digits are read as such only when their birth dates
# span a generation: a lot or batch number that starts with its (recent) date also has a
# real date and, two times in three, a valid place code.
_MYKAD_SPAN_YEARS = 15


def _mykad_share(x: ColumnSample) -> float:
    valid = full_match_mask(x.values, "mykad")
    if not valid.any():
        return 0.0
    numbers = x.values[valid]
    bare = numbers.str.fullmatch("[0-9]{12}")
    if x.share(bare.reindex(x.values.index, fill_value=False)) >= x.share(valid) / 2:
        yy = numbers.str.slice(0, 2).astype(int)
        now = pd.Timestamp.today().year % 100
        years = yy.where(yy > now, yy + 100)  # 85 -> 85 (1985), 05 -> 105 (2005)
        if years.max() - years.min() < _MYKAD_SPAN_YEARS:
            return 0.0
    return x.share(valid)


def _national_ids(s: ColumnSample) -> Evidence | None:
    """A column of national identity numbers, of one country or of several (a table of
    people from Singapore, the US and the UK): each number valid for its country."""

    def shares(x: ColumnSample) -> dict[str, float]:
        compact = _compact(x.upper)
        found = {
            "nric": x.kind("nric", compact),
            "ssn": x.kind("ssn"),
            "nino": x.kind("nino", compact),
            "mykad": _mykad_share(x),
        }
        # Aadhaar before PhilSys (both 4-4-4; only Aadhaar has a check), NHS before
        # Medicare (both 10 digits): on a tie of shares the kind with the check is named.
        found["aadhaar"] = x.kind("aadhaar")
        found["nhs"] = x.kind("nhs")
        found.update({kind: x.kind(kind) for kind in ("nik", "psn", "tfn", "medicare")})
        found["hkid"] = x.kind("hkid", x.upper)
        found["dni"] = x.kind("dni", compact)
        found["nir"] = x.kind("nir", compact)
        found.update({kind: x.kind(kind) for kind in WORLD_ID_SHAPES})
        return found

    if s.measure(lambda x: sum(shares(x).values())) < THRESHOLD:
        return None
    found = {kind: share for kind, share in shares(s).items() if share > 0}
    total = sum(found.values())
    if total < THRESHOLD:
        return None
    # One kind that fills the column on its own is the column's kind: the others' shares
    # are numbers passing a second country's check by chance (1 Aadhaar number in 10
    # passes the NHS-like checks of another shape, every one the PhilSys shape).
    main = max(found, key=found.__getitem__)
    if found[main] >= THRESHOLD:
        found = {main: found[main]}
    if set(found) <= _UNCHECKED_IDS and s.rows_per_value() >= _UNCHECKED_ROWS_PER_VALUE:
        return _repeated_code(
            s, total, f"are {PATTERNS[main].description}, a shape without a check digit"
        )
    if len(found) == 1:
        ((kind, share),) = found.items()
        return Evidence(
            "national_id",
            share,
            f"{_pct(share)} of sampled values are {PATTERNS[kind].description}; a national "
            f"identity number is a direct identifier {_STEP1}.",
        )
    listed = ", ".join(f"{_pct(v)} {_NATIONAL_IDS[k]}" for k, v in found.items())
    return Evidence(
        "national_id",
        total,
        f"{_pct(total)} of sampled values are national identity numbers of several "
        f"countries, each valid for its country ({listed}); a national identity number is "
        f"a direct identifier {_STEP1}.",
    )


def _registered(s: ColumnSample) -> Evidence | None:
    for kind, pattern in list(PATTERNS.items()):
        if kind in _BUILTIN_CHECKED:
            continue
        share = s.measure(lambda x, kind=kind: x.kind(kind))
        if share >= THRESHOLD:
            return Evidence(
                kind,
                share,
                f"{_pct(share)} of sampled values are {pattern.description} (a registered "
                f"pattern); treat the column as a direct identifier {_STEP1}.",
            )
    return None


_BUILTIN_CHECKED = frozenset(
    {
        "nric",
        "email",
        "url",
        "ipv4",
        "ipv6",
        "mac",
        "ssn",
        "nino",
        *NATIONAL_ID_SHAPES,
        *WORLD_ID_SHAPES,
        "record_code",
        "vehicle_plate",
        "date",
        "age_over_89",  # free text only (a column of ages is age_evidence's)
        "postal_code",
        "money",
    }
)


def _plate(s: ColumnSample) -> Evidence | None:
    def compact(x: ColumnSample) -> pd.Series:
        return x.upper.str.replace(" ", "", regex=False)

    plate = s.measure(lambda x: x.kind("vehicle_plate", compact(x)))
    if plate < THRESHOLD:
        return None
    compact = compact(s)
    sg = s.share(fast_fullmatch(compact, r"S[A-Z]{1,2}[0-9]{1,4}[A-Z]"))
    where = (
        f"Singapore vehicle plate numbers ({_pct(sg)} start with S)"
        if sg >= THRESHOLD
        else "vehicle plate numbers (letters, up to 4 digits, a check letter)"
    )
    return Evidence(
        "vehicle_plate",
        plate,
        f"{_pct(plate)} of sampled values look like {where}; a vehicle plate number is an "
        f"indirect identifier {_STEP1}.",
    )


def _in_range(read: pd.Series) -> pd.Series:
    """Timestamps of the years 1700-2200, others NaT: "%Y" reads "8/8/25" as the year 25
    and a Thai Buddhist-era "04/08/2568" as 2568, outside a nanosecond timestamp's range
    (converted, they wrapped round to 1983)."""
    read = pd.to_datetime(read, errors="coerce")
    return read.where(read.dt.year.between(1700, 2200)).astype("datetime64[ns]")


def _parse_dates(values: pd.Series) -> pd.Series:
    """The values as timestamps (NaT where none): common formats first (fast), then any;
    Malay and Indonesian month names read as English ones."""
    written, values = values, english_month_names(values)
    parsed = pd.Series(pd.NaT, index=values.index, dtype="datetime64[ns]")
    formats = (
        "%Y-%m-%d",
        "%d/%m/%Y",
        "%Y-%m-%d %H:%M:%S",
        "%d-%m-%Y",
        "%m/%d/%Y",
        "%d %b %Y",
        "%d %B %Y",
        "%b %d, %Y",
        "%B %d, %Y",
        "%Y/%m/%d",
        "%d.%m.%Y",
        "%d-%b-%Y",
    )
    for fmt in formats:
        rest = values[parsed.isna()]
        if rest.empty:
            return parsed
        parsed[rest.index] = _in_range(pd.to_datetime(rest, format=fmt, errors="coerce"))
    rest = values[parsed.isna()]
    if not rest.empty:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mixed = pd.to_datetime(rest, errors="coerce", format="mixed", dayfirst=True)
        parsed[rest.index] = _in_range(mixed).to_numpy(dtype="datetime64[ns]")
    # 02/01/42 is read 2042 by pandas; as dates of birth or past events, 1942.
    return two_digit_years_not_after(written, parsed, pd.Timestamp.today().normalize(), events=True)


# Dates of birth: all in the past and spread over at least this many years (dates of
# events, admissions or purchases rarely span a lifetime).
_BIRTH_SPAN_YEARS = 30


def _dates_evidence(dates: pd.Series, share: float) -> Evidence:
    """'date', or 'date_of_birth' when the dates are all past and span a lifetime."""
    dates = pd.to_datetime(dates, errors="coerce").dropna()
    if not dates.empty:
        first, last = dates.min(), dates.max()
        span = (last - first).days / 365.25
        past = last <= pd.Timestamp.now() and first.year >= 1880
        if past and span >= _BIRTH_SPAN_YEARS:
            return Evidence(
                "date_of_birth",
                share,
                f"{_pct(share)} of sampled values are dates from {first.year} to {last.year}, "
                f"all in the past and spread over {span:.0f} years like dates of birth "
                "(dates of events rarely span a lifetime); a date of birth is an indirect "
                f"identifier {_STEP1}.",
            )
    return Evidence("date", share, f"{_pct(share)} of sampled values are dates")


def _date(s: ColumnSample) -> Evidence | None:
    def shaped(x: ColumnSample) -> pd.Series:
        return fast_fullmatch(x.values, _DATE_SHAPES)

    if s.measure(lambda x: x.share(shaped(x))) < THRESHOLD:
        return None
    mask = shaped(s)
    parsed = _parse_dates(s.values[mask]).reindex(s.values.index)
    dates = s.share(parsed.notna())
    if dates >= THRESHOLD:
        return _dates_evidence(parsed, dates)
    return None


_MONTH = (
    rf"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|"
    rf"june|july|august|september|october|november|december|{LOCAL_MONTH_NAMES})\.?"
)
# A day and a month without a year: "18 May", "May 18", "18th May", "18-May".
_DAY_MONTH = (
    rf"(?i:(?:[0-3]?[0-9])(?:st|nd|rd|th)?[ -]{_MONTH}|{_MONTH} [0-3]?[0-9](?:st|nd|rd|th)?)"
)


def _whole_value_evidence(s: ColumnSample, pattern: str, kind: str, holds: str) -> Evidence | None:
    """Evidence of ``kind`` when enough sampled values are, whole, of ``pattern``;
    ``holds`` completes the sentence "N% of sampled values are ..."."""
    share = s.measure(lambda x: x.share(fast_fullmatch(x.values, pattern)))
    if share < THRESHOLD:
        return None
    return Evidence(kind, share, f"{_pct(share)} of sampled values are {holds}")


def _day_month(s: ColumnSample) -> Evidence | None:
    """Days of the year without the year (birthdays, anniversaries): HIPAA Safe Harbor C
    removes every date element but the year, and these have nothing else."""
    return _whole_value_evidence(
        s,
        _DAY_MONTH,
        "day_month",
        "a day and a month without a year (such as '18 May'), like birthdays; a date of "
        f"birth, even without its year, is an indirect identifier {_STEP1}.",
    )


# "1.3521, 103.8198", "(40.7128, -74.0060)", "51.5074 -0.1278": a point written in one cell.
_COORDINATES = r"\(?\s*[-+]?[0-9]{1,2}\.[0-9]{3,}\s*[,; ]\s*[-+]?[0-9]{1,3}\.[0-9]{3,}\s*\)?"


def _coordinates(s: ColumnSample) -> Evidence | None:
    """Latitude and longitude in one cell, 3 decimals or more (111 m or finer): a GPS
    location (PDPC guide Annex B; HIPAA Safe Harbor B, geocodes)."""
    return _whole_value_evidence(
        s,
        _COORDINATES,
        "gps",
        "latitude and longitude pairs (3 decimals or more: 111 m or finer); a GPS location "
        f"is an indirect identifier and can point to a home {_STEP1}.",
    )


_IMAGE = r"(?i:.{1,300}\.(?:jpe?g|png|gif|bmp|tiff?|heic|webp)|data:image/[a-z+]+;base64,.*)"


def _image(s: ColumnSample) -> Evidence | None:
    """Names, paths or links of image files, or images inlined as data URIs: photographs
    of people are HIPAA Safe Harbor identifier Q."""
    return _whole_value_evidence(
        s,
        _IMAGE,
        "image",
        "image files or inlined images (.jpg, .png, data:image...); a photograph of a person "
        f"is a direct identifier (HIPAA Safe Harbor Q) {_STEP1}.",
    )


def _address_share(x: ColumnSample) -> float:
    lengths = x.values.str.len().clip(lower=1)
    # the whole match (column 0; the expression has named groups of its own)
    found = x.values.str.extract(f"({ADDRESS.pattern})", expand=True)[0]
    return x.share(found.str.len().fillna(0) / lengths >= 0.6)


# An address cell in any case and of the common English-speaking forms (US, UK, India,
# Singapore): it starts with a house, flat or block number and holds a street word, a
# unit number or a postal code. Read on the lower-cased cell.
_ADDRESS_START = re.compile(
    r"(?:(?:flat|apt|apartment|unit|suite|ste|blk|block|house|plot|door|villa|h|d|no)"
    r"\.?\s*(?:no\.?\s*)?[:#]?\s*|#\s*)?[a-z]{0,2}-?[0-9]"
)
_ADDRESS_MARK = re.compile(
    r"\b(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr|crescent|cres|close|way|boulevard|"
    r"blvd|place|pl|court|ct|terrace|walk|link|rise|view|grove|gardens|park|square|sq|"
    r"highway|hwy|parkway|pkwy|row|mews|hill|heights|loop|green|quay|circle|jalan|jln|"
    r"lorong|lor|marg|nagar|sector|colony|layout|cross|chowk|gali|enclave|vihar|"
    r"estate|ring|ctr|centre|center)\b\.?"
    r"|#[0-9]{1,3}-[0-9]{1,5}|\b(?:apt|flat|unit|suite)\b"
    r"|(?:\b[0-9]{5}(?:-[0-9]{4})?|\b[0-9]{6}|\b[0-9]{3} [0-9]{3}|\b[a-z]{1,2}[0-9][a-z0-9]? ?"
    r"[0-9][a-z]{2})\s*$"
)


def _address_cue_share(x: ColumnSample) -> float:
    lower = x.values.str.lower()
    words = lower.str.count(r"\S+")
    mask = (
        lower.str.match(_ADDRESS_START.pattern)
        & lower.str.contains(_ADDRESS_MARK.pattern, regex=True)
        & words.between(3, 25)
    )
    return x.share(mask)


def _address(s: ColumnSample) -> Evidence | None:
    share = s.measure(lambda x: max(_address_share(x), _address_cue_share(x)))
    if share >= THRESHOLD:
        return Evidence(
            "address",
            share,
            f"{_pct(share)} of sampled values are street addresses (a house, flat or block "
            "number, a street name or a unit number like #09-57, optionally a town and a "
            "postal code); an address is an indirect identifier, a full address can "
            f"identify a household {_STEP1}.",
        )
    return None


# A form of address before a name ("Mr John Smith", "Dr. Priya Raman", "Mdm Tan"): a
# name column often carries one, and it is not part of the name's shape.
_TITLE = re.compile(
    r"^(?:mr|mrs|ms|mdm|miss|madam|mister|dr|prof|sir|dame|rev|fr|encik|puan|cik|tuan|"
    r"haji|hajjah|shri|smt|sri|kumari)\.?\s+",
    re.IGNORECASE,
)


# The relation a next-of-kin or contact cell notes beside the name: "tan ah kow (father)",
# "wife - priya ramasamy", "siti binte osman, mother", "son in law: ravi".
_RELATION = rf"(?:{RELATIONS})(?:[ -]in[ -]law)?"
_RELATION_NOTE = re.compile(
    rf"^\s*{_RELATION}\s*[-–:/,]\s*|\s*(?:[-–:/,;]\s*\(?|\()\s*{_RELATION}\s*\)?\.?\s*$",
    re.IGNORECASE,
)


# Accents and tone marks (combining marks once a letter is decomposed) and the Vietnamese
# d with stroke, which the name shapes and lists do not hold: "Trần Thị Hoa" is read as
# "Tran Thi Hoa".
_MARKS = re.compile("[\u0300-\u036f]")


def _without_marks(values: pd.Series) -> pd.Series:
    """Values with letters beyond ASCII read without their marks (only those values)."""
    marked = values.str.contains("[^\x00-\x7f]", regex=True)
    if not marked.any():
        return values
    plain = (
        values[marked]
        .str.normalize("NFKD")
        .str.replace(_MARKS, "", regex=True)
        .str.replace("đ", "d", regex=False)
        .str.replace("Đ", "D", regex=False)
    )
    return values.where(~marked, plain)


def _titled(values: pd.Series) -> pd.Series:
    """Values as a name column's cells are read: a leading form of address and a noted
    relation dropped, accents and tone marks left out, and cells written all in lower
    case title-cased ('tan wei ling' -> 'Tan Wei Ling'), so that the name shapes, which
    look for capitals, read them too."""
    values = values.str.replace(_TITLE, "", regex=True).str.replace(_RELATION_NOTE, "", regex=True)
    values = _without_marks(values)
    lower = values.str.lower() == values
    # each word's first letter only: "yi-xiang" -> "Yi-xiang", as such names are written
    capitalised = values.str.replace(r"(?:^|(?<=\s))[a-z]", lambda m: m.group().upper(), regex=True)
    return values.where(~lower, capitalised)


_ONE_NAME = re.compile(r"[A-Z][a-z'’-]+|[A-Z][A-Z'’-]+")


def _first_name_shares(values: pd.Series, counts: pd.Series) -> tuple[float, float, int]:
    """A column of given names alone ('Priya', 'Wei Ling', 'John'): shares of rows that
    are 1-3 name-shaped words with no street, place, organisation or occupation word, and
    of rows holding a listed name that is not also an everyday word; distinct names."""
    lists = name_lists()
    jobs = occupation_words()
    shaped = np.zeros(len(values), dtype=bool)
    known = np.zeros(len(values), dtype=bool)
    for i, value in enumerate(values):
        words = [w.lower() for w in value.split()]
        if not 1 <= len(words) <= 3 or not all(_ONE_NAME.fullmatch(w) for w in value.split()):
            continue
        if any(w in lists.not_name or w in jobs for w in words):
            continue
        shaped[i] = True
        known[i] = any(w in lists.known and w not in lists.ambiguous for w in words)
    total = float(counts.sum())
    weights = counts.to_numpy()
    return (
        float(weights[shaped].sum()) / total,
        float(weights[known].sum()) / total,
        int(shaped.sum()),
    )


def _name(s: ColumnSample) -> Evidence | None:
    def shares(x: ColumnSample) -> tuple[float, float]:
        return name_shares(_titled(x.values), x.counts)

    known, shape = shares(s.quick or s) if s.quick is not None else (1.0, 0.0)
    if s.quick is None or known + shape >= THRESHOLD - hoeffding_margin(s.quick.n):
        known, shape = shares(s)
    if known + shape >= THRESHOLD and known >= 0.3:
        parts = [f"{_pct(known)} hold a known given or family name"]
        if shape:
            parts.append(f"{_pct(shape)} more have the shape of a name")
        return Evidence(
            "name",
            known + shape,
            f"{_pct(known + shape)} of sampled values look like person names "
            f"({'; '.join(parts)}: 1-4 words, with bin/binte/s/o/d/o allowed, "
            "no street, place or organisation word); a name is a direct identifier "
            f"{_STEP1}.",
        )
    shaped, listed, distinct = _first_name_shares(_titled(s.values), s.counts)
    if shaped >= THRESHOLD and listed >= 0.3 and distinct >= 5:
        return Evidence(
            "name",
            shaped,
            f"{_pct(shaped)} of sampled values are one to three name-shaped words "
            f"({distinct} distinct; {_pct(listed)} hold a known given or family name), like "
            "first names alone; a name, even a first name, is a direct identifier "
            f"{_STEP1}.",
        )
    return None


def _code(s: ColumnSample) -> Evidence | None:
    share = s.measure(lambda x: x.share(_code_mask(x.upper)))
    distinct = len(s.values) / s.n if s.n else 0.0
    if share >= THRESHOLD and distinct >= 0.9:
        return Evidence(
            "identifier_like",
            share,
            f"{_pct(share)} of sampled values are codes of letters and digits and "
            f"{_pct(distinct)} are distinct, like medical record, account or licence numbers; "
            f"a code like this is a direct identifier {_STEP1}.",
        )
    return None


def _mixed(s: ColumnSample) -> Evidence | None:
    """No kind reaches the threshold alone, but identifying kinds together do."""
    x = s.quick or s
    known, shape = name_shares(x.values, x.counts)
    parts = {
        "names": known + shape,
        "emails": x.kind("email"),
        "phone numbers": phone_share(x.values, x.counts),
        "NRIC/FIN numbers": x.kind("nric", x.upper),
        "letter-and-digit codes": x.share(_code_mask(x.upper)),
    }
    big = {what: share for what, share in parts.items() if share >= _MIXED_PART}
    total = sum(big.values())
    if len(big) >= 2 and total >= THRESHOLD:
        listed = ", ".join(f"{_pct(v)} {k}" for k, v in sorted(big.items(), key=lambda x: -x[1]))
        return Evidence(
            "mixed",
            min(total, 1.0),
            f"The column mixes identifiers ({listed} of sampled values); each of them is a "
            f"direct identifier, so treat the whole column as one {_STEP1}.",
        )
    return None


def free_text_findings(text: pd.Series, limit: int = 200) -> str:
    """A short account of the entities found in (the first ``limit`` of) sampled texts."""
    head = text.head(limit).str.slice(0, 10_000)
    if head.empty:
        return ""
    table = scan_values(head)
    if table.empty:
        return f"the scanner found no name, email, phone or ID in {len(head)} sampled values"
    parts = [
        f"{row.kind.replace('_', ' ')} in {_pct(row.cells / len(head))}"
        for row in table.sort_values("cells", ascending=False).itertuples()
    ]
    return f"in {len(head)} sampled values the scanner found: {', '.join(parts)}"


def script_note(text: pd.Series) -> str:
    """A sentence when most values are written in a non-Latin script, else ''."""
    found = non_latin_script(text)
    if found is None or found[1] < 0.5:
        return ""
    script, share = found
    han = " (names of 2-4 Chinese characters are recognised)" if "Chinese" in script else ""
    return (
        f"{_pct(share)} of sampled values are written in {script}; person names and "
        f"addresses in this script are not recognised{han}, so check the column by hand."
    )
