"""The dashboard's caches, with one eviction rule: each keeps its most recently used
entries and forgets the least recently used one first.

Three caches live in the session (recipe replays by prefix, risk reports by table, and
results derived from the recipe), one is shared by the sessions of this server (tables by
sha256). They only save work: an entry forgotten is computed again, identically. The
readers of files (``st.cache_data``) are Streamlit's own, next to what they read
(:mod:`ui.state.loading`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import pandas as pd

from ui.state.session import recipe, session


class RecentCache:
    """A mapping of at most ``size`` entries that forgets the least recently used first.

    Reading an entry (:meth:`get`, ``[]``) counts as a use; ``in`` does not. Thread-safe:
    the tables cache is shared by the sessions of the server.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __getitem__(self, key: Hashable) -> Any:
        with self._lock:
            self._entries.move_to_end(key)  # raises KeyError for an unknown key
            return self._entries[key]

    def get(self, key: Hashable, default: Any = None) -> Any:
        with self._lock:
            if key not in self._entries:
                return default
            self._entries.move_to_end(key)
            return self._entries[key]

    def put(self, key: Hashable, value: Any) -> Any:
        """Keep ``value`` under ``key`` as the most recent entry; return ``value``."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value


#: The session's caches by their session-state key, with how many entries each keeps.
PREFIX_CACHE = "prefix_cache"  # replays of the recipe's prefixes (ui.state.replay)
RISK_CACHE = "risk_cache"  # risk reports by table and settings (ui.state.risk)
MEMO_CACHE = "memo"  # results derived from the recipe, e.g. downloads (memo below)
HIERARCHY_CACHE = "hierarchy_memo"  # hierarchies and their previews on Explore trade-offs
_SIZES = {PREFIX_CACHE: 12, RISK_CACHE: 9, MEMO_CACHE: 25, HIERARCHY_CACHE: 48}


def session_cache(name: str) -> RecentCache:
    """The session's cache ``name`` (one of the names above), made on first use."""
    state = session()
    cache = state.get(name)
    if not isinstance(cache, RecentCache):
        cache = state[name] = RecentCache(_SIZES[name])
    return cache


def forget_session_caches(*names: str) -> None:
    """Drop the session's caches ``names`` (all of them by default), e.g. when what their
    entries were computed with (the table, an HMAC key) changed."""
    for name in names or tuple(_SIZES):
        session().pop(name, None)


# Tables by the sha256 the workspace knows them by, shared by the sessions of this server
# (each gets a copy), so a session following another one's data set does not re-read it.
# Only tables the workspace could give back (rows kept, or a file on disk): the rows of an
# upload the user chose not to keep stay in the session that uploaded them.
SHARED_TABLES = RecentCache(4)


def remember_table(sha: str, df: pd.DataFrame) -> None:
    """Share the table known to the workspace by ``sha`` with the server's other sessions."""
    SHARED_TABLES.put(sha, df)


def remembered_table(sha: str) -> pd.DataFrame | None:
    """The table shared under ``sha`` (not a copy: copy it before use), or None."""
    return SHARED_TABLES.get(sha)


def memo(
    name: str, compute: Callable[[], Any], *extra: Hashable, cache_name: str = MEMO_CACHE
) -> Any:
    """Compute something derived from the current recipe once per recipe (and ``extra``).

    Reruns that do not change the recipe (ticking a checkbox, typing a name) then reuse
    heavy results such as the utility report or the bytes of a download. ``cache_name``
    keeps many small results (one per column) from pushing out the heavy ones.
    """
    current_recipe = recipe()
    key = (name, current_recipe.seed, repr(current_recipe.steps), *extra)
    cache = session_cache(cache_name)
    if key not in cache:
        return cache.put(key, compute())
    return cache[key]
