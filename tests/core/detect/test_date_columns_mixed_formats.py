"""Step 1 on a column of dates written in several formats at once, as a clinic's export
mixes them, here 3 in 8 written "22-Aug-2025" (issue 26: eval8's visit-date column in the formats of a date of birth was read
as text): "26 August 2025", "8/8/25", "08.08.2025", "22-Aug-2025". A date is an
indirect identifier (PDPC guide, Step 1; HIPAA §164.514(b)(2)(i)(C)); dates spread over
a lifetime are dates of birth. Values made up here."""

import numpy as np
import pandas as pd

from core.schema import suggest_roles

_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
_LONG = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _written(day: int, month: int, year: int, style: int) -> str:
    return [
        f"{day} {_LONG[month - 1]} {year}",
        f"{day}/{month}/{year % 100:02d}",
        f"{day:02d}.{month:02d}.{year}",
        f"{day:02d}-{_MONTHS[month - 1]}-{year}",
        f"{day:02d}/{month:02d}/{year}",
    ][style]


# 3 in 8 written "22-Aug-2025", more than the fifth of the values a shape may miss
_STYLES = (0, 1, 2, 3, 3, 4, 3, 1)


def _column(years: tuple[int, int], seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [
        _written(
            int(rng.integers(1, 29)),
            int(rng.integers(1, 13)),
            int(rng.integers(*years)),
            _STYLES[i % 8],
        )
        for i in range(400)
    ]


def test_mixed_format_dates_are_a_date_column() -> None:
    table = pd.DataFrame({"c2": _column((2025, 2026), 1), "c3": _column((1940, 2005), 2)})
    roles = {s.column: s for s in suggest_roles(table)}
    assert roles["c2"].kind == "date", roles["c2"].reason
    assert roles["c3"].kind == "date_of_birth", roles["c3"].reason


def test_buddhist_era_years_do_not_wrap_round_into_a_lifetime() -> None:
    """A Thai clinic writes 2025 as 2568 (Buddhist era, +543): out of a timestamp's
    range, such a value must not come back as a year in the 1980s and make visit dates
    look spread over a lifetime (dates of birth)."""
    visits = _column((2025, 2026), 3)
    visits[::8] = [f"{d % 28 + 1:02d}/08/2568" for d in range(50)]
    kind = {s.column: s.kind for s in suggest_roles(pd.DataFrame({"v": visits}))}["v"]
    assert kind == "date"
