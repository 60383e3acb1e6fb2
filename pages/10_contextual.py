"""Step 4 · Area-level risk: can area characteristics pinpoint where a respondent lives?

Witkowski (2007), locational disclosure risk of contextual data; logic in core.contextual.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from core.contextual import (
    ABSOLUTE_WIDTHS,
    PERCENTILE_GROUPS,
    TOP_BOTTOM,
    Coarsening,
    Thresholds,
    assess,
    coarsening_step,
    combined_view,
    prepare,
    suppress_until_safe,
    suppression_step,
    sweep,
)
from core.errors import AnonymisationError
from core.formatting import fmt_count
from core.geo import area_shapes, coordinate_columns, shape_column
from core.markup import code_span
from ui import location_charts
from ui.charts import labelled_bars
from ui.page_errors import continue_on_error, error_text, stop_on_error
from ui.state import classify, loading, presentation, replay, session
from ui.tables import formatted_table

PAPER = "Witkowski 2007"
#: T5 choices: areas of at least this many people hide their residents (paper: 100,000).
PROTECTIVE_POPULATIONS = [
    0,
    1_000,
    2_000,
    5_000,
    10_000,
    20_000,
    50_000,
    100_000,
    200_000,
    500_000,
    1_000_000,
]
SURVEY, AREAS = "survey_respondents.csv", "singapore_areas.csv"

if not loading.require_data() or not classify.require_known_columns():
    st.stop()
st.title("Area-level risk")
presentation.explain(
    "Releasing the characteristics of a respondent's area (poverty rate, median income...) "
    "instead of its code can still pinpoint the area, and so the person.",
    f"{PAPER}, Section 1",
    training="Witkowski's example: 'Context A' is the tracts where 80 to 85% of people live "
    "in poverty. If only a few tracts fit, a respondent shown with that figure lives in one "
    "of them. Even a measure not released can be rebuilt: 3 of the 20 respondents of those "
    "tracts are 65 or over, so an intruder looks for tracts with 15% aged 65+. A respondent "
    "is safe when enough areas share the released figures and enough people in them share "
    "the personal traits (Sections 2 and 4).",
)


def use_sample_survey() -> None:
    loading.load_sample(SURVEY)
    st.rerun()


presentation.ask_before_replacing(
    "ctx_load_survey", f"Use the sample survey ({SURVEY})", use_sample_survey
)
data = replay.current_data()
suffix = f":{session.source_name()}"  # choices tied to the loaded table start from its defaults

st.subheader("Area table")
source = st.radio("Area table", ["sample", "upload"], horizontal=True, key="ctx_area_source")
with stop_on_error():
    if source == "sample":
        samples = loading.sample_files()
        name = st.selectbox("Sample", samples, index=samples.index(AREAS), key="ctx_area_sample")
        areas = loading.side_table(name)
    else:
        upload = st.file_uploader("One row per area", key="ctx_area_upload")
        if upload is None:
            st.info("Upload a table with one row per area: its key, population and measures.")
            st.stop()
        areas = loading.side_table(upload.name, upload.getvalue())

area_cols = [str(c) for c in areas.columns]
# where the areas are (for the map), never offered as contextual measures
area_coordinates = coordinate_columns(areas)
area_shape_column = shape_column(areas)
placing = [*(area_coordinates or ()), *([area_shape_column] if area_shape_column else [])]
numeric = [c for c in area_cols if areas[c].dtype.kind in "if" and c not in placing]
shared = [c for c in area_cols if c in data.columns]
left, middle, right = st.columns(3)
area_key = left.selectbox("Area key (area table)", area_cols, key="ctx_area_key")
pop_default = "population" if "population" in numeric else (numeric or area_cols)[0]
population = middle.selectbox(
    "Population column",
    numeric or area_cols,
    index=(numeric or area_cols).index(pop_default),
    key="ctx_population",
)
no_key = "(none: values merged in the records)"
record_options = [no_key, *map(str, data.columns)]
record_key = right.selectbox(
    "Area key (records)",
    record_options,
    index=record_options.index(area_key) if area_key in shared else 0,
    key="ctx_record_key" + suffix,
)
measures = [c for c in numeric if c not in (area_key, population)]
contextual = st.multiselect(
    "Contextual columns released",
    measures,
    default=[c for c in measures if c in shared] or measures[:3],
    key="ctx_columns" + suffix,
)
if not contextual:
    st.info("Choose at least one contextual column.")
    st.stop()
t1, t3, t5 = st.columns(3)
# A slider over round sizes, so the population reads 100,000 (a number input cannot show
# thousands separators).
protective = t5.select_slider(
    "T5: protective population (people)",
    PROTECTIVE_POPULATIONS,
    value=100_000,
    format_func=fmt_count,
    key="ctx_t5",
)
thresholds = Thresholds(
    t1=int(t1.number_input("T1: look-alike areas needed", 1, value=20, key="ctx_t1")),
    t3=int(t3.number_input("T3: respondents sharing values", 1, value=3, key="ctx_t3")),
    t5=int(protective),
)
presentation.explain(
    "Defaults are the paper's: p = 0.05 gives 20 look-alikes; 3 respondents is the "
    "usual k; areas of 100,000+ people hide their residents.",
    f"{PAPER}, Section 3.d",
)
method = st.radio(
    "Release the values as", ["exact", "absolute", "percentile"], horizontal=True, key="ctx_method"
)
grades = {
    "exact": [None],
    "absolute": [*ABSOLUTE_WIDTHS, TOP_BOTTOM],
    "percentile": [*PERCENTILE_GROUPS, TOP_BOTTOM],
}[method]
grade = st.selectbox(
    "Coarseness",
    grades,
    key=f"ctx_grade_{method}",
    format_func=lambda g: (
        "none: the exact values are released"
        if g is None
        else Coarsening(method, width=g, groups=g).label
    ),
)
coarsening = Coarsening(method, width=grade, groups=grade)

try:
    prepared = prepare(
        data,
        areas,
        contextual=contextual,
        area_key=area_key,
        population=population,
        record_key=None if record_key == no_key else record_key,
    )
    result = assess(prepared, coarsening=coarsening, thresholds=thresholds)
except AnonymisationError as error:
    shared = set(map(str, data.columns)) & set(area_cols)
    if not shared:  # not a survey with area data at all: point the way, not an error
        st.info(
            f"The loaded table {code_span(session.source_name())} shares no column with the area "
            f"table. Load a survey with an area key or merged area measures, or click "
            f"**Use the sample survey** above. ({error_text(error)})"
        )
    else:
        st.error(error_text(error))
    st.stop()

figures = [
    (
        "Locational risk LR",
        f"{result.lr:.1%}",
        "Share of respondents living in an easily re-identified area: fewer than T3 respondents "
        "share its values, or fewer than T1 areas do and it has under T5 people.",
        f"{PAPER}, Section 3.b eq. 6-8 and 4.d",
    ),
    (
        "Pinpointed areas",
        f"{result.pinpointed_areas:,} of {result.n_areas:,}",
        "Areas with fewer than T1 look-alikes among all areas (contextual matchsets).",
        f"{PAPER}, Section 3.a (A_j)",
    ),
    (
        "In pinpointed areas",
        f"{result.respondents_in_pinpointed:.1%}",
        "Respondents whose area has fewer than T1 look-alikes, before the other two rules.",
        f"{PAPER}, Section 4.d",
    ),
    (
        "Sample uniques",
        f"{result.respondents_sample_unique:.1%}",
        "Respondents whose released area values fewer than T3 respondents share.",
        f"{PAPER}, Section 3.b (C_-,j)",
    ),
    (
        "Protected by population",
        f"{result.respondents_protected:.1%}",
        "Respondents in a pinpointed area of at least T5 people, not counted as at risk.",
        f"{PAPER}, Section 3.d (E_-,j|J)",
    ),
]
for column, (label, value, sentence, section) in zip(st.columns(5), figures, strict=True):
    with column:
        st.metric(label, value)
        presentation.explain(sentence, section)

st.subheader("Areas at risk")
at_risk = result.areas[result.areas["at_risk"]].sort_values("respondents", ascending=False)
# matchset numbers a group of areas (a label); the other numbers are counts or measures
counted = ["population", "matchset_size", "respondents", "sample_matches"]
# The figures this page adds, under headers in words (issue 29: no snake_case on screen);
# the area table's own columns keep their names. Every row here is at risk: not repeated.
ADDED_HEADERS = {
    "matchset": "look-alike group",
    "matchset_size": "areas alike",
    "pinpointed": "pinpointed",
    "respondents": "respondents",
    "sample_matches": "respondents alike",
    "sample_unique": "sample unique",
    "protected": "protected by population",
}
st.dataframe(
    formatted_table(at_risk, counts=counted, labels=["matchset"]),
    hide_index=True,
    column_config={
        **{column: st.column_config.Column(label) for column, label in ADDED_HEADERS.items()},
        "at_risk": None,
    },
)
presentation.explain(
    f"{len(at_risk):,} areas whose respondents are at risk; 'areas alike' counts the areas "
    "sharing the released values (numbered by 'look-alike group'), 'respondents alike' the "
    "survey respondents sharing them.",
    f"{PAPER}, Section 4.d",
)


def draw_area_map() -> None:
    """The areas on the offline basemap coloured by risk, or a sentence saying why not."""
    if area_shape_column is None and area_coordinates is None:
        st.info(
            "No map: the area table has neither latitude and longitude columns (e.g. "
            "`latitude`, `longitude` of each area's centre) nor area shapes (a `geometry` "
            "column of GeoJSON polygons), so the areas cannot be placed."
        )
        return
    view = pd.DataFrame(
        {
            "area": result.areas.iloc[:, 0].astype("str").to_numpy(),
            "status": location_charts.area_status(result.areas),
            "respondents": result.areas["respondents"].to_numpy(),
            "population": result.areas[population].to_numpy(),
            "look_alikes": result.areas["matchset_size"].to_numpy(),
        }
    )
    title = f"{len(at_risk):,} of {result.n_areas:,} areas with respondents at risk"
    rows = areas.set_index(areas[area_key].astype("str")).loc[view["area"]]
    if area_shape_column is not None:
        shapes = area_shapes(rows.reset_index(drop=True), area_shape_column)
        chart = location_charts.area_risk_map(view, title, shapes=shapes)
    else:
        lat, lon = area_coordinates
        chart = location_charts.area_risk_map(
            view, title, lat=rows[lat].to_numpy(), lon=rows[lon].to_numpy()
        )
    st.vega_lite_chart(*chart, width="stretch")
    placed = (
        f"shape (column {code_span(area_shape_column)})"
        if area_shape_column
        else (
            f"centre (columns {code_span(area_coordinates[0])}, {code_span(area_coordinates[1])})"
        )
    )
    presentation.explain(
        f"Each area drawn at its {placed}. Red: some of its respondents can be "
        "re-identified from the released values; orange: few areas look alike but "
        "its population protects them; blue: safe; grey: no respondents. "
        + location_charts.basemap_note(),
        f"{PAPER}, Section 3.b and 4.d",
    )


st.markdown("**Map of the areas**")
with continue_on_error():  # a bad shape or coordinate column costs the map, not the page
    draw_area_map()

st.subheader("What if: coarseness and variables")
with st.spinner("Computing LR for every option and subset..."):
    table = sweep(prepared, thresholds=thresholds, subsets=len(contextual) <= 8)
full = table[table["n_variables"] == len(contextual)]
chart = (
    alt.Chart(full[full["method"] != "exact"])
    .mark_line(point=True)
    .encode(
        x=alt.X(
            "categories:O",
            sort="descending",
            title="Categories per variable (finer to coarser; 3 = Top/Bottom-25%)",
        ),
        y=alt.Y("lr:Q", title="LR (share of respondents at risk)", axis=alt.Axis(format="%")),
        color=alt.Color("method:N", title="Recoding"),
        tooltip=["method", "grade", alt.Tooltip("lr:Q", format=".1%"), "pinpointed_areas"],
    )
)
st.altair_chart(chart, width="stretch")
exact_lr = float(full.loc[full["method"] == "exact", "lr"].iloc[0])
presentation.explain(
    f"LR for each recoding of all {len(contextual)} columns (exact values: "
    f"{exact_lr:.1%}); percentile recoding caps the look-alikes per group.",
    f"{PAPER}, Section 4.b, Table A-3 and endnote 2",
)
subset = table[table["grade"] == coarsening.label]
if len(contextual) > 1 and len(subset):
    # each bar with its LR written at its end, rows tall enough for their labels (issue 29)
    bars = labelled_bars(
        subset[subset["method"] == method].reset_index(drop=True),
        "lr",
        "variables",
        title="LR",
        number_format=".1%",
        row_height=24,
    )
    st.altair_chart(bars, width="stretch")
    presentation.explain(
        f"LR for each subset of the columns at {coarsening.label}: which variables drive the risk.",
        f"{PAPER}, Section 4.b (number of keys)",
    )

st.subheader("With personal identifiers")
qi_options = [c for c in map(str, data.columns) if c not in contextual and c != record_key]
qi_default = [c for c in classify.quasi_identifiers(data) if c in qi_options]
qi = st.multiselect(
    "Personal quasi-identifiers", qi_options, default=qi_default, key="ctx_qi" + suffix
)
if note := classify.removed_note():
    st.caption(note)
if qi:
    view = combined_view(prepared, data, qi, coarsening=coarsening, thresholds=thresholds)
    a, b = st.columns(2)
    a.metric("k within contextual matchsets", view.k)
    b.metric("LR with personal identifiers", f"{view.lr:.1%}")
    presentation.explain(
        "Respondents alike on personal and area values; fewer than T3 makes them "
        "sample uniques (C_i,j).",
        f"{PAPER}, Section 3.a, eq. 3",
    )

st.subheader("Add to the recipe")
merged = all(c in data.columns for c in contextual)
if not merged:
    st.warning("The records do not carry the contextual columns; merge them in before release.")
one, two = st.columns(2)
step = coarsening_step(prepared, coarsening)
if one.button("Add this coarsening", key="ctx_add", disabled=step is None or not merged):
    with continue_on_error():
        replay.add_step(step)
        st.rerun()
if two.button(
    "Suppress the remaining at-risk areas",
    key="ctx_suppress",
    disabled=record_key == no_key or not merged,
):
    suppressed, after = suppress_until_safe(prepared, coarsening=coarsening, thresholds=thresholds)
    with continue_on_error():
        replay.add_step(suppression_step(suppressed, contextual, record_key))
        st.rerun()
presentation.explain(
    "Recoding is global (all areas); suppression empties the values of the areas "
    "still at risk, and LR is then the suppression rate.",
    f"{PAPER}, Section 2 and 5",
)
