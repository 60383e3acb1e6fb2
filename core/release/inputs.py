"""What a release is judged, reported and recorded by, in the groups that travel together.

The release gate (:func:`core.release.gate.check_release`), the report
(:func:`core.release.report.build_report`) and the record
(:func:`core.release.record.record_release`) each took fifteen to nineteen loose
parameters, most of them the same few facts passed three times: the columns' roles, the
targets the release must meet, what the recipe decided, what an engine counted. Each group
is one frozen dataclass here, its fields keyword-only with the defaults the parameters had,
so a caller builds it once (:mod:`core.release.pipeline`) and hands the same object on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

if TYPE_CHECKING:  # annotations only: the report's figures
    from core.risk import RiskReport
    from core.roles import Suggestion
    from core.utility import UtilityReport


@dataclass(frozen=True, kw_only=True)
class ReleaseRoles:
    """The columns' roles a release is judged and reported by (PDPC guide, Step 1).

    ``quasi_identifiers`` and ``sensitive`` name columns of the original table (None: the
    report takes the recipe's quasi-identifiers; the gate reports that none are named);
    ``direct_identifiers`` are the columns Step 1 classified as direct identifiers.
    """

    quasi_identifiers: Sequence[str] | None = None
    direct_identifiers: Sequence[str] = ()
    sensitive: str | None = None


@dataclass(frozen=True, kw_only=True)
class RiskTargets:
    """What the released table must meet (PDPC guide, Step 4; Annex D).

    ``k_target`` the smallest class size; ``annex_d`` the keyword settings of
    :func:`core.risk.annex_d_risk` (controls, motivation, ...), whose threshold P(re-ID)
    must stay within; ``l_target`` and ``t_target`` l-diversity and t-closeness of the
    sensitive column; ``targets`` the recipe's section of privacy-model targets
    (:mod:`core.release.targets`).
    """

    k_target: int | None = None
    annex_d: Mapping[str, Any] | None = None
    l_target: int | None = None
    t_target: float | None = None
    targets: Mapping[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class ReleaseDecisions:
    """What was decided about the columns, read by the gate besides the figures.

    ``recipe_steps`` the recipe's steps (which column is removed, pseudonymised or kept in
    another form); ``suggestions`` Step 1's suggestions on the original (or a sample of
    it); ``not_quasi_identifiers`` the recipe's reason for each column Step 1 doubts that
    it does not count; ``reviewed_text`` who read which redacted free-text column.
    """

    recipe_steps: Sequence[Mapping[str, Any]] | None = None
    suggestions: Sequence[Suggestion] | None = None
    not_quasi_identifiers: Mapping[str, str] | None = None
    reviewed_text: Mapping[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class StreamedFacts:
    """What an engine counted while it wrote a release too large for memory
    (:mod:`core.engines.streaming`); all None for a table in memory.

    ``counts`` the records behind each row of the released frequency table; ``changed``
    whether any record or column differs from the original; ``identifiers_left`` the
    direct identifiers that still hold an original value; ``sample`` the first rows Step 1
    read.
    """

    counts: np.ndarray | None = None
    changed: bool | None = None
    identifiers_left: Sequence[str] | None = None
    sample: pd.DataFrame | None = None


@dataclass(frozen=True, kw_only=True)
class ReleaseFigures:
    """Figures of a release its caller has already (the dashboard's cached ones, an
    engine's counts), so the report does not compute them again; None: computed.

    ``frequency_before`` / ``frequency_after`` are an engine's frequency tables of the
    quasi-identifiers (and sensitive column) with their counts, the tables not being held.
    """

    risk_before: RiskReport | None = None
    risk_after: RiskReport | None = None
    utility: UtilityReport | None = None
    formula_like_cells: dict[str, int] | None = None
    frequency_before: tuple[pd.DataFrame, np.ndarray] | None = None
    frequency_after: tuple[pd.DataFrame, np.ndarray] | None = None


@dataclass(frozen=True, kw_only=True)
class ReleaseSource:
    """The data set a release was made from, as the workspace knows it.

    ``path`` the file read (None: an upload); ``sha256`` its digest when the caller has it
    (an upload's bytes, an engine's files), else that of the file at ``path``; ``rows``
    the record count when the table is not held (an engine); ``files`` each file's path
    and sha256 when an engine read several.
    """

    path: str | Any | None
    sha256: str | None = None
    rows: int | None = None
    files: Sequence[tuple[str, str]] | None = None


@dataclass(frozen=True, kw_only=True)
class ReleasedFile:
    """The released table's file: its name, and its bytes or (staged in a file) their sha256."""

    name: str
    content: bytes | None
    sha256: str | None = None


@dataclass(frozen=True, kw_only=True)
class EngineRun:
    """How an engine made a release, so ``verify`` can make it again the same way.

    ``released_counts`` the frequency table of the released quasi-identifiers (and
    sensitive column) with its counts; ``block_rows`` the rows of each block it streamed
    (seeded steps draw per block).
    """

    engine: str = "pandas"
    block_rows: int | None = None
    released_counts: tuple[pd.DataFrame, np.ndarray] | None = None
