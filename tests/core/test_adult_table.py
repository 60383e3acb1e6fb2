"""The engine on a real table: the adult census extract with ARX's hierarchies.

Figures are checked against pandas group-bys written in the tests (an independent
method), never against numbers produced by the code under test.
"""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.hierarchy import read_hierarchy
from core.io import read_table
from core.privacy import equivalence_classes, l_diversity
from core.recipe import Recipe, apply_recipe
from core.risk import risk_report

QI = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
]


@pytest.fixture(scope="module")
def hierarchies(adult_hierarchies_dir):
    return {c: read_hierarchy(adult_hierarchies_dir / f"adult_hierarchy_{c}.csv") for c in QI}


def test_read_table_reads_the_adult_file(adult_hierarchies_dir):
    df = read_table(adult_hierarchies_dir / "adult.csv")
    assert df.shape == (30162, 9)  # from the data set's README
    assert df.attrs["source"]["sep"] == ";"


def test_risk_report_on_adult_matches_pandas(adult):
    report = risk_report(adult, QI, k_threshold=5, sensitive="salary-class")
    sizes = adult.groupby(QI)["age"].transform("size")
    assert report.k == sizes.min()
    assert report.uniques == (sizes == 1).sum()
    assert report.records_below_k == (sizes < 5).sum()
    assert report.classes == adult.groupby(QI).ngroups
    assert report.avg_risk == pytest.approx((1 / sizes).mean())
    distinct = adult.groupby(QI)["salary-class"].nunique()
    assert report.l_distinct == distinct.min()


@pytest.fixture(scope="module")
def generalised(_adult_table, hierarchies):
    """Each quasi-identifier of adult at each level of its hierarchy, generalised once for
    all the drawn combinations below (the hierarchies are the code under test here)."""
    return {
        (c, level): hierarchies[c].generalise(_adult_table[c], level)
        for c in QI
        for level in range(hierarchies[c].height + 1)
    }


def _at_levels(generalised, levels) -> pd.DataFrame:
    return pd.DataFrame({c: generalised[c, level] for c, level in zip(QI, levels, strict=True)})


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_k_never_decreases_when_generalising_further(generalised, hierarchies, data):
    heights = [hierarchies[c].height for c in QI]
    levels = [data.draw(st.integers(0, h)) for h in heights]
    raise_at = data.draw(
        st.sampled_from([i for i, h in enumerate(heights) if levels[i] < h] or [0])
    )
    higher = list(levels)
    higher[raise_at] = min(heights[raise_at], levels[raise_at] + 1)
    k_low = equivalence_classes(_at_levels(generalised, levels), QI).k
    k_high = equivalence_classes(_at_levels(generalised, higher), QI).k
    assert k_high >= k_low


def test_recipe_with_hierarchies_reaches_5_anonymity(adult, adult_hierarchies_dir):
    levels = {
        "age": 2,
        "education": 2,
        "native-country": 1,
        "marital-status": 1,
        "workclass": 1,
        "occupation": 1,
    }
    steps = [
        {"step": "generalise", "column": c, "hierarchy": f"adult_hierarchy_{c}.csv", "level": lv}
        for c, lv in levels.items()
    ]
    steps.append({"step": "suppress_records", "below_k": 5, "quasi_identifiers": QI})
    result = apply_recipe(adult, Recipe(tuple(steps), seed=1), base_dir=adult_hierarchies_dir)
    sizes = result.data.groupby(QI).size()
    assert sizes.min() >= 5
    # Suppression removed exactly the records in classes below 5 after generalisation,
    # counted here with pandas on a table generalised by reading the hierarchy files.
    generalised = adult.copy()
    for column, level in levels.items():
        table = pd.read_csv(
            adult_hierarchies_dir / f"adult_hierarchy_{column}.csv", sep=";", header=None, dtype=str
        )
        lookup = dict(zip(table[0], table[level], strict=True))
        generalised[column] = adult[column].astype(str).map(lookup)
    class_size = generalised.groupby(QI)["age"].transform("size")
    assert len(adult) - len(result.data) == (class_size < 5).sum()
    l_div = l_diversity(result.data, QI, "salary-class")
    assert l_div.distinct == result.data.groupby(QI)["salary-class"].nunique().min()
