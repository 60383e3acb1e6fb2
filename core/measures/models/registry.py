"""The one list of privacy models: :data:`MODELS`, name -> model.

Everything that lists the models reads this: ``ClassModels`` (checks, failing classes,
monotonicity, words), record suppression and local recoding (a step's model mappings), the
lattice search (the recipe step it writes), the command line (``search``'s flags), the
release check's ``targets:``, ``risk --json`` and the report, the step words. Adding a model
is one module in this package and one line below (docs/adding-a-privacy-model.md).

δ-presence (Nergiz et al. 2007; ARX ``DPresence``) fits the same shape when it comes: a
:class:`~core.measures.models.base.PrivacyModel` with ``needs_sensitive = False`` whose
:meth:`failing` reads the population counts of each class (as k-map with a population table
does, :attr:`ClassTable.population_counts`) and its parameters ``delta_min``/``delta_max``.
"""

from __future__ import annotations

from core.measures.models import (
    alpha_k,
    beta_likeness,
    delta_disclosure,
    k_anonymity,
    k_map,
    l_diversity,
    t_closeness,
)
from core.measures.models.base import PrivacyModel

#: Every privacy model, by its name in recipes, ``targets:`` and ``risk --json``; in the order
#: they are described and listed.
MODELS: dict[str, PrivacyModel] = {
    model.name: model
    for model in (
        k_anonymity.MODEL,
        l_diversity.MODEL,
        t_closeness.MODEL,
        delta_disclosure.MODEL,
        beta_likeness.MODEL,
        alpha_k.MODEL,
        k_map.MODEL,
    )
}

#: The models that judge a sensitive attribute: a step or target names each with a mapping
#: ``{sensitive: column, <parameter>: value, ...}``; name -> {recipe key: ClassModels field}.
CLASS_MODELS: dict[str, dict[str, str]] = {
    name: {p.key: p.field for p in model.parameters}
    for name, model in MODELS.items()
    if model.needs_sensitive
}

#: The models a recipe step names with a mapping (k-anonymity is the step's own ``k``).
MAPPING_MODELS: tuple[str, ...] = tuple(name for name in MODELS if name != "k_anonymity")

#: The models a release's ``targets:`` section may name (every model).
TARGET_MODELS: tuple[str, ...] = tuple(MODELS)
