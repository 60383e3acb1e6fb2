"""The Explore trade-offs page's answer, from the search result on: the minimal options
(table and frontier chart), the option picked, its loss per column, local recoding, the
preview of the released rows and Apply (PDPC guide, Step 3 and Annex C).

Apart from pages/9_tradeoffs.py, which asks for the search, so the answer can grow (pick,
pin and compare options) without the page growing past its size.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.figure_names import ANNEX_D_P_REID, RECORD_RISK
from core.formatting import fmt_change, fmt_count, fmt_number, fmt_probability
from core.local_recoding import LOCAL_MEASURES, recode_suppressed
from core.markup import escape_markdown
from core.search.apply import apply_candidate, recipe_steps, with_hierarchy_words
from ui.page_errors import continue_on_error, stop_on_error
from ui.progress import working
from ui.state import classify, presentation, replay, session, tradeoffs
from ui.state import hierarchies as kept_hierarchies
from ui.tradeoffs import (
    MEASURE_NAMES,
    describe_level,
    frontier_frame,
    measure_label,
    measure_words,
    option_in_words,
    sensitive_figures_words,
    solutions_table,
    summary,
)


def show_result(data: pd.DataFrame, basis: str) -> None:
    """The last search's answer on ``data`` (the table searched, ``basis`` "original" or
    "current"), or nothing when there is none for these columns."""
    columns = [str(c) for c in data.columns]
    stored = tradeoffs.tradeoff_result()
    if stored is None or set(stored[0].quasi_identifiers) - set(columns):
        return
    result, hierarchies = stored
    st.success(escape_markdown(summary(result, hierarchies)))
    presentation.explain(
        f"{result.evaluated:,} of {result.lattice_size:,} combinations were evaluated in "
        f"{result.seconds:.2f} s ({result.method} search); {result.note or 'pruning is exact.'}",
        "PDPC guide, Step 3",
    )
    if result.optimum is None:
        return

    name = MEASURE_NAMES[result.measure]
    st.subheader("Minimal options")
    st.dataframe(
        solutions_table(result, hierarchies),
        key="to_table",
        hide_index=True,
        column_config={
            RECORD_RISK.name: st.column_config.NumberColumn(format="%.3g", help=RECORD_RISK.help()),
            "levels": None,  # level codes ("Age:2"): the columns above say them in words
            ANNEX_D_P_REID.name: st.column_config.NumberColumn(
                format="%.3g", help=ANNEX_D_P_REID.help()
            ),
            name: st.column_config.NumberColumn(format="%.4g"),
        },
    )
    presentation.explain(
        "Each row is a minimal option: no column can keep more detail without breaking the "
        f"target. Click a header to sort; {measure_words(result.measure)}.",
        "PDPC guide, Step 3 and Annex C",
    )
    points = frontier_frame(result)
    points["option"] = [option_in_words(c, hierarchies) for c in result.candidates]
    # Every point inside the plot: the jitter may lift a point past a "nice" axis top (issue 29).
    jittered = points["removed (jittered)"]
    pad = max(0.08 * float(jittered.max() - jittered.min()), 0.5)
    y_domain = [min(0.0, float(jittered.min()) - pad), float(jittered.max()) + pad]
    chart = (
        alt.Chart(points)
        .mark_point(filled=True)
        .encode(
            x=alt.X("loss:Q", title=name, scale=alt.Scale(zero=False)),
            # whole records: the jitter must not show as ticks such as "0.000000"
            y=alt.Y(
                "removed (jittered):Q",
                title="Records removed",
                axis=alt.Axis(format=",d", tickMinStep=1),
                scale=alt.Scale(domain=y_domain, nice=False),
            ),
            color=alt.Color("k:O", title="Smallest group (k)"),
            shape=alt.Shape("optimum:N", title="Optimum"),
            size=alt.condition("datum.optimum", alt.value(200), alt.value(70)),
            tooltip=["option", "loss", "records removed", "k"],
        )
    )
    st.altair_chart(chart, width="stretch")
    presentation.explain(
        "Lower-left keeps the most: less detail lost and fewer records removed. Options with "
        "the same figures are spread slightly so that each stays visible.",
        "PDPC guide, Step 3; Annex A: Record suppression",
    )

    labels = [c.label() for c in result.candidates]
    words = {
        c.label(): "; ".join(
            f"{col} {describe_level(col, hierarchies[col], lvl)}" for col, lvl in c.levels.items()
        )
        + f"; {c.suppressed:,} removed"
        for c in result.candidates
    }
    pick = st.selectbox(
        "Option",
        labels,
        index=labels.index(result.optimum.label()),
        format_func=words.get,
        key="to_candidate",
    )
    candidate = result.candidates[labels.index(pick)]
    m1, m2, m3 = st.columns(3)
    m1.metric("k after suppression", candidate.k)
    m2.metric("Records suppressed", fmt_count(candidate.suppressed))
    m3.metric(measure_label(result.measure), fmt_number(candidate.measures[result.measure], 4))
    if candidate.sensitive_figures:
        words_sensitive = sensitive_figures_words(
            result.target.sensitive, candidate.sensitive_figures
        )
        st.caption(escape_markdown(words_sensitive))
    if candidate.table_figures:
        figures = candidate.table_figures
        words_pu = ""
        if "population_uniqueness" in figures:
            words_pu = f"; estimated population uniqueness {fmt_probability(figures['population_uniqueness'])}"
        st.caption(
            f"Average risk (groups / records) {fmt_probability(figures['average_risk'])}{words_pu}."
        )
    presentation.explain(
        f"Groups smaller than k = {result.target.required_k} (or failing a model above) are "
        "removed; the rest form groups of at least k.",
        "PDPC guide, Annex A: Record suppression; Annex C",
    )
    loss = pd.DataFrame(
        {
            "column": list(candidate.column_loss),
            "loss": list(candidate.column_loss.values()),
            "level": [candidate.levels[c] for c in candidate.column_loss],
        }
    )
    st.altair_chart(
        alt.Chart(loss)
        .mark_bar()
        .encode(
            x=alt.X("loss:Q", scale=alt.Scale(domain=[0, 1]), title="Loss per column (0-1)"),
            y=alt.Y("column:N", sort=None),
            tooltip=["column", "level", "loss"],
        ),
        width="stretch",
    )
    presentation.explain(
        "Per quasi-identifier loss (Iyengar's loss metric, as in ARX): 0 = unchanged, 1 = fully "
        "generalised to '*' or removed; ARX loss combines these geometrically, average loss "
        "arithmetically.",
        "PDPC guide, Introduction A (judge utility per attribute)",
    )
    local = None
    if (
        candidate.suppressed and not result.target.sample_based
    ):  # ARX: not with population uniqueness
        recode = st.checkbox(
            "Recode suppressed records locally",
            key="to_local",
            help="Search the removed records again on their own: those whose groups then meet "
            "the target at other levels are kept, generalised further, instead of removed.",
        )
        if recode:
            local_measure = result.measure if result.measure in LOCAL_MEASURES else "loss"
            local_key = (
                basis,
                len(data),
                result.target,
                result.quasi_identifiers,
                result.seconds,
                candidate.label(),
                local_measure,
            )
            local = tradeoffs.local_recoding_result(local_key)
            if local is None:
                with st.spinner("Searching the suppressed records again..."):
                    try:
                        local = recode_suppressed(
                            data, hierarchies, result.target, candidate, measure=local_measure
                        )
                    except (AnonymisationError, ValueError) as error:
                        st.error(escape_markdown(error))
                    else:
                        tradeoffs.set_local_recoding_result(local_key, local)
        if local is not None:
            st.info(escape_markdown(local.explanation()))
            r1, r2 = st.columns(2)
            r1.metric("Records kept instead of suppressed", fmt_count(local.kept))
            r2.metric(
                measure_label(local.measure),
                fmt_number(local.loss_after, 4),
                delta=fmt_change(local.loss_after, local.loss_before, 4),
                delta_color="inverse",
                help=LOCAL_MEASURES[local.measure],
            )
            presentation.explain(
                "Local recoding: the records this option removes are searched again on their "
                "own, round after round (as ARX's local recoding does); those whose groups then "
                "meet every model keep their row at coarser levels. Every group of the released "
                "table is checked again, so the target still holds.",
                "PDPC guide, Annex A: Generalisation and Record suppression; Annex C",
            )
    if local is not None and local.rounds:
        released = local.data
    else:
        released = apply_candidate(data, hierarchies, candidate, models=result.target)
    st.dataframe(released.head(20), key="to_preview")

    if basis == "original" and session.recipe().steps:
        st.caption(
            f"Apply adds these steps after the recipe's {len(session.recipe().steps)} "
            "step(s), which already change the table: review them on Techniques."
        )
    if st.button("Apply: add these steps to the recipe", key="to_apply"):
        target = result.target
        t_paths = {}
        if target.t is not None and target.t_distance == "hierarchical":  # the step names it
            t_paths[target.sensitive] = kept_hierarchies.save_hierarchy(
                target.sensitive, target.t_hierarchy
            )
        if local is not None and local.rounds:  # every column's hierarchy: rounds differ
            paths = {
                column: kept_hierarchies.save_hierarchy(column, hierarchies[column])
                for column in candidate.levels
            }
            steps = [local.recipe_step({**paths, **t_paths})]
        else:
            paths = {
                column: kept_hierarchies.save_hierarchy(column, hierarchies[column])
                for column, level in candidate.levels.items()
                if level > 0
            }
            population_path = None
            if target.population_table is not None:  # kept in the workspace, never a file
                data_bytes, file_name = st.session_state["to_population_file"]
                with stop_on_error():
                    population_path = kept_hierarchies.save_population_table(data_bytes, file_name)
            steps = recipe_steps(
                candidate,
                {**paths, **t_paths},
                models=result.target,
                population_table_path=population_path,
            )
        # the steps name each hierarchy as the person knows it (their file, or built from
        # the data), never by the key the workspace keeps it under (issue 30)
        sources = kept_hierarchies.uploaded_file_names(paths)
        steps = with_hierarchy_words(steps, hierarchies, sources=sources, data=data)
        new = session.recipe()
        for step in steps:
            new = new.add(step)
        with continue_on_error():
            words = option_in_words(candidate, hierarchies)
            with working(f"Applying the option ({words}) to {len(data):,} records..."):
                replay.replace_recipe(new, f"Explore trade-offs: {words}")  # all or none
            flash = f"Added {len(steps)} step(s) to the recipe; see Techniques to review them."
            # The steps keep groups of at least target.required_k (raised by an Annex D
            # threshold): the release's target k says the same, so the report never calls a
            # k = 6 release "target k = 5" (issue 29).
            if target.required_k > classify.k_target():
                classify.set_k_target(target.required_k)
                flash += (
                    f" The release's target k is now {target.required_k}, the k this option was "
                    "searched for."
                )
            st.session_state["to_flash"] = flash
            # Rerun so the sidebar (drawn before this page) shows the new recipe and k at once.
            st.rerun()
