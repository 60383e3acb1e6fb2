"""Dates and ages: shifting, interval perturbation, generalisation, age from date of birth.

NIST SP 800-188 (Sec. 4.3.4 "De-identifying dates") lists the strategies implemented here:

- HIPAA Safe Harbor generalises dates to the year (see :mod:`core.safe_harbor`), and the
  PDPC guide's Annex B generalises a date of birth to month and year, or year:
  :func:`core.techniques.generalisation.generalise_dates` (one column:
  :func:`core.techniques.generalise_date`).
- "Dates within a single person's record can be systematically adjusted by a random
  amount" (admission and discharge moved the same number of days): :func:`shift_dates`,
  one offset per person, so every interval between that person's dates is kept.
- "The intervals between dates can be perturbed ... while still maintaining the order of
  events": :func:`perturb_intervals`.
- "It may be necessary to preserve the day of the week": ``shift_dates(keep_weekday=True)``
  shifts by whole weeks.
- "The age of an individual can be randomly adjusted +/-2 years if the person is over the
  age of 25 ... changes to ages around these milestones [e.g. 62] may also result in data
  accuracy problems": :func:`perturb_ages`. Ages are computed by :func:`age_from_dob`, top
  coded at 90 as HIPAA Safe Harbor requires.

Shift offsets are drawn from :func:`core.validation.make_rng` and never stored in the
output: like a key, they would undo the shift.
"""

from __future__ import annotations

import datetime as dt
import re
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.validation import (
    make_rng,
    require_columns,
    require_int,
    shown_value,
)

_DAY = np.timedelta64(1, "D")
_TOP_LABEL = re.compile(r"^\s*\d+\s*\+\s*$")
#: NIST SP 800-188 4.3.4: Social Security retirement at 62; 65 is a common second one.
DEFAULT_MILESTONES = (62, 65)


# A date written with its year in full has a run of three digits or more (1942-01-02,
# 02/01/1942); 02/01/42 or 2 Jan 42 has none: its century is a guess.
_FULL_YEAR = r"[0-9]{3}"
_CENTURY = pd.DateOffset(years=100)


def two_digit_years_not_after(
    text: pd.Series, parsed: pd.Series, latest: pd.Timestamp, *, events: bool = False
) -> pd.Series:
    """``parsed`` with each date written with a two-digit year and read after ``latest``
    moved back a century: 02/01/42 is 2 January 1942, not 2042.

    pandas (like dateutil) puts a two-digit year within 50 years of today, so in 2026 it
    reads 15/08/31 as 2031: a date of birth in the future, which would hide a person aged
    over 89 from HIPAA Safe Harbor's age rule (45 CFR 164.514(b)(2)(i)(C)). A date of birth
    or of a past event cannot be later than the reference date (``latest``). With
    ``events`` the column's own dates written in full can reach later (a column of
    appointments holding 01/03/2031 keeps 12/12/30 in 2030): the bound is the latest of
    ``latest`` and those. Dates written in full are never moved.
    """
    if not len(parsed) or pd.api.types.is_datetime64_any_dtype(text):
        return parsed
    written = text.astype("str").where(text.notna())
    short = written.notna() & ~written.str.contains(_FULL_YEAR, na=True).astype(bool)
    naive = parsed.dt.tz_localize(None) if isinstance(parsed.dtype, pd.DatetimeTZDtype) else parsed
    bound = latest
    if events:
        in_full = naive[~short].max()
        bound = max(bound, in_full) if pd.notna(in_full) else bound
    late = (short & (naive.dt.normalize() > bound)).fillna(False).astype(bool)
    if not late.any():
        return parsed
    return parsed.where(~late, parsed - _CENTURY)


# Month names that differ from English, with their usual abbreviations, -> English:
# "12 Ogos 1985" is 12 August 1985. Malay and Indonesian (the forms of Kamus Dewan and
# KBBI), and, since a held-out set of 28 Nov 2026 (bench/bench_detect_eval4.py) showed a
# Filipino date of birth refused, Filipino, Spanish, French and German. Months written as
# in English (April, September, November; "Jun"; German "August") need no entry.
LOCAL_MONTHS = {
    "januari": "Jan",  # ms, id
    "februari": "Feb",
    "mac": "Mar",  # ms
    "maret": "Mar",  # id
    "mei": "May",
    "juni": "Jun",  # id, de
    "julai": "Jul",  # ms
    "juli": "Jul",  # id, de
    "ogos": "Aug",  # ms
    "ogo": "Aug",
    "agustus": "Aug",  # id
    "agu": "Aug",
    "agt": "Aug",
    "oktober": "Oct",  # ms, id, de
    "okt": "Oct",
    "disember": "Dec",  # ms
    "dis": "Dec",
    "desember": "Dec",  # id
    "des": "Dec",
    "enero": "Jan",  # tl, es
    "pebrero": "Feb",  # tl
    "febrero": "Feb",  # es
    "marso": "Mar",  # tl
    "marzo": "Mar",  # es
    "abril": "Apr",  # tl, es
    "mayo": "May",  # tl, es
    "hunyo": "Jun",  # tl
    "junio": "Jun",  # es
    "hulyo": "Jul",  # tl
    "julio": "Jul",  # es
    "agosto": "Aug",  # tl, es
    "setyembre": "Sep",  # tl
    "septiembre": "Sep",  # es
    "setiembre": "Sep",  # es
    "oktubre": "Oct",  # tl
    "octubre": "Oct",  # es
    "nobyembre": "Nov",  # tl
    "noviembre": "Nov",  # es
    "disyembre": "Dec",  # tl
    "diciembre": "Dec",  # es
    "janvier": "Jan",  # fr
    "février": "Feb",  # fr
    "fevrier": "Feb",
    "mars": "Mar",  # fr
    "avril": "Apr",  # fr
    "mai": "May",  # fr, de
    "juin": "Jun",  # fr
    "juillet": "Jul",  # fr
    "août": "Aug",  # fr
    "aout": "Aug",
    "septembre": "Sep",  # fr
    "octobre": "Oct",  # fr
    "novembre": "Nov",  # fr
    "décembre": "Dec",  # fr
    "decembre": "Dec",
    "januar": "Jan",  # de
    "februar": "Feb",  # de
    "märz": "Mar",  # de
    "maerz": "Mar",
    "dezember": "Dec",  # de
    "dez": "Dec",
    # Portuguese, Italian and Dutch (issue 26: "day month-word year" in other languages)
    "janeiro": "Jan",  # pt
    "fevereiro": "Feb",  # pt
    "março": "Mar",  # pt
    "marco": "Mar",
    "maio": "May",  # pt
    "junho": "Jun",  # pt
    "julho": "Jul",  # pt
    "setembro": "Sep",  # pt
    "outubro": "Oct",  # pt
    "novembro": "Nov",  # pt
    "dezembro": "Dec",  # pt
    "gennaio": "Jan",  # it
    "febbraio": "Feb",  # it
    "aprile": "Apr",  # it
    "maggio": "May",  # it
    "giugno": "Jun",  # it
    "luglio": "Jul",  # it
    "settembre": "Sep",  # it
    "ottobre": "Oct",  # it
    "dicembre": "Dec",  # it
    "maart": "Mar",  # nl
    "augustus": "Aug",  # nl
}
#: The local month names as one regular-expression alternative, longest first.
LOCAL_MONTH_NAMES = "|".join(sorted(LOCAL_MONTHS, key=len, reverse=True))
_LOCAL_MONTH = re.compile(rf"(?i)(?<![^\W\d_])(?:{LOCAL_MONTH_NAMES})(?![^\W\d_])\.?")


# The words a day, month and year are joined by in Spanish and Portuguese ("5 de mayo de
# 1990", "12 de diciembre del 1985") and the French first of the month ("1er janvier 1990").
_DE_BEFORE_MONTH = re.compile(rf"(?i)(?<=[0-9]) de (?=(?:{LOCAL_MONTH_NAMES})(?![^\W\d_]))")
_ENGLISH_SHORT = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"  # what LOCAL_MONTHS gives
_DE_BEFORE_YEAR = re.compile(rf"(?<={_ENGLISH_SHORT}) del? (?=[0-9]{{4}}(?![0-9]))")
_FIRST_OF = re.compile(r"(?i)(?<![0-9])1er(?= )")


def english_month_names(values: pd.Series) -> pd.Series:
    """Text dates with the month names of :data:`LOCAL_MONTHS` written in English ("12 Ogos
    1985" -> "12 Aug 1985", "Marso 12, 1986" -> "Mar 12, 1986", "5 de mayo de 1990" ->
    "5 May 1990", "1er janvier 1990" -> "1 Jan 1990"), for pandas to read; values that are
    not text are returned as they are."""
    if not (pd.api.types.is_object_dtype(values) or pd.api.types.is_string_dtype(values)):
        return values
    replaced = values.str.replace(_DE_BEFORE_MONTH, " ", regex=True)
    replaced = replaced.str.replace(
        _LOCAL_MONTH, lambda m: LOCAL_MONTHS[m.group(0).rstrip(".").lower()], regex=True
    )
    replaced = replaced.str.replace(_DE_BEFORE_YEAR, " ", regex=True)
    replaced = replaced.str.replace(_FIRST_OF, "1", regex=True)
    return replaced.where(replaced.notna(), values)


def to_dates(series: pd.Series, column: str, *, dayfirst: bool) -> pd.Series:
    """Dates read by pandas (day first or not), each value on its own when formats mix;
    a value that is not a date is named with its column and row. Month names of Malay,
    Indonesian, Filipino, Spanish, French and German are read (:func:`english_month_names`)."""
    if pd.api.types.is_datetime64_any_dtype(series):
        return series
    series = english_month_names(series)
    parsed = pd.to_datetime(series, errors="coerce", dayfirst=dayfirst)
    failed = parsed.isna() & series.notna()
    if failed.any():  # several formats in one column: read each value on its own
        parsed = pd.to_datetime(series, errors="coerce", dayfirst=dayfirst, format="mixed")
        failed = parsed.isna() & series.notna()
    if failed.any():
        row = int(failed.to_numpy().nonzero()[0][0])
        raise ParameterError(
            f"Column '{column}' has {int(failed.sum())} value(s) that are not dates, the first "
            f"in row {row + 1} ({shown_value(series.iloc[row])}). Correct them, or write dates like "
            "2003-02-01."
        )
    return parsed


def parse_dates(
    series: pd.Series, column: str, *, latest: pd.Timestamp | None = None, events: bool = False
) -> pd.Series:
    """Dates from text: ISO (2003-02-01) as written, and slash dates day first (08/01/1971 is
    8 January), as the PDPC guide writes them (Step 1, Example 1) and as Singapore does.

    With ``latest`` (dates of birth or of past events), a two-digit year that would land
    after it is in the previous century: :func:`two_digit_years_not_after`."""
    if pd.api.types.is_datetime64_any_dtype(series):
        return series
    # ISO first, on its own: with dayfirst, pandas would read 1777-01-10 as 1 October.
    iso = pd.to_datetime(series, errors="coerce", format="ISO8601")
    others = series.where(iso.isna())  # the rest keep their rows, for the error message
    with warnings.catch_warnings():  # pandas' "could not infer format" is not the user's
        warnings.filterwarnings("ignore", "Could not infer format", UserWarning)
        parsed = (
            iso
            if others.isna().all()
            else iso.fillna(pd.to_datetime(to_dates(others, column, dayfirst=True)))
        )
    if not pd.api.types.is_datetime64_any_dtype(parsed):
        parsed = pd.to_datetime(parsed)
    if latest is None:
        return parsed
    return two_digit_years_not_after(series, parsed, latest, events=events)


def _as_output(
    original: pd.Series, shifted: pd.Series
) -> pd.Series | pd.api.extensions.ExtensionArray:
    """Dates in the input's form: datetimes stay datetimes; text becomes ISO text."""
    if pd.api.types.is_datetime64_any_dtype(original):
        return shifted.array
    has_time = bool((shifted.dropna() != shifted.dropna().dt.normalize()).any())
    text = shifted.dt.strftime("%Y-%m-%d %H:%M:%S" if has_time else "%Y-%m-%d")
    return text.astype("str").array


def _people(df: pd.DataFrame, by: str | None) -> tuple[np.ndarray, int]:
    """One code per person; without ``by`` each record is a person of its own.

    Records with a missing person id are treated as separate people.
    """
    if by is None:
        return np.arange(len(df)), len(df)
    require_columns(df, by, parameter="by")
    codes, uniques = pd.factorize(df[by])
    missing = codes < 0
    codes = codes.astype(np.int64)
    codes[missing] = len(uniques) + np.arange(int(missing.sum()))
    return codes, len(uniques) + int(missing.sum())


def _signed_offsets(rng: np.random.Generator, n: int, low: int, high: int) -> np.ndarray:
    """n integers uniform over {v : low <= |v| <= high}."""
    if low == 0:
        return rng.integers(-high, high + 1, size=n)
    span = high - low + 1
    draw = rng.integers(0, 2 * span, size=n)
    return np.where(draw < span, low + draw, -(low + draw - span))


def shift_dates(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    by: str | None = None,
    max_days: int = 365,
    min_days: int = 1,
    keep_weekday: bool = False,
    seed: int | None = None,
) -> pd.DataFrame:
    """Move all dates of one person by the same random number of days (NIST SP 800-188).

    ``by`` names the person id column (all rows of one person share one offset); without
    it each record is its own person. The offset is uniform over the whole days ``d`` with
    ``min_days <= |d| <= max_days`` (``min_days=1`` by default: no date stays where it was); with ``keep_weekday=True`` it is a whole number of
    weeks in that range, so Monday stays Monday. Every interval between one person's dates
    is kept exactly (NIST warns the intervals themselves can still identify: see
    :func:`perturb_intervals`). Text dates come back as ISO text, datetimes as datetimes.
    """
    columns = require_columns(df, columns, parameter="columns")
    max_days = require_int("max_days", max_days, minimum=1)
    min_days = require_int("min_days", min_days, minimum=0)
    if min_days > max_days:
        raise ParameterError(
            f"Parameter 'min_days' ({min_days}) must not exceed 'max_days' ({max_days})."
        )
    people, n_people = _people(df, by)
    rng = make_rng(seed)
    if keep_weekday:
        low, high = -(-min_days // 7), max_days // 7
        if high < max(low, 1):
            raise ParameterError(
                f"Keeping the weekday shifts by whole weeks, but no whole week lies between "
                f"{min_days} and {max_days} days: raise 'max_days' to at least "
                f"{max(7, 7 * low)}."
            )
        offsets = 7 * _signed_offsets(rng, n_people, max(low, 0), high)
    else:
        offsets = _signed_offsets(rng, n_people, min_days, max_days)
    delta = pd.to_timedelta(offsets[people], unit="D")
    out = df.copy()
    for column in columns:
        dates = parse_dates(df[column], column)
        shifted = pd.Series(dates.to_numpy() + delta.to_numpy(), index=df.index)
        if isinstance(dates.dtype, pd.DatetimeTZDtype):
            shifted = shifted.dt.tz_localize("UTC").dt.tz_convert(dates.dt.tz)
        out[column] = _as_output(df[column], shifted)
    return out


def perturb_intervals(
    df: pd.DataFrame,
    columns: str | Sequence[str],
    *,
    by: str | None = None,
    max_days: int = 3,
    seed: int | None = None,
) -> pd.DataFrame:
    """Change the gaps between one person's dates by up to ``max_days``, keeping their order.

    NIST SP 800-188 4.3.4: "the intervals between dates can be perturbed to protect against
    re-identification attacks that involve identifiable intervals while still maintaining
    the order of events". A person's dates (over ``columns`` and all their rows, grouped by
    ``by``) are sorted; the first stays, and each following gap gets a random whole number of
    days in -max_days..max_days added, but a positive gap never drops below one day (or
    below itself if shorter) and a zero gap stays zero: events never swap or merge. Combine
    with :func:`shift_dates` to hide the first date too.
    """
    columns = require_columns(df, columns, parameter="columns")
    max_days = require_int("max_days", max_days, minimum=1)
    people, _ = _people(df, by)
    parsed = [parse_dates(df[c], c) for c in columns]
    n = len(df)
    values = np.concatenate([p.to_numpy(dtype="datetime64[ns]") for p in parsed]) if n else None
    if values is None:
        return df.copy()
    person = np.tile(people, len(columns))
    present = ~np.isnat(values)
    where = np.flatnonzero(present)
    times = values[where].astype(np.int64)
    who = person[where]
    order = np.lexsort((times, who))
    t, w = times[order], who[order]
    first = np.ones(t.size, dtype=bool)
    first[1:] = w[1:] != w[:-1]
    gap = np.diff(t, prepend=t[:1])
    gap[first] = 0
    day = int(_DAY / np.timedelta64(1, "ns"))
    noise = make_rng(seed).integers(-max_days, max_days + 1, size=t.size) * day
    floor = np.minimum(gap, day)
    new_gap = np.where(gap > 0, np.maximum(gap + noise, floor), 0)
    new_gap[first] = 0
    total = np.cumsum(new_gap)
    start_index = np.maximum.accumulate(np.where(first, np.arange(t.size), 0))
    base = t[start_index]
    new_t = base + total - total[start_index]
    result = values.copy()
    flat = np.empty(t.size, dtype=np.int64)
    flat[order] = new_t
    result[where] = flat.astype("datetime64[ns]")
    out = df.copy()
    for i, column in enumerate(columns):
        block = pd.Series(result[i * n : (i + 1) * n], index=df.index)
        if isinstance(parsed[i].dtype, pd.DatetimeTZDtype):
            block = block.dt.tz_localize("UTC").dt.tz_convert(parsed[i].dt.tz)
        out[column] = _as_output(df[column], block)
    return out


def reference_timestamp(reference_date: str | dt.date | None) -> pd.Timestamp:
    """The reference date as a naive timestamp (today when None); a clear error otherwise."""
    if reference_date is None:
        return pd.Timestamp(dt.date.today())
    try:
        stamp = pd.Timestamp(reference_date)
    except (ValueError, TypeError):
        raise ParameterError(
            f"Parameter 'reference_date' must be a date like 2024-12-31, got {reference_date!r}."
        ) from None
    if pd.isna(stamp):
        raise ParameterError("Parameter 'reference_date' is missing: give a date like 2024-12-31.")
    return stamp.tz_localize(None) if stamp.tzinfo else stamp


def ages_at(dates_of_birth: pd.Series, reference_date: pd.Timestamp) -> pd.Series:
    """Whole years completed on ``reference_date`` (29 February birthdays count on 1 March
    in other years). Missing dates of birth give missing ages."""
    dob = dates_of_birth
    if isinstance(dob.dtype, pd.DatetimeTZDtype):
        dob = dob.dt.tz_localize(None)
    ref_md = reference_date.month * 100 + reference_date.day
    md = dob.dt.month * 100 + dob.dt.day
    years = reference_date.year - dob.dt.year - (md > ref_md).astype("Int64")
    return years.astype("Int64")


def age_from_dob(
    df: pd.DataFrame,
    column: str,
    *,
    reference_date: str | dt.date | None = None,
    new_column: str = "age",
    top: int | None = 90,
    keep_dob: bool = False,
) -> pd.DataFrame:
    """Replace a date of birth by the age in whole years on ``reference_date``.

    Generalisation (PDPC guide, Annex A/B: date of birth). With ``top`` (default 90, as
    HIPAA Safe Harbor requires: "ages over 89 ... aggregated into a single category of age
    90 or older") the column holds text labels, "34" and "90+"; with ``top=None`` whole
    numbers. The date of birth column is removed unless ``keep_dob``; the age takes its
    place. ``reference_date`` defaults to today: give it explicitly so a recipe replays
    the same way tomorrow.
    """
    require_columns(df, column)
    ref = reference_timestamp(reference_date)
    if new_column in df.columns and not (new_column == column and not keep_dob):
        raise ParameterError(
            f"Column '{new_column}' already exists: choose another 'new_column' for the age."
        )
    dob = parse_dates(df[column], column, latest=ref)
    ages = ages_at(dob, ref)
    future = (ages < 0).fillna(False).to_numpy()
    if future.any():
        row = int(np.flatnonzero(future)[0])
        raise ParameterError(
            f"Column '{column}' has {int(future.sum())} date(s) of birth after the reference "
            f"date {ref.date()}, the first in row {row + 1} ({shown_value(df[column].iloc[row])}). "
            "Choose a later 'reference_date' or correct the data."
        )
    if top is not None:
        top = require_int("top", top, minimum=1)
        labels = ages.astype("str")
        labels = labels.where(ages.isna() | (ages < top), f"{top}+")
        values = labels.where(ages.notna()).astype("str")
    else:
        values = ages
    out = df.copy()
    position = list(df.columns).index(column)
    if not keep_dob:
        out = out.drop(columns=[column])
        position = min(position, len(out.columns))
    else:
        position += 1
    out.insert(position, new_column, values.array)
    return out


def perturb_ages(
    df: pd.DataFrame,
    column: str,
    *,
    max_years: int = 2,
    above: int = 25,
    milestones: Sequence[int] = DEFAULT_MILESTONES,
    margin: int = 1,
    seed: int | None = None,
) -> pd.DataFrame:
    """Add a random whole number of years in -max_years..max_years to ages over ``above``.

    NIST SP 800-188 4.3.4: ages can be adjusted +/-2 years over 25 (not for young children),
    but not around milestones such as 62 (retirement benefits). So:

    - ages at or below ``above`` are unchanged, and a perturbed age never drops to it;
    - ages within ``margin`` of a milestone (61, 62, 63 for 62) are unchanged, and no other
      age is moved into such a neighbourhood or across a milestone (it is clipped);
    - top-coded labels such as "90+" are left as they are, missing ages stay missing.
    """
    require_columns(df, column)
    max_years = require_int("max_years", max_years, minimum=1)
    above = require_int("above", above, minimum=0)
    margin = require_int("margin", margin, minimum=0)
    milestones = sorted(require_int("milestones", m, minimum=0) for m in milestones or ())
    series = df[column]
    numbers = pd.to_numeric(series, errors="coerce")
    labels = series.astype("str").str.fullmatch(_TOP_LABEL.pattern).fillna(False)
    bad = numbers.isna() & series.notna() & ~labels
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ParameterError(
            f"Perturbing ages needs numbers, but column '{column}' has {int(bad.sum())} "
            f"value(s) that are not (nor a top-coded label like '90+'), the first in row "
            f"{row + 1} ({shown_value(series.iloc[row])})."
        )
    age = numbers.to_numpy(dtype=float)
    eligible = np.isfinite(age) & (age > above)
    for m in milestones:
        eligible &= ~((age >= m - margin) & (age <= m + margin))
    noise = make_rng(seed).integers(-max_years, max_years + 1, size=len(df))
    new = np.maximum(age + noise, above + 1)
    for m in milestones:
        new = np.where(age < m - margin, np.minimum(new, m - margin - 1), new)
        new = np.where(age > m + margin, np.maximum(new, m + margin + 1), new)
    result = np.where(eligible, new, age)
    out = df.copy()
    if pd.api.types.is_numeric_dtype(series):
        if pd.api.types.is_integer_dtype(series):
            out[column] = pd.array(result, dtype=series.dtype)
        else:
            out[column] = result
    else:
        text = pd.Series(result, index=df.index)
        whole = np.isfinite(result) & (result == np.round(result))
        if whole.sum() == np.isfinite(result).sum():
            text = text.astype("Int64")
        as_text = text.astype("str")
        out[column] = as_text.where(~labels, series.astype("str")).where(series.notna()).array
    return out
