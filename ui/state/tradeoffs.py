"""The Explore trade-offs page's state: its last search, a local recoding of one
option, and the hierarchy chosen per column (kept in the workspace)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ui.state.session import HIERARCHY_CHOICES_KEY, data_set_id, session
from ui.state.workspace import write

# --- trade-off explorer (Step 3) --------------------------------------------------------


def tradeoff_result() -> Any:
    """The last search of the Explore trade-offs page: (SearchResult, hierarchies) or None."""
    return session().get("tradeoff_result")


def set_tradeoff_result(result: Any) -> None:
    session()["tradeoff_result"] = result
    # the option picked, the pins and the previews belonged to the previous search
    for key in ("local_recoding", _PICKED, _PINNED, _PREVIEWS):
        session().pop(key, None)


# The option picked and the options pinned for comparison, by their labels
# (Candidate.label()): plain session entries, not widget keys, so they last across reruns
# and page visits (Streamlit drops a widget's value when another page is shown), until the
# next search.
_PICKED = "tradeoff_picked"
_PINNED = "tradeoff_pinned"
_PREVIEWS = "tradeoff_previews"
#: Most options compared side by side (ARX compares a few; more would not fit the page).
MAX_PINNED = 3


def picked_option() -> str | None:
    """The label of the option picked (in the table, the chart or the list), or None."""
    return session().get(_PICKED)


def pick_option(label: str) -> None:
    session()[_PICKED] = label


def pinned_options() -> list[str]:
    """The labels of the options pinned for comparison, in the order they were pinned."""
    return list(session().get(_PINNED) or [])


def pin_option(label: str) -> bool:
    """Pin ``label`` for comparison; False (nothing pinned) when MAX_PINNED are pinned."""
    pinned = pinned_options()
    if label in pinned:
        return True
    if len(pinned) >= MAX_PINNED:
        return False
    session()[_PINNED] = [*pinned, label]
    return True


def unpin_option(label: str) -> None:
    session()[_PINNED] = [p for p in pinned_options() if p != label]


def option_preview(key: Any) -> Any:
    """A preview of an option as the recipe would leave the table (``key`` names the
    recipe, the search and the option), or None when not made yet."""
    previews = session().get(_PREVIEWS) or {}
    return previews.get(key)


def set_option_preview(key: Any, preview: Any) -> None:
    """Keep the preview under ``key``, with those of the pinned options and the picked one
    at most (each is a copy of the table)."""
    previews = dict(session().get(_PREVIEWS) or {})
    previews[key] = preview
    while len(previews) > MAX_PINNED + 1:
        previews.pop(next(iter(previews)))
    session()[_PREVIEWS] = previews


# A search runs in the script's thread; a click (its Stop button, or any widget) reruns the
# script, which ends the search at its next progress report. What it found so far is kept
# here as it goes, and taken up by the rerun (issue 30).
_RUNNING, _BEST_SO_FAR = "search_running", "search_best_so_far"


def start_search() -> None:
    """Note that a search starts (nothing found yet)."""
    session()[_RUNNING] = True
    session().pop(_BEST_SO_FAR, None)


def keep_best_so_far(partial: Any) -> None:
    """The running search's best so far: (stopped SearchResult, hierarchies)."""
    session()[_BEST_SO_FAR] = partial


def end_search() -> None:
    """The search ran to its end (or failed with a message): nothing to take up."""
    session().pop(_RUNNING, None)
    session().pop(_BEST_SO_FAR, None)


def take_up_stopped_search() -> tuple[bool, Any]:
    """Whether the last run's search was stopped before its end, and its best so far
    ((SearchResult, hierarchies), None when it had found none), now the page's result."""
    if not session().pop(_RUNNING, False):
        return False, None
    partial = session().pop(_BEST_SO_FAR, None)
    if partial is not None:
        set_tradeoff_result(partial)
    return True, partial


def local_recoding_result(key: Any) -> Any:
    """The Explore trade-offs page's local recoding of one option (``key`` names the search
    and the option), or None when it was made for another or not yet."""
    stored = session().get("local_recoding")
    return stored[1] if stored is not None and stored[0] == key else None


def set_local_recoding_result(key: Any, result: Any) -> None:
    session()["local_recoding"] = (key, result)


def hierarchy_choices() -> dict[str, dict[str, Any]]:
    """Per column of the loaded data set, the hierarchy chosen on Explore trade-offs (kind,
    parameters, and the name of an uploaded one in the workspace): they survive page
    changes and restarts, and stay with the data set they were chosen for (issue 29: 'sex'
    from adult.csv met 'F' on a survey table). The setting keeps each data set's choices
    under its sha256; a choice recorded as column -> choice (before) applies to every data
    set, or, naming one under "data", to that one."""
    here = data_set_id()
    stored = session().get(HIERARCHY_CHOICES_KEY) or {}
    shared = {
        column: {key: value for key, value in choice.items() if key != _DATA}
        for column, choice in stored.items()
        if _is_choice(choice) and choice.get(_DATA, here) == here
    }
    own = stored.get(here)
    return {**shared, **(own if isinstance(own, Mapping) and not _is_choice(own) else {})}


def _is_choice(value: Any) -> bool:
    """A column's choice ({kind: ...}), not a data set's choices ({column: {kind: ...}})."""
    return isinstance(value, Mapping) and isinstance(value.get("kind"), str)


#: The hierarchy a column gets until the user chooses one (the page's first option).
_DEFAULT_CHOICE = {"kind": "auto"}
#: The key of a choice recorded with the data set it was made for (its sha256).
_DATA = "data"


def set_hierarchy_choice(column: str, choice: dict[str, Any]) -> None:
    """Keep ``column``'s hierarchy choice for the loaded data set; only a real change is
    written (and audited): the page calls this on every rerun, and a column still on the
    default is no change."""
    if hierarchy_choices().get(column, _DEFAULT_CHOICE) == choice:
        return
    here = data_set_id()
    stored = dict(session().get(HIERARCHY_CHOICES_KEY) or {})
    own = stored.get(here)
    own = dict(own) if isinstance(own, Mapping) and not _is_choice(own) else {}
    stored[here] = {**own, column: dict(choice)}
    session()[HIERARCHY_CHOICES_KEY] = stored
    write(lambda ws: ws.set_setting(HIERARCHY_CHOICES_KEY, stored))


# --- picking an option by its row, its point or the list (issue 30) ----------------------
# Three widgets show the picked option: the table (a row selection), the frontier chart (a
# point selection) and the short list. Each one's callback records the pick and brings the
# others in line: the list's value is set, and the table is drawn afresh (its key gets a
# new number) so that it selects the picked row, not the one clicked before.
_TABLE_VERSION = "tradeoff_table_version"
#: The short list's widget key.
LIST_KEY = "to_candidate"


def table_key() -> str:
    """The options table's widget key (see above)."""
    return f"to_table_{session().get(_TABLE_VERSION, 0)}"


def _picked_elsewhere(label: str) -> None:
    pick_option(label)
    session()[LIST_KEY] = label
    session()[_TABLE_VERSION] = session().get(_TABLE_VERSION, 0) + 1


def pick_from_table(key: str, labels: list[str]) -> None:
    """Callback of the table: the clicked row's option (a cleared selection keeps it)."""
    rows = session()[key].selection.rows
    if rows and 0 <= rows[0] < len(labels):
        pick_option(labels[rows[0]])
        session()[LIST_KEY] = labels[rows[0]]


def pick_from_chart(key: str, selection: str, labels: list[str]) -> None:
    """Callback of the chart: the clicked point's option (its ``option`` number, 1-based)."""
    points = session()[key].selection.get(selection) or []
    numbers = [p.get("option") for p in points if isinstance(p, dict)]
    if numbers and isinstance(numbers[0], int | float) and 1 <= numbers[0] <= len(labels):
        _picked_elsewhere(labels[int(numbers[0]) - 1])


def pick_from_list() -> None:
    """Callback of the short list."""
    _picked_elsewhere(session()[LIST_KEY])


def show_pick_in_list(label: str) -> None:
    """Before the list is drawn: it shows ``label`` (after a page visit, Streamlit has
    dropped the list's own value; the pick is kept)."""
    session()[LIST_KEY] = label


# --- Apply (ui.option_release) ------------------------------------------------------------
# Apply's click is recorded with what it would change (the recipe before and after): the
# page then disables the button while it asks or works, and forgets a click made for
# another option or another recipe.
_APPLYING = "tradeoff_applying"
_CONFIRMED = "tradeoff_confirmed"
_APPLIED = "tradeoff_applied_message"


def start_applying(key: Any) -> None:
    """Callback of Apply: ``key`` names the change it asks for."""
    session()[_APPLYING] = key
    session().pop(_CONFIRMED, None)


def applying(key: Any) -> bool:
    """Whether Apply was clicked for the change ``key`` (and not yet done or cancelled)."""
    return session().get(_APPLYING) == key


def confirm(key: Any) -> None:
    """Callback of "Replace them": the replacement ``key`` names is confirmed."""
    session()[_CONFIRMED] = key


def confirmed(key: Any) -> bool:
    return session().get(_CONFIRMED) == key


def cancel_applying() -> None:
    session().pop(_APPLYING, None)
    session().pop(_CONFIRMED, None)


def finish_applying(message: str) -> None:
    """The change is made: ``message`` is shown under the button on the next run."""
    cancel_applying()
    session()[_APPLIED] = message


def pop_apply_message() -> str | None:
    return session().pop(_APPLIED, None)


def population_upload() -> tuple[bytes, str]:
    """The population table uploaded for the last search (its bytes and file name)."""
    return session()["to_population_file"]
