"""Tests for core/techniques/perturbation.py (PDPC guide, Annex A: Data perturbation)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ParameterError
from core.techniques.perturbation import add_correlated_noise, add_noise, round_to_base

# PDPC guide, Annex A, Data perturbation example
HEALTH = pd.DataFrame(
    {
        "Person": [198740, 287402, 398747, 498732, 598772],
        "Height": [160, 177, 158, 173, 169],
        "Weight": [50, 70, 46, 75, 82],
        "Age": [30, 36, 20, 22, 44],
        "Smokes": ["No", "No", "Yes", "No", "Yes"],
    }
)


def test_guide_heights_base_5():
    out = round_to_base(HEALTH, "Height", base=5)
    assert out["Height"].tolist() == [160, 175, 160, 175, 170]


def test_guide_weights_base_3():
    out = round_to_base(HEALTH, "Weight", base=3)
    assert out["Weight"].tolist() == [51, 69, 45, 75, 81]


def test_guide_ages_base_3_are_rounded_down():
    """The guide's ages 30, 36, 20, 22, 44 -> 30, 36, 18, 21, 42 do not follow its own note
    ("rounded to the nearest multiple of x"): the nearest multiple of 3 to 20 is 21
    (20/3 = 6.67 -> 7), to 44 is 45 (14.67 -> 15). They are exactly the multiples of 3 at or
    below each value (floor(20/3)*3 = 18, floor(22/3)*3 = 21, floor(44/3)*3 = 42), so
    ``mode="down"`` reproduces the table and ``mode="nearest"`` gives 30, 36, 21, 21, 45."""
    assert round_to_base(HEALTH, "Age", base=3, mode="down")["Age"].tolist() == [30, 36, 18, 21, 42]
    assert round_to_base(HEALTH, "Age", base=3)["Age"].tolist() == [30, 36, 21, 21, 45]


def test_round_up_and_ties():
    df = pd.DataFrame({"x": [-2.5, 2.5, 7.5, 1.0, 5.0]})
    # half-way values go up: -2.5 -> 0, 2.5 -> 5, 7.5 -> 10
    assert round_to_base(df, "x", base=5)["x"].tolist() == [0.0, 5.0, 10.0, 0.0, 5.0]
    assert round_to_base(df, "x", base=5, mode="up")["x"].tolist() == [0.0, 5.0, 10.0, 5.0, 5.0]
    assert round_to_base(df, "x", base=5, mode="down")["x"].tolist() == [-5.0, 0.0, 5.0, 0.0, 5.0]


def test_guide_annex_b_gps_three_decimals():
    """Annex B: 1.27434, 103.79967 -> 1.274, 103.800."""
    df = pd.DataFrame({"lat": [1.27434], "lon": [103.79967]})
    assert round_to_base(df, "lat", base=0.001)["lat"].iloc[0] == 1.274
    assert round_to_base(df, "lon", base=0.001)["lon"].iloc[0] == 103.8


def test_fractional_base_is_exact():
    df = pd.DataFrame({"x": [0.3, 0.7]})
    assert round_to_base(df, "x", base=0.1, mode="down")["x"].tolist() == [0.3, 0.7]


def test_dtypes_and_missing_values():
    assert round_to_base(HEALTH, "Height", base=5)["Height"].dtype == HEALTH["Height"].dtype
    df = pd.DataFrame({"x": [1.0, np.nan, 7.0]})
    assert round_to_base(df, "x", base=5)["x"].isna().tolist() == [False, True, False]
    nullable = pd.DataFrame({"x": pd.array([12, None], dtype="Int64")})
    out = round_to_base(nullable, "x", base=5)["x"]
    assert out.dtype == "Int64"
    assert out.iloc[0] == 10
    assert pd.isna(out.iloc[1])


@pytest.mark.parametrize("kwargs", [{"base": 0}, {"base": -3}, {"base": 3, "mode": "random"}])
def test_round_bad_parameters(kwargs):
    with pytest.raises(ParameterError):
        round_to_base(HEALTH, "Age", **kwargs)


def test_round_rejects_text_naming_the_row():
    with pytest.raises(ParameterError, match=r"row 1 \('No'\)"):
        round_to_base(HEALTH, "Smokes", base=5)


def test_uniform_noise_is_bounded_seeded_and_float():
    out = add_noise(HEALTH, "Age", scale=5, seed=42)
    assert out["Age"].dtype == np.float64
    noise = out["Age"] - HEALTH["Age"]
    assert (noise.abs() <= 5).all()
    pdt.assert_frame_equal(out, add_noise(HEALTH, "Age", scale=5, seed=42))
    assert not out["Age"].equals(add_noise(HEALTH, "Age", scale=5, seed=43)["Age"])


@pytest.mark.parametrize(
    ("distribution", "statistic", "expected"),
    [
        ("uniform", lambda x: x.std(), 10 / np.sqrt(3)),  # sd of U(-a, a) = a / sqrt(3)
        ("normal", lambda x: x.std(), 10.0),
        ("laplace", lambda x: np.abs(x).mean(), 10.0),  # E|X| = b
    ],
)
def test_noise_distributions_have_the_stated_scale(distribution, statistic, expected):
    df = pd.DataFrame({"x": np.zeros(20_000)})
    noise = add_noise(df, "x", distribution=distribution, scale=10, seed=1)["x"].to_numpy()
    assert abs(noise.mean()) < 0.5
    assert statistic(noise) == pytest.approx(expected, rel=0.05)


def test_noise_keeps_missing_values():
    df = pd.DataFrame({"x": [1.0, np.nan]})
    assert add_noise(df, "x", scale=1, seed=0)["x"].isna().tolist() == [False, True]


@pytest.mark.parametrize(
    "kwargs", [{"scale": 0}, {"scale": -1}, {"scale": 1, "distribution": "cauchy"}]
)
def test_noise_bad_parameters(kwargs):
    with pytest.raises(ParameterError):
        add_noise(HEALTH, "Age", **kwargs)


@settings(max_examples=80, deadline=None)
@given(
    values=st.lists(
        st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False)), min_size=1, max_size=20
    ),
    base=st.sampled_from([0.01, 0.5, 1, 3, 5, 10, 250]),
)
def test_property_rounding_gives_multiples_close_to_the_value(values, base):
    df = pd.DataFrame({"v": values})
    before = df.copy()
    nearest = round_to_base(df, "v", base=base)["v"]
    down = round_to_base(df, "v", base=base, mode="down")["v"]
    up = round_to_base(df, "v", base=base, mode="up")["v"]
    add_noise(df, "v", scale=1, seed=0)
    pdt.assert_frame_equal(df, before)
    tolerance = 1e-6 * max(1.0, base)
    for value, n, d, u in zip(df["v"], nearest, down, up, strict=True):
        if pd.isna(value):
            assert pd.isna(n) and pd.isna(d) and pd.isna(u)
            continue
        for result in (n, d, u):
            multiple = result / base
            assert abs(multiple - round(multiple)) < 1e-6
        assert abs(n - value) <= base / 2 + tolerance
        assert value - base - tolerance <= d <= value + tolerance
        assert value - tolerance <= u <= value + base + tolerance


# --- correlated noise (sdcMicro addNoise "correlated2" / "correlated") ---


def _survey_numbers(n: int = 20000) -> pd.DataFrame:
    rng = np.random.default_rng(11)
    income = rng.lognormal(8, 0.5, n)
    return pd.DataFrame({"income": income, "spend": 0.6 * income + rng.normal(0, 500, n)})


def test_correlated2_keeps_means_and_variances():
    # E[x'] = d mu + delta * (1 - d) / delta * mu = mu; Var = d^2 s^2 + delta^2 s^2 = s^2,
    # with d = sqrt(1 - delta^2) (sdcMicro R/addNoise.r, addNoise_correlated2).
    df = _survey_numbers()
    out = add_correlated_noise(df, ["income", "spend"], delta=0.3, seed=1)
    assert out.mean().tolist() == pytest.approx(df.mean().tolist(), rel=0.01)
    assert out.std().tolist() == pytest.approx(df.std().tolist(), rel=0.02)
    assert not np.allclose(out["income"], df["income"])
    # Each value moves by about delta * sd: small delta, small change.
    small = add_correlated_noise(df, "income", delta=0.01, seed=1)
    assert (small["income"] - df["income"]).abs().mean() < 0.02 * df["income"].std()


def test_correlated_keeps_correlation_and_is_seeded():
    df = _survey_numbers()
    out = add_correlated_noise(df, ["income", "spend"], method="correlated", noise=50, seed=2)
    before = df.corr().loc["income", "spend"]
    assert out.corr().loc["income", "spend"] == pytest.approx(before, abs=0.01)
    # Covariance grows by 1 + noise/100 = 1.5.
    assert out["income"].var() == pytest.approx(1.5 * df["income"].var(), rel=0.03)
    again = add_correlated_noise(df, ["income", "spend"], method="correlated", noise=50, seed=2)
    pd.testing.assert_frame_equal(out, again)


def test_correlated_noise_keeps_gaps_and_refuses_bad_input():
    df = pd.DataFrame({"x": [1.0, np.nan, 3.0, 4.0], "y": [2.0, 1.0, 0.0, 5.0], "t": list("abcd")})
    out = add_correlated_noise(df, ["x", "y"], seed=1)
    assert np.isnan(out["x"].iloc[1]) and df["x"].iloc[0] == 1.0
    with pytest.raises(ParameterError, match="delta"):
        add_correlated_noise(df, "x", delta=1.5)
    with pytest.raises(ParameterError, match="two columns"):
        add_correlated_noise(df, "x", method="correlated")
    with pytest.raises(ParameterError, match="needs numbers"):
        add_correlated_noise(df, "t")
