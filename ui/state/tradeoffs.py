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
    session().pop("local_recoding", None)  # it belonged to the previous search


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
