"""Step 4 measures of attribute disclosure with pycanon's signature ``f(df,
quasi_identifiers, sensitive)``: the table's l (distinct, entropy, recursive c), t, delta,
beta and alpha (PDPC guide, Step 4 and footnote 11).

- l-diversity (Machanavajjhala et al., summarised in the health-data seed article): the
  sensitive (target) attribute takes at least l distinct values in each class (distinct
  l-diversity), or its Shannon entropy in each class is at least log(l) (entropy
  l-diversity; we report the real number exp(H), not a truncated integer).
- t-closeness (Li et al., same seed article): the distribution of the sensitive attribute
  in each class is within Earth Mover's Distance t of its distribution in the whole table.

They read :mod:`core.measures.distributions`; the yes/no models built on the same figures
are in :mod:`core.measures.models`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.classes import (
    ClassCounts,
    EquivalenceClasses,
    equivalence_classes,
    resolve_classes,
)
from core.measures.distributions import (
    ClassDistribution,
    class_distribution,
    sensitive_distribution,
)
from core.measures.emd import T_DISTANCES
from core.validation import (
    require_choice,
    require_columns,
)


@dataclass(frozen=True)
class LDiversity:
    """l-diversity of a sensitive attribute within the equivalence classes.

    ``distinct`` is the fewest distinct sensitive values in any class; ``entropy`` is the
    smallest exp(H) over classes (H in nats), a real number between 1 and ``distinct``.
    ``per_class_distinct`` / ``per_class_entropy`` are indexed by class id.
    """

    sensitive: str
    distinct: int
    entropy: float
    per_class_distinct: np.ndarray
    per_class_entropy: np.ndarray


@dataclass(frozen=True)
class TCloseness:
    """t-closeness: the largest Earth Mover's Distance of a class from the whole table."""

    sensitive: str
    distance: str
    t: float
    per_class: np.ndarray


def _l_from(
    sensitive: str, classes: EquivalenceClasses | ClassCounts, dist: ClassDistribution
) -> LDiversity:
    if classes.n_records == 0:
        empty = np.zeros(0)
        return LDiversity(sensitive, 0, 0.0, empty.astype(int), empty)
    distinct = dist.distinct()
    l_entropy = dist.entropy_l()
    present = classes.sizes > 0
    return LDiversity(
        sensitive=sensitive,
        distinct=int(distinct[present].min()),
        entropy=float(l_entropy[present].min()),
        per_class_distinct=distinct,
        per_class_entropy=l_entropy,
    )


def _t_from(
    sensitive: str, classes: EquivalenceClasses | ClassCounts, dist: ClassDistribution
) -> TCloseness:
    distance = "hierarchical" if dist.tree is not None else "ordered" if dist.ordered else "equal"
    if classes.n_records == 0:
        return TCloseness(sensitive, distance, 0.0, np.zeros(0))
    per_class = dist.emd(distance)
    present = classes.sizes > 0
    return TCloseness(sensitive, distance, float(per_class[present].max()), per_class)


def l_diversity(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    sensitive: str,
    *,
    classes: EquivalenceClasses | None = None,
) -> LDiversity:
    """Distinct and entropy l-diversity of ``sensitive`` (guide Step 4, footnote 11)."""
    require_columns(df, sensitive, parameter="sensitive")
    classes = resolve_classes(df, quasi_identifiers, classes)
    return _l_from(sensitive, classes, sensitive_distribution(df[sensitive], classes, ordered=None))


def t_closeness(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    sensitive: str,
    *,
    distance: str = "auto",
    classes: EquivalenceClasses | None = None,
    hierarchy: Hierarchy | None = None,
) -> TCloseness:
    """t-closeness of ``sensitive`` with the Earth Mover's Distance (Li et al. 2007).

    ``distance="ordered"`` treats the m distinct values as ordered (numbers): EMD =
    sum over i of |cumulative difference up to value i| / (m - 1). ``"equal"`` treats
    every pair of categories as distance 1: EMD = half the sum of absolute differences.
    ``"hierarchical"`` measures distances in the sensitive attribute's generalisation
    ``hierarchy`` (:func:`hierarchical_emd`, ARX's HierarchicalDistanceTCloseness).
    ``"auto"`` picks ordered for numeric columns and equal otherwise.
    PDPC guide, Step 4 (attribute disclosure).
    """
    require_columns(df, sensitive, parameter="sensitive")
    require_choice("distance", distance, T_DISTANCES)
    if (distance == "hierarchical") != (hierarchy is not None):
        raise ParameterError(
            "Give the sensitive attribute's 'hierarchy' with distance='hierarchical' (and only "
            "then)."
        )
    classes = resolve_classes(df, quasi_identifiers, classes)
    ordered = None if distance in ("auto", "hierarchical") else distance == "ordered"
    dist = sensitive_distribution(df[sensitive], classes, ordered=ordered, hierarchy=hierarchy)
    return _t_from(sensitive, classes, dist)


def l_and_t(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    sensitive: str,
    *,
    classes: EquivalenceClasses | None = None,
    counts: np.ndarray | None = None,
) -> tuple[LDiversity, TCloseness]:
    """:func:`l_diversity` and :func:`t_closeness` (distance ``auto``) from one count of
    the (class, sensitive value) pairs. ``counts``: records per row of a frequency table
    (then ``classes`` must be computed with the same ``counts``)."""
    require_columns(df, sensitive, parameter="sensitive")
    if classes is None:
        classes = equivalence_classes(df, quasi_identifiers, counts=counts)
    classes = resolve_classes(df, quasi_identifiers, classes)
    dist = sensitive_distribution(df[sensitive], classes, ordered=None, counts=counts)
    return l_and_t_of(sensitive, classes, dist)


def l_and_t_of(
    sensitive: str, classes: EquivalenceClasses | ClassCounts, dist: ClassDistribution
) -> tuple[LDiversity, TCloseness]:
    """l-diversity and t-closeness (distance ``auto``) read from the counted pairs."""
    return _l_from(sensitive, classes, dist), _t_from(sensitive, classes, dist)


def _worst(values: np.ndarray, dist: ClassDistribution) -> float:
    present = dist.sizes > 0
    return float(values[present].max()) if present.any() else 0.0


def delta_disclosure(df: pd.DataFrame, quasi_identifiers: Sequence[str], sensitive: str) -> float:
    """The smallest delta for which the table is delta-disclosure private (Brickell and
    Shmatikov 2008): the largest |ln(share in class / share in table)| over the values
    present in each class (natural log, as pycanon; ARX states delta in log2 units).
    PDPC guide, Step 4 (attribute disclosure)."""
    dist = class_distribution(df, quasi_identifiers, sensitive)
    return _worst(dist.delta(), dist)


def beta_likeness(df: pd.DataFrame, quasi_identifiers: Sequence[str], sensitive: str) -> float:
    """The smallest beta for which the table has basic beta-likeness (Cao and Karras 2012):
    the largest relative gain (share in class - share in table) / share in table.
    PDPC guide, Step 4 (attribute disclosure)."""
    dist = class_distribution(df, quasi_identifiers, sensitive)
    return _worst(dist.beta(), dist)


def alpha_k_anonymity(
    df: pd.DataFrame, quasi_identifiers: Sequence[str], sensitive: str
) -> tuple[float, int]:
    """(alpha, k) of the table (Wong et al. 2006): the largest share one sensitive value
    takes in a class, and the smallest class. PDPC guide, Annex C and Step 4."""
    classes = equivalence_classes(df, quasi_identifiers)
    dist = class_distribution(df, quasi_identifiers, sensitive, classes=classes)
    return _worst(dist.alpha(), dist), classes.k


def recursive_cl_diversity(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    sensitive: str,
    *,
    l: int,  # noqa: E741
) -> float:
    """The bound c of recursive (c,l)-diversity (Machanavajjhala et al. 2007): the table
    is (c,l)-diverse for every c above the returned value, the largest r1 / (r_l + ... +
    r_m) over classes (counts sorted from the most frequent value; infinite when a class
    has fewer than l values). PDPC guide, Step 4."""
    if isinstance(l, bool) or not isinstance(l, int | np.integer) or l < 2:
        raise ParameterError(f"Parameter 'l' must be a whole number of at least 2, got {l!r}.")
    dist = class_distribution(df, quasi_identifiers, sensitive)
    return _worst(dist.recursive_ratio(int(l)), dist)
