"""Step 3 · Aggregate release: differentially private counts, sums and means (OpenDP).

Beside it, the same release done the guide's way (Annex A: Data aggregation with small
cells suppressed). All computation is in core.dp; this page reads widgets and draws.
"""

from __future__ import annotations

import json
import math

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from core import dp
from core.formatting import fmt_count, fmt_number
from core.io import table_to_bytes
from core.markup import escape_markdown
from ui.page_errors import stop_on_error
from ui.state import cache, classify, loading, presentation, replay, session, workspace
from ui.tables import formatted_table

DP = "Health data privacy (HIPAA, GDPR, formal models): Differential Privacy"
AGG = "PDPC guide, Annex A: Data aggregation"

if not loading.require_data():
    st.stop()


def _figure_words(name: str) -> str:
    """A column of the release in words: "income_sum_error95" is "sum of income ± (95%
    bound)" (core.dp.release names them for files and code)."""
    bound = name.endswith("_error95")
    base = name.removesuffix("_error95")
    for kind in ("sum", "mean"):
        if base.endswith(f"_{kind}"):
            base = f"{kind} of {base.removesuffix(f'_{kind}')}"
    return f"{base} ± (95% bound)" if bound else base


def _symlog_ticks(top: float) -> list[float]:
    """Ticks of a symlog axis from 0 to ``top``: 1, 2, 5, 10, 20, 50... over three decades
    or fewer, else the powers of ten alone (a 270-pixel axis holds about ten labels)."""
    decades = max(int(math.floor(math.log10(top))), 0) if top >= 1 else 0
    steps = (1, 2, 5) if decades <= 3 else (1,)
    return [0.0] + [m * 10.0**e for e in range(decades + 1) for m in steps if m * 10.0**e <= top]


def _in_words(table: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The release's table under headers a person reads (the grouping columns as named)."""
    return table.rename(columns=lambda name: name if name in by else _figure_words(name))


st.title("Aggregate release")
presentation.explain(
    "When only counts, sums or averages are needed, differential privacy adds noise of scale "
    "b = Δf/ε so that no figure depends much on any one person, whatever the attacker knows.",
    DP,
    training="ε is the privacy loss: with ε = 1 the chance of any output changes by at most "
    "e¹ ≈ 2.7 times whether or not you are in the data. A count changes by at most 1 when one "
    "person is added or removed (Δf = 1), so its noise has scale 1/ε.",
)
data = replay.current_data()
groupable = [c for c in map(str, data.columns) if data[c].nunique() <= 50]
numeric = [c for c in map(str, data.columns) if pd.api.types.is_numeric_dtype(data[c])]

st.subheader("What to release")
by = st.multiselect("Group by", groupable, default=groupable[:1], key="dp_by")
if not by:
    st.info("Choose at least one grouping column (columns with at most 50 values are offered).")
    st.stop()
categories = {}
for column in by:
    seen = sorted(map(str, data[column].dropna().unique()))
    label = f"Other categories of {escape_markdown(column)} (comma-separated)"
    extra = [
        v.strip() for v in st.text_input(label, key=f"dp_extra_{column}").split(",") if v.strip()
    ]
    options = list(dict.fromkeys([*seen, *extra]))
    categories[column] = st.multiselect(
        f"Categories of {column}", options, default=options, key=f"dp_cats_{column}"
    )
presentation.explain(
    "Only the listed categories are released, each with noise even if empty; list every value "
    "that may occur from a code list, not just those seen: a value read off the data reveals "
    "that someone has it.",
    DP,
)
left, right = st.columns(2)
count = left.checkbox("Counts", value=True, key="dp_count")
sums = left.multiselect("Sums of", numeric, key="dp_sums")
means = left.multiselect("Averages of", numeric, key="dp_means")
bounds = {}
for column in dict.fromkeys([*sums, *means]):
    shown = escape_markdown(column)
    lo = right.number_input(f"{shown}: lowest plausible value", value=0.0, key=f"dp_lo_{column}")
    hi = right.number_input(
        f"{shown}: highest plausible value", value=10000.0, key=f"dp_hi_{column}"
    )
    bounds[column] = (lo, hi)
if bounds:
    with right:
        presentation.explain(
            "Values are clipped to these bounds; set them from what is plausible, "
            "never from the data's own min/max (that would leak).",
            DP,
        )

mechanism = st.radio(
    "Noise",
    dp.MECHANISMS,
    horizontal=True,
    key="dp_mechanism",
    format_func=lambda m: {"laplace": "Laplace (pure ε)", "gaussian": "Gaussian (ε, δ)"}[m],
)
delta = 0.0
if mechanism == "gaussian":
    delta = st.number_input("δ", 0.0, 0.01, 1e-6, format="%.1e", key="dp_delta")
recorded = workspace.dp_ledger()  # the workspace keeps the budget across sessions and restarts
budget_total = st.number_input(
    "Privacy budget of this release (total ε)",
    0.01,
    20.0,
    1.0,
    key="dp_budget",
    disabled=recorded is not None,
)
if recorded is not None:
    budget_total = float(recorded["budget"]["epsilon"])
    used = sum(c["epsilon"] for c in recorded["charges"])
    st.caption(
        f"This workspace's privacy budget is ε = {fmt_number(budget_total)}; ε = "
        f"{fmt_number(used)} was "
        f"spent by {fmt_count(len(recorded['charges']))} released query(ies). It cannot change."
    )
epsilon = st.slider("ε for these queries", 0.01, 5.0, 1.0, 0.01, key="dp_epsilon")
presentation.explain(
    "Smaller ε: stronger privacy, more noise. The ε is split evenly over the queries and "
    "charged to the budget; a release over budget is refused.",
    DP,
)

with stop_on_error(), st.spinner("Drawing the noise..."):

    def draw() -> tuple[dp.PrivacyBudget, dp.DPRelease]:
        budget = (
            dp.PrivacyBudget.from_dict(recorded)
            if recorded is not None
            else dp.PrivacyBudget(budget_total, delta)
        )
        release = dp.dp_release(
            data,
            by,
            categories=categories,
            epsilon=epsilon,
            count=count,
            sums=sums,
            means=means,
            bounds=bounds,
            mechanism=mechanism,
            delta=delta,
            budget=budget,
        )
        return budget, release

    # One draw per setting: reruns that change nothing else (a chart choice, a download)
    # show the same noisy figures instead of handing out fresh, averageable draws.
    settings = repr(
        (
            by,
            categories,
            epsilon,
            count,
            sums,
            means,
            bounds,
            mechanism,
            delta,
            budget_total,
            recorded,
        )
    )
    budget, release = cache.memo("dp_release", draw, settings)
    exact = dp.exact_cross_tab(data, by, categories=categories, sums=sums, means=means)

spent, total, queries = st.columns(3)
spent.metric("ε spent", fmt_number(budget.spent_epsilon))
total.metric(
    "Budget left", f"{fmt_number(budget.remaining_epsilon)} of {fmt_number(budget.epsilon)}"
)
queries.metric("Noisy queries", fmt_count(len(budget.charges)))
presentation.explain(
    "Each query's ε adds up (sequential composition); cells of one table share one "
    "query because each person is in one cell only.",
    DP,
)
st.dataframe(formatted_table(pd.DataFrame(release.ledger()["charges"])), hide_index=True)
for figure in release.figures:
    st.markdown(f"- {escape_markdown(figure.statement)}")
st.markdown(f"- {escape_markdown(release.outside_statement)}")
presentation.explain(
    "Error bounds come from the noise scale alone, not the data, so they are safe "
    "to publish with the table.",
    DP,
)

noisy_side, exact_side = st.columns(2)
with noisy_side:
    st.subheader("Noisy table (for release)")
    st.dataframe(
        formatted_table(_in_words(release.table, by), counts=["count"], labels=by),
        hide_index=True,
    )
    presentation.explain(
        "Noise is drawn once per setting and a new setting draws anew: publish one draw only, once.",
        DP,
    )
with exact_side:
    st.subheader("Exact table")
    st.warning("NOT FOR RELEASE — visible only to you, to judge the noise.", icon=":material/lock:")
    st.dataframe(
        formatted_table(_in_words(exact, by), counts=["count"], labels=by), hide_index=True
    )
    presentation.explain("True figures on the same cells, without clipping or noise.", DP)

st.subheader("Error bands")
shown = [
    c
    for c in ("count", *(f"{c}_sum" for c in sums), *(f"{c}_mean" for c in means))
    if c in release.table.columns
]
measure = st.selectbox("Measure", shown, key="dp_chart_measure", format_func=_figure_words)
bands = dp.band_frame(release.table, exact, by, measure)
# Drawn relative to the exact value, so bands stay visible whatever the cells' sizes.
base = (
    alt.Chart(bands)
    .transform_calculate(
        low_gap="datum.low - datum.exact",
        high_gap="datum.high - datum.exact",
        noisy_gap="datum.noisy - datum.exact",
    )
    .encode(y=alt.Y("cell:N", title=", ".join(by)))
)
unit = "records" if measure == "count" else f"units of {measure.rsplit('_', 1)[0]}"
title = f"{_figure_words(measure)}: released minus true value ({unit})"
chart = (
    base.mark_rule(strokeWidth=6, opacity=0.35).encode(
        x=alt.X("low_gap:Q", title=title), x2="high_gap:Q"
    )
    + base.mark_point(filled=True).encode(x="noisy_gap:Q", tooltip=["cell", "noisy", "exact"])
    + alt.Chart(pd.DataFrame({"zero": [0]})).mark_rule(color="#d62728").encode(x="zero:Q")
)
# A fixed height (not one step per cell): Vega drops "fit-y" with a warning otherwise;
# at least 200 px, so that two cells do not share a 50 px strip.
height = min(max(40 * len(bands) + 60, 200), 600)
st.altair_chart(chart.properties(height=height), width="stretch")
presentation.explain(
    "Dot: how far each released value is from the truth; bar: its 95% noise band; "
    "red line: the exact value (only you see it). The line falls inside the bar 95% "
    "of the time.",
    DP,
)

st.subheader("Accuracy against privacy")
grid = np.geomspace(0.05, 5, 12 if mechanism == "laplace" else 7)
curve = dp.accuracy_curve(
    grid, dp.measures_of(count, sums, means, bounds), mechanism=mechanism, delta=delta
)
top = float(curve["error95"].max()) * 1.05
lines = (
    alt.Chart(curve)
    .mark_line(point=True)
    .encode(
        x=alt.X("epsilon:Q", scale=alt.Scale(type="log"), title="total ε of the release"),
        # symlog, not log: a rounded count's error can be 0 at a large ε, and a log scale
        # cannot hold 0 (Vega warns and drops the axis).
        y=alt.Y(
            "error95:Q",
            # an explicit domain: Vega's "nice" symlog domain can cut off the top point
            scale=alt.Scale(type="symlog", nice=False, domain=[0, top]),
            # explicit ticks: Vega's own symlog ticks left 1 to 20 unlabelled, so the
            # error at ε = 1 could not be read off the axis (issue 29)
            axis=alt.Axis(values=_symlog_ticks(top), format=",d"),
            title="± error, 95% of the time (in the measure's units)",
        ),
        color=alt.Color("measure:N", title="Query"),
        tooltip=[
            alt.Tooltip("epsilon:Q", title="ε", format=".3g"),
            "measure:N",
            alt.Tooltip("error95:Q", title="± error", format=",.3g"),
        ],
    )
)
now = alt.Chart(pd.DataFrame({"epsilon": [epsilon]})).mark_rule(strokeDash=[4, 4])
st.altair_chart(lines + now.encode(x="epsilon:Q"), width="stretch")
presentation.explain(
    "The error falls as 1/ε: ten times more ε, ten times less noise and ten times "
    "less privacy. The dashed line is the ε on the slider.",
    DP,
)

st.subheader("The guide's way, for comparison")
min_cell = int(
    st.number_input(
        "Suppress cells with fewer records than",
        1,
        1000,
        value=classify.k_target(),
        key="dp_min_cell",
    )
)
guide, warning = dp.suppressed_cross_tab(
    data, by, categories=categories, sums=sums, means=means, min_cell=min_cell
)
st.metric("Cells suppressed", f"{fmt_count(guide['suppressed'].sum())} of {fmt_count(len(guide))}")
st.dataframe(formatted_table(guide, counts=["count"], labels=by), hide_index=True)
presentation.explain(
    "Exact figures with small cells blanked: no noise, but the blanks and totals can still "
    "reveal small groups, and the protection depends on what the attacker already knows.",
    AGG,
    training=warning,
)

already = len(recorded["charges"]) if recorded is not None else 0
new_charges = [(c.query, c.epsilon, c.delta) for c in budget.charges[already:]]
st.download_button(
    "Download the noisy table (CSV)",
    table_to_bytes(release.table, "csv"),
    "dp_release.csv",
    "text/csv",
    key="dp_download",
    on_click=workspace.record_dp_release,
    args=(
        budget.epsilon,
        budget.delta,
        new_charges,
        {"data": session.source_name(), "by": list(by)},
    ),
)
presentation.explain(
    "Downloading the noisy table spends its ε from the workspace's budget, for "
    "good: later releases of the same data only get what is left.",
    DP,
)
st.download_button(
    "Download the privacy ledger (JSON)",
    json.dumps(release.ledger(), indent=2, ensure_ascii=False),
    "dp_ledger.json",
    "application/json",
    key="dp_ledger",
)
