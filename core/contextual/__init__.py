"""Locational disclosure risk of area-level (contextual) variables.

Source: Witkowski (2007), *Disclosure risk of contextual data: the locational risk of survey
respondents*, Section 3.b.
Data producers often attach the characteristics of the area a respondent lives in (share in
poverty, median income of the subzone...) instead of the area code. The paper shows that
these contextual values can pinpoint the area, and so the person. Its limited hierarchical
matching algorithm (Section 3.b, equations 6-10) has three components, each with a threshold:

- **A_j, contextual matchsets** (Section 3.a, 4.d): an area's *matchset* is the set of areas
  of the same kind, among *all* areas (the intruder's master file), that share its released
  contextual values. The area is easily re-identified (*pinpointed*) when its matchset has
  fewer than T1 = 20 areas (p = 0.05, Section 3.d: "at-risk geographic units are those with 1
  to 19 matches").
- **C_-,j, contextual sample uniques** (Section 3.b, 4.d): a respondent is at risk when fewer
  than T3 = 3 respondents in the survey share their contextual values, "even when their
  location characteristics are commonly found in the population".
- **E_-,j|J, protection by population size** (Section 3.d, 4.d): respondents living in an area
  of at least T5 = 100,000 people "are assigned a null value of risk, for respondents whose
  contextual characteristics are commonly found in the survey".

Equation 8 combines them: the contextual values are safe for a respondent when
``(A and C) or (C and E)``, i.e. ``C and (A or E)``. So a respondent is **at risk** when::

    sample_matches < T3   or   (area_matches < T1  and  population < T5)

and the headline **locational disclosure risk LR** (equation 6, Section 4.d) is the
(optionally weighted) share of respondents at risk. The paper reads LR also as the local
suppression rate: the share of respondents whose contextual data may not be released
(Section 2 and 5).

The full algorithm (equation 3) adds personal quasi-identifiers: C_i,j counts respondents
sharing personal *and* contextual values. :func:`combined_view` computes that k within each
contextual matchset (B_i,j and D_i,j need population data and are not computed).

Coarsening (Section 4.b, endnote 2): *absolute recoding* into 1%, 5%, 10%, 15%, 20% categories
or Top-25% / Bottom-25% / Other, and *percentile recoding* (e.g. deciles, cut points taken over
the population of areas); *local suppression* of the contextual values of at-risk areas
(Section 2). Each is a recipe step (:func:`recode_absolute`, :func:`recode_percentile`,
:func:`suppress_contextual`). :func:`sweep` gives LR for every coarsening option and every
subset of contextual variables (the paper's experimental design, Section 4.b).

Everything is computed on integer codes at area level: respondents in the same area share its
contextual values, so a sweep step costs a few ``np.bincount`` calls over the areas.

The package is split by what the code does: :mod:`~core.contextual.options` (thresholds and
coarsening grades), :mod:`~core.contextual.data` (checking and linking the two tables),
:mod:`~core.contextual.coding` (codes under each coarsening), :mod:`~core.contextual.risk`
(the measures, the sweep, the combined view) and :mod:`~core.contextual.steps` (recipe steps).
The names below are re-exported so ``from core.contextual import assess`` keeps working.
"""

from core.contextual.coding import (
    Scale,
    absolute_codes,
    infer_scale,
    measure_codes,
    percentile_codes,
    percentile_edges,
)
from core.contextual.data import ContextualData, prepare, validate_area_table
from core.contextual.options import (
    ABSOLUTE_WIDTHS,
    METHODS,
    PERCENTILE_GROUPS,
    SCALES,
    T1_DEFAULT,
    T3_DEFAULT,
    T5_DEFAULT,
    TOP_BOTTOM,
    TOP_BOTTOM_LABELS,
    Coarsening,
    Thresholds,
    sweep_options,
)
from core.contextual.risk import (
    CombinedView,
    LocationalRisk,
    assess,
    combined_view,
    suppress_until_safe,
    sweep,
)
from core.contextual.steps import (
    coarsening_step,
    recode_absolute,
    recode_percentile,
    suppress_contextual,
    suppression_step,
)

__all__ = [
    "ABSOLUTE_WIDTHS",
    "METHODS",
    "PERCENTILE_GROUPS",
    "SCALES",
    "T1_DEFAULT",
    "T3_DEFAULT",
    "T5_DEFAULT",
    "TOP_BOTTOM",
    "TOP_BOTTOM_LABELS",
    "Coarsening",
    "CombinedView",
    "ContextualData",
    "LocationalRisk",
    "Scale",
    "Thresholds",
    "absolute_codes",
    "assess",
    "coarsening_step",
    "combined_view",
    "infer_scale",
    "measure_codes",
    "percentile_codes",
    "percentile_edges",
    "prepare",
    "recode_absolute",
    "recode_percentile",
    "suppress_contextual",
    "suppress_until_safe",
    "suppression_step",
    "sweep",
    "sweep_options",
    "validate_area_table",
]
