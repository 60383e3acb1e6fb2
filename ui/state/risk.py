"""Step 4 figures of the current table (cached per table) and the Annex D settings of
the Risk page (PDPC guide, Annex D)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from core.risk import RiskReport, annex_d_risk, risk_report
from ui.state.cache import RISK_CACHE, session_cache
from ui.state.classify import k_target, quasi_identifiers, sensitive_column
from ui.state.replay import current_data
from ui.state.session import session
from ui.state.workspace import write

# --- risk (Step 4) ---------------------------------------------------------------------


# Above this many records the Risk page leaves the per-quasi-identifier impact off until
# asked (it re-counts the classes once per quasi-identifier: ~3x the report's time).
IMPACT_AUTO_ROWS = 500_000


def current_risk(data: pd.DataFrame | None = None, *, impact: bool = False) -> RiskReport | None:
    """Step 4 figures of a table on the confirmed quasi-identifiers, cached per table.

    ``impact``: also the k and uniques without each quasi-identifier (the Risk page); a
    cached report that has them serves the callers that do not ask for them too.
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
        report = risk_report(data, qi, k_threshold=k_target(), sensitive=sensitive, impact=impact)
        # The table is kept with its report so that its id cannot be reused meanwhile.
        cached = cache.put(key, (data, report, impact))
    return cached[1]


ANNEX_D_DEFAULTS = {
    "controls": "medium",
    "motivation": "medium",
    "acquaintance": 0.0,
    "breach": 0.0,
    "harm": "medium",
}


def annex_d_settings() -> dict[str, Any]:
    return {**ANNEX_D_DEFAULTS, **session().get("annex_d", {})}


def set_annex_d_settings(**settings: Any) -> None:
    new = {**annex_d_settings(), **settings}
    if session().get("annex_d") == new:
        return
    session()["annex_d"] = new
    write(lambda ws: ws.set_setting("annex_d", session()["annex_d"]))


# Not "insider_table": that is the key of the Risk page's table editor widget.
_INSIDER_TABLE_KEY = "annex_d_insider_table"


def insider_table() -> dict[str, dict[str, float]] | None:
    return session().get(_INSIDER_TABLE_KEY)


def set_insider_table(table: dict[str, dict[str, float]] | None) -> None:
    session()[_INSIDER_TABLE_KEY] = table


def current_annex_d():
    report = current_risk()
    if report is None or report.k == 0:
        return None
    settings = annex_d_settings()
    return annex_d_risk(report.k, insider_table=insider_table(), **settings)
