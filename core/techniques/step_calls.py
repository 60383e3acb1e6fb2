"""From a recipe step's parameters to a technique call: the steps' builders.

A recipe step is plain data (``{"step": "generalise", "column": "age", "width": 10}``);
each builder here checks the parameters its step needs beyond the names (one of several
forms, a well-formed condition, a key named by its environment variable) and returns the
:class:`Call` of a technique function with its arguments. Objects that cannot be written in
YAML are :class:`Ref` values: a hierarchy read from a file, or a key read from an
environment variable. A step whose parameters go straight to its function uses
:func:`plain_call` in its registry line (:mod:`core.techniques.registry`); the others have a
builder here, kept apart so the registry reads as one table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import ParameterError, RecipeError, SecretError
from core.hierarchy_rules import HierarchyRule
from core.measures.models.registry import CLASS_MODELS
from core.techniques.pseudonymisation import require_key_env_name
from core.techniques.suppression import POPULATION_MODELS
from core.validation import require_int


@dataclass(frozen=True)
class Ref:
    """A value computed when the step runs: ``function(argument)``."""

    function: str  # "read_hierarchy" or "key_from_env"
    argument: str


@dataclass(frozen=True)
class Call:
    """A resolved step: ``function(data, *args, **kwargs)`` from :mod:`core.techniques`."""

    function: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    random: bool = False  # takes a seed, recorded in the recipe's log
    produces_mapping: bool = False  # returns a Pseudonymised (data + identity mapping)
    # Takes a seed that must stay secret (random pseudonyms): never recorded; without one
    # the operating system's entropy is used.
    secret_seed: bool = False


def _as_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return list(value)
    # e.g. 'quasi_identifiers:' left empty (None), which list() would fail on
    raise RecipeError(f"Expected a column name or a list of column names, got {value!r}.")


def _pick(params: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    return {n: params[n] for n in names if n in params}


#: Positional parameters that name one column or several: given as one name, made a list.
_LIST_POSITIONAL = frozenset({"columns", "quasi_identifiers", "by"})


def plain_call(
    function: Callable[..., Any],
    positional: tuple[str, ...] = (),
    keywords: tuple[str, ...] = (),
    *,
    random: bool = False,
) -> Callable[[dict[str, Any]], Call]:
    """The builder of a step whose parameters go straight to ``function``: the
    ``positional`` ones in order as its arguments (``columns``, ``by`` and
    ``quasi_identifiers`` as lists), those of ``keywords`` the step gives as keyword
    arguments; ``random``: it takes the step's seed. Steps with forms or checks of their
    own have a builder below."""

    def build(p: dict[str, Any]) -> Call:
        args = tuple(_as_list(p[n]) if n in _LIST_POSITIONAL else p[n] for n in positional)
        return Call(function.__name__, args, _pick(p, keywords), random=random)

    return build


_CONDITIONS = ("equals", "in", "less_than", "greater_than")


def _class_model_parameters(p: dict[str, Any], step: str) -> dict[str, Any]:
    """The privacy models a step names; t-closeness with hierarchical distance names the
    sensitive column's hierarchy file, read when the step runs (as generalise's)."""
    models = _pick(p, tuple(CLASS_MODELS))
    t_spec = models.get("t_closeness")
    if isinstance(t_spec, Mapping) and "hierarchy" in t_spec:
        if not isinstance(t_spec["hierarchy"], str):
            raise RecipeError(
                f"Step '{step}': t_closeness 'hierarchy' must be the path of the sensitive "
                "column's hierarchy file."
            )
        models["t_closeness"] = {**t_spec, "hierarchy": Ref("read_hierarchy", t_spec["hierarchy"])}
    return models


def _kmap_population_table(spec: Any) -> Any:
    """k-map against a population table names the table's file and the hierarchies and
    levels the data was generalised with (the population is generalised alike when the
    step runs); the files are read when the step runs, as generalise's hierarchy."""
    if not isinstance(spec, Mapping) or "population_table" not in spec:
        return spec
    path, hierarchies = spec["population_table"], spec.get("hierarchies", {})
    levels = spec.get("levels", {})
    if not isinstance(path, str):
        raise RecipeError(
            "Step 'suppress_records': k_map 'population_table' must be the path of the "
            "population's table file."
        )
    if (
        not isinstance(hierarchies, Mapping)
        or not isinstance(levels, Mapping)
        or set(hierarchies) != set(levels)
        or not all(isinstance(c, str) and isinstance(h, str) for c, h in hierarchies.items())
        or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in levels.values()
        )
    ):
        raise RecipeError(
            "Step 'suppress_records': k_map with a population table takes 'hierarchies' "
            "(column -> hierarchy file) and 'levels' (column -> level, a whole number >= 0) "
            "for the same generalised columns, e.g. {age: age.csv} and {age: 2}."
        )
    return {
        **spec,
        "population_table": Ref("read_population_table", path),
        "hierarchies": {c: Ref("read_hierarchy", h) for c, h in hierarchies.items()},
    }


def suppress_records_call(p: dict[str, Any]) -> Call:
    """The ``suppress_records`` step as a call of :func:`core.techniques.suppress_records`, :func:`core.techniques.suppress_below_k`, :func:`core.techniques.suppress_failing_classes`."""
    if ("where" in p) == ("below_k" in p):
        raise RecipeError(
            "Step 'suppress_records' needs exactly one of 'where' (a condition) or 'below_k' "
            "(with 'quasi_identifiers')."
        )
    if "below_k" in p:
        if "quasi_identifiers" not in p:
            raise RecipeError("Step 'suppress_records' with 'below_k' needs 'quasi_identifiers'.")
        models = {**_class_model_parameters(p, "suppress_records"), **_pick(p, POPULATION_MODELS)}
        if "k_map" in models:
            models["k_map"] = _kmap_population_table(models["k_map"])
        if models:  # ARX semantics: classes failing any model are removed
            return Call(
                "suppress_failing_classes",
                (_as_list(p["quasi_identifiers"]),),
                {"k": p["below_k"], **models},
            )
        return Call("suppress_below_k", (_as_list(p["quasi_identifiers"]),), {"k": p["below_k"]})
    if any(name in p for name in (*CLASS_MODELS, *POPULATION_MODELS)):
        raise RecipeError(
            "Step 'suppress_records': privacy models (l_diversity, t_closeness, ...) go with "
            "'below_k' and 'quasi_identifiers', not with 'where'."
        )
    where = p["where"]
    if not isinstance(where, Mapping) or "column" not in where:
        raise RecipeError(
            "Step 'suppress_records': 'where' must be a mapping with 'column' and one of "
            f"{', '.join(_CONDITIONS)}."
        )
    unknown = set(where) - {"column", *_CONDITIONS}
    conditions = [c for c in _CONDITIONS if c in where]
    if unknown or len(conditions) != 1:
        raise RecipeError(
            "Step 'suppress_records': 'where' takes 'column' and exactly one of "
            f"{', '.join(_CONDITIONS)}; got {sorted(where)}."
        )
    condition = conditions[0]
    keyword = "isin" if condition == "in" else condition
    return Call("suppress_records", (), {"column": where["column"], keyword: where[condition]})


def pseudonymise_call(p: dict[str, Any]) -> Call:
    """The ``pseudonymise`` step as a call of :func:`core.techniques.pseudonymise_random`, :func:`core.techniques.pseudonymise_hmac`, :func:`core.techniques.double_code`."""
    method = p.get("method", "random")
    if method == "random":
        return Call(
            "pseudonymise_random",
            (p["column"],),
            _pick(p, ("digits",)),
            produces_mapping=True,
            secret_seed=True,
        )
    if method == "hmac":
        kwargs = {"key": _key_ref(p, "'pseudonymise' with method 'hmac'"), **_pick(p, ("length",))}
        return Call("pseudonymise_hmac", (p["column"],), kwargs, produces_mapping=True)
    if method == "double":
        return Call("double_code", (p["column"],), {}, produces_mapping=True, secret_seed=True)
    raise RecipeError(
        f"Step 'pseudonymise': 'method' must be random, hmac or double, got {method!r}."
    )


def _key_ref(p: dict[str, Any], what: str) -> Ref:
    """The key of a keyed step: a checked ``key_env`` name, read when the step runs."""
    if "key_env" not in p:
        raise RecipeError(
            f"Step {what} needs 'key_env': the name of the environment variable that holds "
            "the key (the key itself never goes in a recipe)."
        )
    try:
        return Ref("key_from_env", require_key_env_name(p["key_env"]))
    except SecretError as error:
        raise RecipeError(str(error)) from None


def redact_text_call(p: dict[str, Any]) -> Call:
    """The ``redact_text`` step as a call of :func:`core.techniques.redact_text`."""
    mode = p.get("mode", "label")
    kwargs: dict[str, Any] = {"mode": mode, **_pick(p, ("length", "residue"))}
    if "kinds" in p:
        kwargs["kinds"] = _as_list(p["kinds"])
    if mode == "pseudonym":
        kwargs["key"] = _key_ref(p, "'redact_text' with mode 'pseudonym'")
    elif "key_env" in p:
        raise RecipeError("Step 'redact_text': 'key_env' is only used with mode 'pseudonym'.")
    return Call("redact_text", (_as_list(p["columns"]),), kwargs)


#: Parameters of a ``generalise`` step with a ``hierarchy`` that only say it in words
#: (core.step_words): the file the hierarchy came from as a person named it, its height and
#: a value of the level. The replay never reads them; the ``hierarchy`` key names the text.
HIERARCHY_WORDS = ("hierarchy_source", "hierarchy_height", "level_example")

#: The parameters that choose a form of the generalise step (one is needed).
GENERALISE_FORMS = (
    "width",
    "edges",
    "top",
    "bottom",
    "mapping",
    "hierarchy",
    "hierarchy_rule",
    "date_unit",
)


def generalise_call(p: dict[str, Any]) -> Call:
    """The ``generalise`` step as a call of :func:`core.techniques.generalise_bands`, :func:`core.techniques.generalise_edges`, :func:`core.techniques.generalise_mapping`, :func:`core.techniques.generalise_hierarchy`, :func:`core.techniques.generalise_by_rule`, :func:`core.techniques.generalise_date`, :func:`core.techniques.top_bottom_code`."""
    column = (p["column"],)
    if "width" in p:
        return Call("generalise_bands", column, _pick(p, ("width", "start", "bottom", "top")))
    if "edges" in p:
        return Call("generalise_edges", column, _pick(p, ("edges", "labels", "right")))
    if "mapping" in p:
        return Call("generalise_mapping", column, _pick(p, ("mapping", "other")))
    if "hierarchy" in p:
        if "level" not in p:
            raise RecipeError("Step 'generalise' with 'hierarchy' needs 'level' (1, 2, ...).")
        return Call(
            "generalise_hierarchy",
            column,
            {"hierarchy": Ref("read_hierarchy", p["hierarchy"]), "level": p["level"]},
        )
    if "hierarchy_rule" in p:  # a hierarchy as the rule that builds it (core.hierarchy_rules)
        if "level" not in p:
            raise RecipeError("Step 'generalise' with 'hierarchy_rule' needs 'level' (1, 2, ...).")
        rule = _hierarchy_rule("generalise", p["hierarchy_rule"])
        return Call("generalise_by_rule", column, {"rule": rule, "level": _level(p["level"])})
    if "date_unit" in p:
        kwargs = {"unit": p["date_unit"], **_pick(p, ("dayfirst",))}
        return Call("generalise_date", column, kwargs)
    if "top" in p or "bottom" in p:
        return Call("top_bottom_code", column, _pick(p, ("top", "bottom")))
    raise RecipeError(
        "Step 'generalise' needs one of: width (bands), edges, top/bottom (coding), "
        "mapping, hierarchy + level, hierarchy_rule + level, date_unit."
    )


def aggregate_call(p: dict[str, Any]) -> Call:
    """The ``aggregate`` step as a call of :func:`core.techniques.aggregate`."""
    kwargs = {"values": _as_list(p["values"]), **_pick(p, ("stats", "min_cell", "bands"))}
    return Call("aggregate", (_as_list(p["by"]),), kwargs)


#: The optional parameters of the dp_aggregate step.
DP_OPTIONS = ("count", "sums", "means", "bounds", "mechanism", "delta")


def dp_aggregate_call(p: dict[str, Any]) -> Call:
    """The ``dp_aggregate`` step as a call of :func:`core.techniques.dp_aggregate`."""
    # Not random=True: OpenDP's noise cannot be seeded, so no seed is recorded; each
    # replay draws new noise and is a new release (core.dp).
    kwargs = {"categories": p["categories"], "epsilon": p["epsilon"], **_pick(p, DP_OPTIONS)}
    return Call("dp_aggregate", (_as_list(p["by"]),), kwargs)


def _level(level: Any) -> int:
    """A hierarchy level given with a rule, checked when the recipe is read (-3 failed the
    step's description with IndexError)."""
    try:
        return require_int("level", level, minimum=0)
    except ParameterError as error:
        raise RecipeError(f"Step 'generalise': {error}") from None


def _hierarchy_rule(step: str, rule: Mapping[str, Any]) -> dict[str, Any]:
    """A hierarchy given as its rule (core.hierarchy_rules), checked when the recipe is read."""
    try:
        return HierarchyRule.from_mapping(rule).to_dict()
    except ParameterError as error:
        raise RecipeError(f"Step '{step}': {error}") from None


def recode_locally_call(p: dict[str, Any]) -> Call:
    """The ``recode_locally`` step as a call of :func:`core.techniques.recode_locally`."""
    hierarchies = p["hierarchies"]
    if (
        not isinstance(hierarchies, Mapping)
        or not hierarchies
        or not all(
            isinstance(column, str) and isinstance(path, str | Mapping)
            for column, path in hierarchies.items()
        )
    ):
        raise RecipeError(
            "Step 'recode_locally': 'hierarchies' must map each quasi-identifier to its "
            "hierarchy file (or hierarchy rule), e.g. {age: age.csv, sex: sex.csv}."
        )
    rounds = p["rounds"]
    if (
        not isinstance(rounds, list)
        or not rounds
        or not all(
            isinstance(levels, list)
            and len(levels) == len(hierarchies)
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in levels)
            for levels in rounds
        )
    ):
        raise RecipeError(
            "Step 'recode_locally': 'rounds' must be a list of level lists (whole numbers "
            f">= 0), one level for each of the {len(hierarchies)} hierarchies, global first."
        )
    kwargs: dict[str, Any] = {
        "hierarchies": {
            c: Ref("read_hierarchy", given)
            if isinstance(given, str)
            else _hierarchy_rule("recode_locally", given)
            for c, given in hierarchies.items()
        },
        "rounds": rounds,
        **_pick(p, ("k",)),
        **_class_model_parameters(p, "recode_locally"),
    }
    return Call("recode_locally", (), kwargs)


# --- survey microdata methods (sdcMicro) ---


def local_suppression_call(p: dict[str, Any]) -> Call:
    """The ``local_suppression`` step as a call of :func:`core.techniques.local_suppression`."""
    kwargs = {"k": p["k"]}
    if "importance" in p:
        kwargs["importance"] = _as_list(p["importance"])
    return Call("local_suppression", (_as_list(p["quasi_identifiers"]),), kwargs)


# --- coordinates, dates and HIPAA Safe Harbor (core.geo, core.dates, core.safe_harbor) ---


def safe_harbor_call(p: dict[str, Any]) -> Call:
    """The ``safe_harbor`` step as a call of :func:`core.techniques.safe_harbor`."""
    kwargs = _pick(p, ("reference_date", "postal", "free_text"))
    if "exclude" in p:
        kwargs["exclude"] = _as_list(p["exclude"])
    return Call("safe_harbor", (), kwargs)


# --- contextual (area-level) measures (core.contextual, Witkowski 2007) ---


def contextual_suppress_call(p: dict[str, Any]) -> Call:
    """The ``contextual_suppress`` step as a call of :func:`core.techniques.suppress_contextual`."""
    kwargs = {"area_column": p["area_column"], "areas": list(p["areas"])}
    return Call("suppress_contextual", (_as_list(p["columns"]),), kwargs)
