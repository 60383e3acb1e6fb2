"""Tests of core.geo: PDPC guide Annex B (GPS rows) and NIST SP 800-188 4.3.5."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import AnonymisationWarning, ParameterError
from core.geo import (
    displace_points,
    displacement_report,
    round_coordinates,
    rounding_accuracy_m,
    snap_to_grid,
    spatial_k,
)
from core.recipe import Recipe, apply_recipe

R = 6_371_008.8  # the same sphere as core.geo (IUGG mean radius), stated independently


def distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Haversine in plain Python (math module, one pair at a time): independent of numpy."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = (
        math.sin((p2 - p1) / 2) ** 2
        + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    )
    return 2 * R * math.asin(math.sqrt(min(1.0, h)))


def points(lat: list[float], lon: list[float]) -> pd.DataFrame:
    return pd.DataFrame({"lat": lat, "lon": lon, "id": range(len(lat))})


# --- rounding ----------------------------------------------------------------------


def test_rounding_matches_the_guide_example():
    # PDPC guide, Annex B: 1.27434, 103.79967 -> 1.274, 103.800 (three decimal places).
    out = round_coordinates(points([1.27434], [103.79967]), "lat", "lon", decimals=3)
    assert out.loc[0, "lat"] == pytest.approx(1.274, abs=1e-12)
    assert out.loc[0, "lon"] == pytest.approx(103.800, abs=1e-12)


def test_rounding_accuracy_in_metres_matches_the_guide():
    # Annex B: 2 decimals "equivalent to accuracy of 1.11 km", 3 decimals "111 m".
    # 0.01 degree on a sphere of radius R: 2*pi*R/36000 metres.
    assert rounding_accuracy_m(2)[0] == pytest.approx(2 * math.pi * R / 36_000)
    assert round(rounding_accuracy_m(2)[0] / 1000, 2) == 1.11
    assert round(rounding_accuracy_m(3)[0]) == 111
    # East-west shrinks with cos(latitude): at 60 degrees it is half.
    ns, ew = rounding_accuracy_m(3, latitude=60.0)
    assert ew == pytest.approx(ns / 2)


def test_rounding_never_mutates_and_keeps_missing():
    df = points([1.27434, np.nan], [103.79967, 103.8])
    before = df.copy()
    out = round_coordinates(df, "lat", "lon", decimals=2)
    pd.testing.assert_frame_equal(df, before)
    assert np.isnan(out.loc[1, "lat"]) and out.loc[0, "lat"] == pytest.approx(1.27)


def test_coordinates_off_the_globe_are_refused_with_the_row():
    with pytest.raises(ParameterError, match="row 2"):
        round_coordinates(points([1.0, 103.8], [103.8, 1.0]), "lat", "lon")


# --- grid --------------------------------------------------------------------------


def test_snapping_moves_points_at_most_half_a_cell_diagonal():
    rng = np.random.default_rng(1)
    lat, lon = rng.uniform(-60, 60, 300), rng.uniform(-179, 179, 300)
    out = snap_to_grid(points(list(lat), list(lon)), "lat", "lon", cell_m=500)
    for a, b, c, d in zip(lat, lon, out["lat"], out["lon"], strict=True):
        # half the diagonal of a 500 m cell, plus 1 % for the cell's width varying with latitude
        assert distance_m(a, b, c, d) <= 500 * math.sqrt(2) / 2 * 1.01


def test_points_in_one_cell_share_the_centre():
    # Two points 10 m apart near Singapore, far from a cell edge of a 1 km grid: same centre.
    df = snap_to_grid(points([1.3000, 1.30009], [103.8, 103.8]), "lat", "lon", cell_m=100_000)
    assert df.loc[0, "lat"] == df.loc[1, "lat"] and df.loc[0, "lon"] == df.loc[1, "lon"]


# --- displacement ------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    lat=st.floats(-85, 85),
    lon=st.floats(-180, 180),
    radii=st.tuples(st.floats(0, 2000), st.floats(1, 8000)).filter(lambda r: r[0] + 1 < r[1]),
)
def test_displacement_stays_inside_the_ring(seed, lat, lon, radii):
    low, high = radii
    df = points([lat] * 25, [lon] * 25)
    out = displace_points(df, "lat", "lon", min_m=low, max_m=high, seed=seed)
    for a, b in zip(out["lat"], out["lon"], strict=True):
        d = distance_m(lat, lon, a, b)
        assert low - 1e-6 <= d <= high + 1e-6


def test_displacement_is_uniform_over_the_area_of_the_disc():
    # Uniform over area: P(distance <= r/2) = (r/2)^2 / r^2 = 1/4, not 1/2.
    n = 20_000
    df = points([1.3] * n, [103.8] * n)
    out = displace_points(df, "lat", "lon", max_m=1000, seed=3)
    d = np.array(
        [distance_m(1.3, 103.8, a, b) for a, b in zip(out["lat"], out["lon"], strict=True)]
    )
    assert abs(np.mean(d <= 500) - 0.25) < 0.02
    # Mean distance for a uniform disc: 2r/3.
    assert d.mean() == pytest.approx(2000 / 3, rel=0.02)


def test_displacement_corrects_for_latitude():
    # At 60 degrees north a metre east is twice as many degrees of longitude as at the equator;
    # east-west spread in degrees must double, north-south must not.
    n = 20_000
    eq = displace_points(points([0.0] * n, [10.0] * n), "lat", "lon", max_m=1000, seed=5)
    north = displace_points(points([60.0] * n, [10.0] * n), "lat", "lon", max_m=1000, seed=5)
    assert (north["lon"] - 10).abs().max() / (eq["lon"] - 10).abs().max() == pytest.approx(
        2.0, rel=0.01
    )
    assert (north["lat"] - 60).abs().max() == pytest.approx((eq["lat"] - 0).abs().max(), rel=0.01)


def test_urban_and_rural_radii_come_from_a_column():
    n = 400
    df = pd.DataFrame(
        {"lat": [1.35] * n, "lon": [103.8] * n, "area": ["urban", "rural"] * (n // 2)}
    )
    out = displace_points(df, "lat", "lon", by="area", seed=11)  # NIST: 100 m / 5 km
    d = np.array(
        [distance_m(1.35, 103.8, a, b) for a, b in zip(out["lat"], out["lon"], strict=True)]
    )
    urban = df["area"].eq("urban").to_numpy()
    assert d[urban].max() <= 100 + 1e-6
    assert d[~urban].max() <= 5000 + 1e-6 and d[~urban].max() > 1000
    with pytest.raises(ParameterError, match="suburb"):
        displace_points(df.assign(area="suburb"), "lat", "lon", by="area", seed=1)


def test_displacement_is_seeded_and_never_mutates():
    df = points([1.3, 1.4], [103.8, 103.9])
    before = df.copy()
    a = displace_points(df, "lat", "lon", max_m=100, seed=42)
    b = displace_points(df, "lat", "lon", max_m=100, seed=42)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(df, before)
    with pytest.raises(ParameterError, match="min_m"):
        displace_points(df, "lat", "lon", min_m=200, max_m=100)


def test_displacement_report_against_hand_figures():
    # Points moved due north by 100, 200 and 300 m: 1 m north = 180 / (pi R) degrees.
    deg = 180 / (math.pi * R)
    before = points([1.0, 1.0, 1.0], [103.0, 103.0, 103.0])
    after = before.assign(lat=before["lat"] + np.array([100, 200, 300]) * deg)
    report = displacement_report(before, after, "lat", "lon", cell_m=1_000_000)
    assert report.mean_m == pytest.approx(200, abs=1e-3)
    assert report.max_m == pytest.approx(300, abs=1e-3)
    assert report.percentiles_m[50] == pytest.approx(200, abs=1e-3)
    assert report.same_cell_share == 1.0  # a 1000 km cell holds them all


# --- spatial k ---------------------------------------------------------------------


def test_spatial_k_exact_counts_shared_coordinates():
    df = points([1.0, 1.0, 1.0, 2.0], [3.0, 3.0, 3.0, 4.0])
    with pytest.warns(AnonymisationWarning, match="nearly identifies"):
        result = spatial_k(df, "lat", "lon", k=2)
    assert result.counts.tolist() == [3, 3, 3, 1]
    assert result.locations_below == 1 and result.records_below == 1 and result.unique_records == 1


def test_spatial_k_by_decimals_matches_pandas_groupby():
    rng = np.random.default_rng(4)
    df = points(list(rng.uniform(1.25, 1.45, 2000)), list(rng.uniform(103.6, 104.0, 2000)))
    result = spatial_k(df, "lat", "lon", k=5, decimals=2, warn=False)
    expected = df.groupby([df["lat"].round(2), df["lon"].round(2)])["id"].transform("size")
    assert result.counts.tolist() == expected.tolist()
    small = expected[expected < 5]
    assert result.records_below == len(small)


def test_spatial_k_radius_matches_brute_force():
    rng = np.random.default_rng(9)
    lat, lon = rng.uniform(1.30, 1.32, 400), rng.uniform(103.80, 103.82, 400)
    result = spatial_k(points(list(lat), list(lon)), "lat", "lon", radius_m=150, warn=False)
    brute = [
        sum(distance_m(lat[i], lon[i], lat[j], lon[j]) <= 150 for j in range(400))
        for i in range(400)
    ]
    assert result.counts.tolist() == brute


def test_spatial_k_radius_at_high_latitude_matches_brute_force():
    # Near 70 degrees a metre east is ~3x more longitude: the buckets must widen.
    rng = np.random.default_rng(2)
    lat, lon = rng.uniform(69.99, 70.01, 300), rng.uniform(19.98, 20.02, 300)
    result = spatial_k(points(list(lat), list(lon)), "lat", "lon", radius_m=300, warn=False)
    brute = [
        sum(distance_m(lat[i], lon[i], lat[j], lon[j]) <= 300 for j in range(300))
        for i in range(300)
    ]
    assert result.counts.tolist() == brute


def test_spatial_k_grid_after_snapping_equals_exact_on_snapped():
    rng = np.random.default_rng(6)
    df = points(list(rng.uniform(1.25, 1.45, 1000)), list(rng.uniform(103.6, 104.0, 1000)))
    snapped = snap_to_grid(df, "lat", "lon", cell_m=1000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnonymisationWarning)
        by_grid = spatial_k(df, "lat", "lon", cell_m=1000)
        exact = spatial_k(snapped, "lat", "lon")
    assert by_grid.counts.tolist() == exact.counts.tolist()


def test_spatial_k_refuses_two_methods():
    with pytest.raises(ParameterError, match="at most one"):
        spatial_k(points([1.0], [2.0]), "lat", "lon", cell_m=100, radius_m=100)


def test_geo_steps_run_from_a_recipe():
    df = points([1.27434, 1.26421], [103.79967, 103.80405])
    recipe = Recipe(
        steps=(
            {"step": "geo_displace", "lat": "lat", "lon": "lon", "max_m": 50, "min_m": 10},
            {"step": "geo_round", "lat": "lat", "lon": "lon", "decimals": 2},
        ),
        seed=1,
    )
    out = apply_recipe(df, recipe).data
    assert out["lat"].tolist() == [1.27, 1.26]  # 50 m cannot cross a 0.005 degree boundary here


def test_cli_spatial_k_json(tmp_path, capsys):
    import json

    from core.cli import main

    path = tmp_path / "points.csv"
    points([1.0, 1.0, 1.0, 2.0], [3.0, 3.0, 3.0, 4.0]).to_csv(path, index=False)
    args = ["spatial-k", str(path), "--lat", "lat", "--lon", "lon", "--k", "3", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["records_below_k"] == 1 and data["locations_below_k"] == 1
    assert main(["spatial-k", str(path), "--lat", "nope", "--lon", "lon"]) == 2


def test_spatial_k_radius_matches_all_pairs_even_on_the_boundary():
    """The bucketed count (chord test, haversine near the limit) decides every pair as the
    haversine of every pair does: duplicates, and partners placed exactly r away."""
    from core.geo import destination, haversine_m

    rng = np.random.default_rng(21)
    lat, lon = rng.uniform(1.30, 1.31, 1500), rng.uniform(103.80, 103.81, 1500)
    lat[:100], lon[:100] = lat[100:200], lon[100:200]  # duplicated coordinates
    bearing = rng.uniform(0, 2 * np.pi, 300)
    far_lat, far_lon = destination(lat[200:500], lon[200:500], 120.0, bearing)
    lat, lon = np.r_[lat, far_lat], np.r_[lon, far_lon]
    result = spatial_k(points(list(lat), list(lon)), "lat", "lon", radius_m=120, warn=False)
    all_pairs = haversine_m(lat[:, None], lon[:, None], lat[None, :], lon[None, :]) <= 120
    assert result.counts.tolist() == all_pairs.sum(axis=1).tolist()


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_spatial_k_radius_by_cell_runs_matches_every_pair_and_the_bucket_search(seed, monkeypatch):
    """The cell-run count (issue 15) against the haversine of every pair and against the
    bucket search it replaces on compact data: Singapore latitudes, clusters of duplicates,
    partners exactly r away, a missing coordinate, random radii from 5 m to 2 km."""
    import core.geo.radius
    from core.geo import destination, haversine_m
    from core.geo.radius import _radius_counts_by_buckets

    rng = np.random.default_rng(seed)
    radius = float(rng.choice([5.0, 37.5, 100.0, 250.0, 2000.0]))
    n = 2500
    span = radius / 20_000  # degrees: a few radii across, so most points have neighbours
    lat = rng.uniform(1.22, 1.22 + span * 10, n)
    lon = rng.uniform(103.6, 103.6 + span * 10, n)
    hubs = rng.integers(0, n, 20)
    dup = rng.integers(0, n, 400)
    lat[dup], lon[dup] = lat[hubs[dup % 20]], lon[hubs[dup % 20]]  # clusters of duplicates
    bearing = rng.uniform(0, 2 * np.pi, 300)
    far_lat, far_lon = destination(lat[:300], lon[:300], radius, bearing)  # exactly r away
    lat, lon = np.r_[lat, far_lat, np.nan], np.r_[lon, far_lon, 103.7]
    with monkeypatch.context() as patched:  # the cell runs must do it alone
        patched.setattr(core.geo.radius, "_radius_counts_by_buckets", None)
        result = spatial_k(points(list(lat), list(lon)), "lat", "lon", radius_m=radius, warn=False)
    ok = np.isfinite(lat)
    pairs = haversine_m(lat[ok, None], lon[ok, None], lat[None, ok], lon[None, ok]) <= radius
    assert result.counts[ok].tolist() == pairs.sum(axis=1).tolist()
    assert result.counts[~ok].tolist() == [1]
    assert result.counts.tolist() == _radius_counts_by_buckets(lat, lon, radius)[0].tolist()


def test_location_codes_number_pairs_as_the_equivalence_classes_do():
    from core.geo.radius import _location_codes
    from core.privacy import equivalence_classes

    rng = np.random.default_rng(4)
    lat, lon = rng.uniform(1.2, 1.5, 3000).round(3), rng.uniform(103.6, 104.0, 3000).round(3)
    lat[:50], lon[50:100] = np.nan, np.nan  # missing either or (rows 50..) both
    lat[60:70] = np.nan
    lat[200], lat[201], lon[200], lon[201] = 0.0, -0.0, 5.0, 5.0  # -0.0 equals 0.0
    expected = equivalence_classes(pd.DataFrame({"lat": lat, "lon": lon}), ["lat", "lon"])
    assert _location_codes(lat, lon).tolist() == expected.class_of_record.tolist()
    assert _location_codes(lat, lon)[200] == _location_codes(lat, lon)[201]


def test_spatial_k_radius_on_cell_edges_in_small_chunks_matches_every_pair(monkeypatch):
    """Points on the edges of the cell-run grid (cells r / 5 tall and about r / 5 wide,
    measured from the southernmost and westernmost points), duplicates among them, and
    pairs tested a few hundred at a time so that runs straddle chunk ends: every count
    equals the haversine of every pair."""
    import core.geo.radius
    from core.geo import haversine_m

    radius = 80.0
    step = math.degrees(radius / R) / 5  # one cell in degrees of latitude
    rng = np.random.default_rng(17)
    rows, cols = rng.integers(0, 40, 1200), rng.integers(0, 40, 1200)
    lat = 1.30 + rows * step + rng.choice([0.0, 1e-12, -1e-12], 1200)
    lon = 103.80 + cols * step + rng.choice([0.0, 1e-12, -1e-12], 1200)
    lat[0], lon[0] = 1.30, 103.80  # the grid starts here
    monkeypatch.setattr(core.geo.radius, "_radius_counts_by_buckets", None)  # cell runs alone
    monkeypatch.setattr(core.geo.radius, "_CACHED_PAIR_CHUNK", 300)
    result = spatial_k(points(list(lat), list(lon)), "lat", "lon", radius_m=radius, warn=False)
    all_pairs = haversine_m(lat[:, None], lon[:, None], lat[None, :], lon[None, :]) <= radius
    assert result.counts.tolist() == all_pairs.sum(axis=1).tolist()
    brute = [
        sum(distance_m(lat[i], lon[i], lat[j], lon[j]) <= radius for j in range(1200))
        for i in range(0, 1200, 97)
    ]
    assert result.counts[::97].tolist() == brute


def test_sort_by_cell_is_a_stable_sort():
    from core.geo.radius import _sort_by_cell

    cells = np.random.default_rng(3).integers(0, 50, 5000)
    order, sorted_cells = _sort_by_cell(cells, 50)
    assert order.tolist() == np.argsort(cells, kind="stable").tolist()
    assert sorted_cells.tolist() == sorted(cells.tolist())


def test_location_codes_when_every_pair_mixes_to_the_same_number(monkeypatch):
    """Mixing both coordinates into one number may collide: the codes are then computed
    from the whole pairs, still as the equivalence classes number them."""
    import core.geo.radius
    from core.privacy import equivalence_classes

    monkeypatch.setattr(core.geo.radius, "_MIX_LAT", np.uint64(0))
    monkeypatch.setattr(core.geo.radius, "_MIX_LON", np.uint64(0))
    rng = np.random.default_rng(5)
    lat, lon = rng.uniform(1.2, 1.5, 500).round(2), rng.uniform(103.6, 104.0, 500).round(2)
    expected = equivalence_classes(pd.DataFrame({"lat": lat, "lon": lon}), ["lat", "lon"])
    assert core.geo.radius._location_codes(lat, lon).tolist() == expected.class_of_record.tolist()


def test_coordinate_and_shape_columns_are_found_by_name():
    from core.geo import coordinate_columns, shape_column

    table = pd.DataFrame({"area": ["a"], "Lat": [1.3], "LNG": [103.8], "Geometry": ["{}"]})
    assert coordinate_columns(table) == ("Lat", "LNG")
    assert shape_column(table) == "Geometry"
    text = table.assign(Lat=["1.3"])  # a text column is not a coordinate
    assert coordinate_columns(text) is None
    assert shape_column(table.drop(columns="Geometry")) is None


def test_area_shapes_read_geojson_and_name_the_bad_row():
    from core.geo import area_shapes

    square = '{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]}'
    feature = '{"type": "Feature", "geometry": ' + square + ', "properties": {}}'
    table = pd.DataFrame({"shape": [square, None, feature, ""]})
    shapes = area_shapes(table, "shape")
    assert shapes[0]["coordinates"][0][2] == [1, 1] and shapes[1] is None and shapes[3] is None
    assert shapes[2] == shapes[0]
    bad = pd.DataFrame({"shape": [square, '{"type": "Point", "coordinates": [1, 2]}']})
    with pytest.raises(ParameterError, match="Column 'shape', row 2: not a GeoJSON Polygon"):
        area_shapes(bad, "shape")
    with pytest.raises(ParameterError, match="row 1"):
        area_shapes(pd.DataFrame({"shape": ["POLYGON ((0 0, 1 0, 1 1, 0 0))"]}), "shape")
