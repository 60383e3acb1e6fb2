"""PRAM: sdcMicro's invariant transition matrix (R/pram.R) checked by its defining
property and by hand, given matrices, seeds and bad matrices."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.errors import ParameterError
from core.techniques import pram
from core.techniques.post_randomisation import invariant_matrix

TABLE = pd.DataFrame(
    {
        "region": ["north"] * 500 + ["south"] * 300 + ["east"] * 200 + [None] * 5,
        "code": [1] * 500 + [2] * 300 + [3] * 200 + [np.nan] * 5,
    }
)


def test_invariant_matrix_keeps_expected_frequencies():
    p = np.array([0.5, 0.3, 0.2])
    matrix = invariant_matrix(p * 1000, pd_min=0.8, alpha=0.5, rng=np.random.default_rng(0))
    assert matrix.sum(axis=1) == pytest.approx([1, 1, 1])
    assert p @ matrix == pytest.approx(p)  # p R = p: the point of an invariant matrix
    assert (np.diag(matrix) >= 0.5).all()


def test_invariant_matrix_by_hand_two_categories():
    # P = [[0.9, 0.1], [0.2, 0.8]] (keep chances drawn as 0.9 and 0.8), p = (0.5, 0.5).
    # Q[k, j] = P[j, k] p_j / sum_i p_i P[i, k]: column sums 1.1 and 0.9, so
    # Q = [[0.9/1.1, 0.2/1.1], [0.1/0.9, 0.8/0.9]]; R = P Q; alpha = 1 gives R itself.
    class Fixed:
        def uniform(self, low, high, size):
            return np.array([0.9, 0.8])

    p_matrix = np.array([[0.9, 0.1], [0.2, 0.8]])
    q = np.array([[0.9 / 1.1, 0.2 / 1.1], [0.1 / 0.9, 0.8 / 0.9]])
    got = invariant_matrix(np.array([5.0, 5.0]), pd_min=0.8, alpha=1.0, rng=Fixed())
    assert got == pytest.approx(p_matrix @ q)
    half = invariant_matrix(np.array([5.0, 5.0]), pd_min=0.8, alpha=0.5, rng=Fixed())
    assert half == pytest.approx(0.5 * p_matrix @ q + 0.5 * np.eye(2))


def test_seeded_and_reproducible_with_frequencies_near_the_original():
    first = pram(TABLE, ["region", "code"], seed=4)
    pd.testing.assert_frame_equal(first, pram(TABLE, ["region", "code"], seed=4))
    assert not first.equals(pram(TABLE, ["region", "code"], seed=5))
    changed = (first["region"] != TABLE["region"]) & TABLE["region"].notna()
    assert 0 < changed.mean() < 0.25
    counts = first["region"].value_counts()
    assert counts["north"] == pytest.approx(500, abs=60)  # expected 500 (invariance)
    assert first["region"].isna().sum() == 5 and first["code"].isna().sum() == 5
    assert first["code"].dtype == float
    assert TABLE["region"].iloc[0] == "north"  # input untouched


def test_given_matrix_by_hand():
    # Every 1 becomes 2; 2 and 3 stay. Keys may be written as text (YAML) or numbers.
    matrix = {"1": {"2": 1.0}, "2": {"2": 1}, "3": {"3": 1}}
    out = pram(TABLE, "code", matrix=matrix, seed=1)
    assert out["code"].value_counts().to_dict() == {2: 800, 3: 200}
    identity = {v: {v: 1.0} for v in ("north", "south", "east")}
    pd.testing.assert_frame_equal(pram(TABLE, "region", matrix=identity, seed=1), TABLE)


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        (
            {"north": {"north": 0.5, "south": 0.4}, "south": {"south": 1}, "east": {"east": 1}},
            "row 'north' sums to 0.9",
        ),
        ({"north": {"north": 1}, "south": {"south": 1}}, "no row for the value 'east'"),
        ({"north": {"west": 1}, "south": {"south": 1}, "east": {"east": 1}}, "square"),
        (
            {"north": {"north": 1.5, "south": -0.5}, "south": {"south": 1}, "east": {"east": 1}},
            "between 0 and 1",
        ),
    ],
)
def test_bad_matrix_is_one_line_error(matrix, message):
    with pytest.raises(ParameterError, match=message) as error:
        pram(TABLE, "region", matrix=matrix)
    assert "\n" not in str(error.value) and "matrix" in str(error.value)


def test_bad_parameters_are_refused():
    with pytest.raises(ParameterError, match="one column"):
        pram(TABLE, ["region", "code"], matrix={"north": {"north": 1}})
    with pytest.raises(ParameterError, match="pd_min"):
        pram(TABLE, "region", pd_min=0)
    with pytest.raises(ParameterError, match="alpha"):
        pram(TABLE, "region", alpha=1.5)
