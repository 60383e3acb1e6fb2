"""The release gate: may this table leave the workbench labelled "anonymised"?

One place decides, for the command line (``apply``) and the dashboard (Report page).
The PDPC guide's Step 4 and Step 5 ask that the re-identification risk of the table
*as released* is computed and judged against a threshold before it is shared; a table
that still holds a direct identifier (Step 2), or that no technique has touched, is not
anonymised whatever the figures say.

The gate reads the released table as a re-identifier would (issue 25), not the recipe's
vocabulary: a direct identifier kept in any form but pseudonyms is judged by what it
still shows (:mod:`core.release.kept_identifiers`); redacted free text is rescanned and signed
for (:mod:`core.text_rescan`); a column Step 1 doubts needs a place in the recipe or a
recorded reason; and the recipe's privacy-model ``targets`` are judged on the released
table (:mod:`core.release.targets`). Each column is judged in
:mod:`core.release.column_judges`; the verdict is gathered here. A user may still release a risky table, but only by
acknowledging it: the acknowledgement is written into the report and into the file name
(:func:`marked_name`), so the file can never pass for an anonymised release.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import PurePath
from typing import Any

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.figure_names import ANNEX_D_P_REID
from core.release.backstops import as_released, identifiers_inside, with_classified
from core.release.column_judges import (
    judge_free_text,
    judge_identifier,
    judge_streamed_identifiers,
    original_values_left,
    undecided_columns,
)
from core.release.inputs import ReleaseDecisions, ReleaseRoles, RiskTargets, StreamedFacts
from core.release.kept_identifiers import treatment
from core.release.targets import evaluate_targets, parse_targets, target_columns
from core.release.words import NOT_ANONYMISED_MARK
from core.risk import annex_d_risk, risk_report
from core.survey_risk import sample_frequencies
from core.text_rescan import check_review
from core.validation import require_columns, require_int, require_positive

#: The kinds of problem the gate reports (:attr:`ReleaseCheck.kinds`): roles not
#: confirmed, untouched data, direct identifiers left (or kept in a form that still shows
#: them), free text not rescanned clean or not reviewed, Step 1's doubts not decided, no
#: quasi-identifiers, k below target, Annex D threshold exceeded, l-diversity or
#: t-closeness target missed, a privacy-model target of the recipe's ``targets`` missed.
PROBLEM_KINDS = (
    "roles",
    "untouched",
    "direct_identifiers",
    "free_text",
    "text_review",
    "undecided",
    "no_quasi_identifiers",
    "k",
    "annex_d",
    "l_diversity",
    "t_closeness",
    "targets",
)
#: The lowest k target the gate accepts: with k = 1 every table "reaches" k.
MIN_K_TARGET = 2


@dataclass(frozen=True)
class ReleaseCheck:
    """The gate's verdict on one released table.

    ``problems`` lists, in plain sentences, every reason the table is not safe to call
    anonymised (empty when it is); ``kinds`` names each problem's kind, in the same order
    (one of :data:`PROBLEM_KINDS`), so a user interface can point to where it is fixed.
    ``acknowledged`` is True when the user chose to release it anyway; the release must
    then carry :data:`NOT_ANONYMISED_MARK`. ``kept_identifiers`` are direct identifiers
    the release keeps in a form other than pseudonyms, counted as quasi-identifiers;
    ``decisions`` the recipe's reasons for not counting columns Step 1 doubted
    (``not_quasi_identifiers``); ``reviews`` who read which redacted free-text column;
    ``targets`` each privacy-model target with the records failing it.
    """

    problems: tuple[str, ...]
    quasi_identifiers: tuple[str, ...]
    k: int | None
    k_target: int | None
    p_reid: float | None = None
    threshold: float | None = None
    l_distinct: int | None = None
    t_closeness: float | None = None
    acknowledged: bool = False
    kinds: tuple[str, ...] = ()
    missing: str = "own_value"  # how a blank quasi-identifier cell counted for k
    kept_identifiers: tuple[str, ...] = ()
    decisions: tuple[tuple[str, str], ...] = ()
    reviews: tuple[tuple[str, str, str, int], ...] = ()  # column, by, at, cells read
    targets: tuple[tuple[str, str, int], ...] = ()  # model, requirement, failing records
    undecided: tuple[str, ...] = ()  # columns Step 1 doubts that the recipe gives no place
    free_text: tuple[str, ...] = ()  # free-text direct identifiers the release keeps

    @property
    def passed(self) -> bool:
        """True when nothing stands in the way of an anonymised release."""
        return not self.problems

    @property
    def releasable(self) -> bool:
        """True when the table may be written: it passed, or the user acknowledged it."""
        return self.passed or self.acknowledged

    def acknowledge(self) -> ReleaseCheck:
        """The same verdict with the user's "release anyway" acknowledgement."""
        return replace(self, acknowledged=True)

    def _records(self) -> str:
        """The decisions, reviews and targets behind the verdict, for the report."""
        parts = []
        if self.kept_identifiers:
            names = ", ".join(repr(c) for c in self.kept_identifiers)
            parts.append(
                f"Direct identifier(s) {names} kept in a changed form, counted as "
                "quasi-identifiers."
            )
        if self.decisions:
            said = "; ".join(f"{column!r}: {reason}" for column, reason in self.decisions)
            parts.append(f"Not counted as quasi-identifiers, by the recipe's decision: {said}.")
        if self.reviews:
            said = "; ".join(
                f"{column!r} read by {by} on {at} ({cells:,} cells)"
                for column, by, at, cells in self.reviews
            )
            parts.append(f"Redacted free text reviewed: {said}.")
        if self.targets:
            said = "; ".join(
                f"{requirement}: " + ("met" if failing == 0 else f"{failing:,} records fail")
                for _, requirement, failing in self.targets
            )
            parts.append(f"Privacy-model targets: {said}.")
        return (" " + " ".join(parts)) if parts else ""

    def statement(self) -> str:
        """One paragraph for the report: the verdict and, if any, the reasons."""
        if self.passed:
            figures = f"k = {self.k}" if self.k is not None else "no quasi-identifiers"
            if self.missing == "sdcmicro":
                figures += " counting a blanked cell as any value (sdcMicro's rule)"
            if self.p_reid is not None:
                figures += f", {ANNEX_D_P_REID.name} = {self.p_reid:.4g} <= {self.threshold:g}"
            return f"Release check passed ({figures})." + self._records()
        verdict = (
            f"RELEASED ANYWAY BY THE USER, NOT ANONYMISED (file marked {NOT_ANONYMISED_MARK})"
            if self.acknowledged
            else "Release check failed"
        )
        return f"{verdict}: " + " ".join(self.problems) + self._records()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["quasi_identifiers"] = list(self.quasi_identifiers)
        data["problems"] = list(self.problems)
        data["kept_identifiers"] = list(self.kept_identifiers)
        data["undecided"] = list(self.undecided)
        data["free_text"] = list(self.free_text)
        data["decisions"] = dict(self.decisions)
        data["reviews"] = {
            column: {"by": by, "at": at, "rows_checked": cells}
            for column, by, at, cells in self.reviews
        }
        data["targets"] = [
            {"model": name, "requirement": requirement, "failing_records": n}
            for name, requirement, n in self.targets
        ]
        data["passed"] = self.passed
        return data


def check_release(
    original: pd.DataFrame,
    released: pd.DataFrame,
    *,
    steps: int,
    roles: ReleaseRoles,
    risk_targets: RiskTargets = RiskTargets(),
    decisions: ReleaseDecisions = ReleaseDecisions(),
    streamed: StreamedFacts = StreamedFacts(),
    roles_confirmed: bool = True,
    missing: str = "own_value",
    mappings: Mapping[str, pd.DataFrame] | None = None,
) -> ReleaseCheck:
    """Judge ``released`` (made from ``original`` by ``steps`` recipe steps).

    ``quasi_identifiers`` and ``sensitive`` must name columns of the original table (a
    misspelt name raises :class:`~core.errors.ColumnNotFoundError` rather than letting the
    risk be understated); those the recipe removed no longer count. ``annex_d`` holds the
    keyword settings of :func:`core.risk.annex_d_risk` (controls, motivation, ...); when
    given, P(re-ID) for the released k must be within its threshold. ``missing="sdcmicro"``
    counts a blank quasi-identifier cell as matching any value when computing k (the rule
    under which local suppression reaches its k, as sdcMicro counts it); by default a blank
    is a value of its own, as everywhere else in ``core``.

    ``direct_identifiers`` are the columns classified as direct identifiers in Step 1. Each
    one the release keeps is handled only when the recipe's steps (``recipe_steps``)
    pseudonymise it, once (a second pseudonymisation must chain its identity mapping table,
    ``mappings``, back to the original values); kept in any other form it counts as a
    quasi-identifier and may not show a run of :data:`core.release.kept_identifiers.RUN`
    characters of a value fewer than k records share (:mod:`core.release.kept_identifiers`). One
    that Step 1 (``suggestions``) calls free text is handled when removed, or redacted with
    a rescan of the released column that finds nothing and a review recorded in
    ``reviewed_text`` (:mod:`core.text_rescan`). Columns ``suggestions`` call indirect,
    near-unique or unsure text need a place in the recipe: a quasi-identifier, a direct
    identifier, the sensitive column, removed, or a reason in ``not_quasi_identifiers``.
    ``targets`` is the recipe's section of privacy-model targets
    (:mod:`core.release.targets`), judged on the released table.

    A table too large for memory (:mod:`core.engines.streaming`) is judged from what was
    counted while it was written: ``released`` is then the frequency table of its
    quasi-identifiers (and sensitive column) with ``counts`` records per row, ``original``
    needs only its columns, ``changed`` says whether any record or column differs from the
    original, and ``identifiers_left`` names the direct identifiers that still hold an
    original value; ``sample`` (the first rows Step 1 read) shows the columns no step
    changes as they are released, and is scanned for identifiers as a table in memory is.

    The parameters travel in groups (:mod:`core.release.inputs`): ``roles``
    (quasi-identifiers, direct identifiers, sensitive), ``risk_targets`` (k, Annex D, l,
    t, the recipe's targets), ``decisions`` (the recipe's steps, Step 1's suggestions, the
    recipe's reasons and reviews) and ``streamed`` (what an engine counted).
    """
    quasi_identifiers, sensitive = roles.quasi_identifiers, roles.sensitive
    direct_identifiers = roles.direct_identifiers
    k_target, annex_d = risk_targets.k_target, risk_targets.annex_d
    l_target, t_target, targets = risk_targets.l_target, risk_targets.t_target, risk_targets.targets
    recipe_steps, suggestions = decisions.recipe_steps, decisions.suggestions
    not_quasi_identifiers, reviewed_text = decisions.not_quasi_identifiers, decisions.reviewed_text
    counts, changed = streamed.counts, streamed.changed
    identifiers_left, sample = streamed.identifiers_left, streamed.sample
    steps = require_int("steps", steps, minimum=0)
    problems: list[str] = []
    kinds: list[str] = []

    def problem(kind: str, text: str) -> None:
        kinds.append(kind)
        problems.append(text)

    if k_target is not None:
        k_target = require_int("k_target", k_target, minimum=1)
        if k_target < MIN_K_TARGET:
            problem(
                "k",
                f"A k target of {k_target} asks nothing: every record may be unique and the "
                f"check would still pass. Set k to at least {MIN_K_TARGET} (the guide's "
                "industry threshold is 3 or 5; PDPC guide, Step 4).",
            )
    models = parse_targets(targets)
    for column in target_columns(models):
        require_columns(original, column, parameter="targets")
    decisions = _decisions(original, not_quasi_identifiers)
    reviews = {str(c): check_review(str(c), r) for c, r in (reviewed_text or {}).items()}
    streamed = counts is not None or identifiers_left is not None
    if not roles_confirmed:
        problem(
            "roles",
            "The Step 1 roles have not been confirmed: confirm which columns are direct "
            "identifiers, quasi-identifiers and target attributes first.",
        )
    untouched = released.equals(original) if changed is None else not changed
    if steps == 0 or untouched:
        problem(
            "untouched",
            "No technique has changed the table: it is the original data, not an "
            "anonymised release.",
        )
    direct = (
        require_columns(original, direct_identifiers, parameter="direct_identifiers")
        if direct_identifiers
        else []
    )
    if suggestions is None and direct and not streamed:
        # the detectors load here, when direct identifiers are to be checked, not with
        # every command that imports the release check (issue 31: start-up)
        from core.schema import suggest_roles

        suggestions = suggest_roles(original[list(dict.fromkeys(direct))])
    direct = with_classified(direct, suggestions, original)
    kinds_of = {str(s.column): s for s in suggestions or ()}
    rare_below = max(k_target or 1, 2)  # a value one record holds identifies its person
    kept: list[str] = []
    untouched_identifiers: list[str] = []
    text_kept: list[str] = []
    undecided: list[str] = []
    reviewed: list[tuple[str, str, str, int]] = []
    if streamed:
        judge_streamed_identifiers(direct, identifiers_left, recipe_steps, kinds_of, problem)
    else:
        for column in direct:
            if column not in released.columns:
                continue
            suggestion = kinds_of.get(str(column))
            if suggestion is not None and suggestion.kind == "free_text":
                text_kept.append(column)
                review = judge_free_text(
                    column, original, released, recipe_steps, reviews.get(str(column)), problem
                )
                if review is not None:
                    reviewed.append(review)
                continue
            done = treatment(recipe_steps or (), column)
            as_it_was = not done.forms and not (recipe_steps is not None and done.pseudonymised)
            if as_it_was and original_values_left(original[column], released[column]):
                untouched_identifiers.append(column)
            elif judge_identifier(
                column, original, released, recipe_steps, mappings, rare_below, problem
            ):
                kept.append(column)
        if untouched_identifiers:
            names = ", ".join(repr(str(column)) for column in untouched_identifiers)
            problem(
                "direct_identifiers",
                f"Column(s) {names} classified as direct identifiers still hold original "
                "values: remove or pseudonymise them (PDPC guide, Step 2).",
            )
    qis: tuple[str, ...] = ()
    k: int | None = None
    l_distinct: int | None = None
    t_value: float | None = None
    sensitive_kept = None
    if sensitive is not None:
        require_columns(original, sensitive, parameter="sensitive")
        sensitive_kept = sensitive if sensitive in released.columns else None
    if quasi_identifiers:
        quasi_identifiers = require_columns(
            original, quasi_identifiers, parameter="quasi_identifiers"
        )
    if suggestions is not None:
        undecided = undecided_columns(
            suggestions,
            original,
            released,
            recipe_steps,
            streamed,
            listed={
                *(quasi_identifiers or ()),
                *direct,
                *decisions,
                *([sensitive] if sensitive else []),
                *target_columns(models),
            },
            rare_below=rare_below,
            problem=problem,
        )
    skip = {*direct, *(quasi_identifiers or ())}
    if not streamed:
        identifiers_inside(released, recipe_steps, skip=skip, problem=problem)
    elif sample is not None:
        identifiers_inside(
            as_released(sample, recipe_steps),
            recipe_steps,
            skip=skip,
            problem=problem,
            where=" in the first rows",
        )
    if not quasi_identifiers:
        problem(
            "no_quasi_identifiers",
            "No quasi-identifiers are named, so the re-identification risk of the release "
            "cannot be computed: classify the indirect identifiers (Step 1).",
        )
    else:
        named = [
            *(quasi_identifiers or ()),
            *(c for c in kept if c not in (quasi_identifiers or ())),
        ]
        qis = tuple(column for column in named if column in released.columns)
        records = len(released) if counts is None else int(np.sum(counts))
        if not records:
            k = 0
        elif not qis:  # every quasi-identifier removed: all records look alike
            k = records
        else:
            report = risk_report(
                released,
                qis,
                k_threshold=k_target or 1,
                sensitive=sensitive_kept,
                impact=False,
                counts=counts,
            )
            k = report.k
            l_distinct, t_value = report.l_distinct, report.t_closeness
            if missing != "own_value":
                k = int(sample_frequencies(released, qis, missing=missing).fk.min())
        if k_target is not None and k < k_target:
            with_kept = (
                f" with the kept direct identifier(s) {', '.join(map(repr, kept))} counted as "
                "quasi-identifiers"
                if kept
                else ""
            )
            problem(
                "k", f"k = {k}{with_kept} is below the target k = {k_target} (PDPC guide, Step 4)."
            )
    p_reid = threshold = None
    if annex_d is not None and k:
        verdict = annex_d_risk(k, **dict(annex_d))
        p_reid, threshold = verdict.p_reid, verdict.threshold
        if not verdict.acceptable:
            problem(
                "annex_d",
                f"{ANNEX_D_P_REID.name} = {p_reid:.4g} is above the Annex D threshold of "
                f"{threshold:g}; k of at least {verdict.min_k} would meet it.",
            )
    if l_target is not None and l_distinct is not None:
        l_target = require_int("l_target", l_target, minimum=1)
        if l_distinct < l_target:
            problem(
                "l_diversity",
                f"l-diversity = {l_distinct} is below the target l = {l_target}: some group "
                f"has fewer than {l_target} different values of {sensitive!r}.",
            )
    if t_target is not None and t_value is not None:
        t_target = require_positive("t_target", t_target)
        if t_value > t_target:
            problem(
                "t_closeness", f"t-closeness = {t_value:.4g} is above the target t = {t_target:g}."
            )
    judged = evaluate_targets(released, list(qis), models, counts=counts) if models else []
    for result in judged:
        if not result.met:
            problem(
                "targets",
                f"Target {result.requirement} is not met: {result.failing_records:,} records "
                f"in {result.failing_classes:,} group(s) fail it; generalise or suppress "
                "further (a suppress_records step with below_k and the same model removes "
                "the failing groups) (PDPC guide, Step 4).",
            )
    return ReleaseCheck(
        problems=tuple(problems),
        quasi_identifiers=qis,
        k=k,
        k_target=k_target,
        p_reid=p_reid,
        threshold=threshold,
        l_distinct=l_distinct,
        t_closeness=t_value,
        kinds=tuple(kinds),
        missing=missing,
        kept_identifiers=tuple(kept),
        decisions=tuple((c, decisions[c]) for c in decisions),
        reviews=tuple(reviewed),
        targets=tuple((r.name, r.requirement, r.failing_records) for r in judged),
        undecided=tuple(undecided),
        free_text=tuple(text_kept),
    )


def _decisions(original: pd.DataFrame, decided: Mapping[str, str] | None) -> dict[str, str]:
    """``not_quasi_identifiers``: column -> the reason it is not a quasi-identifier."""
    if not decided:
        return {}
    if not isinstance(decided, Mapping):
        raise ParameterError(
            "'not_quasi_identifiers' must map each column to the reason it is not a "
            f"quasi-identifier, e.g. {{postal: 'only the region is kept'}}, got {decided!r}."
        )
    require_columns(original, list(decided), parameter="not_quasi_identifiers")
    for column, reason in decided.items():
        if not isinstance(reason, str) or not reason.strip():
            raise ParameterError(
                f"not_quasi_identifiers: give the reason why column '{column}' is not a "
                "quasi-identifier (a sentence), not an empty value."
            )
    return {str(column): " ".join(str(reason).split()) for column, reason in decided.items()}


def marked_name(name: str | PurePath) -> str:
    """``released.csv`` -> ``released.NOT-ANONYMISED.csv`` (idempotent).

    Used for every file of a release the user made despite the gate's objections.
    """
    path = PurePath(name)
    if NOT_ANONYMISED_MARK in path.name:
        return str(path)
    suffix = path.suffix
    stem = path.name[: -len(suffix)] if suffix else path.name
    return str(path.with_name(f"{stem}.{NOT_ANONYMISED_MARK}{suffix}"))


def missing_rule(steps: Iterable[Mapping[str, Any]]) -> str:
    """How the gate counts a blank quasi-identifier cell for a recipe's release.

    Local suppression blanks cells so that each record matches at least k others *when a
    blank matches any value* (sdcMicro's ``localSuppression`` and ``freqCalc``); judged with
    a blank as a value of its own, every blanked record would look unique. Other recipes
    keep core's default.
    """
    return (
        "sdcmicro"
        if any(step.get("step") == "local_suppression" for step in steps)
        else ("own_value")
    )
