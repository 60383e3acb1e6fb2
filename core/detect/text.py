"""The free-text scanner: entities inside text cells, counted per kind, and redacted.

One entry point, :func:`find_entities`, runs every detector on one text: the regular
patterns of :mod:`core.detect.patterns` (emails, URLs, NRIC/FIN, SSN, NINO, record codes,
IP and MAC addresses, plates, dates and any registered pattern), phone numbers
(:mod:`core.detect.phones`), street addresses (:mod:`core.detect.addresses`) and person
names (:mod:`core.detect.names`). Where two findings overlap, the longer one wins (an
address holds a postal code and a street name), then the earlier kind in
:func:`entity_kinds`.

Columns are scanned once per *distinct* value (free-text columns repeat little, but
category-like columns repeat a lot), and a column's texts are read together
(:func:`_find_many`): pyarrow keeps, for each expression, the texts a looser RE2 form of it
can match; those texts are joined and the expression runs once over them; spans are put
back in their texts by their offsets (numpy). Only what needs a text's own context (the
phone-number checks of libphonenumber, the words around a name, the overlap rule) runs
text by text, and only for texts with a candidate. The result equals the scan of each text
alone (:func:`find_entities`), which the tests check on seeded notes.
"""

from __future__ import annotations

import bisect
import gc
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from core._text import as_text
from core.detect.addresses import ADDRESS, address_span, find_addresses
from core.detect.ascii_form import NOT_PLAIN, ascii_form
from core.detect.first_chars import gated
from core.detect.name_context import OTHER_NAME_HINT
from core.detect.names import (
    CUED_NAME,
    LOWER_RUN,
    NAME_RUN,
    cued_span,
    find_names,
    may_hold_lower_name,
    name_lists,
    names_from_matches,
)
from core.detect.national_ids import NATIONAL_ID_SHAPES
from core.detect.old_ages import OLD_AGE_LOOSER, ages_after_names
from core.detect.patterns import BUILTIN_KINDS, PATTERNS, RECORD_PREFIX
from core.detect.phones import DEFAULT_REGION, DIGIT_RUN, find_phones, phones_in_runs
from core.detect.world_ids import WORLD_ID_LOOSER, WORLD_ID_SHAPES
from core.errors import ParameterError

__all__ = [
    "LONG_CELL",
    "MAX_SCANNED",
    "UNSCANNED",
    "Entity",
    "entity_kinds",
    "find_entities",
    "label_of",
    "redact_and_count",
    "redact_series",
    "resolve_kinds",
    "scan_table",
    "scan_values",
]

#: Cells longer than this (characters) are reported as long by :func:`scan_table`.
LONG_CELL = 100_000
#: A cell is scanned up to this many characters (cut at the last space before); when it
#: is redacted, what lies beyond is removed whole and replaced by :data:`UNSCANNED`, so no
#: personal data is left in an unscanned tail (issue 27: a single huge cell must not hold
#: a run for minutes; the scan is linear, about 1 s per 100,000 characters at worst).
MAX_SCANNED = 200_000
UNSCANNED = "[NOT SCANNED: {n} characters removed]"
# Priority of the kinds that are not regular patterns, relative to the patterns.
_BEFORE_PHONE = (
    "email",
    "url",
    "nric",
    "ssn",
    "nino",
    *NATIONAL_ID_SHAPES,
    *WORLD_ID_SHAPES,
    "record_code",
    "mac",
    "ipv4",
    "ipv6",
)
_LABELS_OTHER = {"name": "NAME", "phone": "PHONE", "address": "ADDRESS"}
_NOT_PATTERNS = ("phone", "address", "name")
_MAYBE_ENTITY = re.compile(r"[0-9@A-Z]|www\.|https?:", re.IGNORECASE)


def entity_kinds() -> tuple[str, ...]:
    """Every kind the scanner looks for, in priority order: registered patterns first (they
    are the most specific), then the built-in kinds."""
    in_text = [k for k, p in PATTERNS.items() if p.in_text and p.identifying]
    registered = [k for k in in_text if k not in BUILTIN_KINDS]
    first = [k for k in in_text if k in _BEFORE_PHONE]
    rest = [k for k in in_text if k in BUILTIN_KINDS and k not in _BEFORE_PHONE]
    return (*registered, *first, "phone", "address", *rest, "name")


def label_of(kind: str) -> str:
    """The redaction label of a kind: NAME, EMAIL, PHONE, ID, ADDRESS, DATE, IP..."""
    return _LABELS_OTHER.get(kind) or PATTERNS[kind].label


def resolve_kinds(kinds: Iterable[str] | str | None) -> tuple[str, ...]:
    """Check a list of kinds; a label in lower case (``id``, ``ip``) stands for its kinds.

    ``None`` means every kind. Raises :class:`ParameterError` naming an unknown kind.
    """
    known = entity_kinds()
    if kinds is None:
        return known
    if isinstance(kinds, str):
        kinds = [kinds]
    chosen: list[str] = []
    for kind in kinds:
        if not isinstance(kind, str):
            raise ParameterError(f"Parameter 'kinds' must hold names of kinds, got {kind!r}.")
        group = [k for k in known if kind == k or kind.upper() == label_of(k)]
        if not group:
            labels = sorted({label_of(k).lower() for k in known})
            raise ParameterError(
                f"Parameter 'kinds': unknown kind {kind!r}. Known kinds: {', '.join(known)}; "
                f"or a label: {', '.join(labels)}."
            )
        chosen += [k for k in group if k not in chosen]
    return tuple(k for k in known if k in chosen)


@dataclass(frozen=True)
class Entity:
    """One finding inside a text: ``text[start:end]`` is a ``kind``."""

    kind: str
    start: int
    end: int
    text: str

    @property
    def label(self) -> str:
        return label_of(self.kind)


def _candidates(text: str, kinds: tuple[str, ...], region: str) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    # Patterns first: digit runs they explain (dates, IDs, IPs) are not parsed as phones.
    ordered = sorted(kinds, key=lambda k: k in _NOT_PATTERNS)
    for kind in ordered:
        if kind == "phone":
            skip = [(s, e) for s, e, k in found if k in PATTERNS]
            found += [(s, e, kind) for s, e in find_phones(text, region, skip=skip)]
        elif kind == "address":
            found += [(s, e, kind) for s, e in find_addresses(text)]
        elif kind == "name":
            found += [(s, e, kind) for s, e in find_names(text)]
        else:
            found += [(s, e, kind) for s, e in PATTERNS[kind].spans(text)]
    return found


def find_entities(
    text: str, *, kinds: Iterable[str] | str | None = None, region: str = DEFAULT_REGION
) -> list[Entity]:
    """The entities inside ``text``, in order, without overlaps (see the module doc).

    ``kinds`` limits the search (default: all of :func:`entity_kinds`); ``region`` is the
    country whose national phone format is read without a country code (Singapore).
    """
    return _find(text, resolve_kinds(kinds), region)


def _find(text: str, chosen: tuple[str, ...], region: str) -> list[Entity]:
    if not isinstance(text, str) or not _MAYBE_ENTITY.search(text):
        return []
    priority = {k: i for i, k in enumerate(chosen)}
    return _resolve(text, _candidates(text, chosen, region), priority)


def _resolve(
    text: str, candidates: list[tuple[int, int, str]], priority: dict[str, int]
) -> list[Entity]:
    """Overlapping findings: an identifier, phone, address or date always wins over a name
    (the name is cut around it, so "Anita Miller F9583525L" is a name and an NRIC, never a
    longer "name" that swallows the NRIC); among the others, and among names, the longer
    wins, then the kind earlier in ``priority``."""
    ordered = sorted(candidates)
    # The usual case: no two findings overlap, nothing to decide.
    if all(a[1] <= b[0] for a, b in zip(ordered, ordered[1:], strict=False)):
        spans = ordered
    else:
        others = [c for c in candidates if c[2] != "name"]
        names = [c for c in candidates if c[2] == "name"]
        taken = _Taken()
        for start, end, kind in sorted(
            others, key=lambda c: (-(c[1] - c[0]), priority[c[2]], c[0])
        ):
            taken.add(start, end, kind)
        pieces = [p for start, end, _ in names for p in _name_outside(text, start, end, taken)]
        for start, end in sorted(pieces, key=lambda c: (-(c[1] - c[0]), c[0])):
            taken.add(start, end, "name")
        spans = taken.spans
    # "Mrs Wong, 96," - the name says the number is an age; "aged 90 or 91" - so does the
    # age before it
    if "age_over_89" in priority:
        ages = ages_after_names(
            text,
            [(s, e) for s, e, kind in spans if kind == "name"],
            [(s, e) for s, e, kind in spans if kind == "age_over_89"],
        )
        if ages:  # an age is added only where nothing was found ("92, 12/11" stays whole)
            free = [(s, e) for s, e in set(ages) if not any(a < e and s < b for a, b, _ in spans)]
            spans = sorted(spans + [(s, e, "age_over_89") for s, e in free])
    return [Entity(kind, s, e, text[s:e]) for s, e, kind in spans]


class _Taken:
    """Spans that do not overlap, kept sorted: adding one costs a binary search, so a long
    text with thousands of findings is resolved in n log n, not n squared (issue 27)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.spans: list[tuple[int, int, str]] = []

    def overlapping(self, start: int, end: int) -> list[tuple[int, int, str]]:
        i = bisect.bisect_left(self.starts, start)
        if i and self.spans[i - 1][1] > start:
            i -= 1
        out = []
        while i < len(self.spans) and self.spans[i][0] < end:
            out.append(self.spans[i])
            i += 1
        return out

    def add(self, start: int, end: int, kind: str) -> None:
        if self.overlapping(start, end):
            return
        i = bisect.bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.spans.insert(i, (start, end, kind))


_NAME_EDGE = " \t\n,;:.()[]/'\"-"
_TWO_LETTERS = re.compile(r"[^\W\d_]{2}")


def _name_outside(text: str, start: int, end: int, taken: _Taken) -> list[tuple[int, int]]:
    """The parts of a name span outside the spans already taken, trimmed of spaces and
    punctuation; a part without two letters in a row (a lone initial) is dropped."""
    inside = taken.overlapping(start, end)
    if not inside:
        return [(start, end)]
    parts, position = [], start
    for s, e, _ in inside:
        parts.append((position, max(position, s)))
        position = max(position, e)
    parts.append((position, end))
    out = []
    for a, b in parts:
        while a < b and text[a] in _NAME_EDGE:
            a += 1
        while b > a and text[b - 1] in _NAME_EDGE and text[b - 1] != ".":
            b -= 1
        if b > a and _TWO_LETTERS.search(text, a, b):
            out.append((a, b))
    return out


# ---------------------------------------------------------------------------------------
# Many texts at once
# ---------------------------------------------------------------------------------------
# Texts are joined by this character and each expression runs once over the joined text
# (one C-level scan per kind instead of one per kind and text). It is no character the
# built-in expressions can start a match with, and their look-arounds read it as they read
# the start or end of a text (a single-character class without white space); a match that
# runs over it anyway is detected by its offsets and its texts are scanned one by one.
_JOIN = "\n"


# For each expression run over many texts, a looser one that every text it can match also
# matches (no look-arounds, fewer conditions), in RE2 syntax: pyarrow checks it over the
# whole column at C speed and only the texts it keeps are searched by Python's engine.
# Texts with any non-ASCII character are always kept (Unicode case folding and word
# characters differ between the two engines).
_LOOSER = {
    "email": "@",
    "url": r"(?i)https?://|www\.|[a-z0-9]\.[a-z]{2,4}/|\.(?:wordpress|blogspot|tumblr|substack|wixsite|weebly|medium)\.com|\.github\.io",
    "ipv4": r"[0-9]\.[0-9]+\.[0-9]+\.[0-9]",
    # every IPv6 form holds "::" or a group between two colons; a time ("10:30") neither
    "ipv6": r"::|[0-9A-Fa-f]:[0-9A-Fa-f]{1,4}:",
    # six pairs, one separator: three pairs in a row with it ("12-05" alone is a date)
    "mac": r"[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}|[0-9A-Fa-f]{2}-[0-9A-Fa-f]{2}-[0-9A-Fa-f]{2}",
    "nric": r"[STFGMstfgm][ .-]?[0-9]{7}[ .-]?[A-Za-z]",
    "ssn": r"[0-9]{3}[-. ][0-9]{2}[-. ][0-9]{4}",
    "nino": r"[A-Za-z]{2}[ -]?[0-9]{2}[ -]?[0-9]{2}[ -]?[0-9]{2}[ -]?[A-Da-d]",
    "mykad": "[0-9]{6}-[0-9]{2}-[0-9]{4}",
    "nik": "[1-9][0-9]{3}[ -]?[0-9]{4}[ -]?[0-9]{4}[ -]?[0-9]{4}",
    "aadhaar": "[2-9][0-9]{3}[ -]?[0-9]{4}[ -]?[0-9]{4}",
    "nhs": r"[1-9][0-9]{2} [0-9]{3} [0-9]{4}|[467][0-9]{9}|(?i:NHS)",
    "psn": "[0-9]{4}[ -][0-9]{4}[ -][0-9]{4}",
    "tfn": "[0-9]{3} [0-9]{3} [0-9]{3}",
    "medicare": "[2-6][0-9]{3} [0-9]{5} [0-9]",
    "hkid": r"[A-Z]{1,2} ?[0-9]{6} ?\(?[0-9A]",
    "ird": "[0-9]{2,3}-[0-9]{3}-[0-9]{3}",
    "dni": r"[0-9]{8}-?[A-Z]|[XYZ]-?[0-9]{7}",
    "nir": r"[123478] ?[0-9]{2} ?[0-9]{2} ?[0-9AB]{2} ?[0-9]{3}",
    **WORLD_ID_LOOSER,
    # a record word starting a word, as the expression's look-behind wants ("said" and
    # "paid" hold "id"); the record word alone, as what may stand between it and the number
    # grows with the rules ("is", "=", "for WFF query:", a chat's next turn "? | customer:")
    "record_code": rf"(?i)\b(?:{RECORD_PREFIX})",
    "vehicle_plate": r"[A-Z]{1,3}[0-9]{1,4}[A-Z]",
    "date": "[0-9]",
    "age_over_89": OLD_AGE_LOOSER,
    "phone": r"[0-9](?:[ ().-]{0,2}[0-9]){6}",
    # every alternative holds a digit but these
    "address": r"[0-9]|Jalan|Jln|Jl\.|Gg\.|Lorong|Lor|Dusun|Desa|Kampung|Kel\.|Kelurahan|"
    r"Kec\.|Kecamatan|Kab\.|Kabupaten|Kota|Mohalla|(?i:village|tehsil|taluk|mandal)|Street|Road|Avenue|"
    r"Lane|Drive|Crescent|Boulevard|Terrace|Close|Grove|Highway|"
    # a dwelling named with its letter ("Flat C, ", core.detect.addresses._BUILDING)
    r"Building|Bldg|Wing|House|Villa|Lot|Plot|Flat|Apt|H/No|"
    # a place in an Irish county or a Jamaican parish (core.detect.addresses._PLACE_IN_COUNTY)
    r",[ \t]+(?:Co|St)|Portland|Trelawny|Hanover|Westmoreland|Manchester|Clarendon",
    "name": "[A-Z]",
}
# Below this many characters in all, a column's texts are all read by an expression
# rather than filtered first: RE2 compiles each looser form on every call (about 10 us,
# and 0.3-0.4 ms for the long list of record words), while Python's engine reads some 60
# characters a microsecond. The cue words of names (CUED_NAME) have no looser form: a
# filter on them kept most notes (126 of eval7's 147, 1,061 of the 1,500 independent
# ones) and cost more than it spared (eval7 3.6 ms against 2.3 ms reading all).
_FILTER_FROM = {None: 1_000, _LOOSER["record_code"]: 20_000}
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Joined:
    """Texts joined by :data:`_JOIN`, with the offset of each; spans found in the joined
    text are reported as ``(index, start, end)`` with ``index`` into ``positions`` (the
    texts' places in the caller's list)."""

    def __init__(
        self,
        texts: list[str],
        positions: np.ndarray,
        crossed: set[int],
        plain: np.ndarray,
        lengths: np.ndarray | None = None,
    ) -> None:
        self.texts = texts
        self.positions = positions
        self.plain = plain  # for each text, whether it is plain (core.detect.ascii_form)
        self.parts: tuple[_Joined, _Joined] | None = None
        if lengths is None:
            lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        self.starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int64)
        self.ends = self.starts + lengths
        self.joined = _JOIN.join(texts)
        self.crossed = crossed  # texts a match ran out of (caller's places): read one by one

    def _texts_of(self, bounds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For spans of the joined text (an n x 2 array): the index of the text each
        starts in, and whether it stays inside it; a span leaving its text marks every
        text it touches as crossed."""
        first = np.searchsorted(self.starts, bounds[:, 0], side="right") - 1
        # A span starts at or after its text's start: it is inside when it ends by its end.
        inside = bounds[:, 1] <= self.ends[first]
        if not inside.all():  # rare: the texts each leaving span touches, up to its last
            out = ~inside
            tail = np.maximum(bounds[out, 1] - 1, bounds[out, 0])
            last = np.searchsorted(self.starts, tail, side="right") - 1
            for a, b in zip(first[out].tolist(), last.tolist(), strict=True):
                self.crossed.update(self.positions[a : b + 1].tolist())
        return first, inside

    def locate(self, spans: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
        """``(place, start, end)`` inside its text for spans of the joined text; a span
        leaving its text marks every text it touches as crossed and is dropped."""
        if not spans:
            return []
        bounds = np.asarray(spans, dtype=np.int64)
        first, inside = self._texts_of(bounds)
        if not inside.all():
            bounds, first = bounds[inside], first[inside]
        local = bounds - self.starts[first][:, None]
        return list(
            zip(
                self.positions[first].tolist(),
                local[:, 0].tolist(),
                local[:, 1].tolist(),
                strict=True,
            )
        )

    def search(
        self, regex: re.Pattern[str], keep: Callable[[re.Match[str]], tuple[int, int] | None]
    ) -> list[tuple[int, int, int]]:
        """``keep(match)`` (a span or None) for each match of ``regex`` in the joined text,
        located; a match leaving its text marks it crossed even when ``keep`` drops it.
        The plain texts are read by the expression's ASCII form (the same matches on
        them, :func:`ascii_form`), the others by the expression itself."""
        fast = ascii_form(regex)
        if fast is None or not self.plain.any():
            return self._search(regex, keep)
        if self.plain.all():
            return self._search(fast, keep)
        plain, other = self._split()
        return plain._search(fast, keep) + other._search(regex, keep)

    def _split(self) -> tuple[_Joined, _Joined]:
        """The plain texts joined apart from the others (once per joined text)."""
        if self.parts is None:
            self.parts = tuple(  # type: ignore[assignment]
                _Joined(
                    [self.texts[i] for i in chosen.tolist()],
                    self.positions[chosen],
                    self.crossed,
                    self.plain[chosen],
                )
                for chosen in (np.flatnonzero(self.plain), np.flatnonzero(~self.plain))
            )
        return self.parts  # type: ignore[return-value]

    def _search(
        self, regex: re.Pattern[str], keep: Callable[[re.Match[str]], tuple[int, int] | None]
    ) -> list[tuple[int, int, int]]:
        """:meth:`search` with one expression, run with a look-ahead on its first
        character (:func:`gated`)."""
        regex = gated(regex)
        if keep is _whole:  # every match kept whole: one pass, no callback per match
            return self.locate([match.span() for match in regex.finditer(self.joined)])
        whole, kept = [], []
        for match in regex.finditer(self.joined):
            whole.append(match.span())
            kept.append(keep(match))
        if not whole:
            return []
        first, inside = self._texts_of(np.asarray(whole, dtype=np.int64))
        # What keep returns lies inside its match: in the text the match is inside.
        chosen = [j for j in np.flatnonzero(inside).tolist() if kept[j]]
        if not chosen:
            return []
        texts = first[chosen]
        local = np.asarray([kept[j] for j in chosen], dtype=np.int64) - self.starts[texts][:, None]
        return list(
            zip(
                self.positions[texts].tolist(),
                local[:, 0].tolist(),
                local[:, 1].tolist(),
                strict=True,
            )
        )


class _Column:
    """The texts of one scan, and for each expression the joined texts it can match."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.array = pa.array(texts, type=pa.large_string())
        # Texts with a character beyond ASCII (or an ASCII separator that Python reads as
        # white space): always kept by the RE2 filters (RE2 and Python's engine differ on
        # Unicode case folding and word characters) and never read by an ASCII form.
        self.not_plain = pc.match_substring_regex(self.array, NOT_PLAIN)
        self.plain = ~self.not_plain.to_numpy(zero_copy_only=False)
        self.all_plain = bool(self.plain.all())
        self.crossed: set[int] = set()
        self.objects = np.array(texts, dtype=object)
        self.lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        self.size = int(self.lengths.sum())
        self.everything: _Joined | None = None

    def joined(self, looser: str) -> _Joined:
        if self.size < _FILTER_FROM.get(looser, _FILTER_FROM[None]):
            # Fewer characters than the filter costs to compile and run: every text
            # (texts that cannot match add no match, so the result is the same).
            return self.all_texts()
        keep = pc.match_substring_regex(self.array, looser)
        if not self.all_plain:
            keep = pc.or_(keep, self.not_plain)
        positions = np.flatnonzero(keep.to_numpy(zero_copy_only=False))
        if len(positions) == len(self.texts):  # long notes mostly: joined once for all
            return self.all_texts()
        return self.subset(positions)

    def subset(self, positions: np.ndarray) -> _Joined:
        """The texts at ``positions`` (places in :attr:`texts`), joined."""
        texts = self.objects[positions].tolist()  # a numpy take, not a loop over rows
        return _Joined(
            texts, positions, self.crossed, self.plain[positions], self.lengths[positions]
        )

    def all_texts(self) -> _Joined:
        if self.everything is None:
            everything = np.arange(len(self.texts), dtype=np.int64)
            self.everything = _Joined(
                self.texts, everything, self.crossed, self.plain, self.lengths
            )
        return self.everything


def _whole(match: re.Match[str]) -> tuple[int, int]:
    return match.span()


def _pattern_keep(kind: str) -> Callable[[re.Match[str]], tuple[int, int] | None]:
    """What :meth:`Pattern.spans` keeps of a match: its ``value`` group if validated."""
    pattern = PATTERNS[kind]
    group = "value" if "value" in pattern.regex.groupindex else 0

    def keep(match: re.Match[str]) -> tuple[int, int] | None:
        return match.span(group) if pattern.accepts(match.group(group)) else None

    return keep


def _runs_with_a_name_word(
    texts: list[str], runs: list[tuple[int, int, int]], lists
) -> list[tuple[int, int, int]]:
    """The capitalised runs holding a word that may be part of a name, found for all runs at
    once (a run made only of particles and words never in names, such as "Call" or "Blood
    Pressure", yields no name in :func:`names_from_matches`, so it is dropped before the
    per-text work)."""
    if not runs:
        return runs
    # Plain lists and arrow arrays, not a Series split, exploded and grouped: the same
    # words (str.split), lowered as pandas lowers them (utf8_lower), at a fraction of the
    # fixed cost of each scan.
    split = [texts[i][s:e].split() for i, s, e in runs]
    counts = np.fromiter(map(len, split), dtype=np.int64, count=len(split))
    lower = pc.utf8_lower(pa.array([w for words in split for w in words], type=pa.large_string()))
    particles, not_name = _never_name_words(lists)
    never = pc.or_(
        pc.is_in(lower, value_set=particles),
        pc.is_in(pc.utf8_rtrim(lower, characters="."), value_set=not_name),
    ).to_numpy(zero_copy_only=False)
    run_of_word = np.repeat(np.arange(len(split)), counts)
    may_be_name = np.bincount(run_of_word, weights=~never, minlength=len(split)) > 0
    keep = may_be_name | (counts == 0)  # no word at all: kept, as before
    return [run for run, kept in zip(runs, keep.tolist(), strict=True) if kept]


@cache
def _never_name_words(lists) -> tuple[pa.Array, pa.Array]:
    """The particles and the words never in names as arrow arrays, built once per list
    (``Series.isin`` rebuilt its value set from the Python set on every call: about 4 ms
    of each scan, however few its texts)."""
    return (
        pa.array(sorted(lists.particles), type=pa.large_string()),
        pa.array(sorted(lists.not_name), type=pa.large_string()),
    )


@contextmanager
def _without_cycle_collection():
    """Python's cycle collector paused while a column is scanned: the scan makes many
    short-lived lists and tuples (freed by reference counting, no cycles), and each
    collection they set off walks every object of the process (the name lists, pandas,
    pyarrow), which made the median scan of 1,500 notes half as slow again as the fastest
    (0.31 s against 0.21 s of CPU). It is switched back on after, if it was on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _find_many(texts: list[str], chosen: tuple[str, ...], region: str) -> list[list[Entity]]:
    """``[_find(t, chosen, region) for t in texts]``, with each expression run once over
    all the texts it can match (see :class:`_Joined` and :data:`_LOOSER`); equal results,
    checked by the tests."""
    with _without_cycle_collection():
        return _find_many_now(texts, chosen, region)


def _find_many_now(texts: list[str], chosen: tuple[str, ...], region: str) -> list[list[Entity]]:
    out: list[list[Entity]] = [[] for _ in texts]
    maybe = [i for i, t in enumerate(texts) if _MAYBE_ENTITY.search(t)]
    # Lone surrogates (broken UTF-16 read as text) cannot go to pyarrow: read those alone.
    broken = {i for i in maybe if _SURROGATE.search(texts[i])}
    for i in broken:
        out[i] = _find(texts[i], chosen, region)
    maybe = [i for i in maybe if i not in broken]
    if not maybe:
        return out
    column = _Column([texts[i] for i in maybe])
    candidates: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for kind in chosen:
        if kind in PATTERNS and kind in BUILTIN_KINDS:
            joined = column.joined(_LOOSER[kind])
            for i, start, end in joined.search(PATTERNS[kind].regex, _pattern_keep(kind)):
                candidates[i].append((start, end, kind))
        elif kind in PATTERNS:  # an expression of the user's own: read each text alone
            for i, text in enumerate(column.texts):
                candidates[i] += [(s, e, kind) for s, e in PATTERNS[kind].spans(text)]
    if "phone" in chosen:
        runs: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for i, start, end in column.joined(_LOOSER["phone"]).search(DIGIT_RUN, _whole):
            runs[i].append((start, end))
        for i, spans in runs.items():
            skip = [(s, e) for s, e, k in candidates[i] if k in PATTERNS]
            phones = phones_in_runs(column.texts[i], spans, region, skip=skip)
            candidates[i] += [(s, e, "phone") for s, e in phones]
    if "address" in chosen:
        for i, start, end in column.joined(_LOOSER["address"]).search(ADDRESS, address_span):
            candidates[i].append((start, end, "address"))
    if "name" in chosen:
        lists = name_lists()
        name_runs: dict[int, list[tuple[int, int]]] = defaultdict(list)
        found_runs = column.joined(_LOOSER["name"]).search(NAME_RUN, _whole)
        for i, start, end in _runs_with_a_name_word(column.texts, found_runs, lists):
            name_runs[i].append((start, end))
        cued: dict[int, list[tuple[int, int]]] = defaultdict(list)
        joined = column.all_texts()  # no filter pays for the cue words (see _FILTER_FROM)
        for i, start, end in joined.search(CUED_NAME, lambda m: cued_span(m, lists)):
            cued[i].append((start, end))
        lower: dict[int, list[tuple[int, int]]] = defaultdict(list)
        # Lower-case runs are everywhere: search only the texts holding a sure name.
        holding = np.asarray(
            [i for i, t in enumerate(column.texts) if may_hold_lower_name(t, lists)], dtype=np.int64
        )
        for i, start, end in column.subset(holding).search(LOWER_RUN, _whole):
            lower[i].append((start, end))
        # Texts where core.detect.name_context.other_names may find a name, also without a
        # capitalised run ("i'm kahu", "obi 33F", Chinese characters): RE2 says which.
        hint = pc.match_substring_regex(column.array, OTHER_NAME_HINT)
        hinted = hint.to_numpy(zero_copy_only=False)
        for i in set(name_runs) | set(cued) | set(lower) | set(np.flatnonzero(hinted).tolist()):
            spans = names_from_matches(
                column.texts[i], name_runs[i], cued[i], lists, lower.get(i, []), bool(hinted[i])
            )
            candidates[i] += [(s, e, "name") for s, e in spans]
    priority = {k: i for i, k in enumerate(chosen)}
    for i, found in candidates.items():
        if i not in column.crossed and found:
            out[maybe[i]] = _resolve(column.texts[i], found, priority)
    for i in column.crossed:  # rare: a match ran from one text into the next
        out[maybe[i]] = _find(column.texts[i], chosen, region)
    return out


def _scanned_heads(values: list[str]) -> list[str]:
    """Each distinct text, cut to :data:`MAX_SCANNED` characters at the last white space
    before the limit (so no word is cut in two); shorter texts as they are."""
    lengths = np.fromiter(map(len, values), dtype=np.int64, count=len(values))
    heads = list(values)
    for i in np.flatnonzero(lengths > MAX_SCANNED).tolist():
        value = values[i]
        space = max(value.rfind(" ", 0, MAX_SCANNED), value.rfind("\n", 0, MAX_SCANNED))
        heads[i] = value[: space if space > 0 else MAX_SCANNED]
    return heads


def _distinct_text(values: pd.Series) -> tuple[pd.Series, pd.Series]:
    """(text of each row, missing stays missing) and (distinct texts with row counts)."""
    text = as_text(values)
    counts = text.dropna().value_counts(sort=False)
    return text, counts


def scan_values(
    values: pd.Series, *, kinds: Iterable[str] | str | None = None, region: str = DEFAULT_REGION
) -> pd.DataFrame:
    """Entities in one column: a table ``kind, label, entities, cells`` (rows with a count).

    ``entities`` counts every finding, ``cells`` the cells with at least one of that kind.
    Missing values are skipped; numbers are read as their text (a phone number stored as
    a number is found); a cell is read up to :data:`MAX_SCANNED` characters.
    """
    chosen = resolve_kinds(kinds)
    _, counts = _distinct_text(values)
    entities = dict.fromkeys(chosen, 0)
    cells = dict.fromkeys(chosen, 0)
    found_per_value = _find_many(_scanned_heads(counts.index.tolist()), chosen, region)
    for count, found in zip(counts.tolist(), found_per_value, strict=True):
        for kind in {e.kind for e in found}:
            cells[kind] += int(count)
        for entity in found:
            entities[entity.kind] += int(count)
    rows = [
        (kind, label_of(kind), entities[kind], cells[kind]) for kind in chosen if entities[kind]
    ]
    return pd.DataFrame(rows, columns=["kind", "label", "entities", "cells"])


def scan_table(
    df: pd.DataFrame,
    columns: Iterable[str] | None = None,
    *,
    kinds: Iterable[str] | str | None = None,
    region: str = DEFAULT_REGION,
) -> pd.DataFrame:
    """Entities per column and kind: ``column, kind, label, entities, cells, share, long``.

    ``share`` is the share of non-missing cells of the column holding that kind; ``long``
    the number of cells over :data:`LONG_CELL` characters (worth a look by hand; past
    :data:`MAX_SCANNED` characters a cell is not read, and redaction removes that part). Columns default to every text column.
    """
    if columns is None:
        columns = [
            c
            for c in df.columns
            if not pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])
        ]
    frames = []
    for column in columns:
        values = df[column]
        present = int(values.notna().sum())
        table = scan_values(values, kinds=kinds, region=region)
        table.insert(0, "column", column)
        table["share"] = table["cells"] / present if present else 0.0
        text = as_text(values.dropna())
        table["long"] = int((text.str.len() > LONG_CELL).sum())
        frames.append(table)
    columns_out = ["column", "kind", "label", "entities", "cells", "share", "long"]
    if not frames:
        return pd.DataFrame(columns=columns_out)
    return pd.concat(frames, ignore_index=True)[columns_out]


def redact_series(
    values: pd.Series,
    replace: Callable[[Entity], str],
    *,
    kinds: Iterable[str] | str | None = None,
    region: str = DEFAULT_REGION,
) -> tuple[pd.Series, pd.Series]:
    """``values`` with every entity replaced by ``replace(entity)``, and which rows changed.

    A cell without an entity is returned as it was (same object, same type); the series
    keeps its dtype unless a cell changed, then changed cells are text. Work is done once
    per distinct value. A cell longer than :data:`MAX_SCANNED` characters is redacted up
    to there and the rest is replaced whole by :data:`UNSCANNED` (never left unread).
    """
    out, changed, _ = redact_and_count(values, replace, kinds=kinds, region=region)
    return out, changed


def redact_and_count(
    values: pd.Series,
    replace: Callable[[Entity], str],
    *,
    kinds: Iterable[str] | str | None = None,
    region: str = DEFAULT_REGION,
) -> tuple[pd.Series, pd.Series, dict[str, int]]:
    """:func:`redact_series`, plus the number of entities of each kind replaced (one
    pass: the scan that finds them is the one that replaces them)."""
    chosen = resolve_kinds(kinds)
    text = as_text(values)
    # Each distinct text once: its code in every row (-1: missing), its count (numpy).
    codes, distinct = pd.factorize(text)
    values_list = distinct.tolist()
    counts = np.bincount(codes[codes >= 0], minlength=len(values_list))
    # The redacted text of each distinct text that changed; the last place stands for
    # the missing rows (code -1), which never change.
    new_text = np.full(len(values_list) + 1, None, dtype=object)
    changed_text = np.zeros(len(values_list) + 1, dtype=bool)
    found_per_kind = dict.fromkeys(chosen, 0)
    heads = _scanned_heads(values_list)
    for place, (value, head, count, found) in enumerate(
        zip(values_list, heads, counts.tolist(), _find_many(heads, chosen, region), strict=True)
    ):
        cut = len(head) < len(value)
        if not found and not cut:
            continue
        pieces, position = [], 0
        for entity in found:
            pieces += [head[position : entity.start], replace(entity)]
            position = entity.end
            found_per_kind[entity.kind] += count
        pieces.append(head[position:])
        if cut:
            pieces.append(UNSCANNED.format(n=len(value) - len(head)))
        new_text[place] = "".join(pieces)
        changed_text[place] = True
    found_per_kind = {k: n for k, n in found_per_kind.items() if n}
    if not changed_text.any():
        return values.copy(), text.isin([]) & values.notna(), found_per_kind
    # Each row's new text by its code (numpy takes, no look-up per row), set by position.
    present = values.notna()
    rows = changed_text[codes] & present.to_numpy()
    changed = present & rows  # a Series of the column's index, name and attributes
    out = values.astype(object).copy()
    out.iloc[np.flatnonzero(rows)] = new_text[codes[rows]]
    if values.dtype != object and pd.api.types.is_string_dtype(values.dtype):
        out = out.astype(values.dtype)  # a text column stays a text column
    return out, changed, found_per_kind
