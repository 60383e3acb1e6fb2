"""An audit entry's action and object in words a privacy officer reads (issue 29, "Developer
text on screen").

The workspace's audit log (core.workspace.audit) names what an entry is about with a token
such as ``setting:current_recipe`` or ``dataset:<64-hex sha256>``: exact, and hashed into the
chain, so it is never rewritten. The History page shows it in words instead ("setting:
current recipe", "data set 'patients.csv' (sha256 3f2a…9c1b)"); the exact tokens stay in the
downloaded audit log and in ``anon log --json``, where a person checking the chain needs
them (PDPC guide, Step 5: keep the record of the process and its parameters).

Every token comes from a workspace someone may have sent: an unknown kind or key is shown
with its underscores as spaces and any long hash shortened, never refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["action_in_words", "object_in_words", "short_hash"]

#: Each setting core.workspace.settings.SHAPES knows, as a person names it.
SETTING_NAMES = {
    "k": "k",
    "sensitive": "sensitive column",
    "use_case": "use case",
    "keep_rows": "keep every row",
    "annex_d": "Annex D settings",
    "current_data": "current data set",
    "current_recipe": "current recipe",
    "not_quasi_identifiers": "columns that are not quasi-identifiers",
    "reviewed_text": "free text reviewed",
    "targets": "privacy targets",
    "tradeoff_hierarchies": "trade-off hierarchies",
    "annex_d_insider_table": "Annex D insider table",
    "sign_off": "sign-off",
    "controls_in_place": "controls in place",
}

#: Each action the workspace logs (core/workspace/*.py, ``self.log``), in words.
ACTION_NAMES = {
    "dataset": "data set recorded",
    "store_data": "data set rows stored",
    "roles": "roles set",
    "recipe": "recipe version saved",
    "restore": "recipe version restored",
    "hierarchy": "hierarchy saved",
    "setting": "setting changed",
    "risk": "risk figures recorded",
    "release": "release recorded",
    "mapping_table": "mapping table stored",
    "dp_budget": "privacy budget set",
    "dp_release": "differentially private release",
    "signoff": "signed off",
}

#: What the part before the colon of an object names, and how its rest is shown.
_KINDS = {
    "recipe": "recipe version {}",
    "release": "release {}",
    "risk": "risk record {}",
    "signoff": "sign-off {}",
    "mapping": "mapping table of column '{}'",
    "dp": "privacy budget '{}'",
}

_HEX = re.compile(r"\b[0-9a-fA-F]{32,}\b")
#: The name a hierarchy is kept under (core.release.bundle.portable_name):
#: ``hierarchies/<column>-<first 10 hex of its sha256>.csv``.
_KEPT_HIERARCHY = re.compile(r"^(?:hierarchies/)?(?P<column>.+)-[0-9a-f]{10}\.csv$")


def short_hash(digest: str) -> str:
    """A sha256 as a person compares it by eye: its first and last four characters."""
    return f"{digest[:4]}…{digest[-4:]}" if len(digest) > 12 else digest


def _plain(token: str) -> str:
    """An unknown name shown in words: underscores as spaces, long hashes shortened."""
    return _HEX.sub(lambda m: short_hash(m.group()), token.replace("_", " ")).strip()


def action_in_words(action: str) -> str:
    """An audit entry's action as a person reads it ("setting changed", not "setting")."""
    return ACTION_NAMES.get(action, _plain(str(action)))


def object_in_words(obj: str, dataset_names: Mapping[str, str] | None = None) -> str:
    """An audit entry's object as a person reads it.

    ``dataset_names`` maps a data set's sha256 to the name it was recorded under
    (core.workspace.inputs ``datasets``): a data set reads "data set 'patients.csv'
    (sha256 3f2a…9c1b)", or "data set (sha256 3f2a…9c1b)" when its name is not known.
    """
    text = str(obj)
    kind, colon, rest = text.partition(":")
    if not colon:
        return _plain(text)
    if kind == "setting":
        return f"setting: {SETTING_NAMES.get(rest, _plain(rest))}"
    if kind == "dataset":
        name = (dataset_names or {}).get(rest)
        named = f" '{name}'" if name else ""
        return f"data set{named} (sha256 {short_hash(rest)})"
    if kind == "hierarchy":
        kept = _KEPT_HIERARCHY.match(rest)
        return f"hierarchy of column '{kept['column']}'" if kept else f"hierarchy '{_plain(rest)}'"
    if kind in _KINDS:
        return _KINDS[kind].format(_HEX.sub(lambda m: short_hash(m.group()), rest))
    return f"{_plain(kind)}: {_plain(rest)}"
