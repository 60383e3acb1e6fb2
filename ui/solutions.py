"""The Explore trade-offs page's answer, from the search result on: the minimal options
(table and frontier chart, either of which picks an option with a click), the option
picked, its loss per column, local recoding, then the released table and Apply
(:mod:`ui.option_release`) and the pinned options side by side (:mod:`ui.pinned_options`).
PDPC guide, Step 3 and Annex C.

Apart from pages/9_tradeoffs.py, which asks for the search, so the answer can grow
without the page growing past its size.
"""

from __future__ import annotations

from functools import partial

import altair as alt
import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.figure_names import ANNEX_D_P_REID, RECORD_RISK
from core.formatting import fmt_change, fmt_count, fmt_number, fmt_probability
from core.local_recoding import LOCAL_MEASURES, LocalRecodingResult, recode_suppressed
from core.markup import escape_markdown
from core.search.result import Candidate, SearchResult
from ui import option_release, pinned_options
from ui.page_errors import show_error
from ui.state import presentation, tradeoffs
from ui.tradeoffs import (
    MEASURE_NAMES,
    describe_level,
    frontier_frame,
    measure_label,
    measure_words,
    option_order,
    option_short,
    sensitive_figures_words,
    solutions_table,
    summary,
)

#: The frontier chart's point selection (Vega-Lite parameter) and widget key.
CHART_SELECTION = "picked_point"
CHART_KEY = "to_frontier"


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
    ordered = option_order(result)
    labels = [c.label() for c in ordered]
    picked = tradeoffs.picked_option()
    if picked not in labels:  # a new search: its optimum first
        picked = result.optimum.label()
        tradeoffs.pick_option(picked)
    st.subheader("Minimal options")
    st.caption(
        "Click a row of the table or a point of the chart to pick an option; ★ marks the optimum."
    )
    _options_table(result, hierarchies, labels, picked)
    _frontier_chart(result, hierarchies, labels, picked)
    tradeoffs.show_pick_in_list(picked)
    short = {
        label: option_short(result, number, candidate)
        for number, (label, candidate) in enumerate(zip(labels, ordered, strict=True), start=1)
    }
    st.selectbox(
        "Option",
        labels,
        format_func=short.get,
        key=tradeoffs.LIST_KEY,
        on_change=tradeoffs.pick_from_list,
        help="The options in the table's order (option 1 is its first row).",
    )
    candidate = ordered[labels.index(picked)]
    _option_figures(result, hierarchies, candidate)
    pinned_options.pin_button(result, labels.index(picked) + 1, candidate)
    local = _local_recoding(data, basis, result, hierarchies, candidate)
    option_release.show(data, basis, result, hierarchies, candidate, local)
    pinned_options.show(data, basis, result, hierarchies, ordered)


def _options_table(result: SearchResult, hierarchies: dict, labels: list[str], picked: str) -> None:
    table = solutions_table(result, hierarchies)
    name = MEASURE_NAMES[result.measure]
    key = tradeoffs.table_key()
    st.dataframe(
        table,
        key=key,
        hide_index=True,
        on_select=partial(tradeoffs.pick_from_table, key, labels),
        selection_mode="single-row",
        selection_default={"selection": {"rows": [labels.index(picked)]}},
        column_config={
            "option": st.column_config.NumberColumn("option", width="small"),
            "optimum": st.column_config.TextColumn(
                "optimum", width="small", help="★: the option with the least loss"
            ),
            RECORD_RISK.name: st.column_config.NumberColumn(format="%.3g", help=RECORD_RISK.help()),
            "levels": None,  # level codes ("Age:2"): the columns above say them in words
            ANNEX_D_P_REID.name: st.column_config.NumberColumn(
                format="%.3g", help=ANNEX_D_P_REID.help()
            ),
            name: st.column_config.NumberColumn(format="%.3g"),
        },
    )
    presentation.explain(
        "Each row is a minimal option: no column can keep more detail without breaking the "
        f"target. Click a header to sort; {measure_words(result.measure)}.",
        "PDPC guide, Step 3 and Annex C",
    )


def _frontier_chart(
    result: SearchResult, hierarchies: dict, labels: list[str], picked: str
) -> None:
    name = MEASURE_NAMES[result.measure]
    points = frontier_frame(result, hierarchies)
    points["picked"] = points["levels"] == picked
    # Every point inside the plot: the jitter may lift a point past a "nice" axis top (issue 29).
    jittered = points["removed (jittered)"]
    pad = max(0.08 * float(jittered.max() - jittered.min()), 0.5)
    y_domain = [min(0.0, float(jittered.min()) - pad), float(jittered.max()) + pad]
    click = alt.selection_point(name=CHART_SELECTION, fields=["option"], on="click")
    chart = (
        alt.Chart(points)
        .mark_point(filled=True, strokeWidth=3)
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
            shape=alt.Shape("Optimum:N", title="Optimum", sort=["yes", "no"]),
            size=alt.condition("datum.optimum", alt.value(200), alt.value(70)),
            # the picked option is ringed in black
            stroke=alt.condition("datum.picked", alt.value("black"), alt.value(None)),
            tooltip=[
                alt.Tooltip("option:Q", title="Option"),
                alt.Tooltip("in words:N", title="Levels"),
                alt.Tooltip("loss shown:N", title=name),
                alt.Tooltip("removed shown:N", title="Records removed"),
                alt.Tooltip("k:Q", title="Smallest group (k)"),
                alt.Tooltip("Optimum:N"),
            ],
        )
        .add_params(click)
    )
    st.altair_chart(
        chart,
        width="stretch",
        key=CHART_KEY,
        on_select=partial(tradeoffs.pick_from_chart, CHART_KEY, CHART_SELECTION, labels),
        selection_mode=CHART_SELECTION,
    )
    presentation.explain(
        "Lower-left keeps the most: less detail lost and fewer records removed. Options with "
        "the same figures are spread slightly so that each stays visible; the picked option "
        "is ringed.",
        "PDPC guide, Step 3; Annex A: Record suppression",
    )


def _option_figures(result: SearchResult, hierarchies: dict, candidate: Candidate) -> None:
    m1, m2, m3 = st.columns(3)
    m1.metric("k after suppression", candidate.k)
    m2.metric("Records suppressed", fmt_count(candidate.suppressed))
    m3.metric(measure_label(result.measure), fmt_number(candidate.measures[result.measure], 3))
    if candidate.sensitive_figures:
        words_sensitive = sensitive_figures_words(
            result.target.sensitive, candidate.sensitive_figures
        )
        st.caption(escape_markdown(words_sensitive))
    if candidate.table_figures:
        figures = candidate.table_figures
        words_pu = ""
        if "population_uniqueness" in figures:
            share = fmt_probability(figures["population_uniqueness"])
            words_pu = f"; estimated population uniqueness {share}"
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
            "loss shown": [fmt_number(v, 3) for v in candidate.column_loss.values()],
            "level": [
                describe_level(c, hierarchies[c], candidate.levels[c]).removeprefix("→ ")
                for c in candidate.column_loss
            ],
        }
    )
    st.altair_chart(
        alt.Chart(loss)
        .mark_bar()
        .encode(
            x=alt.X("loss:Q", scale=alt.Scale(domain=[0, 1]), title="Loss per column (0-1)"),
            y=alt.Y("column:N", sort=None),
            tooltip=[
                alt.Tooltip("column:N"),
                alt.Tooltip("level:N", title="level"),
                alt.Tooltip("loss shown:N", title="loss"),
            ],
        )
        # a fixed height: a step per bar makes Vega drop "fit-y" under width="stretch"
        .properties(height=24 * len(loss) + 40),
        width="stretch",
    )
    presentation.explain(
        "Per quasi-identifier loss (Iyengar's loss metric, as in ARX): 0 = unchanged, 1 = fully "
        "generalised to '*' or removed; ARX loss combines these geometrically, average loss "
        "arithmetically.",
        "PDPC guide, Introduction A (judge utility per attribute)",
    )


def _local_recoding(
    data: pd.DataFrame,
    basis: str,
    result: SearchResult,
    hierarchies: dict,
    candidate: Candidate,
) -> LocalRecodingResult | None:
    """The local recoding of ``candidate`` when asked for (ARX: not with population
    uniqueness), kept per search and option."""
    if not candidate.suppressed or result.target.sample_based:
        return None
    recode = st.checkbox(
        "Recode suppressed records locally",
        key="to_local",
        help="Search the removed records again on their own: those whose groups then meet "
        "the target at other levels are kept, generalised further, instead of removed.",
    )
    if not recode:
        return None
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
            except AnonymisationError as error:
                show_error(error)
                return None
            tradeoffs.set_local_recoding_result(local_key, local)
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
    return local
