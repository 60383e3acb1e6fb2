"""core.model_risk against sdcMicro's tests/testthat/test_modRisks.R (data rebuilt with
R's random numbers) and a hand calculation."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from r_random import RRandom

from core.errors import ParameterError
from core.model_risk import model_risk


def _sdcmicro_sample() -> pd.DataFrame:
    """test_modRisks.R: set.seed(123); Var1 = round(runif(10, 1, 3)) as A/B/C,
    Var2 = round(runif(10, 1, 2)), Var3 = round(runif(10, 1, 5)), weights 100."""
    rng = RRandom(123)
    return pd.DataFrame(
        {
            "Var1": pd.Series(np.round(rng.runif(10, 1, 3))).map({1: "A", 2: "B", 3: "C"}),
            "Var2": np.round(rng.runif(10, 1, 2)),
            "Var3": np.round(rng.runif(10, 1, 5)),
            "weights": np.round(rng.runif(10, 100, 100)),
        }
    )


def test_default_model_matches_sdcmicro():
    # "data.frame, default method, bound = no": gr1 0.553, gr2 0.705 (IPF: 0.552916,
    # 0.7053842, the same main-effects model).
    result = model_risk(_sdcmicro_sample(), ["Var1", "Var2", "Var3"], weights="weights")
    assert round(result.global_risk_1, 6) == 0.552916
    assert round(result.global_risk_2, 7) == 0.7053842
    assert result.keys == 9


def test_bound_matches_sdcmicro():
    # "default method, bound = yes" (bound = 1.5): gr1 0.622, gr2 0.794.
    result = model_risk(_sdcmicro_sample(), ["Var1", "Var2", "Var3"], weights="weights", bound=1.5)
    assert round(result.global_risk_1, 3) == 0.622
    assert round(result.global_risk_2, 3) == 0.794


def test_by_hand_two_keys():
    # a: x, x, y; b: p, q, q (n = 3). Key (y, q) is a sample unique: lambda = 3 * (1/3) *
    # (2/3) = 2/3; weight 4 gives pi = 1/4, v = 3/4 * 2/3 = 1/2.
    df = pd.DataFrame({"a": ["x", "x", "y"], "b": ["p", "q", "q"], "w": [2, 2, 4]})
    result = model_risk(df, ["a", "b"], weights="w")
    assert result.sample_uniques == 3  # (x, p), (x, q) and (y, q) each once
    lam_yq, v = 2 / 3, 0.5
    assert (1 - 0.25) * lam_yq == pytest.approx(v)
    assert result.per_record_risk1[2] == pytest.approx(math.exp(-v))


def test_bad_bound_and_weights_are_refused():
    df = _sdcmicro_sample()
    with pytest.raises(ParameterError, match="bound"):
        model_risk(df, ["Var1"], weights="weights", bound=0)
    with pytest.raises(ParameterError, match="weights"):
        model_risk(df.assign(weights=0), ["Var1"], weights="weights")


@pytest.mark.parametrize(
    ("method", "bound", "gr1", "gr2"),
    [
        # test_modRisks.R, data without missing values, "bound = no" and "bound = yes".
        ("CE", np.inf, 0.542, 0.699),
        ("PML", np.inf, 0.553, 0.705),
        ("weightedLLM", np.inf, 0.408, 0.613),
        ("CE", 1.5, 0.609, 0.786),
        ("PML", 1.5, 0.622, 0.794),
        ("weightedLLM", 1.5, 0.459, 0.69),
    ],
)
def test_other_models_match_sdcmicro(method, bound, gr1, gr2):
    result = model_risk(
        _sdcmicro_sample(), ["Var1", "Var2", "Var3"], weights="weights", method=method, bound=bound
    )
    assert round(result.global_risk_1, 3) == gr1
    assert round(result.global_risk_2, 3) == gr2


def test_iterative_default_agrees_with_closed_form():
    # The main-effects fit by IRLS (PML with equal weights is the count model itself)
    # equals the closed form n * prod(n_j / n).
    df = _sdcmicro_sample()
    closed = model_risk(df, ["Var1", "Var2", "Var3"], weights="weights")
    fitted = model_risk(df, ["Var1", "Var2", "Var3"], weights="weights", method="PML")
    assert fitted.expected_population_uniques == pytest.approx(
        closed.expected_population_uniques, rel=1e-6
    )
