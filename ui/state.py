"""Session state and caching for the dashboard: the only module that touches them.

Pages stay thin: they read widgets, call these helpers and ``core``, and draw results.
The original table is stored once and never modified; every change is a recipe step,
and the current table is the recipe replayed on the original. Replays reuse the longest
already-computed prefix of the recipe, so adding a step costs one technique call and
undo costs nothing.
"""

from __future__ import annotations

import datetime as dt
import getpass
import io
import os
import secrets
import sqlite3
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from core._text import as_text
from core.errors import (
    AnonymisationError,
    AnonymisationWarning,
    ColumnNotFoundError,
    DataReadError,
    SecretError,
)
from core.formatting import fmt_count, fmt_probability
from core.hierarchy import Hierarchy, read_hierarchy
from core.io import read_table
from core.markup import code_span, escape_markdown
from core.recipe import (
    EditHistory,
    Recipe,
    RecipeResult,
    advance,
    describe_step,
    run_step,
    step_seed,
)
from core.release.bundle import (
    build_archive,
    build_bundle,
    population_tables,
    portable_name,
    stored_table_name,
    stored_tables,
)
from core.release.gate import ReleaseCheck, check_release, missing_rule
from core.release_targets import parse_targets
from core.risk import RiskReport, annex_d_risk, risk_report
from core.schema import Role, Suggestion, suggest_roles
from core.techniques.pseudonymisation import MIN_KEY_BYTES, require_key_env_name
from core.techniques.registry import resolve
from core.text_rescan import check_review
from core.workspace import Workspace, WorkspaceError, sha256_bytes, sha256_file
from core.workspace import default_path as default_workspace_path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_DIR = ROOT / "sample_data"
DEFAULT_SAMPLE = "singapore_people.csv"
MAX_UPLOAD_MB = 200
_PREFIX_CACHE_SIZE = 12


def _state() -> Any:
    return st.session_state


# --- the loaded table ---------------------------------------------------------------


def sample_files() -> list[str]:
    """The CSV files shipped in sample_data/, the default one first."""
    names = sorted(p.name for p in SAMPLE_DIR.glob("*.csv"))
    return sorted(names, key=lambda n: n != DEFAULT_SAMPLE)


@st.cache_data(show_spinner="Reading the sample table...")
def _read_sample(name: str) -> pd.DataFrame:
    return read_table(SAMPLE_DIR / name)


def load_startup_table() -> None:
    """The table the dashboard opens with: where the workspace left off (its data set,
    recipe, roles and settings), else $ANON_DATA if set, else the default sample.

    ``ANON_DATA=/path/to/file.csv bash scripts/start.sh`` opens your own file directly.
    """
    if restore_from_workspace():
        _mark_seen()
        return
    path = os.environ.get("ANON_DATA")
    if path:
        try:
            set_original(_read_path(path), Path(path).name, source_path=path)
            _mark_seen()
            return
        except AnonymisationError as error:
            st.error(
                f"ANON_DATA could not be opened: {escape_markdown(error)} "
                "The sample table is shown instead."
            )
    note = _state().get("restore_note")
    load_sample(DEFAULT_SAMPLE)
    if note:  # say why the sample is shown instead of the workspace's data set
        _state()["restore_note"] = note
    _mark_seen()


@st.cache_data(show_spinner="Reading the table...")
def _read_path(path: str) -> pd.DataFrame:
    return read_table(path)


def load_sample(name: str) -> None:
    """Load a sample table (cached across sessions; each session gets its own copy)."""
    set_original(_read_sample(name).copy(), name, source_path=str(SAMPLE_DIR / name))


def load_upload(data: bytes, name: str) -> None:
    """Read an uploaded file; on failure raise and keep the previous table loaded."""
    if len(data) > MAX_UPLOAD_MB * 1024 * 1024:
        raise AnonymisationError(
            f"'{name}' is larger than {MAX_UPLOAD_MB} MB. Use the command line "
            "(python -m core) for files this large, or upload a sample of it."
        )
    df = read_table(data, name=name)  # raises DataReadError with a clear message
    set_original(df, name, sha256=sha256_bytes(data))


def side_table(name: str, data: bytes | None = None) -> pd.DataFrame:
    """A second table next to the loaded data set, e.g. the area table of the Area-level
    risk page: a sample by file name, or the bytes of an upload (cached; a fresh copy each
    call; raises core.errors.DataReadError like the Data page). Never changes the data set.
    """
    if data is None:
        return _read_sample(name).copy()
    if len(data) > MAX_UPLOAD_MB * 1024 * 1024:
        raise AnonymisationError(f"'{name}' is larger than {MAX_UPLOAD_MB} MB.")
    return _read_side_upload(data, name).copy()


@st.cache_data(show_spinner="Reading the table...", max_entries=4)
def _read_side_upload(data: bytes, name: str) -> pd.DataFrame:
    return read_table(data, name=name)


def set_original(
    df: pd.DataFrame, name: str, *, source_path: str | None = None, sha256: str | None = None
) -> None:
    """Make ``df`` the original table; start a new recipe and new role suggestions.

    The workspace records the data set (its fingerprint and where it came from; the rows
    only if the user keeps a copy) and the new empty recipe; earlier ones stay in history.
    """
    _install_original(df, name)
    _state().pop("restore_note", None)  # the user chose a data set
    keep_rows = bool(_state().get(KEEP_ROWS_KEY))

    def record(ws: Workspace) -> None:
        with ws.transaction():
            file_sha = sha256 or (sha256_file(source_path) if source_path else None)
            sha = ws.add_dataset(
                df, name=name, source_path=source_path, sha256=file_sha, store_data=keep_rows
            )
            ws.set_setting(
                "current_data", {"sha256": sha, "name": name, "source_path": source_path}
            )
        _state()["data_sha256"] = sha
        if keep_rows or source_path:  # other sessions could read it back anyway
            _remember_table(sha, df)

    _write(record)
    _record_recipe(f"new data set {name!r}")


def _install_original(df: pd.DataFrame, name: str) -> None:
    state = _state()
    state["original"] = df
    state["source_name"] = name
    state["history"] = EditHistory(Recipe(seed=secrets.randbelow(2**31)))
    state["prefix_cache"] = {}
    # Random pseudonyms replay identically within this session (so a downloaded mapping
    # table always matches the data) from this secret, which is never written anywhere.
    state["pseudonym_secret"] = secrets.randbelow(2**62)
    state["suggestions"] = None  # suggested on first use (Classify), not before the preview
    state["roles"] = {}  # confirmed roles only: suggestions never apply themselves
    state[_SENSITIVE_KEY] = None  # it named a column of the previous table
    state.setdefault(_K_TARGET_KEY, 5)


def last_upload() -> tuple[str, str | None] | None:
    """(token, error message or None) of the last upload handled, so it is read only once."""
    return _state().get("last_upload")


def set_last_upload(token: str, error: str | None) -> None:
    _state()["last_upload"] = (token, error)


def forget_widget(key: str) -> None:
    """Drop a widget's stored value (e.g. a table editor's edits); call from a callback."""
    _state().pop(key, None)


def has_data() -> bool:
    return _state().get("original") is not None


def original() -> pd.DataFrame:
    return _state()["original"]


def source_name() -> str:
    return _state().get("source_name", "")


def data_set_id() -> str:
    """Which data set is loaded: its fingerprint (else its name), e.g. for widget keys."""
    return str(_state().get("data_sha256") or source_name())


def require_data() -> bool:
    """True when a table is loaded and its recipe can be replayed in this session.

    Otherwise show what is missing: a pointer to the Data page, or a form for a key the
    recipe needs that this session does not have (a recipe restored from the workspace
    keeps only the *name* of a typed key, never the key itself).
    """
    if not has_data():
        st.info("No table is loaded yet. Open **Data** (Step 0) to upload a file or pick a sample.")
        st.page_link("pages/1_data.py", label="Go to Data", icon=":material/upload_file:")
        return False
    missing = missing_keys()
    if missing:
        _ask_for_key(missing[0])
        return False
    return True


def missing_keys() -> list[str]:
    """The ``key_env`` names of the recipe with no key in this session or the environment."""
    names = dict.fromkeys(step["key_env"] for step in recipe().steps if step.get("key_env"))
    return [name for name in names if key_source(name) is None]


def _ask_for_key(name: str) -> None:
    st.error(
        f"The recipe pseudonymises with the HMAC key {code_span(name)}, which is not set in this "
        "session: keys are never stored in the workspace. Type it again (or set the "
        "environment variable before starting) to continue.",
        icon=":material/key:",
    )
    with st.form("missing_key_form"):
        typed = st.text_input(f"Key for {code_span(name)}", type="password", key="missing_key")
        if st.form_submit_button("Use this key in this session"):
            try:
                set_session_key(name, typed)
            except SecretError as error:
                st.error(escape_markdown(error))
            else:
                st.rerun()


# --- roles (Step 1) ---------------------------------------------------------------------


def suggestions() -> dict[str, Suggestion]:
    """The suggested role of each column of the original table (PDPC guide, Step 1),
    computed the first time a page asks: the Data page shows a large table without them."""
    state = _state()
    if state.get("suggestions") is None:
        if not has_data():
            return {}
        state["suggestions"] = {s.column: s for s in suggest_roles(original())}
    return state["suggestions"]


def roles() -> dict[str, Role]:
    """Confirmed roles; a column without one is treated as non-identifying."""
    return _state().get("roles", {})


def set_roles(new_roles: dict[str, Role]) -> None:
    _state()["roles"] = dict(new_roles)
    sha = _state().get("data_sha256")
    if sha:
        by_name = {str(c): r.value for c, r in new_roles.items()}
        _write(lambda ws: ws.set_roles(sha, by_name, author=_author()))


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


# Not "sensitive" / "k_target": those are the keys of the Classify page's widgets, and
# Streamlit drops a widget's value from the session when another page is shown.
_SENSITIVE_KEY = "sensitive_column"
# The recipe's not_quasi_identifiers, reviewed_text and targets (core.release_gate).
_DECISIONS_KEY = "release_decisions"
_REVIEWS_KEY = "text_reviews"
_TARGETS_KEY = "release_targets"
_K_TARGET_KEY = "k_target_value"


def sensitive_choice() -> str | None:
    """The column chosen on Classify, as stored (None: not chosen, use the first target)."""
    return _state().get(_SENSITIVE_KEY)


def set_sensitive(column: str | None) -> None:
    if _state().get(_SENSITIVE_KEY, "unset") == column:
        return
    _state()[_SENSITIVE_KEY] = column
    _write(lambda ws: ws.set_setting("sensitive", column))


def k_target() -> int:
    return int(_state().get(_K_TARGET_KEY, 5))


def set_k_target(k: int) -> None:
    if _state().get(_K_TARGET_KEY) == int(k):
        return
    _state()[_K_TARGET_KEY] = int(k)
    _write(lambda ws: ws.set_setting("k", int(k)))


# --- keys typed in this session (Step 2) -----------------------------------------------

_SESSION_KEYS = "session_keys"


def session_keys() -> dict[str, bytes]:
    """HMAC keys typed in this session, by the ``key_env`` name the recipe records.

    They live in this browser session's state only: never in ``os.environ`` (which every
    session of the server shares), a recipe, a report or a cache shared across sessions.
    """
    return _state().get(_SESSION_KEYS, {})


def set_session_key(key_env: str, key: str) -> None:
    """Keep ``key`` for this session under ``key_env`` (raises SecretError if unusable)."""
    name = require_key_env_name(key_env)
    encoded = key.encode("utf-8")
    if len(encoded) < MIN_KEY_BYTES:
        raise SecretError(
            f"The key is too short ({len(encoded)} bytes); type at least {MIN_KEY_BYTES}."
        )
    _state()[_SESSION_KEYS] = {**session_keys(), name: encoded}
    # Replays and downloads made with another key (or none) must not be reused.
    _state()["prefix_cache"] = {}
    _state()["memo"] = {}


def key_source(key_env: str) -> str | None:
    """Where the key named ``key_env`` would come from: "session", "environment" or None.

    Only for a valid key name (``ANON_...``, raises SecretError otherwise), so the page can
    never be used to learn whether some other variable of the server (HOME, PATH) is set.
    """
    name = require_key_env_name(key_env)
    if name in session_keys():
        return "session"
    return "environment" if os.environ.get(name) else None


# --- recipe and replay (Steps 2-3) ------------------------------------------------------


def history() -> EditHistory:
    return _state()["history"]


def recipe() -> Recipe:
    return history().current


def add_step(step: dict[str, Any]) -> None:
    """Append a step after checking it runs; raises AnonymisationError otherwise."""
    new = recipe().add(step)
    _replay(new)  # fails here, before the history changes, if the step cannot run
    history().push(new)
    _record_recipe(f"add step {len(new.steps)}: {new.steps[-1].get('step', '?')}")


def replace_recipe(new: Recipe, message: str = "recipe replaced") -> None:
    _replay(new)
    history().push(new)
    _record_recipe(message)


def _replay(target: Recipe) -> RecipeResult:
    """Apply ``target`` to the original, reusing cached prefixes of earlier replays."""
    state = _state()
    cache: dict[tuple, RecipeResult] = state.setdefault("prefix_cache", {})
    steps = target.steps
    seed = target.seed or 0
    keys = [(seed, repr(steps[:i])) for i in range(len(steps) + 1)]
    start = max((i for i, key in enumerate(keys) if key in cache), default=0)
    current = cache.setdefault(keys[start], RecipeResult(original(), {}, {}, (), seed))
    stored, tables = StoredHierarchies(), _stored_tables(steps[start:])
    for position in range(start + 1, len(steps) + 1):
        current = advance(
            current,
            steps[position - 1],
            position,
            base_dir=ROOT,
            pseudonym_seed=state["pseudonym_secret"],
            keys=session_keys(),
            hierarchies=stored,
            tables=tables,
        )
        cache[keys[position]] = current
    while len(cache) > _PREFIX_CACHE_SIZE:  # forget the oldest prefixes
        cache.pop(next(iter(cache)))
    return current


def current() -> RecipeResult:
    """The recipe so far, replayed on the original table."""
    return _replay(recipe())


def current_data() -> pd.DataFrame:
    return current().data


@dataclass(frozen=True)
class StepPreview:
    """What one more step would do, without adding it to the recipe."""

    data: pd.DataFrame
    seed: int | None  # the seed it would get as the next step (random steps only)
    warnings: tuple[str, ...]


def next_step_seed(step: dict[str, Any]) -> int | None:
    """The seed ``step`` gets if appended to the recipe (None if it is not random)."""
    position = len(recipe().steps) + 1
    if not resolve(step, position=position).random:
        return None
    return step_seed(recipe().seed or 0, position, step)


def preview_step(step: dict[str, Any]) -> StepPreview:
    """Run ``step`` on the current table as the next step would run; nothing is stored.

    Raises AnonymisationError like :func:`add_step`; warnings (e.g. small cells) are returned.
    """
    seed = next_step_seed(step)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AnonymisationWarning)
        data, _ = run_step(
            current_data(),
            step,
            seed=seed,
            base_dir=ROOT,
            keys=session_keys(),
            hierarchies=StoredHierarchies(),
            tables=_stored_tables([step]),
        )
    return StepPreview(data, seed, tuple(str(w.message) for w in caught))


def undo() -> None:
    history().undo()
    _record_recipe("undo")


def redo() -> None:
    history().redo()
    _record_recipe("redo")


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
    cache = _state().setdefault("risk_cache", {})
    if key not in cache or (impact and not cache[key][2]):
        if len(cache) > 8:
            cache.clear()
        report = risk_report(data, qi, k_threshold=k_target(), sensitive=sensitive, impact=impact)
        # The table is kept with its report so that its id cannot be reused meanwhile.
        cache[key] = (data, report, impact)
    return cache[key][1]


ANNEX_D_DEFAULTS = {
    "controls": "medium",
    "motivation": "medium",
    "acquaintance": 0.0,
    "breach": 0.0,
    "harm": "medium",
}


def annex_d_settings() -> dict[str, Any]:
    return {**ANNEX_D_DEFAULTS, **_state().get("annex_d", {})}


def set_annex_d_settings(**settings: Any) -> None:
    new = {**annex_d_settings(), **settings}
    if _state().get("annex_d") == new:
        return
    _state()["annex_d"] = new
    _write(lambda ws: ws.set_setting("annex_d", _state()["annex_d"]))


# Not "insider_table": that is the key of the Risk page's table editor widget.
_INSIDER_TABLE_KEY = "annex_d_insider_table"


def insider_table() -> dict[str, dict[str, float]] | None:
    return _state().get(_INSIDER_TABLE_KEY)


def set_insider_table(table: dict[str, dict[str, float]] | None) -> None:
    _state()[_INSIDER_TABLE_KEY] = table


def current_annex_d():
    report = current_risk()
    if report is None or report.k == 0:
        return None
    settings = annex_d_settings()
    return annex_d_risk(report.k, insider_table=insider_table(), **settings)


# --- release (Step 5) -------------------------------------------------------------------


def use_case() -> str:
    """The release use case chosen on the Report page (a key of core.report.USE_CASES)."""
    return _state().get("release_use_case") or recipe().meta.get("use_case") or "external"


def set_use_case(name: str) -> None:
    """Keep the use case chosen; the Report calls this on every run, so the one already in
    force (the default on a first visit) is no change and writes no audit entry."""
    if use_case() == name:
        return
    _state()["release_use_case"] = name
    _write(lambda ws: ws.set_setting("use_case", name))


def release_decisions() -> dict[str, str]:
    """Columns Step 1 doubts that are not quasi-identifiers, with the reason recorded on the
    Report page (the recipe's ``not_quasi_identifiers``; core.release_gate)."""
    columns = set(map(str, original().columns)) if has_data() else set()
    return {c: r for c, r in (_state().get(_DECISIONS_KEY) or {}).items() if c in columns}


def set_release_decision(column: str, reason: str | None) -> None:
    """Record (or, with no reason, withdraw) why ``column`` is not a quasi-identifier."""
    decisions = dict(_state().get(_DECISIONS_KEY) or {})
    if reason and reason.strip():
        decisions[str(column)] = " ".join(reason.split())
    else:
        decisions.pop(str(column), None)
    if decisions == (_state().get(_DECISIONS_KEY) or {}):
        return
    _state()[_DECISIONS_KEY] = decisions
    _write(lambda ws: ws.set_setting("not_quasi_identifiers", decisions))


def column_fingerprint(values: pd.Series) -> str:
    """The sha256 of a column's values as text: a review holds for the text it read."""
    text = as_text(values).fillna("\x00")
    return sha256_bytes("\x1f".join(text.tolist()).encode("utf-8", "surrogatepass"))


def text_reviews() -> dict[str, dict[str, Any]]:
    """The recorded reviews of redacted free-text columns that still hold: those whose
    column, as the current recipe releases it, is the text that was read."""
    stored = _state().get(_REVIEWS_KEY) or {}
    data = current_data()
    return {
        column: {k: review[k] for k in ("by", "at", "rows_checked")}
        for column, review in stored.items()
        if column in data.columns and review.get("fingerprint") == column_fingerprint(data[column])
    }


def set_text_review(column: str, *, by: str, rows_checked: int) -> None:
    """Record that ``by`` read ``rows_checked`` cells of the redacted column as released
    now (who, when, how many: PDPC guide, Step 2); checked by core.text_rescan."""
    at = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    review = check_review(column, {"by": by, "at": at, "rows_checked": int(rows_checked)})
    review["fingerprint"] = column_fingerprint(current_data()[column])
    reviews = {**(_state().get(_REVIEWS_KEY) or {}), str(column): review}
    _state()[_REVIEWS_KEY] = reviews
    _write(lambda ws: ws.set_setting("reviewed_text", reviews))


def release_targets() -> dict[str, Any]:
    """The privacy-model targets of the release (the recipe's ``targets``)."""
    return dict(_state().get(_TARGETS_KEY) or {})


def set_release_targets(targets: dict[str, Any]) -> None:
    """Keep the targets chosen on the Report page (checked first: core.release_targets)."""
    parse_targets(targets)
    if targets == release_targets():
        return
    _state()[_TARGETS_KEY] = dict(targets)
    _write(lambda ws: ws.set_setting("targets", dict(targets)))


def release_recipe() -> Recipe:
    """The recipe with what the release is about: quasi-identifiers, sensitive, k, use case,
    and the decisions, reviews and targets the release check reads."""
    meta: dict[str, Any] = {
        "quasi_identifiers": quasi_identifiers(original()),
        "k": k_target(),
        "use_case": use_case(),
    }
    sensitive = sensitive_column(original())
    if sensitive is not None:
        meta["sensitive"] = sensitive
    extra = {
        "not_quasi_identifiers": release_decisions(),
        "reviewed_text": text_reviews(),
        "targets": release_targets(),
    }
    meta.update({key: value for key, value in extra.items() if value})
    return recipe().with_meta(**meta)


def release_result() -> RecipeResult:
    """The current replay as a core.recipe.RecipeResult, for core.report.build_report."""
    return current()


def release_check() -> ReleaseCheck:
    """The release gate (core.release_gate) on the current replay, with this session's
    roles, sensitive column, target k and Annex D settings (cached per recipe and settings).
    """
    table = original()
    quasi = quasi_identifiers(table)
    direct = columns_with_role(Role.DIRECT, table)
    sensitive = sensitive_column(table)
    annex_d = {**annex_d_settings(), "insider_table": insider_table()}
    confirmed = roles_confirmed()
    decisions, reviews, targets = release_decisions(), text_reviews(), release_targets()

    def compute() -> ReleaseCheck:
        return check_release(
            table,
            current_data(),
            steps=len(recipe().steps),
            quasi_identifiers=quasi,
            direct_identifiers=direct,
            sensitive=sensitive,
            k_target=k_target(),
            annex_d=annex_d,
            roles_confirmed=confirmed,
            missing=missing_rule(recipe().steps),
            recipe_steps=recipe().steps,
            mappings=current().mappings,
            suggestions=list(suggestions().values()),
            not_quasi_identifiers=decisions,
            reviewed_text=reviews,
            targets=targets,
        )

    settings = (
        tuple(quasi),
        tuple(direct),
        sensitive,
        k_target(),
        repr(annex_d),
        confirmed,
        repr(decisions),
        repr(reviews),
        repr(targets),
    )
    return memo("release_check", compute, *settings)


def memo(name: str, compute: Callable[[], Any], *extra: Hashable) -> Any:
    """Compute something derived from the current recipe once per recipe (and ``extra``).

    Reruns that do not change the recipe (ticking a checkbox, typing a name) then reuse
    heavy results such as the utility report or the bytes of a download.
    """
    current_recipe = recipe()
    key = (name, current_recipe.seed, repr(current_recipe.steps), *extra)
    cache: dict = _state().setdefault("memo", {})
    if key not in cache:
        if len(cache) > 24:
            cache.pop(next(iter(cache)))
        cache[key] = compute()
    return cache[key]


# --- trade-off explorer (Step 3) --------------------------------------------------------


def tradeoff_result() -> Any:
    """The last search of the Explore trade-offs page: (SearchResult, hierarchies) or None."""
    return _state().get("tradeoff_result")


def set_tradeoff_result(result: Any) -> None:
    _state()["tradeoff_result"] = result
    _state().pop("local_recoding", None)  # it belonged to the previous search


def local_recoding_result(key: Any) -> Any:
    """The Explore trade-offs page's local recoding of one option (``key`` names the search
    and the option), or None when it was made for another or not yet."""
    stored = _state().get("local_recoding")
    return stored[1] if stored is not None and stored[0] == key else None


def set_local_recoding_result(key: Any, result: Any) -> None:
    _state()["local_recoding"] = (key, result)


class StoredHierarchies(Mapping[str, str]):
    """The workspace's hierarchies (name -> text), read once, when a step first names one.

    Recipe steps name hierarchies; the dashboard gives their text from the workspace to
    the replay (core.recipe ``hierarchies``) and never writes a hierarchy file: a name in a
    workspace someone sent is not a path to write to (issue 27), and hierarchies built from
    the data hold original values that must not sit in clear in the working folder
    (issue 25). A name the workspace does not hold (a shipped sample hierarchy) is read
    from disk as the recipe gives it.
    """

    def __init__(self) -> None:
        self._texts: dict[str, str] | None = None

    def _loaded(self) -> dict[str, str]:
        if self._texts is None:
            try:
                with open_workspace() as ws:
                    self._texts = ws.hierarchies()
            except WorkspaceError:
                self._texts = {}
        return self._texts

    def __getitem__(self, name: str) -> str:
        return self._loaded()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())


def save_hierarchy(column: str, hierarchy: Hierarchy) -> str:
    """Keep a hierarchy that a recipe step refers to in the workspace (its text, under a
    name made from its content); return the name the step records. No file is written."""
    text = hierarchy.levels.to_csv(sep=";", header=False, index=False)
    name = portable_name(column, text)
    _write(lambda ws: ws.put_hierarchy(name, text, column=column))
    return name


def save_population_table(data: bytes, name: str) -> str:
    """Keep an uploaded population table in the workspace (its rows, as a data set known by
    the upload's sha256), where a k-map step reads it when the recipe replays; return the
    name the step records (core.bundle.stored_table_name). No file is written: the table
    holds a population's records, which must not sit in clear in the working folder
    (issue 25). Raises WorkspaceError if the workspace cannot keep it."""
    table = side_table(name, data)
    digest = sha256_bytes(data)
    _write_through(
        lambda ws: ws.add_dataset(
            table, name=f"population table {name}", sha256=digest, store_data=True
        )
    )
    return stored_table_name(digest)


def _stored_tables(steps: Sequence[Mapping[str, Any]]) -> dict[str, pd.DataFrame]:
    """The population tables ``steps`` name that the workspace keeps (opened only then)."""
    steps_recipe = Recipe(tuple(steps))
    if not population_tables(steps_recipe):
        return {}
    try:
        with open_workspace() as ws:
            return stored_tables(ws, steps_recipe)
    except WorkspaceError:
        return {}  # the step then says it cannot read its table


_CHOICES = "tradeoff_hierarchies"


def hierarchy_choices() -> dict[str, dict[str, Any]]:
    """Per column, the hierarchy chosen on Explore trade-offs (kind, parameters, and the
    name of an uploaded one in the workspace): they survive page changes and restarts."""
    return dict(_state().get(_CHOICES) or {})


#: The hierarchy a column gets until the user chooses one (the page's first option).
_DEFAULT_CHOICE = {"kind": "auto"}


def set_hierarchy_choice(column: str, choice: dict[str, Any]) -> None:
    """Keep ``column``'s hierarchy choice; only a real change is written (and audited):
    the page calls this on every rerun, and a column still on the default is no change."""
    before = hierarchy_choices()
    if before.get(column, _DEFAULT_CHOICE) == choice:
        return
    choices = {**before, column: choice}
    _state()[_CHOICES] = choices
    _write(lambda ws: ws.set_setting(_CHOICES, choices))


def keep_uploaded_hierarchy(column: str, data: bytes) -> str:
    """Keep an uploaded ARX hierarchy (its text) in the workspace; return its name."""
    hierarchy = read_hierarchy(io.BytesIO(data))  # raises DataReadError if unreadable
    return save_hierarchy(column, hierarchy)


def stored_hierarchy(name: str) -> Hierarchy:
    """A hierarchy kept in the workspace, read back (never a file a stored name points at)."""
    text = StoredHierarchies().get(name)
    if text is None:
        raise DataReadError(f"The hierarchy {name!r} is not in this workspace: upload it again.")
    return read_hierarchy(io.StringIO(text))


# --- the workspace ------------------------------------------------------------------------
#
# One SQLite file (core.workspace) is the project's record: every change of data, roles,
# recipe and settings is written through to it, a new session (a restart) starts from it,
# and every rerun takes over what changed in it (see "following the workspace" below).
# The session keeps working copies only (the table, the replay cache).

KEEP_ROWS_KEY = "keep_rows_in_workspace"


def keep_rows() -> bool:
    """Whether the workspace keeps a copy of the data set's rows (compressed Parquet)."""
    return bool(_state().get(KEEP_ROWS_KEY))


def set_keep_rows(keep: bool) -> None:
    """Keep (or not) the rows of data sets loaded from now on; when turned on, the loaded
    data set's rows are stored at once, so an uploaded table survives a restart."""
    if keep == keep_rows():
        return
    _state()[KEEP_ROWS_KEY] = keep
    _write(lambda ws: ws.set_setting("keep_rows", keep))
    sha = _state().get("data_sha256")
    if keep and sha and has_data():
        _write(
            lambda ws: ws.add_dataset(original(), name=source_name(), sha256=sha, store_data=True)
        )
        _remember_table(sha, original())


def workspace_path() -> Path:
    """The session's workspace: the one opened on History, else $ANON_WORKSPACE, else
    ``workspace.anon.db`` in the working folder."""
    return Path(_state().get("workspace_path") or default_workspace_path())


def open_workspace() -> Workspace:
    """The workspace, opened for one use (``with state.open_workspace() as ws:``)."""
    return Workspace(workspace_path())


def _author() -> str:
    """Who acted: the dashboard has no log-in, so the account running it."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _write(action: Callable[[Workspace], Any]) -> Any:
    """Write through to the workspace. If it cannot be written, say so in the sidebar;
    the session's work goes on (and nothing half-written is left: one transaction)."""
    try:
        return _write_through(action)
    except WorkspaceError as error:
        _state()["workspace_error"] = str(error)
        return None


def _write_through(action: Callable[[Workspace], Any]) -> Any:
    """:func:`_write` for a caller that must know it failed: raises what the write raised."""
    seen = None
    with open_workspace() as ws, ws.transaction():
        # If nothing else wrote since this session last looked, what it sees now is
        # its own write: remember it, so the next rerun does not reload it.
        up_to_date = _state().get(_SEEN_AT) == _revision_key(ws)
        result = action(ws)
        if up_to_date:
            seen = (_snapshot(ws), _revision_key(ws))
    if seen is not None:
        _state()[_SEEN], _state()[_SEEN_AT] = seen
    _state().pop("workspace_error", None)
    return result


def _record_recipe(message: str) -> None:
    text = recipe().to_yaml()

    def record(ws: Workspace) -> None:
        with ws.transaction():
            version = ws.add_recipe_version(text, message=message, author=_author())
            ws.set_setting("current_recipe", version.id)
            _point_at_own_data_set(ws)

    _write(record)


def _point_at_own_data_set(ws: Workspace) -> None:
    """Point the workspace at this session's data set too: the recipe pointer belongs to
    the data set pointer, so the last writer sets both and no session ever takes over a
    recipe made for another table (e.g. after it kept its own table when another tab
    opened one whose rows it could not read)."""
    sha = _state().get("data_sha256")
    if not sha or (ws.settings().get("current_data") or {}).get("sha256") == sha:
        return
    known = next((d for d in ws.datasets() if d["sha256"] == sha), None)
    if known is not None:
        ws.set_setting(
            "current_data",
            {"sha256": sha, "name": known["name"], "source_path": known["source_path"]},
        )


def switch_workspace(path: str) -> None:
    """Open (or create) the workspace at ``path`` and continue from what it holds."""
    Workspace(path).close()  # raises WorkspaceError with a clear message; nothing changes
    state = _state()
    for key in (
        "original",
        "history",
        "roles",
        "data_sha256",
        _CHOICES,
        "tradeoff_result",
        "local_recoding",
        "memo",
        "risk_cache",
        "prefix_cache",
    ):
        state.pop(key, None)
    state["workspace_path"] = str(path)
    state.pop(_SEEN_AT, None)
    if not restore_from_workspace():
        load_sample(DEFAULT_SAMPLE)
    _mark_seen()


def restore_from_workspace() -> bool:
    """Continue where the workspace left off: its data set, recipe, roles and settings.

    False if it holds no data set yet, or its rows are neither stored nor at the recorded
    path with the same content (then the user loads the data again).
    """
    try:
        with open_workspace() as ws:
            settings = ws.settings()
            current = settings.get("current_data")
            if not current:
                return False
            df = _rows_of(ws, current)
            if df is None:
                _state()["restore_note"] = (
                    f"The workspace remembers the data set {current['name']!r}, but its rows "
                    "are not stored and its file was not found: load it again on Data."
                )
                return False
            version = settings.get("current_recipe")
            recipe_text = ws.recipe_version(version).yaml if version else None
            roles_saved = ws.roles(current["sha256"])
    except (WorkspaceError, AnonymisationError) as error:
        _state()["workspace_error"] = str(error)
        # said beside the table shown instead (a later write may clear workspace_error)
        _state()["restore_note"] = f"The workspace could not be read: {error}"
        return False
    _install_original(df, current["name"])
    state = _state()
    state.pop("restore_note", None)
    state["data_sha256"] = current["sha256"]
    if recipe_text:
        state["history"] = EditHistory(Recipe.from_yaml(recipe_text))
    _set_roles_from(roles_saved)
    _apply_settings(settings, set(_FOLLOWED_SETTINGS))
    state[_CHOICES] = settings.get(_CHOICES, {})
    state[KEEP_ROWS_KEY] = bool(settings.get("keep_rows"))
    return True


def _rows_of(ws: Workspace, data_set: dict[str, Any]) -> pd.DataFrame | None:
    """The rows of a data set the workspace points at: already in memory (by sha256), else
    stored in the workspace, else its recorded file if that still has the same content."""
    sha = data_set["sha256"]
    path = Path(data_set["source_path"]) if data_set.get("source_path") else None
    on_disk = path is not None and path.is_file() and sha256_file(path) == sha
    stored = any(known["sha256"] == sha and known["stored"] for known in ws.datasets())
    if not (stored or on_disk):
        return None  # also when this server still has it in memory: not this workspace's
    df = _remembered_table(sha)
    if df is None:
        df = ws.dataset_table(sha) if stored else read_table(path)
    if df is not None:
        _remember_table(sha, df)
        df = df.copy()  # each session its own copy
    return df


def _set_roles_from(saved: dict[str, str]) -> None:
    columns = original().columns
    _state()["roles"] = {c: Role(r) for c, r in saved.items() if c in columns}


#: Workspace settings a session follows, and the session key each is kept under.
_FOLLOWED_SETTINGS = {
    "k": _K_TARGET_KEY,
    "sensitive": _SENSITIVE_KEY,
    "annex_d": "annex_d",
    "use_case": "release_use_case",
    _CHOICES: _CHOICES,
    "keep_rows": KEEP_ROWS_KEY,
    "not_quasi_identifiers": _DECISIONS_KEY,
    "reviewed_text": _REVIEWS_KEY,
    "targets": _TARGETS_KEY,
}


# The pages' widgets that show a followed setting: a widget keeps its own value across
# reruns and the page writes it back, so when another session changed the setting they are
# dropped, to be drawn again from the new value instead of writing the old one back.
_WIDGETS_SHOWING = {
    "k": ("k_target", "risk_k_target"),
    "sensitive": ("sensitive", "risk_sensitive"),
    "annex_d": ("controls", "motivation", "acquaintance", "breach", "harm", "harm_custom"),
    "use_case": ("use_case",),
    "keep_rows": ("data_keep_rows",),
}
# ... and those named by a prefix and the column (Explore trade-offs' hierarchy choices,
# Classify's role pickers).
_WIDGET_PREFIXES_SHOWING = {_CHOICES: ("to_kind_", "to_w_", "to_map_")}
_ROLE_PICKERS = ("role_pick_",)


def _forget_widgets_starting(prefixes: tuple[str, ...]) -> None:
    state = _state()
    for widget in [name for name in state if str(name).startswith(prefixes)]:
        state.pop(widget, None)


def _apply_settings(settings: dict[str, Any], keys: set[str]) -> None:
    """Copy the workspace's ``settings`` named in ``keys`` (those it has) into the session."""
    for key in keys & settings.keys():
        value = settings[key]
        if key == "k":
            value = int(value)
        elif key == "keep_rows":
            value = bool(value)
        _state()[_FOLLOWED_SETTINGS[key]] = value


# --- following the workspace on every rerun --------------------------------------------
#
# The workspace is the single source of truth of the state (data set pointer, recipe
# version, roles, settings, hierarchies). Every rerun compares the workspace's revision
# (the id of its last audit entry) with the one this session last saw; only when it moved
# does the session read the state again, and it takes over what changed *there* since
# (another tab, another session or the CLI): last writer wins, and the session is told.
# What is expensive stays cached: tables by sha256 (never re-read on a rerun), replays by
# recipe content (the prefix cache). HMAC keys typed in a session are never in the
# workspace: a recipe taken over that needs one asks for it (require_data).

_SEEN = "workspace_seen"  # the followed state as this session last saw it
_SEEN_AT = "workspace_seen_at"  # (workspace file, revision) it was seen at
_SYNC_NOTE = "workspace_sync_note"

# Tables by the sha256 the workspace knows them by, shared by the sessions of this server
# (each gets a copy), so a session following another one's data set does not re-read it.
# Only tables the workspace could give back (rows kept, or a file on disk): the rows of an
# upload the user chose not to keep stay in the session that uploaded them.
_TABLES: OrderedDict[str, pd.DataFrame] = OrderedDict()
_TABLES_LOCK = threading.Lock()
_TABLES_KEPT = 4


def _remember_table(sha: str, df: pd.DataFrame) -> None:
    with _TABLES_LOCK:
        _TABLES[sha] = df
        _TABLES.move_to_end(sha)
        while len(_TABLES) > _TABLES_KEPT:
            _TABLES.popitem(last=False)


def _remembered_table(sha: str) -> pd.DataFrame | None:
    with _TABLES_LOCK:
        return _TABLES.get(sha)


def _revision_key(ws: Workspace) -> tuple[str, int]:
    return (str(ws.path), ws.revision())


def _snapshot(ws: Workspace) -> dict[str, Any]:
    """The followed state as the workspace holds it now (a few small queries)."""
    settings = ws.settings()
    data_set = settings.get("current_data") or {}
    version = settings.get("current_recipe")
    return {
        "settings": settings,
        "roles": ws.roles(data_set["sha256"]) if data_set else None,
        "recipe": ws.recipe_version(version).yaml if version else None,
        "hierarchies": sorted(ws.hierarchy_columns()),
    }


def _mark_seen() -> None:
    """Remember the workspace's state as this session's starting point."""
    try:
        with open_workspace() as ws:
            _state()[_SEEN], _state()[_SEEN_AT] = _snapshot(ws), _revision_key(ws)
    except WorkspaceError as error:
        _state()["workspace_error"] = str(error)


def sync_with_workspace() -> None:
    """Run first on every rerun: open the startup table if none is loaded, else take over
    what changed in the workspace since this session last looked (cheap when nothing did).
    """
    if not has_data():
        load_startup_table()
        return
    state = _state()
    try:
        with open_workspace() as ws:
            at = _revision_key(ws)
            if state.get(_SEEN_AT) == at:
                return
            snapshot = _snapshot(ws)
            notes = _follow(ws, snapshot, state.get(_SEEN) or {})
    except (WorkspaceError, AnonymisationError) as error:
        state["workspace_error"] = str(error)
        return
    state[_SEEN], state[_SEEN_AT] = snapshot, at
    if notes:
        state[_SYNC_NOTE] = " ".join(notes)


def _follow(ws: Workspace, now: dict[str, Any], seen: dict[str, Any]) -> list[str]:
    """Take over into the session what differs between the workspace's state ``now`` and
    the state this session ``seen`` last; return what to tell the user."""
    state = _state()
    settings, before = now["settings"], seen.get("settings", {})
    data_set = settings.get("current_data")
    sha = data_set["sha256"] if data_set else None
    seen_sha = (before.get("current_data") or {}).get("sha256")
    notes = []
    data_changed = False
    if data_set and sha != seen_sha and sha != state.get("data_sha256"):
        df = _rows_of(ws, data_set)
        if df is None:
            return [
                f"Another session opened the data set '{data_set['name']}', whose rows "
                "are neither stored in the workspace nor found at their recorded path: "
                f"this session keeps working on '{source_name()}'."
            ]
        _install_original(df, data_set["name"])
        state["data_sha256"] = sha
        state.pop("restore_note", None)
        notes.append(f"The data set changed in another session: now '{data_set['name']}'.")
        data_changed = True
        seen = {}  # everything below belongs to the new data set: take it all
        before = {}
    if sha != state.get("data_sha256"):
        return notes  # the workspace's roles and recipe are about another data set
    if now["recipe"] is not None and now["recipe"] != seen.get("recipe"):
        theirs = Recipe.from_yaml(now["recipe"])
        if theirs.to_yaml() != recipe().to_yaml():
            history().push(theirs)  # undo goes back to this session's recipe
            if not data_changed:  # a new data set comes with its recipe: said once
                notes.append(
                    "The recipe changed in another session: now version "
                    f"{settings['current_recipe']}."
                )
    if now["roles"] is not None and now["roles"] != seen.get("roles"):
        _set_roles_from(now["roles"])
        _forget_widgets_starting(_ROLE_PICKERS)
    changed = {key for key in _FOLLOWED_SETTINGS if settings.get(key) != before.get(key)}
    _apply_settings(settings, changed)
    for key in changed & settings.keys():
        for widget in _WIDGETS_SHOWING.get(key, ()):
            state.pop(widget, None)
        _forget_widgets_starting(_WIDGET_PREFIXES_SHOWING.get(key, ()))
    return notes


def _prepared_recipe() -> tuple[Recipe, dict[str, str]]:
    """The prepared release's recipe and hierarchies as its record holds them (hierarchies
    by content, see core.bundle; the seed used): what its bundle and archive carry."""
    prepared = _state()[_PREPARED]
    return prepared["recipe"], prepared["hierarchies"]


def release_bundle(report: Any, data_bytes: bytes, fmt: str, result: RecipeResult) -> bytes:
    """The recipient's bundle (core.bundle) of the prepared release, as a zip: no original
    value, hierarchies as rules, no identity mapping table."""
    portable, hierarchies = _prepared_recipe()
    return build_bundle(
        released=data_bytes,
        released_name=f"released.{fmt}",
        recipe=portable,
        hierarchies=hierarchies,
        report=report,
        made_mappings=bool(result.mappings or result.linking),
        original=original(),
        released_table=result.data,
        k=k_target(),
    ).to_zip()


def release_archive(
    report: Any, data_bytes: bytes, fmt: str, encrypted_mappings: dict[str, bytes]
) -> bytes:
    """The internal reproduction archive (core.bundle) of the current release, as a zip:
    every hierarchy file and the encrypted identity tables (personal data)."""
    portable, hierarchies = _prepared_recipe()
    return build_archive(
        released=data_bytes,
        released_name=f"released.{fmt}",
        recipe=portable,
        hierarchies=hierarchies,
        report=report,
        encrypted_mappings=encrypted_mappings,
    ).to_zip()


_PREPARED = "prepared_release"


def _release_key(data_bytes: bytes, fmt: str, acknowledged: bool, signed: Mapping[str, str]) -> str:
    """What a prepared release stands for: the recipe as released (with its decisions and
    targets), its seed, the data set, the released bytes and their format, a "release
    anyway" and the sign-off. Any change makes the prepared downloads stale."""
    parts = [
        release_recipe().to_yaml(),
        current().seed,
        _state().get("data_sha256"),
        sha256_bytes(data_bytes),
        fmt,
        acknowledged,
        sorted(signed.items()),
    ]
    return sha256_bytes(repr(parts).encode("utf-8"))


def prepared_release(
    data_bytes: bytes, fmt: str, acknowledged: bool, signed: Mapping[str, str]
) -> dict[str, Any] | None:
    """The release recorded for these downloads (its anchor and whether it was new), or
    None: not prepared yet, or prepared for another recipe, format or sign-off."""
    prepared = _state().get(_PREPARED)
    if prepared and prepared["key"] == _release_key(data_bytes, fmt, acknowledged, signed):
        return prepared
    return None


def stale_release() -> int | None:
    """The id of the release prepared earlier in this session (for a note once the recipe
    or sign-off changed: its downloads are withdrawn), or None."""
    prepared = _state().get(_PREPARED)
    return prepared["anchor"]["release"] if prepared else None


def prepare_release(
    report: dict[str, Any], data_bytes: bytes, fmt: str, acknowledged: bool
) -> str | None:
    """Record the release in the workspace before any of its files is offered (issue 27):
    the record made by ``apply`` (core.release_record), once per output and recipe
    version, with the sign-off typed on the page. Returns None, or the one-line reason it
    could not be recorded (then nothing is offered)."""
    from core.release.record import record_once

    signed = dict(report.get("sign_off") or {})
    data_sha = _state().get("data_sha256")
    try:
        with open_workspace() as ws:
            current_data_set = ws.settings().get("current_data") or {}
    except (AnonymisationError, sqlite3.Error) as error:
        return _one_line(error)
    source = current_data_set.get("source_path")
    source = source if source and Path(source).is_file() else None

    def record(ws: Workspace) -> Any:
        return record_once(
            ws,
            original=original(),
            data_path=source,
            recipe=release_recipe(),
            result=current(),
            output_sha256=sha256_bytes(data_bytes),
            output_name=f"released.{fmt}",
            base_dir=ROOT,
            quasi_identifiers=quasi_identifiers(original()),
            report=report,
            author=_author(),
            annex_d=annex_d_settings(),
            data_sha256=data_sha,
            sign_off=signed,
        )

    try:
        done = _write_through(record)
    except (AnonymisationError, sqlite3.Error, OSError) as error:
        return _one_line(error)
    _state()[_PREPARED] = {
        "key": _release_key(data_bytes, fmt, acknowledged, signed),
        "anchor": done.anchor,
        "new": done.new,
        "recipe": done.recipe,
        "hierarchies": done.hierarchies,
    }
    return None


def _one_line(error: BaseException) -> str:
    """An error as the one line the page shows (a library's own text may span lines)."""
    return " ".join(str(error).split()) or type(error).__name__


def dp_ledger() -> dict[str, Any] | None:
    """The workspace's differential-privacy budget and the charges released so far."""
    try:
        with open_workspace() as ws:
            return ws.dp_budget()
    except WorkspaceError as error:
        _state()["workspace_error"] = str(error)
        return None


def record_dp_release(
    epsilon: float, delta: float, charges: list[tuple[str, float, float]], about: dict[str, Any]
) -> None:
    """Charge a released noisy table's queries to the workspace's budget (download callback);
    the budget is then spent for every later session too (sequential composition)."""

    def record(ws: Workspace) -> None:
        with ws.transaction():
            ws.set_dp_budget(epsilon, delta)
            if charges:
                ws.add_dp_charges(charges, about=about)

    try:
        with open_workspace() as ws:
            record(ws)
    except AnonymisationError as error:  # e.g. the budget was spent meanwhile elsewhere
        _state()["workspace_error"] = str(error)


def work_at_stake() -> str | None:
    """What replacing the data set would set aside, in words (None: nothing worth asking)."""
    if not has_data():
        return None
    steps, confirmed = len(recipe().steps), len(roles())
    if not steps and not confirmed:
        return None
    # The name comes from the data's owner: escaped, as it is shown in Markdown.
    return (
        f"the data set '{escape_markdown(source_name())}' with its recipe ({steps} "
        f"step(s)) and {confirmed} confirmed role(s)"
    )


def ask_before_replacing(
    key: str, label: str, action: Callable[[], None], on_click: Callable[[], None] | None = None
) -> None:
    """A button whose ``action`` replaces the data set or recipe: if work would be set
    aside, it asks first (the old state stays in the workspace's history either way).
    ``on_click`` runs as the button's callback, before the script (e.g. to set a widget)."""
    asking = f"{key}_confirm"
    if st.button(label, key=key, on_click=on_click):
        if work_at_stake() is None:
            action()
            return
        _state()[asking] = True
    if not _state().get(asking):
        return
    stake = work_at_stake()
    if stake is None:  # nothing at stake any more (e.g. the data was replaced meanwhile)
        _state().pop(asking, None)
        return
    st.warning(
        f"This replaces {stake}. They stay in the workspace's history (History page). Continue?",
        icon=":material/help:",
    )
    yes, no = st.columns(2)
    if yes.button("Yes, replace", key=f"{key}_yes", type="primary"):
        _state().pop(asking, None)
        action()
    if no.button("Cancel", key=f"{key}_no"):
        _state().pop(asking, None)
        st.rerun()


def recipe_label() -> str:
    """Which table a page works on, in words: "the original table" or "the table after
    7 recipe steps"."""
    steps = len(recipe().steps)
    if steps == 0:
        return "the original table"
    return f"the table after {steps} recipe step{'s' if steps != 1 else ''}"


# --- presentation ----------------------------------------------------------------------


def start_training_mode() -> None:
    """Button callback: turn training mode on (callbacks run before the sidebar's toggle
    is drawn, so its value may still change)."""
    _state()["training_mode"] = True


def training_mode() -> bool:
    return bool(_state().get("training_mode", False))


_LAST_SOURCE = "explain_last_source"


def explain(sentence: str, section: str, *, training: str | None = None) -> None:
    """One plain sentence and its guide section under a figure; more in training mode.

    A source is named once for a run of captions citing it, not under every one of them
    (the sidebar, drawn first on every run, starts the count afresh).
    """
    if _state().get(_LAST_SOURCE) == section:
        st.caption(sentence)
    else:
        st.caption(f"{sentence} *Source: {section}.*")
        _state()[_LAST_SOURCE] = section
    if training and training_mode():
        st.info(training, icon=":material/school:")


#: Recipe steps listed in the sidebar (the latest ones); Techniques lists them all.
SIDEBAR_STEPS = 4
K_HELP = (
    "The number of records in the smallest group of records that look alike on the "
    "quasi-identifiers: each of them could be any of k people (PDPC guide, Step 4)."
)
P_REID_HELP = (
    "The chance that someone re-identifies a record: the chance of an attempt (from the "
    "controls and motivation set on Risk) divided by k. Below the threshold for the harm "
    "a disclosure would do, the risk is acceptable (PDPC guide, Annex D)."
)


def sidebar() -> None:
    """The loaded table, the current risk and the recipe, shown on every page."""
    _state().pop(_LAST_SOURCE, None)  # each run names its sources afresh (see explain)
    with st.sidebar:
        st.toggle(
            "Training mode",
            key="training_mode",
            help="Longer explanations and the guide's worked examples, for workshops.",
        )
        st.caption(f"Workspace: {escape_markdown(workspace_path().name)} (History to switch)")
        if _state().get("workspace_error"):
            st.warning(escape_markdown(_state()["workspace_error"]), icon=":material/warning:")
        if _state().get("restore_note"):
            st.warning(escape_markdown(_state()["restore_note"]), icon=":material/history:")
        note = _state().pop(_SYNC_NOTE, None)
        if note:  # shown once, on the rerun that took the change over
            st.info(escape_markdown(note), icon=":material/sync:")
        if not has_data():
            st.caption("No table loaded.")
            return
        if missing_keys():
            st.caption(
                "The recipe needs an HMAC key this session does not have: type it on "
                "the page to see the data and its risk."
            )
            return
        data = current_data()
        st.markdown(
            f"**Data:** {code_span(source_name())}  \n{len(data):,} records, "
            f"{len(data.columns)} columns"
        )
        report = None if role_problem() else current_risk(data)
        if role_problem():
            st.caption(
                "The confirmed roles do not fit this table: confirm them again on **Classify**."
            )
        elif report is None:
            st.caption("Mark indirect identifiers on **Classify** to see the risk.")
        else:
            verdict = current_annex_d()
            st.metric("k (smallest group)", fmt_count(report.k), help=K_HELP)
            if verdict is not None:
                # The arrow points up when P(re-ID) is above the threshold (red), down below.
                margin = verdict.p_reid - verdict.threshold
                st.metric(
                    "P(re-identification)",
                    fmt_probability(verdict.p_reid),
                    delta=f"{fmt_probability(margin)} against the threshold "
                    f"{fmt_probability(verdict.threshold)}",
                    delta_color="inverse",
                    help=P_REID_HELP,
                )
                if verdict.acceptable:
                    st.success("Within the Annex D threshold", icon=":material/check_circle:")
                else:
                    st.error(
                        f"Above the Annex D threshold: k of at least {verdict.min_k} would meet it",
                        icon=":material/warning:",
                    )
            disclosure = report.attribute_disclosure()
            if disclosure is not None:
                st.warning(
                    "l-diversity = 1: a group reveals its "
                    f"{escape_markdown(report.sensitive)} value (see Risk).",
                    icon=":material/visibility:",
                )
        steps = recipe().steps
        st.markdown(f"**Recipe:** {len(steps)} step(s)")
        shown = steps[-SIDEBAR_STEPS:]
        if len(steps) > len(shown):
            st.caption(f"... {len(steps) - len(shown)} earlier (all on Techniques)")
        for i, step in enumerate(shown, start=len(steps) - len(shown) + 1):
            st.caption(f"{i}\\. {escape_markdown(describe_step(step))}")
