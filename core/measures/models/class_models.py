"""The privacy models a released table must meet, as one value: :class:`ClassModels`
(ARX's semantics: a class failing any of them is suppressed), and :func:`failing_records`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.classes import equivalence_classes
from core.measures.distributions import ENTROPY_ESTIMATORS, ClassDistribution, sensitive_coding
from core.measures.emd import T_DISTANCES
from core.population_risk.kmap import KMAP_ESTIMATORS, kmap_derived_k, kmap_population_counts
from core.validation import (
    require_choice,
    require_columns,
    require_int,
    require_positive,
    require_probability,
)

L_KINDS = ("distinct", "entropy", "recursive")


@dataclass(frozen=True)
class ClassModels:
    """The privacy models every kept equivalence class must meet (ARX's semantics: a class
    that fails *any* of them is suppressed, and the suppression limit bounds the records in
    those classes). PDPC guide, Annex C (k) and Step 4 (attribute disclosure).

    - ``k``: at least k records (Annex C).
    - ``l`` with ``l_kind``: ``distinct`` (at least l values), ``entropy`` (exp(H) >= l) or
      ``recursive`` with ``c`` (r1 < c (r_l + ... + r_m), Machanavajjhala et al. 2007).
    - ``t``: EMD from the whole table at most t (``t_distance`` equal/ordered/auto, or
      hierarchical with the sensitive attribute's hierarchy ``t_hierarchy``).
    - ``delta``: delta-disclosure privacy, |ln(q / p)| < delta for every value present.
    - ``beta``: beta-likeness, (q - p) / p <= beta (``enhanced_beta``: <= min(beta, -ln p)).
    - ``alpha``: (alpha,k)-anonymity, no value above a share alpha of its class.
    - ``k_map`` with ``population`` (N), ``k_map_estimator`` and ``k_map_significance``:
      k-map estimated as ARX does (``KMap(k, significance, population, estimator)``): every
      class of the n records must hold at least k' records, k' derived from k and the
      sampling fraction n / N (:func:`core.population_risk.kmap_derived_k`). A per-class
      model like k, monotone in both directions.
    - ``k_map`` with ``population_table`` instead of N: Sweeney's k-map with the population
      known (ARX ``KMap(k, DataSubset)``: the data is the population, the released records a
      subset of it): a class passes when at least ``k_map`` records of the population table
      share its (generalised) quasi-identifier values. Monotone in both directions too (a
      merged class stands for the sum of its parts' population records). The caller counts
      them (:meth:`failing`'s ``population_counts``); :func:`failing_records` does it for a
      population table generalised like the data.

    Which of them keep the lattice search's pruning exact (``monotone_with_suppression``,
    ``monotone_with_generalisation``) follows ARX's criteria classes; see :mod:`core.search`.
    """

    k: int = 1
    sensitive: str | None = None
    l: float | None = None  # noqa: E741
    l_kind: str = "distinct"
    c: float | None = None
    entropy_estimator: str = "shannon"
    t: float | None = None
    t_distance: str = "auto"
    t_hierarchy: Hierarchy | None = None
    delta: float | None = None
    beta: float | None = None
    enhanced_beta: bool = False
    alpha: float | None = None
    k_map: int | None = None
    population: float | None = None  # N, the population the records were drawn from
    k_map_estimator: str = "zero_truncated_poisson"
    k_map_significance: float = 0.01
    # k-map against the population's own records (ARX KMap(k, DataSubset)); not compared.
    population_table: pd.DataFrame | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        require_int("k", self.k, minimum=1)
        if self.population_table is not None:
            if not isinstance(self.population_table, pd.DataFrame):
                raise ParameterError("Parameter 'population_table' must be a table (DataFrame).")
            if self.k_map is None:
                raise ParameterError(
                    "A population table is used by k-map: give 'k_map' (the k of k-map) too."
                )
        if self.k_map is not None:
            require_int("k_map", self.k_map, minimum=1)
            require_choice("k_map_estimator", self.k_map_estimator, KMAP_ESTIMATORS)
            require_probability("k_map_significance", self.k_map_significance)
            if self.population is None and self.population_table is None:
                raise ParameterError(
                    "k-map needs 'population' (the size of the population) or "
                    "'population_table' (the population's records)."
                )
        if self.population is not None:
            require_positive("population", self.population)
        require_choice("l_kind", self.l_kind, L_KINDS)
        require_choice("entropy_estimator", self.entropy_estimator, ENTROPY_ESTIMATORS)
        require_choice("t_distance", self.t_distance, T_DISTANCES)
        if self.uses_sensitive and self.sensitive is None:
            raise ParameterError(
                "l-diversity, t-closeness, delta-disclosure, beta-likeness and "
                "(alpha,k)-anonymity need a 'sensitive' column."
            )
        if self.l is not None and self.l < 1:
            raise ParameterError(f"Parameter 'l' must be at least 1, got {self.l}.")
        if self.l_kind == "recursive" and self.l is not None:
            if self.c is None or self.c <= 0:
                raise ParameterError("Recursive (c,l)-diversity needs 'c' greater than 0.")
            if self.l != int(self.l) or self.l < 2:
                raise ParameterError(
                    f"Recursive (c,l)-diversity needs a whole 'l' of at least 2, got {self.l}."
                )
        if self.t is not None:
            require_probability("t", self.t)
        if self.t_hierarchy is not None and not isinstance(self.t_hierarchy, Hierarchy):
            raise ParameterError("Parameter 't_hierarchy' must be a hierarchy (read_hierarchy).")
        if self.t is not None and self.t_distance == "hierarchical" and self.t_hierarchy is None:
            raise ParameterError(
                "t-closeness with hierarchical distance needs the sensitive attribute's "
                "hierarchy ('t_hierarchy')."
            )
        if self.delta is not None:
            require_positive("delta", self.delta)
        if self.beta is not None:
            require_positive("beta", self.beta)
        if self.alpha is not None and require_probability("alpha", self.alpha) == 0:
            raise ParameterError("Parameter 'alpha' must be greater than 0.")

    @property
    def uses_sensitive(self) -> bool:
        return any(v is not None for v in (self.l, self.t, self.delta, self.beta, self.alpha))

    @property
    def monotone_with_suppression(self) -> bool:
        """True when a class that contains a passing class always passes (k, distinct l):
        then generalising can only shrink the set of suppressed records."""
        return (
            self.t is None
            and self.delta is None
            and self.beta is None
            and (self.alpha is None)
            and (self.l is None or self.l_kind == "distinct")
        )

    @property
    def grassberger(self) -> bool:
        return (
            self.l is not None
            and self.l_kind == "entropy"
            and (self.entropy_estimator == "grassberger")
        )

    @property
    def monotone_with_generalisation(self) -> bool:
        """True when merging passing classes always gives a passing class: every model but
        delta (shares and EMD are convex, Shannon entropy concave; the hierarchical EMD is
        the EMD of a tree metric, sum of |extra| under each node / (2 height), so convex too)
        and Grassberger's
        entropy estimate (no such argument; ARX assumes it, we check instead)."""
        return self.delta is None and not self.grassberger

    def _distinct_part(self) -> dict:
        """Every l-diversity kind needs at least ceil(l) values in a class (Shannon:
        exp(H) <= values; recursive and Grassberger: required, as in ARX): a monotone
        necessary condition that can prune when the l model itself cannot."""
        if self.l is None:
            return {}
        return {"sensitive": self.sensitive, "l": float(math.ceil(self.l - 1e-9))}

    def smallest_class(self, n_records: int) -> int:
        """The smallest class size a class must have: k, or k-map's derived k' for a
        table of ``n_records`` records, whichever is larger (ARX: the largest minimal class
        size of its criteria)."""
        if self.k_map is None or self.population_table is not None:
            return self.k  # with a population table, k-map is checked on its counts
        derived = kmap_derived_k(
            self.k_map,
            n_records,
            self.population,
            estimator=self.k_map_estimator,
            significance=self.k_map_significance,
        ).derived_k
        return max(self.k, derived)

    def _kmap_part(self) -> dict:
        names = ("k_map", "population", "k_map_estimator", "k_map_significance", "population_table")
        return {name: getattr(self, name) for name in names}

    def only_monotone_with_suppression(self) -> ClassModels:
        """A monotone-with-suppression necessary part of these models: k (and k-map), and
        at least ceil(l) sensitive values (exactly the l model when it is distinct l)."""
        return ClassModels(k=self.k, **self._kmap_part(), **self._distinct_part())

    def model_fields(self) -> dict:
        """The privacy-model fields of these models (a subclass such as
        :class:`core.search.Target` adds fields that are not privacy models)."""
        return {f.name: getattr(self, f.name) for f in fields(ClassModels)}

    def only_monotone_with_generalisation(self) -> ClassModels:
        """These models without delta, and with Grassberger's l replaced by its necessary
        distinct part: monotone with generalisation when nothing may be suppressed."""
        models = {**self.model_fields(), "delta": None}
        if self.grassberger:
            models.update(l_kind="distinct", entropy_estimator="shannon", **self._distinct_part())
        return ClassModels(**models)

    def failing(
        self,
        sizes: np.ndarray,
        dist: ClassDistribution | None,
        population_counts: np.ndarray | None = None,
    ) -> np.ndarray:
        """Boolean per class: the class fails at least one model (ARX: it is suppressed).
        ``population_counts``: with a population table, the population records of each
        class (k-map)."""
        fail = sizes < (self.smallest_class(int(round(sizes.sum()))) if self.k_map else self.k)
        if self.population_table is not None:
            if population_counts is None:
                raise ParameterError("k-map with a population table needs each class's count.")
            fail |= np.asarray(population_counts) < self.k_map
        if not self.uses_sensitive:
            return fail
        if dist is None:
            raise ParameterError("These privacy models need the sensitive attribute's values.")
        if self.l is not None:
            if self.l_kind == "distinct":
                fail |= dist.distinct() < self.l
            elif self.l_kind == "entropy":
                # At least l values as well (ARX): Grassberger's estimate of a small class
                # can exceed the log of its number of values.
                fail |= dist.entropy_l(self.entropy_estimator) < self.l - 1e-9
                fail |= dist.distinct() < math.ceil(self.l - 1e-9)
            else:
                fail |= ~(dist.recursive_ratio(int(self.l)) < self.c)
        if self.t is not None:
            fail |= dist.emd(self.t_distance) > self.t + 1e-12
        if self.delta is not None:
            fail |= dist.delta() >= self.delta
        if self.beta is not None:
            fail |= (
                ~dist.beta_enhanced_ok(self.beta)
                if self.enhanced_beta
                else (dist.beta() > self.beta + 1e-12)
            )
        if self.alpha is not None:
            fail |= dist.alpha() > self.alpha + 1e-12
        return fail

    def describe(self) -> str:
        parts = [f"k = {self.k}"] if self.k > 1 else []
        if self.k_map is not None and self.population_table is not None:
            parts.append(
                f"k-map k = {self.k_map} in a population table of "
                f"{len(self.population_table):,} records"
            )
        elif self.k_map is not None:
            estimator = self.k_map_estimator.replace("_", "-")
            parts.append(
                f"k-map k = {self.k_map} in a population of {self.population:,.0f} "
                f"({estimator} estimate, significance {self.k_map_significance:g})"
            )
        s = f"on '{self.sensitive}'"
        if self.l is not None:
            if self.l_kind == "recursive":
                parts.append(f"recursive (c,l)-diversity c = {self.c:g}, l = {self.l:g} {s}")
            elif self.l_kind == "entropy" and self.entropy_estimator == "grassberger":
                parts.append(f"entropy l-diversity (Grassberger) l = {self.l:g} {s}")
            else:
                parts.append(f"{self.l_kind} l-diversity l = {self.l:g} {s}")
        if self.t is not None:
            how = " (hierarchical distance)" if self.t_distance == "hierarchical" else ""
            parts.append(f"t-closeness t = {self.t:g}{how} {s}")
        if self.delta is not None:
            parts.append(f"delta-disclosure privacy delta = {self.delta:g} {s}")
        if self.beta is not None:
            kind = "enhanced" if self.enhanced_beta else "basic"
            parts.append(f"{kind} beta-likeness beta = {self.beta:g} {s}")
        if self.alpha is not None:
            parts.append(f"(alpha,k)-anonymity alpha = {self.alpha:g} {s}")
        return ", ".join(parts) or "k = 1"


def failing_records(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    models: ClassModels,
    *,
    counts: np.ndarray | None = None,
) -> np.ndarray:
    """Boolean per row: the record is in an equivalence class that fails ``models`` (what
    ARX suppresses). The reference distribution of t, delta and beta is ``df`` itself.
    ``counts``: ``df`` is a frequency table and row i stands for ``counts[i]`` records."""
    classes = equivalence_classes(df, quasi_identifiers, counts=counts)
    dist = None
    if models.uses_sensitive:
        require_columns(df, models.sensitive, parameter="sensitive")
        codes, n_values, is_ordered, tree = sensitive_coding(
            df[models.sensitive], models.t_distance, models.t_hierarchy
        )
        overall = np.bincount(codes, weights=counts, minlength=n_values) / max(
            int(classes.sizes.sum()), 1
        )
        dist = ClassDistribution.of(
            classes.class_of_record,
            codes,
            overall,
            tree=tree,
            n_classes=classes.sizes.size,
            ordered=is_ordered,
            weights=counts,
        )
    population_counts = None
    if models.population_table is not None:  # generalised like df (core.population_risk)
        per_record = kmap_population_counts(df, models.population_table, quasi_identifiers)
        population_counts = np.zeros(classes.sizes.size, dtype=np.int64)
        population_counts[classes.class_of_record] = per_record
    return models.failing(classes.sizes, dist, population_counts)[classes.class_of_record]
