"""Population uniqueness for the risk report: JSON-ready figures and one plain sentence.

PDPC guide, Annex D: the risk that someone in the population can be singled out, named
with the model that estimated it.
"""

from __future__ import annotations

import math

import numpy as np

from core.population_risk.estimators import population_uniqueness

MODEL_NAMES = {
    "pitman": "Pitman's sampling formula (Hoshino 2001)",
    "zayatz": "Zayatz's model (1991)",
    "snb": "the slide negative binomial model (Chen & Keller-McNulty 1998)",
    "dankar": "Dankar et al.'s rule (2012)",
}


def sizes_from_distribution(class_size: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Class sizes back from a size distribution (size -> how many classes)."""
    return np.repeat(np.asarray(class_size, dtype=np.int64), np.asarray(classes, dtype=np.int64))


def population_figures(
    class_sizes: np.ndarray, population: float, *, model: str = "dankar"
) -> tuple[dict, dict]:
    """Population uniqueness of a table for the risk report: JSON-ready figures and one
    plain sentence each (PDPC guide, Annex D: the risk that someone in the population can
    be singled out)."""
    result = population_uniqueness(class_sizes, population, model=model, every_model=True)
    share = result.share
    available = not math.isnan(share)
    figures = {
        "population": result.population,
        "sampling_fraction": result.sampling_fraction,
        "population_model": model,
        "population_model_used": result.chosen,
        "population_uniqueness": float(share) if available else None,
        "population_uniques": float(result.uniques) if available else None,
        "population_estimates": {
            m: (None if math.isnan(v) else float(v)) for m, v in result.estimates.items()
        },
    }
    if not available:
        sentence = (
            f"The population uniqueness could not be estimated with {MODEL_NAMES[model]}: its "
            "equations have no solution for this table; choose another model."
        )
    else:
        picked = (
            f"{MODEL_NAMES[result.chosen]}, picked by {MODEL_NAMES['dankar']} for a sampling "
            f"fraction of {result.sampling_fraction:.2%}"
            if model == "dankar" and result.chosen in ("pitman", "zayatz", "snb")
            else MODEL_NAMES[model]
        )
        sentence = (
            f"Of a population of {result.population:,.0f} people (the table holds "
            f"{result.sampling_fraction:.2%} of them), an estimated {share:.4%} (about "
            f"{result.uniques:,.0f} people) are the only person with their combination of "
            f"quasi-identifier values, so anyone who knows those values could single them out "
            f"({picked}; PDPC guide, Annex D)."
        )
    return figures, {"population_uniqueness": sentence}
