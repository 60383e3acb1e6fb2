"""AppTest checks of the Locations and dates page on the Singapore sample table."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from apptest_helpers import metric, open_app
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/8_locations_dates.py"
SAMPLE = pd.read_csv(ROOT / "sample_data" / "singapore_people.csv", dtype={"postal_code": str})
R = 6_371_008.8


def haversine(lat1, lon1, lat2, lon2):
    """Independent haversine (vectorised by hand here, not core.geo's)."""
    p1, p2 = np.radians(lat1), np.radians(lat2)
    h = (
        np.sin((p2 - p1) / 2) ** 2
        + np.cos(p1) * np.cos(p2) * np.sin(np.radians(lon2 - lon1) / 2) ** 2
    )
    return 2 * R * np.arcsin(np.sqrt(h))


def _current_dob(at: AppTest) -> pd.Series:
    """The date of birth column after the recipe, replayed outside the dashboard."""
    from core.io import read_table
    from core.recipe import apply_recipe

    table = read_table(ROOT / "sample_data" / "singapore_people.csv")
    return apply_recipe(table, at.session_state["history"].current).data["date_of_birth"]


@pytest.fixture
def page() -> AppTest:
    return open_app(PAGE)


def test_rounding_preview_and_spatial_k_match_pandas(page):
    at = page
    assert at.selectbox(key="geo_lat").value == "latitude"
    assert at.selectbox(key="geo_lon").value == "longitude"
    at.radio(key="geo_method").set_value("round").run()
    at.radio(key="geo_decimals").set_value(2).run()
    assert not at.exception
    # Spatial k on the exact rounded points = group sizes of (round(lat, 2), round(lon, 2)).
    sizes = SAMPLE.groupby([SAMPLE.latitude.round(2), SAMPLE.longitude.round(2)]).size()
    assert metric(at, "Smallest count") == str(sizes.min())
    assert metric(at, "Locations below k = 5") == f"{int((sizes < 5).sum()):,}"
    assert metric(at, "Records below k = 5") == f"{int(sizes[sizes < 5].sum()):,}"
    # Largest move by rounding, by hand with the independent haversine.
    moved = haversine(
        SAMPLE.latitude, SAMPLE.longitude, SAMPLE.latitude.round(2), SAMPLE.longitude.round(2)
    )
    assert metric(at, "Max moved") == f"{moved.max():,.0f} m"
    # One map: the spatial k of the transformed points on the vendored basemap, in Vega
    # (no WebGL map, no tile server).
    assert not at.get("deck_gl_json_chart")
    specs = [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]
    maps = [spec for spec in specs if "projection" in spec]
    assert len(maps) == 1
    assert maps[0]["layer"][0]["mark"]["type"] == "geoshape"
    assert "http" not in json.dumps(maps[0])


def test_displacement_added_to_the_recipe_stays_in_the_ring(page):
    at = page
    at.radio(key="geo_method").set_value("displace").run()
    # A ring with its minimum above its maximum: an error naming the parameter, no step.
    at.number_input(key="geo_min").set_value(500.0).run()
    assert not at.exception
    assert any("min_m" in e.value for e in at.error)
    assert at.session_state["history"].current.steps == ()
    at.number_input(key="geo_min").set_value(50.0).run()
    at.number_input(key="geo_max").set_value(150.0).run()
    at.button(key="geo_add").click().run()
    assert not at.exception, at.exception
    steps = at.session_state["history"].current.steps
    assert steps[-1]["step"] == "geo_displace" and steps[-1]["max_m"] == 150.0
    # Replay the recipe as the dashboard does and check every distance independently.
    from core.io import read_table
    from core.recipe import apply_recipe

    recipe = at.session_state["history"].current
    data = apply_recipe(read_table(ROOT / "sample_data" / "singapore_people.csv"), recipe).data
    d = haversine(SAMPLE.latitude, SAMPLE.longitude, data.latitude, data.longitude)
    assert d.min() >= 50 - 1e-6 and d.max() <= 150 + 1e-6


def test_dates_ages_and_safe_harbor(page):
    at = page
    assert at.multiselect(key="date_columns").value == ["date_of_birth"]
    assert any("weekday kept for 100%" in c.value for c in at.caption)
    at.date_input(key="age_reference").set_value(pd.Timestamp("2025-01-01").date()).run()
    # Safe Harbor preview: the year of birth of people aged 90+ on 2025-01-01 is suppressed.
    dob = pd.to_datetime(SAMPLE.date_of_birth)
    cutoff = pd.Timestamp("1935-01-01")  # 90th birthday on or before the reference date
    old = int((dob <= cutoff).sum())
    report = next(d.value for d in at.dataframe if "detail" in d.value.columns)
    detail = " ".join(str(v) for v in report["detail"])
    assert f"{old} person(s) aged 90 or over" in detail
    at.button(key="date_add").click().run()
    assert not at.exception
    step = at.session_state["history"].current.steps[-1]
    assert step["step"] == "date_shift" and step["keep_weekday"] is True
    shifted = pd.to_datetime(_current_dob(at))
    assert (shifted.dt.day_of_week == dob.dt.day_of_week).all()
    at.button(key="age_add").click().run()
    assert not at.exception
    assert at.session_state["history"].current.steps[-1]["reference_date"] == "2025-01-01"
    at.selectbox(key="age_column").set_value("age").run()
    at.button(key="age_perturb_add").click().run()
    assert not at.exception
    assert at.session_state["history"].current.steps[-1]["milestones"] == [62, 65]
    at.button(key="sh_add").click().run()
    assert not at.exception
    steps = [s["step"] for s in at.session_state["history"].current.steps]
    assert steps == ["date_shift", "age_from_dob", "age_perturb", "safe_harbor"]


@pytest.mark.parametrize("method", ["round", "snap", "displace"])
def test_no_developer_words_on_the_page(page, method):
    """Issue 17 screenshot review: captions said "before and after 'geo_round'" and "Set
    ANON_MAP_STYLE"; every text of the page speaks the user's words (technique names as
    on its radio, the map's basemap in words), whichever technique is previewed."""
    page.radio(key="geo_method").set_value(method).run()
    assert not page.exception, page.exception
    texts = [
        e.value
        for kind in ("caption", "markdown", "info", "warning", "success")
        for e in getattr(page, kind)
    ]
    texts += [e.label for e in page.metric]
    developer = [t for t in texts if any(w in t for w in ("geo_", "ANON_", "date_shift"))]
    assert developer == [], developer


def test_an_age_column_found_by_content_is_offered_for_age_steps(tmp_path, monkeypatch):
    # Issue 26: the header says nothing ('c1'); Step 1 reads ages in the values.
    rng = np.random.default_rng(26)
    path = tmp_path / "people.csv"
    pd.DataFrame(
        {
            "c1": rng.normal(45, 20, 300).clip(0, 100).round().astype(int),
            "c2": rng.choice(["M", "F"], 300),
        }
    ).to_csv(path, index=False)
    monkeypatch.setenv("ANON_DATA", str(path))
    at = open_app(PAGE)
    assert "c1" in at.selectbox(key="age_column").options
    lines = next(t.value for t in at.table if "how handled" in t.value.columns)
    c_line = lines.set_index("identifier").loc[
        "(C) Dates (except year) related to a person; ages over 89"
    ]
    assert c_line["columns"] == "c1" and c_line["found by"] == "content"


@pytest.mark.parametrize("sample", ["guide_annex_c_taxi.csv", "guide_step1_customers.csv"])
def test_a_table_without_coordinates_says_so_and_shows_no_error(sample):
    """Issue 29: on a table without coordinates the page picked a money column or the
    customer id for both coordinates and showed a red error; the workshop's taxi table
    (guide_annex_c_taxi.csv) is one of them."""
    at = open_app("pages/1_data.py")
    at.selectbox(key="sample").set_value(sample)
    at.button(key="load_sample").click().run()
    at.switch_page("pages/8_locations_dates.py").run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert any(i.value.startswith("No coordinates found") for i in at.info)
    labels = [s.label for s in at.selectbox]
    assert "Latitude column" not in labels and "Longitude column" not in labels


def test_the_workshop_table_arrives_on_locations_without_an_error():
    """Issue 29: "the workshop table arrives with a Safe Harbor error". Started as the
    trainer does (Start the workshop on Data, training mode on, the suggested roles
    accepted on Classify), the taxi table reaches Locations and dates with no red box and
    no coordinate picker (it has no coordinates: Serial number was picked for both), and
    the Safe Harbor preset still reads its 18 identifiers."""
    at = open_app("pages/1_data.py")
    at.button(key="workshop_start").click().run()
    if any(b.key == "workshop_start_yes" for b in at.button):
        at.button(key="workshop_start_yes").click().run()
    assert at.session_state["source_name"] == "guide_annex_c_taxi.csv"
    at.switch_page("pages/2_classify.py").run()
    at.button(key="accept_all").click().run()
    assert not at.exception, at.exception
    for training in (True, False):
        at.session_state["training_mode"] = training
        at.switch_page(PAGE).run()
        assert not at.exception, at.exception
        assert not at.error, [e.value for e in at.error]
        assert any(i.value.startswith("No coordinates found") for i in at.info)
        assert "Latitude column" not in [s.label for s in at.selectbox]
        [identifiers] = [t.value for t in at.table]  # Safe Harbor's A to R, read in full
        assert len(identifiers) == 18


def test_coordinates_are_offered_only_among_coordinate_columns():
    at = open_app("pages/8_locations_dates.py")  # the default sample has both
    assert at.selectbox(key="geo_lat").value == "latitude"
    assert at.selectbox(key="geo_lon").value == "longitude"
    assert set(at.selectbox(key="geo_lat").options) == {"latitude", "longitude"}
