"""core.measures.impact on the paths a large table takes (issue 31): the columns shared
between two threads (100,000 value combinations or more, four columns or more), record
counts too large to share one 64-bit key with the combination (a frequency table), and
the risk report's path (the classes' keys in ascending order, worked on in 32 bits where
they fit), each against pandas grouping the records without each column."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.measures.impact import quasi_identifier_impact
from core.risk import risk_report


def _figures_by_groupby(df: pd.DataFrame, qis: list[str], k: int, weights=None) -> dict:
    """Independent method: pandas sums the records of each group of the other columns."""
    records = pd.Series(1 if weights is None else weights, index=df.index)
    figures = {}
    for column in qis:
        rest = [c for c in qis if c != column]
        size = records.groupby([df[c] for c in rest], dropna=False, observed=True).sum()
        figures[column] = (
            int(size.min()),
            int((size == 1).sum()),
            int(size[size < k].sum()),
        )
    return figures


def test_impact_on_many_combinations_is_a_pandas_groupby():
    """120,000 records of 6 columns, nearly all combinations distinct: the threaded path."""
    rng = np.random.default_rng(31)
    rows = 120_000
    df = pd.DataFrame(
        {
            "age": rng.integers(17, 91, rows),
            "sex": rng.choice(["F", "M"], rows),
            "town": rng.choice([f"t{i}" for i in range(40)], rows),
            "job": rng.choice([f"j{i}" for i in range(30)], rows),
            "band": rng.integers(0, 12, rows),
            "year": rng.integers(1990, 2010, rows),
        }
    )
    qis = list(df.columns)
    assert len(df.drop_duplicates()) > 100_000
    impact = quasi_identifier_impact(df, qis, k=5)
    expected = _figures_by_groupby(df, qis, 5)
    for figure in impact:
        assert (
            figure.k_without,
            figure.uniques_without,
            figure.records_below_k_without,
        ) == expected[figure.quasi_identifier]


def test_impact_with_counts_too_large_for_one_key_is_a_pandas_groupby():
    """Cardinalities whose product is about 2**52 and counts up to 2**20: the combination
    and its count need more than 63 bits, so each column's groups are summed apart."""
    rng = np.random.default_rng(7)
    rows = 4000
    df = pd.DataFrame({f"c{i}": rng.integers(0, 2**13, rows) for i in range(4)})
    df = pd.concat([df, df.iloc[:1000].assign(c0=df["c0"].iloc[:1000] + 1)], ignore_index=True)
    qis = list(df.columns)
    counts = rng.integers(1, 2**20, len(df))
    assert np.prod([float(df[c].nunique()) for c in qis]) * 2**20 > 2.0**62
    impact = quasi_identifier_impact(df, qis, k=2**19, counts=counts)
    expected = _figures_by_groupby(df, qis, 2**19, counts)
    for figure in impact:
        assert (
            figure.k_without,
            figure.uniques_without,
            figure.records_below_k_without,
        ) == expected[figure.quasi_identifier]


def _skewed_table(rng: np.random.Generator, rows: int, sizes: dict[str, int]) -> pd.DataFrame:
    """Columns of integer codes drawn with Zipf-like weights (so leaving a column out merges
    many combinations), a sex column stored as a Categorical with an unused category and a
    missing value, and the first rows repeated (classes of two and three records)."""
    columns = {}
    for name, size in sizes.items():
        weights = 1 / np.arange(1, size + 1) ** 0.7
        columns[name] = rng.choice(size, rows, p=weights / weights.sum())
    df = pd.DataFrame(columns)
    sex = pd.Categorical(rng.choice(["F", "M"], rows), categories=["F", "M", "X"])
    sex[:3] = np.nan
    df.insert(0, "sex", sex)
    df["income"] = rng.choice(["low", "mid", "high"], rows)
    return pd.concat([df, df.iloc[: rows // 50], df.iloc[: rows // 300]], ignore_index=True)


@pytest.mark.parametrize(
    ("rows", "sizes"),
    [
        # 4 x 91 x 300 x 400 x 90 combinations (below 2**32): the keys in 32 bits; without
        # sex, key and count need 33 bits (that column in 64), the others fit 32
        (150_000, {"age": 91, "town": 300, "job": 400, "band": 90}),
        # over 2**32 combinations: every number in 64 bits
        (150_000, {"age": 91, "town": 300, "job": 400, "band": 90, "year": 50}),
        # one thread
        (3_000, {"age": 20, "town": 8, "job": 6}),
    ],
)
def test_risk_report_impact_is_a_pandas_groupby(rows, sizes):
    rng = np.random.default_rng(rows + len(sizes))
    df = _skewed_table(rng, rows, sizes)
    qis = ["sex", *sizes]
    report = risk_report(df, qis, k_threshold=5, sensitive="income")
    expected = _figures_by_groupby(df, qis, 5)
    assert [i.quasi_identifier for i in report.impact] == qis
    for figure in report.impact:
        column = figure.quasi_identifier
        assert (
            figure.k_without,
            figure.uniques_without,
            figure.records_below_k_without,
        ) == expected[column]
        assert figure.distinct_values == df[column].nunique(dropna=False)
    uniques_without = [expected[column][1] for column in qis]
    assert min(uniques_without) < report.uniques  # leaving a column out merges classes


@pytest.mark.parametrize(
    ("smallest", "largest", "k"),
    [
        (1, 3, 3),  # counts as small as k: packed whole
        (1, 60, 5),  # counts cut at 7 in the packed keys; groups of one record remain
        (8, 100, 5),  # every group above the cut: each column counted again whole
        (1, 3000, 1000),  # a large k: counts cut at 1023
    ],
)
def test_risk_report_impact_of_a_frequency_table_is_a_pandas_groupby(smallest, largest, k):
    """The same through the counts of a frequency table (what the engines hand over)."""
    rng = np.random.default_rng(largest)
    sizes = {"age": 91, "town": 300, "job": 400, "band": 90}
    df = _skewed_table(rng, 120_000, sizes)
    qis = ["sex", *sizes]
    freq = df.groupby([*qis, "income"], dropna=False, observed=True).size().reset_index()
    freq.pop(0)
    counts = rng.integers(smallest, largest + 1, len(freq))
    report = risk_report(freq, qis, k_threshold=k, sensitive="income", counts=counts)
    expected = _figures_by_groupby(freq, qis, k, counts)
    for figure in report.impact:
        assert (
            figure.k_without,
            figure.uniques_without,
            figure.records_below_k_without,
        ) == expected[figure.quasi_identifier]
    assert (min(figures[0] for figures in expected.values()) >= 8) == (smallest == 8)
