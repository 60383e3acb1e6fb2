"""Tables of figures on a page: every number read as core.formatting writes it.

``st.dataframe`` on its own shows a count as 5083 and a mean as 4563.857199; formatting
the numbers into text first would make the grid sort "949" after "5,083". A pandas Styler
carries both: the grid shows the Styler's text and still sorts on the numbers underneath.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd
from pandas.io.formats.style import Styler

from core.formatting import fmt_count, fmt_number, fmt_percent


def formatted_table(
    table: pd.DataFrame,
    *,
    counts: Iterable[str] = (),
    measures: Iterable[str] = (),
    shares: Iterable[str] = (),
    labels: Iterable[str] = (),
) -> Styler:
    """``table`` for ``st.dataframe`` with its figures shown through core.formatting:
    ``counts`` with :func:`fmt_count` (5,083), ``measures`` and every other numeric column
    with :func:`fmt_number` (4,564; 0.25), ``shares`` (0..1) with :func:`fmt_percent`
    (3.4%); a missing figure reads "-". ``labels`` are numeric columns that name something
    (an id, a year, a postal code) and stay as they are; other non-numeric columns are never
    touched. A ``column_config`` column without a format of its own shows this text.
    """
    by_kind = {
        **dict.fromkeys(measures, fmt_number),
        **dict.fromkeys(counts, fmt_count),
        **dict.fromkeys(shares, fmt_percent),
    }
    labels = set(labels)
    formats = {
        column: by_kind.get(column, fmt_number)
        for column in table.columns
        if column in by_kind
        or (
            column not in labels
            and pd.api.types.is_numeric_dtype(table[column])
            and not pd.api.types.is_bool_dtype(table[column])
        )
    }
    return table.style.format(formats)
