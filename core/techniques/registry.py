"""The step vocabulary of recipes: one entry per step name, mapped onto a technique call.

A recipe step is plain data (``{"step": "generalise", "column": "age", "width": 10}``).
:func:`resolve` checks it and turns it into a :class:`Call`: the name of a function in
:mod:`core.techniques` with its arguments. Applying a recipe and exporting it as a
Python script both go through :func:`resolve`, so the two can never disagree.

Objects that cannot be written in YAML are :class:`Ref` values: a hierarchy read from
a file, or a key read from an environment variable. Keys, salts and passphrases
themselves are refused: a recipe names the environment variable instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.errors import RecipeError, SecretError
from core.techniques.pseudonymisation import require_key_env_name
from core.techniques.suppression import CLASS_MODELS, POPULATION_MODELS

#: Parameter names that would carry a secret; recipes must use ``key_env`` instead.
SECRET_PARAMETERS = frozenset({"key", "salt", "passphrase", "password", "secret"})


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


@dataclass(frozen=True)
class StepSpec:
    """What a step is called, what it does, and how its parameters map to a call."""

    name: str
    summary: str
    guide: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    build: Callable[[dict[str, Any]], Call] = field(repr=False)

    @property
    def allowed(self) -> frozenset[str]:
        return frozenset(self.required) | frozenset(self.optional)


def _as_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return list(value)
    # e.g. 'quasi_identifiers:' left empty (None), which list() would fail on
    raise RecipeError(f"Expected a column name or a list of column names, got {value!r}.")


def _pick(params: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    return {n: params[n] for n in names if n in params}


def _remove(p: dict[str, Any]) -> Call:
    return Call("remove_columns", (_as_list(p["columns"]),), {})


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


def _suppress(p: dict[str, Any]) -> Call:
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


def _mask(p: dict[str, Any]) -> Call:
    return Call(
        "mask", (p["column"],), _pick(p, ("keep_first", "keep_last", "char", "keep", "preset"))
    )


def _pseudonymise(p: dict[str, Any]) -> Call:
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


def _redact_text(p: dict[str, Any]) -> Call:
    mode = p.get("mode", "label")
    kwargs: dict[str, Any] = {"mode": mode, **_pick(p, ("length", "residue"))}
    if "kinds" in p:
        kwargs["kinds"] = _as_list(p["kinds"])
    if mode == "pseudonym":
        kwargs["key"] = _key_ref(p, "'redact_text' with mode 'pseudonym'")
    elif "key_env" in p:
        raise RecipeError("Step 'redact_text': 'key_env' is only used with mode 'pseudonym'.")
    return Call("redact_text", (_as_list(p["columns"]),), kwargs)


_GENERALISE_FORMS = (
    "width",
    "edges",
    "top",
    "bottom",
    "mapping",
    "hierarchy",
    "hierarchy_rule",
    "date_unit",
)


def _generalise(p: dict[str, Any]) -> Call:
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


def _swap(p: dict[str, Any]) -> Call:
    return Call("swap", (_as_list(p["columns"]),), _pick(p, ("together",)), random=True)


def _round(p: dict[str, Any]) -> Call:
    return Call("round_to_base", (p["column"],), _pick(p, ("base", "mode")))


def _noise(p: dict[str, Any]) -> Call:
    return Call("add_noise", (p["column"],), _pick(p, ("distribution", "scale")), random=True)


def _correlated_noise(p: dict[str, Any]) -> Call:
    kwargs = _pick(p, ("method", "delta", "noise"))
    return Call("add_correlated_noise", (_as_list(p["columns"]),), kwargs, random=True)


def _aggregate(p: dict[str, Any]) -> Call:
    kwargs = {"values": _as_list(p["values"]), **_pick(p, ("stats", "min_cell", "bands"))}
    return Call("aggregate", (_as_list(p["by"]),), kwargs)


_DP_OPTIONS = ("count", "sums", "means", "bounds", "mechanism", "delta")


def _dp_aggregate(p: dict[str, Any]) -> Call:
    # Not random=True: OpenDP's noise cannot be seeded, so no seed is recorded; each
    # replay draws new noise and is a new release (core.dp).
    kwargs = {"categories": p["categories"], "epsilon": p["epsilon"], **_pick(p, _DP_OPTIONS)}
    return Call("dp_aggregate", (_as_list(p["by"]),), kwargs)


def _level(level: Any) -> int:
    """A hierarchy level given with a rule, checked when the recipe is read (-3 failed the
    step's description with IndexError)."""
    from core.errors import ParameterError
    from core.validation import require_int

    try:
        return require_int("level", level, minimum=0)
    except ParameterError as error:
        raise RecipeError(f"Step 'generalise': {error}") from None


def _hierarchy_rule(step: str, rule: Mapping[str, Any]) -> dict[str, Any]:
    """A hierarchy given as its rule (core.hierarchy_rules), checked when the recipe is read."""
    from core.errors import ParameterError
    from core.hierarchy_rules import HierarchyRule

    try:
        return HierarchyRule.from_mapping(rule).to_dict()
    except ParameterError as error:
        raise RecipeError(f"Step '{step}': {error}") from None


def _recode_locally(p: dict[str, Any]) -> Call:
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


def _local_suppression(p: dict[str, Any]) -> Call:
    kwargs = {"k": p["k"]}
    if "importance" in p:
        kwargs["importance"] = _as_list(p["importance"])
    return Call("local_suppression", (_as_list(p["quasi_identifiers"]),), kwargs)


def _microaggregate(p: dict[str, Any]) -> Call:
    return Call("microaggregate", (_as_list(p["columns"]),), _pick(p, ("k", "method")))


def _pram(p: dict[str, Any]) -> Call:
    kwargs = _pick(p, ("matrix", "pd_min", "alpha"))
    return Call("pram", (_as_list(p["columns"]),), kwargs, random=True)


# --- coordinates, dates and HIPAA Safe Harbor (core.geo, core.dates, core.safe_harbor) ---


def _geo_round(p: dict[str, Any]) -> Call:
    return Call("round_coordinates", (p["lat"], p["lon"]), _pick(p, ("decimals",)))


def _geo_snap(p: dict[str, Any]) -> Call:
    return Call("snap_to_grid", (p["lat"], p["lon"]), _pick(p, ("cell_m",)))


def _geo_displace(p: dict[str, Any]) -> Call:
    kwargs = _pick(p, ("max_m", "min_m", "by", "radii"))
    return Call("displace_points", (p["lat"], p["lon"]), kwargs, random=True)


def _date_shift(p: dict[str, Any]) -> Call:
    kwargs = _pick(p, ("by", "max_days", "min_days", "keep_weekday"))
    return Call("shift_dates", (_as_list(p["columns"]),), kwargs, random=True)


def _date_intervals(p: dict[str, Any]) -> Call:
    kwargs = _pick(p, ("by", "max_days"))
    return Call("perturb_intervals", (_as_list(p["columns"]),), kwargs, random=True)


def _age_from_dob(p: dict[str, Any]) -> Call:
    kwargs = _pick(p, ("reference_date", "new_column", "top", "keep_dob"))
    return Call("age_from_dob", (p["column"],), kwargs)


def _age_perturb(p: dict[str, Any]) -> Call:
    kwargs = _pick(p, ("max_years", "above", "milestones", "margin"))
    return Call("perturb_ages", (p["column"],), kwargs, random=True)


def _safe_harbor(p: dict[str, Any]) -> Call:
    kwargs = _pick(p, ("reference_date", "postal", "free_text"))
    if "exclude" in p:
        kwargs["exclude"] = _as_list(p["exclude"])
    return Call("safe_harbor", (), kwargs)


# --- contextual (area-level) measures (core.contextual, Witkowski 2007) ---


def _contextual_absolute(p: dict[str, Any]) -> Call:
    kwargs = {"width": p["width"], **_pick(p, ("scale", "bounds"))}
    return Call("recode_absolute", (_as_list(p["columns"]),), kwargs)


def _contextual_percentile(p: dict[str, Any]) -> Call:
    return Call("recode_percentile", (_as_list(p["columns"]),), _pick(p, ("groups", "edges")))


def _contextual_suppress(p: dict[str, Any]) -> Call:
    kwargs = {"area_column": p["area_column"], "areas": list(p["areas"])}
    return Call("suppress_contextual", (_as_list(p["columns"]),), kwargs)


STEPS: dict[str, StepSpec] = {
    spec.name: spec
    for spec in (
        StepSpec(
            "remove",
            "Remove columns (attribute suppression; direct identifiers in Step 2).",
            "Step 2; Annex A: Attribute suppression",
            ("columns",),
            (),
            _remove,
        ),
        StepSpec(
            "suppress_records",
            "Remove records matching a condition, or in equivalence classes smaller than k or "
            "failing l-diversity, t-closeness, delta, beta or (alpha,k) (ARX semantics).",
            "Annex A: Record suppression; Annex C",
            (),
            ("where", "below_k", "quasi_identifiers", *CLASS_MODELS, *POPULATION_MODELS),
            _suppress,
        ),
        StepSpec(
            "recode_locally",
            "Generalise with hierarchies in rounds: every record at the first levels, then "
            "the records whose classes fail the privacy models at each next round's levels; "
            "records failing every round are removed (local recoding).",
            "Annex A: Generalisation, Record suppression; Annex C",
            ("hierarchies", "rounds"),
            ("k", *CLASS_MODELS),
            _recode_locally,
        ),
        StepSpec(
            "mask",
            "Replace some characters with a symbol (keep first/last n, or an Annex B preset).",
            "Annex A: Character masking; Annex B",
            ("column",),
            ("keep_first", "keep_last", "char", "keep", "preset"),
            _mask,
        ),
        StepSpec(
            "pseudonymise",
            "Replace values with pseudonyms: random tokens (with an identity mapping table), "
            "keyed HMAC-SHA256 tokens, or double coding.",
            "Step 2; Annex A: Pseudonymisation",
            ("column",),
            ("method", "key_env", "digits", "length"),
            _pseudonymise,
        ),
        StepSpec(
            "redact_text",
            "Replace names, emails, phone numbers, IDs, addresses, dates... found inside "
            "free-text columns by a label ([NAME]) or a keyed pseudonym per entity; cells "
            "without one are unchanged; residue: true also replaces digit runs, block/unit "
            "numbers and name-like words in any case.",
            "Step 2 (De-identify); Annex A: Pseudonymisation",
            ("columns",),
            ("kinds", "mode", "key_env", "length", "residue"),
            _redact_text,
        ),
        StepSpec(
            "generalise",
            "Reduce precision: bands, custom edges, top/bottom coding, category mapping, "
            "hierarchy level, or dates to week/month/quarter/year.",
            "Annex A: Generalisation",
            ("column",),
            (*_GENERALISE_FORMS, "start", "labels", "right", "other", "level", "dayfirst"),
            _generalise,
        ),
        StepSpec(
            "swap",
            "Shuffle values between records (seeded).",
            "Annex A: Swapping",
            ("columns",),
            ("seed", "together"),
            _swap,
        ),
        StepSpec(
            "round",
            "Base-x rounding to a multiple of x (nearest, down or up).",
            "Annex A: Data perturbation",
            ("column", "base"),
            ("mode",),
            _round,
        ),
        StepSpec(
            "noise",
            "Add random noise (uniform, normal or Laplace) of a given scale (seeded).",
            "Annex A: Data perturbation",
            ("column", "scale"),
            ("distribution", "seed"),
            _noise,
        ),
        StepSpec(
            "correlated_noise",
            "Add noise that keeps each column's mean and variance (correlated2, delta) or "
            "the columns' correlations (correlated, noise %), as sdcMicro's addNoise (seeded).",
            "Annex A: Data perturbation; sdcMicro addNoise",
            ("columns",),
            ("method", "delta", "noise", "seed"),
            _correlated_noise,
        ),
        StepSpec(
            "aggregate",
            "Replace records by group counts/sums/means, warning about small cells.",
            "Annex A: Data aggregation",
            ("by", "values"),
            ("stats", "min_cell", "bands"),
            _aggregate,
        ),
        StepSpec(
            "dp_aggregate",
            "Differentially private counts/sums/means per combination of listed categories "
            "(OpenDP noise, clipping bounds, ε split over the queries; not seedable).",
            "Annex A: Data aggregation; differential privacy (Laplace, b = Δf/ε)",
            ("by", "categories", "epsilon"),
            _DP_OPTIONS,
            _dp_aggregate,
        ),
        StepSpec(
            "local_suppression",
            "Blank as few quasi-identifier cells as possible (least important first) until "
            "every record shares its key with k - 1 others, a blank matching anything.",
            "Annex A: Suppression; Annex C; sdcMicro localSuppression",
            ("quasi_identifiers", "k"),
            ("importance",),
            _local_suppression,
        ),
        StepSpec(
            "microaggregate",
            "Replace numeric values by the mean of groups of at least k similar records "
            "(MDAV on the columns together, or individual ranking column by column).",
            "Annex A: Data aggregation; sdcMicro microaggregation",
            ("columns",),
            ("k", "method"),
            _microaggregate,
        ),
        StepSpec(
            "pram",
            "Post-randomise categories: each value may change to another following a "
            "transition matrix (given, or sdcMicro's invariant one keeping frequencies) "
            "(seeded).",
            "Annex A: Data perturbation; sdcMicro pram",
            ("columns",),
            ("matrix", "pd_min", "alpha", "seed"),
            _pram,
        ),
        StepSpec(
            "geo_round",
            "Round GPS coordinates to 2 (about 1.11 km) or 3 (about 111 m) decimal places.",
            "Annex B: GPS location (generalisation)",
            ("lat", "lon"),
            ("decimals",),
            _geo_round,
        ),
        StepSpec(
            "geo_snap",
            "Move each point to the centre of its cell in a grid of N metres.",
            "Annex A: Generalisation; Annex B: GPS location",
            ("lat", "lon", "cell_m"),
            (),
            _geo_snap,
        ),
        StepSpec(
            "geo_displace",
            "Move each point a random distance (disc up to max_m, or ring min_m..max_m), "
            "radii optionally by an urban/rural column (seeded).",
            "Annex B: GPS location (perturbation); NIST SP 800-188 4.3.5",
            ("lat", "lon"),
            ("max_m", "min_m", "by", "radii", "seed"),
            _geo_displace,
        ),
        StepSpec(
            "date_shift",
            "Shift all dates of one person by the same random number of days (intervals "
            "kept; optionally whole weeks to keep the weekday) (seeded).",
            "Annex B: dates (perturbation); NIST SP 800-188 4.3.4",
            ("columns",),
            ("by", "max_days", "min_days", "keep_weekday", "seed"),
            _date_shift,
        ),
        StepSpec(
            "date_perturb_intervals",
            "Change the gaps between one person's dates by up to max_days, keeping their "
            "order (seeded).",
            "NIST SP 800-188 4.3.4",
            ("columns",),
            ("by", "max_days", "seed"),
            _date_intervals,
        ),
        StepSpec(
            "age_from_dob",
            "Replace a date of birth by the age on a reference date, top-coded (90+).",
            "Annex B: date of birth (generalisation); HIPAA Safe Harbor",
            ("column",),
            ("reference_date", "new_column", "top", "keep_dob"),
            _age_from_dob,
        ),
        StepSpec(
            "age_perturb",
            "Add up to +/-2 years to ages over 25, leaving milestone ages (62, 65) and their "
            "neighbours untouched (seeded).",
            "NIST SP 800-188 4.3.4",
            ("column",),
            ("max_years", "above", "milestones", "margin", "seed"),
            _age_perturb,
        ),
        StepSpec(
            "safe_harbor",
            "HIPAA Safe Harbor preset: remove the 18 identifier kinds it recognises, ZIP to 3 "
            "digits (000 for small areas), dates to year, ages 90+ as one category.",
            "HIPAA Safe Harbor, 45 CFR 164.514(b)(2)",
            (),
            ("reference_date", "postal", "free_text", "exclude"),
            _safe_harbor,
        ),
        StepSpec(
            "contextual_absolute",
            "Recode area-level measures into absolute categories (1%, 5%, 10%, 15%, 20% or "
            "Top/Bottom-25%).",
            "Witkowski 2007, Section 4.b (global recoding)",
            ("columns", "width"),
            ("scale", "bounds"),
            _contextual_absolute,
        ),
        StepSpec(
            "contextual_percentile",
            "Recode area-level measures into percentile groups (e.g. deciles) with cut points "
            "taken over all areas.",
            "Witkowski 2007, endnote 2 (percentile recoding)",
            ("columns", "groups"),
            ("edges",),
            _contextual_percentile,
        ),
        StepSpec(
            "contextual_suppress",
            "Empty the area-level measures of respondents in at-risk areas (local suppression).",
            "Witkowski 2007, Section 2 (local suppression)",
            ("columns", "area_column", "areas"),
            (),
            _contextual_suppress,
        ),
    )
}


def resolve(step: Mapping[str, Any], *, position: int | None = None) -> Call:
    """Check one step's parameters and turn it into a :class:`Call`."""
    where = f"Step {position}" if position is not None else "A step"
    if not isinstance(step, Mapping) or "step" not in step:
        raise RecipeError(
            f"{where} must be a mapping with a 'step' key naming the technique, e.g. "
            "{step: generalise, column: age, width: 10}."
        )
    name = step["step"]
    spec = STEPS.get(name)
    if spec is None:
        raise RecipeError(
            f"{where} names an unknown technique {name!r}. Known steps: {', '.join(STEPS)}."
        )
    params = {k: v for k, v in step.items() if k != "step"}
    secrets = SECRET_PARAMETERS & set(params)
    if secrets:
        raise RecipeError(
            f"{where} ({name}) contains {', '.join(sorted(secrets))}: a recipe must never hold a "
            "key, salt or passphrase. Put it in an environment variable and name it with "
            "'key_env'."
        )
    unknown = set(params) - spec.allowed
    if unknown:
        raise RecipeError(
            f"{where} ({name}) has unknown parameter(s) {', '.join(sorted(unknown))}. "
            f"Allowed: {', '.join(sorted(spec.allowed))}."
        )
    missing = [p for p in spec.required if p not in params]
    if missing:
        raise RecipeError(f"{where} ({name}) is missing parameter(s) {', '.join(missing)}.")
    try:
        return spec.build(params)
    except RecipeError as error:
        raise RecipeError(f"{where}: {error}") from None
