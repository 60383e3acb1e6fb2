"""Charts for the Locations and dates page: pydeck maps and Altair fallbacks.

Nothing is fetched from the internet by default. Streamlit's pydeck component adds a
Carto basemap (basemaps.cartocdn.com) whenever a deck has no map style, so the
``map_style=None`` of the Streamlit docs is *not* offline; pydeck's own way to say "no
basemap" is ``map_provider=None`` (the style then stays pydeck's sentinel, which the
component drops). Users with tile access set ``ANON_MAP_STYLE`` (e.g. ``light``,
``dark``, ``road`` or a style URL; ``mapbox://...`` styles use Mapbox and its token).
Without it the maps draw an offline basemap: Natural Earth's coastline and national
boundaries around Singapore, stored in ui/basemap/ (see its README for provenance).
"""

from __future__ import annotations

import functools
import json
import math
import os
from pathlib import Path

import altair as alt
import numpy as np
import pandas as pd
import pydeck as pdk

MAP_STYLE_ENV = "ANON_MAP_STYLE"
BASEMAP = Path(__file__).resolve().parent / "basemap" / "singapore_region.geojson"
MAX_POINTS = 5000
BLUE = [31, 119, 180, 170]
ORANGE = [255, 127, 14, 170]
RED = [214, 39, 40, 220]
GREY = [120, 120, 120, 120]


def map_points(df: pd.DataFrame, lat: str, lon: str, limit: int = MAX_POINTS) -> pd.DataFrame:
    """The first ``limit`` points with coordinates, as plain lat/lon columns."""
    points = pd.DataFrame({"lat": df[lat].to_numpy(dtype=float), "lon": df[lon].to_numpy(dtype=float)},
                          index=df.index)  # fmt: skip
    return points.dropna().head(limit)


def _zoom(points: pd.DataFrame) -> float:
    if points.empty:
        return 1.0
    span = max(float(points["lon"].max() - points["lon"].min()),
               float(points["lat"].max() - points["lat"].min()), 1e-4)  # fmt: skip
    return float(np.clip(math.log2(360.0 / span) - 0.8, 1, 16))


def deck(points: pd.DataFrame, *, color: list[int] | str = BLUE, radius_m: float = 40) -> pdk.Deck:
    """A pydeck scatter map of ``points`` (lat, lon[, color]); no basemap unless configured."""
    view = pdk.ViewState(
        latitude=float(points["lat"].mean()) if len(points) else 0.0,
        longitude=float(points["lon"].mean()) if len(points) else 0.0,
        zoom=_zoom(points),
    )
    layer = pdk.Layer(
        "ScatterplotLayer",
        data=points,
        get_position="[lon, lat]",
        get_fill_color=color if isinstance(color, list) else color,
        get_radius=radius_m,
        radius_min_pixels=1.5,
    )
    style = os.environ.get(MAP_STYLE_ENV, "").strip()
    if style:
        provider = "mapbox" if style.startswith("mapbox://") else "carto"
        return pdk.Deck(layers=[layer], initial_view_state=view, map_provider=provider,
                        map_style=style)  # fmt: skip
    land = pdk.Layer(
        "GeoJsonLayer",
        data=offline_basemap(),
        stroked=True,
        filled=True,
        get_fill_color=[236, 236, 230, 255],
        get_line_color=[150, 150, 150, 255],
        line_width_min_pixels=1,
    )
    return pdk.Deck(layers=[land, layer], initial_view_state=view, map_provider=None)


@functools.cache
def offline_basemap() -> dict:
    """The coastline and national boundaries around Singapore (Natural Earth 1:10m, public
    domain, vendored in ui/basemap/): drawn under the points, nothing fetched."""
    return json.loads(BASEMAP.read_text(encoding="utf-8"))


def basemap_note() -> str:
    style = os.environ.get(MAP_STYLE_ENV, "").strip()
    if style:
        return f"Basemap '{style}' from {MAP_STYLE_ENV} (fetched from its tile server)."
    return (f"Grey land: the coastline and national boundaries around Singapore (Natural "
            f"Earth, stored with the tool, nothing is fetched). Set {MAP_STYLE_ENV} (e.g. "
            "'light') to draw streets if you have tile access.")  # fmt: skip


def _domain(*frames: pd.DataFrame) -> tuple[list[float], list[float]]:
    both = pd.concat(frames)
    pad_lat = max(float(both["lat"].max() - both["lat"].min()) * 0.03, 1e-4)
    pad_lon = max(float(both["lon"].max() - both["lon"].min()) * 0.03, 1e-4)
    return (
        [float(both["lat"].min()) - pad_lat, float(both["lat"].max()) + pad_lat],
        [float(both["lon"].min()) - pad_lon, float(both["lon"].max()) + pad_lon],
    )


def scatter(
    points: pd.DataFrame,
    title: str,
    *,
    domain: tuple[list[float], list[float]] | None = None,
    color: str | alt.Color = "#1f77b4",
) -> alt.Chart:
    """Altair scatter of lat/lon (SVG; renders without WebGL or tiles)."""
    lat_domain, lon_domain = domain or _domain(points)
    base = alt.Chart(points, title=title).mark_circle(size=9, opacity=0.6)
    encoded = base.encode(
        x=alt.X("lon:Q", title="longitude", scale=alt.Scale(domain=lon_domain)),
        y=alt.Y("lat:Q", title="latitude", scale=alt.Scale(domain=lat_domain)),
    )
    if isinstance(color, str):
        return encoded.encode(color=alt.value(color)).properties(height=360)
    return encoded.encode(color=color).properties(height=360)


def spatial_k_chart(points: pd.DataFrame, k: int) -> alt.Chart:
    """Points coloured by whether their location is shared by fewer than k records."""
    shown = points.assign(status=np.where(points["count"] < k, f"fewer than {k}", f"{k} or more"))
    color = alt.Color(
        "status:N",
        title="records sharing the location",
        scale=alt.Scale(domain=[f"fewer than {k}", f"{k} or more"], range=["#d62728", "#9e9e9e"]),
    )
    return scatter(shown, "Spatial k", color=color).encode(tooltip=["lat", "lon", "count"])


def histogram(distances_m: np.ndarray) -> alt.Chart:
    frame = pd.DataFrame({"metres": distances_m})
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("metres:Q", bin=alt.Bin(maxbins=40), title="distance moved (m, haversine)"),
            y=alt.Y("count():Q", title="points"),
        )
        .properties(height=220)
    )


def timeline(long: pd.DataFrame) -> alt.LayerChart:
    """Original and shifted dates on one shared axis: days from each person's first
    original date (a shift of weeks would vanish on an axis spanning decades of birth
    dates, and one axis per person cannot be compared). One row per person and column;
    ``long`` has columns person, column, version, date, weekday, pair."""
    first = long[long["version"] == "original"].groupby("person")["date"].min()
    shown = long.assign(
        days=(long["date"] - long["person"].map(first)).dt.days,
        row=long["person"].astype(str) + " · " + long["column"].astype(str),
    )
    base = alt.Chart(shown).encode(
        x=alt.X("days:Q", title="days from the person's first original date"),
        y=alt.Y("row:N", title="person · date column", sort=None),
    )
    lines = base.mark_line(color="#bbbbbb").encode(detail="pair:N")
    dots = base.mark_point(filled=True, size=80).encode(
        color=alt.Color(
            "version:N",
            title=None,
            scale=alt.Scale(domain=["original", "shifted"], range=["#1f77b4", "#ff7f0e"]),
        ),  # fmt: skip
        tooltip=["person", "column", "version", alt.Tooltip("date:T"), "weekday"],
    )
    labels = base.mark_text(dy=-11, fontSize=10).encode(text="weekday:N")
    # A fixed height (not a step per row): Vega drops "fit-y" with a warning otherwise.
    rows = max(int(shown["row"].nunique()), 1)
    return alt.layer(lines, dots, labels).properties(height=32 * rows + 40)


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
            frames.append(pd.DataFrame({
                "person": ids.loc[rows].astype(str).to_numpy(),
                "column": column,
                "version": version,
                "date": dates.to_numpy(),
                "pair": [f"{r}-{column}" for r in rows],
            }))  # fmt: skip
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
        {"x": (both["lon_0"] - lon0) * per_lon, "y": (both["lat_0"] - lat0) * M_PER_DEG_LAT,
         "x2": (both["lon_1"] - lon0) * per_lon, "y2": (both["lat_1"] - lat0) * M_PER_DEG_LAT}
    )  # fmt: skip
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
        x=x, y=y, x2="x2:Q", y2="y2:Q",
        tooltip=[alt.Tooltip("moved_m:Q", title="moved (m)", format=",.0f")],
    )  # fmt: skip
    start = base.mark_circle(size=40, color="#1f77b4").encode(x=x, y=y)
    end = base.mark_circle(size=40, color="#ff7f0e").encode(
        x=alt.X("x2:Q", **axis), y=alt.Y("y2:Q", **axis)
    )
    left, bottom = -extent * 0.95, -extent * 0.92
    scale_bar = pd.DataFrame({"x": [left], "x2": [left + bar], "y": [bottom],
                              "label": [f"{bar:,} m"]})  # fmt: skip
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
