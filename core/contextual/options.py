"""Options of a contextual release: the thresholds T1, T3, T5 and the coarsening grades.

Witkowski (2007), Section 3.b (assumptions 3-5), Section 3.d (defaults) and Section 4.b /
endnote 2 (absolute and percentile recoding). Kept apart because the data checks, the codes,
the risk measures and the recipe steps all read them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.errors import ParameterError
from core.validation import require_choice, require_int

#: The paper's default thresholds (Section 3.b, assumptions 3-5; Section 3.d).
T1_DEFAULT = 20
T3_DEFAULT = 3
T5_DEFAULT = 100_000

#: Absolute recoding grades compared in the paper (Section 4.b): width in percentage points.
ABSOLUTE_WIDTHS: tuple[int, ...] = (1, 5, 10, 15, 20)

#: Percentile recoding grades with the same number of categories (Table A-3, endnote 2).
PERCENTILE_GROUPS: tuple[int, ...] = (100, 20, 10, 7, 5)
TOP_BOTTOM = "top_bottom_25"
TOP_BOTTOM_LABELS = ("Bottom-25%", "Other", "Top-25%")
SCALES = ("auto", "percent", "proportion", "range")
METHODS = ("exact", "absolute", "percentile")


@dataclass(frozen=True)
class Thresholds:
    """T1, T3, T5 of the paper (Section 3.b assumptions, Section 3.d for the defaults)."""

    t1: int = T1_DEFAULT  # "geography population unique": areas in a matchset
    t3: int = T3_DEFAULT  # "person sample unique": respondents sharing contextual values
    t5: float = T5_DEFAULT  # "geographic unit population-size": people in the area

    def __post_init__(self) -> None:
        require_int("t1", self.t1, minimum=1)
        require_int("t3", self.t3, minimum=1)
        if isinstance(self.t5, bool) or not isinstance(self.t5, (int, float)) or self.t5 < 0:
            raise ParameterError(f"Parameter 't5' must be a population size >= 0, got {self.t5!r}.")


@dataclass(frozen=True)
class Coarsening:
    """One way of releasing the contextual values (Section 4.b; endnote 2).

    ``method``: ``"exact"`` (values as they are), ``"absolute"`` (``width`` = 1, 5, 10, 15,
    20 percentage points, or ``"top_bottom_25"``) or ``"percentile"`` (``groups`` = 10 for
    deciles..., or ``"top_bottom_25"`` for bottom quartile / middle / top quartile).
    """

    method: str = "exact"
    width: float | str | None = None
    groups: int | str | None = None

    def __post_init__(self) -> None:
        require_choice("method", self.method, METHODS)
        if self.method == "absolute":
            check_width(self.width)
        if self.method == "percentile":
            check_groups(self.groups)

    @property
    def label(self) -> str:
        """The paper's name for the grade: '10%', 'Top/Bottom-25%', 'deciles (10)'."""
        if self.method == "exact":
            return "exact values"
        grade = self.width if self.method == "absolute" else self.groups
        if grade == TOP_BOTTOM:
            return "Top/Bottom-25%"
        if self.method == "absolute":
            return f"{grade:g}%"
        return f"{grade} groups"

    @property
    def categories(self) -> int | None:
        """Categories per variable (the paper's "metric spaces", Section 4.b)."""
        if self.method == "exact":
            return None
        grade = self.width if self.method == "absolute" else self.groups
        if grade == TOP_BOTTOM:
            return 3
        return math.ceil(100 / float(grade)) if self.method == "absolute" else int(grade)


def check_width(width: object) -> None:
    """Raise a ParameterError unless ``width`` is an absolute-recoding grade (Section 4.b)."""
    if width == TOP_BOTTOM:
        return
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not 0 < width <= 100:
        raise ParameterError(
            f"Parameter 'width' must be a category width in percentage points between 0 and 100 "
            f"(the paper uses 1, 5, 10, 15, 20) or {TOP_BOTTOM!r}, got {width!r}."
        )


def check_groups(groups: object) -> None:
    """Raise a ParameterError unless ``groups`` is a percentile-recoding grade (endnote 2)."""
    if groups == TOP_BOTTOM:
        return
    require_int("groups", groups, minimum=2)


def sweep_options() -> list[Coarsening]:
    """The options of the paper's experiment (Section 4.b, Table A-3), finest first."""
    options = [Coarsening("exact")]
    options += [Coarsening("absolute", width=w) for w in (*ABSOLUTE_WIDTHS, TOP_BOTTOM)]
    options += [Coarsening("percentile", groups=g) for g in (*PERCENTILE_GROUPS, TOP_BOTTOM)]
    return options
