"""Generalisation hierarchies in the ARX CSV format (PDPC guide, Annex A: Generalisation).

A hierarchy spells out, for every original value, what it becomes at each level of
generalisation. One line per original value, no header, separated by ``;``::

    39;35-39;30-39;20-39;*
    Bachelors;Undergraduate;Higher education;*

Column 0 is the original value (as text), column ``i`` is level ``i``; the last level is
usually ``*`` (fully suppressed). The guide's advice "design appropriate data categories
and rules for translating data" is exactly what such a file records, so the same rules can
be reviewed, reused and replayed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd

from core._text import as_text, format_number
from core.errors import DataReadError, ParameterError, parser_message
from core.validation import (
    MAX_STEP,
    require_anchor,
    require_choice,
    require_int,
    require_step,
)


@dataclass(frozen=True, eq=False)
class Hierarchy:
    """A generalisation hierarchy: column 0 = original value, column ``i`` = level ``i``.

    ``levels`` holds strings only; its columns are renamed ``0..height``. Valid levels for
    :meth:`generalise` are ``0`` (unchanged) to :attr:`height` (usually ``*``).
    PDPC guide, Annex A: Generalisation ("design appropriate data categories").
    """

    levels: pd.DataFrame
    name: str | None = None

    def __post_init__(self) -> None:
        levels = self.levels
        if not isinstance(levels, pd.DataFrame) or levels.shape[1] < 1 or len(levels) < 1:
            raise ParameterError(
                "A hierarchy needs a table with at least one row and one column "
                "(original value; level 1; ...)."
            )
        levels = levels.copy()
        levels.columns = range(levels.shape[1])
        if levels.isna().any().any():
            row, col = _first_true(levels.isna())
            raise ParameterError(
                f"Hierarchy{_label(self.name)} has an empty cell in row {row + 1}, level {col}. "
                "Every original value needs a value at every level."
            )
        levels = levels.apply(as_text)
        duplicated = levels[0].duplicated()
        if duplicated.any():
            row = int(duplicated.to_numpy().nonzero()[0][0])
            raise ParameterError(
                f"Hierarchy{_label(self.name)} lists the value {levels[0].iloc[row]!r} twice "
                f"(second time in row {row + 1}). Each original value must appear once."
            )
        object.__setattr__(self, "levels", levels)

    @property
    def height(self) -> int:
        """The highest level (number of generalisation steps); levels are ``0..height``."""
        return self.levels.shape[1] - 1

    @property
    def values(self) -> list[str]:
        """The original values the hierarchy knows (level 0)."""
        return self.levels[0].tolist()

    def generalise(self, series: pd.Series, level: int) -> pd.Series:
        """Replace each value by its ancestor at ``level`` (vectorised map).

        Values are matched as text (``39`` and ``39.0`` both match ``"39"``). Missing values
        stay missing. A value already generalised by this hierarchy (the label of a level
        from 1 to ``level``: "1985" of a dates hierarchy's year level, left by an earlier
        recipe step) goes to its ancestor at ``level``, so steps stack. A value absent from
        the hierarchy raises :class:`ParameterError` naming the first such value and its
        row. PDPC guide, Annex A: Generalisation.
        """
        level = require_int("level", level, minimum=0)
        if level > self.height:
            raise ParameterError(
                f"Parameter 'level' must be between 0 and {self.height} for hierarchy"
                f"{_label(self.name)}, got {level}."
            )
        text = as_text(series)
        mapping = pd.Series(self.levels[level].to_numpy(), index=self.levels[0].to_numpy())
        out = text.map(mapping)
        missing = out.isna() & text.notna()
        for coarser in range(1, level + 1):  # labels of levels up to ``level``, if any
            if not missing.any():
                break
            pairs = pd.DataFrame(
                {"label": self.levels[coarser].to_numpy(), "up": self.levels[level].to_numpy()}
            ).drop_duplicates(subset="label")
            above = pd.Series(pairs["up"].to_numpy(), index=pairs["label"].to_numpy())
            out[missing] = text[missing].map(above)
            missing = out.isna() & text.notna()
        if missing.any():
            row = int(missing.to_numpy().nonzero()[0][0])
            column = f" in column '{series.name}'" if series.name is not None else ""
            raise ParameterError(
                f"The value {text.iloc[row]!r}{column} (row {row + 1}) is not in hierarchy"
                f"{_label(self.name)} ({int(missing.sum())} row(s) affected). Add it to the "
                "hierarchy file, or clean the column first."
            )
        return out.astype("str").rename(series.name)


#: Most levels a hierarchy file may have, the original value included (ARX's hierarchies
#: have a handful). A line of 20,001 cells took 13 s to read, one of 800 KB a minute and
#: 1.8 GB: the width is checked on the first line, before the table is built.
MAX_HIERARCHY_LEVELS = 100


def require_masking_height(height: object) -> int:
    """A masking hierarchy's ``height`` (the level that is ``*``): a whole number from 1 to
    ``MAX_HIERARCHY_LEVELS - 1``, so that it has no more levels than a file may have."""
    height = require_int("height", height, minimum=1)
    if height >= MAX_HIERARCHY_LEVELS:
        raise ParameterError(
            f"Parameter 'height' must be at most {MAX_HIERARCHY_LEVELS - 1} (a hierarchy has "
            f"at most {MAX_HIERARCHY_LEVELS} levels), got {height:,}."
        )
    return height


def read_hierarchy(
    path_or_buffer: str | os.PathLike[str] | IO[str] | IO[bytes], *, sep: str = ";"
) -> Hierarchy:
    """Read an ARX-format hierarchy file (no header, ``value;level1;...;*``).

    Cells are read as text exactly as written ("NA" stays the text "NA"). The file is read
    within :func:`core.io.read_table`'s limits (size, no device such as ``/dev/zero``) and
    may have at most :data:`MAX_HIERARCHY_LEVELS` levels.
    PDPC guide, Annex A: Generalisation.
    """
    name = os.fspath(path_or_buffer) if isinstance(path_or_buffer, str | os.PathLike) else None
    text = _hierarchy_text(path_or_buffer, name)
    _check_width(text, name, sep)
    try:
        levels = pd.read_csv(
            io.StringIO(text),
            sep=sep,
            header=None,
            dtype=str,
            keep_default_na=False,
            skip_blank_lines=True,
        )
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise DataReadError(
            f"Could not read hierarchy file{_label(name)}: {parser_message(error)}. A hierarchy "
            f"is a text file with one line per value, cells separated by {sep!r}, no header."
        ) from error
    levels = levels.replace("", pd.NA) if (levels == "").any().any() else levels
    return Hierarchy(levels, name=name)


def _hierarchy_text(source: str | os.PathLike[str] | IO[str] | IO[bytes], name: str | None) -> str:
    """The file's text (UTF-8), read within read_table's limits."""
    from core.io import read_bytes

    if name is not None and not Path(name).expanduser().exists():
        raise DataReadError(f"Hierarchy file {name!r} does not exist. Check the path.")
    data = read_bytes(source, name=name or "uploaded hierarchy")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DataReadError(
            f"Could not read hierarchy file{_label(name)}: it is not UTF-8 text ({error}). "
            "Save it as UTF-8."
        ) from error


def _check_width(text: str, name: str | None, sep: str) -> None:
    """Refuse a first line of more than MAX_HIERARCHY_LEVELS cells (a later line wider than
    the first is refused by the parser)."""
    first = next((line.rstrip("\r\n") for line in io.StringIO(text) if line.strip()), "")
    if first.count(sep) < MAX_HIERARCHY_LEVELS:
        return
    try:
        cells = len(next(csv.reader([first], delimiter=sep), []))
    except csv.Error:  # a quoted cell longer than the csv module's limit: count separators
        cells = first.count(sep) + 1
    if cells > MAX_HIERARCHY_LEVELS:
        raise DataReadError(
            f"Hierarchy file{_label(name)} has {cells:,} levels on its first line; a hierarchy "
            f"has at most {MAX_HIERARCHY_LEVELS} (value;level 1;...;*). Check that its cells "
            f"are separated by {sep!r}, one line per value."
        )


def write_hierarchy(h: Hierarchy, path: str | os.PathLike[str], *, sep: str = ";") -> None:
    """Write ``h`` in the ARX format read by :func:`read_hierarchy` (no header, no index)."""
    h.levels.to_csv(path, sep=sep, header=False, index=False)


def store_hierarchy(h: Hierarchy, folder: str | os.PathLike[str], *, stem: str) -> Path:
    """Write ``h`` once into ``folder`` under a name derived from its content; return the path.

    The same hierarchy always gets the same file name (``<stem>-<hash>.csv``), so recipes
    that refer to it stay valid and repeated saves do not pile up copies.
    """
    text = h.levels.to_csv(sep=";", header=False, index=False)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in stem) or "hierarchy"
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{safe}-{digest}.csv"
    if not path.is_file():
        path.write_text(text, encoding="utf-8")
    return path


# --- builders ---------------------------------------------------------------------------
#
# Each builder takes the values of a column (a Series or any iterable) and returns a
# Hierarchy covering every distinct value, ending in "*" (PDPC guide, Annex A:
# Generalisation: "design appropriate data categories and rules for translating data").


def _distinct_text(values: Iterable[object]) -> pd.Series:
    series = values if isinstance(values, pd.Series) else pd.Series(list(values))
    text = as_text(series).dropna().drop_duplicates()
    if text.empty:
        raise ParameterError("A hierarchy needs at least one (non-missing) value to cover.")
    return text.reset_index(drop=True)


def _from_columns(original: pd.Series, levels: Sequence[Sequence[str]], name: str | None):
    table = pd.DataFrame({0: original.to_numpy()})
    for i, level in enumerate(levels, start=1):
        table[i] = list(level)
    table[len(levels) + 1] = "*"
    return Hierarchy(table, name=name)


def _band_label(low: float, width: float) -> str:
    high = low + width
    if float(low).is_integer() and float(width).is_integer():
        return f"{format_number(low)}-{format_number(high - 1)}"
    return f"[{format_number(low)}, {format_number(high)})"


def numeric_hierarchy(
    values: Iterable[object],
    widths: Sequence[float] = (5, 10, 20, 40),
    *,
    start: float | None = None,
    name: str | None = None,
) -> Hierarchy:
    """Intervals of growing width, then ``*`` (PDPC guide, Annex A: Generalisation; Annex B:
    "generalise the age ... to ranges of 5 or 10").

    Level ``i`` puts a value in the band ``[start + j*w_i, start + (j+1)*w_i)`` of width
    ``widths[i-1]``, written ``"35-39"`` for whole numbers (both ends included) and
    ``"[2.5, 5)"`` otherwise. Each width must be a whole multiple of the one before, so the
    bands nest (every band lies inside one band of the next level). ``start`` anchors all
    grids; by default the largest multiple of the widest width not above the smallest value.
    Example: 39 with widths (5, 10, 20, 40) -> 35-39; 30-39; 20-39; 0-39; *.
    """
    text = _distinct_text(values)
    numbers = pd.to_numeric(text, errors="coerce")
    if numbers.isna().any():
        bad = text[numbers.isna()].iloc[0]
        raise ParameterError(
            f"A numeric hierarchy needs numbers; {bad!r} is not one. Use a grouping or "
            "masking hierarchy for text columns."
        )
    widths = [require_step("widths", w) for w in widths]
    if not widths:
        raise ParameterError("Parameter 'widths' needs at least one band width, e.g. (5, 10, 20).")
    for narrow, wide in zip(widths, widths[1:], strict=False):
        ratio = wide / narrow
        if ratio <= 1 or abs(ratio - round(ratio)) > 1e-9:
            raise ParameterError(
                f"Each width must be a whole multiple of the one before so that bands nest; "
                f"{format_number(wide)} after {format_number(narrow)} is not."
            )
    values_ = numbers.to_numpy(dtype=float)
    if start is not None:
        start = require_anchor("start", start)
    beyond = np.abs(values_) > MAX_STEP  # bands of such numbers overflow (inf labels)
    if beyond.any():
        raise ParameterError(
            f"A numeric hierarchy's values must be at most {MAX_STEP:g} in size; "
            f"{values_[beyond][0]:g} is not. Use a masking or grouping hierarchy, "
            "or top/bottom-code the column first."
        )
    if start is None:
        start = math.floor(values_.min() / widths[-1]) * widths[-1]
    if values_.min() < start:
        raise ParameterError(
            f"Parameter 'start' ({format_number(start)}) is above the smallest value "
            f"({format_number(values_.min())}); lower it."
        )
    levels = []
    for width in widths:
        lows = start + np.floor(np.round((values_ - start) / width, 9)) * width
        labels = {low: _band_label(low, width) for low in np.unique(lows)}
        levels.append([labels[low] for low in lows])
    return _from_columns(text, levels, name)


DATE_LEVELS = ("month", "quarter", "year", "decade")


def date_hierarchy(
    values: Iterable[object],
    levels: Sequence[str] = ("month", "year"),
    *,
    dayfirst: bool = False,
    name: str | None = None,
) -> Hierarchy:
    """Dates to coarser periods, then ``*`` (PDPC guide, Annex B: "date of birth ... to year
    or month and year"; Annex A: Generalisation).

    ``levels`` are chosen from month ("2003-02"), quarter ("2003-Q1"), year ("2003") and
    decade ("2000s"), from fine to coarse; they nest, which the lattice search relies on
    (weeks are left out: a week can straddle two months or years). Example: 2003-02-15 with the
    default levels -> 2003-02; 2003; *. Text that is not a date raises ParameterError.
    """
    text = _distinct_text(values)
    for level in levels:
        require_choice("levels", level, DATE_LEVELS)
    order = [DATE_LEVELS.index(level) for level in levels]
    if not levels or order != sorted(set(order)):
        raise ParameterError(
            f"Parameter 'levels' must list periods from fine to coarse without repeats, "
            f"chosen from {', '.join(DATE_LEVELS)}; got {list(levels)}."
        )
    dates = pd.to_datetime(text, errors="coerce", dayfirst=dayfirst, format="mixed")
    if dates.isna().any():
        bad = text[dates.isna()].iloc[0]
        raise ParameterError(f"{bad!r} is not a date; clean the column before building dates.")
    labels = {
        "month": lambda d: d.dt.strftime("%Y-%m"),
        "quarter": lambda d: d.dt.year.astype(str) + "-Q" + d.dt.quarter.astype(str),
        "year": lambda d: d.dt.year.astype(str),
        "decade": lambda d: (d.dt.year // 10 * 10).astype(str) + "s",
    }
    return _from_columns(text, [labels[level](dates).tolist() for level in levels], name)


def masking_hierarchy(
    values: Iterable[object],
    *,
    char: str = "*",
    height: int | None = None,
    name: str | None = None,
) -> Hierarchy:
    """Mask one more character from the right at each level, then ``*`` (PDPC guide, Annex
    A: Character masking; Annex B: postal code).

    Example: 235546 -> 23554*; 2355**; 235***; 23****; 2*****; *. Shorter values are fully
    masked earlier (``"12"`` is ``"**"`` from level 2); the last level is ``*`` for all.
    ``height`` (the level that is ``*``) is by default the longest value's length; a
    hierarchy rule gives it, so that the rule rebuilds the same levels from part of the
    values (:mod:`core.hierarchy_rules`).
    """
    text = _distinct_text(values)
    if len(char) != 1:
        raise ParameterError(f"Parameter 'char' must be one character, got {char!r}.")
    if height is not None:
        longest = require_masking_height(height)
    else:
        longest = int(text.str.len().max())
        if longest >= MAX_HIERARCHY_LEVELS:  # one level per character: a 10 MiB cell never ends
            raise ParameterError(
                f"Column{_label(name)} has values of {longest:,} characters; a hierarchy has at "
                f"most {MAX_HIERARCHY_LEVELS} levels: give 'height' (the level that is *, at "
                f"most {MAX_HIERARCHY_LEVELS - 1}) or choose another hierarchy."
            )
    lengths = text.str.len().to_numpy()
    levels = []
    for masked in range(1, longest):  # one vectorised pass per level, none per value
        kept = text.str.slice(stop=-masked)  # "" for a value of `masked` characters or fewer
        covers = np.array([char * n for n in range(masked + 1)], dtype=object)
        cover = pd.Series(covers[np.minimum(lengths, masked)], index=text.index, dtype="str")
        levels.append((kept + cover).to_numpy(dtype=object))
    return _from_columns(text, levels, name)


def grouping_hierarchy(
    values: Iterable[object],
    mappings: Mapping[str, str] | Sequence[Mapping[str, str]],
    *,
    other: str | None = None,
    name: str | None = None,
) -> Hierarchy:
    """Categories into groups from small mappings, then ``*`` (PDPC guide, Annex A:
    Generalisation, e.g. an address into a zone).

    ``mappings`` is one mapping ``value -> group`` or a list of them, each applied to the
    previous level (``[{"Tamil": "Indian languages"}, {"Indian languages": "Asian"}]``).
    A value a mapping does not list stays as it is, or becomes ``other`` when given.
    """
    text = _distinct_text(values)
    if isinstance(mappings, Mapping):
        mappings = [mappings]
    if not mappings:
        raise ParameterError("Parameter 'mappings' needs at least one value -> group mapping.")
    levels = []
    current = text.tolist()
    for mapping in mappings:
        mapping = {str(k): str(v) for k, v in mapping.items()}
        current = [mapping.get(v, v if other is None else other) for v in current]
        levels.append(current)
    return _from_columns(text, levels, name)


HIERARCHY_KINDS = ("numeric", "dates", "masking", "grouping", "suppress")


def build_hierarchy(series: pd.Series, kind: str = "auto", **params: object) -> Hierarchy:
    """Build a hierarchy for a column with one of the builders (``kind`` in
    numeric, dates, masking, grouping, suppress; ``params`` go to the builder).

    ``"auto"`` picks: numbers -> intervals of width 5, 10, 20, 40 times a power of ten
    suited to the range (ages get 5, 10, 20, 40); digit codes of one length of 3 or more
    (postal codes) -> masking; anything else -> ``suppress`` (the value or ``*``).
    """
    name = str(series.name) if series.name is not None else None
    if kind == "auto":
        kind = _auto_kind(series)
        if kind == "numeric" and "widths" not in params:
            numbers = pd.to_numeric(series, errors="coerce").dropna()
            span = float(numbers.max() - numbers.min()) if len(numbers) else 0.0
            base = 5 * 10 ** math.floor(math.log10(span / 20)) if span > 20 else 1
            params = {**params, "widths": (base, 2 * base, 4 * base, 8 * base)}
    require_choice("kind", kind, HIERARCHY_KINDS)
    if kind == "numeric":
        return numeric_hierarchy(series, name=name, **params)  # type: ignore[arg-type]
    if kind == "dates":
        return date_hierarchy(series, name=name, **params)  # type: ignore[arg-type]
    if kind == "masking":
        return masking_hierarchy(series, name=name, **params)  # type: ignore[arg-type]
    if kind == "grouping":
        return grouping_hierarchy(series, name=name, **params)  # type: ignore[arg-type]
    return _from_columns(_distinct_text(series), [], name)


def _auto_kind(series: pd.Series) -> str:
    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
        return "numeric"
    text = as_text(series).dropna()
    lengths = text.str.len()
    digits = len(text) and text.str.fullmatch(r"\d+").all()
    if digits and lengths.nunique() == 1 and int(lengths.iloc[0]) >= 3:
        return "masking"
    return "suppress"


def _label(name: str | None) -> str:
    return f" {name!r}" if name else ""


def _first_true(mask: pd.DataFrame) -> tuple[int, int]:
    rows, cols = mask.to_numpy().nonzero()
    order = (rows * mask.shape[1] + cols).argmin()
    return int(rows[order]), int(cols[order])
