"""A column of US SSNs written as 9 bare digits under a header that says nothing, or under
'SSN' (issue 26); random 9-digit numbers, runs of record numbers and 8-digit batch numbers
are not SSNs.

Why a column can tell what one number cannot (worked by hand): the SSA's rules reject
areas 000, 666 and 900-999 (102 of 1,000), group 00 (1 in 100) and serial 0000 (1 in
10,000), so a random 9-digit number keeps them with probability 0.898 x 0.99 x 0.9999 =
0.889; 60 random ones all keep them with probability 0.889^60 = 0.0009.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.schema import suggest_roles


def _ssns(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    area = rng.integers(1, 900, n)
    area = np.where(area == 666, 667, area)
    group = rng.integers(1, 100, n)
    serial = rng.integers(1, 10_000, n)
    return [f"{a:03d}{g:02d}{s:04d}" for a, g, s in zip(area, group, serial, strict=True)]


def test_bare_ssn_column_without_a_telling_header() -> None:
    ssn = _ssns(200, 1)
    rng = np.random.default_rng(2)
    table = pd.DataFrame(
        {
            "c3": ssn,
            "c5": [int(x) for x in ssn],  # numeric: areas 001-099 lost their zeros
            "c4": [str(x) for x in rng.integers(100_000_000, 999_999_999, 200)],
            "c8": [str(100_200_300 + i) for i in range(200)],  # a run of record numbers
        }
    )
    roles = {s.column: s for s in suggest_roles(table)}
    for column in ("c3", "c5"):
        assert roles[column].kind == "ssn", roles[column].reason
        assert roles[column].role.value == "direct"
    # random digits break the rules 1 time in 9 (about 22 of 200): not SSNs
    assert roles["c4"].kind != "ssn"
    # record numbers share their first digits: not the spread areas of people's SSNs
    assert roles["c8"].kind != "ssn"


def test_ssn_header_with_few_distinct_values() -> None:
    ssn = _ssns(20, 3) * 10
    table = pd.DataFrame({"SSN": ssn, "Social Security No": ssn})
    for suggestion in suggest_roles(table):
        assert suggestion.kind == "ssn" and suggestion.role.value == "direct", suggestion


def test_eight_digit_batch_numbers_stay_neither_phone_nor_ssn() -> None:
    rng = np.random.default_rng(4)
    batches = [str(x) for x in rng.integers(10_000_000, 99_999_999, 40)] * 7
    table = pd.DataFrame({"c6": batches, "c7": [int(x) for x in batches]})
    for suggestion in suggest_roles(table):
        assert suggestion.kind not in {"ssn", "phone"}, suggestion
        assert suggestion.role.value != "direct", suggestion
