"""Coordinates: rounding, grid snapping, random displacement in metres, and spatial k.

GPS locations are indirect identifiers (PDPC guide, Step 1 and Annex B). Annex B rounds
decimal degrees "to the nearest two decimal places (equivalent to accuracy of 1.11 km) or
three decimal place (equivalent to accuracy of 111 m)", e.g. 1.27434, 103.79967 -> 1.274,
103.800. NIST SP 800-188 (Sec. 4.3.5) adds that "identity may be shielded in an urban
environment by adding +/-100 m, whereas a rural environment may require +/-5 km or more",
and that some locations (a house in which a single person lives) are highly identifying.

Distances are on a sphere of radius :data:`EARTH_RADIUS_M` (the IUGG mean radius): the
error against the WGS84 ellipsoid is under 0.5 %, far below any displacement used here.
Displacement uses the exact spherical destination formula, so the haversine distance
between a point and its displaced copy equals the drawn distance at any latitude (metres
per degree of longitude shrink with cos(latitude); no flat-earth approximation).

Everything is vectorised with NumPy; randomness comes from :func:`core.validation.make_rng`.
Missing coordinates stay missing.

Modules: :mod:`core.geo.sphere` (distances, checked coordinates, grid cells),
:mod:`core.geo.transforms` (rounding, snapping, displacement), :mod:`core.geo.displacement`
(how far points moved), :mod:`core.geo.areas` (coordinate and shape columns),
:mod:`core.geo.spatial_k` and :mod:`core.geo.radius` (neighbours within a radius). This
package re-exports their public names, so ``from core.geo import spatial_k`` works.
"""

from core.geo.areas import (
    LATITUDE_NAMES,
    LONGITUDE_NAMES,
    SHAPE_NAMES,
    area_shapes,
    coordinate_columns,
    shape_column,
)
from core.geo.displacement import PERCENTILES, DisplacementReport, displacement_report
from core.geo.spatial_k import SPATIAL_METHODS, SpatialK, spatial_k
from core.geo.sphere import EARTH_RADIUS_M, METRES_PER_DEGREE, destination, haversine_m
from core.geo.transforms import (
    NIST_RADII_M,
    describe_rounding,
    displace_points,
    round_coordinates,
    rounding_accuracy_m,
    snap_to_grid,
)

__all__ = [
    "EARTH_RADIUS_M",
    "LATITUDE_NAMES",
    "LONGITUDE_NAMES",
    "METRES_PER_DEGREE",
    "NIST_RADII_M",
    "PERCENTILES",
    "SHAPE_NAMES",
    "SPATIAL_METHODS",
    "DisplacementReport",
    "SpatialK",
    "area_shapes",
    "coordinate_columns",
    "describe_rounding",
    "destination",
    "displace_points",
    "displacement_report",
    "haversine_m",
    "round_coordinates",
    "rounding_accuracy_m",
    "shape_column",
    "snap_to_grid",
    "spatial_k",
]
