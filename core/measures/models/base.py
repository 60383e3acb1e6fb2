"""What every privacy model is: ARX's ``criteria.PrivacyCriterion`` in Python.

A privacy model is a yes/no property of each equivalence class of a released table (PDPC
guide, Step 4 and Annex C). One model is one subclass of :class:`PrivacyModel` in its own
module of this package, and one line of :mod:`core.measures.models.registry`: it names its
parameters (their names in a recipe and on the command line, the ``ClassModels`` fields
they set), checks them (one :class:`core.errors.ParameterError` naming the parameter), says
whether it needs a sensitive attribute and whether it keeps the lattice search's pruning
exact (ARX's monotonicity flags), which classes fail it (ARX ``isAnonymous``), the table's
figure for it (what ``risk --json`` reports) and, in plain words, what it protects against.

A model reads ``settings``: the mapping of ``ClassModels`` field names to values (what
:meth:`core.measures.models.class_models.ClassModels.model_fields` gives), so this module needs
nothing from ``ClassModels`` and the dataclass can be a facade over the registry.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from core.errors import ParameterError
from core.measures.distributions import ClassDistribution

#: ``ClassModels`` field name -> value: what a model reads of the models asked.
Settings = Mapping[str, Any]


@dataclass(frozen=True)
class Parameter:
    """One parameter of a privacy model.

    ``key`` is its name in a recipe's ``suppress_records`` step and ``targets:`` section
    (``kind``), ``field`` the ``ClassModels`` field it sets (``l_kind``); ``flag`` and
    ``cli`` (argparse keyword arguments: type, choices, default, help, metavar) its option
    of ``search`` on the command line, when it has one (without a flag, ``cli`` still tells
    a form the value's type and choices: the Explore trade-offs page builds its inputs from
    it, ui/model_inputs.py); ``words`` what it means;
    ``example`` a typical value, where a form asking for the model starts (None: the form
    does not ask it, or asks it its own way); ``when`` (another parameter's field, a value):
    the parameter counts only when that one has that value (the c of recursive l), so a
    form asks it only then."""

    key: str
    field: str
    words: str
    flag: str | None = None
    cli: Mapping[str, Any] = field(default_factory=dict)
    example: float | None = None
    when: tuple[str, str] | None = None


@dataclass(frozen=True)
class ClassTable:
    """The equivalence classes of one table as the models judge them: ``sizes[c]`` records
    in class ``c`` (0: no class), the sensitive attribute's spread over them (``dist``, for
    the models that need it) and, for k-map with a population table, the population records
    each class stands for (``population_counts``)."""

    sizes: np.ndarray
    dist: ClassDistribution | None = None
    population_counts: np.ndarray | None = None

    @property
    def present(self) -> np.ndarray:
        """Boolean per class: the class holds records."""
        return np.asarray(self.sizes) > 0

    def needs_dist(self) -> ClassDistribution:
        """The sensitive distribution, or one :class:`ParameterError` when it was not given."""
        if self.dist is None:
            raise ParameterError("These privacy models need the sensitive attribute's values.")
        return self.dist

    @functools.cached_property
    def _held(self) -> np.ndarray | None:
        """:attr:`present`, or None when every class holds records (the risk report's
        classes do): the figures then read ``per_class`` whole, with no copy of it."""
        present = self.present
        return None if present.all() else present

    def _holding(self, per_class: np.ndarray) -> np.ndarray:
        held = self._held
        return np.asarray(per_class) if held is None else np.asarray(per_class)[held]

    def largest(self, per_class: np.ndarray) -> float:
        """The largest of ``per_class`` over the classes that hold records (0 if none)."""
        values = self._holding(per_class)
        return float(values.max()) if values.size else 0.0

    def smallest(self, per_class: np.ndarray) -> float:
        """The smallest of ``per_class`` over the classes that hold records (0 if none)."""
        values = self._holding(per_class)
        return float(values.min()) if values.size else 0.0


class PrivacyModel:
    """One privacy model (ARX ``PrivacyCriterion``). Subclasses set the class attributes and
    override :meth:`check`, :meth:`failing`, :meth:`figure` and :meth:`describe`; the
    monotonicity flags default to ARX's ``PrivacyCriterion(false, false)``."""

    #: Its name in recipes, ``targets:``, ``risk --json`` (``l_diversity``).
    name: ClassVar[str]
    #: Plain ASCII name for messages (``delta-disclosure``).
    label: ClassVar[str]
    #: Name as a person reads it in the steps' words (``δ-disclosure privacy``).
    title: ClassVar[str]
    #: The parameters, in the order the command line lists their flags.
    parameters: ClassVar[tuple[Parameter, ...]]
    #: The field of the level asked (``l``), the one that switches the model on (default:
    #: the first parameter's).
    main_field: ClassVar[str | None] = None
    #: Whether it judges a sensitive (target) attribute (ARX: requires the distribution).
    needs_sensitive: ClassVar[bool] = True
    #: When a class passes, in plain words, with the guide or paper section it comes from.
    words: ClassVar[str]
    #: What :meth:`figure` is, in plain words.
    figure_words: ClassVar[str]

    @property
    def main(self) -> Parameter:
        """The parameter that asks for the model."""
        if self.main_field is None:
            return self.parameters[0]
        return next(p for p in self.parameters if p.field == self.main_field)

    @property
    def fields(self) -> tuple[str, ...]:
        """The ``ClassModels`` fields this model reads (``sensitive`` included when needed)."""
        own = tuple(p.field for p in self.parameters)
        return ("sensitive", *own) if self.needs_sensitive else own

    def is_asked(self, settings: Settings) -> bool:
        """Whether ``settings`` ask for this model (its level is set)."""
        return settings.get(self.main.field) is not None

    def check(self, settings: Settings) -> None:
        """Raise one :class:`ParameterError` naming the first parameter at fault (ARX checks
        in the criterion's constructor). Runs whether or not the model is asked, so a
        misspelt choice is caught even when unused."""

    def monotone_with_suppression(self, settings: Settings) -> bool:
        """A class containing a passing class passes too: generalising can only shrink the
        records suppressed (ARX ``isMonotonicWithSuppression``)."""
        return False

    def monotone_with_generalisation(self, settings: Settings) -> bool:
        """Merging passing classes gives a passing class (ARX ``isMonotonicWithGeneralization``)."""
        return False

    def monotone_part(self, settings: Settings) -> dict[str, Any]:
        """Changes to ``settings`` leaving a necessary condition of this model that is
        monotone both ways, for the lattice search to prune on when the model itself is not
        (it is then checked on every node): by default the model is left out."""
        return {self.main.field: None}

    def failing(self, settings: Settings, table: ClassTable) -> np.ndarray:
        """Boolean per class: the class fails the model (ARX: ``!isAnonymous``, suppressed)."""
        raise NotImplementedError

    def figure(self, table: ClassTable) -> float | None:
        """The table's figure for this model (the level at which it holds or would hold,
        with default parameters; ``None`` when the table does not tell, e.g. k-map without
        a population)."""
        raise NotImplementedError

    def node_figures(self, settings: Settings, table: ClassTable) -> dict[str, float]:
        """The figures the lattice search reports for the classes a node keeps, by the
        names its results use (``sensitive_figures``: ``l_distinct``, ``t``, ...); by
        default the model's figure under its name. ``settings`` as the target asks."""
        figure = self.figure(table)
        return {} if figure is None else {self.name: float(figure)}

    def describe(self, settings: Settings) -> str:
        """The model as asked, in words: ``entropy l-diversity l = 3 on 'salary'``."""
        raise NotImplementedError

    # --- recipes: a ``suppress_records`` step's or a ``targets:`` section's mapping ------

    def spec_fields(
        self, spec: object, *, quasi_identifiers: Sequence[str] = (), where: str = "Parameter"
    ) -> dict[str, Any]:
        """The ``ClassModels`` fields of a recipe mapping such as ``{sensitive: salary, l:
        3, kind: entropy}``, checked for shape (the values are checked by :meth:`check` when
        the ``ClassModels`` is made). ``where`` begins the messages (``Target``)."""
        keys = {p.key: p.field for p in self.parameters}
        takes = ", ".join(map(repr, keys))
        if self.needs_sensitive:
            if not isinstance(spec, Mapping) or "sensitive" not in spec:
                raise ParameterError(
                    f"{where} '{self.name}' must be a mapping with 'sensitive' and {takes}."
                )
            allowed, takes = {"sensitive", *keys}, f"'sensitive', {takes}"
        elif not isinstance(spec, Mapping):
            raise ParameterError(f"{where} '{self.name}' must be a mapping with {takes}.")
        else:
            allowed = set(keys)
        unknown = sorted(set(map(str, spec)) - allowed)
        if unknown:
            raise ParameterError(
                f"{where} '{self.name}' does not take {', '.join(map(repr, unknown))}; it "
                f"takes {takes}."
            )
        if self.main.key not in spec:
            raise ParameterError(f"{where} '{self.name}' needs '{self.main.key}'.")
        values = {keys[key]: value for key, value in spec.items() if key != "sensitive"}
        if self.needs_sensitive:
            sensitive = spec["sensitive"]
            if isinstance(sensitive, bool) or not isinstance(sensitive, str | int):
                raise ParameterError(  # a list failed later as "unhashable type" (a traceback)
                    f"{where} '{self.name}': 'sensitive' must be one column name, got "
                    f"{sensitive!r}."
                )
            values["sensitive"] = sensitive
        return values

    def step_spec(self, settings: Settings, **paths: Any) -> dict[str, Any]:
        """The recipe mapping that asks for this model as ``settings`` do (the inverse of
        :meth:`spec_fields`): every parameter set, defaults included."""
        spec = {"sensitive": settings["sensitive"]} if self.needs_sensitive else {}
        for parameter in self.parameters:
            spec[parameter.key] = settings.get(parameter.field)
        return spec
