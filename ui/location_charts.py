"""Charts for the Locations and dates page (and the Area-level risk map): Altair/Vega.

Maps are Vega charts on an offline basemap: Natural Earth's coastline and national
boundaries around Singapore, stored in ui/basemap/ (see its README for provenance), drawn
as a geoshape layer under the points or areas. Nothing is fetched from the internet, and
nothing needs WebGL: pydeck's maps drew through WebGL, which a browser without a graphics
card (a virtual desktop, a headless test) renders in software, slowly (several seconds
for two maps of 5,000 points, against a few hundred milliseconds for the same in Vega).
"""

from __future__ import annotations

import functools
import json
import math
import re
from pathlib import Path

import altair as alt
import numpy as np
import pandas as pd

BASEMAP = Path(__file__).resolve().parent / "basemap" / "singapore_region.geojson"
MAX_POINTS = 2500  # drawn in the browser: Locations and dates stays within 1.5 s
LAND = "#ececE6"
COAST = "#969696"
MAP_HEIGHT = 420


_COORDINATE_WORDS = {"lat", "latitude", "lon", "lng", "long", "longitude"}


def coordinate_columns(
    data: pd.DataFrame, kinds: dict[str, str]
) -> tuple[list[str], str | None, str | None]:
    """The columns that may hold coordinates, and the guessed latitude and longitude.

    A column qualifies when it is numeric, its values are within -180..180 degrees and
    Step 1 found GPS coordinates in it or its name says so (lat, latitude, lon, lng...).
    Issue 29: the page used to offer every numeric column and picked a money column or a
    customer id for both coordinates, then showed a red error on a table without any.
    """
    found = []
    for column in map(str, data.columns):
        values = data[column]
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        words = set(re.split(r"[^a-z]+", column.lower()))
        if kinds.get(column) != "gps" and not words & _COORDINATE_WORDS:
            continue
        if values.notna().any() and float(values.abs().max()) <= 180:
            found.append(column)
    lat = next((c for c in found if "lat" in c.lower()), None)
    lon = next((c for c in found if c != lat and re.search("lon|lng", c.lower())), None)
    return found, lat, lon


def map_points(df: pd.DataFrame, lat: str, lon: str, limit: int = MAX_POINTS) -> pd.DataFrame:
    """The first ``limit`` points with coordinates, as plain lat/lon columns."""
    points = pd.DataFrame(
        {"lat": df[lat].to_numpy(dtype=float), "lon": df[lon].to_numpy(dtype=float)}, index=df.index
    )
    return points.dropna().head(limit)


def spatial_k_points(
    df: pd.DataFrame, lat: str, lon: str, counts: np.ndarray, k: int, limit: int = MAX_POINTS
) -> pd.DataFrame:
    """Points for the spatial k map with their ``count``: every point below ``k`` first (the
    ones the map is for), then the others in table order, ``limit`` in all (a browser
    draws a few thousand points quickly, not a million)."""
    points = map_points(df, lat, lon, limit=len(df)).assign(count=pd.Series(counts, index=df.index))
    below = (points["count"] < k).to_numpy()
    order = np.concatenate([np.flatnonzero(below), np.flatnonzero(~below)])[:limit]
    return points.iloc[np.sort(order)]


@functools.cache
def offline_basemap() -> dict:
    """The coastline and national boundaries around Singapore (Natural Earth 1:10m, public
    domain, vendored in ui/basemap/): drawn under the points, nothing fetched."""
    return json.loads(BASEMAP.read_text(encoding="utf-8"))


def basemap_note() -> str:
    return (
        "Grey land: the coastline and national boundaries around Singapore (Natural Earth, "
        "stored with the tool; nothing is fetched from the internet)."
    )


def map_projection(lat: pd.Series | np.ndarray, lon: pd.Series | np.ndarray) -> dict:
    """A Mercator projection showing the points' extent plus a margin at any chart width:
    centred on the box, scaled by an expression of the chart's width and height (the
    basemap reaches further and is clipped). Vega-Lite's own ``fit`` left the points a
    speck in a chart whose width follows its container."""
    lat, lon = np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)
    ok = np.isfinite(lat) & np.isfinite(lon)
    if not ok.any():
        south, north, west, east = -60.0, 75.0, -180.0, 180.0
    else:
        south, north = float(lat[ok].min()), float(lat[ok].max())
        west, east = float(lon[ok].min()), float(lon[ok].max())
    pad_lat = max((north - south) * 0.08, 0.002)
    pad_lon = max((east - west) * 0.08, 0.002)
    south, north = max(south - pad_lat, -85.0), min(north + pad_lat, 85.0)
    west, east = max(west - pad_lon, -180.0), min(east + pad_lon, 180.0)

    def mercator_y(latitude: float) -> float:
        return math.log(math.tan(math.pi / 4 + math.radians(latitude) / 2))

    y_south, y_north = mercator_y(south), mercator_y(north)
    middle = math.degrees(2 * math.atan(math.exp((y_south + y_north) / 2)) - math.pi / 2)
    across, up = math.radians(east - west), y_north - y_south
    return {
        "type": "mercator",
        "center": [(west + east) / 2, middle],
        "scale": {"expr": f"min(width / {across!r}, height / {up!r})"},
        "translate": {"expr": "[width / 2, height / 2]"},
    }


@functools.cache
def _basemap_json() -> str:
    return json.dumps(offline_basemap()["features"], separators=(",", ":"))


def basemap_layer() -> dict:
    """Vega-Lite layer of land and national boundaries (the vendored Natural Earth
    outlines), clipped to the map's box. A plain spec, not an Altair chart: Altair copies
    and validates every coordinate of inline data each time a chart is built (about a
    second for this basemap), Streamlit sends a spec as it is."""
    return {
        "data": {"values": json.loads(_basemap_json())},
        "mark": {
            "type": "geoshape",
            "fill": LAND,
            "stroke": COAST,
            "strokeWidth": 0.8,
            "clip": True,
        },
    }


def on_basemap(layer: dict, projection: dict, title: str, height: int = MAP_HEIGHT) -> dict:
    """Vega-Lite spec of ``layer`` (points or area shapes in longitude/latitude, drawing
    the chart's data) over the basemap, in ``projection`` (see :func:`map_projection`). Draw it with ``st.vega_lite_chart(data, spec, width="stretch")``."""
    return {
        "title": {"text": title, "anchor": "start", "limit": 0},
        "height": height,
        "projection": projection,
        "layer": [basemap_layer(), layer],
    }


def point_map(
    points: pd.DataFrame,
    title: str,
    *,
    color: dict | None = None,
    tooltip: list[dict] | None = None,
    height: int = MAP_HEIGHT,
) -> dict:
    """Vega-Lite spec of the ``points`` (columns lat, lon: the chart's data) as dots over
    the basemap; ``color`` and ``tooltip`` are Vega-Lite encodings."""
    encoding: dict = {
        "longitude": {"field": "lon", "type": "quantitative"},
        "latitude": {"field": "lat", "type": "quantitative"},
        "color": color or {"value": "#ff7f0e"},
    }
    if tooltip:
        encoding["tooltip"] = tooltip
    dots = {
        "mark": {"type": "circle", "size": 12, "opacity": 0.7, "clip": True},
        "encoding": encoding,
    }
    return on_basemap(dots, map_projection(points["lat"], points["lon"]), title, height)


def spatial_k_chart(
    points: pd.DataFrame, k: int, title: str = "Spatial k"
) -> tuple[pd.DataFrame, dict]:
    """Points over the basemap, red where their location is shared by fewer than k records:
    the data and the Vega-Lite spec for ``st.vega_lite_chart``."""
    few, enough = f"fewer than {k}", f"{k} or more"
    shown = points.assign(status=np.where(points["count"] < k, few, enough))
    color = {
        "field": "status",
        "type": "nominal",
        "title": "records sharing the location",
        "scale": {"domain": [few, enough], "range": ["#d62728", "#7f7f7f"]},
        "legend": {"orient": "top", "labelLimit": 0, "titleLimit": 0},
    }
    tooltip = [
        {"field": "lat", "type": "quantitative", "title": "latitude", "format": ".5f"},
        {"field": "lon", "type": "quantitative", "title": "longitude", "format": ".5f"},
        {"field": "count", "type": "quantitative", "title": "records sharing the location"},
    ]
    return shown[["lat", "lon", "count", "status"]], point_map(
        shown, title, color=color, tooltip=tooltip
    )


#: What an area's respondents risk, in words (the map's legend), and the colour of each.
AREA_STATUS = {
    "respondents at risk": "#d62728",
    "protected by its population": "#ff7f0e",
    "respondents safe": "#1f77b4",
    "no respondents": "#c7c7c7",
}


def area_status(areas: pd.DataFrame) -> np.ndarray:
    """Each area's row of :data:`AREA_STATUS`, from the flags of
    ``core.contextual.LocationalRisk.areas`` (at_risk, pinpointed, protected, respondents)."""
    conditions = [
        areas["at_risk"].to_numpy(dtype=bool),
        areas["respondents"].to_numpy() == 0,
        (areas["pinpointed"] & areas["protected"]).to_numpy(dtype=bool),
    ]
    choices = ["respondents at risk", "no respondents", "protected by its population"]
    return np.select(conditions, choices, default="respondents safe")


def area_risk_map(
    areas: pd.DataFrame,
    title: str,
    *,
    lat: np.ndarray | None = None,
    lon: np.ndarray | None = None,
    shapes: list[dict | None] | None = None,
) -> tuple[pd.DataFrame | None, dict]:
    """Areas coloured by :func:`area_status` over the basemap: their shapes (GeoJSON
    geometries) when given, else a dot at (lat, lon). ``areas`` has columns area, status,
    respondents, population, look_alikes; returns the data and the Vega-Lite spec for
    ``st.vega_lite_chart`` (the data is None when the shapes carry it inline)."""
    color = {
        "field": "status",
        "type": "nominal",
        "title": "Area",
        "scale": {"domain": list(AREA_STATUS), "range": list(AREA_STATUS.values())},
        "legend": {"orient": "top", "labelLimit": 0, "titleLimit": 0},
    }
    tips = [
        ("area", "nominal", "area"),
        ("status", "nominal", "risk"),
        ("respondents", "quantitative", "respondents"),
        ("population", "quantitative", "population"),
        ("look_alikes", "quantitative", "look-alike areas"),
    ]
    if shapes is not None:
        features, xs, ys = [], [], []
        for row, shape in zip(areas.to_dict("records"), shapes, strict=True):
            if shape is None:
                continue
            features.append({"type": "Feature", "geometry": _clockwise(shape), "properties": row})
            polygons = (
                shape["coordinates"] if shape["type"] == "MultiPolygon" else [shape["coordinates"]]
            )
            for ring in (ring for polygon in polygons for ring in polygon):
                points = np.asarray(ring, dtype=float).reshape(-1, 2)
                xs.append(points[:, 0])
                ys.append(points[:, 1])
        prefix = "properties."
        layer = {
            "data": {"values": features},
            "mark": {
                "type": "geoshape",
                "stroke": "white",
                "strokeWidth": 0.5,
                "opacity": 0.85,
                "clip": True,
            },
        }
        lats = np.concatenate(ys) if ys else np.array([])
        lons = np.concatenate(xs) if xs else np.array([])
        data = None
    else:
        prefix = ""
        layer = {
            "mark": {
                "type": "circle",
                "size": 70,
                "opacity": 0.85,
                "stroke": "white",
                "strokeWidth": 0.5,
                "clip": True,
            }
        }
        lats, lons = np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)
        data = areas.assign(lat=lats, lon=lons)
    color["field"] = prefix + "status"
    encoding: dict = {
        "color": color,
        "tooltip": [{"field": prefix + f, "type": t, "title": name} for f, t, name in tips],
    }
    if shapes is None:
        encoding |= {
            "longitude": {"field": "lon", "type": "quantitative"},
            "latitude": {"field": "lat", "type": "quantitative"},
        }
    layer["encoding"] = encoding
    return data, on_basemap(layer, map_projection(lats, lons), title)


def _clockwise(shape: dict) -> dict:
    """``shape`` with outer rings clockwise and holes anticlockwise, as Vega's spherical
    geometry (d3-geo) reads them; GeoJSON (RFC 7946) asks for the opposite, and d3 then
    fills the whole globe except the area."""
    polygons = shape["coordinates"] if shape["type"] == "MultiPolygon" else [shape["coordinates"]]
    turned = []
    for polygon in polygons:
        rings = []
        for position, ring in enumerate(polygon):
            points = np.asarray(ring, dtype=float).reshape(-1, 2)
            x, y = points[:, 0], points[:, 1]
            anticlockwise = float(np.sum(x[:-1] * y[1:] - x[1:] * y[:-1])) > 0  # shoelace
            outer = position == 0
            rings.append(points[::-1].tolist() if anticlockwise == outer else points.tolist())
        turned.append(rings)
    if shape["type"] == "MultiPolygon":
        return {"type": "MultiPolygon", "coordinates": turned}
    return {"type": "Polygon", "coordinates": turned[0]}


def histogram(distances_m: np.ndarray, bins: int = 40) -> tuple[pd.DataFrame, dict]:
    """Distances moved, counted into ``bins`` equal bins here rather than in the browser
    (whose Vega evaluates its binning expressions for each of thousands of points): the
    table (from_m, to_m, points) and the Vega-Lite spec for ``st.vega_lite_chart``."""
    distances = np.asarray(distances_m, dtype=float)
    distances = distances[np.isfinite(distances)]
    counts, edges = np.histogram(distances, bins=bins) if distances.size else ([0], [0.0, 1.0])
    frame = pd.DataFrame({"from_m": edges[:-1], "to_m": edges[1:], "points": counts})
    metres = {"type": "quantitative", "format": ",.0f"}
    spec = {
        "height": 220,
        "mark": {"type": "bar"},
        "encoding": {
            # domains given: Streamlit draws the chart once before its data arrives, and
            # Vega warns about the infinite extent of an empty field otherwise
            "x": {
                "field": "from_m",
                "type": "quantitative",
                "bin": {"binned": True},
                "title": "distance moved (m, haversine)",
                "scale": {"domain": [float(edges[0]), float(edges[-1])]},
            },
            "x2": {"field": "to_m"},
            "y": {
                "field": "points",
                "type": "quantitative",
                "title": "points",
                "scale": {"domain": [0, max(int(np.max(counts)), 1)], "nice": True},
            },
            "tooltip": [
                {"field": "from_m", "title": "from (m)", **metres},
                {"field": "to_m", "title": "to (m)", **metres},
                {"field": "points", "type": "quantitative", "title": "points"},
            ],
        },
    }
    return frame, spec


def timeline(long: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """Original and shifted dates on one shared axis: days from each person's first
    original date (a shift of weeks would vanish on an axis spanning decades of birth
    dates, and one axis per person cannot be compared). One row per person and column;
    ``long`` has columns person, column, version, date, weekday, pair. Returns the data
    and a Vega-Lite spec for ``st.vega_lite_chart`` (a plain spec: Altair's copying and
    validation took most of the page's server time)."""
    first = long[long["version"] == "original"].groupby("person")["date"].min()
    shown = long.assign(
        days=(long["date"] - long["person"].map(first)).dt.days,
        row=long["person"].astype(str) + " · " + long["column"].astype(str),
    )
    rows = list(pd.unique(shown["row"]))
    low, high = (int(shown["days"].min()), int(shown["days"].max())) if len(shown) else (0, 1)
    # domains given: Streamlit draws the chart once before its data arrives
    base = {
        "x": {
            "field": "days",
            "type": "quantitative",
            "title": "days from the person's first original date",
            "scale": {"domain": [low, max(high, low + 1)], "nice": True},
        },
        "y": {
            "field": "row",
            "type": "nominal",
            "title": "person · date column",
            "sort": None,
            "scale": {"domain": rows},
        },
    }
    version = {
        "field": "version",
        "type": "nominal",
        "title": None,
        "scale": {"domain": ["original", "shifted"], "range": ["#1f77b4", "#ff7f0e"]},
    }
    tooltip = [{"field": f, "type": "nominal"} for f in ("person", "column", "version")]
    tooltip += [{"field": "date", "type": "temporal"}, {"field": "weekday", "type": "nominal"}]
    layers = [
        {
            "mark": {"type": "line", "color": "#bbbbbb"},
            "encoding": {**base, "detail": {"field": "pair", "type": "nominal"}},
        },
        {
            "mark": {"type": "point", "filled": True, "size": 80, "opacity": 1},
            "encoding": {**base, "color": version, "tooltip": tooltip},
        },
        {
            "mark": {"type": "text", "dy": -11, "fontSize": 10},
            "encoding": {**base, "text": {"field": "weekday", "type": "nominal"}},
        },
    ]
    # A fixed height (not a step per row): Vega drops "fit-y" with a warning otherwise.
    return shown, {"height": 32 * max(len(rows), 1) + 40, "layer": layers}


def timeline_frame(
    before: pd.DataFrame, after: pd.DataFrame, columns: list[str], person: str | None, people: int
) -> pd.DataFrame:
    """Long table of the first ``people`` persons' dates before and after, for :func:`timeline`."""
    ids = before[person] if person else pd.Series(before.index, index=before.index)
    chosen = pd.unique(ids.dropna())[:people]
    rows = before.index[ids.isin(chosen)]
    frames = []
    for column in columns:
        for version, table in (("original", before), ("shifted", after)):
            dates = pd.to_datetime(table.loc[rows, column], errors="coerce", format="mixed")
            frames.append(
                pd.DataFrame(
                    {
                        "person": ids.loc[rows].astype(str).to_numpy(),
                        "column": column,
                        "version": version,
                        "date": dates.to_numpy(),
                        "pair": [f"{r}-{column}" for r in rows],
                    }
                )
            )
    long = pd.concat(frames, ignore_index=True).dropna(subset=["date"])
    long["weekday"] = long["date"].dt.day_name()
    return long


#: Metres per degree of latitude, and of longitude at the equator (WGS84, mean values):
#: a local flat view of a window a few hundred metres wide is accurate to well under 1%.
M_PER_DEG_LAT = 110_574.0
M_PER_DEG_LON = 111_320.0
SCALE_BARS_M = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000)


def displacement_frame(before: pd.DataFrame, after: pd.DataFrame, sample: int = 30) -> pd.DataFrame:
    """The ``sample`` original points nearest the middle of the data and where each went,
    in metres east and north of that middle (a local flat view, so a move of 20 m shows as
    20 m). Columns: x, y (before), x2, y2 (after), moved_m."""
    both = before.add_suffix("_0").join(after.add_suffix("_1"), how="inner").dropna()
    if both.empty:
        return pd.DataFrame(columns=["x", "y", "x2", "y2", "moved_m"])
    lat0, lon0 = float(both["lat_0"].median()), float(both["lon_0"].median())
    per_lon = M_PER_DEG_LON * math.cos(math.radians(lat0))
    frame = pd.DataFrame(
        {
            "x": (both["lon_0"] - lon0) * per_lon,
            "y": (both["lat_0"] - lat0) * M_PER_DEG_LAT,
            "x2": (both["lon_1"] - lon0) * per_lon,
            "y2": (both["lat_1"] - lat0) * M_PER_DEG_LAT,
        }
    )
    nearest = np.hypot(frame["x"], frame["y"]).nsmallest(sample).index
    frame = frame.loc[nearest]
    return frame.assign(moved_m=np.hypot(frame["x2"] - frame["x"], frame["y2"] - frame["y"]))


def displacement_detail(frame: pd.DataFrame, height: int = 380) -> alt.LayerChart:
    """Before (blue) -> after (orange) segments of :func:`displacement_frame`, axes in
    metres on one scale, with a labelled scale bar: a 20-100 m move is visible here."""
    extent = max(float(frame[["x", "y", "x2", "y2"]].abs().to_numpy().max()), 10.0) * 1.1
    domain = [-extent, extent]
    bar = max((b for b in SCALE_BARS_M if b <= extent * 0.8), default=SCALE_BARS_M[0])
    axis = {"scale": alt.Scale(domain=domain, nice=False)}
    x = alt.X("x:Q", title="metres east of the middle of the sample", **axis)
    y = alt.Y("y:Q", title="metres north", **axis)
    base = alt.Chart(frame)
    moves = base.mark_rule(color="#888888").encode(
        x=x,
        y=y,
        x2="x2:Q",
        y2="y2:Q",
        tooltip=[alt.Tooltip("moved_m:Q", title="moved (m)", format=",.0f")],
    )
    start = base.mark_circle(size=40, color="#1f77b4").encode(x=x, y=y)
    end = base.mark_circle(size=40, color="#ff7f0e").encode(
        x=alt.X("x2:Q", **axis), y=alt.Y("y2:Q", **axis)
    )
    left, bottom = -extent * 0.95, -extent * 0.92
    scale_bar = pd.DataFrame(
        {"x": [left], "x2": [left + bar], "y": [bottom], "label": [f"{bar:,} m"]}
    )
    bar_rule = (
        alt.Chart(scale_bar)
        .mark_rule(color="black", size=3)
        .encode(x=alt.X("x:Q", **axis), x2="x2:Q", y=alt.Y("y:Q", **axis))
    )
    bar_text = (
        alt.Chart(scale_bar)
        .mark_text(align="left", dy=-8)
        .encode(x=alt.X("x:Q", **axis), y=alt.Y("y:Q", **axis), text="label:N")
    )
    return alt.layer(moves, start, end, bar_rule, bar_text).properties(height=height, width=height)
