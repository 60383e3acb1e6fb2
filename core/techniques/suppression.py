"""Attribute and record suppression (PDPC guide, Annex A: Attribute suppression, Record
suppression; Annex C: k-anonymity).

Suppression removes data for good: the returned table no longer contains the columns or
rows (the guide warns that "hiding" a row in a spreadsheet is not suppression). Removed
rows keep their original index labels in the remaining rows, so a report can say which
records were dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.measures.classes import equivalence_classes
from core.measures.models.class_models import ClassModels, failing_records
from core.measures.models.registry import CLASS_MODELS, MAPPING_MODELS, MODELS
from core.population_risk import SolverSettings, table_suppression
from core.validation import require_columns, require_int, require_mapping, require_numeric


def remove_columns(df: pd.DataFrame, columns: str | Iterable[str]) -> pd.DataFrame:
    """Delete whole columns (PDPC guide, Annex A: Attribute suppression).

    Use it for direct identifiers (names, e-mail addresses: Annex B) and for any attribute
    not needed for the purpose. Returns a new table; ``df`` is unchanged.
    """
    columns = require_columns(df, columns, parameter="columns")
    return df.drop(columns=columns)


def suppress_records(
    df: pd.DataFrame,
    *,
    column: str,
    equals: object = None,
    isin: Iterable[object] | None = None,
    less_than: float | None = None,
    greater_than: float | None = None,
) -> pd.DataFrame:
    """Delete the records whose ``column`` meets exactly one condition (PDPC guide, Annex A:
    Record suppression).

    ``equals`` (one value), ``isin`` (a list of values), ``less_than`` / ``greater_than``
    (strict comparisons; the column must be numeric). Records with a missing value never
    meet a condition and are kept. Returns a new table with the remaining rows, original
    index labels kept.
    """
    require_columns(df, column)
    given = {
        name: value
        for name, value in {
            "equals": equals,
            "isin": isin,
            "less_than": less_than,
            "greater_than": greater_than,
        }.items()
        if value is not None
    }
    if len(given) != 1:
        named = ", ".join(given) if given else "none"
        raise ParameterError(
            "suppress_records needs exactly one condition among 'equals', 'isin', "
            f"'less_than' and 'greater_than' (given: {named})."
        )
    ((name, value),) = given.items()
    series = df[column]
    if name == "equals":
        hit = series.eq(value)
    elif name == "isin":
        if isinstance(value, str) or not isinstance(value, Iterable):
            raise ParameterError(
                f"Parameter 'isin' must be a list of values, got {value!r}; "
                "use 'equals' for a single value."
            )
        hit = series.isin(list(value))
    else:
        numbers = require_numeric(df, column, technique="Record suppression")
        bound = _number(name, value)
        hit = numbers < bound if name == "less_than" else numbers > bound
    hit = hit.fillna(False).astype(bool).to_numpy()
    return df.loc[~hit].copy()


def suppress_below_k(df: pd.DataFrame, quasi_identifiers: Sequence[str], *, k: int) -> pd.DataFrame:
    """Delete the records whose equivalence class has fewer than ``k`` records (PDPC guide,
    Annex C: "Records in equivalence classes with less than k records should be considered
    for suppression").

    Classes are computed by :func:`core.measures.classes.equivalence_classes` (a missing value is a
    value of its own). The result is k-anonymous on ``quasi_identifiers`` (or empty).
    Generalise first: suppression alone may remove most of a detailed table.
    """
    k = require_int("k", k, minimum=1)
    classes = equivalence_classes(df, quasi_identifiers)
    below = np.asarray(classes.below(k), dtype=bool)
    return df.loc[~below].copy()


#: The population-based models a ``suppress_failing_classes`` step can name (k-map per
#: class, from the registry; average risk and population uniqueness on the whole table,
#: ARX semantics).
POPULATION_MODELS = (
    *(name for name in MAPPING_MODELS if name not in CLASS_MODELS),
    "average_risk",
    "population_uniqueness",
)


def model_of_step(name: str, spec: object, quasi_identifiers: Sequence[str] = ()) -> ClassModels:
    """One :class:`ClassModels` asking for the privacy model ``name`` of
    :data:`core.measures.models.registry.MODELS` as a step's mapping ``spec`` says (e.g.
    ``{"sensitive": "salary", "l": 2}``); k-map with a population table generalises the
    population over ``quasi_identifiers`` as the data was."""
    fields = MODELS[name].spec_fields(spec, quasi_identifiers=quasi_identifiers)
    return ClassModels.of(**fields)


def class_models(*, k: int = 1, **specs: Mapping[str, object] | None) -> ClassModels:
    """One :class:`core.measures.models.class_models.ClassModels` from a step's ``k`` and
    model mappings (as :func:`suppress_failing_classes` takes them); the models share one
    sensitive column."""
    unknown = sorted(set(specs) - set(CLASS_MODELS))
    if unknown:
        raise ParameterError(
            f"Unknown privacy model {', '.join(map(repr, unknown))}; the models are "
            f"{', '.join(map(repr, CLASS_MODELS))}."
        )
    values: dict[str, object] = {}
    sensitive = None
    for name, spec in specs.items():
        if spec is None:
            continue
        one = MODELS[name].spec_fields(spec)  # checks the mapping
        if sensitive is not None and one["sensitive"] != sensitive:
            raise ParameterError(
                f"Parameter '{name}' names sensitive column {one['sensitive']!r}, another model "
                f"names {sensitive!r}: give the models one sensitive column."
            )
        sensitive = one["sensitive"]
        values.update(one)
    return ClassModels.of(k=require_int("k", k, minimum=1), **values)


def suppress_failing_classes(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    k: int = 1,
    average_risk: Mapping[str, object] | None = None,
    population_uniqueness: Mapping[str, object] | None = None,
    **models: Mapping[str, object] | None,
) -> pd.DataFrame:
    """Delete the records of every equivalence class that fails a privacy model: fewer than
    ``k`` records, or a sensitive attribute not l-diverse, not t-close, ... (PDPC guide,
    Annex A: Record suppression; Annex C; Step 4). This is ARX's record suppression: a class
    failing *any* model is removed, which is what :func:`core.search.search` counts.

    Each model is a mapping with its ``sensitive`` column and parameters, e.g.
    ``l_diversity={"sensitive": "salary", "l": 2, "kind": "distinct"}`` (kinds distinct,
    entropy, recursive with ``c``), ``t_closeness={"sensitive": ..., "t": 0.2,
    "distance": "auto"|"equal"|"ordered"|"hierarchical"}`` (hierarchical: with
    ``"hierarchy"``, the sensitive column's :class:`core.hierarchy.Hierarchy`), ``delta_disclosure={..., "delta": 1.5}``,
    ``beta_likeness={..., "beta": 1, "enhanced": False}``, ``alpha_k={..., "alpha": 0.8}``.
    Distributions are compared with the table given (see :class:`core.measures.models.class_models.ClassModels`).

    Population-based models (:mod:`core.population_risk`): ``k_map={"k": 10, "population":
    N, "estimator": "poisson"|"zero_truncated_poisson", "significance": 0.01}`` (a class
    must hold ARX's derived k' records), or with the population known (ARX ``KMap(k,
    DataSubset)``) ``k_map={"k": 5, "population_table": <the population's records>,
    "hierarchies": {column: Hierarchy}, "levels": {column: level}}`` (a class must stand for
    at least k population records once the population is generalised like the data); then, on the classes left, ARX's whole-table
    criteria: ``average_risk={"max": 0.05}`` and ``population_uniqueness={"max": 0.01,
    "population": N, "model": "dankar"|"pitman"|"zayatz"|"snb"[, "iterations_per_try": 15]}``
    (the last: ARX's solver setting for Pitman and SNB), met by removing the
    smallest classes first (ties in the order of their first record), as ARX does.
    """
    k = require_int("k", k, minimum=1)
    quasi_identifiers = require_columns(df, quasi_identifiers, parameter="quasi_identifiers")
    unknown = sorted(set(models) - set(MAPPING_MODELS))
    if unknown:
        raise ParameterError(
            f"Unknown privacy model {', '.join(map(repr, unknown))}; the models are "
            f"{', '.join(map(repr, (*CLASS_MODELS, *POPULATION_MODELS)))}."
        )
    fail = failing_records(df, quasi_identifiers, ClassModels(k=k))
    for name, spec in models.items():
        if spec is not None:
            one = model_of_step(name, spec, quasi_identifiers)
            fail |= failing_records(df, quasi_identifiers, one)
    if average_risk is not None or population_uniqueness is not None:
        fail |= table_failing_records(
            df, quasi_identifiers, fail, average_risk, population_uniqueness
        )
    return df.loc[~fail].copy()


def table_failing_records(
    df: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    fail: np.ndarray,
    average_risk: Mapping[str, object] | None,
    population_uniqueness: Mapping[str, object] | None,
) -> np.ndarray:
    """Boolean per row: the records ARX removes for its whole-table criteria (specs as in
    :func:`suppress_failing_classes`) after the records in ``fail`` are gone."""
    criteria: dict = {}
    if average_risk is not None:
        criteria["max_average_risk"] = require_mapping("average_risk", average_risk, ("max",), ())[
            "max"
        ]
    if population_uniqueness is not None:
        spec = require_mapping(
            "population_uniqueness",
            population_uniqueness,
            ("max", "population"),
            ("model", "iterations_per_try"),
        )
        criteria.update(
            max_population_uniqueness=spec["max"],
            population=spec["population"],
            population_model=spec.get("model", "dankar"),
        )
        if "iterations_per_try" in spec:  # ARX's ARXSolverConfiguration.iterationsPerTry
            criteria["solver"] = SolverSettings(iterations_per_try=spec["iterations_per_try"])
    kept = np.flatnonzero(~fail)
    table = df.iloc[kept]
    out = np.zeros(len(df), dtype=bool)
    if all((table[c].astype(str) == "*").all() for c in quasi_identifiers):
        return out  # ARX: the all-'*' class counts as suppressed already for these criteria
    classes = equivalence_classes(table, quasi_identifiers)
    order = np.full(classes.sizes.size, np.iinfo(np.int64).max)
    np.minimum.at(order, classes.class_of_record, np.arange(len(table)))
    removed = table_suppression(classes.sizes, order, **criteria)
    out[kept[removed[classes.class_of_record]]] = True
    return out


def _number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise ParameterError(f"Parameter '{name}' must be a number, got {value!r}.")
    return float(value)
