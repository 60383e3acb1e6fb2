"""Log-linear model risk of a sample (sdcMicro ``modRisk``, method "default").

A sample unique is only a risk if the person is also unique (or nearly) in the
population. Skinner and Holmes (1998) estimate the population count of each key from a
Poisson log-linear model of the sample counts; sdcMicro's default model has the main
effects of the quasi-identifiers (counts ~ qi_1 + qi_2 + ...), whose maximum-likelihood
fit is in closed form: the expected count of a key is n * prod_j (n_j / n), n_j the
number of records with that value of quasi-identifier j (what R's ``glm`` returns for
this model). With lambda_k that expected count and pi_k the sum of the inclusion
probabilities (1 / weight) of the key's records, for every key seen only once:

- risk 1 = exp(-(1 - pi_k) * lambda_k): the chance that the sample unique is unique in
  the population;
- risk 2 = (1 - exp(-v)) / v with v = (1 - pi_k) * lambda_k: the chance that a match on
  the key is the right person.

Other models of sdcMicro (``method``): "CE" (Clogg-Eliason: an offset log(f/F + 0.1) per
cell), "PML" (pseudo maximum likelihood: the model fitted to the sum of weights scaled to
the sample size, rounded) and "weightedLLM" (the cells' sum of weights as a covariate).
They are fitted on every combination of the values seen (R's ``expand.grid``) by
iteratively reweighted least squares, as R's ``glm(family = poisson)``.

Their sums are the expected number of sample uniques that are population uniques and
of correct matches. sdcMicro's global figures (``gr1``, ``gr2``) divide those sums by the
number of keys present in the sample (with at most ``bound`` records), which is what
``global_risk_1``/``global_risk_2`` are. Missing values are a value of their own, as in
``core.measures``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.formatting import fmt_number, fmt_probability
from core.measures.codes import column_codes, combined_codes
from core.survey_risk import sampling_weights
from core.validation import require_choice, require_columns

MODEL_METHODS = ("default", "CE", "PML", "weightedLLM")
#: Cells of the full cross-classification that the iterative models may fit.
MAX_MODEL_CELLS = 200_000


@dataclass(frozen=True)
class ModelRisk:
    """Per key present in the sample: records, expected count, risks; and the totals."""

    quasi_identifiers: tuple[str, ...]
    keys: int  # keys present with at most ``bound`` records
    sample_uniques: int
    expected_population_uniques: float  # sum of risk 1 over sample uniques
    expected_correct_matches: float  # sum of risk 2 over sample uniques
    per_record_risk1: np.ndarray  # risk 1 of each record's key (0 unless a sample unique)

    @property
    def global_risk_1(self) -> float:
        """sdcMicro's ``gr1``: expected population uniques per key present."""
        return self.expected_population_uniques / self.keys if self.keys else 0.0

    @property
    def global_risk_2(self) -> float:
        """sdcMicro's ``gr2``: expected correct matches per key present."""
        return self.expected_correct_matches / self.keys if self.keys else 0.0

    def to_dict(self) -> dict[str, float | int]:
        return {
            "model_risk_1": self.global_risk_1,
            "model_risk_2": self.global_risk_2,
            "model_expected_population_uniques": self.expected_population_uniques,
            "model_expected_correct_matches": self.expected_correct_matches,
        }

    def explanations(self) -> dict[str, str]:
        return {
            "model_risk": (
                f"A log-linear model of the sample counts (Skinner-Holmes, as sdcMicro's "
                f"modRisk) expects about {fmt_number(self.expected_population_uniques)} of the "
                f"{self.sample_uniques:,} sample uniques to be unique in the population too, "
                f"and {fmt_number(self.expected_correct_matches)} correct matches by an attacker "
                f"(sdcMicro's risk measures {fmt_probability(self.global_risk_1)} and "
                f"{fmt_probability(self.global_risk_2)})."
            )
        }


def _poisson_fit(
    y: np.ndarray, design: np.ndarray, offset: np.ndarray, *, iterations: int = 50
) -> np.ndarray:
    """Fitted means of a Poisson log-linear model, by IRLS as R's ``glm`` (start y + 0.1,
    stop when the deviance changes by less than 1e-8 relative)."""
    mu = y + 0.1
    eta = np.log(mu)
    deviance_old = np.inf
    for _ in range(iterations):
        z = eta - offset + (y - mu) / mu
        root = np.sqrt(mu)
        beta = np.linalg.lstsq(design * root[:, None], z * root, rcond=None)[0]
        eta = design @ beta + offset
        mu = np.exp(eta)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(y > 0, y * np.log(y / mu), 0.0) - (y - mu)
        deviance = 2 * float(terms.sum())
        if abs(deviance - deviance_old) / (abs(deviance) + 0.1) < 1e-8:
            break
        deviance_old = deviance
    return mu


def _cell_means(
    df: pd.DataFrame, qis: tuple[str, ...], w: np.ndarray, method: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per record: its cell; per cell of the full grid: count, inclusion, fitted mean."""
    codes, cards = zip(*(column_codes(df[c]) for c in qis), strict=True)
    cells = int(np.prod(cards, dtype=float))
    if cells > MAX_MODEL_CELLS:
        raise ParameterError(
            f"Parameter 'method' {method!r} fits every combination of values: {cells:,} "
            f"cells here, more than {MAX_MODEL_CELLS:,}. Use method 'default' or fewer, "
            "coarser quasi-identifiers."
        )
    cell = np.ravel_multi_index(codes, cards)
    counts = np.bincount(cell, minlength=cells).astype(float)
    weight_sum = np.bincount(cell, weights=w, minlength=cells)
    inclusion = np.bincount(cell, weights=1.0 / w, minlength=cells)
    levels = np.unravel_index(np.arange(cells), cards)
    columns = [np.ones(cells)]
    for level, card in zip(levels, cards, strict=True):
        columns.extend((level == value).astype(float) for value in range(1, card))
    offset = np.zeros(cells)
    y = counts
    if method == "CE":
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(weight_sum > 0, counts / weight_sum, 0.0)
        offset = np.log(ratio + 0.1)
    elif method == "PML":
        y = _round_half_even(weight_sum * counts.sum() / weight_sum.sum())
    elif method == "weightedLLM":
        columns.append(weight_sum)
    fitted = _poisson_fit(y, np.column_stack(columns), offset)
    return cell, counts, inclusion, fitted


def _round_half_even(values: np.ndarray) -> np.ndarray:
    return np.round(values)  # NumPy rounds halves to even, as R's round


def model_risk(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    weights: str | None = None,
    bound: float = np.inf,
    method: str = "default",
) -> ModelRisk:
    """sdcMicro ``modRisk(method, formulaM = ~ qi_1 + ... + qi_m, bound)``."""
    qis = tuple(require_columns(df, quasi_identifiers, parameter="quasi_identifiers"))
    method = require_choice("method", method, MODEL_METHODS)
    if not isinstance(bound, int | float) or isinstance(bound, bool) or not bound > 0:
        raise ParameterError(f"Parameter 'bound' must be a number above 0, got {bound!r}.")
    w = sampling_weights(df, weights)
    n = len(df)
    if n == 0:
        return ModelRisk(qis, 0, 0, 0.0, 0.0, np.zeros(0))
    if method == "default":
        # lambda of each key: n * prod_j (n_j / n), n_j the count of its value of qi j
        log_lambda = np.full(n, np.log(n))
        for column in qis:
            codes, cardinality = column_codes(df[column])
            log_lambda += np.log(np.bincount(codes, minlength=cardinality)[codes] / n)
        key, n_keys = combined_codes(df, qis)
        counts = np.bincount(key, minlength=n_keys)
        inclusion = np.bincount(key, weights=1.0 / w, minlength=n_keys)
        lam = np.zeros(n_keys)
        lam[key] = np.exp(log_lambda)
    else:
        key, counts, inclusion, lam = _cell_means(df, qis, w, method)
    # sdcMicro keeps the cells seen at most ``bound`` times and with a positive fit
    kept = (counts > 0) & (counts <= bound) & (lam > 0)
    v = (1.0 - inclusion) * lam
    # v < 0 only in cells seen more than once (their inclusion sum exceeds 1); exp(-v) may
    # overflow there, but only sample-unique cells (v >= 0) are read below.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        risk1 = np.exp(-v)
        risk2 = np.where(v > 0, (1.0 - np.exp(-v)) / v, 1.0)
    unique = kept & (counts == 1)
    per_record = np.where(unique[key], risk1[key], 0.0)
    return ModelRisk(
        quasi_identifiers=qis,
        keys=int(kept.sum()),
        sample_uniques=int(unique.sum()),
        expected_population_uniques=float(risk1[unique].sum()),
        expected_correct_matches=float(risk2[unique].sum()),
        per_record_risk1=per_record,
    )
