"""What a column's values look like: the value evidence of Step 1 ("Know your data").

:func:`value_evidence` reads a sample of a column's values (as stripped strings) and says
which kind of identifier most of them are, with the share and a plain sentence of
evidence ("92% of sampled values look like person names: ..."). A kind counts when at
least :data:`THRESHOLD` (80%) of sampled values are of that kind. Every check is done once
per *distinct* value, so a column of categories costs little whatever its length.

The sample bounds the error of each share: with n sampled values, the true share differs
from the sampled one by more than sqrt(ln(2/0.05) / (2n)) with probability at most 5%
(Hoeffding's inequality): +/-1.9 points for n = 5,000 (the default of
:func:`core.schema.suggest_roles`), +/-4.3 points for n = 1,000.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import pandas as pd

from core.detect.addresses import ADDRESS
from core.detect.names import name_shares, non_latin_script
from core.detect.patterns import PATTERNS, fast_fullmatch, full_match_share
from core.detect.phones import phone_share
from core.detect.text import scan_values
from core.identifiers import NRIC_PATTERN

__all__ = ["THRESHOLD", "Evidence", "hoeffding_margin", "value_evidence"]

THRESHOLD = 0.8
# Mixed columns: identifying kinds that together reach THRESHOLD, each at least this much.
_MIXED_PART = 0.2
# Cells longer than this are cut for classification (whole-cell shapes are short).
_CLASSIFY_CHARS = 2_000
# A code of letters and digits (both required, checked apart: RE2 has no lookaheads).
_CODE = r"[A-Z0-9][A-Z0-9/-]{3,18}[A-Z0-9]"
_DATE_SHAPES = (
    r"[0-9]{1,4}[-/.][0-9]{1,2}[-/.][0-9]{1,4}(?:[ T][0-9:.]+)?"
    r"|[0-9]{1,2} [A-Za-z]{3,9},? [0-9]{4}"
    r"|[A-Za-z]{3,9} [0-9]{1,2},? [0-9]{4}"
)
_STEP1 = "(PDPC guide, Step 1)"


def hoeffding_margin(n: int, confidence: float = 0.95) -> float:
    """Half-width of a Hoeffding interval for a share estimated from ``n`` samples."""
    return math.sqrt(math.log(2 / (1 - confidence)) / (2 * n)) if n else 1.0


@dataclass(frozen=True)
class Evidence:
    """What the sampled values look like: a kind, its share and the sentence saying so."""

    kind: str
    share: float
    reason: str


def _code_mask(upper: pd.Series) -> pd.Series:
    """Codes of letters *and* digits (MRN1234567A, AC-20391): near-unique ones are IDs."""
    return (
        fast_fullmatch(upper, _CODE)
        & upper.str.contains("[0-9]", regex=True)
        & upper.str.contains("[A-Z]", regex=True)
    )


def _pct(share: float) -> str:
    return f"{share:.0%}"


# Each check runs first on the first _QUICK sampled values; a column whose share there is
# below THRESHOLD by more than the Hoeffding margin is rejected without the full sample.
_QUICK = 500
# Phone numbers are parsed by libphonenumber (slow): their share is read on the quick sample.


class _Sample:
    """Distinct stripped values with their counts (work is done once per distinct value)."""

    def __init__(self, text: pd.Series, *, numeric: bool = False, quick: bool = True) -> None:
        text = text.str.slice(0, _CLASSIFY_CHARS)
        counts = text.value_counts(sort=False)
        self.n = int(len(text))
        self.numeric = numeric
        self.values = pd.Series(counts.index.astype(str), dtype="str")
        self.counts = pd.Series(counts.to_numpy(), index=self.values.index)
        self.upper = self.values.str.upper()
        self.quick = (
            _Sample(text.iloc[:_QUICK], numeric=numeric, quick=False)
            if quick and self.n > 2 * _QUICK
            else None
        )

    def share(self, mask: pd.Series) -> float:
        mask = mask.fillna(False).astype(bool).to_numpy()
        return float(self.counts[mask].sum()) / self.n if self.n else 0.0

    def kind(self, kind: str, values: pd.Series | None = None) -> float:
        target = self.values if values is None else values
        return full_match_share(target, self.counts, kind)

    def measure(self, share_of, threshold: float = THRESHOLD) -> float:
        """``share_of(sample)``, on the quick sample first when that settles it."""
        if self.quick is not None:
            quick = share_of(self.quick)
            if quick < threshold - hoeffding_margin(self.quick.n):
                return quick
        return share_of(self)


def value_evidence(text: pd.Series, sample: pd.Series) -> Evidence | None:
    """What the sampled values look like, judged on the values only (no column name).

    ``text`` holds the sampled values as stripped strings, ``sample`` the same values in
    their own type (numbers, dates). Returns None when no kind reaches the threshold.
    """
    if len(text) == 0:
        return None
    numeric = pd.api.types.is_numeric_dtype(sample) or pd.api.types.is_bool_dtype(sample)
    s = _Sample(text, numeric=numeric)
    checks = (
        _nric,
        _simple("email", "are email addresses; an email address is a direct identifier"),
        _simple("url", "are web addresses (URLs), HIPAA identifier N"),
        _simple(
            "ipv4",
            "are IPv4 addresses (four numbers of 0-255); an IP address is an indirect identifier",
        ),  # fmt: skip
        _simple("ipv6", "are IPv6 addresses; an IP address is an indirect identifier"),
        _simple("mac", "are MAC (device) addresses, device identifiers (HIPAA M)"),
        _simple(
            "ssn",
            "are US social security numbers (valid area, group and serial); a "
            "national identity number is a direct identifier",
        ),  # fmt: skip
        _simple(
            "nino",
            "are UK National Insurance numbers (allocated prefixes); a national "
            "identity number is a direct identifier",
        ),  # fmt: skip
        _registered,
        _plate,
        _phone,
        _simple(
            "postal_code",
            "are 6-digit numbers, the shape of a Singapore postal code "
            "(other 6-digit codes look the same, so check); a postal code is an indirect "
            "identifier",
        ),  # fmt: skip
        _simple(
            "money",
            "are dollar amounts; amounts such as salary or purchases are usually target attributes",
        ),  # fmt: skip
    )
    for check in checks:
        found = check(s)
        if found is not None:
            return found
    if pd.api.types.is_datetime64_any_dtype(sample):
        return Evidence("date", 1.0, "the column holds dates")
    if not numeric:
        for check in (_date, _address, _name, _code, _mixed):
            found = check(s)
            if found is not None:
                return found
    return None


def _simple(kind: str, what: str):
    def check(s: _Sample) -> Evidence | None:
        share = s.measure(lambda x: x.kind(kind))
        if share >= THRESHOLD:
            return Evidence(kind, share, f"{_pct(share)} of sampled values {what} {_STEP1}.")
        return None

    return check


def _nric(s: _Sample) -> Evidence | None:
    shaped = s.measure(lambda x: x.share(fast_fullmatch(x.upper, NRIC_PATTERN.strip("^$"))))
    if shaped < THRESHOLD:
        return None
    valid = s.kind("nric", s.upper)
    if valid >= THRESHOLD:
        return Evidence(
            "nric",
            valid,
            f"{_pct(valid)} of sampled values are NRIC/FIN numbers with a valid check letter; "
            f"NRIC/FIN numbers are direct identifiers {_STEP1}.",
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


def _registered(s: _Sample) -> Evidence | None:
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
    {"nric", "email", "url", "ipv4", "ipv6", "mac", "ssn", "nino", "record_code",
     "vehicle_plate", "date", "postal_code", "money"}
)  # fmt: skip


def _plate(s: _Sample) -> Evidence | None:
    def compact(x: _Sample) -> pd.Series:
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


def _phone(s: _Sample) -> Evidence | None:
    if s.numeric and s.values.str.contains(".", regex=False).any():
        return None  # fractional numbers are measurements, not phone numbers
    x = s.quick or s
    share = phone_share(x.values, x.counts)
    if share < THRESHOLD:
        return None
    plus = x.share(x.values.str.match(r"\+|00"))
    how = (
        f"{_pct(plus)} written with a country code"
        if plus
        else "in the Singapore format (8 digits starting with 3, 6, 8 or 9, optionally +65)"
    )
    return Evidence(
        "phone",
        share,
        f"{_pct(share)} of sampled values are valid phone numbers by libphonenumber's "
        f"numbering plans ({how}; {x.n} values parsed); a phone number is a direct "
        f"identifier {_STEP1}.",
    )


def _parses_as_date(values: pd.Series) -> pd.Series:
    """Which values parse as dates: common formats first (fast), then any format."""
    parsed = pd.Series(False, index=values.index)
    formats = ("%Y-%m-%d", "%d/%m/%Y", "%Y-%m-%d %H:%M:%S", "%d-%m-%Y", "%m/%d/%Y", "%d %b %Y",
               "%d %B %Y", "%b %d, %Y", "%B %d, %Y", "%Y/%m/%d", "%d.%m.%Y")  # fmt: skip
    for fmt in formats:
        rest = values[~parsed]
        if rest.empty:
            return parsed
        parsed[rest.index] = pd.to_datetime(rest, format=fmt, errors="coerce").notna()
    rest = values[~parsed]
    if not rest.empty:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mixed = pd.to_datetime(rest, errors="coerce", format="mixed", dayfirst=True)
        parsed[rest.index] = mixed.notna()
    return parsed


def _date(s: _Sample) -> Evidence | None:
    def shaped(x: _Sample) -> pd.Series:
        return fast_fullmatch(x.values, _DATE_SHAPES)

    if s.measure(lambda x: x.share(shaped(x))) < THRESHOLD:
        return None
    mask = shaped(s)
    dates = s.share(_parses_as_date(s.values[mask]).reindex(s.values.index, fill_value=False))
    if dates >= THRESHOLD:
        return Evidence("date", dates, f"{_pct(dates)} of sampled values are dates")
    return None


def _address_share(x: _Sample) -> float:
    lengths = x.values.str.len().clip(lower=1)
    found = x.values.str.extract(f"({ADDRESS.pattern})", expand=False)
    return x.share(found.str.len().fillna(0) / lengths >= 0.6)


def _address(s: _Sample) -> Evidence | None:
    share = s.measure(_address_share)
    if share >= THRESHOLD:
        return Evidence(
            "address",
            share,
            f"{_pct(share)} of sampled values are street addresses (a house or block number, "
            "a street name, optionally a unit number like #09-57 and a postal code); an "
            f"address is an indirect identifier, a full address can identify a household "
            f"{_STEP1}.",
        )
    return None


def _name(s: _Sample) -> Evidence | None:
    if s.measure(lambda x: sum(name_shares(x.values, x.counts))) < THRESHOLD:
        return None
    known, shape = name_shares(s.values, s.counts)
    if known + shape >= THRESHOLD and known >= 0.3:
        parts = [f"{_pct(known)} hold a known given or family name"]
        if shape:
            parts.append(f"{_pct(shape)} more have the shape of a name")
        return Evidence(
            "name",
            known + shape,
            f"{_pct(known + shape)} of sampled values look like person names "
            f"({'; '.join(parts)}: 1-4 capitalised words, with bin/binte/s/o/d/o allowed, "
            "no street, place or organisation word); a name is a direct identifier "
            f"{_STEP1}.",
        )
    return None


def _code(s: _Sample) -> Evidence | None:
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


def _mixed(s: _Sample) -> Evidence | None:
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
