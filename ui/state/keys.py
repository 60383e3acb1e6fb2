"""HMAC keys typed in this session (Step 2): kept in the browser session's state only,
never in the environment, the workspace, a recipe or a shared cache."""

from __future__ import annotations

import os

from core.errors import SecretError
from core.techniques.pseudonymisation import MIN_KEY_BYTES, require_key_env_name
from ui.state.cache import MEMO_CACHE, PREFIX_CACHE, forget_session_caches
from ui.state.session import recipe, session

# --- keys typed in this session (Step 2) -----------------------------------------------

_SESSION_KEYS = "session_keys"


def session_keys() -> dict[str, bytes]:
    """HMAC keys typed in this session, by the ``key_env`` name the recipe records.

    They live in this browser session's state only: never in ``os.environ`` (which every
    session of the server shares), a recipe, a report or a cache shared across sessions.
    """
    return session().get(_SESSION_KEYS, {})


def set_session_key(key_env: str, key: str) -> None:
    """Keep ``key`` for this session under ``key_env`` (raises SecretError if unusable)."""
    name = require_key_env_name(key_env)
    encoded = key.encode("utf-8")
    if len(encoded) < MIN_KEY_BYTES:
        raise SecretError(
            f"The key is too short ({len(encoded)} bytes); type at least {MIN_KEY_BYTES}."
        )
    session()[_SESSION_KEYS] = {**session_keys(), name: encoded}
    # Replays and downloads made with another key (or none) must not be reused.
    forget_session_caches(PREFIX_CACHE, MEMO_CACHE)


def key_source(key_env: str) -> str | None:
    """Where the key named ``key_env`` would come from: "session", "environment" or None.

    Only for a valid key name (``ANON_...``, raises SecretError otherwise), so the page can
    never be used to learn whether some other variable of the server (HOME, PATH) is set.
    """
    name = require_key_env_name(key_env)
    if name in session_keys():
        return "session"
    return "environment" if os.environ.get(name) else None


def missing_keys() -> list[str]:
    """The ``key_env`` names of the recipe with no key in this session or the environment."""
    names = dict.fromkeys(step["key_env"] for step in recipe().steps if step.get("key_env"))
    return [name for name in names if key_source(name) is None]
