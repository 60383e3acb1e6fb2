"""The step vocabulary of recipes: one entry per step, with everything a step is.

A recipe step is plain data (``{"step": "generalise", "column": "age", "width": 10}``).
Each :class:`StepSpec` says what the step is called and does (summary, guide section,
title), which parameters it takes, how they become a :class:`Call` (its builder in
:mod:`core.techniques.step_calls`), the technique functions it may call (each marked
row-wise or not, which the streaming engines read) and its plain words
(:mod:`core.step_words`). :func:`resolve` checks a step and turns it into a call; applying a
recipe and exporting it as a Python script both go through it, so the two can never
disagree. Keys, salts and passphrases themselves are refused: a recipe names the
environment variable instead. Adding a technique: ``docs/adding-a-technique.md``.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.contextual.steps import recode_absolute, recode_percentile, suppress_contextual
from core.dates import age_from_dob, perturb_ages, perturb_intervals, shift_dates
from core.dp.release import dp_aggregate
from core.errors import RecipeError
from core.geo.transforms import displace_points, round_coordinates, snap_to_grid
from core.local_recoding import recode_locally
from core.measures.models.registry import CLASS_MODELS
from core.step_words import (
    age_from_dob_words,
    age_perturb_words,
    aggregate_words,
    contextual_absolute_words,
    contextual_percentile_words,
    contextual_suppress_words,
    correlated_noise_words,
    date_perturb_intervals_words,
    date_shift_words,
    dp_aggregate_words,
    generalise_words,
    geo_displace_words,
    geo_round_words,
    geo_snap_words,
    local_suppression_words,
    mask_words,
    microaggregate_words,
    noise_words,
    pram_words,
    pseudonymise_words,
    recode_locally_words,
    redact_text_words,
    remove_words,
    round_words,
    safe_harbor_words,
    suppress_records_words,
    swap_words,
)
from core.techniques.aggregation import aggregate
from core.techniques.cell_suppression import local_suppression
from core.techniques.generalisation import (
    generalise_bands,
    generalise_by_rule,
    generalise_date,
    generalise_edges,
    generalise_hierarchy,
    generalise_mapping,
    top_bottom_code,
)
from core.techniques.masking import mask
from core.techniques.microaggregation import microaggregate
from core.techniques.perturbation import add_correlated_noise, add_noise, round_to_base
from core.techniques.post_randomisation import pram
from core.techniques.pseudonymisation import double_code, pseudonymise_hmac, pseudonymise_random
from core.techniques.redaction import redact_text
from core.techniques.step_calls import (
    DP_OPTIONS,
    GENERALISE_FORMS,
    HIERARCHY_WORDS,
    Call,
    Ref,
    aggregate_call,
    contextual_suppress_call,
    dp_aggregate_call,
    generalise_call,
    local_suppression_call,
    plain_call,
    pseudonymise_call,
    recode_locally_call,
    redact_text_call,
    safe_harbor_call,
    suppress_records_call,
)
from core.techniques.suppression import (
    POPULATION_MODELS,
    remove_columns,
    suppress_below_k,
    suppress_failing_classes,
    suppress_records,
)
from core.techniques.swapping import swap


def safe_harbor(df, **options):
    """The HIPAA Safe Harbor step (:func:`core.safe_harbor.safe_harbor`, same parameters),
    imported when a recipe runs it: it brings every detector of :mod:`core.detect` (name
    lists, phone numbers), which any other recipe, and every command's start, can do
    without (issue 31)."""
    from core.safe_harbor import safe_harbor as preset

    return preset(df, **options)


__all__ = [
    "FUNCTIONS",
    "SECRET_PARAMETERS",
    "STEP_ORIGINS",
    "STEPS",
    "TECHNIQUES",
    "Call",
    "Ref",
    "StepSpec",
    "Technique",
    "describe_step_plain",
    "resolve",
]

#: Parameter names that would carry a secret; recipes must use ``key_env`` instead.
SECRET_PARAMETERS = frozenset({"key", "salt", "passphrase", "password", "secret"})

#: Where a step came from, when a page adds steps it may later take back as a whole: the
#: optional ``origin`` field any step may carry (``{step: generalise, ..., origin:
#: trade-off}``), with the words a page says it in. Explore trade-offs marks the steps of
#: an applied option, so applying another option replaces them instead of stacking a second
#: generalisation on the first (issue 30). It changes nothing the step does; a recipe
#: without it (every recipe written before) reads as before.
STEP_ORIGINS: dict[str, str] = {"trade-off": "Explore trade-offs"}
#: The steps each origin writes, the only ones that may carry it: applying another option
#: takes out every step of that origin, so a recipe someone sent marking its removal of a
#: name column "trade-off" would have had the names put back in clear by the next option.
ORIGIN_STEPS: dict[str, frozenset[str]] = {
    "trade-off": frozenset({"generalise", "suppress_records", "recode_locally"})
}


@dataclass(frozen=True)
class Technique:
    """A technique function a step may call: ``function(df, ...) -> new table``.

    ``row_wise``: each output row depends only on the same input row (and the step's seed),
    so the streaming engines (:mod:`core.engines.streaming`) may run it batch by batch;
    a function that needs the whole table (swapping, aggregation, random pseudonyms...)
    is refused there with a message naming the step.
    """

    function: Callable[..., Any] = field(repr=False)
    row_wise: bool = False

    @property
    def name(self) -> str:
        """The function's name, as a :class:`Call` and a generated script name it."""
        return self.function.__name__


@dataclass(frozen=True)
class StepSpec:
    """A recipe step: its name, what it does, its parameters and how they map to a call,
    the technique functions it may call, its plain words and its title.

    ``words`` is a function of the step's parameters (most steps, in
    :mod:`core.step_words`) or a template filled with them (``"{column} masked"``);
    ``title`` is what the dashboard calls the technique (the Annex A name in plain words).
    """

    name: str
    summary: str
    guide: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    build: Callable[[dict[str, Any]], Call] = field(repr=False)
    techniques: tuple[Technique, ...] = field(repr=False, kw_only=True)
    words: Callable[[Mapping[str, Any]], str] | str = field(repr=False, kw_only=True)
    title: str = field(kw_only=True)

    @property
    def allowed(self) -> frozenset[str]:
        return frozenset(self.required) | frozenset(self.optional)

    def describe(self, step: Mapping[str, Any]) -> str:
        """The step in plain words (KeyError, TypeError or ValueError when malformed)."""
        if isinstance(self.words, str):
            return self.words.format_map(step)
        return self.words(step)


STEPS: dict[str, StepSpec] = {
    spec.name: spec
    for spec in (
        StepSpec(
            "remove",
            "Remove columns (attribute suppression; direct identifiers in Step 2).",
            "Step 2; Annex A: Attribute suppression",
            ("columns",),
            (),
            plain_call(remove_columns, ("columns",)),
            techniques=(Technique(remove_columns, row_wise=True),),
            words=remove_words,
            title="Remove columns (attribute suppression)",
        ),
        StepSpec(
            "suppress_records",
            "Remove records matching a condition, or in equivalence classes smaller than k or "
            "failing l-diversity, t-closeness, delta, beta or (alpha,k) (ARX semantics).",
            "Annex A: Record suppression; Annex C",
            (),
            ("where", "below_k", "quasi_identifiers", *CLASS_MODELS, *POPULATION_MODELS),
            suppress_records_call,
            techniques=(
                Technique(suppress_records, row_wise=True),
                Technique(suppress_below_k),
                Technique(suppress_failing_classes),
            ),
            words=suppress_records_words,
            title="Remove records (record suppression)",
        ),
        StepSpec(
            "recode_locally",
            "Generalise with hierarchies in rounds: every record at the first levels, then "
            "the records whose classes fail the privacy models at each next round's levels; "
            "records failing every round are removed (local recoding).",
            "Annex A: Generalisation, Record suppression; Annex C",
            ("hierarchies", "rounds"),
            ("k", *CLASS_MODELS),
            recode_locally_call,
            techniques=(Technique(recode_locally),),
            words=recode_locally_words,
            title="Generalise again only the records that fail (local recoding)",
        ),
        StepSpec(
            "mask",
            "Replace some characters with a symbol (keep first/last n, or an Annex B preset).",
            "Annex A: Character masking; Annex B",
            ("column",),
            ("keep_first", "keep_last", "char", "keep", "preset"),
            plain_call(mask, ("column",), ("keep_first", "keep_last", "char", "keep", "preset")),
            techniques=(Technique(mask, row_wise=True),),
            words=mask_words,
            title="Mask characters (character masking)",
        ),
        StepSpec(
            "pseudonymise",
            "Replace values with pseudonyms: random tokens (with an identity mapping table), "
            "keyed HMAC-SHA256 tokens, or double coding.",
            "Step 2; Annex A: Pseudonymisation",
            ("column",),
            ("method", "key_env", "digits", "length"),
            pseudonymise_call,
            techniques=(
                Technique(pseudonymise_random),
                Technique(pseudonymise_hmac, row_wise=True),
                Technique(double_code),
            ),
            words=pseudonymise_words,
            title="Replace values with pseudonyms (pseudonymisation)",
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
            redact_text_call,
            techniques=(Technique(redact_text, row_wise=True),),
            words=redact_text_words,
            title="Replace identifiers inside free text (redaction)",
        ),
        StepSpec(
            "generalise",
            "Reduce precision: bands, custom edges, top/bottom coding, category mapping, "
            "hierarchy level, or dates to week/month/quarter/year.",
            "Annex A: Generalisation",
            ("column",),
            (
                *GENERALISE_FORMS,
                "start",
                "labels",
                "right",
                "other",
                "level",
                "dayfirst",
                *HIERARCHY_WORDS,
            ),
            generalise_call,
            techniques=(
                Technique(generalise_bands, row_wise=True),
                Technique(generalise_edges, row_wise=True),
                Technique(generalise_mapping, row_wise=True),
                Technique(generalise_hierarchy, row_wise=True),
                Technique(generalise_by_rule),
                Technique(generalise_date, row_wise=True),
                Technique(top_bottom_code, row_wise=True),
            ),
            words=generalise_words,
            title="Generalise (reduce precision)",
        ),
        StepSpec(
            "swap",
            "Shuffle values between records (seeded).",
            "Annex A: Swapping",
            ("columns",),
            ("seed", "together"),
            plain_call(swap, ("columns",), ("together",), random=True),
            techniques=(Technique(swap),),
            words=swap_words,
            title="Swap values between records (swapping)",
        ),
        StepSpec(
            "round",
            "Base-x rounding to a multiple of x (nearest, down or up).",
            "Annex A: Data perturbation",
            ("column", "base"),
            ("mode",),
            plain_call(round_to_base, ("column",), ("base", "mode")),
            techniques=(Technique(round_to_base, row_wise=True),),
            words=round_words,
            title="Round to a multiple (data perturbation)",
        ),
        StepSpec(
            "noise",
            "Add random noise (uniform, normal or Laplace) of a given scale (seeded).",
            "Annex A: Data perturbation",
            ("column", "scale"),
            ("distribution", "seed"),
            plain_call(add_noise, ("column",), ("distribution", "scale"), random=True),
            techniques=(Technique(add_noise, row_wise=True),),
            words=noise_words,
            title="Add random noise (data perturbation)",
        ),
        StepSpec(
            "correlated_noise",
            "Add noise that keeps each column's mean and variance (correlated2, delta) or "
            "the columns' correlations (correlated, noise %), as sdcMicro's addNoise (seeded).",
            "Annex A: Data perturbation; sdcMicro addNoise",
            ("columns",),
            ("method", "delta", "noise", "seed"),
            plain_call(
                add_correlated_noise, ("columns",), ("method", "delta", "noise"), random=True
            ),
            techniques=(Technique(add_correlated_noise),),
            words=correlated_noise_words,
            title="Add noise that keeps means and correlations (data perturbation)",
        ),
        StepSpec(
            "aggregate",
            "Replace records by group counts/sums/means, warning about small cells.",
            "Annex A: Data aggregation",
            ("by", "values"),
            ("stats", "min_cell", "bands"),
            aggregate_call,
            techniques=(Technique(aggregate),),
            words=aggregate_words,
            title="Group counts, sums or means (data aggregation)",
        ),
        StepSpec(
            "dp_aggregate",
            "Differentially private counts/sums/means per combination of listed categories "
            "(OpenDP noise, clipping bounds, ε split over the queries; not seedable).",
            "Annex A: Data aggregation; differential privacy (Laplace, b = Δf/ε)",
            ("by", "categories", "epsilon"),
            DP_OPTIONS,
            dp_aggregate_call,
            techniques=(Technique(dp_aggregate),),
            words=dp_aggregate_words,
            title="Differentially private counts, sums or means (differential privacy)",
        ),
        StepSpec(
            "local_suppression",
            "Blank as few quasi-identifier cells as possible (least important first) until "
            "every record shares its key with k - 1 others, a blank matching anything.",
            "Annex A: Suppression; Annex C; sdcMicro localSuppression",
            ("quasi_identifiers", "k"),
            ("importance",),
            local_suppression_call,
            techniques=(Technique(local_suppression),),
            words=local_suppression_words,
            title="Blank a few cells until k is met (local suppression)",
        ),
        StepSpec(
            "microaggregate",
            "Replace numeric values by the mean of groups of at least k similar records "
            "(MDAV on the columns together, or individual ranking column by column).",
            "Annex A: Data aggregation; sdcMicro microaggregation",
            ("columns",),
            ("k", "method"),
            plain_call(microaggregate, ("columns",), ("k", "method")),
            techniques=(Technique(microaggregate),),
            words=microaggregate_words,
            title="Replace numbers by group means (microaggregation)",
        ),
        StepSpec(
            "pram",
            "Post-randomise categories: each value may change to another following a "
            "transition matrix (given, or sdcMicro's invariant one keeping frequencies) "
            "(seeded).",
            "Annex A: Data perturbation; sdcMicro pram",
            ("columns",),
            ("matrix", "pd_min", "alpha", "seed"),
            plain_call(pram, ("columns",), ("matrix", "pd_min", "alpha"), random=True),
            techniques=(Technique(pram),),
            words=pram_words,
            title="Randomly change some categories (PRAM)",
        ),
        StepSpec(
            "geo_round",
            "Round GPS coordinates to 2 (about 1.11 km) or 3 (about 111 m) decimal places.",
            "Annex B: GPS location (generalisation)",
            ("lat", "lon"),
            ("decimals",),
            plain_call(round_coordinates, ("lat", "lon"), ("decimals",)),
            techniques=(Technique(round_coordinates, row_wise=True),),
            words=geo_round_words,
            title="Round GPS coordinates (generalisation)",
        ),
        StepSpec(
            "geo_snap",
            "Move each point to the centre of its cell in a grid of N metres.",
            "Annex A: Generalisation; Annex B: GPS location",
            ("lat", "lon", "cell_m"),
            (),
            plain_call(snap_to_grid, ("lat", "lon"), ("cell_m",)),
            techniques=(Technique(snap_to_grid, row_wise=True),),
            words=geo_snap_words,
            title="Move points to the centre of a grid cell (generalisation)",
        ),
        StepSpec(
            "geo_displace",
            "Move each point a random distance (disc up to max_m, or ring min_m..max_m), "
            "radii optionally by an urban/rural column (seeded).",
            "Annex B: GPS location (perturbation); NIST SP 800-188 4.3.5",
            ("lat", "lon"),
            ("max_m", "min_m", "by", "radii", "seed"),
            plain_call(
                displace_points, ("lat", "lon"), ("max_m", "min_m", "by", "radii"), random=True
            ),
            techniques=(Technique(displace_points),),
            words=geo_displace_words,
            title="Move points a random distance (perturbation)",
        ),
        StepSpec(
            "date_shift",
            "Shift all dates of one person by the same random number of days (intervals "
            "kept; optionally whole weeks to keep the weekday) (seeded).",
            "Annex B: dates (perturbation); NIST SP 800-188 4.3.4",
            ("columns",),
            ("by", "max_days", "min_days", "keep_weekday", "seed"),
            plain_call(
                shift_dates,
                ("columns",),
                ("by", "max_days", "min_days", "keep_weekday"),
                random=True,
            ),
            techniques=(Technique(shift_dates),),
            words=date_shift_words,
            title="Shift each person's dates by the same days (date shifting)",
        ),
        StepSpec(
            "date_perturb_intervals",
            "Change the gaps between one person's dates by up to max_days, keeping their "
            "order (seeded).",
            "NIST SP 800-188 4.3.4",
            ("columns",),
            ("by", "max_days", "seed"),
            plain_call(perturb_intervals, ("columns",), ("by", "max_days"), random=True),
            techniques=(Technique(perturb_intervals),),
            words=date_perturb_intervals_words,
            title="Change the gaps between dates, order kept (perturbation)",
        ),
        StepSpec(
            "age_from_dob",
            "Replace a date of birth by the age on a reference date, top-coded (90+).",
            "Annex B: date of birth (generalisation); HIPAA Safe Harbor",
            ("column",),
            ("reference_date", "new_column", "top", "keep_dob"),
            plain_call(
                age_from_dob, ("column",), ("reference_date", "new_column", "top", "keep_dob")
            ),
            techniques=(Technique(age_from_dob),),
            words=age_from_dob_words,
            title="Replace a date of birth by the age (generalisation)",
        ),
        StepSpec(
            "age_perturb",
            "Add up to +/-2 years to ages over 25, leaving milestone ages (62, 65) and their "
            "neighbours untouched (seeded).",
            "NIST SP 800-188 4.3.4",
            ("column",),
            ("max_years", "above", "milestones", "margin", "seed"),
            plain_call(
                perturb_ages,
                ("column",),
                ("max_years", "above", "milestones", "margin"),
                random=True,
            ),
            techniques=(Technique(perturb_ages),),
            words=age_perturb_words,
            title="Change ages over 25 slightly (perturbation)",
        ),
        StepSpec(
            "safe_harbor",
            "HIPAA Safe Harbor preset: remove the 18 identifier kinds it recognises, ZIP to 3 "
            "digits (000 for small areas), dates to year, ages 90+ as one category.",
            "HIPAA Safe Harbor, 45 CFR 164.514(b)(2)",
            (),
            ("reference_date", "postal", "free_text", "exclude"),
            safe_harbor_call,
            techniques=(Technique(safe_harbor),),
            words=safe_harbor_words,
            title="HIPAA Safe Harbor preset",
        ),
        StepSpec(
            "contextual_absolute",
            "Recode area-level measures into absolute categories (1%, 5%, 10%, 15%, 20% or "
            "Top/Bottom-25%).",
            "Witkowski 2007, Section 4.b (global recoding)",
            ("columns", "width"),
            ("scale", "bounds"),
            plain_call(recode_absolute, ("columns",), ("width", "scale", "bounds")),
            techniques=(Technique(recode_absolute),),
            words=contextual_absolute_words,
            title="Recode area-level measures into categories (absolute recoding)",
        ),
        StepSpec(
            "contextual_percentile",
            "Recode area-level measures into percentile groups (e.g. deciles) with cut points "
            "taken over all areas.",
            "Witkowski 2007, endnote 2 (percentile recoding)",
            ("columns", "groups"),
            ("edges",),
            plain_call(recode_percentile, ("columns",), ("groups", "edges")),
            techniques=(Technique(recode_percentile),),
            words=contextual_percentile_words,
            title="Recode area-level measures into percentile groups (percentile recoding)",
        ),
        StepSpec(
            "contextual_suppress",
            "Empty the area-level measures of respondents in at-risk areas (local suppression).",
            "Witkowski 2007, Section 2 (local suppression)",
            ("columns", "area_column", "areas"),
            (),
            contextual_suppress_call,
            techniques=(Technique(suppress_contextual),),
            words=contextual_suppress_words,
            title="Empty area-level measures in at-risk areas (local suppression)",
        ),
    )
}


#: Every technique function by name (what a :class:`Call` names), from the steps above.
TECHNIQUES: dict[str, Technique] = {
    technique.name: technique for spec in STEPS.values() for technique in spec.techniques
}
#: The technique functions as attributes (``FUNCTIONS.mask``), for generated scripts.
FUNCTIONS = types.SimpleNamespace(**{name: t.function for name, t in TECHNIQUES.items()})


def describe_step_plain(step: Mapping[str, Any]) -> str:
    """One line of plain words saying what ``step`` does to the table (its spec's words);
    an unknown or malformed step still gets a line."""
    spec = STEPS.get(str(step.get("step")))
    if spec is None:
        return f"{step.get('step', '?')} step"
    try:
        return spec.describe(step)
    except (KeyError, TypeError, ValueError):  # a malformed step still gets a line
        return f"{step.get('step', '?')} step"


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
    origin = step.get("origin")
    if origin is not None and (not isinstance(origin, str) or origin not in STEP_ORIGINS):
        raise RecipeError(
            f"{where} ({name}) has 'origin' {repr(origin)[:40]}; it may only be "
            f"{', '.join(map(repr, STEP_ORIGINS))} (a step added by Explore trade-offs), or be "
            "left out."
        )
    if origin is not None and name not in ORIGIN_STEPS[origin]:
        raise RecipeError(
            f"{where} ({name}) has 'origin' {origin!r}, but {STEP_ORIGINS[origin]} adds only "
            f"{', '.join(sorted(ORIGIN_STEPS[origin]))} steps: leave 'origin' out of this step."
        )
    params = {k: v for k, v in step.items() if k not in ("step", "origin")}
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
