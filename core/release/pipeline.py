"""The release as the command line (``apply``) and the dashboard (Report page) both make it.

One order, written once (issue 27, "The release escapes its record"; PDPC guide, Steps 4
and 5):

1. **check**: :func:`check_recipe_release`, the release gate on the table as released,
   reading from the recipe what it decided (its steps, its reasons for not counting a
   column, its free-text reviews, its privacy-model targets);
2. **record first**: the workspace records the release (:mod:`core.release.record`)
   before any of its files is offered or placed, and gives its anchor in the audit log;
3. **report**: the report carries that anchor (:func:`with_anchor`);
4. **bundle and archive**: :class:`ReleasePackages` makes the recipient's bundle and the
   internal archive from the recipe and hierarchies as the record holds them, and the
   report with its anchor.

Where the files go differs and stays with each caller: ``apply`` places them all or none
while the record's transaction is open (:mod:`core.outputs`); the Report page offers them
as downloads once the release is recorded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from core.recipe import Recipe
from core.release.bundle import Bundle, build_archive, build_bundle
from core.release.gate import ReleaseCheck, check_release, missing_rule
from core.release.inputs import ReleaseDecisions, ReleaseRoles, RiskTargets, StreamedFacts
from core.release.report import Report


def check_recipe_release(
    original: pd.DataFrame,
    released: pd.DataFrame,
    recipe: Recipe,
    *,
    roles: ReleaseRoles,
    k_target: int | None,
    annex_d: Mapping[str, Any] | None,
    suggestions: Any = None,
    roles_confirmed: bool = True,
    mappings: Mapping[str, pd.DataFrame] | None = None,
    streamed: StreamedFacts = StreamedFacts(),
) -> ReleaseCheck:
    """The release gate (:func:`core.release.gate.check_release`) on ``released``, made
    from ``original`` by ``recipe``.

    The recipe's steps, ``not_quasi_identifiers``, ``reviewed_text`` and ``targets`` are
    read from the recipe; ``roles``, ``k_target`` and ``annex_d`` (the keyword settings of
    :func:`core.risk.annex_d_risk`) are the caller's, as are Step 1's ``suggestions``,
    whether the roles were confirmed and the identity ``mappings`` of the run. A blank
    quasi-identifier cell counts as sdcMicro counts it after local suppression
    (:func:`core.release.gate.missing_rule`), except in a release an engine streamed
    (``streamed``), which is judged on its frequency table.
    """
    meta = recipe.meta
    return check_release(
        original,
        released,
        steps=len(recipe.steps),
        roles=roles,
        risk_targets=RiskTargets(k_target=k_target, annex_d=annex_d, targets=meta.get("targets")),
        decisions=ReleaseDecisions(
            recipe_steps=recipe.steps,
            suggestions=suggestions,
            not_quasi_identifiers=meta.get("not_quasi_identifiers"),
            reviewed_text=meta.get("reviewed_text"),
        ),
        streamed=streamed,
        roles_confirmed=roles_confirmed,
        missing=missing_rule(recipe.steps) if streamed.counts is None else "own_value",
        mappings=mappings,
    )


def with_anchor(report: Report, anchor: Mapping[str, Any]) -> Report:
    """The report carrying the release's anchor in the audit log (core.audit_check), so
    ``verify --report`` shows later whether the log was cut or rewritten."""
    return dataclasses.replace(report, audit=anchor)


@dataclass(frozen=True)
class ReleasePackages:
    """What the recipient's bundle and the internal archive of one release carry: the
    released bytes under their file name, the recipe and hierarchies as the release's
    record holds them (:func:`core.release.record.portable_release_recipe`) and the report with the release's
    anchor (:func:`with_anchor`)."""

    released: bytes = dataclasses.field(repr=False)
    released_name: str
    recipe: Recipe
    hierarchies: Mapping[str, str]
    report: Any = None

    def bundle(
        self,
        *,
        made_mappings: bool,
        original: pd.DataFrame | None,
        released_table: pd.DataFrame | None,
        k: int | None,
    ) -> Bundle:
        """The recipient's bundle (:func:`core.release.bundle.build_bundle`): no original
        value the released table does not hold, hierarchies as rules, no identity table."""
        return build_bundle(
            released=self.released,
            released_name=self.released_name,
            recipe=self.recipe,
            hierarchies=self.hierarchies,
            report=self.report,
            made_mappings=made_mappings,
            original=original,
            released_table=released_table,
            k=k,
        )

    def archive(self, encrypted_mappings: Mapping[str, bytes] | None) -> Bundle:
        """The internal reproduction archive (:func:`core.release.bundle.build_archive`):
        every hierarchy file and the encrypted identity tables (personal data)."""
        return build_archive(
            released=self.released,
            released_name=self.released_name,
            recipe=self.recipe,
            hierarchies=self.hierarchies,
            report=self.report,
            encrypted_mappings=encrypted_mappings,
        )
