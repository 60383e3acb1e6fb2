"""Differentially private counts, sums, means and cross-tabulations (OpenDP noise).

Source: *Health data privacy: HIPAA, GDPR and formal models*, section "Probabilistic
Guarantees: Differential Privacy". A mechanism is (ε, δ)-differentially private when,
for any two tables that differ by one person's record (added or removed), the chance of
any output changes by at most a factor exp(ε), plus δ. The Laplace mechanism adds noise
of scale b = Δf/ε, where Δf (the global sensitivity) is how much one record can change
the answer: 1 for a count, max(|lo|, |hi|) for a sum of values clipped to [lo, hi].

This is the differentially private counterpart of the PDPC guide's data aggregation
(Annex A: Data aggregation): instead of suppressing small cells, every cell gets noise
whose size does not depend on what an attacker already knows.

How a release is computed (the trust boundary is stated in docs/guide/dp-aggregate.md):

1. The grouping keys come from the user (``categories``), never from the data: every
   combination of the listed categories is a cell, also when no record falls in it.
   Records whose key is not in the lists fall into one extra "outside" cell. The cells
   partition the records, so one person changes one cell: the sensitivity of the whole
   count vector is 1 (L1 and L2), and of a clipped sum vector max(|lo|, |hi|).
2. Values are clipped to bounds the user gives (never the data's min/max, which would
   leak the extremes); missing values count as 0.
3. The exact cell vectors are computed here with ``numpy.bincount`` (fast on millions of
   rows). The noise is drawn by OpenDP measurements (``make_laplace`` / ``make_gaussian``
   on vectors), whose privacy map confirms the ε (and δ) charged for the sensitivity.
   Counts are integers and get *discrete* Laplace (or discrete Gaussian) noise.
4. Means, the count of records outside the lists and clipping at zero are computed from
   released noisy figures only (post-processing: no extra privacy cost).

Seeding: OpenDP draws its noise from a cryptographically secure generator that cannot
be seeded, on purpose (a known seed would let anyone subtract the noise). Every call
therefore gives a different answer, and every call is a new release that spends its ε
again: release once, keep the ledger.

Modules: :mod:`core.dp.budget` (the ε and δ spent, query by query), :mod:`core.dp.noise`
(scales, accuracy, OpenDP's draws), :mod:`core.dp.cells` (categories and bounds),
:mod:`core.dp.release` (:func:`dp_release`), :mod:`core.dp.ledger` (the ledger file),
:mod:`core.dp.planning` (accuracy against ε for the dashboard) and
:mod:`core.dp.comparison` (the exact and the suppressed tables, not for release). This
package re-exports their public names, so ``from core.dp import dp_release`` works.
"""

from core.dp.budget import (
    MAX_EPSILON,
    MIN_EPSILON,
    BudgetExceededError,
    Charge,
    PrivacyBudget,
    require_delta,
    require_epsilon,
)
from core.dp.cells import MAX_BOUND, MAX_CELLS, parse_bounds, parse_categories
from core.dp.comparison import exact_cross_tab, suppressed_cross_tab
from core.dp.ledger import MAX_LEDGER_BYTES, open_ledger, write_ledger
from core.dp.noise import COVERAGE, MECHANISMS, Accuracy, accuracy, add_dp_noise, noise_scale
from core.dp.planning import accuracy_curve, band_frame, measures_of
from core.dp.release import SOURCE, DPRelease, Figure, describe_outside, dp_aggregate, dp_release

__all__ = [
    "COVERAGE",
    "MAX_BOUND",
    "MAX_CELLS",
    "MAX_EPSILON",
    "MAX_LEDGER_BYTES",
    "MECHANISMS",
    "MIN_EPSILON",
    "SOURCE",
    "Accuracy",
    "BudgetExceededError",
    "Charge",
    "DPRelease",
    "Figure",
    "PrivacyBudget",
    "accuracy",
    "accuracy_curve",
    "add_dp_noise",
    "band_frame",
    "describe_outside",
    "dp_aggregate",
    "dp_release",
    "exact_cross_tab",
    "measures_of",
    "noise_scale",
    "open_ledger",
    "parse_bounds",
    "parse_categories",
    "require_delta",
    "require_epsilon",
    "suppressed_cross_tab",
    "write_ledger",
]
