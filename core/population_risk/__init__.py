"""Population-based re-identification risk: population uniqueness, k-map, average risk.

A released table is usually a *sample* of a larger population (PDPC guide, Annex D:
re-identification needs the attacker to single a person out of the population the data
comes from, not only out of the table). These measures estimate, from the table's own
frequency table of equivalence-class sizes and a population size N (the sampling fraction
is f = n / N for n records), how many combinations of quasi-identifier values are unique
in the *population*, or how large a class is in the population. Every function reads only
the class-size histogram (``sizes`` -> how many classes of each size), so a 1M-row table
costs one ``np.unique`` over its class sizes; nothing loops over rows.

The definitions follow ARX 3.9 (``org.deidentifier.arx.risk`` and
``org.deidentifier.arx.criteria``), so figures can be compared with ARX's; where ARX's code
differs from the paper it cites, both are named below and ARX's is what is computed.

- **Pitman** (Hoshino 2001, "Applying Pitman's sampling formula to microdata disclosure
  risk assessment", J. Official Statistics 17(4)); ARX ``ModelPitman``: the maximum
  likelihood estimates of Pitman's (theta, alpha) from the sample's class sizes, solved by
  Newton-Raphson from ARX's initial guess, first on the closed forms (digamma), then, if
  that fails or its root does not solve the plain-sum equations, on the plain sums
  (ARX's fallback; needed when alpha < 0); population uniques =
  Gamma(theta + 1) / Gamma(theta + alpha) * N^alpha (accepted only within [0, N]). ARX's
  own digamma and trigamma are approximations (digamma of a negative argument uses a
  Taylor series at 0; trigamma drops its asymptotic tail between 8 and 12); they only steer
  its Newton steps, so we use exact ones and reach the same roots.
- **Zayatz** (Zayatz 1991, "Estimation of the percent of unique population elements on a
  microdata file using the sample", US Census Bureau SRD report 91/08); ARX ``ModelZayatz``:
  the share of sample uniques that are population uniques, with the sample's class sizes
  standing for the population's: P = (c1 / u) h(1; N, 1, n) / sum_i (c_i / u) h(1; N, i, n),
  h the hypergeometric probability of drawing exactly one member of a class of size i;
  population uniques = c1 P / f. As in ARX, N is capped at 2^31 - 1 in h (ARX's own code
  says so: "This is an error: overflow").
- **SNB**, slide negative binomial (Chen & Keller-McNulty 1998, "Estimation of
  identification disclosure risk in microdata", J. Official Statistics 14(1)); ARX
  ``ModelSNB``: the number of non-empty population cells K from Haas & Stokes / Shlosser's
  estimator, then (alpha, beta) solving the SNB equations for c1 and c2 by Newton-Raphson
  from (1, 1); population uniques = K beta^alpha. ARX's Shlosser term subtracts 1 from every
  summand of its denominator (``var2 += ... - 1``), not once: we compute ARX's form.
- **Dankar** (Dankar, El Emam, Neisa & Roffey 2012, "Estimating the re-identification risk
  of clinical data sets", BMC Med. Inform. Decis. Mak. 12:66): the decision rule picks
  Pitman when f <= 0.1 (Zayatz if Pitman does not converge, for the risk report; ARX's
  *criterion* does not fall back), else the smaller of Zayatz and SNB (Zayatz if SNB does
  not converge).
- **k-map** (Sweeney; estimators from El Emam & Dankar 2008, "Protecting privacy using
  k-anonymity", JAMIA 15(5), and Pannekoek 1999): every class of the sample stands for at
  least k people in the population. Without a population table, ARX estimates it as
  k'-anonymity of the sample: k' is the smallest class size such that a Poisson (``D3``)
  or zero-truncated Poisson (``D4``) cell of mean f k reaches 1 - significance, capped at k
  and at n (``KMap.calculateKPoisson`` / ``calculateKZeroPoisson``). With a population
  table that contains the sample, a class passes when the population holds at least k
  records with its values (ARX ``KMap(k, DataSubset)``).
- **Average re-identification risk** (ARX ``AverageReidentificationRisk``; El Emam's
  average risk): classes / records of the released table, i.e. 1 / average class size.

How ARX uses population uniqueness and average risk as search targets (``RiskBasedCriterion``,
a *sample-based* criterion): after the classes failing per-class models are suppressed, the
remaining classes, smallest first, are suppressed by a binary search over how many to remove
until the criterion holds; the node passes when the records suppressed stay within the
limit. The class made of ``*`` only counts as suppressed for the risk model (it is excluded
from the histogram) but not against the limit. See :func:`sample_based_suppression`.

The package is split by what the code does: :mod:`~core.population_risk.solver` (special
functions, ARX's Newton-Raphson), :mod:`~core.population_risk.estimators` (population
uniqueness, average risk), :mod:`~core.population_risk.kmap` (k-map estimated or counted in a
population table), :mod:`~core.population_risk.suppression` (ARX's suppression for these
whole-table criteria) and :mod:`~core.population_risk.report` (figures and plain words). The
names below are re-exported so ``from core.population_risk import …`` keeps working.
"""

from core.population_risk.estimators import (
    POPULATION_MODELS,
    PopulationUniqueness,
    SizeHistogram,
    average_risk,
    check_population,
    meets_average_risk,
    meets_population_uniqueness,
    pitman_uniques,
    population_uniqueness,
    snb_uniques,
    zayatz_uniques,
)
from core.population_risk.kmap import (
    KMAP_ESTIMATORS,
    POPULATION_TABLE,
    KMapEstimate,
    PopulationLattice,
    check_sample_in_population,
    generalise_population,
    k_map_in_population,
    kmap_derived_k,
    kmap_figures,
    kmap_population_counts,
)
from core.population_risk.report import MODEL_NAMES, population_figures, sizes_from_distribution
from core.population_risk.solver import DEFAULT_SOLVER, SolverSettings, digamma, newton, trigamma
from core.population_risk.suppression import sample_based_suppression, table_suppression

__all__ = [
    "DEFAULT_SOLVER",
    "KMAP_ESTIMATORS",
    "MODEL_NAMES",
    "POPULATION_MODELS",
    "POPULATION_TABLE",
    "KMapEstimate",
    "PopulationLattice",
    "PopulationUniqueness",
    "SizeHistogram",
    "SolverSettings",
    "average_risk",
    "check_population",
    "check_sample_in_population",
    "digamma",
    "generalise_population",
    "k_map_in_population",
    "kmap_derived_k",
    "kmap_figures",
    "kmap_population_counts",
    "meets_average_risk",
    "meets_population_uniqueness",
    "newton",
    "pitman_uniques",
    "population_figures",
    "population_uniqueness",
    "sample_based_suppression",
    "sizes_from_distribution",
    "snb_uniques",
    "table_suppression",
    "trigamma",
    "zayatz_uniques",
]
