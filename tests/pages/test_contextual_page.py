"""AppTest checks of the Area-level risk page (Witkowski 2007, locational disclosure risk).

Expected figures are computed here with a plain pandas merge + group-by, not with
core.contextual.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import metric, shown
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/10_contextual.py"
AREAS = pd.read_csv(ROOT / "sample_data" / "singapore_areas.csv")
SURVEY = pd.read_csv(ROOT / "sample_data" / "survey_respondents.csv")
MEASURES = [
    "share_poverty",
    "median_income",
    "share_aged_65_plus",
    "share_public_housing",
    "share_degree",
]


def pandas_lr(width: float | None) -> tuple[pd.Series, pd.DataFrame]:
    """At-risk flag per respondent (T1=20, T3=3, T5=100,000) and the coded area table."""
    coded = AREAS[["subzone", "population"]].copy()
    for c in MEASURES:
        v = AREAS[c].astype(float)
        if width is None:
            coded[c] = v
        else:  # shares are percentages; median income spans its min..max range
            lo, hi = (0.0, 100.0) if c != "median_income" else (v.min(), v.max())
            pct = ((v - lo) / (hi - lo) * 100).round(9)
            coded[c] = np.minimum(np.floor((pct / width).round(9)), np.ceil(100 / width) - 1)
    coded["matches"] = coded.groupby(MEASURES)["subzone"].transform("size")
    merged = SURVEY[["subzone"]].merge(coded, on="subzone", how="left")
    merged["sample"] = merged.groupby(MEASURES)["subzone"].transform("size")
    risk = (merged["sample"] < 3) | ((merged["matches"] < 20) & (merged["population"] < 100_000))
    coded["at_risk"] = coded["subzone"].isin(merged.loc[risk, "subzone"])
    return risk, coded


@pytest.fixture
def page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page(PAGE).run()
    at.button(key="ctx_load_survey").click().run()
    assert not at.exception, at.exception
    return at


def test_exact_values_lr_and_pinpointed_areas(page):
    risk, coded = pandas_lr(None)
    assert page.multiselect(key="ctx_columns:survey_respondents.csv").value == MEASURES
    assert page.selectbox(key="ctx_record_key:survey_respondents.csv").value == "subzone"
    assert metric(page, "Locational risk LR") == f"{risk.mean():.1%}"
    pinpointed = int((coded["matches"] < 20).sum())
    assert metric(page, "Pinpointed areas") == f"{pinpointed:,} of {len(AREAS):,}"
    charts = page.get("vega_lite_chart")
    assert len(charts) == 2  # the sweep (one line per recoding) and LR per subset
    assert '"method"' in charts[0].proto.spec
    # each subset's bar carries its LR (issue 29: labels missing on "Area-level subsets")
    layers = json.loads(charts[1].proto.spec)["layer"]
    [label] = [layer for layer in layers if layer["mark"]["type"] == "text"]
    assert label["encoding"]["text"]["field"] == "lr"


def test_absolute_recoding_then_recipe_steps(page):
    page.radio(key="ctx_method").set_value("absolute").run()
    page.selectbox(key="ctx_grade_absolute").set_value(10).run()
    assert not page.exception, page.exception
    risk, coded = pandas_lr(10)
    assert metric(page, "Locational risk LR") == f"{risk.mean():.1%}"
    table = page.dataframe[0].value
    assert set(table["subzone"]) == set(coded.loc[coded["at_risk"], "subzone"])
    # Read as on every page (core.formatting): counts with separators (95000 -> "95,000"),
    # measures to three significant digits, the matchset number as it is; numbers beneath.
    text = shown(page.dataframe[0])
    for column in ("population", "respondents", "matchset_size"):
        assert text[column].tolist() == [f"{round(n):,}" for n in table[column]]
    assert text["matchset"].tolist() == table["matchset"].astype(str).tolist()
    assert text["median_income"].tolist() == [f"{round(n):,}" for n in table["median_income"]]
    assert all(
        float(t) == float(f"{n:.3g}")
        for t, n in zip(text["share_poverty"], table["share_poverty"], strict=True)
    )
    assert pd.api.types.is_numeric_dtype(table["population"])

    page.button(key="ctx_add").click().run()
    assert not page.exception, page.exception
    recipe = page.session_state["history"].current
    assert [s["step"] for s in recipe.steps] == ["contextual_absolute"]
    data = recipe_data(page)
    # first respondent's poverty share in 10% categories, by hand: floor(v / 10) * 10
    v = SURVEY["share_poverty"].iloc[0]
    lo = int(v // 10) * 10
    assert data["share_poverty"].iloc[0] == f"[{lo}, {lo + 10})"

    page.button(key="ctx_suppress").click().run()
    assert not page.exception, page.exception
    data = recipe_data(page)
    at_risk_areas = set(coded.loc[coded["at_risk"], "subzone"])
    emptied = set(data.loc[data["share_degree"].isna(), "subzone"])
    # every area at risk is emptied (later rounds may add look-alikes left with < 3 matches);
    # areas with no risk stay released
    assert at_risk_areas <= emptied
    assert data["share_degree"].notna().any()
    # the figures still describe the chosen option, before suppression
    assert metric(page, "Locational risk LR") == f"{risk.mean():.1%}"


def recipe_data(at: AppTest) -> pd.DataFrame:
    from core.recipe import apply_recipe

    recipe = at.session_state["history"].current
    return apply_recipe(SURVEY, recipe).data


def test_bad_inputs_show_the_core_error(page):
    page.selectbox(key="ctx_area_key").set_value("planning_area").run()
    assert not page.exception, page.exception
    errors = [e.value for e in page.error]
    assert errors and "duplicated area key" in errors[0] and "planning_area" in errors[0]
    page.selectbox(key="ctx_area_key").set_value("subzone").run()
    assert not page.error
    page.selectbox(key="ctx_record_key:survey_respondents.csv").set_value("respondent_id").run()
    errors = [e.value for e in page.error]
    assert errors and "not in the area table" in errors[0] and "'R00001'" in errors[0]


# --- the map of areas (issue 17) --------------------------------------------------------


def test_no_map_when_the_area_table_has_no_locations(page):
    infos = " ".join(i.value for i in page.info)
    assert "No map: the area table has neither latitude and longitude columns" in infos
    assert not [c for c in page.get("vega_lite_chart") if '"projection"' in c.proto.spec]


def located_areas(kind: str) -> bytes:
    """The sample area table with a made-up place for each area, 20 to a row of a grid over
    Singapore: its centre (latitude, longitude) or a 0.008-degree square around it."""
    i = np.arange(len(AREAS))
    lat, lon = (1.26 + (i // 20) * 0.012).round(6), (103.64 + (i % 20) * 0.022).round(6)
    if kind == "coordinates":
        table = AREAS.assign(latitude=lat, longitude=lon)
    else:
        corners = [(-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1)]
        squares = [
            '{"type": "Polygon", "coordinates": [['
            + ", ".join(f"[{x + 0.004 * dx:.6f}, {y + 0.004 * dy:.6f}]" for dx, dy in corners)
            + "]]}"
            for x, y in zip(lon, lat, strict=True)
        ]
        table = AREAS.assign(geometry=squares)
    return table.to_csv(index=False).encode()


def map_rows(chart) -> pd.DataFrame:
    """The areas drawn on the map: the chart's Arrow data, or the shapes' properties."""
    import json

    import pyarrow as pa

    spec = json.loads(chart.proto.spec)
    inline = spec["layer"][1].get("data")
    if inline:
        return pd.DataFrame([f["properties"] for f in inline["values"]])
    return pa.ipc.open_stream(chart.proto.data.data).read_pandas()


@pytest.mark.parametrize("kind", ["coordinates", "shapes"])
def test_map_of_areas_coloured_by_risk(page, kind):
    import json

    page.radio(key="ctx_area_source").set_value("upload").run()
    page.file_uploader(key="ctx_area_upload").set_value(
        ("areas.csv", located_areas(kind), "text/csv")
    ).run()
    assert not page.exception, page.exception
    # the place columns are not offered as contextual measures
    assert page.multiselect(key="ctx_columns:survey_respondents.csv").value == MEASURES
    assert "latitude" not in page.multiselect(key="ctx_columns:survey_respondents.csv").options
    maps = [c for c in page.get("vega_lite_chart") if '"projection"' in c.proto.spec]
    assert len(maps) == 1
    spec = json.loads(maps[0].proto.spec)
    assert spec["layer"][0]["mark"]["type"] == "geoshape"  # the offline basemap first
    assert spec["layer"][1]["mark"]["type"] == ("circle" if kind == "coordinates" else "geoshape")
    assert spec["layer"][1]["encoding"]["color"]["scale"]["domain"] == [
        "respondents at risk",
        "protected by its population",
        "respondents safe",
        "no respondents",
    ]
    _, coded = pandas_lr(None)
    assert spec["title"]["text"] == (
        f"{int(coded['at_risk'].sum()):,} of {len(AREAS):,} areas with respondents at risk"
    )
    rows = map_rows(maps[0])
    assert len(rows) == len(AREAS)
    assert set(rows.loc[rows["status"] == "respondents at risk", "area"]) == set(
        coded.loc[coded["at_risk"], "subzone"]
    )
    no_one = set(AREAS["subzone"]) - set(SURVEY["subzone"])
    assert set(rows.loc[rows["status"] == "no respondents", "area"]) == no_one


def test_map_names_the_row_of_a_bad_shape(page):
    table = AREAS.assign(geometry=["POLYGON ((103.8 1.3, ...))"] + [""] * (len(AREAS) - 1))
    page.radio(key="ctx_area_source").set_value("upload").run()
    page.file_uploader(key="ctx_area_upload").set_value(
        ("areas.csv", table.to_csv(index=False).encode(), "text/csv")
    ).run()
    assert not page.exception, page.exception
    errors = " ".join(e.value for e in page.error)
    assert "Column 'geometry', row 1: not a GeoJSON Polygon" in errors


def test_words_and_numbers_read_as_a_person_writes_them(page):
    """Issue 17 screenshot review: T5 reads 100,000 (not 100000) and the exact method's
    Coarseness reads what it means (not "-")."""
    t5 = page.select_slider(key="ctx_t5")
    assert t5.value == 100_000 and "100,000" in t5.options
    grade = page.selectbox(key="ctx_grade_exact")
    assert grade.options == ["none: the exact values are released"]


def test_columns_missing_from_the_records_are_named_in_words():
    """The default sample shares no column with the area table: the message names the
    contextual columns as words ('a', 'b' and 'c'), not as a Python list."""
    from apptest_helpers import open_app

    at = open_app(PAGE)
    said = [i.value for i in at.info if "shares no column" in i.value]
    assert said, [i.value for i in at.info]
    text = said[0].replace("\\", "")  # column names are escaped for Markdown
    assert "[" not in text, text
    assert "'share_poverty', 'median_income' and 'share_aged_65_plus'" in text, text


def test_the_areas_at_risk_table_speaks_in_words(page):
    """Issue 29 ("developer text on screen", like ``count_error95``): the figures this page
    adds to the area table read ``matchset``, ``matchset_size``, ``sample_matches``,
    ``at_risk``. The area table's own columns keep their names (they are the user's);
    every other header is in words."""
    frame = page.dataframe[0]
    config = json.loads(frame.proto.columns or "{}")
    own = set(AREAS.columns)
    shown_headers = []
    for column in map(str, frame.value.columns):
        settings = config.get(column) or {}
        if settings.get("hidden"):
            continue
        shown_headers.append(str(settings.get("label") or column))
    added = [h for h in shown_headers if h not in own]
    assert added and not [h for h in added if "_" in h], added
    assert config["matchset_size"]["label"] == "areas alike"
    assert config["at_risk"]["hidden"] is True  # every row of this table is at risk
