"""Step 3 · Locations and dates: GPS rounding/grid/displacement, spatial k, date shifts,
ages and the HIPAA Safe Harbor preset (PDPC guide Annex B; NIST SP 800-188 4.3.4-4.3.5)."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from core.errors import AnonymisationError
from core.geo import describe_rounding, displacement_report, spatial_k
from core.markup import escape_markdown
from core.recipe import describe_step
from core.safe_harbor import FREE_TEXT_CHOICES, apply_safe_harbor
from ui import guide_examples
from ui import location_charts as charts
from ui.page_errors import continue_on_error, error_text
from ui.state import cache, classify, loading, presentation, replay

if not loading.require_data():
    st.stop()

st.title("Locations and dates")
presentation.explain(
    "Coordinates and dates pinpoint people as surely as a name: generalise them (round, snap "
    "to a grid, keep the month) or perturb them (move points, shift dates).",
    "PDPC guide, Annex B; NIST SP 800-188, 4.3.4 and 4.3.5",
    training=guide_examples.ANNEX_B_TRAINING,
)
guide_examples.show_annex_b_examples()
data = replay.current_data()
columns = list(map(str, data.columns))
kinds = {str(c): s.kind for c, s in classify.suggestions().items()}


def add(step: dict) -> None:
    """Add ``step`` to the recipe; show the error and keep the data if it cannot run."""
    with continue_on_error():
        replay.add_step(step)
        st.toast(f"Added: {escape_markdown(describe_step(step))}")
        st.rerun()


def pick(label: str, options: list, guess: str | None, key: str):
    index = options.index(guess) if guess in options else 0
    return st.selectbox(label, options, index=index, key=key)


# --- locations ------------------------------------------------------------------------
st.header("Locations")
coordinates, guess_lat, guess_lon = charts.coordinate_columns(data, kinds)
if guess_lat is None or guess_lon is None:
    st.info(
        "No coordinates found: no pair of latitude and longitude columns in decimal degrees "
        "(Step 1 finds them by their name or values), so there is nothing to generalise here.",
        icon=":material/location_off:",
    )
else:
    a, b, c = st.columns(3)
    with a:
        lat = pick("Latitude column", coordinates, guess_lat, "geo_lat")
    with b:
        lon = pick("Longitude column", coordinates, guess_lon, "geo_lon")
    with c:
        method = st.radio(
            "Technique",
            ["round", "snap", "displace"],
            horizontal=True,
            key="geo_method",
            format_func={
                "round": "Round decimals",
                "snap": "Snap to grid",
                "displace": "Random displacement",
            }.get,
        )
    step: dict = {"step": "geo_round", "lat": lat, "lon": lon}
    if method == "round":
        decimals = st.radio("Decimal places", [3, 2], horizontal=True, key="geo_decimals")
        step |= {"step": "geo_round", "decimals": int(decimals)}
        middle = float(data[lat].median()) if data[lat].notna().any() else 0.0
        st.caption(describe_rounding(int(decimals), middle))
    elif method == "snap":
        cell = st.number_input("Grid cell (metres)", 10.0, 100_000.0, 500.0, key="geo_cell")
        step |= {"step": "geo_snap", "cell_m": float(cell)}
    else:
        a, b, c = st.columns(3)
        low = a.number_input("At least (m)", 0.0, 50_000.0, 20.0, key="geo_min")
        high = b.number_input("At most (m)", 1.0, 50_000.0, 100.0, key="geo_max")
        others = [None, *[x for x in columns if x not in (lat, lon)]]
        by = c.selectbox(
            "Urban/rural radii by column (NIST: 100 m / 5 km)",
            others,
            key="geo_by",
            format_func=lambda x: "(same for all)" if x is None else x,
        )
        step |= {"step": "geo_displace", "min_m": float(low), "max_m": float(high)}
        if by is not None:
            step["by"] = by
    try:
        with st.spinner("Transforming the coordinates..."):
            after = replay.preview_step(step).data
    except AnonymisationError as error:
        st.error(error_text(error), icon=":material/error:")
        after = None
    if after is not None:
        before_pts, after_pts = (
            charts.map_points(data, lat, lon),
            charts.map_points(after, lat, lon),
        )
        st.markdown("**Close up: where points moved**")
        moved = charts.displacement_frame(before_pts, after_pts)
        st.altair_chart(charts.displacement_detail(moved), width="content")
        presentation.explain(
            f"The {len(moved):,} points nearest the middle of the data, each with a "
            "grey line from where it was (blue) to where it is now (orange), drawn "
            "to scale in metres: at the zoom of the maps above a move of tens of "
            "metres is invisible.",
            "PDPC guide, Annex B: GPS location",
        )
        cell_m = st.number_input(
            "Cell for 'stayed in the same cell' (m)", 10.0, 100_000.0, 100.0, key="geo_report_cell"
        )
        report = displacement_report(data, after, lat, lon, cell_m=float(cell_m))
        cols = st.columns(5)
        figures = [
            ("Mean moved", report.mean_m),
            ("Median", report.percentiles_m[50]),
            ("95th percentile", report.percentiles_m[95]),
            ("Max moved", report.max_m),
        ]
        for col, (label, value) in zip(cols, figures, strict=False):
            col.metric(label, f"{value:,.0f} m")
        cols[4].metric("Same cell", f"{report.same_cell_share:.0%}")
        st.vega_lite_chart(*charts.histogram(report.distances_m), width="stretch")
        presentation.explain(
            report.explanation(), "NIST SP 800-188 4.3.5 (~100 m urban, ~5 km rural)"
        )
        if st.button("Add to recipe", key="geo_add", icon=":material/add:"):
            add(step)

        st.subheader("Spatial k")
        a, b = st.columns(2)
        sk_method = a.radio(
            "Records share a location when they are",
            ["exact", "grid", "radius"],
            horizontal=True,
            key="sk_method",
            format_func={
                "exact": "at the same point",
                "grid": "in the same cell",
                "radius": "within r metres",
            }.get,
        )
        size = b.number_input(
            "Cell or radius (m)",
            10.0,
            100_000.0,
            200.0,
            key="sk_size",
            disabled=sk_method == "exact",
        )
        k = classify.k_target()
        options = {"grid": {"cell_m": float(size)}, "radius": {"radius_m": float(size)}}
        with st.spinner("Counting neighbours..."):
            sk = spatial_k(after, lat, lon, k=k, warn=False, **options.get(sk_method, {}))
        a, b, c = st.columns(3)
        a.metric("Smallest count", sk.min_count)
        b.metric(f"Locations below k = {k}", f"{sk.locations_below:,}")
        c.metric(f"Records below k = {k}", f"{sk.records_below:,}")
        shown = charts.spatial_k_points(after, lat, lon, sk.counts, k)
        title = (
            f"Where the points are after this step ({len(shown):,} of {len(after):,} "
            "shown, those below k first)"
        )
        st.vega_lite_chart(*charts.spatial_k_chart(shown, k, title), width="stretch")
        presentation.explain(
            f"Red points share their location ({sk.describe_method()}) with fewer than {k} "
            "records: the location alone nearly identifies them. " + charts.basemap_note(),
            "NIST SP 800-188 4.3.5; PDPC guide, Annex C (k)",
        )
        if sk.warning:
            st.warning(escape_markdown(sk.warning), icon=":material/warning:")

# --- dates ------------------------------------------------------------------------------
st.header("Dates")
date_like = [
    c
    for c in columns
    if kinds.get(c) in ("date", "date_of_birth") or pd.api.types.is_datetime64_any_dtype(data[c])
]
if not date_like:
    st.info("No date column was recognised in the current table.")
else:
    a, b, c, d = st.columns(4)
    chosen = a.multiselect("Date columns", date_like, default=date_like[:1], key="date_columns")
    person = b.selectbox(
        "Person id column (same shift for all their rows)",
        [None, *columns],
        key="date_person",
        format_func=lambda x: "(each record)" if x is None else x,
    )
    max_days = c.number_input("Shift up to (days)", 7, 3650, 180, key="date_max_days")
    keep_weekday = d.checkbox("Keep the day of the week", value=True, key="date_keep_weekday")
    if chosen:
        step = {
            "step": "date_shift",
            "columns": chosen,
            "max_days": int(max_days),
            "keep_weekday": bool(keep_weekday),
        }
        if person:
            step["by"] = person
        with continue_on_error():
            shifted = replay.preview_step(step).data
            long = charts.timeline_frame(data, shifted, chosen, person, people=8)
            st.vega_lite_chart(*charts.timeline(long), width="stretch")
            pivot = long.pivot_table(
                index=["pair"], columns="version", values="weekday", aggfunc="first"
            )
            kept = float((pivot["original"] == pivot["shifted"]).mean()) if len(pivot) else 1.0
            presentation.explain(
                f"Original (blue) and shifted (orange) dates of 8 people, weekday above each; each "
                f"person moves by one random offset, so intervals are kept; weekday kept for "
                f"{kept:.0%} shown.",
                "NIST SP 800-188 4.3.4; PDPC guide, Annex B: dates",
            )
            if st.button("Add date shift to recipe", key="date_add", icon=":material/add:"):
                add(step)

st.subheader("Ages")
reference = st.date_input(
    "Reference date (ages are computed on this day)", dt.date.today(), key="age_reference"
)
a, b = st.columns(2)
dob_options = [c for c in date_like if kinds.get(c) == "date_of_birth"] or date_like
if dob_options:
    dob = a.selectbox("Date of birth column", dob_options, key="age_dob")
    a.caption("Age in whole years, 90 and over as '90+' (HIPAA Safe Harbor).")
    if a.button("Add: age from date of birth", key="age_add", icon=":material/add:"):
        add({"step": "age_from_dob", "column": dob, "reference_date": str(reference)})
ages = [c for c in columns if c.lower().startswith("age") or kinds.get(c) == "age"]
if ages:
    age_col = b.selectbox("Age column", ages, key="age_column")
    milestones = b.text_input(
        "Milestone ages kept exactly (with +/-1 year)", "62, 65", key="age_milestones"
    )
    b.caption("Ages over 25 move by up to +/-2 years; milestones never move or get crossed.")
    if b.button("Add: perturb ages", key="age_perturb_add", icon=":material/add:"):
        try:
            marks = [int(x) for x in milestones.replace(";", ",").split(",") if x.strip()]
            add({"step": "age_perturb", "column": age_col, "milestones": marks})
        except ValueError:
            st.error("Milestones must be whole numbers separated by commas, e.g. 62, 65.")
presentation.explain(
    "NIST allows +/-2 years over age 25 but not near benefit milestones such as 62.",
    "NIST SP 800-188 4.3.4",
)

# --- HIPAA Safe Harbor ------------------------------------------------------------------
st.header("HIPAA Safe Harbor preset")
free_text = st.radio(
    "Free text",
    list(FREE_TEXT_CHOICES),
    horizontal=True,
    key="sh_free_text",
    format_func={
        "remove": "remove it",
        "redact": "redact inside it",
        "flag": "keep and flag as not checked",
    }.get,
)
st.caption(FREE_TEXT_CHOICES[free_text].capitalize() + ".")
with continue_on_error():
    result = cache.memo(
        "safe_harbor",
        lambda: apply_safe_harbor(
            data,
            reference_date=str(reference),
            free_text=free_text,
            suggestions=classify.suggestions(),
        ),
        str(reference),
        free_text,
    )
    st.markdown("**Identifier by identifier** (45 CFR §164.514(b)(2)(i), A to R)")
    # st.table, whose cells wrap: the 18 lines are read in full (a data grid cut them at the
    # page's edge). Its cells are Markdown and name columns from the data: escaped.
    st.table(result.identifiers_frame().map(escape_markdown), hide_index=True)
    st.markdown("**Column by column**")
    st.dataframe(result.to_frame(), hide_index=True)
    for note in result.notes():
        st.caption(note)
    presentation.explain(
        "What the preset would do, for each of the 18 identifiers the rule lists and each "
        "column: names, numbers and codes removed, addresses cut to the state, ZIP codes to 3 "
        "digits (000 for small areas), dates to the year, ages over 89 as one category; "
        "'found by' says whether the column's header or its values showed the identifier.",
        "HIPAA Safe Harbor, 45 CFR §164.514(b)(2); NIST SP 800-188 4.3.4",
    )
    if st.button("Add Safe Harbor to recipe", key="sh_add", icon=":material/add:"):
        add({"step": "safe_harbor", "reference_date": str(reference), "free_text": free_text})
