"""What a re-identifier sees that the recipe's words hide: checks of the release gate.

The release gate (:mod:`core.release.gate`) judges a release by the recipe's vocabulary
(which columns are direct identifiers, which steps pseudonymise) and by the table as
released. These checks close the gaps an attacker and a hurried user found between the
two (issue 25): a column Step 1 is sure is direct cannot be renamed out of being one
(:func:`with_classified`), pseudonyms written back to the originals are not pseudonyms
(:func:`rare_values_back`), and no other released text column may hold an NRIC, email
or phone number (:func:`identifiers_inside`). PDPC guide, Step 2.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from core._text import as_text
from core.release.kept_identifiers import normalised, treatment
from core.roles import Role, Suggestion
from core.text_rescan import compatible


def with_classified(
    declared: Sequence[str], suggestions: Sequence[Suggestion] | None, original: pd.DataFrame
) -> list[str]:
    """The direct identifiers to judge: those the recipe (or the user) declares and those
    Step 1 classifies as direct without doubt (issue 25: "classified *or* declared"). A
    recipe cannot talk a column out of being one, by leaving it out of
    ``direct_identifiers`` and naming it in ``not_quasi_identifiers``, as the sensitive
    column or as a target's: an NRIC is an NRIC whatever the recipe calls it (PDPC guide,
    Step 2). A column Step 1 is unsure of (``uncertain``: unique values of no known shape)
    still takes a decision (:func:`core.release.gate.check_release`)."""
    classified = [
        s.column
        for s in suggestions or ()
        if s.role is Role.DIRECT and not s.uncertain and s.column in original.columns
    ]
    return list(dict.fromkeys([*declared, *classified]))


#: Share of released records whose pseudonym equals some other record's rare original
#: value above which the tokens are taken for the originals moved (random 6-digit
#: tokens of 10,000 six-digit numbers meet one by chance in about 1.1% of records).
TOKENS_BACK_SHARE = 0.05


def rare_values_back(before: pd.Series, after: pd.Series, rare_below: int) -> int:
    """Released records whose value is an original value fewer than ``rare_below`` records
    share, when the pseudonyms were written back (0 otherwise): their own value (records
    matched by index label), or other records' values in more than
    :data:`TOKENS_BACK_SHARE` of the records (a mapping moved by one row). Values are
    compared as :func:`core.release.kept_identifiers.normalised` text."""
    was, now = normalised(before.dropna()), normalised(after.dropna())
    counts = was.value_counts()
    rare = counts.index[counts.to_numpy() < rare_below]
    if not len(rare) or now.empty:
        return 0
    held = now.isin(rare)
    own = now.index.isin(was.index) & (now == was.reindex(now.index)).to_numpy()
    if (own & held.to_numpy()).any() or held.mean() > TOKENS_BACK_SHARE:
        return int(held.sum())
    return 0


#: What :func:`identifiers_inside` looks for, and how a message names it.
INSIDE_KINDS = {"nric": "an NRIC/FIN", "email": "an email address", "phone": "a phone number"}


def identifiers_inside(
    released: pd.DataFrame,
    recipe_steps: Sequence[Mapping[str, Any]] | None,
    *,
    skip: set[str],
    problem: Callable[[str, str], None],
    where: str = "",
) -> None:
    """The last look a re-identifier takes: text columns the recipe does not treat as
    direct identifiers or quasi-identifiers (decided away, sensitive, "other") may not
    hold an NRIC, email or phone number the scanner recognises (PDPC guide, Step 2). A
    column of staff remarks decided "not a quasi-identifier" that says "call 9123 4567"
    releases that person's number all the same. Each distinct value is scanned once."""
    from core.detect import scan_values

    for column in released.columns:
        values = released[column]
        if str(column) in skip or not (
            pd.api.types.is_object_dtype(values) or pd.api.types.is_string_dtype(values)
        ):
            continue
        if treatment(recipe_steps or (), str(column)).pseudonymised:
            continue
        found = scan_values(compatible(as_text(values)), kinds=list(INSIDE_KINDS))
        if found.empty:
            continue
        counts = ", ".join(
            f"{cells:,} cell{'s' if cells != 1 else ''} with {INSIDE_KINDS[kind]}"
            for kind, cells in zip(found["kind"], found["cells"].astype(int), strict=True)
        )
        problem(
            "direct_identifiers",
            f"Column {column!r} holds {counts}{where} (found by the scanner), though the recipe does "
            "not treat it as a direct identifier: remove it, redact it (redact_text), or add "
            "it to direct_identifiers (PDPC guide, Step 2).",
        )


def as_released(sample: pd.DataFrame, steps: Sequence[Mapping[str, Any]] | None) -> pd.DataFrame:
    """The columns of ``sample`` (an engine's first rows) that a release streamed with
    ``steps`` holds exactly as they are: no step names them, and no step changes columns
    it does not name (``safe_harbor`` finds its own)."""
    steps = list(steps or ())
    if any(step.get("step") == "safe_harbor" for step in steps):
        return sample.iloc[:, :0]
    kept = [c for c in sample.columns if not any(str(c) in _named(step) for step in steps)]
    return sample[kept]


def _named(step: Mapping[str, Any]) -> set[str]:
    """Every column name a step's parameters mention, at any depth."""
    names: set[str] = set()
    stack: list[Any] = list(step.values())
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            names.add(value)
        elif isinstance(value, Mapping):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
    return names
