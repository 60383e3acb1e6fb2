"""Hierarchies as the rule that builds them, not as the list of values they cover.

A hierarchy built from the data (:mod:`core.hierarchy`'s builders: bands of numbers,
dates to coarser periods, masking from the right, suppression) lists every original value
in its first column: 50,000 addresses, dates of birth or postal codes for a table of
50,000 people. Such a file must not travel with a release (PDPC guide, Step 5: share only
what the recipient needs; issue 25 item 5). Its *rule* ("bands of width 10, 20 from 0",
"dates to month, then year", "mask one more character from the right") holds no value of
the table, and rebuilds the same levels from the values it is applied to.

:func:`rule_of_text` recognises a hierarchy file that a builder made, by building it again
from its own first column and comparing every cell, so a rule is only ever given for a file
it reproduces exactly. :class:`HierarchyRule` is the rule as plain data (a recipe's
``generalise`` step takes it as ``hierarchy_rule``), checked like any recipe input.
"""

from __future__ import annotations

import hashlib
import io
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from core._text import format_number
from core.errors import AnonymisationError, ParameterError
from core.hierarchy import (
    DATE_LEVELS,
    Hierarchy,
    build_hierarchy,
    date_hierarchy,
    masking_hierarchy,
    numeric_hierarchy,
    read_hierarchy,
    require_masking_height,
)

RULE_KINDS = ("numeric", "dates", "masking", "suppress")
_KEYS = {
    "numeric": {"kind", "widths", "start"},
    "dates": {"kind", "levels", "dayfirst"},
    "masking": {"kind", "char", "height"},
    "suppress": {"kind"},
}
_WHOLE_BAND = re.compile(r"^(-?\d+)-(-?\d+)$")  # "35-39": both ends included
_HALF_OPEN_BAND = re.compile(r"^\[([^,\s]+), ([^)\s]+)\)$")  # "[2.5, 5)"
_DATE_LABELS = {
    "month": re.compile(r"^\d{4}-\d{2}$"),
    "quarter": re.compile(r"^\d{4}-Q[1-4]$"),
    "year": re.compile(r"^\d{4}$"),
    "decade": re.compile(r"^\d{3}0s$"),
}


def _rule_error(message: str) -> ParameterError:
    return ParameterError(f"Parameter 'hierarchy_rule': {message}")


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _rule_error(f"'{what}' must be a finite number, got {value!r}.")
    return float(value)


def _plain(number: float) -> int | float:
    """A whole number as an int (``10``, not ``10.0``), so the recipe reads as typed."""
    return int(number) if float(number).is_integer() else float(number)


@dataclass(frozen=True)
class HierarchyRule:
    """How a builder of :mod:`core.hierarchy` makes a hierarchy; no value of the data.

    ``kind`` is one of :data:`RULE_KINDS`; ``params`` are the builder's parameters with
    everything the builder would take from the data fixed (the bands' ``start``, the
    masking ``height``), so the rule gives the same label to a value whatever other values
    it is applied with. PDPC guide, Annex A: Generalisation and Character masking.
    """

    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def from_mapping(cls, rule: Any) -> HierarchyRule:
        """Check a rule given as data (a recipe's ``hierarchy_rule``: untrusted)."""
        if not isinstance(rule, Mapping):
            raise _rule_error(
                "give a mapping such as {kind: dates, levels: [month, year]}, "
                f"got {type(rule).__name__}."
            )
        kind = rule.get("kind")
        if kind not in RULE_KINDS:
            raise _rule_error(f"'kind' must be one of {', '.join(RULE_KINDS)}, got {kind!r}.")
        unknown = sorted(map(str, set(rule) - _KEYS[kind]))
        if unknown:
            allowed = ", ".join(sorted(_KEYS[kind] - {"kind"})) or "nothing else"
            raise _rule_error(f"{kind} takes {allowed}; remove {', '.join(unknown)}.")
        if kind == "numeric":
            widths = rule.get("widths")
            if not isinstance(widths, list | tuple) or not widths:
                raise _rule_error("numeric needs 'widths', a list of band widths.")
            numbers = [_number(w, "widths") for w in widths]
            start = _number(rule.get("start"), "start")
            numeric_hierarchy([start], numbers, start=start)  # the builder checks nesting
            params = {"widths": tuple(_plain(w) for w in numbers), "start": _plain(start)}
        elif kind == "dates":
            levels = rule.get("levels")
            if not isinstance(levels, list | tuple) or not all(isinstance(x, str) for x in levels):
                raise _rule_error(f"dates needs 'levels', chosen from {', '.join(DATE_LEVELS)}.")
            dayfirst = rule.get("dayfirst", False)
            if not isinstance(dayfirst, bool):
                raise _rule_error(f"'dayfirst' must be true or false, got {dayfirst!r}.")
            date_hierarchy(["2000-01-01"], list(levels))  # the builder checks the periods
            params = {"levels": tuple(levels), "dayfirst": dayfirst}
        elif kind == "masking":
            char, height = rule.get("char", "*"), rule.get("height")
            if not isinstance(char, str) or len(char) != 1:
                raise _rule_error(f"'char' must be one character, got {char!r}.")
            if isinstance(height, bool) or not isinstance(height, int) or height < 1:
                raise _rule_error(f"masking needs 'height', a whole number >= 1, got {height!r}.")
            require_masking_height(height)  # no more levels than a file may have
            params = {"char": char, "height": height}
        else:
            params = {}
        return cls(str(kind), tuple(params.items()))

    def to_dict(self) -> dict[str, Any]:
        """The rule as recipe data (``{kind: ..., ...}``), read back by :meth:`from_mapping`."""
        return {
            "kind": self.kind,
            **{k: list(v) if isinstance(v, tuple) else v for k, v in self.params},
        }

    @property
    def height(self) -> int:
        """The top level (``*``), as the built hierarchy's height."""
        params = dict(self.params)
        if self.kind == "numeric":
            return len(params["widths"]) + 1
        if self.kind == "dates":
            return len(params["levels"]) + 1
        if self.kind == "masking":
            return int(params["height"])
        return 1

    def build(self, values: Iterable[object], *, name: str | None = None) -> Hierarchy:
        """The hierarchy of ``values`` by this rule (each distinct value once)."""
        params = dict(self.params)
        if self.kind == "numeric":
            return numeric_hierarchy(values, params["widths"], start=params["start"], name=name)
        if self.kind == "dates":
            return date_hierarchy(values, params["levels"], dayfirst=params["dayfirst"], name=name)
        if self.kind == "masking":
            return masking_hierarchy(
                values, char=params["char"], height=params["height"], name=name
            )
        return build_hierarchy(pd.Series(list(values), name=name, dtype=object), "suppress")

    def describe(self, level: int | None = None) -> str:
        """In words, the whole rule or what ``level`` does ("dates to year")."""
        params = dict(self.params)
        if level is not None and level >= self.height:
            return "every value becomes *"
        if level is not None and level <= 0:
            return "values unchanged" if level == 0 else f"no level {level} (levels start at 0)"
        if self.kind == "numeric":
            widths = [format_number(w) for w in params["widths"]]
            start = format_number(params["start"])
            if level is not None:
                return f"bands of width {widths[level - 1]} from {start}"
            return f"bands of width {', '.join(widths)} from {start}, then *"
        if self.kind == "dates":
            if level is not None:
                return f"dates to {params['levels'][level - 1]}"
            return f"dates to {', then '.join(params['levels'])}, then *"
        if self.kind == "masking":
            char = params["char"]
            if level is not None:
                return f"the last {level} character(s) masked with {char!r}"
            return (
                f"one more character masked with {char!r} from the right at each level, "
                f"* at level {params['height']}"
            )
        return "the value, then *"


def _candidates(levels: pd.DataFrame) -> Iterable[HierarchyRule]:
    """The rules that could have made ``levels``, read from the labels of its first row."""
    height = levels.shape[1] - 1
    if height < 1 or not (levels[height] == "*").all():
        return
    if height == 1:
        yield HierarchyRule("suppress")
    first = [str(levels[level].iloc[0]) for level in range(1, height)]
    if first and first[0]:
        yield HierarchyRule("masking", (("char", first[0][-1]), ("height", height)))
    units = [next((u for u, p in _DATE_LABELS.items() if p.match(label)), None) for label in first]
    if first and None not in units:
        for dayfirst in (False, True):
            yield HierarchyRule("dates", (("levels", tuple(units)), ("dayfirst", dayfirst)))
    widths = []
    for label in first:
        whole, half_open = _WHOLE_BAND.match(label), _HALF_OPEN_BAND.match(label)
        if whole:
            widths.append(float(whole.group(2)) - float(whole.group(1)) + 1)
        elif half_open:
            try:
                widths.append(float(half_open.group(2)) - float(half_open.group(1)))
            except ValueError:
                return
        else:
            return
    if widths:
        widest = levels[height - 1].str.extract(r"^\[?(-?[^,\s]+?)(?:-|, )", expand=False)
        start = pd.to_numeric(widest, errors="coerce").min()
        if math.isfinite(start):
            yield HierarchyRule(
                "numeric", (("widths", tuple(_plain(w) for w in widths)), ("start", _plain(start)))
            )


def infer_rule(hierarchy: Hierarchy) -> HierarchyRule | None:
    """The rule that rebuilds ``hierarchy`` cell for cell from its own values, or None.

    None means the file is enumerated (a grouping, a file made by hand or by ARX): it can
    only travel as the list it is, so it stays in the internal archive.
    """
    levels = hierarchy.levels.reset_index(drop=True)
    for rule in _candidates(levels):
        try:
            rebuilt = rule.build(levels[0]).levels.reset_index(drop=True)
        except AnonymisationError:
            continue
        if rebuilt.shape == levels.shape and rebuilt.astype(object).equals(levels.astype(object)):
            return rule
    return None


_KNOWN: dict[str, HierarchyRule | None] = {}  # sha256 of a file's text -> its rule
_KNOWN_MAX = 64


def rule_of_text(text: str) -> HierarchyRule | None:
    """:func:`infer_rule` of a hierarchy file's text. Answers are kept by the text's sha256
    (a page asks on every rerun; the texts themselves, megabytes each, are not kept)."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if digest in _KNOWN:
        return _KNOWN[digest]
    try:
        rule = infer_rule(read_hierarchy(io.StringIO(text)))
    except AnonymisationError:
        rule = None
    if len(_KNOWN) >= _KNOWN_MAX:
        _KNOWN.pop(next(iter(_KNOWN)))  # the oldest answer
    _KNOWN[digest] = rule
    return rule
