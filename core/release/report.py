"""Step 5 report: what was done, the resulting risk, the utility cost, the controls.

PDPC guide, Step 5 ("Manage your re-identification and disclosure risks"): the guide
lists technical, process and legal controls per release use case, and asks that "the
details of the anonymisation process, parameters used and controls" be recorded and
kept securely. :func:`build_report` gathers those facts; :func:`report_to_markdown`
writes them for people, :meth:`Report.to_dict` for machines. No key, salt or mapping
table ever goes in a report.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from core import __version__
from core.figure_names import RECORD_RISK
from core.formatting import fmt_count, fmt_percent, fmt_value
from core.markup import code_fence, code_span, escape_markdown, table_cell
from core.recipe import Recipe, RecipeResult
from core.release.gate import ReleaseCheck
from core.release.inputs import ReleaseFigures, ReleaseRoles
from core.release.words import APPLICABLE_STEPS, SUGGESTED_K, USE_CASES
from core.risk import AnnexDResult, RiskReport, risk_report
from core.spreadsheet_safety import CSV_PREFIX, formula_like_counts, formula_like_summary
from core.utility import UtilityReport, column_loss, utility_report
from core.validation import require_choice, require_columns

#: How a user reads back an encrypted identity mapping table (the passphrase is read from
#: the environment variable NAME, never typed on the command line).
DECRYPT_COMMAND = "python -m core decrypt-mapping FILE --passphrase-env NAME --out OUT.csv"


@dataclass(frozen=True)
class Control:
    """One recommended control of Step 5 and the use cases it applies to."""

    kind: str  # technical, process, legal
    area: str
    text: str
    applies_to: tuple[str, ...]
    note: str = ""


_ALL = ("internal_deidentified", "internal_anonymised", "external", "long_term")

#: Step 5 tables of technical, process and legal controls ("Y" cells of the guide).
CONTROLS: tuple[Control, ...] = (
    Control(
        "technical",
        "Access control and passwords",
        "Restrict data access at the application level to a user level; passwords of at "
        "least 12 characters mixing upper and lower case, digits and special characters.",
        _ALL,
    ),
    Control(
        "technical",
        "Access control and passwords",
        "Regularly review user accounts: remove leavers and keep rights to what each role needs.",
        _ALL,
    ),
    Control(
        "technical",
        "Security for storage devices/databases",
        "Protect computers with passwords (boot, operating system login, screen lock).",
        _ALL,
    ),
    Control(
        "technical",
        "Security for storage devices/databases",
        "Encrypt the dataset; review the algorithm and key length periodically.",
        ("internal_deidentified",),
        "Where the data is sensitive or shared with more than one department without "
        "anonymisation.",
    ),
    Control(
        "technical",
        "Security for storage devices/databases",
        "Encrypt the identity mapping tables; never share them.",
        ("internal_deidentified", "internal_anonymised", "external"),
    ),
    Control(
        "technical",
        "Security for storage devices/databases",
        "Securely destroy all identity mapping tables.",
        ("long_term",),
    ),
    Control(
        "technical",
        "Security for storage devices/databases",
        "Send the dataset's decryption key to the recipient separately from the data.",
        ("internal_deidentified",),
    ),
    Control(
        "process",
        "Incident management",
        "Keep a data breach management plan covering loss of the data and of identity "
        "mapping tables.",
        _ALL,
    ),
    Control(
        "process",
        "Internal governance",
        "Keep a central registry of all shared de-identified/anonymised data, so that "
        "combined releases do not allow re-identification.",
        ("internal_deidentified", "internal_anonymised", "external"),
    ),
    Control(
        "process",
        "Internal governance",
        "Periodically conduct re-identification reviews of the released data.",
        _ALL,
    ),
    Control(
        "process",
        "Internal governance",
        "Have the recipient and the purpose approved by the relevant authorities within "
        "the organisation.",
        ("internal_deidentified", "internal_anonymised"),
    ),
    Control(
        "process",
        "Internal governance",
        "Prohibit the recipient from sharing the data onwards or attempting "
        "re-identification without approval.",
        ("internal_deidentified", "internal_anonymised"),
    ),
    Control(
        "process",
        "Internal governance",
        "Purge the data when its purpose has been fulfilled.",
        ("internal_deidentified", "internal_anonymised"),
    ),
    Control(
        "process",
        "Internal governance",
        "Periodically conduct internal checks/audits of compliance with these processes.",
        _ALL,
    ),
    Control(
        "legal",
        "Data sharing agreement",
        "Ensure the data is only used for permitted purposes and allocate liability for "
        "contract breaches.",
        ("external",),
    ),
    Control(
        "legal",
        "Data sharing agreement",
        "Prohibit third-party recipients from attempting to re-identify the data.",
        ("external",),
    ),
    Control(
        "legal",
        "Data sharing agreement",
        "Require third-party recipients to protect the data as the organisation's internal "
        "controls do.",
        ("external",),
    ),
)


def direct_identifier_warnings(
    original: pd.DataFrame,
    released: pd.DataFrame,
    direct_identifiers: Sequence[str],
    utility: UtilityReport | None = None,
) -> list[str]:
    """Direct identifiers that still reach the release with some original values.

    PDPC guide, Step 2: "First, remove all direct identifiers" (or replace them with
    pseudonyms). A column confirmed as a direct identifier that is still present and
    not fully changed is named here, so a release cannot go out with it unnoticed.
    ``utility`` (its per-column figures) is used when given instead of the tables' rows.
    """
    known = {loss.column: loss for loss in utility.columns} if utility is not None else {}
    warnings = []
    for column in direct_identifiers:
        if column not in released.columns or column not in original.columns:
            continue
        loss = known.get(str(column)) or column_loss(original[column], released[column])
        if loss.changed < 1.0:
            warnings.append(
                f"'{column}' is a direct identifier and {1 - loss.changed:.0%} of its values "
                "are still the original ones: remove or pseudonymise it (PDPC guide, Step 2)."
            )
    return warnings


def controls_for(use_case: str) -> list[Control]:
    """The Step 5 controls the guide recommends for ``use_case``.

    For synthetic data the guide assumes minimal residual risk and lists no controls.
    """
    require_choice("use_case", use_case, USE_CASES)
    return [c for c in CONTROLS if use_case in c.applies_to]


def controls_level(use_case: str, in_place: Collection[str]) -> str | None:
    """The extent of mitigating controls (Annex D, Scenario #1) that the Step 5 checklist
    shows: every control the guide recommends for ``use_case`` in place: high; at least
    half: medium; at least one: low; none: none. The guide names the factors (organisational
    structures, administrative and legal controls, technical and process controls: the
    checklist's three kinds) but no scale; this rule is the tool's, said where it is used.
    None for a use case without recommended controls (synthetic data)."""
    recommended = {control.text for control in controls_for(use_case)}
    if not recommended:
        return None
    share = len(recommended & set(in_place)) / len(recommended)
    if share == 1:
        return "high"
    if share >= 0.5:
        return "medium"
    return "low" if share > 0 else "none"


@dataclass(frozen=True)
class Report:
    """Everything a reviewer needs to sign off a release."""

    title: str
    use_case: str
    created: str
    recipe: Recipe
    step_log: tuple[dict[str, Any], ...]
    quasi_identifiers: tuple[str, ...]
    risk_before: RiskReport | None
    risk_after: RiskReport | None
    utility: UtilityReport | None
    annex_d: AnnexDResult | None
    controls: tuple[Control, ...]
    seed: int | None
    sign_off: dict[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    #: The part of ``warnings`` about direct identifiers left (one per column): the
    #: dashboard sums them up in one line beside the release check, which names them.
    identifier_warnings: tuple[str, ...] = ()
    # Files holding identity mapping/linking tables: {"table", "file", "encrypted"}.
    identity_files: tuple[dict[str, Any], ...] = ()
    # The release gate's verdict (core.release.gate), when the release was checked.
    release_check: ReleaseCheck | None = None
    #: Per column: text cells (and the name) that look like spreadsheet formulas, which
    #: CSV output prefixes with a quote and .xlsx stores as text (core.spreadsheet_safety).
    formula_like_cells: dict[str, int] = field(default_factory=dict)
    #: Where the release stands in its workspace's audit log (core.audit_check.anchor):
    #: the entry count and head hash at the release, so a copy of this report that left
    #: shows later whether the log was cut or rewritten (``verify --report``).
    audit: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "tool_version": __version__,
            "created": self.created,
            "use_case": {"id": self.use_case, "name": USE_CASES[self.use_case]},
            "applicable_steps": list(APPLICABLE_STEPS[self.use_case]),
            "suggested_k": SUGGESTED_K[self.use_case],
            "recipe": self.recipe.to_dict(),
            "seed": self.seed,
            "steps": list(self.step_log),
            "quasi_identifiers": list(self.quasi_identifiers),
            "risk_before": self.risk_before.to_dict() if self.risk_before else None,
            "risk_after": self.risk_after.to_dict() if self.risk_after else None,
            "utility": self.utility.to_dict() if self.utility else None,
            "annex_d": self.annex_d.to_dict() if self.annex_d else None,
            "controls": [
                {"kind": c.kind, "area": c.area, "control": c.text, "note": c.note}
                for c in self.controls
            ],
            "sign_off": dict(self.sign_off),
            "warnings": list(self.warnings),
            "identity_files": [dict(entry) for entry in self.identity_files],
            "plaintext_mapping": any(not e["encrypted"] for e in self.identity_files),
            "release_check": self.release_check.to_dict() if self.release_check else None,
            "spreadsheet_safety": {
                "formula_like_cells": dict(self.formula_like_cells),
                "csv_prefix": CSV_PREFIX,
                "summary": formula_like_summary(self.formula_like_cells),
            },
            "audit": dict(self.audit) if self.audit else None,
        }


def build_report(
    original: pd.DataFrame,
    result: RecipeResult,
    recipe: Recipe,
    *,
    roles: ReleaseRoles = ReleaseRoles(),
    figures: ReleaseFigures = ReleaseFigures(),
    k_threshold: int | None = None,
    use_case: str = "external",
    annex_d: AnnexDResult | None = None,
    title: str = "Anonymisation report",
    sign_off: dict[str, str] | None = None,
    identity_files: Sequence[Mapping[str, Any]] = (),
    release_check: ReleaseCheck | None = None,
) -> Report:
    """Gather the facts of one release (quasi-identifiers default to the recipe's).

    ``risk_before``, ``risk_after`` and ``utility`` may be passed when already computed
    (the dashboard caches them); otherwise they are computed here. ``direct_identifiers``
    are checked to be gone or replaced (:func:`direct_identifier_warnings`).
    ``identity_files`` records where the identity mapping tables went and whether they
    were encrypted (``{"table", "file", "encrypted"}``; a file name, never the contents).
    ``release_check`` is the gate's verdict on the release (:mod:`core.release.gate`),
    written at the top of the report, including a "released anyway" acknowledgement.

    An engine's ``apply`` (:mod:`core.engines.streaming`) never holds the tables: it gives
    ``original`` and ``result.data`` as empty tables of the right columns, its frequency
    tables of the quasi-identifiers (and sensitive attribute) before and after as
    ``frequency_before``/``frequency_after`` (table, records per row), and ``utility`` and
    ``formula_like_cells`` counted batch by batch; the figures are then those of the
    tables in memory.

    ``roles`` holds ``quasi_identifiers``, ``sensitive`` and ``direct_identifiers``, and
    ``figures`` the figures already computed (:mod:`core.release.inputs`).
    """
    quasi_identifiers, sensitive = roles.quasi_identifiers, roles.sensitive
    direct_identifiers = roles.direct_identifiers
    risk_before, risk_after, utility = figures.risk_before, figures.risk_after, figures.utility
    formula_like_cells = figures.formula_like_cells
    frequency_before, frequency_after = figures.frequency_before, figures.frequency_after
    require_choice("use_case", use_case, USE_CASES)
    qi_names = quasi_identifiers or recipe.meta.get("quasi_identifiers")
    # Names are checked against the original: a misspelt one must not silently drop out
    # of the risk figures; one a step removed is legitimately absent from the release.
    qi = (
        tuple(require_columns(original, qi_names, parameter="quasi_identifiers"))
        if qi_names
        else ()
    )
    sensitive = sensitive or recipe.meta.get("sensitive")
    if sensitive:
        require_columns(original, sensitive, parameter="sensitive")
    k_threshold = int(k_threshold or recipe.meta.get("k") or SUGGESTED_K[use_case])
    released = result.data
    if qi and risk_before is None:
        table, counts = frequency_before or (original, None)
        risk_before = risk_report(
            table, qi, k_threshold=k_threshold, sensitive=sensitive, counts=counts
        )
    if qi and risk_after is None:
        kept = [c for c in qi if c in released.columns]
        if kept:
            table, counts = frequency_after or (released, None)
            risk_after = risk_report(
                table,
                kept,
                k_threshold=k_threshold,
                sensitive=sensitive if sensitive in released.columns else None,
                counts=counts,
            )
    aggregated = any(s.get("step") == "aggregate" for s in recipe.steps)
    if utility is None and not aggregated:
        utility = utility_report(original, released)
    log = tuple(
        {
            "position": entry.position,
            "step": entry.step,
            "summary": entry.summary,
            "rows_before": entry.rows_before,
            "rows_after": entry.rows_after,
            "seed": entry.seed,
        }
        for entry in result.log
    )
    identifier_warnings = tuple(
        direct_identifier_warnings(original, released, direct_identifiers, utility)
    )
    return Report(
        title=title,
        use_case=use_case,
        created=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        recipe=recipe,
        step_log=log,
        quasi_identifiers=qi,
        risk_before=risk_before,
        risk_after=risk_after,
        utility=utility,
        annex_d=annex_d,
        controls=tuple(controls_for(use_case)),
        seed=result.seed,
        sign_off=dict(sign_off or {}),
        warnings=(*identifier_warnings, *_disclosure_warnings(risk_after)),
        identifier_warnings=identifier_warnings,
        identity_files=tuple(dict(entry) for entry in identity_files),
        release_check=release_check,
        formula_like_cells=(
            formula_like_counts(released) if formula_like_cells is None else formula_like_cells
        ),
    )


def _release_check_lines(check: ReleaseCheck | None) -> list[str]:
    if check is None:
        return []
    lines = ["## Release check (Steps 4 and 5)", "", escape_markdown(check.statement()), ""]
    if not check.passed and not check.acknowledged:
        lines += ["The data was not released as anonymised.", ""]
    return lines


def _risk_rows(before: RiskReport | None, after: RiskReport | None) -> list[str]:
    rows = ["| Figure | Before | After | What it means |", "|---|---|---|---|"]
    source = after or before
    explanations = source.explanations() if source else {}
    for key, label in (
        ("records", "Records"),
        ("classes", "Equivalence classes"),
        ("k", "k (smallest class)"),
        ("uniques", "Unique records"),
        ("records_below_k", "Records below target k"),
        ("max_risk", RECORD_RISK.name),
        ("avg_risk", "Average prosecutor risk"),
        ("l_distinct", "Distinct l-diversity"),
        ("l_entropy", "Entropy l-diversity"),
        ("t_closeness", "t-closeness"),
    ):
        b = getattr(before, key, None) if before else None
        a = getattr(after, key, None) if after else None
        if a is None and b is None:
            continue
        explanation = table_cell(explanations.get(key, ""))
        rows.append(f"| {label} | {table_cell(_fmt(b))} | {table_cell(_fmt(a))} | {explanation} |")
    # The registry's models no figure above shows (core.measures.models: delta, beta, alpha,
    # k-map), each with its figure before and after and its words (the released table's).
    titles: dict[str, tuple[str, str]] = {}
    for risk in (after, before):
        for name, title, _, words in risk.model_rows() if risk else ():
            titles.setdefault(name, (title, words))
    for name, (title, words) in titles.items():
        b = before.model_figures.get(name) if before else None
        a = after.model_figures.get(name) if after else None
        rows.append(
            f"| {table_cell(title)} | {table_cell(_fmt(b))} | {table_cell(_fmt(a))} | "
            f"{table_cell(words)} |"
        )
    return rows


def _disclosure_warnings(risk: RiskReport | None) -> list[str]:
    """The released table's attribute disclosure (l-diversity = 1), if any."""
    warning = risk.attribute_disclosure() if risk is not None else None
    return [warning] if warning else []


def _fmt(value: Any) -> str:
    return fmt_value(value)


def _identity_line(entry: Mapping[str, Any]) -> str:
    name = code_span(entry["file"])  # a file name: verbatim, never markup
    if entry["encrypted"]:
        return (
            f"- {name}: encrypted with a passphrase (scrypt + AES-256-GCM); read it back "
            f"with `{DECRYPT_COMMAND}`."
        )
    return (
        f"- {name}: **written as PLAINTEXT at the user's request (--plaintext-mapping)**. "
        "Encrypt it or keep it offline, apart from the data, and never share it."
    )


def report_to_markdown(report: Report) -> str:
    """The report as Markdown, for reviewers and the audit file.

    Every text that may come from data or from a user (title, column names, values, step
    summaries, file names, sign-off) is escaped with :mod:`core.markup`, so it shows as
    text and can neither fetch an image nor break a table (issue 11, item 8).
    """
    lines = [
        f"# {escape_markdown(report.title)}",
        "",
        f"Created {report.created} with the anonymisation tool version {__version__}, "
        "following the PDPC Guide to Basic Anonymisation.",
        "",
        f"**Use case:** {USE_CASES[report.use_case]} (applicable steps: "
        f"{', '.join(map(str, APPLICABLE_STEPS[report.use_case]))}; suggested k: "
        f"{SUGGESTED_K[report.use_case]}).",
        "",
        "> Keep this report secure: the guide notes that releasing the parameters used may "
        "facilitate re-identification (Step 5). It contains no key, salt or mapping table.",
        "",
        *_release_check_lines(report.release_check),
        *[f"**Warning:** {escape_markdown(w)}\n" for w in report.warnings],
        "## What was done (Steps 2 and 3)",
        "",
    ]
    if report.step_log:
        lines += ["| # | Step | Records before | Records after | Seed |", "|---|---|---|---|---|"]
        for entry in report.step_log:
            seed = "-" if entry["seed"] is None else str(entry["seed"])
            lines.append(
                f"| {entry['position']} | {table_cell(entry['summary'])} | {entry['rows_before']} | "
                f"{entry['rows_after']} | {seed} |"
            )
    else:
        lines.append("No step was applied.")
    lines += ["", "## Re-identification risk (Step 4, Annex C and D)", ""]
    if report.quasi_identifiers:
        lines.append(
            "Quasi-identifiers (indirect identifiers): "
            f"{', '.join(map(escape_markdown, report.quasi_identifiers))}."
        )
        lines.append("")
        lines += _risk_rows(report.risk_before, report.risk_after)
    else:
        lines.append("No quasi-identifiers were chosen, so no k-anonymity figure was computed.")
    if report.annex_d is not None:
        lines += ["", "### Annex D model", "", escape_markdown(report.annex_d.explanation())]
        lines += ["", "Assumptions (the scenario):", ""]
        lines += [f"- {escape_markdown(line)}" for line in report.annex_d.assumptions()]
    lines += ["", "## Utility cost per column", ""]
    if report.utility is not None:
        lines.append(
            f"{fmt_count(report.utility.records_suppressed)} of "
            f"{fmt_count(report.utility.records_before)} records suppressed "
            f"({fmt_percent(report.utility.share_suppressed)})."
        )
        lines.append("")
        lines += ["| Column | Status | Information lost | Explanation |", "|---|---|---|---|"]
        for col in report.utility.columns:
            cells = (col.column, col.status, fmt_percent(col.entropy_loss), col.explanation())
            lines.append("| " + " | ".join(map(table_cell, cells)) + " |")
    else:
        lines.append("The release is aggregated, so record-level utility is not compared.")
    if report.identity_files:
        lines += ["", "## Identity mapping tables (Annex A, Step 5)", ""]
        lines += [_identity_line(entry) for entry in report.identity_files]
    lines += ["", "## Spreadsheet safety of the released files", ""]
    lines.append(escape_markdown(formula_like_summary(report.formula_like_cells)))
    lines += ["", f"## Controls for {USE_CASES[report.use_case]} (Step 5)", ""]
    if report.controls:
        for control in report.controls:
            note = f" ({control.note})" if control.note else ""
            lines.append(f"- [ ] **{control.kind.title()}, {control.area}:** {control.text}{note}")
    else:
        lines.append(
            "The guide assumes minimal residual risk for heavily anonymised synthetic data "
            "and lists no further controls."
        )
    if report.sign_off:
        lines += ["", "## Sign-off", ""]
        lines += [
            f"- **{escape_markdown(k)}:** {escape_markdown(v)}" for k, v in report.sign_off.items()
        ]
    if report.audit:
        lines += [
            "",
            "## Audit record",
            "",
            escape_markdown(
                f"Recorded as release {report.audit['release']} at audit log entry "
                f"{report.audit['entries']} (head {report.audit['head']}"
                f"{', keyed' if report.audit.get('keyed') else ''}). Check later that the "
                "workspace still holds this record: python -m core verify --workspace WORKSPACE "
                "--report THIS-REPORT"
            ),
        ]
    lines += ["", "## Recipe", "", *code_fence(report.recipe.to_yaml().rstrip(), "yaml"), ""]
    return "\n".join(lines)
