"""The release gate: may this table leave the workbench labelled "anonymised"?

One place decides, for the command line (``apply``) and the dashboard (Report page).
The PDPC guide's Step 4 and Step 5 ask that the re-identification risk of the table
*as released* is computed and judged against a threshold before it is shared; a table
that still holds a direct identifier (Step 2), or that no technique has touched, is not
anonymised whatever the figures say. A user may still release a risky table, but only by
acknowledging it: the acknowledgement is written into the report and into the file name
(:func:`marked_name`), so the file can never pass for an anonymised release.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import PurePath
from typing import Any

import numpy as np
import pandas as pd

from core.risk import annex_d_risk, risk_report
from core.survey_risk import sample_frequencies
from core.validation import require_columns, require_int, require_positive

#: Inserted into the file name of a release made despite the gate's objections.
NOT_ANONYMISED_MARK = "NOT-ANONYMISED"

#: The kinds of problem the gate reports (:attr:`ReleaseCheck.kinds`): roles not
#: confirmed, untouched data, direct identifiers left, no quasi-identifiers, k below
#: target, Annex D threshold exceeded, l-diversity or t-closeness target missed.
PROBLEM_KINDS = ("roles", "untouched", "direct_identifiers", "no_quasi_identifiers", "k",
                 "annex_d", "l_diversity", "t_closeness")  # fmt: skip


@dataclass(frozen=True)
class ReleaseCheck:
    """The gate's verdict on one released table.

    ``problems`` lists, in plain sentences, every reason the table is not safe to call
    anonymised (empty when it is); ``kinds`` names each problem's kind, in the same order
    (one of :data:`PROBLEM_KINDS`), so a user interface can point to where it is fixed.
    ``acknowledged`` is True when the user chose to release it anyway; the release must
    then carry :data:`NOT_ANONYMISED_MARK`.
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

    def statement(self) -> str:
        """One paragraph for the report: the verdict and, if any, the reasons."""
        if self.passed:
            figures = f"k = {self.k}" if self.k is not None else "no quasi-identifiers"
            if self.missing == "sdcmicro":
                figures += " counting a blanked cell as any value (sdcMicro's rule)"
            if self.p_reid is not None:
                figures += f", P(re-identification) = {self.p_reid:.4g} <= {self.threshold:g}"
            return f"Release check passed ({figures})."
        verdict = (
            f"RELEASED ANYWAY BY THE USER, NOT ANONYMISED (file marked {NOT_ANONYMISED_MARK})"
            if self.acknowledged
            else "Release check failed"
        )
        return f"{verdict}: " + " ".join(self.problems)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["quasi_identifiers"] = list(self.quasi_identifiers)
        data["problems"] = list(self.problems)
        data["passed"] = self.passed
        return data


def check_release(
    original: pd.DataFrame,
    released: pd.DataFrame,
    *,
    steps: int,
    quasi_identifiers: Sequence[str] | None,
    direct_identifiers: Sequence[str] = (),
    sensitive: str | None = None,
    k_target: int | None = None,
    annex_d: Mapping[str, Any] | None = None,
    l_target: int | None = None,
    t_target: float | None = None,
    roles_confirmed: bool = True,
    missing: str = "own_value",
    counts: np.ndarray | None = None,
    changed: bool | None = None,
    identifiers_left: Sequence[str] | None = None,
) -> ReleaseCheck:
    """Judge ``released`` (made from ``original`` by ``steps`` recipe steps).

    ``quasi_identifiers`` and ``sensitive`` must name columns of the original table (a
    misspelt name raises :class:`~core.errors.ColumnNotFoundError` rather than letting the
    risk be understated); those the recipe removed no longer count. ``annex_d`` holds the
    keyword settings of :func:`core.risk.annex_d_risk` (controls, motivation, ...); when
    given, P(re-ID) for the released k must be within its threshold. ``direct_identifiers``
    are the columns classified as direct identifiers in Step 1. ``missing="sdcmicro"``
    counts a blank quasi-identifier cell as matching any value when computing k (the rule
    under which local suppression reaches its k, as sdcMicro counts it); by default a blank
    is a value of its own, as everywhere else in ``core``.

    A table too large for memory (:mod:`core.engines.streaming`) is judged from what was
    counted while it was written: ``released`` is then the frequency table of its
    quasi-identifiers (and sensitive column) with ``counts`` records per row, ``original``
    needs only its columns, ``changed`` says whether any record or column differs from the
    original, and ``identifiers_left`` names the direct identifiers that still hold an
    original value.
    """
    steps = require_int("steps", steps, minimum=0)
    problems: list[str] = []
    kinds: list[str] = []

    def problem(kind: str, text: str) -> None:
        kinds.append(kind)
        problems.append(text)

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
    if direct_identifiers:
        direct = require_columns(original, direct_identifiers, parameter="direct_identifiers")
        kept = (
            [column for column in direct if column in identifiers_left]
            if identifiers_left is not None
            else [
                column
                for column in direct
                if column in released.columns
                and _original_values_left(original[column], released[column])
            ]
        )
        if kept:
            names = ", ".join(repr(str(column)) for column in kept)
            problem(
                "direct_identifiers",
                f"Column(s) {names} classified as direct identifiers still hold original "
                "values: remove or pseudonymise them (PDPC guide, Step 2).",
            )
    if k_target is not None:
        k_target = require_int("k_target", k_target, minimum=1)
    qis: tuple[str, ...] = ()
    k: int | None = None
    l_distinct: int | None = None
    t_value: float | None = None
    if not quasi_identifiers:
        problem(
            "no_quasi_identifiers",
            "No quasi-identifiers are named, so the re-identification risk of the release "
            "cannot be computed: classify the indirect identifiers (Step 1).",
        )
    else:
        quasi_identifiers = require_columns(
            original, quasi_identifiers, parameter="quasi_identifiers"
        )
        qis = tuple(column for column in quasi_identifiers if column in released.columns)
        kept_sensitive = None
        if sensitive is not None:
            require_columns(original, sensitive, parameter="sensitive")
            kept_sensitive = sensitive if sensitive in released.columns else None
        records = len(released) if counts is None else int(np.sum(counts))
        if not records:
            k = 0
        elif not qis:  # every quasi-identifier removed: all records look alike
            k = records
        else:
            report = risk_report(
                released, qis, k_threshold=k_target or 1, sensitive=kept_sensitive,
                impact=False, counts=counts,
            )  # fmt: skip
            k = report.k
            l_distinct, t_value = report.l_distinct, report.t_closeness
            if missing != "own_value":
                k = int(sample_frequencies(released, qis, missing=missing).fk.min())
        if k_target is not None and k < k_target:
            problem("k", f"k = {k} is below the target k = {k_target} (PDPC guide, Step 4).")
    p_reid = threshold = None
    if annex_d is not None and k:
        verdict = annex_d_risk(k, **dict(annex_d))
        p_reid, threshold = verdict.p_reid, verdict.threshold
        if not verdict.acceptable:
            problem(
                "annex_d",
                f"P(re-identification) = {p_reid:.4g} is above the Annex D threshold of "
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
    )


def _original_values_left(before: pd.Series, after: pd.Series) -> bool:
    """True when some record still shows its original (non-missing) value in ``after``.

    A direct identifier replaced by pseudonyms in every record is handled (PDPC guide,
    Step 2: remove *or* pseudonymise); one left as it was, or only partly replaced, is not.
    Records are matched by index label, so suppressed records do not count.
    """
    common = before.index.intersection(after.index)
    kept, aligned = before.loc[common], after.loc[common]
    same = kept.astype(str).to_numpy() == aligned.astype(str).to_numpy()
    return bool((same & kept.notna().to_numpy()).any())


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
