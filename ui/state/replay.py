"""The recipe and its replay (Steps 2-3): steps added, previewed, undone; the current
table is the recipe replayed on the original, reusing the longest cached prefix, so adding
a step costs one technique call and undo costs nothing."""

from __future__ import annotations

import warnings
from collections import ChainMap
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pandas as pd

from core.errors import AnonymisationWarning
from core.progress import ProgressFn
from core.recipe import Recipe, RecipeResult, advance, describe_step, run_step, step_seed
from core.techniques.registry import resolve
from ui.progress import progress_bar
from ui.state.cache import PREFIX_CACHE, session_cache
from ui.state.hierarchies import StoredHierarchies, stored_population_tables
from ui.state.keys import session_keys
from ui.state.session import ROOT, history, original, recipe, session
from ui.state.workspace import record_recipe

# --- recipe and replay (Steps 2-3) ------------------------------------------------------


def add_step(step: dict[str, Any]) -> None:
    """Append a step after checking it runs; raises AnonymisationError otherwise."""
    new = recipe().add(step)
    _replay(new)  # fails here, before the history changes, if the step cannot run
    history().push(new)
    record_recipe(f"add step {len(new.steps)}: {new.steps[-1].get('step', '?')}")


def replace_recipe(new: Recipe, message: str = "recipe replaced") -> None:
    _replay(new)
    history().push(new)
    record_recipe(message)


def _replay(target: Recipe) -> RecipeResult:
    """Apply ``target`` to the original, reusing cached prefixes of earlier replays."""
    state = session()
    cache = session_cache(PREFIX_CACHE)
    steps = target.steps
    seed = target.seed or 0
    keys = [(seed, repr(steps[:i])) for i in range(len(steps) + 1)]
    start = max((i for i, key in enumerate(keys) if key in cache), default=0)
    current = cache.get(keys[start])
    if current is None:
        current = cache.put(keys[start], RecipeResult(original(), {}, {}, (), seed))
    if start == len(steps):
        return current
    stored, tables = StoredHierarchies(), stored_population_tables(steps[start:])
    rows = len(current.data)
    with _steps_progress(rows) as report:
        for position in range(start + 1, len(steps) + 1):
            step = steps[position - 1]
            report(
                (position - start - 1) / (len(steps) - start),
                f"Step {position} of {len(steps)}: {describe_step(step)} ({rows:,} records)...",
            )
            current = advance(
                current,
                step,
                position,
                base_dir=ROOT,
                pseudonym_seed=state["pseudonym_secret"],
                keys=session_keys(),
                hierarchies=stored,
                tables=tables,
            )
            cache.put(keys[position], current)
    return current


#: From this many records a replay shows which step it runs (a step on 50,000 records
#: can take seconds: issue 29, "No sign of long work"); below, it is too quick to show.
PROGRESS_ROWS = 20_000


@contextmanager
def _steps_progress(rows: int) -> Iterator[ProgressFn]:
    """A progress bar naming each step as it runs, on tables of PROGRESS_ROWS or more."""
    if rows < PROGRESS_ROWS:
        yield lambda fraction, message: None
        return
    with progress_bar(f"Applying the recipe to {rows:,} records...") as report:
        yield report


def replay_with(
    base: Recipe,
    steps: Sequence[dict[str, Any]],
    *,
    hierarchies: Mapping[str, str] | None = None,
    tables: Mapping[str, pd.DataFrame] | None = None,
) -> pd.DataFrame:
    """The table ``base`` and then ``steps`` make, as if the recipe were ``base`` with
    ``steps`` appended, nothing stored: the preview of a recipe not yet applied (Explore
    trade-offs shows the table as the recipe would leave it, identifiers removed). ``base``
    replays from the cached prefixes; ``steps`` run on top (not cached: a preview of each
    option would push the recipe's own prefixes out). ``hierarchies`` (name -> text) and
    ``tables`` (name -> population table) are those the steps name that the workspace does
    not keep yet. Raises AnonymisationError naming the step that cannot run."""
    current = _replay(base)
    known = ChainMap(dict(hierarchies or {}), StoredHierarchies())
    given = {**stored_population_tables(steps), **(tables or {})}
    for position, step in enumerate(steps, start=len(base.steps) + 1):
        current = advance(
            current,
            step,
            position,
            base_dir=ROOT,
            pseudonym_seed=session()["pseudonym_secret"],
            keys=session_keys(),
            hierarchies=known,
            tables=given,
        )
    return current.data


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
            tables=stored_population_tables([step]),
        )
    return StepPreview(data, seed, tuple(str(w.message) for w in caught))


def undo() -> None:
    history().undo()
    record_recipe("undo")


def redo() -> None:
    history().redo()
    record_recipe("redo")
