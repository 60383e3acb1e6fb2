"""Pin two or three options of a search and compare them side by side, as ARX users do:
the figures of each (records removed, k, the highest record risk 1/k, the Annex D
P(re-ID), the loss), the sizes of their groups, the loss per column and the same few
released records under each (PDPC guide, Step 3: weigh the risk left against the detail
lost; Annex C, Annex D).

The pins last across reruns and page visits and are cleared by the next search
(:mod:`ui.state.tradeoffs`). Each pinned option's released table is the one Apply would
release (:func:`ui.option_release.released_table`): the recipe's steps, then the option.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.figure_names import ANNEX_D_P_REID, RECORD_RISK
from core.hierarchy import Hierarchy
from core.markup import escape_markdown
from core.risk import annex_d_risk
from core.search.result import Candidate, SearchResult
from ui.comparison import (
    SIZE_BANDS,
    class_sizes,
    common_rows,
    comparison_table,
    loss_frame,
    option_title,
)
from ui.option_release import option_recipe, released_table
from ui.page_errors import show_error
from ui.state import presentation, risk, tradeoffs

#: How many released records each pinned option shows.
SAMPLE_ROWS = 5


def pin_button(result: SearchResult, number: int, candidate: Candidate) -> None:
    """Pin (or unpin) the picked option, option ``number`` of the table."""
    label = candidate.label()
    pinned = tradeoffs.pinned_options()
    title = option_title(number, candidate, result)
    if label in pinned:
        st.button(
            f"Unpin {title}",
            key="to_unpin",
            on_click=tradeoffs.unpin_option,
            args=(label,),
        )
    else:
        full = len(pinned) >= tradeoffs.MAX_PINNED
        st.button(
            f"Pin {title} to compare",
            key="to_pin",
            on_click=tradeoffs.pin_option,
            args=(label,),
            disabled=full,
            help=f"At most {tradeoffs.MAX_PINNED} options side by side: unpin one first."
            if full
            else "Pinned options are shown side by side below.",
        )
    if pinned:
        st.caption(f"{len(pinned)} option(s) pinned: see 'Pinned options side by side' below.")


def _annex_d_p_reid(k: int) -> float:
    """P(attempt) / k with the Risk page's Annex D settings (the sidebar's figure)."""
    return annex_d_risk(k, insider_table=risk.insider_table(), **risk.annex_d_settings()).p_reid


def show(
    data: pd.DataFrame,
    basis: str,
    result: SearchResult,
    hierarchies: Mapping[str, Hierarchy],
    ordered: Sequence[Candidate],
) -> None:
    """The pinned options side by side (nothing when none is pinned)."""
    labels = [c.label() for c in ordered]
    pinned = [label for label in tradeoffs.pinned_options() if label in labels]
    if not pinned:
        return
    options = [(labels.index(label) + 1, ordered[labels.index(label)]) for label in pinned]
    st.subheader("Pinned options side by side")
    table = comparison_table(result, hierarchies, options, p_reid=_annex_d_p_reid)
    # every figure in view: 35 px a row and the header (the grid's own row height)
    st.dataframe(table, key="to_compare", height=35 * (len(table) + 1) + 3)
    presentation.explain(
        f"{RECORD_RISK.sentence} {ANNEX_D_P_REID.sentence} Each column's loss is Iyengar's: "
        "0 = unchanged, 1 = '*'.",
        "PDPC guide, Annex D; Introduction A (judge utility per attribute)",
    )
    released: list[pd.DataFrame] = []
    for _, candidate in options:
        try:
            plan = option_recipe(data, basis, result, hierarchies, candidate, None)
            released.append(released_table(plan))
        except AnonymisationError as error:
            show_error(error)
            return
    titles = [option_title(number, candidate, result) for number, candidate in options]
    sizes = pd.concat(
        [
            class_sizes(table_, result.quasi_identifiers).assign(option=title)
            for table_, title in zip(released, titles, strict=True)
        ],
        ignore_index=True,
    )
    bands = [band for band in SIZE_BANDS if band in set(sizes["band"])]
    left, right = st.columns(2)
    # horizontal bars of a fixed height: a step per bar makes Vega drop "fit-y" (or
    # "fit-x") with a warning under width="stretch"
    bar_rows = 16 * len(titles) + 8  # each band's or column's group of bars
    left.altair_chart(
        alt.Chart(sizes)
        .mark_bar()
        .encode(
            y=alt.Y("band:N", sort=bands, title="Group size"),
            yOffset=alt.YOffset("option:N", sort=titles),
            x=alt.X("records:Q", title="Records", axis=alt.Axis(format=",d")),
            color=alt.Color("option:N", sort=titles, title="Option"),
            tooltip=[
                alt.Tooltip("option:N", title="Option"),
                alt.Tooltip("band:N", title="Group size"),
                alt.Tooltip("groups:Q", title="Groups", format=","),
                alt.Tooltip("records:Q", title="Records", format=","),
            ],
        )
        .properties(height=bar_rows * len(bands) + 50),
        width="stretch",
        key="to_compare_sizes",
    )
    losses = loss_frame(result, options)
    right.altair_chart(
        alt.Chart(losses)
        .mark_bar()
        .encode(
            x=alt.X("loss:Q", scale=alt.Scale(domain=[0, 1]), title="Loss per column (0-1)"),
            y=alt.Y("column:N", sort=None, title=None),
            yOffset=alt.YOffset("option:N", sort=titles),
            color=alt.Color("option:N", sort=titles, title="Option"),
            tooltip=[
                alt.Tooltip("option:N", title="Option"),
                alt.Tooltip("column:N", title="Column"),
                alt.Tooltip("loss shown:N", title="Loss"),
            ],
        )
        .properties(height=bar_rows * len(result.quasi_identifiers) + 50),
        width="stretch",
        key="to_compare_loss",
    )
    presentation.explain(
        "Left: how many records sit in groups of each size (a group: the records sharing "
        "their quasi-identifiers; small groups are the ones at risk, very large ones mean "
        "detail lost). Right: how much each column loses.",
        "PDPC guide, Step 3; Annex C",
    )
    rows = common_rows(released, SAMPLE_ROWS)
    st.caption(
        f"The same {len(rows)} records under each option, as they would be released "
        "(records an option removes are left out)."
    )
    for column_box, title, table_, (_, candidate) in zip(
        st.columns(len(options)), titles, released, options, strict=True
    ):
        column_box.markdown(f"**{escape_markdown(title)}**")
        column_box.dataframe(table_.loc[rows], key=f"to_sample_{candidate.label()}")
        column_box.button(
            f"Unpin {title}",
            key=f"to_unpin_{candidate.label()}",
            on_click=tradeoffs.unpin_option,
            args=(candidate.label(),),
        )
