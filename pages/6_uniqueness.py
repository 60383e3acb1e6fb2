"""Uniqueness (Step 4): how identifying date of birth, sex and locality are.

Gibbon & Aisbett, "Matching records on birthdate, sex and locality": a person is singled
out by these three attributes unless someone of the same age and sex in the same
locality shares their birthday. Figures come from core.risk and core.birthdate.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from core.birthdate import (
    birthday_curves,
    cell_shares_from_table,
    date_like_columns,
    observed_uniqueness,
)
from core.formatting import fmt_count, fmt_number, fmt_percent
from core.io import read_table
from core.risk import locality_unique_share, unique_count_distribution, uniqueness
from ui.page_errors import continue_on_error, stop_on_error
from ui.state import classify, loading, presentation, replay

PAPER = "Gibbon & Aisbett, Matching records on birthdate, sex and locality"
MAX_DISTRIBUTION_N = 1000

st.title("Uniqueness")
if not loading.require_data():
    st.stop()
st.write(
    "A date of birth looks harmless, but within a town few people of the same age and sex "
    "share a birthday. This page shows how many people the birthday model expects to be "
    "unique, and how many records of your table really are."
)

# --- one age-sex cell: Section 2 -------------------------------------------------------
st.subheader("One cell: N people of the same age and sex")
left, right = st.columns(2)
population = int(
    left.number_input(
        "Population N of the cell",
        min_value=1,
        max_value=10**7,
        value=250,
        step=10,
        key="population",
    )
)
days = int(right.number_input("Days in a year", min_value=2, max_value=3660, value=365, key="days"))
estimate = uniqueness(population, days=days)
m1, m2, m3 = st.columns(3)
m1.metric("P(unique)", fmt_percent(estimate.p_unique))
m2.metric("Expected unique share", fmt_percent(estimate.expected_unique_share))
m3.metric("Expected unique people", fmt_count(estimate.expected_uniques))
st.write(estimate.explanation())
presentation.explain(
    "P(unique) = ((days-1)/days)^(N-1) is the chance that nobody else in the cell has your "
    "birthday; by averaging, it is also the expected share of the cell that is unique.",
    f"{PAPER}, Section 2, eq. 1 (q = 1); PDPC guide, Step 4 (k = 1)",
    training="The paper's Section 2: 'A population of 250 gives a 50% chance of being "
    "uniquely identified. A population of around 2500 is needed to reduce the number of "
    "unique birthdays to 0.1%.' Try N = 250 and N = 2500.",
)

curves = birthday_curves(3000, days=days)
curves["shares with"] = curves["q"].map(
    {1: "nobody (unique, p1)", 2: "1 other (p2)", 3: "2 others (p3)", 4: "3 others (p4)"}
)
lines = (
    alt.Chart(curves)
    .mark_line()
    .encode(
        x=alt.X("population:Q", title="People of the same age and sex (N)"),
        y=alt.Y("probability:Q", title="Probability", axis=alt.Axis(format="%")),
        color=alt.Color("shares with:N", title="Birthday shared with"),
        tooltip=["population", "shares with", alt.Tooltip("probability:Q", format=".3f")],
    )
)
marker = alt.Chart(pd.DataFrame({"population": [population]})).mark_rule(strokeDash=[4, 4])
marker = marker.encode(x="population:Q")
st.altair_chart(lines + marker, width="stretch")
presentation.explain(
    "Each line is the chance that a person shares their birthday with exactly 0, 1, 2 or 3 "
    f"others in a cell of N people; the dashed line marks N = {population:,} (the paper's "
    "Fig. 1).",
    f"{PAPER}, Section 2, eq. 1",
)

st.subheader("How many people of the cell are unique")
if population > MAX_DISTRIBUTION_N:
    st.info(
        f"The distribution is computed for cells of up to {MAX_DISTRIBUTION_N:,} people "
        "(it takes too long beyond). The expected share above holds for any N."
    )
else:
    with st.spinner("Computing the distribution..."):
        rho = unique_count_distribution(population, days=days)
    dist = pd.DataFrame({"unique people": np.arange(len(rho)), "probability": rho})
    dist = dist[dist["probability"] > 1e-6]
    chart = (
        alt.Chart(dist)
        .mark_bar()
        .encode(
            x=alt.X("unique people:Q", title="Number of people with a unique birthday (m)"),
            y=alt.Y("probability:Q", title="Probability"),
            tooltip=["unique people", alt.Tooltip("probability:Q", format=".4f")],
        )
    )
    st.altair_chart(chart, width="stretch")
    mean = float((np.arange(len(rho)) * rho).sum())
    presentation.explain(
        f"The chance that exactly m of the {population:,} people are unique; on average "
        f"{fmt_number(mean)} are, i.e. {fmt_percent(mean / population)} (the expected share "
        "above). Computed "
        "exactly; the paper's eq. 2 is an approximation of the same distribution.",
        f"{PAPER}, Section 2, eq. 2 and Fig. 2",
    )

# --- a locality: Section 3 --------------------------------------------------------------
st.subheader("A locality: many age-sex cells")
locality_population = int(
    st.number_input(
        "Locality population",
        min_value=1,
        max_value=10**8,
        value=4000,
        step=500,
        key="locality_population",
    )
)
mode = st.radio(
    "Share of the locality in each age-sex cell",
    ["Equal shares", "Edit a table", "Upload a table"],
    horizontal=True,
    key="cell_mode",
)
if mode == "Equal shares":
    ages = int(st.number_input("One-year ages", min_value=1, max_value=120, value=80, key="ages"))
    cells = pd.DataFrame({"sex": np.repeat(["F", "M"], ages), "age": np.tile(np.arange(ages), 2)})
    cells["share"] = 1 / len(cells)
elif mode == "Edit a table":
    default = pd.DataFrame(
        {"sex": np.repeat(["F", "M"], 80), "age": np.tile(np.arange(80), 2), "share": 1 / 160}
    )
    cells = st.data_editor(default, num_rows="dynamic", key="cells_editor", hide_index=True)
else:
    upload = st.file_uploader(
        "Table with a 'share' (or head count) column per age-sex cell",
        type=["csv", "xlsx"],
        key="cells_upload",
    )
    cells = None
    if upload is not None:
        with continue_on_error():
            cells = read_table(upload.getvalue(), name=upload.name)
with continue_on_error():
    if cells is not None:
        shares = cell_shares_from_table(cells)
        share = locality_unique_share(locality_population, shares, days=days)
        c1, c2 = st.columns(2)
        c1.metric("Expected share unique", fmt_percent(share))
        c2.metric("Expected unique people", f"{share * locality_population:,.0f}")
        presentation.explain(
            f"Over {len(shares)} cells, each of share × {locality_population:,} people, "
            f"{fmt_percent(share)} of the locality is expected to be unique on date of birth "
            "and sex. "
            "The paper finds that about 4,000 people (Australian age mixes, at most 1% of "
            "people in a cell) make 95% unique, and half a million are needed for 0.1%.",
            f"{PAPER}, Section 3, eq. 3 and Section 4",
        )

# --- the loaded table: Section 3, Fig. 4 --------------------------------------------------
st.subheader("Your table: records unique on date of birth, sex and locality")
data = replay.current_data()
dates = date_like_columns(data)
if not dates:
    st.info(
        "The current table has no date-of-birth column (or it has been generalised), "
        "so the model is not compared with the data."
    )
    st.stop()
kinds = {c: s.kind for c, s in classify.suggestions().items() if c in data.columns}
columns = list(map(str, data.columns))


def _first(kind: str) -> int | None:
    found = [i for i, c in enumerate(columns) if kinds.get(c) == kind]
    return found[0] if found else None


d1, d2, d3, d4 = st.columns(4)
dob = d1.selectbox("Date of birth", dates, key="dob_column")
sex = d2.selectbox("Sex", columns, index=_first("gender"), key="sex_column")
locality = d3.selectbox("Locality", columns, index=_first("postal_code"), key="locality_column")
prefix = int(
    d4.number_input(
        "Keep first characters (0 = all)",
        min_value=0,
        max_value=20,
        value=2 if kinds.get(locality) == "postal_code" else 0,
        key="locality_prefix",
        help="2 turns a Singapore postal code into its postal sector.",
    )
)
if sex is None or locality is None:
    st.info("Pick the sex and locality columns to compare the model with your data.")
    st.stop()
with stop_on_error(), st.spinner("Counting unique records..."):
    seen = observed_uniqueness(
        data,
        date_of_birth=dob,
        sex=sex,
        locality=locality,
        locality_prefix=prefix or None,
        days=days,
    )
o1, o2, o3 = st.columns(3)
o1.metric("Unique in the data", fmt_percent(seen.observed_share))
o2.metric("Model prediction", fmt_percent(seen.predicted_share))
o3.metric("Localities", f"{seen.localities:,}")
st.write(seen.explanation())
if seen.skipped:
    st.caption(f"{seen.skipped:,} record(s) without a readable date, sex or locality are left out.")
per = seen.per_locality.melt(
    id_vars=["locality", "records"],
    value_vars=["observed_share", "predicted_share"],
    var_name="figure",
    value_name="share unique",
)
per["figure"] = per["figure"].map({"observed_share": "observed", "predicted_share": "model"})
scatter = (
    alt.Chart(per)
    .mark_circle(opacity=0.7)
    .encode(
        x=alt.X("records:Q", title="Records in the locality", scale=alt.Scale(type="log")),
        y=alt.Y("share unique:Q", axis=alt.Axis(format="%")),
        color=alt.Color("figure:N", title=""),
        tooltip=["locality", "records", "figure", alt.Tooltip("share unique:Q", format=".1%")],
    )
)
st.altair_chart(scatter, width="stretch")
presentation.explain(
    "Each locality twice: the share of its records that are unique in the data, and the share "
    "the birthday model expects from its own year-of-birth and sex cells (like the paper's "
    "Fig. 4). Points far below the model are localities where people bunch in a few ages.",
    f"{PAPER}, Section 3, eq. 3 and Fig. 4; PDPC guide, Step 4",
)
