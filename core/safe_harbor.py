"""HIPAA Safe Harbor preset: remove or transform the 18 kinds of identifiers it recognises.

The Safe Harbor method of the HIPAA Privacy Rule (45 CFR 164.514(b)(2), summarised in the
health-data seed article and NIST SP 800-188 4.3.4) is a checklist: remove 18 kinds of
identifiers (A-R below), with three transformations allowed instead of removal:

- ZIP codes: keep the first 3 digits, or "000" when the 3-digit area has 20,000 people or
  fewer (:data:`RESTRICTED_ZIP3`);
- dates directly related to a person: keep the year only; and for anyone aged 90 or over
  the year of birth is suppressed too ("any date elements indicative of such an age");
- ages: 90 and over become one category, "90+".

Columns are recognised from their names and values, reusing the evidence of
:func:`core.schema.suggest_roles` (whose value detectors in :mod:`core.detect` find names,
phone numbers, addresses, emails, SSNs, URLs... whatever the header says, so a column
``c1`` of names is removed like a column ``patient_name``) plus names Safe Harbor adds
(SSN, medical record, health plan, fax, URL, licence, device, biometric, photo). Free
text is *redacted* by default: the scanner of :mod:`core.detect.text` replaces the names,
emails, phone numbers, IDs, addresses, dates, URLs and IP addresses inside it with
``[NAME]``, ``[EMAIL]``... (``free_text="remove"`` drops the column, ``"flag"`` keeps it
unchecked). A tool cannot prove compliance: detection is not perfect, so every column is
listed with what was done, and a person reviews the result. Safe Harbor also requires
that the covered entity has no actual knowledge that the rest could identify someone.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.dates import _parse, _reference, ages_at
from core.detect.patterns import BUILTIN_KINDS, PATTERNS
from core.detect.text import redact_and_count
from core.errors import ParameterError
from core.schema import Suggestion, suggest_roles
from core.validation import require_choice, require_columns

#: The 18 identifier kinds, 45 CFR 164.514(b)(2)(i)(A)-(R).
IDENTIFIERS: dict[str, str] = {
    "A": "Names",
    "B": "Geographic subdivisions smaller than a state (address, city, county, ZIP, geocodes)",
    "C": "Dates (except year) related to a person; ages over 89",
    "D": "Telephone numbers",
    "E": "Fax numbers",
    "F": "Email addresses",
    "G": "Social security (national identity) numbers",
    "H": "Medical record numbers",
    "I": "Health plan beneficiary numbers",
    "J": "Account numbers",
    "K": "Certificate/license numbers",
    "L": "Vehicle identifiers and serial numbers, including license plates",
    "M": "Device identifiers and serial numbers",
    "N": "Web URLs",
    "O": "IP addresses",
    "P": "Biometric identifiers, including finger and voice prints",
    "Q": "Full-face photographs and comparable images",
    "R": "Any other unique identifying number, characteristic or code",
}

#: 3-digit ZIP areas with 20,000 people or fewer: recoded to "000".
RESTRICTED_ZIP3 = frozenset(
    {"036", "059", "102", "203", "205", "369", "556", "692", "753", "772", "821", "823",
     "878", "879", "884", "890", "893"}
)  # fmt: skip
TOP_AGE = 90
AGE_LABEL = "90+"
POSTAL_MODES = ("auto", "zip3", "remove")
FREE_TEXT_MODES = ("redact", "remove", "flag")

# Kinds found by core.schema.suggest_roles -> Safe Harbor identifier letter.
_KIND_LETTER = {
    "name": "A",
    "address": "B",
    "gps": "B",
    "postal_code": "B",
    "date_of_birth": "C",
    "date": "C",
    "phone": "D",
    "email": "F",
    "nric": "G",
    "ssn": "G",
    "nino": "G",
    "account_number": "J",
    "id_number": "K",
    "vehicle_plate": "L",
    "iu_number": "M",
    "mac": "M",
    "url": "N",
    "ipv4": "O",
    "ipv6": "O",
    "ip_address": "O",
    "passport": "R",
    "username": "R",
    "identifier_like": "R",
    "near_unique": "R",
    "mixed": "R",
}
# Names Safe Harbor adds to the schema's hints (checked first, on lower-case words).
_NAME_HINTS: list[tuple[str, str]] = [
    ("G", r"ssn|social_security(_\w+)?|national_id\w*"),
    ("H", r"mrn|medical_record\w*|patient_(id|no|number)|hospital_(id|no|number)|case_no"),
    ("I", r"health_plan\w*|beneficiary\w*|member_(id|no|number)|insurance_(id|no|number)"),
    ("E", r"fax(_?(no|num|number))?"),
    ("N", r"url|urls|website|web_?page|homepage|link"),
    ("K", r"licen[cs]e\w*|certificate\w*|cert_(no|number)"),
    ("M", r"device\w*|serial\w*|imei|mac_?address|udid"),
    ("P", r"biometric\w*|fingerprint\w*|finger_print|retina\w*|iris|voice_?print\w*"),
    ("Q", r"photo\w*|image\w*|picture\w*|portrait|selfie|face\w*"),
    ("B", r"city|county|town|street|precinct|district|neighbo(u)?rhood|geocode"),
]
_NAME_PATTERNS = [(letter, re.compile(rf"(?:^|_)(?:{rx})(?:_|$)")) for letter, rx in _NAME_HINTS]
_ZIP_NAME = re.compile(r"(?:^|_)(?:zip\w*|zip_?code\w*)(?:_|$)")
_AGE_NAME = re.compile(r"(?:^|_)(?:age|age_\w+|\w+_age|years?_old)(?:_|$)")
_US_ZIP = re.compile(r"\d{5}(?:-\d{4})?")


def _words(column: object) -> str:
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", str(column))
    return "_".join(re.findall(r"[a-z0-9]+", text.lower()))


@dataclass(frozen=True)
class SafeHarborColumn:
    """What the preset did to one column."""

    column: str
    identifier: str  # "C: Dates ..." or "" when none was recognised
    action: str  # removed, zip3, year, top_coded, kept, not_checked, excluded
    changed: int  # values changed (all non-missing values for a removed column)
    detail: str


@dataclass(frozen=True, eq=False)
class SafeHarborResult:
    """The transformed table and a per-column account of what was (not) done."""

    data: pd.DataFrame
    columns: tuple[SafeHarborColumn, ...]
    reference_date: str

    @property
    def unchecked(self) -> tuple[str, ...]:
        """Columns the preset could not check (free text): review them by hand."""
        return tuple(c.column for c in self.columns if c.action == "not_checked")

    @property
    def redacted(self) -> tuple[str, ...]:
        """Text columns whose identifiers were replaced by labels ([NAME], [EMAIL]...)."""
        return tuple(c.column for c in self.columns if c.action == "redacted")

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "column": [c.column for c in self.columns],
                "identifier": [c.identifier for c in self.columns],
                "action": [c.action for c in self.columns],
                "changed": [c.changed for c in self.columns],
                "detail": [c.detail for c in self.columns],
            }
        )

    def notes(self) -> tuple[str, ...]:
        """What remains for a person to confirm before calling the table Safe Harbor."""
        notes = [
            "Safe Harbor also requires that you have no actual knowledge that the remaining "
            "information could identify a person (45 CFR 164.514(b)(2)(ii)).",
            "Columns marked 'kept' were not recognised as one of the 18 identifiers: check "
            "that none of them is a unique number, code or characteristic (identifier R).",
        ]
        if self.redacted:
            notes.insert(
                0,
                f"Free text in {', '.join(map(repr, self.redacted))} was redacted: names, "
                "emails, phone numbers, IDs, addresses, dates, URLs and IP addresses found by "
                "the scanner became [NAME], [EMAIL]... Detection is not perfect: review a "
                "sample of the text before release, or remove the column.",
            )
        if self.unchecked:
            notes.insert(
                0,
                f"Free text in {', '.join(map(repr, self.unchecked))} was not checked: it may "
                "contain names, dates, numbers or places. Review it by hand or remove it.",
            )
        return tuple(notes)


def _classify(
    df: pd.DataFrame, known: Mapping[str, Suggestion] | None = None
) -> dict[str, tuple[str, str]]:
    """column -> (letter or '', kind) from names, values and core.schema suggestions."""
    found: dict[str, tuple[str, str]] = {}
    known = {str(c): s for c, s in (known or {}).items() if c in df.columns}
    rest = [c for c in df.columns if str(c) not in known]
    suggestions = {**known, **{str(s.column): s for s in suggest_roles(df[rest])}}
    for column in map(str, df.columns):
        words = _words(column)
        kind = suggestions[column].kind if column in suggestions else ""
        letter = next((ltr for ltr, rx in _NAME_PATTERNS if rx.search(words)), "")
        if kind != "postal_code" and _ZIP_NAME.search(words):
            kind = "postal_code"
        if letter:
            found[column] = (letter, "")
        elif kind == "measurement" and _AGE_NAME.search(words):
            found[column] = ("C", "age")
        elif kind == "free_text":
            found[column] = ("", "free_text")
        elif kind in _KIND_LETTER:
            found[column] = (_KIND_LETTER[kind], kind)
        elif kind in PATTERNS and kind not in BUILTIN_KINDS:  # a registered identifier
            found[column] = ("R", kind)
        elif pd.api.types.is_datetime64_any_dtype(df[column]):
            found[column] = ("C", "date")
        else:
            found[column] = ("", kind)
    return found


def _label(letter: str) -> str:
    return f"{letter}: {IDENTIFIERS[letter]}" if letter else ""


def zip3(values: pd.Series) -> pd.Series:
    """US ZIP codes to their first 3 digits, or "000" for the restricted areas.

    Numbers are read as 5-digit codes with leading zeros (3601 -> "03601" -> "036" -> "000").
    Missing values stay missing.
    """
    text = _zip_text(values)
    first3 = text.str.slice(0, 3)
    return first3.where(~first3.isin(RESTRICTED_ZIP3), "000").where(values.notna())


def _zip_text(values: pd.Series) -> pd.Series:
    if pd.api.types.is_numeric_dtype(values):
        whole = values.astype("Int64").astype("str")
        return whole.str.zfill(5).where(values.notna())
    return values.astype("str").str.strip()


def _is_us_zip(values: pd.Series) -> bool:
    text = _zip_text(values.dropna())
    return bool(len(text)) and float(text.str.fullmatch(_US_ZIP.pattern).mean()) >= 0.95


def apply_safe_harbor(
    df: pd.DataFrame,
    *,
    reference_date: str | dt.date | None = None,
    postal: str = "auto",
    free_text: str = "redact",
    exclude: Sequence[str] = (),
    suggestions: Mapping[str, Suggestion] | None = None,
) -> SafeHarborResult:
    """Apply the HIPAA Safe Harbor preset; returns the new table and a per-column report.

    - ``reference_date`` (default today) is the date on which ages are computed from a date
      of birth, to find people aged 90 or over;
    - ``postal``: "auto" keeps 3 digits of US ZIP codes (5 digits or ZIP+4) and removes
      other postal codes (Safe Harbor's population rule only exists for US ZIP areas);
      "zip3" treats every postal code column as US ZIP; "remove" removes them all;
    - ``free_text``: "redact" (default) replaces the identifiers found inside free-text
      columns (and inside other text columns where the scanner finds any) by labels such
      as [NAME]; "remove" removes free-text columns; "flag" keeps them as they are and
      reports them as not checked;
    - ``exclude``: columns to keep as they are (you confirm they hold no identifier);
      they are listed in the report;
    - ``suggestions``: column -> :class:`core.schema.Suggestion` already computed (e.g. by
      the dashboard); other columns are classified here.
    """
    postal = require_choice("postal", postal, POSTAL_MODES)
    free_text = require_choice("free_text", free_text, FREE_TEXT_MODES)
    exclude = set(require_columns(df, list(exclude), parameter="exclude")) if exclude else set()
    ref = _reference(reference_date)
    kinds = _classify(df, suggestions)
    out = df.copy()
    report: list[SafeHarborColumn] = []
    removed: list[str] = []
    old = _old_people(df, kinds, ref)

    def remove(column: str, letter: str, why: str) -> None:
        removed.append(column)
        report.append(SafeHarborColumn(column, _label(letter), "removed",
                                       int(df[column].notna().sum()), why))  # fmt: skip

    for column in map(str, df.columns):
        letter, kind = kinds[column]
        values = df[column]
        if column in exclude:
            report.append(SafeHarborColumn(column, _label(letter), "excluded", 0,
                                           "Kept as it is at your request."))  # fmt: skip
        elif kind in _TEXT_KINDS and free_text == "redact":
            new, changed, detail = _redact(values)
            if changed or kind == "free_text":
                out[column] = new
                report.append(SafeHarborColumn(column, "", "redacted", changed, detail))
            else:
                report.append(SafeHarborColumn(column, "", "kept", 0,
                    "Not recognised as one of the 18 identifiers and the scanner found none "
                    "inside it; check it by hand."))  # fmt: skip
        elif kind == "free_text":
            if free_text == "remove":
                remove(column, "", "Free text may hold any identifier; removed as asked.")
            else:
                report.append(SafeHarborColumn(column, "", "not_checked", 0,
                    "Free text may contain names, dates, numbers or places; it was not "
                    "checked. Review it by hand or remove it."))  # fmt: skip
        elif kind == "postal_code":
            if postal == "remove" or (postal == "auto" and not _is_us_zip(values)):
                remove(column, letter, "Postal codes that are not US ZIP codes have no Safe "
                       "Harbor population rule, so the column is removed." if postal == "auto"
                       else "Postal codes removed as asked.")  # fmt: skip
            else:
                new = zip3(values)
                out[column] = new.astype("str").array
                restricted = int((new == "000").sum())
                report.append(SafeHarborColumn(column, _label(letter), "zip3",
                    int((new != _zip_text(values)).fillna(False).sum()),
                    f"ZIP codes cut to their first 3 digits; {restricted} in areas of 20,000 "
                    "people or fewer recoded to 000."))  # fmt: skip
        elif letter == "C" and kind == "age":
            out[column], changed, detail = _top_code_ages(values, column)
            report.append(SafeHarborColumn(column, _label(letter), "top_coded", changed, detail))
        elif letter == "C":
            years, changed, detail = _dates_to_year(values, column, kind, old)
            out[column] = years
            report.append(SafeHarborColumn(column, _label(letter), "year", changed, detail))
        elif letter:
            remove(column, letter, f"Removed: identifier {letter}, {IDENTIFIERS[letter]}.")
        else:
            report.append(SafeHarborColumn(column, "", "kept", 0,
                          "Not recognised as one of the 18 identifiers; check it by hand."))  # fmt: skip
    return SafeHarborResult(out.drop(columns=removed), tuple(report), str(ref.date()))


# Text columns the scanner reads in "redact" mode: free text, and text with no recognised
# pattern (a short note per record is "text", not "free_text", but may still name people).
_TEXT_KINDS = ("free_text", "text")


def _redact(values: pd.Series) -> tuple[pd.Series, int, str]:
    """Identifiers inside a text column replaced by labels, cells changed, what was found."""
    redacted, changed, found = redact_and_count(values, lambda entity: f"[{entity.label}]")
    if not found:
        return redacted, 0, "The scanner found no identifier inside the text; check it by hand."
    counts = ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in found.items())
    return (
        redacted,
        int(changed.sum()),
        (
            f"Identifiers inside the text replaced by labels ([NAME], [EMAIL]...): {counts}. "
            "Review a sample: detection is not perfect."
        ),
    )


def safe_harbor(
    df: pd.DataFrame,
    *,
    reference_date: str | dt.date | None = None,
    postal: str = "auto",
    free_text: str = "redact",
    exclude: Sequence[str] = (),
) -> pd.DataFrame:
    """The table of :func:`apply_safe_harbor` (the recipe step ``safe_harbor``)."""
    return apply_safe_harbor(
        df, reference_date=reference_date, postal=postal, free_text=free_text, exclude=exclude
    ).data


def _old_people(
    df: pd.DataFrame, kinds: dict[str, tuple[str, str]], ref: pd.Timestamp
) -> np.ndarray:
    """Rows of people aged 90 or over on ``ref``, from dates of birth or age columns."""
    old = np.zeros(len(df), dtype=bool)
    for column, (_, kind) in kinds.items():
        if kind == "date_of_birth":
            ages = ages_at(_parse(df[column], column), ref)
            old |= (ages >= TOP_AGE).fillna(False).to_numpy()
        elif kind == "age":
            numbers = pd.to_numeric(df[column], errors="coerce")
            old |= (numbers >= TOP_AGE).fillna(False).to_numpy()
    return old


def _dates_to_year(values: pd.Series, column: str, kind: str, old: np.ndarray):
    dates = _parse(values, column)
    years = dates.dt.year.astype("Int64").astype("str").where(dates.notna())
    suppressed = 0
    if kind == "date_of_birth":
        hide = old & dates.notna().to_numpy()
        suppressed = int(hide.sum())
        years = years.where(~hide)
    changed = int(values.notna().sum())
    detail = "Dates reduced to the year."
    if suppressed:
        detail += (
            f" The year of birth of {suppressed} person(s) aged {TOP_AGE} or over is "
            "suppressed (it would reveal the age)."
        )
    return years.astype("str").array, changed, detail


def _top_code_ages(values: pd.Series, column: str):
    numbers = pd.to_numeric(values, errors="coerce")
    already = values.astype("str").str.fullmatch(r"\s*\d+\s*\+\s*").fillna(False)
    bad = numbers.isna() & values.notna() & ~already
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ParameterError(
            f"Safe Harbor: age column '{column}' has {int(bad.sum())} value(s) that are not "
            f"numbers, the first in row {row + 1} ({values.iloc[row]!r}). Clean the column or "
            "pass it in 'exclude' and top-code it yourself."
        )
    top = (numbers >= TOP_AGE).fillna(False) | already
    whole = numbers.dropna()
    integral = bool((whole == np.floor(whole)).all())
    text = (numbers.astype("Int64") if integral else numbers).astype("str")
    text = text.where(~top, AGE_LABEL).where(values.notna())
    changed = int((numbers >= TOP_AGE).sum())
    return text.astype("str").array, changed, f"Ages of {TOP_AGE} and over become '{AGE_LABEL}'."
