"""What a search must meet: :class:`Target`, the privacy models plus the search's own limits.

PDPC guide, Annex C (k-anonymity), Annex D (the P(re-ID) threshold) and Step 4 (attribute
disclosure). The privacy models themselves are
:class:`core.measures.models.class_models.ClassModels`; a target adds the share of records
that may be suppressed, the Annex D threshold and the whole-table criteria (ARX's
sample-based criteria, :mod:`core.population_risk`). Apart from the search because the
recipe steps, the local recoding and the pages read a target without searching.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from core.errors import ParameterError
from core.figure_names import ANNEX_D_P_REID, P_ATTEMPT
from core.measures.distributions import ClassDistribution
from core.measures.models.class_models import ClassModels
from core.population_risk.estimators import POPULATION_MODELS, average_risk, population_uniqueness
from core.population_risk.solver import DEFAULT_SOLVER, SolverSettings
from core.population_risk.suppression import table_suppression
from core.risk import smallest_k
from core.validation import require_choice, require_probability


@dataclass(frozen=True)
class Target(ClassModels):
    """What a solution must meet (PDPC guide, Annex C k-anonymity; Annex D threshold; Step 4
    attribute disclosure).

    The privacy-model fields (k, sensitive, l, l_kind, c, entropy_estimator, t, t_distance,
    delta, beta, enhanced_beta, alpha) are those of
    :class:`core.measures.models.class_models.ClassModels`, which defines and validates
    them; a target adds what the search needs besides (k defaults to 5 here).
    ``max_suppressed`` is the largest share of records that may be removed
    (0.01 = 1%). As in ARX, a class is suppressed when it fails *any* of the models, and the
    suppressed records must stay within ``max_suppressed``. ``p_reid_threshold`` with
    ``p_attempt`` (Annex D) raises k to the smallest k with p_attempt / k <= threshold:
    :attr:`models` holds the models with that k, and :meth:`failing` uses them.

    Whole-table targets (ARX's sample-based criteria, :mod:`core.population_risk`):
    ``max_population_uniqueness`` with ``population`` (N) and ``population_model``
    (``dankar``, ``pitman``, ``zayatz`` or ``snb``): the estimated share of the population
    that is unique on the quasi-identifiers stays at or below it (ARX
    ``PopulationUniqueness``); ``max_average_risk``: classes / records at or below it (ARX
    ``AverageReidentificationRisk``). After the classes failing the per-class models are
    suppressed, ARX suppresses the smallest remaining classes until these hold (a binary
    search, :func:`core.population_risk.sample_based_suppression`), within the same limit.
    """

    k: int = 5
    max_suppressed: float = 0.0
    p_reid_threshold: float | None = None
    p_attempt: float = 1.0
    max_population_uniqueness: float | None = None
    population_model: str = "dankar"
    max_average_risk: float | None = None
    population_solver: SolverSettings = DEFAULT_SOLVER  # Pitman's and SNB's Newton-Raphson

    def __post_init__(self) -> None:
        super().__post_init__()
        require_probability("max_suppressed", self.max_suppressed)
        if not isinstance(self.population_solver, SolverSettings):
            raise ParameterError("Parameter 'population_solver' must be a SolverSettings.")
        require_choice("population_model", self.population_model, POPULATION_MODELS)
        if self.max_population_uniqueness is not None:
            require_probability("max_population_uniqueness", self.max_population_uniqueness)
            if self.population is None:
                raise ParameterError(
                    "A population uniqueness target needs 'population': the size of the "
                    "population the records were drawn from."
                )
        if self.max_average_risk is not None:
            require_probability("max_average_risk", self.max_average_risk)
        if self.p_reid_threshold is not None:
            if require_probability("p_reid_threshold", self.p_reid_threshold) == 0:
                raise ParameterError("Parameter 'p_reid_threshold' must be greater than 0.")
            require_probability("p_attempt", self.p_attempt)

    @property
    def required_k(self) -> int:
        """k, raised if needed so that P(attempt) / k meets the Annex D threshold."""
        if self.p_reid_threshold is None:
            return self.k
        return max(self.k, smallest_k(self.p_attempt, self.p_reid_threshold))

    @cached_property
    def models(self) -> ClassModels:
        """The per-class privacy models (k raised for Annex D). Made once per target (the
        target is frozen; building and checking the models is a fixed cost a search paid
        at each use)."""
        return ClassModels.of(**{**self.model_fields(), "k": self.required_k})

    def failing(
        self,
        sizes: np.ndarray,
        dist: ClassDistribution | None,
        population_counts: np.ndarray | None = None,
    ) -> np.ndarray:
        """As :meth:`ClassModels.failing`, with k raised for Annex D."""
        return self.models.failing(sizes, dist, population_counts)

    @property
    def sample_based(self) -> bool:
        """Whether the target has whole-table criteria (population uniqueness, average
        risk). Population uniqueness never prunes (ARX: not monotone with suppression) and
        is checked on every node; average risk is monotone and prunes."""
        return self.max_population_uniqueness is not None or self.max_average_risk is not None

    def table_suppression(
        self, sizes: np.ndarray, order: np.ndarray, limit: int | None
    ) -> np.ndarray:
        """Boolean per class (of ``sizes``, classes already suppressed given as size 0):
        the classes ARX suppresses for the whole-table criteria. ``order``: a tie-breaker
        per class (ARX: the first record's position). ``limit``: records that may still
        be suppressed (ARX's early abort)."""
        if not self.sample_based:
            return np.zeros(sizes.size, dtype=bool)
        return table_suppression(sizes, order, **self.table_criteria(), limit=limit)

    def table_criteria(self) -> dict[str, Any]:
        """The whole-table criteria as keyword arguments of
        :func:`core.population_risk.table_suppression` (and of the recipe step)."""
        criteria: dict[str, Any] = {}
        if self.max_average_risk is not None:
            criteria["max_average_risk"] = self.max_average_risk
        if self.max_population_uniqueness is not None:
            criteria.update(
                max_population_uniqueness=self.max_population_uniqueness,
                population=self.population,
                population_model=self.population_model,
                solver=self.population_solver,
            )
        return criteria

    def table_figures(self, kept_sizes: np.ndarray) -> dict[str, float]:
        """Average risk and, with a population, estimated population uniqueness of the
        released classes."""
        figures = {"average_risk": average_risk(kept_sizes)}
        if self.population is not None and np.asarray(kept_sizes).sum() > 0:
            estimate = population_uniqueness(
                kept_sizes,
                self.population,
                model=self.population_model,
                solver=self.population_solver,
            )
            figures["population_uniqueness"] = float(estimate.share)
        return figures

    def describe(self) -> str:
        parts = [f"k = {self.required_k}"]
        if self.p_reid_threshold is not None:
            parts.append(
                f"{ANNEX_D_P_REID.name} <= {self.p_reid_threshold:g} "
                f"({P_ATTEMPT.name} {self.p_attempt:g})"
            )
        if self.uses_sensitive or self.k_map is not None:
            parts.append(ClassModels.of(**{**self.model_fields(), "k": 1}).describe())
        if self.max_population_uniqueness is not None:
            parts.append(
                f"population uniqueness <= {self.max_population_uniqueness:g} "
                f"({self.population_model}, population {self.population:,.0f})"
            )
        if self.max_average_risk is not None:
            parts.append(f"average risk <= {self.max_average_risk:g}")
        parts.append(f"at most {self.max_suppressed:.2%} of records suppressed")
        return ", ".join(parts)
