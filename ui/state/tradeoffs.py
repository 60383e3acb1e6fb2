"""The Explore trade-offs page's state: its last search, a local recoding of one
option, and the hierarchy chosen per column (kept in the workspace)."""

from __future__ import annotations

from typing import Any

from ui.state.session import HIERARCHY_CHOICES_KEY, session
from ui.state.workspace import write

# --- trade-off explorer (Step 3) --------------------------------------------------------


def tradeoff_result() -> Any:
    """The last search of the Explore trade-offs page: (SearchResult, hierarchies) or None."""
    return session().get("tradeoff_result")


def set_tradeoff_result(result: Any) -> None:
    session()["tradeoff_result"] = result
    session().pop("local_recoding", None)  # it belonged to the previous search


def local_recoding_result(key: Any) -> Any:
    """The Explore trade-offs page's local recoding of one option (``key`` names the search
    and the option), or None when it was made for another or not yet."""
    stored = session().get("local_recoding")
    return stored[1] if stored is not None and stored[0] == key else None


def set_local_recoding_result(key: Any, result: Any) -> None:
    session()["local_recoding"] = (key, result)


def hierarchy_choices() -> dict[str, dict[str, Any]]:
    """Per column, the hierarchy chosen on Explore trade-offs (kind, parameters, and the
    name of an uploaded one in the workspace): they survive page changes and restarts."""
    return dict(session().get(HIERARCHY_CHOICES_KEY) or {})


#: The hierarchy a column gets until the user chooses one (the page's first option).
_DEFAULT_CHOICE = {"kind": "auto"}


def set_hierarchy_choice(column: str, choice: dict[str, Any]) -> None:
    """Keep ``column``'s hierarchy choice; only a real change is written (and audited):
    the page calls this on every rerun, and a column still on the default is no change."""
    before = hierarchy_choices()
    if before.get(column, _DEFAULT_CHOICE) == choice:
        return
    choices = {**before, column: choice}
    session()[HIERARCHY_CHOICES_KEY] = choices
    write(lambda ws: ws.set_setting(HIERARCHY_CHOICES_KEY, choices))
