"""Privacy models and their measures under their historical import path.

Issue 28 gave them a home in :mod:`core.measures`: equivalence classes
(:mod:`core.measures.classes`), integer coding (:mod:`core.measures.codes`), the sensitive
attribute's distributions (:mod:`core.measures.distributions`), the Earth Mover's Distance
(:mod:`core.measures.emd`), the Step 4 attribute-disclosure measures
(:mod:`core.measures.disclosure`), the quasi-identifiers' impact (:mod:`core.measures.impact`)
and the privacy models with their registry (:mod:`core.measures.models`). This module only
re-exports their public names so that ``from core.privacy import ...`` keeps working for
scripts written against it; code inside the project imports from :mod:`core.measures`.
"""

from __future__ import annotations

from core.measures.classes import (
    ClassCounts,
    EquivalenceClasses,
    equivalence_classes,
    k_anonymity,
)
from core.measures.codes import column_codes, combine_codes, combined_codes
from core.measures.disclosure import (
    LDiversity,
    TCloseness,
    alpha_k_anonymity,
    beta_likeness,
    delta_disclosure,
    l_and_t,
    l_and_t_of,
    l_diversity,
    recursive_cl_diversity,
    t_closeness,
)
from core.measures.distributions import (
    ENTROPY_ESTIMATORS,
    ClassDistribution,
    class_distribution,
    classes_and_distribution,
    grassberger_g,
    sensitive_codes,
    sensitive_coding,
)
from core.measures.emd import (
    T_DISTANCES,
    HierarchyTree,
    hierarchical_emd,
    hierarchy_tree,
    ordered_emd,
)
from core.measures.impact import (
    QuasiIdentifierImpact,
    classes_and_impact,
    quasi_identifier_impact,
)
from core.measures.models.class_models import L_KINDS, ClassModels, failing_records

__all__ = [
    "ENTROPY_ESTIMATORS",
    "L_KINDS",
    "T_DISTANCES",
    "ClassCounts",
    "ClassDistribution",
    "ClassModels",
    "EquivalenceClasses",
    "HierarchyTree",
    "LDiversity",
    "QuasiIdentifierImpact",
    "TCloseness",
    "alpha_k_anonymity",
    "beta_likeness",
    "class_distribution",
    "classes_and_distribution",
    "classes_and_impact",
    "column_codes",
    "combine_codes",
    "combined_codes",
    "delta_disclosure",
    "equivalence_classes",
    "failing_records",
    "grassberger_g",
    "hierarchical_emd",
    "hierarchy_tree",
    "k_anonymity",
    "l_and_t",
    "l_and_t_of",
    "l_diversity",
    "ordered_emd",
    "quasi_identifier_impact",
    "recursive_cl_diversity",
    "sensitive_codes",
    "sensitive_coding",
    "t_closeness",
]
