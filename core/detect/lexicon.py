"""The name and word lists of :mod:`core.detect.names`, read once from ``data/``.

``data/names.txt`` is written by hand for this project; ``data/name_lists.txt.gz`` is
derived by ``scripts/build_name_lists.py`` from the US Census Bureau's name lists, the
Tzioumis (2018) first names and Debian's SCOWL English words; ``data/given_names_world.txt.gz``
by ``scripts/build_world_given_names.py`` from the ``nomquamgender`` given names of many
countries (sources, versions and licences in ``data/SOURCES.md``). Nothing is downloaded.
"""

from __future__ import annotations

import copy
import gzip
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

__all__ = ["NameLists", "base_name_lists", "lookup_words", "name_lists"]


def lookup_words(words: Iterable[str]) -> dict[str, None]:
    """A long word list kept for "is it in?" (``word in words``; ``.keys()`` for set
    operations). A dict whose keys are text and values None is never tracked by Python's
    cyclic garbage collector, while a frozenset is walked word by word at every full
    collection: with the detectors' lists loaded as frozensets (1.7 million words) one full
    collection took 0.14 s, and one redaction of a set of notes in five paid for it."""
    return dict.fromkeys(words)


@dataclass(frozen=True, eq=False)  # hashed by identity: its lookups are dicts
class NameLists:
    """The name and word lists, lower-case: the hand-written ``data/names.txt`` merged
    with the vendored ``data/name_lists.txt.gz`` (census and first-name lists, English
    words; see ``data/SOURCES.md``). The long ones, as :func:`name_lists` keeps them, are
    :func:`lookup_words`: ask ``in``, or use ``.keys()`` for set operations."""

    given: Collection[str]
    family: Collection[str]
    particles: frozenset[str]
    ambiguous: frozenset[str]
    not_name: frozenset[str]
    english: Collection[str] = frozenset()  # lower-case English words (names or not)
    # Names of the hand-written list, everyday words included ("May", "Tan"): two of them
    # together are a name ("May Tan"), two vendored everyday words are not ("Silver Plan").
    listed: frozenset[str] = frozenset()
    # Given names of many countries (data/given_names_world.txt.gz), also in ``given``:
    # sure with a capital; in lower case, where other languages' everyday words are
    # written too ("kini", "sila"), they do not count as sure (``strong_lower``).
    world: Collection[str] = frozenset()
    # Function words of Malay, Indonesian, Filipino, Spanish, French, German, Portuguese,
    # Italian and Dutch (data/function_words.txt.gz): in lower case no sure name ("dia",
    # "akan" are census surnames too).
    function_words: frozenset[str] = frozenset()
    known: Collection[str] = frozenset()  # given | family, computed once
    strong: Collection[str] = frozenset()  # known names that are no everyday word
    strong_lower: Collection[str] = frozenset()  # strong, less world names and function words

    def __post_init__(self) -> None:
        object.__setattr__(self, "known", self.given | self.family)
        object.__setattr__(self, "strong", self.known - self.ambiguous)
        base = (self.given - self.world) | self.family
        # The stopword lists hold names too ("ahmad", "tan", "wong"): the hand-written
        # list's names stay names.
        function_words = self.function_words - self.listed
        object.__setattr__(self, "strong_lower", base - self.ambiguous - function_words)


def _sections(text: str) -> dict[str, set[str]]:
    sections: dict[str, set[str]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            current = line.strip("[]").split()[0]
            sections.setdefault(current, set())
            continue
        if current is not None:
            sections[current].update(word.lower() for word in line.split())
    return sections


def _word_sections(data: bytes) -> dict[str, set[str]]:
    """The vendored file: ``[section]`` lines, then one lower-case word a line (read in a
    few C-level splits: 240,000 words in a tenth of a second)."""
    text = data.decode("utf-8")
    parts = re.split(r"^\[([a-z_]+)\]$", text, flags=re.MULTILINE)
    return {name: set(body.split()) for name, body in zip(parts[1::2], parts[2::2], strict=True)}


#: The lists :func:`name_lists` keeps as :func:`lookup_words` (the long ones).
_LOOKUP_FIELDS = ("given", "family", "english", "world", "known", "strong", "strong_lower")


@cache
def name_lists() -> NameLists:
    """:func:`base_name_lists` with the given names of many countries of
    ``data/given_names_world.txt.gz`` (``scripts/build_world_given_names.py``, from the
    MIT-licensed ``nomquamgender`` data: names no other list has and no English word)."""
    base = base_name_lists()
    world = _word_file("given_names_world.txt.gz")
    lists = replace(
        base,
        given=base.given | world,
        world=frozenset(world - base.known),
        function_words=frozenset(_word_file("function_words.txt.gz")),
    )
    kept = copy.copy(lists)  # its long lists as lookups (no __post_init__ on dicts)
    for field in _LOOKUP_FIELDS:
        object.__setattr__(kept, field, lookup_words(getattr(lists, field)))
    return kept


def _word_file(name: str) -> set[str]:
    """The words of a vendored file: a comment line, then one word a line."""
    data = resources.files("core.detect").joinpath("data", name)
    return set(gzip.decompress(data.read_bytes()).decode("utf-8").split("\n")[1:]) - {""}


def base_name_lists() -> NameLists:
    """Read the lists (shipped with the package; nothing is downloaded); :func:`name_lists`
    reads them once and keeps what it needs, so they are not kept twice.

    A name of the vendored lists that is also an everyday English word is ambiguous
    (alone it is not a name) unless the hand-written list knows it as a name and not as
    ambiguous ("Lee" is a name, "Young" ambiguous); words the hand-written list says never
    belong to a name never do.
    """
    data = resources.files("core.detect").joinpath("data")
    hand = _sections(data.joinpath("names.txt").read_text("utf-8"))
    vendored = _word_sections(gzip.decompress(data.joinpath("name_lists.txt.gz").read_bytes()))
    hand_known = hand.get("given", set()) | hand.get("family", set())
    hand_sure = hand_known - hand.get("ambiguous", set())
    ambiguous = hand.get("ambiguous", set()) | (vendored.get("ambiguous", set()) - hand_sure)
    return NameLists(
        given=frozenset(hand.get("given", set()) | vendored.get("given", set())),
        family=frozenset(
            hand.get("family", set())
            | vendored.get("family", set())
            | vendored.get("ambiguous", set())
        ),
        particles=frozenset(hand.get("particle", ())),
        ambiguous=frozenset(ambiguous),
        not_name=frozenset(hand.get("not_name", ())),
        english=frozenset(vendored.get("english", set()) | ambiguous),
        listed=frozenset(hand_known),
    )
