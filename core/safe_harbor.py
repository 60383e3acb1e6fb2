"""HIPAA Safe Harbor preset: the 18 identifiers of 45 CFR 164.514(b)(2), one by one.

The Safe Harbor method of the HIPAA Privacy Rule (45 CFR 164.514(b)(2), summarised in the
health-data seed article and NIST SP 800-188 4.3.4) is a checklist: remove 18 kinds of
identifiers (A-R, :data:`IDENTIFIERS`), with what the rule allows kept instead of removal:

- geography (B): the state, and the first 3 digits of a ZIP code, or "000" when the
  3-digit area has 20,000 people or fewer (:data:`RESTRICTED_ZIP3`): an address is cut to
  the state it names (:func:`core.states.state_of`), never partly redacted;
- dates directly related to a person (C): the year only; for anyone aged 90 or over the
  year of birth is suppressed too ("any date elements indicative of such an age");
- ages (C): over 89 become one category, "90+" (90 or older), whether the column is
  called age or only holds ages (whole numbers of 0-120, found by content).

Columns are recognised from their names and values, reusing the evidence of
:func:`core.schema.suggest_roles` (whose detectors in :mod:`core.detect` find names, first
names alone, phones of several countries, addresses, emails, national IDs, ages, years
and dates of birth, postal codes... whatever the header says, so a column ``c1`` of names
is removed like a column ``patient_name``), plus names Safe Harbor adds (SSN, medical
record, health plan, fax, URL, licence, device, biometric, photo). Free text can hold any
of the 18: it is *removed* by default; ``free_text="redact"`` replaces what the scanner
of :mod:`core.detect.text` finds by [NAME], [PHONE]... (it misses some: see
:data:`REDACTION_RECALL`); ``"flag"`` keeps it unchecked. The result carries one line
per column and one line per identifier (:mod:`core.safe_harbor_report`). A tool cannot
prove compliance: a person reviews the result, and Safe Harbor also requires that the
covered entity has no actual knowledge that the rest could identify someone.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.dates import ages_at, parse_dates, reference_timestamp
from core.detect.header_words import header_words
from core.detect.patterns import BUILTIN_KINDS, PATTERNS
from core.detect.text import redact_and_count, scan_values
from core.errors import ParameterError
from core.safe_harbor_report import (
    FREE_TEXT_CHOICES,
    IDENTIFIERS,
    REDACTION_NOTE,
    REDACTION_RECALL,
    IdentifierLine,
    SafeHarborColumn,
    SafeHarborResult,
    identifier_lines,
)
from core.schema import Suggestion, suggest_roles
from core.states import state_of
from core.validation import require_choice, require_columns, shown_value

__all__ = [
    "AGE_LABEL",
    "FREE_TEXT_CHOICES",
    "IDENTIFIERS",
    "REDACTION_NOTE",
    "REDACTION_RECALL",
    "RESTRICTED_ZIP3",
    "IdentifierLine",
    "SafeHarborColumn",
    "SafeHarborResult",
    "apply_safe_harbor",
    "safe_harbor",
    "zip3",
]

#: 3-digit ZIP areas with 20,000 people or fewer: recoded to "000".
RESTRICTED_ZIP3 = frozenset(
    {
        "036",
        "059",
        "102",
        "203",
        "205",
        "369",
        "556",
        "692",
        "753",
        "772",
        "821",
        "823",
        "878",
        "879",
        "884",
        "890",
        "893",
    }
)
TOP_AGE = 90
AGE_LABEL = "90+"
POSTAL_MODES = ("auto", "zip3", "remove")
FREE_TEXT_MODES = ("remove", "redact", "flag")

# Kinds found by core.schema.suggest_roles -> Safe Harbor identifier letter.
_KIND_LETTER = {
    "name": "A",
    "address": "B",
    "place": "B",
    "gps": "B",
    "postal_code": "B",
    "date_of_birth": "C",
    "year_of_birth": "C",
    "date": "C",
    "day_month": "C",
    "age": "C",
    "phone": "D",
    "email": "F",
    "nric": "G",
    "ssn": "G",
    "nino": "G",
    "national_id": "G",
    "account_number": "J",
    "id_number": "K",
    "vehicle_plate": "L",
    "iu_number": "M",
    "mac": "M",
    "url": "N",
    "image": "Q",
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
_YEAR = re.compile(r"\s*[0-9]{4}\s*")


_words = header_words  # the header's words as core.schema reads them ('Âge' -> 'age')


@dataclass(frozen=True)
class _Found:
    """What a column is for Safe Harbor: its identifier letter ('' if none), the kind the
    schema found, and whether the header or the content said so."""

    letter: str
    kind: str
    judged_by: str


def _is_year_column(values: pd.Series) -> bool:
    present = values.dropna()
    if present.empty:
        return False
    if pd.api.types.is_numeric_dtype(present):
        whole = present.astype(float)
        return bool(((whole == np.floor(whole)) & whole.between(1000, 9999)).all())
    return bool(present.astype("str").str.fullmatch(_YEAR.pattern).all())


def _classify(df: pd.DataFrame, known: Mapping[str, Suggestion] | None = None) -> dict[str, _Found]:
    """column -> :class:`_Found`, from names, values and core.schema suggestions."""
    found: dict[str, _Found] = {}
    known = {str(c): s for c, s in (known or {}).items() if c in df.columns}
    rest = [c for c in df.columns if str(c) not in known]
    suggestions = {**known, **{str(s.column): s for s in suggest_roles(df[rest])}}
    for column in map(str, df.columns):
        words = _words(column)
        suggestion = suggestions.get(column)
        kind = suggestion.kind if suggestion else ""
        judged = (suggestion.judged_by if suggestion else "") or "header"
        letter = next((ltr for ltr, rx in _NAME_PATTERNS if rx.search(words)), "")
        if kind != "postal_code" and _ZIP_NAME.search(words):
            kind, judged = "postal_code", "header"
        if kind in {"date_of_birth", "year_of_birth"} and _is_year_column(df[column]):
            kind = "year_of_birth"
        if letter:
            found[column] = _Found(letter, "", "header")
        elif kind == "age" or (kind == "measurement" and _AGE_NAME.search(words)):
            found[column] = _Found("C", "age", judged)
        elif kind in {"free_text", "text"}:
            found[column] = _Found("", kind, judged)
        elif kind == "category" and _sentences(df[column]):
            # Notes that repeat (boilerplate) are a 'category' to Step 1, but a few may
            # still name someone: read like short text.
            found[column] = _Found("", "text", "content")
        elif kind in _KIND_LETTER:
            found[column] = _Found(_KIND_LETTER[kind], kind, judged)
        elif kind in PATTERNS and kind not in BUILTIN_KINDS:  # a registered identifier
            found[column] = _Found("R", kind, "content")
        elif pd.api.types.is_datetime64_any_dtype(df[column]):
            found[column] = _Found("C", "date", "content")
        else:
            found[column] = _Found("", kind, "")
    return found


def _sentences(values: pd.Series) -> bool:
    """Cells that read as sentences: 6 words or more at the median (category labels such
    as hospital or course names are shorter)."""
    text = values.dropna().astype("str").head(5000)
    return bool(len(text)) and float(text.str.count(r"\S+").median()) >= 6


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
    free_text: str = "remove",
    exclude: Sequence[str] = (),
    suggestions: Mapping[str, Suggestion] | None = None,
) -> SafeHarborResult:
    """Apply the HIPAA Safe Harbor preset (45 CFR 164.514(b)(2)); returns the new table, a
    per-column report and a per-identifier report (A-R).

    - ``reference_date`` (default today) is the date on which ages are computed from a date
      or year of birth, to find people aged 90 or over;
    - ``postal``: "auto" keeps 3 digits of US ZIP codes (5 digits or ZIP+4) and removes
      other postal codes (Safe Harbor's population rule only exists for US ZIP areas);
      "zip3" treats every postal code column as US ZIP; "remove" removes them all;
    - ``free_text``: "remove" (default) removes free-text columns, and the short text
      columns in which the scanner finds an identifier; "redact" keeps them with the
      identifiers the scanner finds replaced by labels such as [NAME] (measured recall
      :data:`REDACTION_RECALL`: some stay in clear); "flag" keeps them as they are and
      reports them as not checked;
    - ``exclude``: columns to keep as they are (you confirm they hold no identifier);
      they are listed in the report;
    - ``suggestions``: column -> :class:`core.schema.Suggestion` already computed (e.g. by
      the dashboard); other columns are classified here.
    """
    postal = require_choice("postal", postal, POSTAL_MODES)
    free_text = require_choice("free_text", free_text, FREE_TEXT_MODES)
    exclude = set(require_columns(df, list(exclude), parameter="exclude")) if exclude else set()
    exclude = {str(c) for c in exclude}
    df = _with_text_labels(df)
    ref = reference_timestamp(reference_date)
    run = _Run(df, _classify(df, suggestions), ref, postal, free_text)
    for column in map(str, df.columns):
        if column in exclude:
            run.report.append(
                SafeHarborColumn(
                    column,
                    _label(run.kinds[column].letter),
                    "excluded",
                    0,
                    "Kept as it is at your request.",
                    "you",
                )
            )
        else:
            run.apply(column)
    columns = tuple(run.report)
    text_columns = tuple(c.column for c in columns if run.kinds[c.column].kind == "free_text")
    how = {
        "remove": "removed",
        "flag": "not checked",
        "redact": f"redacted (measured recall {REDACTION_RECALL:.0%})",
    }[free_text]
    return SafeHarborResult(
        run.out.drop(columns=run.removed),
        columns,
        str(ref.date()),
        identifier_lines(columns, text_columns, how),
        REDACTION_NOTE,
    )


def _with_text_labels(df: pd.DataFrame) -> pd.DataFrame:
    """The table with its column labels as text (the report names columns by text; a label
    such as 0 was looked up as '0'); two labels that read the same are refused."""
    labels = [str(c) for c in df.columns]
    if labels == list(df.columns):
        return df
    if len(set(labels)) < len(labels):
        twice = sorted({label for label in labels if labels.count(label) > 1})
        raise ParameterError(
            f"Safe Harbor: columns {twice} read the same as text; rename them so that each "
            "column has its own name."
        )
    return df.set_axis(labels, axis=1)


# Text columns: free text, and text with no recognised pattern (a short note per record is
# "text", not "free_text", but may still name people).
_TEXT_KINDS = ("free_text", "text")


class _Run:
    """One application of the preset: the table being made and the report being written,
    with one method per way of handling a column."""

    def __init__(
        self, df, kinds: dict[str, _Found], ref: pd.Timestamp, postal: str, free_text: str
    ) -> None:
        self.df, self.kinds, self.ref = df, kinds, ref
        self.postal, self.free_text = postal, free_text
        self.out = df.copy()
        self.report: list[SafeHarborColumn] = []
        self.removed: list[str] = []
        self.old = _old_people(df, kinds, ref)

    def line(self, column: str, action: str, changed: int, detail: str, letter: str = "") -> None:
        by = self.kinds[column].judged_by if letter or action != "kept" else ""
        self.report.append(SafeHarborColumn(column, _label(letter), action, changed, detail, by))

    def remove(self, column: str, letter: str, why: str) -> None:
        self.removed.append(column)
        self.line(column, "removed", int(self.df[column].notna().sum()), why, letter)

    def apply(self, column: str) -> None:
        letter, kind = self.kinds[column].letter, self.kinds[column].kind
        values = self.df[column]
        if kind in _TEXT_KINDS:
            self.text(column, values, kind)
        elif kind == "postal_code":
            self.postal_code(column, values, letter)
        elif kind == "address":
            self.address(column, values, letter)
        elif letter == "C" and kind == "age":
            self.out[column], changed, detail = _top_code_ages(values, column)
            self.line(column, "top_coded", changed, detail, letter)
        elif letter == "C" and kind == "day_month":
            self.remove(
                column,
                letter,
                "Days and months without a year: Safe Harbor keeps "
                "only the year of a date, and these have none; removed.",
            )
        elif letter == "C" and kind == "year_of_birth":
            self.out[column], changed, detail = _birth_years(values, column, self.old, self.ref)
            self.line(column, "year_of_birth", changed, detail, letter)
        elif letter == "C":
            years, changed, detail = _dates_to_year(values, column, kind, self.old, self.ref)
            self.out[column] = years
            self.line(column, "year", changed, detail, letter)
        elif letter:
            self.remove(column, letter, f"Removed: identifier {letter}, {IDENTIFIERS[letter]}.")
        elif kind == "code":
            self.line(
                column,
                "kept",
                0,
                "Numbers that parse as phone numbers but behave like "
                "codes (batch, product or order numbers: Step 1 is unsure); kept. If "
                "they are people's phone numbers (D), remove the column.",
            )
        else:
            self.line(
                column, "kept", 0, "Not recognised as one of the 18 identifiers; check it by hand."
            )

    def postal_code(self, column: str, values: pd.Series, letter: str) -> None:
        """ZIP codes to 3 digits ('000' for the small areas); other postal codes removed.
        A column found by its values alone (Step 1: the shapes of several countries' codes)
        says so, as no header named it."""
        by_content = (
            " (recognised by their values: no header names them)"
            if self.kinds[column].judged_by == "content"
            else ""
        )
        if self.postal == "remove" or (self.postal == "auto" and not _is_us_zip(values)):
            self.remove(
                column,
                letter,
                f"Postal codes{by_content} that are not all US ZIP codes have no Safe "
                "Harbor population rule, so the column is removed."
                if self.postal == "auto"
                else f"Postal codes{by_content} removed as asked.",
            )
            return
        new = zip3(values)
        self.out[column] = new.astype("str").array
        restricted = int((new == "000").sum())
        self.line(
            column,
            "zip3",
            int((new != _zip_text(values)).fillna(False).sum()),
            f"ZIP codes{by_content} cut to their first 3 digits; {restricted} in areas of 20,000 "
            "people or fewer recoded to 000.",
            letter,
        )

    def address(self, column: str, values: pd.Series, letter: str) -> None:
        """An address keeps only the state it names (45 CFR 164.514(b)(2)(i)(B)); an address
        column in which no state is read is removed."""
        states = state_of(values)
        read = int(states.notna().sum())
        if read == 0:
            self.remove(
                column,
                letter,
                "Addresses are geographic subdivisions smaller than a "
                "state and name no state that could be kept; removed.",
            )
            return
        self.out[column] = states.astype("str").where(states.notna()).array
        missing = int(values.notna().sum()) - read
        self.line(
            column,
            "state",
            int(values.notna().sum()),
            f"Addresses cut to the state they name ({read} read); street, town and "
            f"postal code removed{f', {missing} naming no state left empty' if missing else ''}.",
            letter,
        )

    def text(self, column: str, values: pd.Series, kind: str) -> None:
        """Free text removed (default), redacted or flagged; a short text column of unclear
        kind is scanned and removed or redacted only when the scanner finds an identifier."""
        if self.free_text == "redact":
            new, changed, detail = _redact(values)
            if changed or kind == "free_text":
                self.out[column] = new
                self.line(column, "redacted", changed, detail)
            else:
                self.line(
                    column,
                    "kept",
                    0,
                    "Not recognised as one of the 18 identifiers and "
                    "the scanner found none inside it; check it by hand.",
                )
            return
        if kind == "free_text":
            if self.free_text == "remove":
                self.remove(column, "", "Free text can hold any of the 18 identifiers; removed.")
            else:
                self.line(
                    column,
                    "not_checked",
                    0,
                    "Free text may contain names, dates, "
                    "numbers or places; it was not checked. Review it by hand or "
                    "remove it.",
                )
            return
        found = scan_values(values.dropna().astype("str").head(5000))
        if self.free_text == "remove" and not found.empty:
            kinds = ", ".join(found["kind"].str.replace("_", " "))
            self.remove(
                column,
                "",
                f"Short text of no known shape in which the scanner found "
                f"{kinds}; removed with the free text.",
            )
        else:
            self.line(
                column,
                "kept",
                0,
                "Not recognised as one of the 18 identifiers"
                + ("" if found.empty else " (the scanner found some inside it: check)")
                + "; check it by hand.",
            )


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
            f"Measured recall {REDACTION_RECALL:.0%}: review a sample, some stay in clear."
        ),
    )


def safe_harbor(
    df: pd.DataFrame,
    *,
    reference_date: str | dt.date | None = None,
    postal: str = "auto",
    free_text: str = "remove",
    exclude: Sequence[str] = (),
) -> pd.DataFrame:
    """The table of :func:`apply_safe_harbor` (the recipe step ``safe_harbor``)."""
    return apply_safe_harbor(
        df, reference_date=reference_date, postal=postal, free_text=free_text, exclude=exclude
    ).data


def _birth_year_numbers(values: pd.Series) -> pd.Series:
    return pd.to_numeric(values.astype("str").str.strip().where(values.notna()), errors="coerce")


def _old_people(df: pd.DataFrame, kinds: dict[str, _Found], ref: pd.Timestamp) -> np.ndarray:
    """Rows of people who may be aged 90 or over on ``ref``: from dates of birth, years of
    birth (born 90 or more years before the reference year) or age columns."""
    old = np.zeros(len(df), dtype=bool)
    for column, found in kinds.items():
        if found.kind == "date_of_birth":
            ages = ages_at(parse_dates(df[column], column, latest=ref), ref)
            old |= (ages >= TOP_AGE).fillna(False).to_numpy()
        elif found.kind == "year_of_birth":
            years = _birth_year_numbers(df[column])
            old |= (ref.year - years >= TOP_AGE).fillna(False).to_numpy()
        elif found.kind == "age":
            numbers = pd.to_numeric(df[column], errors="coerce")
            old |= (numbers >= TOP_AGE).fillna(False).to_numpy()
    return old


def _suppressed_note(old: int, edge: int) -> str:
    note = ""
    if old:
        note += (
            f" The year of birth of {old} person(s) aged {TOP_AGE} or over is suppressed (it "
            "would reveal the age)."
        )
    if edge:
        note += (
            f" The year of birth of {edge} person(s) born {TOP_AGE} years before the reference "
            "year is suppressed too (the year alone says 89 or 90)."
        )
    return note


def _hide_birth_years(years: pd.Series, old: np.ndarray, ref: pd.Timestamp):
    """Rows whose year of birth must go: people aged 90 or over, and any year 90 or more
    years before the reference year (an element of date indicative of such an age,
    45 CFR 164.514(b)(2)(i)(C)); with the counts of each for the report."""
    present = years.notna().to_numpy()
    far = (ref.year - years >= TOP_AGE).fillna(False).to_numpy() & present
    hide = (old & present) | far
    return hide, int((old & present).sum()), int((far & ~old).sum())


def _dates_to_year(values: pd.Series, column: str, kind: str, old: np.ndarray, ref: pd.Timestamp):
    # A two-digit year is read in the past (born on 15/08/31: 1931, aged over 89), as are
    # those of other dates directly related to the person, up to the column's own latest.
    dates = parse_dates(values, column, latest=ref, events=kind != "date_of_birth")
    years = dates.dt.year.astype("Int64").astype("str").where(dates.notna())
    note = ""
    if kind == "date_of_birth":
        hide, n_old, n_edge = _hide_birth_years(dates.dt.year, old, ref)
        years = years.where(~hide)
        note = _suppressed_note(n_old, n_edge)
    changed = int(values.notna().sum())
    return years.astype("str").array, changed, "Dates reduced to the year." + note


def _birth_years(values: pd.Series, column: str, old: np.ndarray, ref: pd.Timestamp):
    """Years of birth are allowed (a year is not a date element below the year), except
    for people aged 90 or over: suppressed."""
    years = _birth_year_numbers(values)
    hide, n_old, n_edge = _hide_birth_years(years, old, ref)
    text = years.astype("Int64").astype("str").where(values.notna() & ~hide)
    note = _suppressed_note(n_old, n_edge)
    return text.astype("str").array, int(hide.sum()), "Years of birth kept." + note


# Ages already grouped: a band ("21-30", "21 to 30") or an open top ("85+", "85 and over").
_AGE_BAND = re.compile(r"\s*(\d{1,3})\s*(?:-|–|to)\s*(\d{1,3})\s*")
_AGE_TOP = re.compile(r"\s*(\d{1,3})\s*(?:\+|and over|and above|or older|or over)\s*", re.I)


def _top_code_ages(values: pd.Series, column: str):
    """Ages over 89 become one category (45 CFR 164.514(b)(2)(i)(C)); bands and open tops
    starting at 90 or more become that category too, other bands stay; a word with no
    digit ("unknown") stays; anything else with a digit is refused with its row."""
    numbers = pd.to_numeric(values, errors="coerce")
    text = values.astype("str")
    band = text.str.extract(_AGE_BAND)
    top_open = pd.to_numeric(text.str.extract(_AGE_TOP, expand=False), errors="coerce")
    band_low, band_high = (pd.to_numeric(band[i], errors="coerce") for i in (0, 1))
    grouped = band_low.notna() | top_open.notna()
    # A word with no digit ("unknown", "N/A") is not an age and stays; "94 years" is one.
    bad = numbers.isna() & values.notna() & ~grouped & text.str.contains(r"\d").fillna(False)
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ParameterError(
            f"Safe Harbor: age column '{column}' has {int(bad.sum())} value(s) that are not "
            f"numbers, the first in row {row + 1} ({shown_value(values.iloc[row])}). Clean the column or "
            "pass it in 'exclude' and top-code it yourself."
        )
    top = (numbers >= TOP_AGE) | (band_low >= TOP_AGE) | (top_open >= TOP_AGE)
    top = top.fillna(False)
    whole = numbers.dropna()
    integral = bool((whole == np.floor(whole)).all())
    ages = (numbers.astype("Int64") if integral else numbers).astype("str")
    ages = ages.where(numbers.notna(), text).where(~top, AGE_LABEL).where(values.notna())
    changed = int((top & (text.str.strip() != AGE_LABEL)).sum())
    detail = f"Ages of {TOP_AGE} and over become '{AGE_LABEL}' (one category, 90 or older)."
    straddle = int(((band_low < TOP_AGE) & (band_high >= TOP_AGE)).sum())
    if straddle:
        detail += (
            f" {straddle} band(s) reach past 89 from below (e.g. {text[band_high >= TOP_AGE].iloc[0]!r}): "
            "no exact age, but check the bands."
        )
    return ages.astype("str").array, changed, detail
