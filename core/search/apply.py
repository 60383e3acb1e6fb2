"""From a candidate to data and recipe steps: the table generalised to a candidate's
levels with the failing classes removed (:func:`apply_candidate`), and the recipe steps
that do the same when replayed (:func:`recipe_steps`; PDPC guide, Step 3 and Annex A,
record suppression). Apart from the search because the pages and the command line apply
a candidate long after the lattice is gone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.models.class_models import ClassModels, failing_records
from core.population_risk.kmap import generalise_population
from core.search.model_checks import suppression_step, table_specs
from core.search.result import Candidate
from core.search.target import Target


def _models(k: int | None, models: ClassModels | None) -> ClassModels:
    if (k is None) == (models is None):
        raise ParameterError("Give either 'k' or the target's 'models' (Target.models).")
    return models if models is not None else ClassModels(k=k)


def apply_candidate(
    df: pd.DataFrame,
    hierarchies: Mapping[str, Hierarchy],
    candidate: Candidate,
    *,
    k: int | None = None,
    models: ClassModels | None = None,
) -> pd.DataFrame:
    """The table generalised to the candidate's levels, records in classes that fail the
    privacy ``models`` (or, with ``k`` alone, classes below k) removed: what the recipe
    steps of :func:`recipe_steps` produce. Pass the :class:`Target` itself as ``models``
    when it has whole-table criteria (average risk, population uniqueness): the classes
    ARX removes for them are removed too."""
    models = _models(k, models)
    out = df.copy()
    for column, level in candidate.levels.items():
        if level > 0:
            out[column] = hierarchies[column].generalise(df[column], level)
    qis = list(candidate.levels)
    if models.population_table is not None:  # k-map: the population generalised alike
        generalised = {c: lv for c, lv in candidate.levels.items() if lv > 0}
        population = generalise_population(models.population_table, qis, hierarchies, generalised)
        models = replace(models, population_table=population)
    fail = failing_records(out, qis, models)
    if isinstance(models, Target) and models.sample_based:
        # here, not at the top: core.techniques imports core.local_recoding, which imports us
        from core.techniques.suppression import table_failing_records

        table = table_specs(models)
        fail |= table_failing_records(
            out, qis, fail, table.get("average_risk"), table.get("population_uniqueness")
        )
    return out.loc[~fail]


def recipe_steps(
    candidate: Candidate,
    hierarchy_paths: Mapping[str, str | Path],
    *,
    k: int | None = None,
    models: ClassModels | None = None,
    population_table_path: str | Path | None = None,
) -> list[dict[str, Any]]:
    """Recipe steps for a candidate: one ``generalise`` (hierarchy + level) per generalised
    quasi-identifier, then one ``suppress_records`` with the privacy models (below k, and
    l, t, delta, beta, alpha when the target has them) if any record is suppressed; with
    hierarchical t-closeness, ``hierarchy_paths`` also names the sensitive column's file;
    k-map with a population table names its file, ``population_table_path``."""
    models = _models(k, models)
    steps: list[dict[str, Any]] = []
    for column, level in candidate.levels.items():
        if level > 0:
            if column not in hierarchy_paths:
                raise ParameterError(f"No hierarchy file given for column '{column}'.")
            steps.append(
                {
                    "step": "generalise",
                    "column": column,
                    "hierarchy": str(hierarchy_paths[column]),
                    "level": int(level),
                }
            )
    if candidate.suppressed:
        path = hierarchy_paths.get(models.sensitive) if models.sensitive else None
        generalised = {c: (hierarchy_paths[c], lv) for c, lv in candidate.levels.items() if lv}
        steps.append(
            suppression_step(
                models,
                list(candidate.levels),
                t_hierarchy_path=path,
                population_table_path=population_table_path,
                generalised=generalised,
            )
        )
    return steps


#: The longest value a step gives as its level's example. A hierarchy file may hold labels
#: of megabytes (within core.hierarchy_files.MAX_FILE_BYTES); one as the example made a
#: recipe larger than core.recipe.MAX_RECIPE_BYTES, which apply and the workspace refuse.
MAX_EXAMPLE_CHARS = 200


def level_example(hierarchy: Hierarchy, level: int, values: pd.Series | None = None) -> str | None:
    """A value of ``level`` to show: the one most records of ``values`` take there (the
    hierarchy's most common one without them, or when none of them is in it); None when
    it is longer than :data:`MAX_EXAMPLE_CHARS`."""
    labels = pd.Series(hierarchy.levels[level].to_numpy(), index=hierarchy.levels[0].to_numpy())
    example = None
    if values is not None:
        counts = as_text(values).value_counts()  # per distinct value: cheap on a large table
        taken = labels.reindex(counts.index).dropna()
        if not taken.empty:
            example = str(counts.loc[taken.index].groupby(taken.to_numpy()).sum().idxmax())
    if example is None:
        example = str(labels.mode().iloc[0])
    return example if len(example) <= MAX_EXAMPLE_CHARS else None


def with_hierarchy_words(
    steps: list[dict[str, Any]],
    hierarchies: Mapping[str, Hierarchy],
    *,
    sources: Mapping[str, str] | None = None,
    data: pd.DataFrame | None = None,
) -> list[dict[str, Any]]:
    """``steps`` with each ``generalise`` step by hierarchy saying it in words
    (core.techniques.step_calls.HIERARCHY_WORDS): its height, a value of its level (the one
    most records of ``data`` take) and, for a hierarchy a person uploaded, the name of
    their file (``sources``: column -> file name; a column without one was built from the
    data). The words are what a person reads in the step list, history and report instead
    of the key the workspace keeps the hierarchy under (issue 30). The replay reads only
    ``hierarchy`` and ``level``, so the steps do the same as before."""
    sources = sources or {}
    out = []
    for step in steps:
        column = step.get("column")
        if step.get("step") == "generalise" and "hierarchy" in step and column in hierarchies:
            hierarchy, level = hierarchies[column], int(step["level"])
            values = data[column] if data is not None and column in data.columns else None
            step = {**step, "hierarchy_height": hierarchy.height}
            example = level_example(hierarchy, level, values)
            if example is not None:
                step["level_example"] = example
            if sources.get(column):
                step["hierarchy_source"] = str(sources[column])
        out.append(step)
    return out
