"""Roles, the sensitive column and the target k (Step 1, PDPC guide): confirmed roles
only, checked against the loaded table, and what the recipe removed of them."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.errors import ColumnNotFoundError
from core.markup import escape_markdown
from core.roles import Role, Suggestion
from ui.progress import working
from ui.state.replay import current, current_data
from ui.state.session import K_TARGET_KEY, SENSITIVE_KEY, has_data, original, session, source_name
from ui.state.workspace import author, write

# --- roles (Step 1) ---------------------------------------------------------------------


def suggestions() -> dict[str, Suggestion]:
    """The suggested role of each column of the original table (PDPC guide, Step 1),
    computed the first time a page asks: the Data page shows a large table without them."""
    state = session()
    if state.get("suggestions") is None:
        if not has_data():
            return {}
        # Imported on first use: the suggester loads the detectors (hundreds of patterns
        # compiled on import), which the Data page's first table need not wait for (issue 31).
        from core.schema import suggest_roles

        table = original()
        with working(
            f"Suggesting a role for each of the {table.shape[1]:,} columns "
            f"({len(table):,} records)..."
        ):
            state["suggestions"] = {s.column: s for s in suggest_roles(table)}
    return state["suggestions"]


def roles() -> dict[str, Role]:
    """Confirmed roles; a column without one is treated as non-identifying."""
    return session().get("roles", {})


def set_roles(new_roles: dict[str, Role]) -> None:
    session()["roles"] = dict(new_roles)
    sha = session().get("data_sha256")
    if sha:
        by_name = {str(c): r.value for c, r in new_roles.items()}
        write(lambda ws: ws.set_roles(sha, by_name, author=author()))


def roles_confirmed() -> bool:
    """True once the Classify page's roles were saved or accepted (suggestions are not)."""
    return bool(roles())


def role_problem() -> str | None:
    """Why the confirmed roles or the sensitive column do not fit the loaded table, or None.

    A role or a sensitive column naming a column the original table does not have (a
    setting kept from another table, a misspelling) must never be dropped silently:
    k would then be computed on fewer quasi-identifiers than the user chose.
    """
    columns = original().columns
    unknown = [str(c) for c in roles() if c not in columns]
    if unknown:
        return (
            f"The confirmed roles name column(s) {', '.join(map(repr, unknown))} that the "
            f"loaded table '{source_name()}' does not have: confirm the roles again on "
            "Classify (Step 1)."
        )
    chosen = sensitive_choice()
    if chosen is not None and chosen not in columns:
        return (
            f"The sensitive column {str(chosen)!r} is not a column of the loaded table "
            f"'{source_name()}': choose it again on Classify (Step 1)."
        )
    return None


def require_known_columns() -> bool:
    """Show what to fix when the roles do not fit the table (:func:`role_problem`)."""
    problem = role_problem()
    if problem is None:
        return True
    st.error(escape_markdown(problem), icon=":material/error:")
    st.page_link("pages/2_classify.py", label="Go to Classify", icon=":material/label:")
    return False


def _check_roles() -> None:
    problem = role_problem()
    if problem is not None:
        raise ColumnNotFoundError(problem)


def columns_with_role(role: Role, data: pd.DataFrame | None = None) -> list[str]:
    """Confirmed columns with ``role`` that ``data`` (default: the current table) still has.

    Raises ColumnNotFoundError when a role names a column the original table does not
    have; a column the recipe removed is legitimately absent (:func:`removed_by_recipe`).
    """
    _check_roles()
    data = current_data() if data is None else data
    return [c for c, r in roles().items() if r == role and c in data.columns]


def quasi_identifiers(data: pd.DataFrame | None = None) -> list[str]:
    return columns_with_role(Role.INDIRECT, data)


def sensitive_column(data: pd.DataFrame | None = None) -> str | None:
    """The sensitive column: the one chosen, else the first target, if ``data`` has it.

    A chosen column the recipe removed gives None (no l-diversity or t-closeness), never
    silently another column; one the original table lacks raises ColumnNotFoundError.
    """
    _check_roles()
    chosen = sensitive_choice()
    data = current_data() if data is None else data
    if chosen is not None:
        return chosen if chosen in data.columns else None
    targets = columns_with_role(Role.TARGET, data)
    return targets[0] if targets else None


def removed_by_recipe(columns: list[str] | None = None) -> dict[str, str]:
    """Confirmed quasi-identifiers and sensitive column (or ``columns``) that the recipe
    removed or renamed, each with the step that did it, e.g. {"date_of_birth": "step 1
    (remove)"}."""
    if columns is None:
        columns = [*quasi_identifiers(original())]
        sensitive = sensitive_column(original())
        if sensitive is not None:
            columns.append(sensitive)
    log = current().log
    removed = {}
    for column in columns:
        name = str(column)
        step = next(
            (
                entry
                for entry in log
                if name in entry.columns_before and name not in entry.columns_after
            ),
            None,
        )
        if step is not None:
            removed[name] = f"step {step.position}, {step.step['step']}"
    return removed


def removed_note() -> str | None:
    """In words (Markdown, names escaped), which quasi-identifiers (or sensitive column)
    the recipe removed."""
    removed = removed_by_recipe()
    if not removed:
        return None
    parts = [
        f"{escape_markdown(column)} was removed by the recipe ({step})"
        for column, step in removed.items()
    ]
    return "; ".join(parts) + ": it no longer counts in the risk of the released table."


def sensitive_choice() -> str | None:
    """The column chosen on Classify, as stored (None: not chosen, use the first target)."""
    return session().get(SENSITIVE_KEY)


def set_sensitive(column: str | None) -> None:
    if session().get(SENSITIVE_KEY, "unset") == column:
        return
    session()[SENSITIVE_KEY] = column
    write(lambda ws: ws.set_setting("sensitive", column))


def k_target() -> int:
    return int(session().get(K_TARGET_KEY, 5))


def set_k_target(k: int) -> None:
    if session().get(K_TARGET_KEY) == int(k):
        return
    session()[K_TARGET_KEY] = int(k)
    write(lambda ws: ws.set_setting("k", int(k)))
