"""core.measures.impact on the paths a large table takes (issue 31): the columns shared
between two threads (100,000 value combinations or more, four columns or more), and record
counts too large to share one 64-bit key with the combination (a frequency table)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.measures.impact import quasi_identifier_impact


def _figures_by_groupby(df: pd.DataFrame, qis: list[str], k: int, weights=None) -> dict:
    """Independent method: pandas sums the records of each group of the other columns."""
    records = pd.Series(1 if weights is None else weights, index=df.index)
    figures = {}
    for column in qis:
        rest = [c for c in qis if c != column]
        size = records.groupby([df[c] for c in rest], dropna=False).sum()
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
