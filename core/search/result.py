"""What a search returns: :class:`Candidate` (one node with its figures) and
:class:`SearchResult` (the optimum and the frontier). Plain data with their own words (a
table, an explanation), read by the command line, the Trade-offs page and local recoding
long after the lattice that produced them is gone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from core.search.measures import MEASURES
from core.search.target import Target


@dataclass(frozen=True)
class Candidate:
    """One node of the lattice: a level per quasi-identifier, with its figures."""

    levels: Mapping[str, int]
    k: int  # smallest class among the kept records
    classes: int  # kept classes
    suppressed: int
    share_suppressed: float
    max_risk: float  # 1 / k, prosecutor risk (Annex D)
    p_reid: float | None
    measures: Mapping[str, float]
    column_loss: Mapping[str, float]  # loss metric per quasi-identifier
    # On the kept classes: smallest distinct l and exp(entropy), largest EMD (t), delta,
    # beta and alpha of the sensitive attribute (empty without one).
    sensitive_figures: Mapping[str, float] = field(default_factory=dict)
    # Whole-table figures of the released classes: average risk (classes / records) and,
    # with a population size, the estimated population uniqueness.
    table_figures: Mapping[str, float] = field(default_factory=dict)

    def label(self) -> str:
        return " ".join(f"{c}:{lvl}" for c, lvl in self.levels.items())


@dataclass(frozen=True)
class AloneColumn:
    """A quasi-identifier that fails k on its own at every level short of ``*``: even at
    ``level`` (its coarsest but ``*``) ``small`` of the ``records`` are in groups smaller
    than ``k`` on this column alone (``unique`` of them alone in theirs), more than may be
    removed, so every solution generalises it to ``*``. A column that singles out nearly
    everyone by itself is a direct identifier rather than a quasi-identifier (PDPC guide,
    Step 1: direct identifiers are "unique to an individual")."""

    column: str
    level: int
    small: int
    unique: int
    records: int
    k: int

    def words(self) -> str:
        """The finding in a sentence, with the figures."""
        level = "" if self.level == 0 else " even at its coarsest level short of '*'"
        if self.unique == self.records:
            what = f"singles out everyone ({self.unique:,} of {self.records:,} records unique)"
        elif self.unique >= 0.9 * self.records:
            what = (
                f"singles out nearly everyone ({self.unique:,} of {self.records:,} records unique)"
            )
        else:
            what = (
                f"leaves {self.small:,} of {self.records:,} records in groups smaller than "
                f"k = {self.k} ({self.unique:,} unique)"
            )
        return (
            f"'{self.column}' alone {what}{level} until it is generalised to '*'; consider "
            "removing it as a direct identifier."
        )


@dataclass(frozen=True)
class SearchResult:
    """The optimum under ``measure`` and the frontier (all minimal solutions)."""

    quasi_identifiers: tuple[str, ...]
    target: Target
    measure: str
    optimum: Candidate | None
    frontier: tuple[Candidate, ...]
    method: str  # "exact", "exhaustive" or "greedy"
    lattice_size: int
    evaluated: int  # node evaluations (one bincount each)
    solutions: int  # nodes meeting the target (exact search only; -1 for greedy)
    seconds: float
    monotone: bool  # whether the whole target pruned in both directions
    note: str = ""
    gs_factor: float = 0.5  # ARX's weighting of the arx_* measures (core.search.measures)
    weights: Mapping[str, float] = field(default_factory=dict)
    # Quasi-identifiers that fail k on their own short of "*" (AloneColumn).
    alone: tuple[AloneColumn, ...] = ()
    # Stopped before the end (core.search.watch): the optimum is the best found so far.
    stopped: bool = False

    def stopped_words(self) -> str:
        """The label of a stopped search's answer ("" when it ran to the end)."""
        if not self.stopped:
            return ""
        return (
            f"Stopped after {self.evaluated:,} of {self.lattice_size:,} nodes: the best found "
            "so far, possibly not the optimum."
        )

    def alone_words(self) -> str:
        """Each column that singles people out on its own, in a sentence ("" when none)."""
        return " ".join(finding.words() for finding in self.alone)

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """The frontier plus the optimum (when it is not on the frontier)."""
        if self.optimum is None or any(c.levels == self.optimum.levels for c in self.frontier):
            return self.frontier
        return (*self.frontier, self.optimum)

    def to_frame(self) -> pd.DataFrame:
        """One row per candidate: levels, k, suppressed, risk and every measure."""
        rows = []
        for c in self.candidates:
            row: dict[str, Any] = {"candidate": c.label(), **dict(c.levels)}
            row.update(
                k=c.k,
                classes=c.classes,
                suppressed=c.suppressed,
                share_suppressed=c.share_suppressed,
                max_risk=c.max_risk,
            )
            if c.p_reid is not None:
                row["p_reid"] = c.p_reid
            row.update(c.table_figures)
            row.update(c.measures)
            row["optimum"] = self.optimum is not None and c.levels == self.optimum.levels
            rows.append(row)
        return pd.DataFrame(rows)

    def explanation(self) -> str:
        alone = f" {self.alone_words()}" if self.alone else ""
        label = f"{self.stopped_words()} " if self.stopped else ""
        if self.optimum is None and self.stopped:
            return f"{label}No solution was found before the stop.{alone}"
        if self.optimum is None:
            return (
                f"No combination of generalisation levels meets {self.target.describe()}; "
                f"allow more suppression, lower the target or add coarser levels.{alone}"
            )
        o = self.optimum
        figures = (
            f"({self.measure} = {o.measures[self.measure]:.4g}, {o.suppressed} record(s) "
            "suppressed)"
        )
        if self.stopped:
            return (
                f"{label}The solution of least {MEASURES[self.measure].split(':')[0]}"
                f"{self.weighting()} found meeting {self.target.describe()} is {o.label()} "
                f"{figures}.{alone}"
            )
        return (
            f"The least {MEASURES[self.measure].split(':')[0]}{self.weighting()} that meets "
            f"{self.target.describe()} is {o.label()} {figures}; "
            f"{len(self.frontier)} minimal solution(s) found by the {self.method} search."
            f"{alone}"
        )

    def weighting(self) -> str:
        """ARX's gsFactor and weights in words, when they differ from ARX's defaults and the
        measure uses them ("" otherwise)."""
        if not self.measure.startswith(("arx_loss", "arx_entropy")):
            return ""
        parts = [] if self.gs_factor == 0.5 else [f"gsFactor {self.gs_factor:g}"]
        given = [self.weights.get(c, 0.5) for c in self.quasi_identifiers]
        if len(set(given)) > 1:  # equal weights change nothing (ARX divides by the largest)
            parts += [f"{c} weight {w:g}" for c, w in self.weights.items()]
        return f" ({', '.join(parts)})" if parts else ""
