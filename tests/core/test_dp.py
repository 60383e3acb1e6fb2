"""Tests of core.dp (source: Health data privacy, "Differential Privacy": b = Δf/ε).

OpenDP's noise cannot be seeded, so the statistical tests use many draws (thousands of
cells in one release) and tolerances far wider than the sampling error: a failure means
the noise scale is wrong, not bad luck. Expected values come from the formulas written
out here (sums over the probability mass function), never from core.dp itself.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.dp import (
    MAX_EPSILON,
    MIN_EPSILON,
    BudgetExceededError,
    PrivacyBudget,
    accuracy,
    add_dp_noise,
    describe_outside,
    dp_release,
    exact_cross_tab,
    noise_scale,
    open_ledger,
    parse_bounds,
    parse_categories,
    suppressed_cross_tab,
    write_ledger,
)
from core.errors import ParameterError
from core.recipe import Recipe, apply_recipe

CELLS = 2000


def discrete_laplace_pmf(b: float, reach: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """P(k) ∝ exp(-|k|/b) on -reach..reach, normalised by summation."""
    k = np.arange(-reach, reach + 1)
    weight = np.exp(-np.abs(k) / b)
    return k, weight / weight.sum()


@pytest.fixture(scope="module")
def grid_table() -> pd.DataFrame:
    """CELLS categories of 50 records each; every record's value is 10."""
    g = np.repeat(np.arange(CELLS), 50)
    return pd.DataFrame({"g": g.astype(str), "x": 10.0})


@pytest.fixture(scope="module")
def grid_release(grid_table: pd.DataFrame):
    cats = {"g": [str(i) for i in range(CELLS)]}
    # ε = 1 split over the count and the sum: 0.5 each
    return dp_release(
        grid_table, "g", categories=cats, epsilon=1.0, sums="x", bounds={"x": (0, 10)}
    )


# --- noise scale ------------------------------------------------------------------------


def test_count_noise_is_discrete_laplace_of_scale_one_over_epsilon(grid_release):
    noise = grid_release.table["count"].to_numpy() - 50  # b = Δf/ε = 1/0.5 = 2
    k, p = discrete_laplace_pmf(2.0)
    assert np.issubdtype(noise.dtype, np.integer)
    expected_mad = float((np.abs(k) * p).sum())  # 1.919 by summation
    assert np.mean(np.abs(noise)) == pytest.approx(expected_mad, rel=0.12)
    assert np.std(noise) == pytest.approx(math.sqrt(float((k**2 * p).sum())), rel=0.12)
    assert abs(np.mean(noise)) < 0.3  # unbiased (clipping at 0 is far away from 50)


def test_sum_noise_is_laplace_of_scale_sensitivity_over_epsilon(grid_release):
    noise = grid_release.table["x_sum"].to_numpy() - 500  # 50 records of 10
    b = 10 / 0.5  # Δf = max(|0|, |10|) = 10, ε = 0.5
    assert np.mean(np.abs(noise)) == pytest.approx(b, rel=0.12)  # E|X| = b
    assert np.std(noise) == pytest.approx(b * math.sqrt(2), rel=0.15)


def test_stated_95_percent_bounds_hold_about_95_percent_of_the_time(grid_release):
    table = grid_release.table
    inside_count = np.mean(np.abs(table["count"] - 50) <= table["count_error95"])
    inside_sum = np.mean(np.abs(table["x_sum"] - 500) <= table["x_sum_error95"])
    assert 0.93 <= inside_count <= 0.985
    assert 0.925 <= inside_sum <= 0.975  # ± 5 standard errors
    assert table["x_sum_error95"].iloc[0] == pytest.approx(20 * math.log(20))  # b ln(1/0.05)
    assert "95% of the time" in grid_release.figures[0].statement


def test_accuracy_formulas_against_hand_calculation():
    assert accuracy(2.0).error95 == pytest.approx(2 * math.log(20))
    assert accuracy(2.0).expected_error == pytest.approx(2.0)
    k, p = discrete_laplace_pmf(2.0)
    cumulative = {n: p[np.abs(k) <= n].sum() for n in range(20)}
    smallest = min(n for n, c in cumulative.items() if c >= 0.95)  # 6 for b = 2
    assert accuracy(2.0, integer=True).error95 == smallest
    assert accuracy(2.0, integer=True).expected_error == pytest.approx((np.abs(k) * p).sum())
    assert accuracy(3.0, mechanism="gaussian").error95 == pytest.approx(1.959964 * 3, rel=1e-6)


def test_gaussian_sigma_between_the_optimal_and_a_textbook_bound():
    """Balle & Wang's analytic Gaussian is the smallest σ possible; ρ-zCDP with
    ε = ρ + 2 sqrt(ρ ln(1/δ)) and ρ = Δ²/(2σ²) is a valid but looser bound."""
    eps, delta = 1.0, 1e-6
    phi = lambda x: 0.5 * math.erfc(-x / math.sqrt(2))  # noqa: E731

    def delta_of(sigma: float) -> float:
        return phi(1 / (2 * sigma) - eps * sigma) - math.exp(eps) * phi(
            -1 / (2 * sigma) - eps * sigma
        )

    low, high = 0.1, 100.0
    for _ in range(100):
        mid = (low + high) / 2
        low, high = (low, mid) if delta_of(mid) <= delta else (mid, high)
    optimal = high
    rho = (math.sqrt(math.log(1 / delta) + eps) - math.sqrt(math.log(1 / delta))) ** 2
    textbook = 1 / math.sqrt(2 * rho)
    sigma = noise_scale(1, eps, mechanism="gaussian", delta=delta)
    assert optimal <= sigma <= textbook


def test_gaussian_count_noise_has_the_stated_sigma():
    sigma = noise_scale(1, 1.0, mechanism="gaussian", delta=1e-6)
    noisy, acc = add_dp_noise(
        np.zeros(4000, dtype=np.int64),
        sensitivity=1,
        epsilon=1.0,
        mechanism="gaussian",
        delta=1e-6,
    )
    assert acc.mechanism == "discrete Gaussian"
    assert np.std(noisy) == pytest.approx(sigma, rel=0.1)


def test_gaussian_needs_delta():
    with pytest.raises(ParameterError, match="needs delta > 0"):
        dp_release(
            pd.DataFrame({"g": ["a"]}),
            "g",
            categories={"g": ["a"]},
            epsilon=1,
            mechanism="gaussian",
        )


# --- clipping -----------------------------------------------------------------------------


def test_a_huge_outlier_cannot_move_a_clipped_sum_beyond_bound_plus_noise():
    df = pd.DataFrame({"g": ["a"] * 101, "x": [1.0] * 100 + [1e9]})
    # clipped truth: 100 * 1 + 10 = 110; b = 10 / 1 = 10; P(|noise| > 200) = e^-20
    for _ in range(20):
        release = dp_release(
            df,
            "g",
            categories={"g": ["a"]},
            epsilon=1.0,
            count=False,
            sums="x",
            bounds={"x": (0, 10)},
        )
        assert abs(release.table["x_sum"].iloc[0] - 110) < 200


def test_means_stay_within_the_bounds():
    df = pd.DataFrame({"g": ["a"] * 5 + ["b"] * 3, "x": [-1e6, 1e6, 3, 4, 5, 1, 2, 3]})
    release = dp_release(
        df, "g", categories={"g": ["a", "b"]}, epsilon=0.1, means="x", bounds={"x": (0, 10)}
    )
    means = release.table["x_mean"].dropna()
    assert ((means >= 0) & (means <= 10)).all()


def test_mean_is_close_on_a_large_cell():
    df = pd.DataFrame({"g": ["a"] * 20000, "x": np.tile([2.0, 4.0], 10000)})  # mean 3
    release = dp_release(
        df, "g", categories={"g": ["a"]}, epsilon=1.0, means="x", bounds={"x": (0, 10)}
    )
    row = release.table.iloc[0]
    assert abs(row["x_mean"] - 3) < 0.05  # sum noise b = 20, count noise b = 2: ~0.002
    assert 0 < row["x_mean_error95"] < 0.05


@pytest.mark.parametrize(
    ("bounds", "message"),
    [
        (None, "needs clipping bounds"),
        ({"x": (5, 5)}, "lo < hi"),
        ({"x": (0, float("inf"))}, "finite"),
        ({"x": "wide"}, "two numbers"),
        # issue 27: finite, but hi - lo overflows (OpenDP's error, then '± inf' figures)
        ({"x": (-1e308, 1e308)}, r"at most 1e\+15"),
        ({"x": (0, 1e16)}, r"at most 1e\+15"),
    ],
)
def test_bounds_are_required_and_checked(bounds, message):
    df = pd.DataFrame({"g": ["a"], "x": [1.0]})
    with pytest.raises(ParameterError, match=message):
        dp_release(df, "g", categories={"g": ["a"]}, epsilon=1, sums="x", bounds=bounds)


# --- budget ---------------------------------------------------------------------------------


def test_budget_adds_up_and_refuses_a_query_over_budget():
    budget = PrivacyBudget(1.0)
    for i in range(3):
        budget.charge(f"q{i}", 1 / 3)  # 1/3 + 1/3 + 1/3 fits despite rounding
    assert budget.spent_epsilon == pytest.approx(1.0)
    with pytest.raises(BudgetExceededError, match=r"privacy budget has only ε = 0 \(δ = 0\) left"):
        budget.charge("one more", 0.01)
    assert len(budget.charges) == 3


def test_release_over_budget_fails_before_any_query_is_charged():
    df = pd.DataFrame({"g": ["a", "b"], "x": [1.0, 2.0]})
    budget = PrivacyBudget(1.0)
    dp_release(df, "g", categories={"g": ["a", "b"]}, epsilon=0.7, budget=budget)
    with pytest.raises(BudgetExceededError, match=r"needs ε = 0\.7.*only ε = 0\.3 \(δ = 0\) left"):
        dp_release(
            df,
            "g",
            categories={"g": ["a", "b"]},
            epsilon=0.7,
            sums="x",
            bounds={"x": (0, 5)},
            budget=budget,
        )
    assert [c.query for c in budget.charges] == ["count by g"]
    assert budget.spent_epsilon == pytest.approx(0.7)


def test_epsilon_is_split_evenly_and_recorded_per_query():
    df = pd.DataFrame({"g": ["a", "b"], "x": [1.0, 2.0], "y": [3.0, 4.0]})
    release = dp_release(
        df,
        "g",
        categories={"g": ["a", "b"]},
        epsilon=0.9,
        sums="x",
        means="y",
        bounds={"x": (0, 5), "y": (0, 5)},
    )
    charges = release.ledger()["charges"]
    assert [c["epsilon"] for c in charges] == pytest.approx([0.3, 0.3, 0.3])
    assert release.ledger()["spent"]["epsilon"] == pytest.approx(0.9)


def test_ledger_file_enforces_the_budget_across_commands(tmp_path):
    df = pd.DataFrame({"g": ["a", "b"]})
    path = tmp_path / "ledger.json"
    budget = open_ledger(path, epsilon=1.0)
    release = dp_release(df, "g", categories={"g": ["a", "b"]}, epsilon=0.6, budget=budget)
    write_ledger(path, release, budget, out="x.csv")
    again = open_ledger(path, epsilon=None)
    assert again.spent_epsilon == pytest.approx(0.6)
    with pytest.raises(BudgetExceededError):
        dp_release(df, "g", categories={"g": ["a", "b"]}, epsilon=0.6, budget=again)
    with pytest.raises(ParameterError, match="cannot change"):
        open_ledger(path, epsilon=2.0)
    assert json.loads(path.read_text())["releases"][0]["out"] == "x.csv"


# --- keys -------------------------------------------------------------------------------------


def test_only_listed_keys_are_released_and_absent_ones_are_too():
    df = pd.DataFrame(
        {"sex": ["F", "M", "M", "X", None] * 40, "race": ["A", "B", "C", "A", "B"] * 40}
    )
    cats = {"sex": ["F", "M"], "race": ["A", "B", "Z"]}
    release = dp_release(df, ["sex", "race"], categories=cats, epsilon=1.0)
    keys = set(map(tuple, release.table[["sex", "race"]].to_numpy()))
    assert keys == {(s, r) for s in cats["sex"] for r in cats["race"]}
    assert "X" not in set(release.table["sex"]) and "C" not in set(release.table["race"])
    # outside: M/C (40), X/A (40), None/B (40) = 120 records; b = 1 (one query, ε = 1)
    assert abs(release.outside - 120) <= 15
    assert "outside the category lists" in release.outside_statement


def test_outside_sentence_agrees_with_its_count():
    # issue 17: "About 0 record(s)" read badly; a noisy 0 is not a proof of none.
    assert describe_outside(0, 3.0).startswith("By the noisy count, no record has a key")
    assert describe_outside(1, 3.0).startswith("About 1 record has a key outside")
    assert "and is left out (a noisy cell of the count query, within ±3 of" in (
        describe_outside(1, 3.0)
    )
    text = describe_outside(14021, 2.9957)
    assert text.startswith("About 14,021 records have a key outside the category lists and are")
    assert "within ±3 of the truth" in text and "record(s)" not in text


def test_outside_count_is_not_released_without_a_count_query():
    df = pd.DataFrame({"g": ["a", "zz"], "x": [1.0, 2.0]})
    release = dp_release(
        df, "g", categories={"g": ["a"]}, epsilon=1, count=False, sums="x", bounds={"x": (0, 5)}
    )
    assert release.outside is None
    assert "not released" in release.outside_statement
    assert "zz" not in release.outside_statement


def test_categories_are_required_for_every_grouping_column():
    df = pd.DataFrame({"a": ["x"], "b": ["y"]})
    with pytest.raises(ParameterError, match="'b' needs its list of categories"):
        dp_release(df, ["a", "b"], categories={"a": ["x"]}, epsilon=1)


def test_numeric_column_matches_categories_given_as_text():
    df = pd.DataFrame({"band": [1, 1, 2] * 500})
    release = dp_release(df, "band", categories={"band": ["1", "2", "3"]}, epsilon=1)
    counts = dict(zip(release.table["band"], release.table["count"], strict=True))
    assert abs(counts["1"] - 1000) <= 20 and abs(counts["2"] - 500) <= 20 and counts["3"] <= 20


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=30))
def test_input_never_mutated(values):
    df = pd.DataFrame({"g": values, "x": np.arange(len(values), dtype=float)})
    before = df.copy()
    dp_release(df, "g", categories={"g": ["a", "b"]}, epsilon=1, means="x", bounds={"x": (0, 9)})
    pd.testing.assert_frame_equal(df, before)


# --- comparison tables, recipe step, parsing ------------------------------------------------


def test_exact_and_suppressed_tables_against_pandas_groupby():
    df = pd.DataFrame({"g": ["a"] * 6 + ["b"] * 2 + ["q"], "x": [1.0] * 6 + [5.0, 7.0] + [9.0]})
    cats = {"g": ["a", "b", "c"]}
    exact = exact_cross_tab(df, "g", categories=cats, sums="x", means="x")
    truth = df[df["g"].isin(cats["g"])].groupby("g")["x"].agg(["size", "sum", "mean"])
    assert exact.set_index("g").loc[["a", "b"], "count"].tolist() == truth["size"].tolist()
    assert exact.set_index("g").loc[["a", "b"], "x_sum"].tolist() == truth["sum"].tolist()
    assert exact.set_index("g").loc["c", "count"] == 0
    table, warning = suppressed_cross_tab(df, "g", categories=cats, sums="x", means="x", min_cell=5)
    table = table.set_index("g")
    assert table.loc["a", "count"] == 6 and table.loc["a", "x_mean"] == 1.0
    assert table.loc["b"].isna()[["count", "x_sum", "x_mean"]].all()
    assert table["suppressed"].tolist() == [False, True, True]
    assert warning.startswith("1 group(s) have fewer than 5 records")  # b (2 records)
    assert "g=b" not in warning  # a warning never names a small group's values (issue 27)


def test_recipe_step_releases_the_listed_cells():
    df = pd.DataFrame({"sex": ["F", "M"] * 2000, "income": [1000.0, 3000.0] * 2000})
    step = {
        "step": "dp_aggregate",
        "by": ["sex"],
        "categories": {"sex": ["F", "M", "X"]},
        "epsilon": 1.0,
        "means": ["income"],
        "bounds": {"income": [0, 5000]},
    }
    out = apply_recipe(df, Recipe(seed=3).add(step)).data
    assert out["sex"].tolist() == ["F", "M", "X"]
    # sum noise b = 5000 / 0.5 = 10000 over 2000 records: the mean moves by ~5
    assert abs(out.loc[0, "income_mean"] - 1000) < 300


def test_parsing_of_command_line_values():
    assert parse_categories(["sex=F|M,race=A|B", "age=1"]) == {
        "sex": ["F", "M"],
        "race": ["A", "B"],
        "age": ["1"],
    }
    assert parse_bounds(["0,10"], ["x", "y"]) == {"x": (0.0, 10.0), "y": (0.0, 10.0)}
    assert parse_bounds(["0,10", "y=-5,5"], ["x", "y"]) == {"x": (0.0, 10.0), "y": (-5.0, 5.0)}
    with pytest.raises(ParameterError, match="column=value"):
        parse_categories(["sex"])
    with pytest.raises(ParameterError, match="lo,hi"):
        parse_bounds(["10"], ["x"])


# --- the range of ε (issue 11: 1000 and 1e-17 gave tracebacks) -----------------------------

TWO_CELLS = pd.DataFrame({"sex": ["F", "M", "F"], "income": [10.0, 20.0, 30.0]})


@pytest.mark.parametrize("epsilon", [1000.0, 745.5, 100.01, 9.9e-7, 1e-17, 1e-300])
@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_epsilon_outside_the_usable_range_is_one_clear_error(epsilon, mechanism):
    with pytest.raises(ParameterError, match=r"'epsilon' is .* outside the range 1e-06 to 100"):
        dp_release(
            TWO_CELLS,
            ["sex"],
            categories={"sex": ["F", "M"]},
            epsilon=epsilon,
            mechanism=mechanism,
            delta=1e-6 if mechanism == "gaussian" else 0.0,
        )


def test_epsilon_per_query_is_checked_before_any_budget_is_charged():
    budget = PrivacyBudget(1.0)
    with pytest.raises(ParameterError, match=r"'epsilon / 2 queries' is 5e-07"):
        dp_release(
            TWO_CELLS,
            ["sex"],
            categories={"sex": ["F", "M"]},
            epsilon=1e-6,
            sums=["income"],
            bounds={"income": (0, 50)},
            budget=budget,
        )
    assert budget.spent_epsilon == 0


@pytest.mark.parametrize("epsilon", [MIN_EPSILON, MAX_EPSILON])
@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_the_ends_of_the_range_release(epsilon, mechanism):
    delta = 1e-6 if mechanism == "gaussian" else 0.0
    release = dp_release(
        TWO_CELLS,
        ["sex"],
        categories={"sex": ["F", "M"]},
        epsilon=epsilon,
        mechanism=mechanism,
        delta=delta,
    )
    assert len(release.table) == 2


def test_discrete_gaussian_accuracy_of_a_huge_sigma_needs_no_huge_sum():
    # σ = 1e7 (ε = 1e-6): the sum over 14σ probabilities would take gigabytes. Continuous
    # Gaussian by hand: E|X| = σ sqrt(2/π) = 7,978,845.6; 95% bound z σ - 1/2 rounded up,
    # z = 1.959964 -> 19,599,640.
    acc = accuracy(1e7, mechanism="gaussian", integer=True)
    assert acc.expected_error == pytest.approx(7_978_845.608, rel=1e-9)
    assert acc.error95 == 19_599_640
