"""Step 4 figures of the current table (cached per table) and the Annex D settings of
the Risk page (PDPC guide, Annex D)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from core.measures.classes import EquivalenceClasses, equivalence_classes
from core.release.report import controls_for, controls_level
from core.risk import RiskReport, annex_d_risk, risk_report
from ui.state.cache import RISK_CACHE, session_cache
from ui.state.classify import k_target, quasi_identifiers, sensitive_column
from ui.state.replay import current_data
from ui.state.session import recipe, session
from ui.state.workspace import write

# --- risk (Step 4) ---------------------------------------------------------------------


# Above this many records the Risk page leaves the per-quasi-identifier impact off until
# asked (it re-counts the classes once per quasi-identifier: ~3x the report's time).
IMPACT_AUTO_ROWS = 500_000


def current_risk(data: pd.DataFrame | None = None, *, impact: bool = False) -> RiskReport | None:
    """Step 4 figures of a table on the confirmed quasi-identifiers, cached per table.

    ``impact``: also the k and uniques without each quasi-identifier (the Risk page); a
    cached report that has them serves the callers that do not ask for them too. The
    report is computed from :func:`current_classes`, so the Risk page's records below k
    read the same count rather than counting the classes again (issue 31: the sidebar
    counts them when the roles are saved, and the click on Risk then counted them again).
    """
    data = current_data() if data is None else data
    qi = quasi_identifiers(data)
    if not qi or data.empty:
        return None
    sensitive = sensitive_column(data)
    key = (id(data), tuple(qi), k_target(), sensitive)
    cache = session_cache(RISK_CACHE)
    cached = cache.get(key)
    if cached is None or (impact and not cached[2]):
        report = risk_report(
            data,
            qi,
            k_threshold=k_target(),
            sensitive=sensitive,
            impact=impact,
            classes=current_classes(data),
        )
        # The table is kept with its report so that its id cannot be reused meanwhile.
        cached = cache.put(key, (data, report, impact))
    return cached[1]


def current_classes(data: pd.DataFrame) -> EquivalenceClasses:
    """The equivalence classes of ``data`` on the confirmed quasi-identifiers (each record's
    class and each class's size), counted once per table and quasi-identifiers: the risk
    report's figures and the Risk page's records below k read the same count, and a new
    target k or sensitive column does not count them again."""
    qi = tuple(quasi_identifiers(data))
    key = ("classes", id(data), qi)
    cache = session_cache(RISK_CACHE)
    cached = cache.get(key)
    if cached is None:
        cached = cache.put(key, (data, equivalence_classes(data, qi)))
    return cached[1]


#: The guide's example values (Annex D): the workshop and a new project start from them.
ANNEX_D_DEFAULTS = {
    "controls": "medium",
    "motivation": "medium",
    "acquaintance": 0.0,
    "breach": 0.0,
    "harm": "medium",
}
#: The Step 5 controls ticked as in place on Report (also the workspace setting's name).
CONTROLS_KEY = "controls_in_place"


def use_case() -> str:
    """The release use case chosen on the Report page (a key of core.release.words.USE_CASES)."""
    return session().get("release_use_case") or recipe().meta.get("use_case") or "external"


def controls_in_place() -> list[str] | None:
    """The Step 5 controls ticked on Report, or None while the checklist was never used."""
    return session().get(CONTROLS_KEY)


def controls_from_checklist() -> tuple[str, int, int] | None:
    """(extent of mitigating controls, controls in place, controls recommended) from the
    Report's Step 5 checklist, once it was used and the use case recommends controls."""
    ticked = controls_in_place()
    if ticked is None:
        return None
    level = controls_level(use_case(), ticked)
    if level is None:
        return None
    recommended = {control.text for control in controls_for(use_case())}
    return level, len(recommended & set(ticked)), len(recommended)


def set_controls_in_place(ticked: list[str]) -> None:
    """Keep the Step 5 controls ticked on Report; they set the Annex D extent of mitigating
    controls (one source: Risk shows it, the release check and the report use it)."""
    if controls_in_place() == ticked or (controls_in_place() is None and not ticked):
        return
    session()[CONTROLS_KEY] = list(ticked)
    write(lambda ws: ws.set_setting(CONTROLS_KEY, list(ticked)))
    from_checklist = controls_from_checklist()
    if from_checklist is not None:
        set_annex_d_settings(controls=from_checklist[0])


def annex_d_settings() -> dict[str, Any]:
    """The Annex D assumptions in force: set on Risk, the extent of mitigating controls
    from the Step 5 checklist once it is used (:func:`controls_from_checklist`)."""
    settings = {**ANNEX_D_DEFAULTS, **session().get("annex_d", {})}
    from_checklist = controls_from_checklist()
    if from_checklist is not None:
        settings["controls"] = from_checklist[0]
    return settings


def set_annex_d_settings(**settings: Any) -> None:
    new = {**annex_d_settings(), **settings}
    if session().get("annex_d") == new:
        return
    session()["annex_d"] = new
    write(lambda ws: ws.set_setting("annex_d", session()["annex_d"]))


def start_from_guide_values() -> None:
    """The workshop starts from the guide's Annex D example (its insider table and the
    values above) and an unticked checklist, not from another project's assumptions."""
    session()["annex_d"] = dict(ANNEX_D_DEFAULTS)
    session()[CONTROLS_KEY] = None
    session()[INSIDER_TABLE_KEY] = None

    def record(ws: Any) -> None:
        ws.set_setting("annex_d", dict(ANNEX_D_DEFAULTS))
        ws.set_setting(CONTROLS_KEY, None)
        ws.set_setting(INSIDER_TABLE_KEY, None)

    write(record)


# Not "insider_table": that is the key of the Risk page's table editor widget. Also the
# workspace setting's name: the table is one of the project's Annex D assumptions.
INSIDER_TABLE_KEY = "annex_d_insider_table"


def insider_table() -> dict[str, dict[str, float]] | None:
    """The Scenario #1 table edited on Risk, or None for the guide's example table."""
    return session().get(INSIDER_TABLE_KEY)


def set_insider_table(table: dict[str, dict[str, float]] | None) -> None:
    """Keep the Scenario #1 table (None: the guide's) in the session and the workspace."""
    if session().get(INSIDER_TABLE_KEY) == table:
        return
    session()[INSIDER_TABLE_KEY] = table
    write(lambda ws: ws.set_setting(INSIDER_TABLE_KEY, table))


def current_annex_d():
    report = current_risk()
    if report is None or report.k == 0:
        return None
    settings = annex_d_settings()
    return annex_d_risk(report.k, insider_table=insider_table(), **settings)
