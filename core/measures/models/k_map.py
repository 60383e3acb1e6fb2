"""k-map (Sweeney; El Emam and Dankar 2008; PDPC guide, Annex C and D): every class stands
for at least k people of the population the records were drawn from, so a match in the
population is ambiguous among k people, not k records. Estimated from the population's size
as ARX does (``KMap(k, significance, population, estimator)``: each class of the n records
must hold k' records, k' derived from k and the sampling fraction n / N,
:func:`core.population_risk.kmap.kmap_derived_k`), or counted on the population's own
records (ARX ``KMap(k, DataSubset)``: the population table, generalised like the data)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.measures.models.base import ClassTable, Parameter, PrivacyModel, Settings
from core.population_risk.kmap import KMAP_ESTIMATORS, generalise_population, kmap_derived_k
from core.validation import (
    require_choice,
    require_int,
    require_mapping,
    require_positive,
    require_probability,
)


class KMapModel(PrivacyModel):
    name = "k_map"
    label = "k-map"
    title = "k-map"
    main_field = "k_map"
    parameters = (
        Parameter(
            "population",
            "population",
            "the size of the population the records were drawn from",
            example=1000000,
            flag="--population",
            cli={
                "type": float,
                "help": "size of the population the records were drawn from (for --k-map "
                "and --max-population-uniqueness)",
            },
        ),
        Parameter(
            "k",
            "k_map",
            "the people of the population each class must stand for",
            example=5,
            flag="--k-map",
            cli={
                "type": int,
                "help": "k-map: each class stands for at least k people of the population "
                "(ARX's estimate)",
            },
        ),
        Parameter(
            "population_table",
            "population_table",
            "the population's own records (instead of its size)",
            flag="--population-table",
            cli={
                "metavar": "FILE",
                "help": "with --k-map: the population's own records (a table holding every "
                "record of DATA, e.g. the register it was drawn from); each class must "
                "stand for at least k of them, generalised alike (ARX KMap(k, subset))",
            },
        ),
        Parameter(
            "estimator",
            "k_map_estimator",
            "poisson or zero_truncated_poisson",
            flag="--k-map-estimator",
            cli={
                "choices": KMAP_ESTIMATORS,
                "default": "zero_truncated_poisson",
                "help": "k-map cell size estimator",
            },
        ),
        Parameter(
            "significance",
            "k_map_significance",
            "the estimate's significance level",
            flag="--k-map-significance",
            cli={
                "type": float,
                "default": 0.01,
                "help": "k-map significance level (default 0.01)",
            },
        ),
    )
    needs_sensitive = False
    words = (
        "the class stands for at least k people of the population (Sweeney's k-map, as "
        "estimated by ARX; PDPC guide, Annex C and D)"
    )
    figure_words = "the fewest population records a class stands for (with a population table)"

    def check(self, settings: Settings) -> None:
        k_map, table = settings["k_map"], settings["population_table"]
        if table is not None:
            if not isinstance(table, pd.DataFrame):
                raise ParameterError("Parameter 'population_table' must be a table (DataFrame).")
            if k_map is None:
                raise ParameterError(
                    "A population table is used by k-map: give 'k_map' (the k of k-map) too."
                )
        if k_map is not None:
            require_int("k_map", k_map, minimum=1)
            require_choice("k_map_estimator", settings["k_map_estimator"], KMAP_ESTIMATORS)
            require_probability("k_map_significance", settings["k_map_significance"])
            if settings["population"] is None and table is None:
                raise ParameterError(
                    "k-map needs 'population' (the size of the population) or "
                    "'population_table' (the population's records)."
                )
        if settings["population"] is not None:
            require_positive("population", settings["population"])

    def monotone_with_suppression(self, settings: Settings) -> bool:
        return True  # a per-class size bound, like k

    def monotone_with_generalisation(self, settings: Settings) -> bool:
        return True  # a merged class stands for the sum of its parts' people

    def derived_k(self, settings: Settings, n_records: int) -> int:
        """ARX's k' for a table of ``n_records`` records drawn from the population."""
        return kmap_derived_k(
            settings["k_map"],
            n_records,
            settings["population"],
            estimator=settings["k_map_estimator"],
            significance=settings["k_map_significance"],
        ).derived_k

    def failing(self, settings: Settings, table: ClassTable) -> np.ndarray:
        if settings["population_table"] is None:
            sizes = np.asarray(table.sizes)
            return sizes < self.derived_k(settings, int(round(sizes.sum())))
        if table.population_counts is None:
            raise ParameterError("k-map with a population table needs each class's count.")
        return np.asarray(table.population_counts) < settings["k_map"]

    def figure(self, table: ClassTable) -> float | None:
        if table.population_counts is None:
            return None  # the population's size alone does not tell a class's people
        return int(table.smallest(table.population_counts))

    def describe(self, settings: Settings) -> str:
        if settings["population_table"] is not None:
            return (
                f"k-map k = {settings['k_map']} in a population table of "
                f"{len(settings['population_table']):,} records"
            )
        estimator = settings["k_map_estimator"].replace("_", "-")
        return (
            f"k-map k = {settings['k_map']} in a population of {settings['population']:,.0f} "
            f"({estimator} estimate, significance {settings['k_map_significance']:g})"
        )

    def spec_fields(
        self, spec: object, *, quasi_identifiers: Sequence[str] = (), where: str = "Parameter"
    ) -> dict[str, Any]:
        """A step's ``k_map`` mapping: ``{k, population[, estimator, significance]}`` or,
        with the population known (ARX ``KMap(k, DataSubset)``), ``{k, population_table[,
        hierarchies, levels]}``: the population's records, generalised as the data was (so
        the step needs ``quasi_identifiers``). A target takes the first form only."""
        if where == "Target":
            return self._target_fields(spec)
        if isinstance(spec, Mapping) and "population_table" in spec:
            spec = require_mapping(
                "k_map", spec, ("k", "population_table"), ("hierarchies", "levels")
            )
            population = generalise_population(
                spec["population_table"],
                quasi_identifiers,
                spec.get("hierarchies", {}),
                spec.get("levels", {}),
            )
            return {"k_map": spec["k"], "population_table": population}
        spec = require_mapping("k_map", spec, ("k", "population"), ("estimator", "significance"))
        return {
            "k_map": spec["k"],
            "population": spec["population"],
            "k_map_estimator": spec.get("estimator", "zero_truncated_poisson"),
            "k_map_significance": spec.get("significance", 0.01),
        }

    def _target_fields(self, spec: object) -> dict[str, Any]:
        keys = {"k": "k_map", "population": "population"}
        keys.update(estimator="k_map_estimator", significance="k_map_significance")
        if not isinstance(spec, Mapping) or "k" not in spec or "population" not in spec:
            raise ParameterError(
                "Target 'k_map' must be a mapping with 'k' and 'population' (the size of the "
                "population the records come from), e.g. {k: 5, population: 5000000}."
            )
        unknown = sorted(set(map(str, spec)) - set(keys))
        if unknown:
            raise ParameterError(
                f"Target 'k_map' does not take {', '.join(map(repr, unknown))}; it takes "
                f"{', '.join(map(repr, keys))}."
            )
        return {keys[key]: value for key, value in spec.items()}

    def step_spec(self, settings: Settings, **paths: Any) -> dict[str, Any]:
        """With a population table, the step names the table's file
        (``population_table_path``; its records are never copied into the recipe) and the
        hierarchy file and level of each generalised column (``generalised``)."""
        if settings["population_table"] is not None:
            if paths.get("population_table_path") is None:
                raise ParameterError("No file given for k-map's population table.")
            generalised = dict(paths.get("generalised") or {})
            return {
                "k": settings["k_map"],
                "population_table": str(paths["population_table_path"]),
                "hierarchies": {c: str(p) for c, (p, _) in generalised.items()},
                "levels": {c: int(lv) for c, (_, lv) in generalised.items()},
            }
        return {
            "k": settings["k_map"],
            "population": settings["population"],
            "estimator": settings["k_map_estimator"],
            "significance": settings["k_map_significance"],
        }


MODEL = KMapModel()
