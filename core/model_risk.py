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

Their sums are the expected number of sample uniques that are population uniques and
of correct matches. sdcMicro's global figures (``gr1``, ``gr2``) divide those sums by the
number of keys present in the sample (with at most ``bound`` records), which is what
``global_risk_1``/``global_risk_2`` are. Missing values are a value of their own, as in
``core.privacy``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.privacy import _codes, combined_codes
from core.survey_risk import _weights
from core.validation import require_columns


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
                f"modRisk) expects about {self.expected_population_uniques:.1f} of the "
                f"{self.sample_uniques:,} sample uniques to be unique in the population too, "
                f"and {self.expected_correct_matches:.1f} correct matches by an attacker "
                f"(sdcMicro's risk measures {self.global_risk_1:.3g} and "
                f"{self.global_risk_2:.3g})."
            )
        }


def model_risk(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    weights: str | None = None,
    bound: float = np.inf,
) -> ModelRisk:
    """sdcMicro ``modRisk(method="default", formulaM = ~ qi_1 + ... + qi_m)``."""
    qis = tuple(require_columns(df, quasi_identifiers, parameter="quasi_identifiers"))
    if not isinstance(bound, int | float) or isinstance(bound, bool) or not bound > 0:
        raise ParameterError(f"Parameter 'bound' must be a number above 0, got {bound!r}.")
    w = _weights(df, weights)
    n = len(df)
    if n == 0:
        return ModelRisk(qis, 0, 0, 0.0, 0.0, np.zeros(0))
    # lambda of each record's key: n * prod_j (n_j / n), n_j the count of its value of qi j
    log_lambda = np.full(n, np.log(n))
    for column in qis:
        codes, cardinality = _codes(df[column])
        log_lambda += np.log(np.bincount(codes, minlength=cardinality)[codes] / n)
    key, n_keys = combined_codes(df, qis)
    counts = np.bincount(key, minlength=n_keys)
    inclusion = np.bincount(key, weights=1.0 / w, minlength=n_keys)
    lam = np.zeros(n_keys)
    lam[key] = np.exp(log_lambda)
    kept = (counts > 0) & (counts <= bound)
    v = (1.0 - inclusion) * lam
    risk1 = np.exp(-v)
    with np.errstate(divide="ignore", invalid="ignore"):
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
