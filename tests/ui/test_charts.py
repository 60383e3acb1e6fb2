"""ui.charts: class-size bands and the "which quasi-identifier drives the risk" words."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ui.charts import class_size_bands, class_size_chart, driving_advice


def test_class_sizes_fall_in_readable_bands_split_at_k():
    # Classes of 1, 2, 4, 5, 12, 13 and 4,400 records (the hair-thin case).
    sizes = pd.DataFrame(
        {"class_size": [1, 2, 4, 5, 12, 13, 4400], "classes": [3, 1, 1, 2, 1, 1, 1]}
    )
    sizes["records"] = sizes["class_size"] * sizes["classes"]
    bands = class_size_bands(sizes, k=5)
    # 1..4 one by one, then from k = 5: 5-9, 10-19, 20-49, ..., 2,000-4,999 would pass the
    # largest, so the last band is "2,000+".
    assert bands["band"].tolist() == [
        "1",
        "2",
        "3",
        "4",
        "5–9",
        "10–19",
        "20–49",
        "50–99",
        "100–199",
        "200–499",
        "500–999",
        "1,000–1,999",
        "2,000+",
    ]
    assert bands["records"].tolist() == [3, 2, 0, 4, 10, 25, 0, 0, 0, 0, 0, 0, 4400]
    assert bands["below_k"].tolist() == [True] * 4 + [False] * 9
    assert bands["records"].sum() == sizes["records"].sum()
    spec = class_size_chart(sizes, 5).to_dict()
    rule = spec["layer"][1]
    assert rule["mark"]["type"] == "rule" and rule["encoding"]["x"]["bandPosition"] == 0
    assert spec["layer"][0]["encoding"]["y"]["title"] == "Records"


def test_every_class_below_k_still_shows_where_k_is():
    # Classes of 1 and 2 records, k = 5: an empty "5+" band carries the dashed k line.
    sizes = pd.DataFrame({"class_size": [1, 2], "classes": [2, 1], "records": [2, 2]})
    bands = class_size_bands(sizes, k=5)
    assert bands["band"].tolist() == ["1", "2", "3", "4", "5+"]
    assert bands["records"].tolist() == [2, 2, 0, 0, 0]
    assert len(class_size_chart(sizes, 5).to_dict()["layer"]) == 3


def _impact(rows):
    return pd.DataFrame(rows, columns=["quasi_identifier", "k_without", "uniques_without"])


def test_driving_advice_names_one_column_or_says_they_tie():
    one = _impact([("age", 5, 0), ("sex", 1, 7), ("race", 2, 3)])
    assert driving_advice(one, 1, 9).startswith("Leaving out 'age' would give k = 5 and 0")
    tie = _impact([("age", 1, 7), ("sex", 1, 7), ("race", 1, 7)])
    text = driving_advice(tie, 1, 9)
    assert text.startswith("Leaving out any one of 'age', 'sex', 'race' gives the same")
    assert "they tie" in text
    two = _impact([("age", 3, 1), ("sex", 3, 1), ("race", 1, 7)])
    assert driving_advice(two, 1, 9).startswith("Leaving out 'age' or 'sex' (a tie)")


def test_displacement_close_up_is_to_scale_in_metres():
    from core.geo import displace_points, haversine_m
    from ui.location_charts import displacement_detail, displacement_frame

    rng = np.random.default_rng(3)
    points = pd.DataFrame(
        {"lat": 1.35 + rng.normal(0, 0.02, 200), "lon": 103.8 + rng.normal(0, 0.03, 200)}
    )
    moved = displace_points(points, "lat", "lon", min_m=20, max_m=100, seed=5)
    frame = displacement_frame(points, moved, sample=30)
    assert len(frame) == 30
    # Each segment's length in the flat local view matches the great-circle distance
    # (core.geo.haversine_m, an independent formula) to within 1%.
    rows = frame.index
    truth = haversine_m(
        points.loc[rows, "lat"],
        points.loc[rows, "lon"],
        moved.loc[rows, "lat"],
        moved.loc[rows, "lon"],
    )
    np.testing.assert_allclose(frame["moved_m"], truth, rtol=0.01)
    assert frame["moved_m"].between(19.5, 100.5).all()
    spec = displacement_detail(frame).to_dict()
    labels = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    assert labels and spec["layer"][0]["encoding"]["x"]["title"].startswith("metres east")


def _inside(lon, lat, ring) -> np.ndarray:
    """Ray casting (even-odd rule), written here independently of any map library."""
    xs, ys = np.array([p[0] for p in ring]), np.array([p[1] for p in ring])
    inside = np.zeros(len(lon), dtype=bool)
    for i in range(len(ring) - 1):
        x1, y1, x2, y2 = xs[i], ys[i], xs[i + 1], ys[i + 1]
        crosses = (y1 > lat) != (y2 > lat)
        with np.errstate(divide="ignore", invalid="ignore"):
            at = x1 + (lat - y1) * (x2 - x1) / (y2 - y1)
        inside ^= crosses & (lon < at)
    return inside


def test_offline_basemap_is_small_and_holds_the_sample_points():
    from ui.location_charts import BASEMAP, map_points, offline_basemap, spatial_k_chart

    assert BASEMAP.stat().st_size < 200_000  # vendored: a few tens of KB, not MB
    features = {f["properties"]["iso_a3"]: f for f in offline_basemap()["features"]}
    assert set(features) == {"SGP", "MYS", "IDN"}
    people = pd.read_csv(BASEMAP.parents[2] / "sample_data" / "singapore_people.csv")
    points = map_points(people, "latitude", "longitude")
    (ring,) = features["SGP"]["geometry"]["coordinates"][0]
    share = _inside(points["lon"].to_numpy(), points["lat"].to_numpy(), ring).mean()
    assert share > 0.9  # the coarse 1:10m outline still holds nearly every sample point
    data, spec = spatial_k_chart(points.assign(count=[1, 5] * (len(points) // 2)), k=5)
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["geoshape", "circle"]  # land under the points
    assert sorted(data["status"].unique()) == ["5 or more", "fewer than 5"]


def test_date_shift_chart_has_one_shared_axis_in_days():
    from ui.location_charts import timeline, timeline_frame

    before = pd.DataFrame(
        {"pid": ["a", "a", "b"], "visit": ["2020-01-01", "2020-01-11", "1990-06-01"]}
    )
    after = before.assign(visit=["2020-01-06", "2020-01-16", "1990-05-25"])  # +5 and -7 days
    long = timeline_frame(before, after, ["visit"], "pid", people=8)
    data, spec = timeline(long)
    assert "facet" not in spec and "layer" in spec  # one view: no per-person axes
    rows = data.to_dict("records")
    days = sorted((r["person"], r["version"], r["days"]) for r in rows)
    # a: first original date 2020-01-01 -> 0 and 10 before, 5 and 15 after; b: 0 and -7.
    assert days == [
        ("a", "original", 0),
        ("a", "original", 10),
        ("a", "shifted", 5),
        ("a", "shifted", 15),
        ("b", "original", 0),
        ("b", "shifted", -7),
    ]
    assert (
        spec["layer"][0]["encoding"]["x"]["title"] == "days from the person's first original date"
    )


def test_area_shapes_are_wound_clockwise_for_vega():
    """d3-geo (Vega) fills the outside of an anticlockwise ring (the GeoJSON standard's
    order), i.e. the whole globe: outer rings must come clockwise, holes anticlockwise."""
    from ui.location_charts import _clockwise

    def signed_area(ring):  # shoelace, written here: > 0 when anticlockwise
        return sum(
            x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(ring[:-1], ring[1:], strict=True)
        )

    outer = [[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]  # anticlockwise (RFC 7946)
    hole = [[1, 1], [1, 2], [2, 2], [2, 1], [1, 1]]  # clockwise (RFC 7946)
    turned = _clockwise({"type": "Polygon", "coordinates": [outer, hole]})
    assert signed_area(turned["coordinates"][0]) < 0 < signed_area(turned["coordinates"][1])
    again = _clockwise(turned)  # already in Vega's order: unchanged
    assert again == turned
    multi = _clockwise({"type": "MultiPolygon", "coordinates": [[outer], [outer[::-1]]]})
    assert all(signed_area(p[0]) < 0 for p in multi["coordinates"])


def test_distance_histogram_counts_by_hand():
    from ui.location_charts import histogram

    # 0..100 m in 4 bins of 25 m: [0, 25), [25, 50), [50, 75), [75, 100] (the last closed)
    frame, spec = histogram(np.array([0.0, 10.0, 30.0, 30.0, 60.0, 100.0, np.nan]), bins=4)
    assert frame["from_m"].tolist() == [0.0, 25.0, 50.0, 75.0]
    assert frame["to_m"].tolist() == [25.0, 50.0, 75.0, 100.0]
    assert frame["points"].tolist() == [2, 2, 1, 1]  # the missing distance is left out
    assert spec["encoding"]["x"]["title"] == "distance moved (m, haversine)"
    empty, _ = histogram(np.array([]))
    assert empty["points"].tolist() == [0]


def test_the_spatial_k_map_shows_every_point_below_k_before_the_others():
    from ui.location_charts import spatial_k_points

    # 10 points; the last three are alone (count 1 < k = 2), the rest share (count 5).
    df = pd.DataFrame({"lat": np.linspace(1.30, 1.39, 10), "lon": np.linspace(103.8, 103.9, 10)})
    counts = np.array([5] * 7 + [1] * 3)
    shown = spatial_k_points(df, "lat", "lon", counts, k=2, limit=5)
    # All three below k (rows 7-9) and then the first two others (rows 0-1), in table order.
    assert shown.index.tolist() == [0, 1, 7, 8, 9]
    assert shown["count"].tolist() == [5, 5, 1, 1, 1]
    assert len(spatial_k_points(df, "lat", "lon", counts, k=2, limit=2)) == 2


def test_labelled_bars_on_a_bounded_scale_draw_no_tick_past_its_bound():
    """Issue 29, Report "Utility cost per column": the room left after the longest bar for
    its figure made the axis read 105%, 110%, 115% of the information lost. A share has
    ticks 0 to 100% only; the room stays (a bar of 100% still shows its label)."""
    from ui.charts import labelled_bars

    frame = pd.DataFrame({"column": ["name", "age"], "lost": [1.0, 0.25]})
    chart = labelled_bars(frame, "lost", "column", title="lost", number_format=".0%", domain_max=1)
    x = chart.to_dict()["layer"][0]["encoding"]["x"]
    assert x["scale"]["domain"][1] > 1.0  # room for "100%"
    assert x["axis"]["values"] == [i / 10 for i in range(11)]
    unbounded = labelled_bars(frame, "lost", "column", title="lost", number_format=".0%")
    assert "values" not in unbounded.to_dict()["layer"][0]["encoding"]["x"]["axis"]
