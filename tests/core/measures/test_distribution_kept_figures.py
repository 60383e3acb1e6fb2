"""ClassDistribution computes distinct l and each distance's EMD once and hands the same
read-only arrays to every reader (the risk report's l and t, then the models' figures;
issue 31), and delta and beta are worked in place. The figures must stay each distance's
own: hand calculations below."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.measures.distributions import class_distribution


@pytest.fixture
def dist():
    # class A: income 1, 1, 2; class B: income 2, 3, 3 (numbers: t's "auto" is ordered)
    df = pd.DataFrame({"zip": ["A", "A", "A", "B", "B", "B"], "income": [1, 1, 2, 2, 3, 3]})
    return class_distribution(df, ["zip"], "income")


# Whole table: 1 -> 2/6, 2 -> 2/6, 3 -> 2/6.
# Equal distance, 0.5 * sum |p - q|:
#   A (2/3, 1/3, 0): 0.5 * (1/3 + 0 + 1/3) = 1/3; B (0, 1/3, 2/3): the same, 1/3.
# Ordered distance (Li et al. 2007), sum of |cumulative p - q| / (m - 1), m = 3:
#   A: p - q = (1/3, 0, -1/3), cumulative 1/3, 1/3, 0 -> (2/3) / 2 = 1/3;
#   B: p - q = (-1/3, 0, 1/3), cumulative -1/3, -1/3, 0 -> 1/3.
# Both 1/3 here; a class holding one value tells them apart: see the second test.


def test_each_distance_keeps_its_own_emd(dist):
    assert dist.emd("equal") == pytest.approx([1 / 3, 1 / 3])
    assert dist.emd("auto") == pytest.approx([1 / 3, 1 / 3])
    assert dist.distinct().tolist() == [2, 2]


def test_auto_after_equal_is_the_ordered_distance_not_the_equal_one():
    # class A: 1, 1, 1; class B: 3, 3, 3. Table: 1 -> 1/2, 3 -> 1/2 (values 1 and 3).
    # Equal: A (1, 0) against (1/2, 1/2): 0.5 * (1/2 + 1/2) = 1/2, B the same.
    # Ordered over the 2 values present (m = 2): A p - q = (1/2, -1/2), cumulative 1/2, 0
    #   -> (1/2) / 1 = 1/2. With a middle value 2 present in the table (class C: 2) the
    #   two distances differ: table 1 -> 3/7, 2 -> 1/7, 3 -> 3/7.
    #   A (1, 0, 0): equal 0.5 * (4/7 + 1/7 + 3/7) = 4/7;
    #   ordered: p - q = (4/7, -1/7, -3/7), cumulative 4/7, 3/7, 0 -> (7/7) / 2 = 1/2.
    df = pd.DataFrame({"zip": list("AAABBBC"), "income": [1, 1, 1, 3, 3, 3, 2]})
    dist = class_distribution(df, ["zip"], "income")
    equal = dist.emd("equal")
    ordered = dist.emd("auto")
    assert equal[0] == pytest.approx(4 / 7)
    assert ordered[0] == pytest.approx(1 / 2)
    assert dist.emd("ordered") is ordered  # "auto" is the ordered one here: kept once
    assert dist.emd("equal") is equal  # computed once


def test_delta_and_beta_by_hand(dist):
    # A: shares 2/3, 1/3 of values 1, 2 (table 1/3 each): |ln 2| and |ln 1| -> delta ln 2;
    # gains (2/3 - 1/3) / (1/3) = 1 and 0 -> beta 1. B the same by symmetry.
    assert dist.delta() == pytest.approx([np.log(2), np.log(2)])
    assert dist.beta() == pytest.approx([1.0, 1.0])


def test_the_kept_arrays_are_read_only(dist):
    for kept in (dist.distinct(), dist.emd("equal"), dist.emd("auto")):
        with pytest.raises(ValueError):
            kept[0] = 0
    assert np.array_equal(dist.distinct(), [2, 2])
