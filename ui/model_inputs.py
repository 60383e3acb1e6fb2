"""The privacy models as search targets on Explore trade-offs: one group of inputs per model
of :data:`core.measures.models.registry.MODELS`, built from its
:class:`~core.measures.models.base.Parameter` list, so a model added to the registry is
offered on the page with no page edit (docs/adding-a-privacy-model.md).

Each group is a switch named after the model (its plain words and guide section as help)
and, once on, one input per parameter (one that counts only with another's value, its
``when``, only then): a choice list for a parameter with ``choices``, a
switch for a ``store_true`` flag, a number otherwise (whole for an ``int`` parameter). The
model's own :meth:`~core.measures.models.base.PrivacyModel.check` judges the values and its
message is shown in the group, next to the inputs. Parameters the page asks once for several
targets (the target k, the sensitive attribute, the population size) and files (the
sensitive attribute's hierarchy, a population table) are ``given`` by the page.

PDPC guide, Step 4 (attribute disclosure) and Annex C.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from core.errors import ParameterError
from core.markup import escape_markdown
from core.measures.models.base import Parameter, PrivacyModel
from core.measures.models.class_models import ClassModels
from core.measures.models.registry import MODELS
from ui.page_errors import error_text

#: Keys the page's inputs had before they were built from the registry (AppTests and
#: people's habits use them): ClassModels field -> widget key. Any other parameter's input
#: is ``to_<field>``.
KEPT_KEYS = {
    "k_map": "to_kmap",
    "k_map_estimator": "to_kmap_estimator",
    "k_map_significance": "to_kmap_significance",
    "enhanced_beta": "to_beta_enhanced",
}

#: A number that is a count unless a choice of the same model says otherwise: field ->
#: (choice field, the value making it a fraction). Distinct and recursive l count sensitive
#: values (whole numbers); an entropy's l may lie between two counts (1.5). The fraction
#: has its own input (``to_l_entropy``) so switching the kind never carries 1.5 into a count.
FRACTION_WHEN = {"l": ("l_kind", "entropy")}

#: Where a model's settings start: the ClassModels defaults (a parameter of a model that has
#: no ClassModels field starts unset).
DEFAULTS: dict[str, Any] = {
    f.name: f.default for f in fields(ClassModels) if f.default is not MISSING and f.name != "more"
}


def widget_key(parameter: Parameter, fraction: bool = False) -> str:
    """The widget key of ``parameter``'s input (``to_l``; ``to_l_entropy`` for its fraction)."""
    key = KEPT_KEYS.get(parameter.field, f"to_{parameter.field}")
    if fraction:
        return f"{key}_{FRACTION_WHEN[parameter.field][1]}"
    return key


def switch_key(model: PrivacyModel) -> str:
    """The key of the switch that asks for ``model`` (``to_model_l_diversity``)."""
    return f"to_model_{model.name}"


def is_file(parameter: Parameter) -> bool:
    """A file (a hierarchy, a population table): the page asks it its own way."""
    return parameter.cli.get("metavar") == "FILE"


@dataclass
class ModelInputs:
    """One model's group: whether it is asked, the values of its inputs (ClassModels field
    -> value) and where its message goes."""

    model: PrivacyModel
    on: bool
    values: dict[str, Any]
    box: DeltaGenerator


def _start(parameter: Parameter) -> Any:
    """Where an input starts: the command line's default, the ClassModels default, else the
    model's example."""
    if "default" in parameter.cli:
        return parameter.cli["default"]
    if DEFAULTS.get(parameter.field) is not None:
        return DEFAULTS[parameter.field]
    return parameter.example


def _parameter_input(model: PrivacyModel, parameter: Parameter, chosen: Mapping[str, Any]) -> Any:
    """One input for ``parameter`` (``chosen``: the model's choices made so far)."""
    cli, words = parameter.cli, parameter.words
    label = f"{model.label} {parameter.key}"
    if "choices" in cli:
        choices = list(cli["choices"])
        start = _start(parameter)
        index = choices.index(start) if start in choices else 0
        return st.selectbox(label, choices, index=index, key=widget_key(parameter), help=words)
    if cli.get("action") == "store_true":
        return st.checkbox(label, value=False, key=widget_key(parameter), help=words)
    start = _start(parameter)
    when = FRACTION_WHEN.get(parameter.field)
    fraction = when is not None and chosen.get(when[0]) == when[1]
    if cli.get("type") is int or (when is not None and not fraction):
        value = None if start is None else int(start)
        return st.number_input(
            label, value=value, step=1, key=widget_key(parameter), help=words, placeholder="off"
        )
    value = None if start is None else float(start)
    step = 0.5 if fraction else None
    return st.number_input(
        label,
        value=value,
        step=step,
        format="%g",
        key=widget_key(parameter, fraction),
        help=words,
        placeholder="off",
    )


def model_inputs(model: PrivacyModel, given: Mapping[str, Any], *, on: bool) -> ModelInputs:
    """The switch and inputs of ``model``; ``on`` is the switch's first position."""
    box = st.container(border=True)
    asked = box.toggle(model.title, value=on, key=switch_key(model), help=model.words)
    values: dict[str, Any] = {}
    if asked:
        shown = [p for p in model.parameters if p.field not in given and not is_file(p)]
        # Choices first: a number's kind may depend on them (FRACTION_WHEN).
        shown.sort(key=lambda p: "choices" not in p.cli and p.cli.get("action") != "store_true")
        columns = box.columns(3)
        for parameter in shown:
            if parameter.when is not None and values.get(parameter.when[0]) != parameter.when[1]:
                continue  # it does not count with the choices made (the c of recursive l)
            with columns[len(values) % len(columns)]:
                values[parameter.field] = _parameter_input(model, parameter, values)
        box.caption(escape_markdown(f"{model.title}: {model.words}."))
    return ModelInputs(model, asked, values, box)


def offered(given: Mapping[str, Any]) -> list[PrivacyModel]:
    """The models that get a group: all but those the page asks by itself (k-anonymity is
    the target k: its only parameter is given)."""
    return [model for model in MODELS.values() if model.main.field not in given]


def checked(groups: list[ModelInputs], given: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """The ClassModels fields of the models switched on (their inputs and the ``given``
    values they read), each model checked by its own rules with the message in its group;
    and whether every model asked is well set."""
    settings: dict[str, Any] = {}
    good = True
    for group in groups:
        if not group.on:
            continue
        model = group.model
        own = {p.field for p in model.parameters}
        values = {**DEFAULTS, **given, **group.values}
        try:
            if model.needs_sensitive and given.get("sensitive") is None:
                raise ParameterError(
                    f"{model.title} judges a sensitive attribute: choose it above."
                )
            if values.get(model.main.field) is None:
                raise ParameterError(
                    f"Give {model.title}'s '{model.main.key}' ({model.main.words}), or switch "
                    "it off."
                )
            model.check(values)
        except ParameterError as error:
            group.box.error(error_text(error), icon=":material/error:")
            good = False
            continue
        settings.update({name: value for name, value in values.items() if name in own})
    return settings, good
