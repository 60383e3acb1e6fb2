"""Direct identifiers a release keeps in some form, judged by what they still reveal.

PDPC guide, Step 2: a direct identifier is *removed*, or *replaced by a pseudonym* (random
or keyed tokens with the identity mapping table kept apart, Annex A). Any other form that
keeps it in the release (character masking, swapping, noise, rounding, generalisation, a
partial redaction) leaves part of the person's value in the table: a masked NRIC that
keeps its seven digits and check letter, a name swapped into another record. Such a
column is judged like a quasi-identifier (the release must reach k with it counted, see
:mod:`core.release.gate`) and by what it still holds of the original values
(:func:`identifying_runs`): no released value may equal an original value of that
column that fewer than k records share, or contain a run of :data:`RUN` characters that
the original values of fewer than k records hold (a shared e-mail domain identifies
nobody; four digits of one person's NRIC do).

Only the recipe's steps say whether a column holds pseudonyms (a random token can share
four digits with an NRIC by chance); :func:`treatment` reads them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from core._text import as_text

#: A released value may not hold this many characters in a row of a rare original value.
RUN = 4
#: Characters that only format a value ("S 1234567 D", "9123-4567", "tan ah kow"): removed
#: before values are compared, so a re-spaced or re-cased value is still the same value.
_FORMATTING = r"[\s\-./(),'_+]"
#: Steps that replace a column's values by tokens (PDPC guide, Annex A: Pseudonymisation).
PSEUDONYMISING_STEPS = frozenset({"pseudonymise"})


@dataclass(frozen=True)
class Treatment:
    """What the recipe did to one direct identifier column."""

    column: str
    removed: bool
    pseudonymisations: int  # pseudonymise steps on the column
    forms: tuple[str, ...]  # the other steps that changed it (mask, swap, ...), in order

    @property
    def pseudonymised(self) -> bool:
        return self.pseudonymisations > 0


def _step_columns(step: Mapping[str, Any]) -> list[str]:
    """The columns whose values a step changes (its 'column', 'columns', 'lat'/'lon')."""
    names: list[str] = []
    for key in ("column", "columns", "lat", "lon"):
        value = step.get(key)
        if isinstance(value, str):
            names.append(value)
        elif isinstance(value, list | tuple):
            names.extend(v for v in value if isinstance(v, str))
    return names


def treatment(steps: Iterable[Mapping[str, Any]], column: str) -> Treatment:
    """How ``steps`` (a recipe's, in order) treat ``column``."""
    removed, pseudonymisations, forms = False, 0, []
    for step in steps:
        if column not in _step_columns(step):
            continue
        name = str(step.get("step"))
        if name == "remove":
            removed = True
        elif name in PSEUDONYMISING_STEPS:
            pseudonymisations += 1
        else:
            forms.append(name)
    return Treatment(column, removed, pseudonymisations, tuple(dict.fromkeys(forms)))


def normalised(values: pd.Series) -> pd.Series:
    """Values as comparable text: case folded, formatting characters removed."""
    text = as_text(values)
    return text.str.casefold().str.replace(_FORMATTING, "", regex=True)


#: Every Unicode code point is below 2**21, so three fit in one 64-bit integer.
_POINT_BITS = 21
#: Runs keyed at a time: bounds the memory of the integer keys, whatever the values' length.
_CHUNK = 2**20


def _code_points(values: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The code points of ``values`` end to end, whether a run of :data:`RUN` characters
    inside one value starts at each, and where each value ends (one pass over the
    characters: a value of a million characters costs what a million short ones do)."""
    points = np.frombuffer("".join(values.tolist()).encode("utf-32-le"), dtype=np.uint32)
    lengths = values.str.len().to_numpy(dtype=np.int64)
    ends = np.cumsum(lengths)
    starts_run = np.ones(points.size, dtype=bool)
    for back in range(1, RUN):  # the last RUN - 1 characters of a value start no run
        starts_run[(ends - back)[lengths >= back]] = False
    return points, starts_run, ends


def _run_starts(starts_run: np.ndarray) -> Iterator[np.ndarray]:
    """Where runs start, :data:`_CHUNK` characters at a time."""
    for first in range(0, starts_run.size, _CHUNK):
        yield first + np.flatnonzero(starts_run[first : first + _CHUNK])


def _prefixes(points: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The first ``RUN - 1`` characters of each run packed into one integer (exact: 63
    bits, so it is also a non-negative int64)."""
    packed = np.zeros(starts.size, dtype=np.uint64)
    for offset in range(RUN - 1):
        packed = (packed << np.uint64(_POINT_BITS)) | points[starts + offset]
    return packed


def _keys(points: np.ndarray, starts: np.ndarray, prefixes: pd.Index) -> np.ndarray:
    """Each run's key: the position of its first ``RUN - 1`` characters in ``prefixes``,
    then its last character (exact, in 64 bits); -1 when its prefix is not there."""
    rank = prefixes.get_indexer(_prefixes(points, starts))
    keys = (rank.astype(np.uint64) << np.uint64(_POINT_BITS)) | points[starts + RUN - 1]
    return np.where(rank >= 0, keys.astype(np.int64), -1)


def _distinct(arrays: Iterable[np.ndarray]) -> pd.Index:
    return pd.Index(pd.unique(np.concatenate([np.empty(0, dtype=np.int64), *arrays])))


def _rare_runs(originals: pd.Series, records: np.ndarray, k: int) -> tuple[pd.Index, pd.Index]:
    """The runs of :data:`RUN` characters that fewer than ``k`` records' original values
    hold (``originals`` are distinct values, ``records`` how many records hold each), as
    integer keys (:func:`_keys`), with the prefixes the keys were made with. A run every
    record of a shared e-mail domain holds ("mail.example.org") identifies nobody; a run
    of one person's NRIC does."""
    points, starts_run, ends = _code_points(originals)
    prefixes = _distinct(
        pd.unique(_prefixes(points, starts).astype(np.int64)) for starts in _run_starts(starts_run)
    )
    if prefixes.empty:
        return prefixes, prefixes
    pairs = []
    for starts in _run_starts(starts_run):
        value = np.searchsorted(ends, starts, side="right")
        pairs.append(pd.DataFrame({"key": _keys(points, starts, prefixes), "value": value}))
    held = pd.concat(pairs, ignore_index=True).drop_duplicates()  # a run once per value
    held_by = pd.Series(records[held["value"].to_numpy()]).groupby(held["key"].to_numpy()).sum()
    return pd.Index(held_by.index[held_by.to_numpy() < k]), prefixes


def _holding_rows(values: pd.Series, rare_keys: pd.Index, prefixes: pd.Index) -> np.ndarray:
    """Per value of ``values``: does it contain one of the runs ``rare_keys``? Runs are
    compared as integer keys (:func:`_keys`) in hash tables, a chunk at a time: time linear
    in the characters, memory bounded, never a loop over values or character positions."""
    hit = np.zeros(len(values), dtype=bool)
    if rare_keys.empty:
        return hit
    points, starts_run, ends = _code_points(values)
    for starts in _run_starts(starts_run):
        found = rare_keys.get_indexer(_keys(points, starts, prefixes)) >= 0
        hit[np.searchsorted(ends, starts[found], side="right")] = True
    return hit


@dataclass(frozen=True)
class RunLeak:
    """What a kept column still shows of its rare original values (counts only: a report
    must never quote the values themselves)."""

    records: int  # released records whose value equals or contains a rare original run
    equal: int  # of them, records whose value is a rare original value, whole
    rare_values: int  # distinct original values fewer than k records share


def identifying_runs(original: pd.Series, released: pd.Series, *, k: int) -> RunLeak:
    """How many released values equal an original value of the column held by fewer than
    ``k`` records, or contain a run of :data:`RUN` characters that the original values of
    fewer than ``k`` records hold (compared as :func:`normalised` text). Work is done per
    distinct value, in time linear in their characters (:func:`_rare_runs`)."""
    before = normalised(original.dropna())
    counts = before.value_counts()
    rare = pd.Series(counts.index[counts.to_numpy() < k], dtype="str")
    after = normalised(released.dropna())
    if rare.empty or after.empty:
        return RunLeak(0, 0, int(rare.size))
    distinct = after.value_counts()
    values = pd.Series(distinct.index, dtype="str")
    equal = values.isin(pd.Index(rare)).to_numpy()
    originals = pd.Series(counts.index, dtype="str")
    rare_keys, prefixes = _rare_runs(originals, counts.to_numpy(), k)
    hit = equal | _holding_rows(values, rare_keys, prefixes)
    records = int(distinct.to_numpy()[hit].sum())
    return RunLeak(records, int(distinct.to_numpy()[equal].sum()), int(rare.size))


def advice(kept: Treatment, leak: RunLeak) -> str:
    """What would pass, for the forms the column was kept in."""
    if "swap" in kept.forms or "pram" in kept.forms:
        return (
            "swapping or re-drawing values moves a person's value to another record, where it "
            "is still released: remove or pseudonymise the column (PDPC guide, Step 2)."
        )
    if "mask" in kept.forms:
        return (
            f"mask more: keep at most {RUN - 1} characters in a row (keep_first and keep_last "
            f"at most {RUN - 1} each), and few enough that the column, counted as a "
            "quasi-identifier, reaches k (an NRIC keeps its first letter, at most 2 digits "
            "and its check letter: mask at least 5 of the 7 digits), or remove or "
            "pseudonymise it (PDPC guide, Step 2; Annex B)."
        )
    if leak.equal == leak.records:
        return (
            "those values are released whole: generalise every value of the column, or "
            "remove or pseudonymise it (PDPC guide, Step 2)."
        )
    return (
        f"generalise or mask it until no released value keeps {RUN} characters in a row of "
        "such a value, or remove or pseudonymise it (PDPC guide, Step 2)."
    )


def form_words(forms: Sequence[str]) -> str:
    """'masked', 'swapped and rounded', ... for a message."""
    words = {
        "mask": "masked",
        "swap": "swapped",
        "noise": "perturbed with noise",
        "round": "rounded",
        "generalise": "generalised",
        "redact_text": "partly redacted",
        "pram": "post-randomised",
        "correlated_noise": "perturbed with noise",
    }
    named = [words.get(form, f"changed by '{form}'") for form in forms]
    if not named:
        return "kept"
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
