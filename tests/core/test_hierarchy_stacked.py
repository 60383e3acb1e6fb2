"""A value an earlier step already generalised with the same hierarchy goes to its ancestor
(issue 30: a recipe's 'date of birth -> year' step, then a trade-off option that generalises
the dates of birth to years or decades, failed with "'1940' is not in hierarchy")."""

from __future__ import annotations

import pandas as pd
import pytest

from core.errors import ParameterError
from core.hierarchy import date_hierarchy


def test_labels_of_a_finer_or_equal_level_go_to_their_ancestor():
    # levels: 0 day, 1 month, 2 year, 3 decade, 4 *
    h = date_hierarchy(["1985-03-12", "1940-07-01"], ("month", "year", "decade"))
    values = pd.Series(["1985-03-12", "1940", "1985-03", None], name="dob")
    assert h.generalise(values, 2).tolist()[:3] == ["1985", "1940", "1985"]
    assert h.generalise(values, 3).tolist()[:3] == ["1980s", "1940s", "1980s"]
    assert pd.isna(h.generalise(values, 3).iloc[3])
    # a year cannot be made a month: named as before
    with pytest.raises(ParameterError, match=r"'1940' in column 'dob' \(row 2\)"):
        h.generalise(values, 1)
    with pytest.raises(ParameterError, match="'2001-01-01'"):
        h.generalise(pd.Series(["2001-01-01"], name="dob"), 2)
