"""The free-text scanner: entities inside text cells, counted per kind, and redacted.

One entry point, :func:`find_entities`, runs every detector on one text: the regular
patterns of :mod:`core.detect.patterns` (emails, URLs, NRIC/FIN, SSN, NINO, record codes,
IP and MAC addresses, plates, dates and any registered pattern), phone numbers
(:mod:`core.detect.phones`), street addresses (:mod:`core.detect.addresses`) and person
names (:mod:`core.detect.names`). Where two findings overlap, the longer one wins (an
address holds a postal code and a street name), then the earlier kind in
:func:`entity_kinds`.

Columns are scanned once per *distinct* value (free-text columns repeat little, but
category-like columns repeat a lot), texts that cannot hold an entity (no digit, no ``@``,
no capital letter) are skipped without running the detectors, and each detector is a
compiled expression run over the whole text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pandas as pd

from core._text import as_text
from core.detect.addresses import find_addresses
from core.detect.names import find_names
from core.detect.patterns import BUILTIN_KINDS, PATTERNS
from core.detect.phones import DEFAULT_REGION, find_phones
from core.errors import ParameterError

__all__ = [
    "LONG_CELL",
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

#: Cells longer than this (characters) are scanned in full but reported as long.
LONG_CELL = 100_000
# Priority of the kinds that are not regular patterns, relative to the patterns.
_BEFORE_PHONE = ("email", "url", "nric", "ssn", "nino", "record_code", "mac", "ipv4", "ipv6")
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
    candidates = _candidates(text, chosen, region)
    candidates.sort(key=lambda c: (-(c[1] - c[0]), priority[c[2]], c[0]))
    taken: list[tuple[int, int, str]] = []
    for start, end, kind in candidates:
        if all(end <= s or e <= start for s, e, _ in taken):
            taken.append((start, end, kind))
    taken.sort()
    return [Entity(kind, s, e, text[s:e]) for s, e, kind in taken]


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
    a number is found).
    """
    chosen = resolve_kinds(kinds)
    _, counts = _distinct_text(values)
    entities = dict.fromkeys(chosen, 0)
    cells = dict.fromkeys(chosen, 0)
    for value, count in counts.items():
        found = _find(value, chosen, region)
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
    the number of cells over :data:`LONG_CELL` characters (scanned in full, but worth a
    look by hand). Columns default to every text column.
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
    per distinct value.
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
    text, counts = _distinct_text(values)
    new_text: dict[str, str] = {}
    found_per_kind = dict.fromkeys(chosen, 0)
    for value, count in counts.items():
        found = _find(value, chosen, region)
        if not found:
            continue
        pieces, position = [], 0
        for entity in found:
            pieces += [value[position : entity.start], replace(entity)]
            position = entity.end
            found_per_kind[entity.kind] += int(count)
        pieces.append(value[position:])
        new_text[value] = "".join(pieces)
    found_per_kind = {k: n for k, n in found_per_kind.items() if n}
    changed = text.isin(list(new_text)) & values.notna()
    if not changed.any():
        return values.copy(), changed, found_per_kind
    out = values.astype(object).copy()
    out[changed] = text[changed].map(new_text)
    if values.dtype != object and pd.api.types.is_string_dtype(values.dtype):
        out = out.astype(values.dtype)  # a text column stays a text column
    return out, changed, found_per_kind
