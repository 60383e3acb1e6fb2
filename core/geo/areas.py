"""Where a table's locations are: its latitude and longitude columns and its column of
area shapes, found by name, and the shapes read as GeoJSON Polygons or MultiPolygons.
"""

from __future__ import annotations

import json
import math

import pandas as pd

from core.errors import ParameterError
from core.validation import (
    require_columns,
)

#: Column names read as coordinates or area shapes (compared in lower case).
LATITUDE_NAMES = ("latitude", "lat")
LONGITUDE_NAMES = ("longitude", "lon", "lng", "long")
SHAPE_NAMES = ("geometry", "geojson", "shape", "polygon", "boundary")
_SHAPE_TYPES = ("Polygon", "MultiPolygon")


def coordinate_columns(df: pd.DataFrame) -> tuple[str, str] | None:
    """The (latitude, longitude) columns of a table, found by name (e.g. ``lat``/``lon``,
    ``latitude``/``longitude``) among numeric columns; None when there is no such pair."""
    numeric = {
        str(c).strip().lower(): c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])
    }
    lat = next((numeric[n] for n in LATITUDE_NAMES if n in numeric), None)
    lon = next((numeric[n] for n in LONGITUDE_NAMES if n in numeric), None)
    return None if lat is None or lon is None else (str(lat), str(lon))


def shape_column(df: pd.DataFrame) -> str | None:
    """The column holding area shapes (GeoJSON geometry text), found by name, or None."""
    names = {str(c).strip().lower(): str(c) for c in df.columns}
    return next((names[n] for n in SHAPE_NAMES if n in names), None)


def area_shapes(df: pd.DataFrame, column: str) -> list[dict | None]:
    """The GeoJSON Polygon or MultiPolygon of each row of ``column`` (None where empty).

    Coordinates are longitude, latitude in decimal degrees, as GeoJSON (RFC 7946) orders
    them. A value that is not such a geometry raises a :class:`ParameterError` naming the
    row and what to do.
    """
    require_columns(df, column, parameter="shape column")
    shapes: list[dict | None] = []
    for row, value in enumerate(df[column].tolist()):
        if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
            shapes.append(None)
            continue
        try:
            shape = json.loads(value) if isinstance(value, str) else value
        except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested deep
            shape = None
        if isinstance(shape, dict) and shape.get("type") == "Feature":
            shape = shape.get("geometry")
        if not (
            isinstance(shape, dict)
            and shape.get("type") in _SHAPE_TYPES
            and isinstance(shape.get("coordinates"), list)
        ):
            raise ParameterError(
                f"Column '{column}', row {row + 1}: not a GeoJSON Polygon or MultiPolygon "
                f"({str(value)[:40]!r}...). Give each area's shape as GeoJSON geometry text, "
                'e.g. {"type": "Polygon", "coordinates": [[[103.8, 1.3], ...]]} (longitude '
                "first), or leave the cell empty."
            )
        shapes.append(shape)
    return shapes
