"""Rare original values a recipe names, held back from the recipient's copy of it.

A recipe is data someone typed, and it can name people: ``suppress_records`` where
``name`` equals ``"Tan Ah Kow"``, a ``generalise`` mapping whose keys are rare job titles.
The recipient's bundle must hold no value of the original table that the released table
does not (issue 25, item 5), so each such literal is replaced in the recipient's recipe by
a numbered placeholder (``[held back 1]``); the internal archive keeps the recipe as run.

A value counts when fewer than ``k`` records of the original hold it (it points at fewer
than k people: the release's own k-anonymity yardstick, PDPC guide, Step 4) and no cell of
the released table holds it. A category that k or more people share is not held back: a
mapping ``Chinese -> Asian`` says nothing about a person. Matching is exact, on whole
values (as text), never inside longer text, so the recipe's structure and column names are
never touched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd

from core._text import as_text, format_number
from core.recipe import Recipe

#: Parameters that name columns, files, keys or choices of the tool, never data values.
_STRUCTURE = frozenset(
    {
        "step",
        "origin",
        "column",
        "columns",
        "by",
        "values",
        "quasi_identifiers",
        "sensitive",
        "key_env",
        "importance",
        "hierarchy",
        "hierarchies",
        "hierarchy_rule",
        "hierarchy_source",
        "hierarchy_height",
        "method",
        "kind",
        "distance",
        "mode",
        "date_unit",
        "stats",
        "population_table",
        "levels",
        "together",
    }
)


def rare_unreleased_values(
    original: pd.DataFrame,
    released: pd.DataFrame | None,
    *,
    below: int,
    among: Iterable[str],
) -> frozenset[str]:
    """The values of ``among`` (a recipe's literals: few) that fewer than ``below`` records
    of ``original`` hold, counted over all its columns, and no cell of ``released`` holds.
    Only the candidates are counted (``isin``), so a recipe without literals costs nothing."""
    candidates = set(among)
    if not candidates:
        return frozenset()
    counts: dict[str, int] = dict.fromkeys(candidates, 0)
    for column in original.columns:
        text = as_text(original[column])
        for value, count in text[text.isin(candidates)].value_counts().items():
            counts[value] += int(count)
    rare = {value for value, count in counts.items() if 0 < count < below}
    if released is not None and rare:
        for column in released.columns:
            rare.difference_update(as_text(released[column]).dropna().unique())
    return frozenset(rare)


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return format_number(value) if isinstance(value, float) else str(value)


def _map_literals(recipe: Recipe, change: Callable[[Any], Any]) -> Recipe:
    """``recipe`` with ``change`` applied to every literal that is data: text wherever a
    step's parameters hold data; numbers only where they are data (a ``where`` condition,
    a ``mapping``'s keys), elsewhere a number is a parameter (a width, a level, a
    threshold), never a person's value."""

    def walk(value: Any, *, numbers: bool = False) -> Any:
        if isinstance(value, Mapping):
            return {k: v if k in _STRUCTURE else walk(v, numbers=numbers) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [walk(v, numbers=numbers) for v in value]
        return change(value) if isinstance(value, str) or numbers else value

    def held(name: str, value: Any) -> Any:
        if name in _STRUCTURE:
            return value
        if name == "mapping" and isinstance(value, Mapping):  # value -> group
            return {change(k): walk(v) for k, v in value.items()}
        return walk(value, numbers=name == "where")

    steps = tuple(
        {name: held(name, value) for name, value in step.items()} for step in recipe.steps
    )
    return Recipe(steps, recipe.seed, dict(recipe.meta))


def recipe_literals(recipe: Recipe) -> set[str]:
    """The data literals of ``recipe`` as text (see :func:`_map_literals`)."""
    found: set[str] = set()

    def note(value: Any) -> Any:
        text = _text(value)
        if text is not None:
            found.add(text)
        return value

    _map_literals(recipe, note)
    return found


def hold_back(recipe: Recipe, values: frozenset[str]) -> tuple[Recipe, int]:
    """``recipe`` with every literal in ``values`` replaced by ``[held back n]`` (one
    number per distinct value), and how many distinct values were held back."""
    if not values:
        return recipe, 0
    placeholders: dict[str, str] = {}

    def placeholder(value: Any) -> Any:
        text = _text(value)
        if text is None or text not in values:
            return value
        return placeholders.setdefault(text, f"[held back {len(placeholders) + 1}]")

    return _map_literals(recipe, placeholder), len(placeholders)
