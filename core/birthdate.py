"""Observed uniqueness on date of birth, sex and locality, against the birthday model.

Gibbon & Aisbett ("Matching records on birthdate, sex and locality") show that a person
is singled out by (date of birth, sex, locality) unless someone of the same age and sex in
the same locality shares the birthday. Within one age-sex cell of n people the expected
share of unique birthdays is ((days-1)/days)^(n-1) (Section 2, eq. 1 with q = 1); summing
over cells weighted by their size gives the locality's expected unique share (Section 3,
eq. 3). :func:`observed_uniqueness` counts the records of a table that really are unique
on the three attributes (PDPC guide, Step 4: k = 1) and puts the model's prediction, with
the table's own cells (year of birth x sex x locality), next to it, like the paper's Fig. 4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from core.dates import two_digit_years_not_after
from core.errors import ParameterError
from core.formatting import fmt_percent
from core.measures.classes import equivalence_classes
from core.risk import p_shares_birthday
from core.validation import require_columns, require_int, shown_value

_DATE_SHAPE = r"^\s*(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4})(?:[ T].*)?$"


def date_like_columns(df: pd.DataFrame, *, sample_size: int = 500, share: float = 0.9) -> list[str]:
    """Columns holding dates: datetime columns, or text where most values look like dates.

    A text value looks like a date when it reads as year-month-day or day-month-year with
    a four-digit year (e.g. 1987-04-26, 26/04/1987).
    """
    found = []
    for column in df.columns:
        series = df[column]
        if pd.api.types.is_datetime64_any_dtype(series):
            found.append(str(column))
            continue
        if pd.api.types.is_numeric_dtype(series) or pd.api.types.is_bool_dtype(series):
            continue
        values = series.dropna()
        if values.empty:
            continue
        values = values.iloc[:sample_size].astype(str)
        if values.str.match(_DATE_SHAPE).mean() >= share:
            found.append(str(column))
    return found


def _dates(series: pd.Series) -> pd.Series:
    if pd.api.types.is_datetime64_any_dtype(series):
        return series.dt.normalize()
    text = series.astype("str").where(series.notna())
    parsed = pd.to_datetime(text, errors="coerce", format="ISO8601")
    if parsed.notna().sum() < text.notna().sum() / 2:  # not ISO: try day first (Singapore)
        parsed = pd.to_datetime(text, errors="coerce", dayfirst=True, format="mixed")
    # Births are in the past: 02/01/42 is 1942, not the 2042 pandas reads.
    parsed = two_digit_years_not_after(text, parsed, pd.Timestamp.today().normalize())
    return parsed.dt.normalize()


@dataclass(frozen=True)
class ObservedUniqueness:
    """Records unique on (date of birth, sex, locality) and the model's expectation."""

    records: int  # records with a date of birth, sex and locality
    skipped: int  # records left out because one of the three is missing or unreadable
    localities: int
    observed_unique: int
    observed_share: float
    predicted_share: float
    per_locality: pd.DataFrame = field(repr=False)  # locality, records, observed, predicted

    def explanation(self) -> str:
        return (
            f"{self.observed_unique:,} of {self.records:,} records "
            f"({fmt_percent(self.observed_share)}) "
            "are the only one with their date of birth, sex and locality in this table; the "
            "birthday model, given how many records share each year of birth, sex and locality, "
            f"expects {fmt_percent(self.predicted_share)} (Gibbon & Aisbett, Section 3, eq. 3; "
            "PDPC guide, Step 4: a unique record has k = 1)."
        )


def observed_uniqueness(
    df: pd.DataFrame,
    *,
    date_of_birth: str,
    sex: str,
    locality: str,
    locality_prefix: int | None = None,
    days: int = 365,
) -> ObservedUniqueness:
    """Share of records unique on (date of birth, sex, locality), observed and predicted.

    ``locality_prefix`` keeps only the first characters of the locality (e.g. 2 turns a
    Singapore postal code into its postal sector). The prediction treats each year of
    birth as one age cell: a cell of n records is expected to hold
    n * ((days-1)/days)^(n-1) records with a unique birthday (Gibbon & Aisbett, eq. 1/3).
    """
    require_columns(df, [date_of_birth, sex, locality])
    days = require_int("days", days, minimum=2)
    place = df[locality].astype("str").where(df[locality].notna())
    if locality_prefix is not None:
        place = place.str[: require_int("locality_prefix", locality_prefix, minimum=1)]
    frame = pd.DataFrame(
        {"dob": _dates(df[date_of_birth]), "sex": df[sex], "locality": place}
    ).reset_index(drop=True)
    keep = frame.notna().all(axis=1)
    frame = frame[keep].reset_index(drop=True)
    skipped = int((~keep).sum())
    if frame.empty:
        empty = pd.DataFrame(columns=["locality", "records", "observed_share", "predicted_share"])
        return ObservedUniqueness(0, skipped, 0, 0, 0.0, 0.0, empty)
    classes = equivalence_classes(frame, ["dob", "sex", "locality"])
    frame["unique"] = classes.size_of_record == 1
    frame["year"] = frame["dob"].dt.year
    cell_size = frame.groupby(["year", "sex", "locality"], sort=False)["dob"].transform("size")
    n = cell_size.to_numpy(dtype=float)
    frame["expected"] = np.exp((n - 1) * math.log1p(-1 / days))  # eq. 1, q = 1, per record
    per = (
        frame.groupby("locality", sort=True)
        .agg(
            records=("unique", "size"),
            observed_share=("unique", "mean"),
            predicted_share=("expected", "mean"),
        )
        .reset_index()
    )
    per["observed_share"] = per["observed_share"].astype(float)
    return ObservedUniqueness(
        records=len(frame),
        skipped=skipped,
        localities=len(per),
        observed_unique=int(frame["unique"].sum()),
        observed_share=float(frame["unique"].mean()),
        predicted_share=float(frame["expected"].mean()),
        per_locality=per,
    )


def birthday_curves(
    max_population: int = 3000, *, qs: tuple[int, ...] = (1, 2, 3, 4), days: int = 365
) -> pd.DataFrame:
    """p_q(N) for N = 1..max_population, one row per (N, q): Gibbon & Aisbett's Fig. 1.

    p_q(N) is the chance that a person shares their birthday with exactly q-1 of the other
    N-1 people of their cell (Section 2, eq. 1); p_1(N) is the chance of being unique.
    """
    max_population = require_int("max_population", max_population, minimum=1)
    populations = np.arange(1, max_population + 1)
    frames = [
        pd.DataFrame(
            {
                "population": populations,
                "q": q,
                "probability": [p_shares_birthday(int(n), q, days=days) for n in populations],
            }
        )
        for q in qs
    ]
    return pd.concat(frames, ignore_index=True)


def cell_shares_from_table(table: pd.DataFrame, *, column: str = "share") -> np.ndarray:
    """Shares per age-sex cell from a table's ``column`` (shares or head counts), summing to 1.

    Gibbon & Aisbett, Section 3: d_s(A) = N(A, s) / N, the share of the locality's people
    of sex s and age A. Counts are divided by their total; empty cells are dropped.
    """
    require_columns(table, [column])
    values = pd.to_numeric(table[column], errors="coerce")
    bad = values.isna() & table[column].notna()
    if bad.any() or (values < 0).any():
        row = int(np.flatnonzero(bad.to_numpy() | (values < 0).to_numpy())[0]) + 1
        raise ParameterError(
            f"Column '{column}' must hold non-negative numbers (shares or head counts); "
            f"row {row} holds {shown_value(table[column].iloc[row - 1])}."
        )
    values = values.dropna().to_numpy(dtype=float)
    total = values.sum()
    if total <= 0:
        raise ParameterError(f"Column '{column}' must have at least one share above 0.")
    return values / total
