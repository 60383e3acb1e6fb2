"""Privacy-model targets a release must meet, checked on the table as released.

PDPC guide, Step 4: k-anonymity guards against identity disclosure only; a group of k
records that all share one salary class still tells the salary of each of them
(attribute disclosure, Annex C). A recipe's ``targets:`` section names the models the
released table must satisfy, in the same words as a ``suppress_records`` step::

    targets:
      l_diversity: {sensitive: salary, l: 3, kind: entropy}     # distinct, entropy, recursive (c)
      t_closeness: {sensitive: salary, t: 0.2, distance: ordered}
      delta_disclosure: {sensitive: salary, delta: 1.5}
      beta_likeness: {sensitive: salary, beta: 1, enhanced: false}
      alpha_k: {sensitive: salary, alpha: 0.8}
      k_map: {k: 5, population: 5000000, estimator: poisson, significance: 0.01}
      k_anonymity: {k: 5}

Every model of :data:`core.measures.models.registry.MODELS` may be named (TARGET_MODELS).

The models and their measures are :class:`core.measures.models.class_models.ClassModels`
(the ones the search and record suppression use); this module only reads the section, checks
it, and says which classes of the released table fail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.measures.classes import equivalence_classes
from core.measures.models.class_models import ClassModels, failing_records
from core.measures.models.registry import MODELS, TARGET_MODELS


@dataclass(frozen=True)
class TargetResult:
    """One target judged on the released table."""

    name: str  # a key of TARGET_MODELS
    requirement: str  # ClassModels.describe(), e.g. "entropy l-diversity l = 3 on 'salary'"
    failing_records: int
    failing_classes: int

    @property
    def met(self) -> bool:
        return self.failing_records == 0


def _one(name: str, spec: Any) -> ClassModels:
    """The target ``name`` of the registry as its mapping ``spec`` asks (one
    :class:`ParameterError` beginning "Target" and naming the parameter)."""
    if name == "t_closeness" and isinstance(spec, Mapping) and "hierarchy" in spec:
        raise ParameterError(
            "Target 't_closeness' cannot use a hierarchy here: give distance 'equal', "
            "'ordered' or 'auto'."
        )
    fields = MODELS[name].spec_fields(spec, where="Target")
    try:
        return ClassModels.of(**fields)
    except ParameterError as error:
        raise ParameterError(f"Target {error}".replace("Target Parameter", "Target")) from None


def parse_targets(targets: Any) -> dict[str, ClassModels]:
    """The ``targets:`` section as one :class:`ClassModels` per model, checked (a one-line
    :class:`ParameterError` names the model and the parameter at fault)."""
    if targets is None:
        return {}
    if not isinstance(targets, Mapping):
        raise ParameterError(
            f"'targets' must be a mapping of privacy models ({', '.join(TARGET_MODELS)}) to "
            f"their parameters, got {targets!r}."
        )
    unknown = sorted(str(name) for name in targets if name not in TARGET_MODELS)
    if unknown:
        raise ParameterError(
            f"Unknown target {', '.join(map(repr, unknown))}; the targets are "
            f"{', '.join(TARGET_MODELS)}."
        )
    return {str(name): _one(str(name), spec) for name, spec in targets.items()}


def target_columns(targets: Mapping[str, ClassModels]) -> list[str]:
    """The sensitive columns the targets name."""
    return list(dict.fromkeys(m.sensitive for m in targets.values() if m.sensitive is not None))


def evaluate_targets(
    released: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    targets: Mapping[str, ClassModels],
    *,
    counts: np.ndarray | None = None,
) -> list[TargetResult]:
    """Judge each target on ``released`` (its equivalence classes over
    ``quasi_identifiers``; ``counts``: ``released`` is a frequency table). A sensitive
    column the recipe removed discloses nothing: its targets are met."""
    results = []
    qis = list(quasi_identifiers)
    for name, models in targets.items():
        if models.sensitive is not None and models.sensitive not in released.columns:
            results.append(TargetResult(name, models.describe(), 0, 0))
            continue
        if qis:
            fail = failing_records(released, qis, models, counts=counts)
            classes = equivalence_classes(released, qis, counts=counts).class_of_record
        else:  # no quasi-identifier released: the whole table is one class
            whole = released.assign(_all=0)
            fail = failing_records(whole, ["_all"], models, counts=counts)
            classes = np.zeros(len(released), dtype=np.int64)
        weights = np.ones(len(released)) if counts is None else np.asarray(counts, dtype=float)
        results.append(
            TargetResult(
                name,
                models.describe(),
                int(round(weights[fail].sum())),
                int(np.unique(classes[fail]).size),
            )
        )
    return results
