"""Numbers as people read them: the one formatter for the dashboard and the report.

The same figure must read the same everywhere (issue 17, "Numbers"): a count is a whole
number with thousands separators (14,021), a probability or risk has three significant
digits (0.00492, never 0.004918 on one page and 0.0049 on another), a share is a
percentage with no more digits than it needs (100%, 3.4%, 0.13%), and a measurement
keeps its unit (120 m). Every function returns "-" for a missing value (None or NaN).
"""

from __future__ import annotations

import math
from numbers import Real

__all__ = [
    "MISSING",
    "fmt_change",
    "fmt_count",
    "fmt_number",
    "fmt_percent",
    "fmt_probability",
    "fmt_value",
    "json_figures",
]

#: What a missing figure is shown as.
MISSING = "-"
#: Significant digits of a probability, a risk or any other measured ratio.
PROBABILITY_DIGITS = 3


def _missing(value: object) -> bool:
    if value is None:
        return True
    try:
        return math.isnan(float(value))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


def fmt_count(value: float | None) -> str:
    """A count of records, people, cells...: whole, with thousands separators (95,000)."""
    if _missing(value):
        return MISSING
    return f"{round(float(value)):,}"  # type: ignore[arg-type]


def fmt_number(value: float | None, digits: int = PROBABILITY_DIGITS, unit: str = "") -> str:
    """A measured number with ``digits`` significant digits and thousands separators.

    Whole numbers keep all their digits (1,234,567 not 1.23e+06); small ones never turn
    into scientific notation above 1e-6 (0.000123). ``unit`` is appended after a space.
    """
    if _missing(value):
        return MISSING
    number = float(value)  # type: ignore[arg-type]
    suffix = f" {unit}" if unit else ""
    if math.isinf(number):
        return ("-∞" if number < 0 else "∞") + suffix
    if number == 0:
        return "0" + suffix
    magnitude = math.floor(math.log10(abs(number)))
    if number.is_integer() or magnitude + 1 >= digits:
        return f"{round(number):,}{suffix}"
    if magnitude < -6:
        return f"{number:.{digits - 1}e}{suffix}"
    decimals = digits - 1 - magnitude
    text = f"{number:,.{decimals}f}".rstrip("0").rstrip(".")
    return text + suffix


def fmt_change(after: float, before: float, digits: int = PROBABILITY_DIGITS) -> str:
    """A change from ``before`` to ``after`` with its sign (+0.012, -3), for a metric's
    delta. A difference within float rounding of the figures (1e-9 of the larger) reads
    "0", never "-1.39e-17" (issue 29)."""
    change = float(after) - float(before)
    scale = max(abs(float(after)), abs(float(before)), 1.0)
    if abs(change) <= 1e-9 * scale:
        return "0"
    text = fmt_number(abs(change), digits)
    return ("-" if change < 0 else "+") + text


def fmt_probability(value: float | None) -> str:
    """A probability or risk (0..1) with three significant digits: 0.00492, 0.2, 1."""
    return fmt_number(value, PROBABILITY_DIGITS)


def fmt_percent(share: float | None, digits: int = 2) -> str:
    """A share (0..1) as a percentage with no more digits than it needs.

    Exact values have no decimals (100%, 25%); others keep one decimal from 1% up (3.4%)
    and ``digits`` significant digits below (0.13%). A share that is not exactly 0 or 1
    never reads "0%" or "100%" (it reads "<0.01%" or ">99.9%").
    """
    if _missing(share):
        return MISSING
    percent = float(share) * 100  # type: ignore[arg-type]
    if percent.is_integer():
        return f"{int(percent):,}%"
    if 0 < percent < 0.01:
        return "<0.01%"
    if 99.95 <= percent < 100:
        return ">99.9%"
    text = f"{percent:,.1f}" if abs(percent) >= 1 else fmt_number(percent, digits)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text}%"


def fmt_value(value: object) -> str:
    """Any figure of a table (report rows): counts as counts, other reals as measures."""
    if _missing(value):
        return MISSING
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return fmt_count(value)
    if isinstance(value, Real):
        number = float(value)
        return fmt_count(number) if number.is_integer() else fmt_number(number)
    return str(value)


#: Significant digits of a figure written to a JSON file (report.json): enough for every
#: comparison a reader makes, none of a float's rounding noise (0.09999999999999999).
JSON_DIGITS = 10


def json_figures(data: object, digits: int = JSON_DIGITS) -> object:
    """``data`` (dicts, lists, tuples of figures and text) with every float rounded to
    ``digits`` significant digits, for a JSON file a person may read (issue 29). Whole
    numbers, text, booleans and non-finite floats are kept as they are."""
    if isinstance(data, float):
        if not math.isfinite(data) or data == 0:
            return data
        return float(f"{data:.{digits}g}")
    if isinstance(data, dict):
        return {key: json_figures(value, digits) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [json_figures(value, digits) for value in data]
    return data
