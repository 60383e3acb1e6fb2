"""A recipe step in plain words: "age → 10-wide bands", "removed: name, email".

One describer per step, named by the step in the registry (``StepSpec.words``,
:func:`core.techniques.registry.describe_step_plain`), for every place a step is shown to a
person (the dashboard's sidebar and Techniques page, the release report, progress
messages), so a step reads the same everywhere (issue 17, "Words"). The recipe itself
(YAML) keeps the exact parameters; these words are for reading, not for replaying. Keys,
salts and passphrases are never in a step (core.techniques.registry refuses them), so none
can appear here. A describer may raise KeyError, TypeError or ValueError on a malformed
step: the registry then writes "<step> step".

The text is plain (not Markdown): callers that render Markdown escape it with
:func:`core.markup.escape_markdown`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from core.errors import AnonymisationError
from core.formatting import fmt_number
from core.hierarchy_rules import HierarchyRule
from core.measures.models.registry import MAPPING_MODELS, MODELS

__all__ = [
    "age_from_dob_words",
    "age_perturb_words",
    "aggregate_words",
    "contextual_absolute_words",
    "contextual_percentile_words",
    "contextual_suppress_words",
    "correlated_noise_words",
    "date_perturb_intervals_words",
    "date_shift_words",
    "dp_aggregate_words",
    "generalise_words",
    "geo_displace_words",
    "geo_round_words",
    "geo_snap_words",
    "local_suppression_words",
    "mask_words",
    "microaggregate_words",
    "noise_words",
    "pram_words",
    "pseudonymise_words",
    "recode_locally_words",
    "redact_text_words",
    "remove_words",
    "round_words",
    "safe_harbor_words",
    "suppress_records_words",
    "swap_words",
]

_LIST_SHOWN = 4  # names listed before "and N more"


def _num(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return fmt_number(value, 6)


def _names(value: Any) -> str:
    """Column names or values as "a, b, c and 2 more"."""
    items = [value] if isinstance(value, str) else list(value or [])
    shown = ", ".join(map(str, items[:_LIST_SHOWN]))
    hidden = len(items) - _LIST_SHOWN
    return f"{shown} and {hidden} more" if hidden > 0 else shown


def remove_words(p: Mapping[str, Any]) -> str:
    """The ``remove`` step in plain words."""
    return f"removed: {_names(p.get('columns'))}"


_CONDITION_WORDS = {"equals": "=", "less_than": "<", "greater_than": ">"}


def _model(name: str, spec: Any) -> str:
    """A privacy model of a suppression step: "l-diversity 2 on disease" (the model's title
    and level from the registry, core.measures.models)."""
    model = MODELS[name]
    if not isinstance(spec, Mapping):
        return model.title
    value = f" {_num(spec[model.main.key])}" if model.main.key in spec else ""
    if name == "t_closeness" and spec.get("distance") == "hierarchical":
        value += " (hierarchical distance)"
    on = f" on {spec.get('sensitive', '?')}" if model.needs_sensitive else ""
    return f"{model.title}{value}{on}"


def suppress_records_words(p: Mapping[str, Any]) -> str:
    """The ``suppress_records`` step in plain words."""
    if "below_k" in p:
        text = (
            f"records removed in groups of fewer than {_num(p['below_k'])} on "
            f"{_names(p.get('quasi_identifiers'))}"
        )
        models = [_model(name, p[name]) for name in MAPPING_MODELS if name in p]
        return text + (f" or failing {', '.join(models)}" if models else "")
    where = p.get("where")
    if not isinstance(where, Mapping):
        return "records removed by a condition"
    column = where.get("column", "?")
    for condition, sign in _CONDITION_WORDS.items():
        if condition in where:
            return f"records removed where {column} {sign} {_num(where[condition])}"
    if "in" in where:
        return f"records removed where {column} is one of {_names(where['in'])}"
    return f"records removed by a condition on {column}"


def mask_words(p: Mapping[str, Any]) -> str:
    """The ``mask`` step in plain words."""
    column = p.get("column", "?")
    if "preset" in p:
        return f"{column} masked ({p['preset']} pattern, Annex B)"
    kept = []
    if p.get("keep_first"):
        kept.append(f"first {_num(p['keep_first'])}")
    if p.get("keep_last"):
        kept.append(f"last {_num(p['keep_last'])}")
    char = p.get("char", "*")
    if kept:
        return f"{column} masked with {char} (keeps the {' and '.join(kept)} characters)"
    return f"{column} masked with {char}"


_PSEUDONYM_WORDS = {
    "random": "random pseudonyms (identity mapping table kept apart)",
    "hmac": "keyed pseudonyms (HMAC; key from the environment variable {key_env})",
    "double": "double-coded pseudonyms (two mapping tables kept apart)",
}


def pseudonymise_words(p: Mapping[str, Any]) -> str:
    """The ``pseudonymise`` step in plain words."""
    words = _PSEUDONYM_WORDS.get(p.get("method", "random"), "pseudonyms")
    return f"{p.get('column', '?')} → {words.format(key_env=p.get('key_env', '?'))}"


def redact_text_words(p: Mapping[str, Any]) -> str:
    """The ``redact_text`` step in plain words."""
    kinds = _names(p["kinds"]) if p.get("kinds") else "names, e-mails, phone numbers, IDs..."
    how = "keyed pseudonyms" if p.get("mode") == "pseudonym" else "labels such as [NAME]"
    return f"{kinds} found in {_names(p.get('columns'))} replaced by {how}"


_DATE_EXAMPLES = {"week": "2003-W05", "month": "2003-02", "quarter": "2003-Q1", "year": "2003"}


#: The name a workspace or bundle keeps a hierarchy under (core.release.bundle.portable_name):
#: a key made from its content, not a name to show anyone.
_KEPT_NAME = re.compile(r"(?:.*/)?hierarchies/[^/]*-[0-9a-f]{10}\.csv")


def _hierarchy_level_words(p: Mapping[str, Any]) -> str:
    """ "level 3 of 4 of the uploaded hierarchy 'adult_hierarchy_age.csv' (e.g. 20-39)": the
    level, out of the hierarchy's height (``hierarchy_height``), where the hierarchy came
    from (``hierarchy_source``, the name of the file a person uploaded; none with a height:
    built from the data) and a value of that level (``level_example``). A step without
    them (written by hand, or before they were recorded) names its file, unless that name
    is only the key the workspace keeps it under."""
    height = p.get("hierarchy_height")
    of = f" of {_num(height)}" if height is not None else ""
    source = p.get("hierarchy_source")
    name = str(p["hierarchy"])
    if source:
        where = f"the uploaded hierarchy '{PurePath(str(source).replace(chr(92), '/')).name}'"
    elif height is not None:
        where = "the hierarchy built from the data"
    elif _KEPT_NAME.fullmatch(name.replace(chr(92), "/")):
        where = "the hierarchy kept with the recipe"
    else:
        where = f"the hierarchy '{PurePath(name.replace(chr(92), '/')).name}'"
    example = p.get("level_example")
    shown = f" (e.g. {example})" if example is not None and str(example) != "" else ""
    return f"level {_num(p.get('level', '?'))}{of} of {where}{shown}"


def generalise_words(p: Mapping[str, Any]) -> str:
    """The ``generalise`` step in plain words."""
    column = p.get("column", "?")
    coding = []
    if "bottom" in p:
        coding.append(f"bottom-coded at {_num(p['bottom'])}")
    if "top" in p:
        coding.append(f"top-coded at {_num(p['top'])}")
    if "width" in p:
        start = f" from {_num(p['start'])}" if "start" in p else ""
        extra = f", {' and '.join(coding)}" if coding else ""
        return f"{column} → bands {_num(p['width'])} wide{start}{extra}"
    if "edges" in p:
        edges = list(p["edges"])
        return f"{column} → {max(len(edges) - 1, 0)} ranges cut at {_names(map(_num, edges))}"
    if "mapping" in p:
        mapping = p["mapping"] if isinstance(p["mapping"], Mapping) else {}
        groups = len(set(map(str, mapping.values())))
        other = f", others → {p['other']}" if "other" in p else ""
        return f"{column} → {len(mapping)} values grouped into {groups}{other}"
    if "hierarchy" in p:
        return f"{column} → {_hierarchy_level_words(p)}"
    if "hierarchy_rule" in p:
        try:
            level = int(p.get("level", 0))
            words = HierarchyRule.from_mapping(p["hierarchy_rule"]).describe(level)
        except (AnonymisationError, TypeError, ValueError):
            words = "hierarchy rule"
        return f"{column} → level {_num(p.get('level', '?'))}: {words}"
    if "date_unit" in p:
        example = _DATE_EXAMPLES.get(str(p["date_unit"]), "")
        return f"{column} → {p['date_unit']}{f' (e.g. {example})' if example else ''}"
    if coding:
        return f"{column} {' and '.join(coding)}"
    return f"{column} generalised"


def recode_locally_words(p: Mapping[str, Any]) -> str:
    """The ``recode_locally`` step in plain words."""
    hierarchies = p.get("hierarchies") if isinstance(p.get("hierarchies"), Mapping) else {}
    rounds = list(p.get("rounds") or [])
    first = rounds[0] if rounds else []
    levels = ", ".join(f"{c} level {_num(v)}" for c, v in zip(hierarchies, first, strict=False))
    models = [_model(name, p[name]) for name in MAPPING_MODELS if name in p]
    failing = f"fewer than {_num(p.get('k', 1))} alike" + (
        f" or {', '.join(models)} not met" if models else ""
    )
    return (
        f"{levels or _names(list(hierarchies))}; records in groups with {failing} "
        f"generalised again in {max(len(rounds) - 1, 0)} more round(s) (local recoding), "
        "the rest removed"
    )


def swap_words(p: Mapping[str, Any]) -> str:
    """The ``swap`` step in plain words."""
    together = " (kept together)" if p.get("together") else ""
    return f"values of {_names(p.get('columns'))} swapped between records{together}"


def round_words(p: Mapping[str, Any]) -> str:
    """The ``round`` step in plain words."""
    mode = {"down": "down", "up": "up"}.get(p.get("mode", "nearest"), "")
    how = f"rounded {mode} to a multiple of" if mode else "rounded to the nearest"
    return f"{p.get('column', '?')} {how} {_num(p.get('base', '?'))}"


def noise_words(p: Mapping[str, Any]) -> str:
    """The ``noise`` step in plain words."""
    kind = str(p.get("distribution", "uniform"))
    return f"{p.get('column', '?')} + random {kind} noise (scale {_num(p.get('scale', '?'))})"


def correlated_noise_words(p: Mapping[str, Any]) -> str:
    """The ``correlated_noise`` step in plain words."""
    keeps = "correlations kept" if p.get("method") == "correlated" else "means and variances kept"
    return f"{_names(p.get('columns'))} + random noise ({keeps})"


def pram_words(p: Mapping[str, Any]) -> str:
    """The ``pram`` step in plain words."""
    how = "a given transition matrix" if p.get("matrix") else "frequencies kept"
    return f"{_names(p.get('columns'))} post-randomised: some values changed ({how})"


def aggregate_words(p: Mapping[str, Any]) -> str:
    """The ``aggregate`` step in plain words."""
    stats = _names(p.get("stats", ["count", "sum"]))
    return f"records → {stats} of {_names(p.get('values'))} per {_names(p.get('by'))}"


def dp_aggregate_words(p: Mapping[str, Any]) -> str:
    """The ``dp_aggregate`` step in plain words."""
    return (
        f"differentially private counts per {_names(p.get('by'))} "
        f"(privacy budget ε = {_num(p.get('epsilon', '?'))})"
    )


def local_suppression_words(p: Mapping[str, Any]) -> str:
    """The ``local_suppression`` step in plain words."""
    return (
        f"fewest cells of {_names(p.get('quasi_identifiers'))} blanked until every group "
        f"has at least {_num(p.get('k', '?'))} records"
    )


def microaggregate_words(p: Mapping[str, Any]) -> str:
    """The ``microaggregate`` step in plain words."""
    method = "MDAV" if p.get("method", "mdav") == "mdav" else "individual ranking"
    return (
        f"{_names(p.get('columns'))} → means of groups of at least {_num(p.get('k', 3))} "
        f"similar records ({method})"
    )


def _points(p: Mapping[str, Any]) -> str:
    return f"{p.get('lat', '?')}/{p.get('lon', '?')}"


def geo_round_words(p: Mapping[str, Any]) -> str:
    """The ``geo_round`` step in plain words."""
    decimals = p.get("decimals", 3)
    size = {2: " (about 1.1 km)", 3: " (about 110 m)", 4: " (about 11 m)"}.get(decimals, "")
    return f"{_points(p)} rounded to {_num(decimals)} decimals{size}"


def geo_snap_words(p: Mapping[str, Any]) -> str:
    """The ``geo_snap`` step in plain words."""
    return f"{_points(p)} moved to the centre of a {_num(p.get('cell_m', '?'))} m grid cell"


def geo_displace_words(p: Mapping[str, Any]) -> str:
    """The ``geo_displace`` step in plain words."""
    if "radii" in p:
        return f"{_points(p)} moved randomly, distance set by {p.get('by', '?')}"
    low = f"{_num(p['min_m'])}–" if p.get("min_m") else "up to "
    return f"{_points(p)} moved randomly by {low}{_num(p.get('max_m', '?'))} m"


def date_shift_words(p: Mapping[str, Any]) -> str:
    """The ``date_shift`` step in plain words."""
    who = f" (same shift per {p['by']})" if p.get("by") else ""
    weekday = ", weekday kept" if p.get("keep_weekday") else ""
    return (
        f"{_names(p.get('columns'))} shifted by up to {_num(p.get('max_days', 365))} days"
        f"{who}{weekday}"
    )


def date_perturb_intervals_words(p: Mapping[str, Any]) -> str:
    """The ``date_perturb_intervals`` step in plain words."""
    return (
        f"gaps between {_names(p.get('columns'))} changed by up to "
        f"{_num(p.get('max_days', '?'))} days, order kept"
    )


def age_from_dob_words(p: Mapping[str, Any]) -> str:
    """The ``age_from_dob`` step in plain words."""
    top = f", {_num(p['top'])}+ as one group" if "top" in p else ""
    return f"{p.get('column', '?')} → age{top}"


def age_perturb_words(p: Mapping[str, Any]) -> str:
    """The ``age_perturb`` step in plain words."""
    return (
        f"{p.get('column', '?')} ± up to {_num(p.get('max_years', 2))} years "
        f"above {_num(p.get('above', 25))}, milestone ages kept"
    )


def safe_harbor_words(p: Mapping[str, Any]) -> str:
    """The ``safe_harbor`` step in plain words."""
    kept = f" (kept: {_names(p['exclude'])})" if p.get("exclude") else ""
    free_text = {"redact": "free text redacted", "flag": "free text kept unchecked"}.get(
        str(p.get("free_text", "remove")), "free text removed"
    )
    return f"HIPAA Safe Harbor preset applied, {free_text}{kept}"


def contextual_absolute_words(p: Mapping[str, Any]) -> str:
    """The ``contextual_absolute`` step in plain words."""
    return f"{_names(p.get('columns'))} → categories {_num(p.get('width', '?'))} wide"


def contextual_percentile_words(p: Mapping[str, Any]) -> str:
    """The ``contextual_percentile`` step in plain words."""
    return f"{_names(p.get('columns'))} → {_num(p.get('groups', '?'))} percentile groups"


def contextual_suppress_words(p: Mapping[str, Any]) -> str:
    """The ``contextual_suppress`` step in plain words."""
    areas = p.get("areas") or []
    return f"{_names(p.get('columns'))} emptied in {len(areas):,} at-risk area(s)"
