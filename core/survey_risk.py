"""Risk of survey microdata with sampling weights (sdcMicro's ``freqCalc``/``indivRisk``).

A *sample* is released, not the whole population, so a record unique in the sample may
share its quasi-identifiers with many people outside it. With a sampling weight per
record (how many people of the population it stands for), the number of people sharing
a record's key is estimated as F_k, the sum of the weights of the sample records in its
key class, next to f_k, the number of sample records in it (PDPC guide, Step 4: the
attacker matches on indirect identifiers; the k of the release is f_k's minimum).

The individual risk is Benedetti and Franconi's estimate of 1/F given f and F, as
sdcMicro computes it (``indivRisk``, method "approx" by default, or "exact"):

- f_k = 1:  r = p/(1-p) * log(1/p)
- f_k = 2:  r = p/(1-p) - (p/(1-p))^2 * log(1/p)
- f_k >= 3: r = p / (f_k - (1 - p))            (approx; "exact" uses the full series)

with p = f_k / F_k, and r = 1/f_k where the class is the whole population (f_k = F_k).
The global risk is the mean of the individual risks and the expected number of
re-identifications their sum (sdcMicro ``measure_risk``: ``global_risk``,
``global_risk_ER``). With a household id, sdcMicro's hierarchical risk of every member
is 1 - prod(1 - r_i) over the household: the chance that at least one member is
re-identified, which then exposes the others; it is never below the most exposed
member's own risk.

Missing values: by default a missing value is a value of its own, as everywhere in
``core``. sdcMicro instead lets a missing value match anything (``freqCalc``), which can
only raise f_k; ``missing="sdcmicro"`` gives its figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.formatting import fmt_number, fmt_percent, fmt_probability
from core.measures.codes import combined_codes
from core.validation import require_choice, require_columns, require_positive, shown_value

RISK_METHODS = ("approx", "exact")
MISSING_RULES = ("own_value", "sdcmicro")
#: Beyond this class size the exact series overflows; both methods then agree to
#: within 1e-6 of each other, so the approximation is used.
_EXACT_MAX_FK = 40


@dataclass(frozen=True)
class Frequencies:
    """Per record: f_k (sample records sharing its key) and F_k (estimated people)."""

    quasi_identifiers: tuple[str, ...]
    fk: np.ndarray
    Fk: np.ndarray  # noqa: N815 - sdcMicro's name for the estimated population frequency


#: Largest sampling weight: a record stands for at most this many people (ten times the
#: world's population). Beyond it the sums F_k lose their meaning, and two weights of
#: 1e308 add up to infinity, whose figures are NaN.
MAX_WEIGHT = 1e11


def sampling_weights(df: pd.DataFrame, column: str | None) -> np.ndarray:
    """The sampling weights of ``column`` as floats (1 for every record when None), each
    checked to lie between 1 and :data:`MAX_WEIGHT`; the first bad row is named."""
    if column is None:
        return np.ones(len(df))
    require_columns(df, column, parameter="weights")
    values = pd.to_numeric(df[column], errors="coerce").to_numpy(dtype=float)
    # NaN compares False: '~(within)' catches missing values, 'nan' and infinities too
    bad = ~((values >= 1) & (values <= MAX_WEIGHT))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ParameterError(
            f"Sampling weights in column '{column}' must be numbers of at least 1 (each record "
            f"stands for itself and possibly others) and at most {MAX_WEIGHT:,.0f}; row "
            f"{row + 1} has {shown_value(df[column].iloc[row])}. Check that the right column "
            "is named as weights."
        )
    return values


def sample_frequencies(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    weights: str | None = None,
    missing: str = "own_value",
) -> Frequencies:
    """f_k and F_k of every record (sdcMicro ``freqCalc``), vectorised on integer codes."""
    qis = tuple(require_columns(df, quasi_identifiers, parameter="quasi_identifiers"))
    require_choice("missing", missing, MISSING_RULES)
    w = sampling_weights(df, weights)
    if missing == "sdcmicro" and df[list(qis)].isna().to_numpy().any():
        fk, Fk = _wildcard_frequencies(df, qis, w)
        return Frequencies(qis, fk, Fk)
    codes, n_classes = combined_codes(df, qis)
    fk = np.bincount(codes, minlength=n_classes)[codes].astype(float)
    Fk = np.bincount(codes, weights=w, minlength=n_classes)[codes]
    return Frequencies(qis, fk, Fk)


def _wildcard_frequencies(
    df: pd.DataFrame, qis: tuple[str, ...], w: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """sdcMicro's rule: two records match when they agree wherever both have a value.

    Records are grouped by which quasi-identifiers they have (their missingness pattern);
    for every pair of patterns, records of one are counted among the others on the
    columns both have. The codes of each such set of shared columns are computed once
    (one group-by per distinct set), so a pair costs one ``np.bincount``.
    """
    present = df[list(qis)].notna().to_numpy()
    pattern_ids, patterns = pd.factorize(pd.Series([row.tobytes() for row in present]))
    masks = [np.frombuffer(p, dtype=bool) for p in patterns]
    rows = [np.flatnonzero(pattern_ids == i) for i in range(len(masks))]
    fk = np.zeros(len(df))
    Fk = np.zeros(len(df))
    shared_codes: dict[bytes, tuple[np.ndarray, int]] = {}
    for i, mask_i in enumerate(masks):
        for j, mask_j in enumerate(masks):
            shared = mask_i & mask_j
            if not shared.any():  # nothing in common: every record of j matches
                fk[rows[i]] += len(rows[j])
                Fk[rows[i]] += w[rows[j]].sum()
                continue
            key = shared.tobytes()
            if key not in shared_codes:
                shared_codes[key] = combined_codes(df, [qis[c] for c in np.flatnonzero(shared)])
            codes, n = shared_codes[key]
            codes_i, codes_j = codes[rows[i]], codes[rows[j]]
            fk[rows[i]] += np.bincount(codes_j, minlength=n)[codes_i]
            Fk[rows[i]] += np.bincount(codes_j, weights=w[rows[j]], minlength=n)[codes_i]
    return fk, Fk


def _exact_series(f: int, p: float) -> float:
    """sdcMicro's "exact" Benedetti-Franconi risk for f >= 3 (its indivRisk, verbatim)."""

    def b(i: int) -> float:
        return (
            (f - 1 - i) ** 2
            / ((i + 1) * (f - 2 - i))
            * (p ** (i + 2 - f) - 1)
            / (p ** (i + 1 - f) - 1)
        )

    a = (p ** (1 - f) - 1) / (f - 1)
    total, product = 0.0, 1.0
    for m in range(f - 2):
        product *= b(m)
        total += (-1) ** (m + 1) * product
    return (p / (1 - p)) ** f * (a * (1 + total) + (-1) ** f * np.log(p))


def individual_risk(
    frequencies: Frequencies, *, method: str = "approx", qual: float = 1.0
) -> np.ndarray:
    """Benedetti-Franconi individual risk per record (sdcMicro ``indivRisk``).

    ``qual`` is sdcMicro's final correction factor (the risk is multiplied by it).
    """
    require_choice("method", method, RISK_METHODS)
    qual = require_positive("qual", qual)
    fk, Fk = frequencies.fk, frequencies.Fk
    whole = fk >= Fk  # the class is all of its population: 1/f_k exactly
    p = np.where(whole, 0.5, fk / Fk)  # 0.5 keeps the formulas finite where unused
    odds = p / (1 - p)
    risk = np.where(
        fk == 1,
        odds * np.log(1 / p),
        np.where(fk == 2, odds - odds**2 * np.log(1 / p), p / (fk - (1 - p))),
    )
    if method == "exact":
        exact = (fk > 2) & (fk <= _EXACT_MAX_FK) & ~whole
        pairs = pd.DataFrame({"f": fk[exact].astype(int), "p": p[exact]})
        values = {key: _exact_series(*key) for key in pairs.drop_duplicates().itertuples(False)}
        risk[exact] = [values[key] for key in pairs.itertuples(False)]
    risk = np.where(whole, 1 / fk, risk)
    return risk * qual


def household_risk(risk: np.ndarray, households: pd.Series) -> np.ndarray:
    """sdcMicro's hierarchical risk: 1 - prod(1 - r_i) over each household, per member."""
    codes, _ = pd.factorize(households, use_na_sentinel=False)
    log_safe = np.log1p(-np.minimum(risk, 1.0 - 1e-15))
    per_household = 1.0 - np.exp(np.bincount(codes, weights=log_safe))
    return per_household[codes]


@dataclass(frozen=True)
class SurveyRisk:
    """Individual, global and household risk of a sample (sdcMicro ``measure_risk``)."""

    frequencies: Frequencies
    individual: np.ndarray
    method: str
    threshold: float | None = None
    household: np.ndarray | None = None

    @property
    def global_risk(self) -> float:
        """Mean individual risk: the expected share of records re-identified."""
        return float(self.individual.mean()) if len(self.individual) else 0.0

    @property
    def expected_reidentifications(self) -> float:
        return float(self.individual.sum())

    @property
    def share_above_threshold(self) -> float | None:
        if self.threshold is None or not len(self.individual):
            return None
        return float(np.count_nonzero(self.individual > self.threshold) / len(self.individual))

    def to_dict(self) -> dict[str, float | int | str | None]:
        data: dict[str, float | int | str | None] = {
            "risk_method": self.method,
            "individual_risk_mean": self.global_risk,
            "individual_risk_max": float(self.individual.max(initial=0.0)),
            "global_risk": self.global_risk,
            "expected_reidentifications": self.expected_reidentifications,
        }
        if self.threshold is not None:
            data["individual_risk_threshold"] = self.threshold
            data["share_above_threshold"] = self.share_above_threshold
        if self.household is not None:
            data["household_risk_mean"] = float(self.household.mean())
            data["household_expected_reidentifications"] = float(self.household.sum())
        return data

    def explanations(self) -> dict[str, str]:
        """Plain sentences, one per figure (PDPC guide, Step 4)."""
        n = len(self.individual)
        sentences = {
            "global_risk": (
                f"Each record's chance of being re-identified, estimated from how many people "
                f"in the population (sum of sampling weights) share its quasi-identifiers, "
                f"averages {fmt_probability(self.global_risk)}; about "
                f"{fmt_number(self.expected_reidentifications)} "
                f"of the {n:,} records could be re-identified (Benedetti-Franconi, as sdcMicro)."
            ),
            "individual_risk_max": (
                "The most exposed record has a risk of "
                f"{fmt_probability(self.individual.max(initial=0.0))}."
            ),
        }
        if self.threshold is not None:
            sentences["share_above_threshold"] = (
                f"{fmt_percent(self.share_above_threshold)} of records have an individual risk "
                f"above {fmt_probability(self.threshold)}: these are the ones to protect first."
            )
        if self.household is not None:
            sentences["household_risk"] = (
                f"Counting households (one member re-identified exposes the others), the "
                f"expected re-identifications rise to {fmt_number(self.household.sum())}."
            )
        return sentences


def survey_risk(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    weights: str | None,
    household: str | None = None,
    method: str = "approx",
    threshold: float | None = None,
    missing: str = "own_value",
) -> SurveyRisk:
    """Step 4 risk of a weighted sample: f_k, F_k, individual, global and household risk."""
    frequencies = sample_frequencies(df, quasi_identifiers, weights=weights, missing=missing)
    risk = individual_risk(frequencies, method=method)
    if threshold is not None:
        threshold = require_positive("threshold", threshold)
    hh = None
    if household is not None:
        require_columns(df, household, parameter="household")
        if len(df) > 1 and df[household].nunique(dropna=False) == 1:
            raise ParameterError(
                f"Parameter 'household': column '{household}' has one value for all "
                f"{len(df):,} records, so it splits them into no households; name the "
                "household id column (or leave it out)."
            )
        hh = household_risk(risk, df[household])
    return SurveyRisk(frequencies, risk, method, threshold, hh)
