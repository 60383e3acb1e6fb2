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

import os
from dataclasses import dataclass
from typing import IO

import pandas as pd

from core._text import as_text
from core.errors import DataReadError, ParameterError
from core.validation import require_int


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
        stay missing. A value absent from the hierarchy raises :class:`ParameterError`
        naming the first such value and its row. PDPC guide, Annex A: Generalisation.
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
        if missing.any():
            row = int(missing.to_numpy().nonzero()[0][0])
            column = f" in column '{series.name}'" if series.name is not None else ""
            raise ParameterError(
                f"The value {text.iloc[row]!r}{column} (row {row + 1}) is not in hierarchy"
                f"{_label(self.name)} ({int(missing.sum())} row(s) affected). Add it to the "
                "hierarchy file, or clean the column first."
            )
        return out.astype("str").rename(series.name)


def read_hierarchy(
    path_or_buffer: str | os.PathLike[str] | IO[str] | IO[bytes], *, sep: str = ";"
) -> Hierarchy:
    """Read an ARX-format hierarchy file (no header, ``value;level1;...;*``).

    Cells are read as text exactly as written ("NA" stays the text "NA").
    PDPC guide, Annex A: Generalisation.
    """
    name = os.fspath(path_or_buffer) if isinstance(path_or_buffer, str | os.PathLike) else None
    try:
        levels = pd.read_csv(
            path_or_buffer,
            sep=sep,
            header=None,
            dtype=str,
            keep_default_na=False,
            skip_blank_lines=True,
        )
    except FileNotFoundError as error:
        raise DataReadError(f"Hierarchy file {name!r} does not exist. Check the path.") from error
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise DataReadError(
            f"Could not read hierarchy file{_label(name)}: {error}. A hierarchy is a text file "
            f"with one line per value, cells separated by {sep!r}, no header."
        ) from error
    levels = levels.replace("", pd.NA) if (levels == "").any().any() else levels
    return Hierarchy(levels, name=name)


def write_hierarchy(h: Hierarchy, path: str | os.PathLike[str], *, sep: str = ";") -> None:
    """Write ``h`` in the ARX format read by :func:`read_hierarchy` (no header, no index)."""
    h.levels.to_csv(path, sep=sep, header=False, index=False)


def _label(name: str | None) -> str:
    return f" {name!r}" if name else ""


def _first_true(mask: pd.DataFrame) -> tuple[int, int]:
    rows, cols = mask.to_numpy().nonzero()
    order = (rows * mask.shape[1] + cols).argmin()
    return int(rows[order]), int(cols[order])
