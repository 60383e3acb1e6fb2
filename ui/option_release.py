"""The picked option as it would be released, and Apply (PDPC guide, Step 3 and Step 5:
the anonymisation process recorded as a recipe).

The preview is the table the recipe would leave: the recipe's own steps replayed
(:func:`ui.state.replay.replay_with`), then this option's steps, so that a column the recipe
removes or pseudonymises shows as the recipe leaves it, never in clear next to the
generalised columns (issue 30).

The option's steps carry ``origin: trade-off`` (core.techniques.registry.STEP_ORIGINS).
Applying a second option replaces the steps the first one added (asked first, next to the
button; all or none, recorded in the recipe's history in words) instead of appending a
second generalisation to the first, which failed on the values the first had made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.hierarchy import Hierarchy
from core.local_recoding import LocalRecodingResult
from core.markup import escape_markdown
from core.recipe import Recipe, describe_step
from core.search.apply import recipe_steps, with_hierarchy_words
from core.search.result import Candidate, SearchResult
from ui.page_errors import error_text, show_error
from ui.progress import working
from ui.state import classify, replay, session, tradeoffs
from ui.state import hierarchies as kept_hierarchies
from ui.tradeoffs import option_in_words

#: The mark of the steps an applied option adds (core.techniques.registry.STEP_ORIGINS).
ORIGIN = "trade-off"
#: How many released rows the preview shows.
PREVIEW_ROWS = 20
#: How many of the recipe's steps the preview's caption names (the rest are counted).
SHOWN_STEPS = 4


@dataclass(frozen=True)
class OptionRecipe:
    """What Apply would make the recipe: ``base`` (the recipe without the steps an earlier
    option added, when the search ran on the original) and the option's ``steps`` after it,
    with the hierarchies (name -> (column, text)) and population tables (name -> table)
    the steps name."""

    base: Recipe
    steps: tuple[dict[str, Any], ...]
    hierarchies: Mapping[str, tuple[str, str]]
    tables: Mapping[str, pd.DataFrame]
    replaced: tuple[dict[str, Any], ...]  # the earlier option's steps it takes out

    @property
    def recipe(self) -> Recipe:
        new = self.base
        for step in self.steps:
            new = new.add(step)
        return new


def from_trade_off(step: Mapping[str, Any]) -> bool:
    """Whether ``step`` was added by applying a trade-off option."""
    return step.get("origin") == ORIGIN


def option_recipe(
    data: pd.DataFrame,
    basis: str,
    result: SearchResult,
    hierarchies: Mapping[str, Hierarchy],
    candidate: Candidate,
    local: LocalRecodingResult | None,
) -> OptionRecipe:
    """The recipe Apply would make for ``candidate`` (or its local recoding ``local``).

    Searched on the original, the option replaces the steps an earlier option added (the
    option was found for the original values; generalising the earlier option's bands
    again fails). Searched on the table the recipe makes, it comes after every step."""
    target = result.target
    named: dict[str, tuple[str, str]] = {}

    def name_of(column: str, hierarchy: Hierarchy) -> str:
        name, text = kept_hierarchies.hierarchy_named(column, hierarchy)
        named[name] = (column, text)
        return name

    t_names = {}
    if target.t is not None and target.t_distance == "hierarchical":  # the step names it
        t_names[target.sensitive] = name_of(target.sensitive, target.t_hierarchy)
    tables: dict[str, pd.DataFrame] = {}
    if local is not None and local.rounds:  # every column's hierarchy: rounds differ
        names = {column: name_of(column, hierarchies[column]) for column in candidate.levels}
        steps = [local.recipe_step({**names, **t_names})]
    else:
        names = {
            column: name_of(column, hierarchies[column])
            for column, level in candidate.levels.items()
            if level > 0
        }
        population_name = None
        if target.population_table is not None:  # kept in the workspace, never a file
            data_bytes, _ = tradeoffs.population_upload()
            population_name = kept_hierarchies.population_table_name(data_bytes)
            tables[population_name] = target.population_table
        steps = recipe_steps(
            candidate, {**names, **t_names}, models=target, population_table_path=population_name
        )
        # the steps name each hierarchy as the person knows it (their file, or built from
        # the data), never by the key the workspace keeps it under (issue 30)
        sources = kept_hierarchies.uploaded_file_names(names)
        steps = with_hierarchy_words(steps, hierarchies, sources=sources, data=data)
    current = session.recipe()
    replaced: tuple[dict[str, Any], ...] = ()
    base = current
    if basis == "original":
        replaced = tuple(s for s in current.steps if from_trade_off(s))
        base = replace(current, steps=tuple(s for s in current.steps if not from_trade_off(s)))
    marked = tuple({**step, "origin": ORIGIN} for step in steps)
    return OptionRecipe(base, marked, named, tables, replaced)


def replaced_in_words(steps: tuple[dict[str, Any], ...]) -> str:
    """The earlier option's steps in a few words: "The 7 step(s) of the option applied
    before (age, education generalised; records in small groups removed)"."""
    columns = [str(s["column"]) for s in steps if s.get("step") == "generalise" and "column" in s]
    parts = [f"{', '.join(columns)} generalised"] if columns else []
    if any(s.get("step") == "suppress_records" for s in steps):
        parts.append("records in small groups removed")
    if any(s.get("step") == "recode_locally" for s in steps):
        parts.append("records recoded locally")
    said = f" ({'; '.join(parts)})" if parts else ""
    return f"The {len(steps)} step(s) of the option applied before{said}"


def released_table(plan: OptionRecipe) -> pd.DataFrame:
    """The table ``plan`` releases (kept per recipe and option: a rerun reuses it).
    Raises AnonymisationError naming the step that cannot run."""
    key = (plan.base.seed, repr(plan.base.steps), repr(plan.steps))
    kept = tradeoffs.option_preview(key)
    if kept is None:
        texts = {name: text for name, (_, text) in plan.hierarchies.items()}
        kept = replay.replay_with(plan.base, plan.steps, hierarchies=texts, tables=plan.tables)
        tradeoffs.set_option_preview(key, kept)
    return kept


def show(
    data: pd.DataFrame,
    basis: str,
    result: SearchResult,
    hierarchies: Mapping[str, Hierarchy],
    candidate: Candidate,
    local: LocalRecodingResult | None,
) -> None:
    """The released table of the picked option and the Apply button."""
    plan = option_recipe(data, basis, result, hierarchies, candidate, local)
    st.subheader("The table as it would be released")
    kept = [describe_step(s) for s in plan.base.steps]
    if kept:
        named = "; ".join(kept[:SHOWN_STEPS])
        if len(kept) > SHOWN_STEPS:
            named += f"; and {len(kept) - SHOWN_STEPS} more"
        st.caption(
            escape_markdown(
                f"The recipe's {len(kept)} step(s) first ({named}), then this option: "
                "columns the recipe removes or pseudonymises show as it leaves them."
            )
        )
    released = None
    try:
        released = released_table(plan)
    except AnonymisationError as error:
        show_error(error)
        if basis == "original" and plan.base.steps:
            st.caption(
                "A step of the recipe already changes a column this option generalises: "
                "search on the table the recipe makes ('Search on' above), or take that "
                "step out on Techniques."
            )
    if released is not None:
        st.dataframe(released.head(PREVIEW_ROWS), key="to_preview")
        st.caption(f"The first {PREVIEW_ROWS} of {len(released):,} released records.")
    _apply(data, result, hierarchies, candidate, plan, ready=released is not None)


def _apply(
    data: pd.DataFrame,
    result: SearchResult,
    hierarchies: Mapping[str, Hierarchy],
    candidate: Candidate,
    plan: OptionRecipe,
    *,
    ready: bool,
) -> None:
    """Apply, with the question "Replace ...?" right under it when an earlier option's
    steps would be replaced; disabled while it runs or asks, and once the recipe is this
    option's (until another option is picked or the recipe changes)."""
    current = session.recipe()
    new = plan.recipe
    ends_with_it = tuple(current.steps[len(current.steps) - len(plan.steps) :]) == plan.steps
    # searched on the recipe's table, Apply comes after every step: the recipe that ends
    # with the option's steps has it already (a second Apply would generalise it twice)
    applied = (new.steps == current.steps and new.seed == current.seed) or (
        not plan.replaced and bool(plan.steps) and ends_with_it
    )
    key = (repr(current.steps), repr(new.steps))  # what this Apply would change
    busy = tradeoffs.applying(key)
    if applied:
        label = "Applied: the recipe ends with this option's steps"
    elif plan.replaced:
        label = "Apply: replace the previous trade-off steps with this option"
    else:
        label = "Apply: add these steps to the recipe"
    box = st.container()
    box.button(
        label,
        key="to_apply",
        type="primary",
        disabled=applied or not ready or busy,
        on_click=tradeoffs.start_applying,
        args=(key,),
        help="Pick another option, or change the recipe, to apply again." if applied else None,
    )
    flash = tradeoffs.pop_apply_message()
    if flash:
        box.success(flash)
    elif plan.replaced and not applied:
        box.caption(
            f"The recipe holds {len(plan.replaced)} step(s) of an option applied before: "
            "Apply replaces them with this option's."
        )
    if not busy:
        return
    if plan.replaced and not tradeoffs.confirmed(key):
        box.warning(
            "Replace the previous trade-off steps with this solution? "
            f"{escape_markdown(replaced_in_words(plan.replaced))} are taken out of the recipe "
            f"and this option's {len(plan.steps)} step(s) put in, in one change that Undo "
            "takes back.",
            icon=":material/help:",
        )
        yes, no = box.columns([1, 2])
        yes.button(
            "Replace them",
            key="to_replace",
            type="primary",
            on_click=tradeoffs.confirm,
            args=(key,),
        )
        no.button("Keep the recipe as it is", key="to_keep", on_click=tradeoffs.cancel_applying)
        return
    _do_apply(data, result, hierarchies, candidate, plan, box)


def _do_apply(
    data: pd.DataFrame,
    result: SearchResult,
    hierarchies: Mapping[str, Hierarchy],
    candidate: Candidate,
    plan: OptionRecipe,
    box: Any,
) -> None:
    target = result.target
    words = option_in_words(candidate, hierarchies)
    message = f"Explore trade-offs: {words}"
    if plan.replaced:
        message += f" (replacing the {len(plan.replaced)} step(s) of the option applied before)"
    try:
        for name, (column, text) in plan.hierarchies.items():
            kept_hierarchies.keep_hierarchy_text(name, text, column)
        if plan.tables:
            data_bytes, file_name = tradeoffs.population_upload()
            kept_hierarchies.save_population_table(data_bytes, file_name)
        with working(f"Applying the option ({words}) to {len(data):,} records..."):
            replay.replace_recipe(plan.recipe, message)  # all or none
    except AnonymisationError as error:
        tradeoffs.cancel_applying()
        box.error(error_text(error), icon=":material/error:")
        return
    if plan.replaced:
        done = f"Replaced the previous trade-off steps with this option's {len(plan.steps)} step(s)"
    else:
        done = f"Added {len(plan.steps)} step(s) to the recipe"
    flash = f"{done}; see Techniques to review them."
    # The steps keep groups of at least target.required_k (raised by an Annex D
    # threshold): the release's target k says the same, so the report never calls a
    # k = 6 release "target k = 5" (issue 29).
    if target.required_k > classify.k_target():
        classify.set_k_target(target.required_k)
        flash += (
            f" The release's target k is now {target.required_k}, the k this option was "
            "searched for."
        )
    tradeoffs.finish_applying(flash)
    # Rerun so the sidebar (drawn before this page) shows the new recipe and k at once.
    st.rerun()
