"""The privacy models a released table must meet, as one value: :class:`ClassModels`
(ARX's semantics: a class failing any of them is suppressed), and :func:`failing_records`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Self

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.classes import equivalence_classes
from core.measures.distributions import ClassDistribution, sensitive_coding
from core.measures.models.base import ClassTable, PrivacyModel
from core.measures.models.k_map import MODEL as K_MAP
from core.measures.models.l_diversity import L_KINDS as L_KINDS  # re-exported for its callers
from core.measures.models.l_diversity import MODEL as L_DIVERSITY
from core.measures.models.registry import MODELS
from core.population_risk.kmap import kmap_population_counts
from core.validation import (
    require_columns,
)


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

    A facade over :data:`core.measures.models.registry.MODELS`: each model checks its own
    fields, says which classes fail it, whether it is monotone and how it reads in words;
    this dataclass keeps the fields (recipes, the search's ``Target`` and callers build it by
    keyword) and combines the models asked.
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
    # Parameters of models that have no field above (a model added as its module and its
    # registry line, docs/adding-a-privacy-model.md): (field, value) pairs, set by `of`.
    more: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, **settings: Any) -> Self:
        """The models ``settings`` ask for (ClassModels field -> value, as
        :meth:`model_fields` gives them): this class's fields by name, the parameters of
        models that have no field in :attr:`more` (None: not given)."""
        own = {f.name for f in fields(cls)} - {"more"}
        more = tuple(
            (name, value)
            for name, value in settings.items()
            if name not in own and value is not None
        )
        return cls(**{name: value for name, value in settings.items() if name in own}, more=more)

    def __post_init__(self) -> None:
        # Each model checks its own parameters (core.measures.models); the sensitive column
        # is checked between the models that need none and those that need it.
        own = {f.name for f in fields(ClassModels)}
        known = {p.field for model in MODELS.values() for p in model.parameters} - own
        if not isinstance(self.more, tuple) or not all(
            isinstance(pair, tuple) and len(pair) == 2 and pair[0] in known for pair in self.more
        ):
            raise ParameterError(
                f"Parameter 'more' must hold (parameter, value) pairs of the privacy models "
                f"({', '.join(sorted(known)) or 'none has parameters of its own'}), got "
                f"{self.more!r}."
            )
        settings = self.model_fields()
        for model in MODELS.values():
            if not model.needs_sensitive:
                model.check(settings)
        if self.uses_sensitive and self.sensitive is None:
            labels = [model.label for model in MODELS.values() if model.needs_sensitive]
            raise ParameterError(
                f"{', '.join(labels[:-1])} and {labels[-1]} need a 'sensitive' column."
            )
        for model in MODELS.values():
            if model.needs_sensitive:
                model.check(settings)

    def asked(self) -> list[PrivacyModel]:
        """The models of :data:`MODELS` these settings ask for (k-anonymity always)."""
        settings = self.model_fields()
        return [model for model in MODELS.values() if model.is_asked(settings)]

    @property
    def uses_sensitive(self) -> bool:
        return any(model.needs_sensitive for model in self.asked())

    @property
    def monotone_with_suppression(self) -> bool:
        """True when a class that contains a passing class always passes (k, distinct l,
        k-map): then generalising can only shrink the set of suppressed records."""
        settings = self.model_fields()
        return all(model.monotone_with_suppression(settings) for model in self.asked())

    @property
    def grassberger(self) -> bool:
        return L_DIVERSITY.grassberger(self.model_fields())

    @property
    def monotone_with_generalisation(self) -> bool:
        """True when merging passing classes always gives a passing class: every model but
        delta (shares and EMD are convex, Shannon entropy concave; the hierarchical EMD is
        the EMD of a tree metric, sum of |extra| under each node / (2 height), so convex too)
        and Grassberger's
        entropy estimate (no such argument; ARX assumes it, we check instead)."""
        settings = self.model_fields()
        return all(model.monotone_with_generalisation(settings) for model in self.asked())

    def smallest_class(self, n_records: int) -> int:
        """The smallest class size a class must have: k, or k-map's derived k' for a
        table of ``n_records`` records, whichever is larger (ARX: the largest minimal class
        size of its criteria)."""
        if self.k_map is None or self.population_table is not None:
            return self.k  # with a population table, k-map is checked on its counts
        return max(self.k, K_MAP.derived_k(self.model_fields(), n_records))

    def only_monotone_with_suppression(self) -> ClassModels:
        """A monotone-with-suppression necessary part of these models: k, k-map and distinct
        l as they are, every other model replaced by its monotone part (l of another kind:
        at least ceil(l) values; t, delta, beta and alpha left out)."""
        settings = self.model_fields()
        return self._with_monotone_parts(
            [m for m in self.asked() if not m.monotone_with_suppression(settings)]
        )

    def model_fields(self) -> dict:
        """The privacy-model settings of these models, field -> value: the fields of
        ClassModels (a subclass such as :class:`core.search.target.Target` adds fields that
        are not privacy models), every registered model's parameters (None when not given)
        and those set in :attr:`more`."""
        values = {f.name: getattr(self, f.name) for f in fields(ClassModels) if f.name != "more"}
        for model in MODELS.values():
            for parameter in model.parameters:
                values.setdefault(parameter.field, None)
        values.update(self.more)
        return values

    def only_monotone_with_generalisation(self) -> ClassModels:
        """These models with each one not monotone with generalisation replaced by its
        monotone part (delta left out; Grassberger's l: at least ceil(l) values):
        monotone with generalisation when nothing may be suppressed."""
        settings = self.model_fields()
        return self._with_monotone_parts(
            [m for m in self.asked() if not m.monotone_with_generalisation(settings)]
        )

    def _with_monotone_parts(self, models: list[PrivacyModel]) -> ClassModels:
        settings = self.model_fields()
        for model in models:
            settings.update(model.monotone_part(settings))
        return ClassModels.of(**settings)

    def failing(
        self,
        sizes: np.ndarray,
        dist: ClassDistribution | None,
        population_counts: np.ndarray | None = None,
    ) -> np.ndarray:
        """Boolean per class: the class fails at least one model (ARX: it is suppressed).
        ``population_counts``: with a population table, the population records of each
        class (k-map)."""
        return self.failing_test()(sizes, dist, population_counts)

    def failing_test(
        self,
    ) -> Callable[[np.ndarray, ClassDistribution | None, np.ndarray | None], np.ndarray]:
        """:meth:`failing` with the settings and the models asked found once, for a caller
        that tests many tables against the same models (the lattice search, once per node:
        adult's search with 1% suppressed, 880 nodes, went from 118 to 110 ms)."""
        settings = self.model_fields()
        asked = self.asked()
        if len(asked) == 1:  # one model (k alone, most often): its own test, nothing to OR
            (model,) = asked

            def failing_one(sizes, dist, population_counts=None) -> np.ndarray:
                return model.failing(
                    settings, ClassTable(np.asarray(sizes), dist, population_counts)
                )

            return failing_one

        def failing(sizes, dist, population_counts=None) -> np.ndarray:
            table = ClassTable(np.asarray(sizes), dist, population_counts)
            fail = np.zeros(np.shape(sizes), dtype=bool)
            for model in asked:
                fail |= model.failing(settings, table)
            return fail

        return failing

    def describe(self) -> str:
        settings = self.model_fields()
        parts = [model.describe(settings) for model in self.asked()]
        return ", ".join(part for part in parts if part) or "k = 1"


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
