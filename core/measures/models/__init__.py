"""Privacy models: yes/no properties of a released table (PDPC guide, Step 4 and Annex C),
kept apart from risk models and utility measures as ARX's ``criteria`` package keeps them.

One module per model (:mod:`~core.measures.models.k_anonymity`, ``l_diversity``,
``t_closeness``, ``delta_disclosure``, ``beta_likeness``, ``alpha_k``, ``k_map``), what every
model is in :mod:`~core.measures.models.base`, the one list :data:`MODELS` in
:mod:`~core.measures.models.registry`, and :class:`ClassModels`, the models a table must
meet together, in :mod:`~core.measures.models.class_models`. Adding a model:
docs/adding-a-privacy-model.md. Code inside the project imports from those modules; the
names are re-exported here for people using the library.
"""

from core.measures.models.base import ClassTable, Parameter, PrivacyModel
from core.measures.models.class_models import ClassModels, failing_records
from core.measures.models.registry import MODELS

__all__ = [
    "MODELS",
    "ClassModels",
    "ClassTable",
    "Parameter",
    "PrivacyModel",
    "failing_records",
]
