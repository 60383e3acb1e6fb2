"""The settings a workspace keeps (k, Annex D, l/t targets, sensitive column, use case,
the dashboard's choices) and the shape of each, checked when it is read.

A workspace may come from someone else (issue 27), and its ``settings`` table holds any
JSON a crafted file puts there. The dashboard copies the settings it follows into the
session (k, Annex D, the release check's decisions, reviews and targets...): a list where
a mapping belongs failed a page with only an error's type, naming nothing. Each setting
this tool writes is checked here against the shape it writes; one of another shape is a
one-line ``WorkspaceError`` naming it (:meth:`WorkspaceSettings.settings`). Settings
this module does not know are left to their readers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from core.audit_chain import canonical_json as _canonical
from core.errors import AnonymisationError
from core.workspace.audit import AuditLog
from core.workspace.store import WorkspaceError, now, stored_json


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text_or_none(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _reasons(value: Any) -> bool:
    return isinstance(value, Mapping) and all(
        isinstance(column, str) and isinstance(reason, str) and reason.strip()
        for column, reason in value.items()
    )


def _reviews(value: Any) -> bool:
    from core.text_rescan import check_review  # the scanner's lists: only when there are reviews

    if not isinstance(value, Mapping):
        return False
    for column, review in value.items():
        if not isinstance(review, Mapping) or not isinstance(review.get("fingerprint", ""), str):
            return False
        check_review(str(column), {k: v for k, v in review.items() if k != "fingerprint"})
    return True


def _targets(value: Any) -> bool:
    from core.release.targets import parse_targets

    parse_targets(value)
    return True


def _choice(value: Any) -> bool:
    """One column's hierarchy choice on the trade-offs page: ``{kind: ..., widths: '5, 10'}``."""
    return isinstance(value, Mapping) and all(map(_text_or_none, value.values()))


def _choices(value: Any) -> bool:
    """The trade-offs page's hierarchy choices: per data set (its sha256), per column, a
    choice; or, as recorded before, per column a choice."""
    return isinstance(value, Mapping) and all(
        _choice(entry) or (isinstance(entry, Mapping) and all(map(_choice, entry.values())))
        for entry in value.values()
    )


def _insider_table(value: Any) -> bool:
    """Annex D's Scenario #1 table as edited: level of controls -> motivation -> P in [0, 1]."""
    return value is None or (
        isinstance(value, Mapping)
        and all(
            isinstance(row, Mapping)
            and all(
                isinstance(p, int | float) and not isinstance(p, bool) and 0 <= p <= 1
                for p in row.values()
            )
            for row in value.values()
        )
    )


def _data_set(value: Any) -> bool:
    return value is None or (
        isinstance(value, Mapping)
        and isinstance(value.get("sha256"), str)
        and isinstance(value.get("name"), str)
        and _text_or_none(value.get("source_path"))
    )


#: Each setting this tool writes, and the test of the shape it writes.
SHAPES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "k": ("a whole number >= 1", lambda v: v is None or (_whole(v) and v >= 1)),
    "sensitive": ("a column name", _text_or_none),
    "use_case": ("a use case's name", _text_or_none),
    "keep_rows": ("true or false", lambda v: v is None or isinstance(v, bool)),
    "annex_d": (
        "a mapping of Annex D settings",
        lambda v: v is None or (isinstance(v, Mapping) and all(map(_text_or_none, v))),
    ),
    "current_data": ("{sha256, name, source_path}", _data_set),
    "current_recipe": ("a recipe version's number", lambda v: v is None or _whole(v)),
    "not_quasi_identifiers": ("a mapping of columns to reasons (text)", _reasons),
    "reviewed_text": ("a mapping of columns to {by, at, rows_checked}", _reviews),
    "targets": ("a mapping of privacy models to their parameters", _targets),
    "tradeoff_hierarchies": ("a mapping of columns to hierarchy choices", _choices),
    "annex_d_insider_table": ("a table of probabilities (0 to 1)", _insider_table),
    "sign_off": (
        "a mapping of sign-off fields to text",
        lambda v: (
            v is None
            or (
                isinstance(v, Mapping)
                and all(isinstance(k, str) and isinstance(t, str) for k, t in v.items())
            )
        ),
    ),
    "controls_in_place": (
        "a list of the Step 5 controls in place (text)",
        lambda v: v is None or (isinstance(v, list) and all(isinstance(c, str) for c in v)),
    ),
}


def setting_problem(key: str, value: Any) -> str | None:
    """None if ``value`` has the shape this tool writes for setting ``key`` (or the key is
    not one of :data:`SHAPES`); else the one line that says what is wrong."""
    shape = SHAPES.get(key)
    if shape is None:
        return None
    what, holds = shape
    try:
        if holds(value):
            return None
    except AnonymisationError:
        pass
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return (
        f"The workspace's setting '{key}' is not what this tool writes ({what}), got "
        f"{shown}: the file was altered or made by another tool. Restore it from a copy."
    )


class WorkspaceSettings(AuditLog):
    """The settings of an open workspace (thresholds, targets, the dashboard's choices),
    each checked against :data:`SHAPES` when read."""

    def set_setting(self, key: str, value: Any) -> None:
        """Save a threshold or target (k, annex_d, l, t, sensitive, use_case...)."""
        value_json = _canonical(value)
        with self.transaction() as conn:
            old = conn.execute("SELECT value_json FROM settings WHERE key = ?", (key,)).fetchone()
            if old and old[0] == value_json:
                return
            conn.execute(
                "INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, "
                "updated_at = excluded.updated_at",
                (key, value_json, now()),
            )
            self.log("setting", f"setting:{key}", {"value": value})

    def settings(self) -> dict[str, Any]:
        """Every setting, each of the shape this tool writes (:data:`SHAPES`)."""
        rows = self._conn.execute("SELECT key, value_json FROM settings ORDER BY key")
        settings = {key: stored_json(value, f"setting {key!r}") for key, value in rows}
        for key, value in settings.items():
            problem = setting_problem(key, value)
            if problem is not None:
                raise WorkspaceError(problem)
        return settings
