"""The search's privacy-model specific code, in one place: which models prune, the
sensitive attribute's figures per model, and the recipe step that suppresses the classes
failing the models.

What the search relies on (monotonicity, as in ARX/Flash and Incognito). Generalising a
node merges its equivalence classes (hierarchies must nest: each level a function of the
one before; :func:`core.search.preparation.prepare_column` checks it). For k and distinct
l, a class that contains a passing class passes, so a failing merged class is made of
failing classes only: the suppressed records can only shrink, "at most s suppressed" holds
at every generalisation of a solution and fails at every specialisation of a non-solution,
and both prunings are used. The other sensitive models are not monotone with suppression
(ARX says the same: entropy of a merge can fall below log l when a passing class meets a
failing one), so with suppression allowed only k and distinct l prune and every node
meeting them is checked for the rest. Without suppression every class must pass, and
merging passing classes keeps them passing for every model but delta-disclosure (entropy
is concave, EMD and shares are convex): then all but delta prune, and delta is checked.
k-map is a k (ARX's derived k') and prunes like it. The whole-table targets (ARX's
sample-based criteria, :mod:`core.population_risk`) are enforced after the per-class
models by removing the smallest classes first: average risk is monotone and prunes (ARX
says so; the tests compare it with evaluating every node), population uniqueness is not
and is checked on every node that meets the rest.

Kept together (PDPC guide, Step 4, attribute disclosure) so that a privacy model reaches
the search in one module; the models themselves are
:class:`core.measures.models.class_models.ClassModels`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from core.measures.distributions import ClassDistribution
from core.measures.models.base import ClassTable
from core.measures.models.class_models import ClassModels
from core.measures.models.registry import MAPPING_MODELS, MODELS
from core.population_risk.solver import DEFAULT_SOLVER
from core.search.target import Target


def pruning_models(models: ClassModels, limit: int) -> ClassModels:
    """The part of the target whose verdict carries up and down the lattice (``limit``:
    records that may be suppressed).

    With suppression allowed, only k and distinct l (for every l kind, its necessary
    part: at least ceil(l) values): a class containing a passing class passes, so
    generalising never adds suppressed records (ARX: monotonic with suppression).
    Without suppression every class must pass, and every model but delta-disclosure and
    Grassberger's l survives merging passing classes (ARX: monotonic with
    generalisation). The rest of the target is checked on every node that meets this.
    """
    if limit > 0:
        return models.only_monotone_with_suppression()
    return models.only_monotone_with_generalisation()


def whole_target_prunes(target: Target, models: ClassModels, limit: int) -> bool:
    """Whether the whole target prunes in both directions (no node needs a re-check)."""
    if target.max_population_uniqueness is not None:
        return False  # not monotone (ARX): checked on every node, never pruned
    # Average risk is monotone in both directions (ARX: AverageReidentificationRisk is
    # a RiskBasedCriterion(true, true)): it prunes with the per-class models.
    if limit > 0:
        return models.monotone_with_suppression
    return models.monotone_with_generalisation


def sensitive_figures(dist: ClassDistribution, models: ClassModels) -> dict[str, float]:
    """Privacy figures of the sensitive attribute on the kept classes ``dist`` of a node,
    from every model of the registry that reads it (core.measures.models: smallest distinct
    l and exp(entropy), largest EMD (t), delta, beta and alpha, and the recursive (c,l)
    ratio when the target asks it). ``dist`` carries the sensitive attribute's hierarchy
    for hierarchical t-closeness when one was given."""
    if not (dist.sizes > 0).any():
        return {}
    table = ClassTable(dist.sizes, dist)
    settings = models.model_fields()
    figures: dict[str, float] = {}
    for model in MODELS.values():
        if model.needs_sensitive:
            figures.update(model.node_figures(settings, table))
    return figures


def table_specs(target: Target) -> dict[str, dict[str, Any]]:
    """The whole-table criteria as recipe parameters (core.techniques.suppression)."""
    specs: dict[str, dict[str, Any]] = {}
    if target.max_average_risk is not None:
        specs["average_risk"] = {"max": target.max_average_risk}
    if target.max_population_uniqueness is not None:
        specs["population_uniqueness"] = {
            "max": target.max_population_uniqueness,
            "population": target.population,
            "model": target.population_model,
        }
        if target.population_solver != DEFAULT_SOLVER:  # ARX's solver settings, replayed
            specs["population_uniqueness"]["iterations_per_try"] = (
                target.population_solver.iterations_per_try
            )
    return specs


def suppression_step(
    models: ClassModels,
    quasi_identifiers: Sequence[str],
    *,
    t_hierarchy_path: str | Path | None = None,
    population_table_path: str | Path | None = None,
    generalised: Mapping[str, tuple[str | Path, int]] | None = None,
) -> dict[str, Any]:
    """The recipe step that suppresses the classes failing ``models`` (ARX semantics).
    Hierarchical t-closeness names the sensitive attribute's hierarchy file
    (``t_hierarchy_path``), as ``generalise`` steps name theirs. k-map with a population
    table names the table's file (``population_table_path``; its records are never copied
    into the recipe) and the hierarchy file and level of each generalised column
    (``generalised``), so the population is generalised like the data when it replays."""
    below_k = models.required_k if isinstance(models, Target) else models.k
    step: dict[str, Any] = {
        "step": "suppress_records",
        "below_k": int(below_k),
        "quasi_identifiers": list(quasi_identifiers),
    }
    settings = models.model_fields()
    for name in MAPPING_MODELS:  # k-anonymity is the step's below_k
        model = MODELS[name]
        if model.is_asked(settings):
            step[name] = model.step_spec(
                settings,
                t_hierarchy_path=t_hierarchy_path,
                population_table_path=population_table_path,
                generalised=generalised,
            )
    if isinstance(models, Target):
        step.update(table_specs(models))
    return step
