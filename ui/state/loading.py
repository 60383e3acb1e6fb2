"""Loading the data set (Step 0): samples, uploads, $ANON_DATA and side tables, the
original table installed in the session, and whether the workspace keeps its rows."""

from __future__ import annotations

import secrets
from pathlib import Path

import pandas as pd
import streamlit as st

from core.errors import AnonymisationError, SecretError
from core.io import read_table
from core.markup import code_span
from core.profile import profile
from core.recipe import EditHistory, Recipe
from core.roles import Role
from core.workspace import sha256_bytes, sha256_file, table_sha256
from ui.page_errors import error_text
from ui.state import early_read
from ui.state.cache import PREFIX_CACHE, forget_session_caches, remember_table
from ui.state.keys import missing_keys, set_session_key
from ui.state.session import (
    K_TARGET_KEY,
    KEEP_ROWS_KEY,
    ROOT,
    SENSITIVE_KEY,
    has_data,
    original,
    session,
    source_name,
)
from ui.state.workspace import (
    UNRECORDED_KEY,
    keep_rows,
    open_workspace,
    unrecorded_data_set,
    write,
)

SAMPLE_DIR = ROOT / "sample_data"
DEFAULT_SAMPLE = "singapore_people.csv"
MAX_UPLOAD_MB = 200
REOPENED_KEY = "reopened_note"  # the roles and recipe taken back, said once on Data
PROFILE_KEY = "column_profile"  # (the original table, its column profile)
PROFILE_WAITED_KEY = "column_profile_waited"  # the large table whose profile waited a run
PROFILE_WAITING_KEY = "column_profile_waiting"  # set by the run that leaves it for later
#: From this many records, the Data page's first run for a table sends its preview and
#: leaves the column profile to the next run (see :func:`profile_waits`).
PROFILE_LATER_ROWS = 100_000
_ROLE_VALUES = {role.value for role in Role}


# --- the loaded table ---------------------------------------------------------------


def sample_files() -> list[str]:
    """The CSV files shipped in sample_data/, the default one first."""
    names = sorted(p.name for p in SAMPLE_DIR.glob("*.csv"))
    return sorted(names, key=lambda n: n != DEFAULT_SAMPLE)


@st.cache_data(show_spinner="Reading the sample table...")
def _read_sample(name: str) -> pd.DataFrame:
    return read_table(SAMPLE_DIR / name)


@st.cache_resource(show_spinner="Reading the table...", max_entries=2)
def _read_path(path: str) -> pd.DataFrame:
    # One table held for every session (st.cache_data would pickle it whole into the
    # cache and unpickle a copy for each session: 0.28 s at 1M rows; issue 31). Never
    # changed in place: each session gets a shallow copy (pandas' copy-on-write).
    early = early_read.take(path)  # read while app.py imported the library, if it was
    return early if early is not None else read_table(path)


def load_path(path: str) -> None:
    """Open the table at ``path`` (``$ANON_DATA``; cached across sessions) as the app
    starts; raises AnonymisationError with a clear message if it cannot be read. Like the
    sample, it is recorded in the workspace at the first change made on it, not on opening.
    """
    table = _read_path(path).copy(deep=False)
    digest = early_read.take_digest(path)  # hashed while the table was read, if it was
    set_original(table, Path(path).name, source_path=path, sha256=digest, record=False)


def load_sample(name: str, *, fresh: bool = False) -> None:
    """Load a sample table (cached across sessions; each session gets its own copy);
    ``fresh``: with no roles or recipe, even if it was worked on before (the workshop)."""
    set_original(_read_sample(name).copy(), name, source_path=str(SAMPLE_DIR / name), fresh=fresh)


def show_sample(name: str) -> None:
    """Show a sample table without writing to the workspace: what the dashboard opens with
    when the workspace holds no project it can reopen. It is recorded (and becomes the
    project) at the first change made on it, so opening the app never replaces a project."""
    path = SAMPLE_DIR / name
    install_original(_read_sample(name).copy(), name)
    unrecorded_data_set(name, sha256=sha256_file(path), source_path=str(path), shipped=True)


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
    df: pd.DataFrame,
    name: str,
    *,
    source_path: str | None = None,
    sha256: str | None = None,
    fresh: bool = False,
    record: bool = True,
) -> None:
    """Make ``df`` the original table, chosen by the user, and record it in the workspace
    (its fingerprint and where it came from; its rows unless the user said no or it ships
    with the tool). A data set worked on before in this workspace (the same sha256) comes
    back with its roles and recipe; another starts a new empty recipe. Earlier data sets
    and recipes stay in history. ``fresh``: start afresh even on a data set known before.
    ``record``: False when the app opens it by itself ($ANON_DATA): then it is recorded at
    the first change made on it, so opening the app writes nothing (issue 29)."""
    install_original(df, name)
    session().pop("restore_note", None)  # the user chose a data set
    digest = sha256 or (sha256_file(source_path) if source_path else table_sha256(df))
    version = None if fresh else _reopen_earlier_work(digest, name)
    shipped = source_path is not None and Path(source_path).parent == SAMPLE_DIR
    unrecorded_data_set(
        name,
        sha256=digest,
        source_path=source_path,
        shipped=shipped,
        recipe_version=version,
    )
    if record:
        write(lambda ws: None)  # records it (and its recipe) as the workspace's current project


def _reopen_earlier_work(sha: str, name: str) -> int | None:
    """Take the roles and recipe the workspace last kept for the data set ``sha`` into the
    session (said once on Data); the recipe version's number, or None if it has none."""
    try:
        with open_workspace() as ws:
            saved_roles, version = ws.roles(sha), ws.recipe_of_data_set(sha)
        earlier = Recipe.from_yaml(version.yaml) if version is not None else None
    except AnonymisationError:  # a damaged workspace: the data set starts afresh
        return None
    state = session()
    columns = set(original().columns)
    roles = {c: Role(r) for c, r in saved_roles.items() if c in columns and r in _ROLE_VALUES}
    if earlier is None and not roles:
        return None
    state["roles"] = roles
    if earlier is not None:
        state["history"] = EditHistory(earlier)
    what = " and ".join(
        w for w, kept in (("roles", roles), ("recipe", earlier and earlier.steps)) if kept
    )
    if what:
        state[REOPENED_KEY] = (
            f"{name!r} was worked on before in this workspace: its {what} are back as you "
            "left them (every earlier version is on History)."
        )
    return version.id if version is not None else None


def reopened_note() -> str | None:
    """What :func:`set_original` took back of earlier work on the data set, said once."""
    return session().pop(REOPENED_KEY, None)


def install_original(df: pd.DataFrame, name: str) -> None:
    """Put ``df`` in the session as the original table, with a new empty recipe and no
    roles (the workspace is not written: :func:`set_original` records it)."""
    state = session()
    state["original"] = df
    for key in (PROFILE_KEY, PROFILE_WAITED_KEY, PROFILE_WAITING_KEY):
        state.pop(key, None)  # about the previous table
    state["source_name"] = name
    state.pop(UNRECORDED_KEY, None)  # the table shown before is set aside unrecorded
    state["history"] = EditHistory(Recipe(seed=secrets.randbelow(2**31)))
    forget_session_caches(PREFIX_CACHE)
    # Random pseudonyms replay identically within this session (so a downloaded mapping
    # table always matches the data) from this secret, which is never written anywhere.
    state["pseudonym_secret"] = secrets.randbelow(2**62)
    state["suggestions"] = None  # suggested on first use (Classify), not before the preview
    state["roles"] = {}  # confirmed roles only: suggestions never apply themselves
    state[SENSITIVE_KEY] = None  # it named a column of the previous table
    state.setdefault(K_TARGET_KEY, 5)


def profile_waits(df: pd.DataFrame) -> bool:
    """True on the first run of the Data page that shows ``df`` when it has at least
    :data:`PROFILE_LATER_ROWS` records and no profile yet: that run sends the preview and
    leaves the profile (0.1-0.2 s of CPU at 1M rows) to the next run, which the page asks
    the browser for (:func:`ui.data_steps.profile_after_the_preview`). Computed right after
    the preview, it competed on a 2-core machine with the browser drawing the first table,
    and its own table was drawn before the first one showed (issue 31). False afterwards:
    a run never leaves the same table's profile for later twice."""
    state = session()
    held = state.get(PROFILE_KEY)
    if len(df) < PROFILE_LATER_ROWS or (held is not None and held[0] is df):
        return False
    if state.get(PROFILE_WAITED_KEY) is df:
        return False
    state[PROFILE_WAITED_KEY] = df
    state[PROFILE_WAITING_KEY] = True  # taken by this run's call of the fragment
    return True


def profile_asked_this_run() -> bool:
    """True once, in the run where :func:`profile_waits` left the profile for later."""
    return bool(session().pop(PROFILE_WAITING_KEY, False))


def column_profile(df: pd.DataFrame) -> pd.DataFrame:
    """The column profile of ``df`` (PDPC guide, Step 1), computed once per original table
    (0.2 s at 1M rows: the Data page reran it on every widget change), as a copy the caller
    may change."""
    held = session().get(PROFILE_KEY)
    if held is None or held[0] is not df:
        held = (df, profile(df))
        session()[PROFILE_KEY] = held
    return held[1].copy()


def last_upload() -> tuple[str, str | None] | None:
    """(token, error message or None) of the last upload handled, so it is read only once."""
    return session().get("last_upload")


def set_last_upload(token: str, error: str | None) -> None:
    session()["last_upload"] = (token, error)


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
                st.error(error_text(error))
            else:
                st.rerun()


def set_keep_rows(keep: bool) -> None:
    """Keep (or not) the rows of data sets loaded from now on; when turned on, the loaded
    data set's rows are stored at once, so an uploaded table survives a restart."""
    if keep == keep_rows():
        return
    session()[KEEP_ROWS_KEY] = keep
    write(lambda ws: ws.set_setting("keep_rows", keep), about_the_data=False)
    sha = session().get("data_sha256")
    if keep and sha and has_data() and UNRECORDED_KEY not in session():
        write(
            lambda ws: ws.add_dataset(original(), name=source_name(), sha256=sha, store_data=True)
        )
        remember_table(sha, original())
