"""Local recoding of the records a global generalisation would suppress (issue 13).

PDPC guide, Annex A (Generalisation, Record suppression) and Annex C (k-anonymity). A
global solution of :func:`core.search.search` generalises every record to the same levels
and removes the records of the classes that fail the target's privacy models. Those
records are lost for good. *Local recoding* gives them a second chance, as ARX's
``ARXResult.optimize`` / ``optimizeIterativeFast`` do (org.deidentifier.arx, read at
commit aacd487): the suppressed records alone are searched again, and released at the
levels of that second search where their classes now meet the models.

Exact semantics (what :func:`release_locally` does; the recipe step replays it):

1. Round 0: every record is generalised to the global levels. Records in a class that
   fails the models (computed over all records, as in :func:`core.search.apply_candidate`)
   are *remaining*; the others are released at the global levels.
2. Round i = 1, 2, ...: only the remaining records are generalised to round i's levels and
   grouped among themselves; the records of classes that meet the models (computed on the
   remaining records alone: their k, their l; t, delta and beta against the remaining
   records' own distribution, as ARX's models cloned for the subset do) are released at
   round i's levels; the rest stay remaining.
3. After the last round the remaining records are suppressed (removed).
4. Release check: the released records are grouped by what a reader sees (the text of
   every quasi-identifier, whatever round produced it: a record recoded in a later round
   can look like a record of an earlier one). Every released class must meet *all* the
   target's models, t, delta and beta against the whole input table as in the global
   search. A class that fails loses its records of rounds >= 1 (suppressed); what is left
   of it is exactly a class of the global solution, which met the models. So every
   released class meets the models, and fewer records are suppressed than by the global
   solution alone (never more).

How the rounds' levels are chosen (:func:`recode_suppressed`): round i runs
:func:`core.search.search` on the remaining records with the same models and measure.
Its suppression limit is either the target's (ARX ``optimize``, ``step_share=None``) or
``1 - step_share * n / remaining`` (clipped to [0, 1]; ARX ``optimizeFast(records)``:
each round must release at least ``step_share`` of the whole table, or every remaining
record). Each round's search weighs generalisation against suppression with
``gs_factor`` (ARX's gsFactor of ``optimize(handle, gsFactor)``, for the ``arx_loss``
measure; :func:`core.search.search`). Rounds continue, as ARX's ``optimizeIterative`` and
``optimizeIterativeFast``, until a round releases nothing, fewer records remain than the
smallest class the models allow (ARX's minimal group size: k, and ceil(l)), or
``max_rounds`` searches are done. With an ``adaption`` factor > 0 (ARX
``optimizeIterative(handle, gsFactor, maxIterations, adaptionFactor)``), a round that
releases nothing raises the gsFactor by it and the search is tried again, until the
gsFactor would pass 1: a low gsFactor makes suppression cheap, so a round may prefer
removing every remaining record; a higher one makes it generalise them instead.

The loss before and after are measured on the released table under ``measure``
(:data:`LOCAL_MEASURES`; per record, each at its own levels, suppressed records as in
:mod:`core.search`). Local recoding is kept only when it lowers that loss; otherwise the
result is the global solution unchanged (no rounds). For ``loss``, ``arx_loss``,
``precision`` and ``entropy`` a released record never costs more than a suppressed one,
so any recoded record lowers the loss; discernibility can rise when recoded records join a
large class.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.measures.codes import combined_codes
from core.measures.models.class_models import ClassModels, failing_records
from core.progress import ProgressFn
from core.search.measures import arx_geometric_loss
from core.search.model_checks import suppression_step
from core.search.preparation import prepare_column
from core.search.result import Candidate
from core.search.run import search
from core.search.target import Target
from core.validation import require_choice, require_columns, require_int, require_probability

#: Measures of a locally recoded table (each record at its own levels; lower is better).
LOCAL_MEASURES: dict[str, str] = {
    "loss": "average loss: Iyengar's loss per value, averaged over records and columns",
    "arx_loss": "ARX loss: Iyengar's loss per column, combined geometrically as ARX 3.9 does",
    "precision": "precision loss: level / height per value",
    "entropy": "non-uniform entropy, bits per record, suppressed records charged as '*'",
    "discernibility": "sum of squared class sizes, n per suppressed record",
}


@dataclass(frozen=True)
class LocalRecodingResult:
    """The released table and what local recoding changed (see the module docstring)."""

    data: pd.DataFrame  # the released table (suppressed records removed, index kept)
    global_levels: Mapping[str, int]
    rounds: tuple[Mapping[str, int], ...]  # levels of rounds 1, 2, ... (kept rounds only)
    released_per_round: tuple[int, ...]  # records released in round 0, 1, 2, ...
    n: int
    suppressed_before: int  # by the global solution alone
    suppressed_after: int
    measure: str
    loss_before: float
    loss_after: float
    models: ClassModels
    note: str = ""

    @property
    def kept(self) -> int:
        """Records released by local recoding that the global solution suppressed."""
        return self.suppressed_before - self.suppressed_after

    @property
    def level_rounds(self) -> tuple[Mapping[str, int], ...]:
        """Global levels first, then each round's: what :func:`release_locally` replays."""
        return (self.global_levels, *self.rounds)

    def explanation(self) -> str:
        """The result in plain words."""
        what = LOCAL_MEASURES[self.measure].split(":")[0]
        if not self.rounds:
            reason = self.note or "no second search on them met the target."
            return (
                f"Local recoding kept none of the {self.suppressed_before:,} records (of "
                f"{self.n:,}) the global solution suppresses: {reason}"
            )
        change = self.loss_after - self.loss_before
        share = change / self.loss_before if self.loss_before else 0.0
        return (
            f"Local recoding kept {self.kept:,} of the {self.suppressed_before:,} records the "
            f"global solution suppresses ({self.suppressed_after:,} still suppressed, "
            f"{len(self.rounds)} recoding round(s)); the {what} went from "
            f"{self.loss_before:.4g} to {self.loss_after:.4g} ({share:+.1%}). Every released "
            f"class still meets {self.models.describe()}."
        )

    def recipe_step(self, hierarchy_paths: Mapping[str, str | Path]) -> dict[str, Any]:
        """The ``recode_locally`` recipe step that replays this result byte for byte."""
        return recode_step(self.level_rounds, hierarchy_paths, self.models)


def recode_step(
    level_rounds: Sequence[Mapping[str, int]],
    hierarchy_paths: Mapping[str, str | Path],
    models: ClassModels,
) -> dict[str, Any]:
    """Recipe step ``recode_locally``: hierarchies by file, the levels of every round (the
    global levels first) and the privacy models (as in ``suppress_records``)."""
    qis = list(level_rounds[0])
    missing = [c for c in qis if c not in hierarchy_paths]
    if missing:
        raise ParameterError(f"No hierarchy file given for column '{missing[0]}'.")
    suppression = suppression_step(
        models, qis, t_hierarchy_path=hierarchy_paths.get(models.sensitive or "")
    )
    models_part = {
        k: v for k, v in suppression.items() if k not in ("step", "below_k", "quasi_identifiers")
    }
    return {
        "step": "recode_locally",
        "hierarchies": {c: str(hierarchy_paths[c]) for c in qis},
        "rounds": [[int(levels[c]) for c in qis] for levels in level_rounds],
        "k": int(models.k),
        **models_part,
    }


# --- the release of given rounds (what the recipe step replays) --------------------------


def _check_rounds(
    df: pd.DataFrame, hierarchies: Mapping[str, Hierarchy], level_rounds: Sequence[Mapping]
) -> list[str]:
    if not level_rounds:
        raise ParameterError("Local recoding needs at least the global levels (one round).")
    qis = list(level_rounds[0])
    require_columns(df, qis, parameter="quasi_identifiers")
    for position, levels in enumerate(level_rounds):
        if list(levels) != qis:
            raise ParameterError(
                f"Round {position} gives levels for {sorted(levels)}; every round needs one "
                f"level for each of {qis}, in the same order."
            )
        for column, level in levels.items():
            if column not in hierarchies:
                raise ParameterError(f"No hierarchy given for column '{column}'.")
            height = hierarchies[column].height
            require_int(f"level of '{column}' in round {position}", level, minimum=0)
            if level > height:
                raise ParameterError(
                    f"Round {position}: level {level} of '{column}' is above its hierarchy's "
                    f"height {height}."
                )
    return qis


def _generalised(df: pd.DataFrame, hierarchies, levels: Mapping[str, int]) -> pd.DataFrame:
    out = df.copy()
    for column, level in levels.items():
        if level > 0:
            out[column] = hierarchies[column].generalise(df[column], level)
    return out


def release_rounds(
    df: pd.DataFrame,
    hierarchies: Mapping[str, Hierarchy],
    level_rounds: Sequence[Mapping[str, int]],
    models: ClassModels,
) -> np.ndarray:
    """Round in which each record is released (-1: suppressed), steps 1-4 of the module
    docstring. One pass per round over the remaining records (vectorised within)."""
    _check_rounds(df, hierarchies, level_rounds)
    before_check = np.full(len(df), -1, dtype=np.int64)
    for position, levels in enumerate(level_rounds):
        before_check = _release_round(df, hierarchies, levels, position, before_check, models)
    return _checked(df, hierarchies, level_rounds, before_check, models)


def _release_round(df, hierarchies, levels, position: int, round_of, models) -> np.ndarray:
    """Steps 1-2 for one round: the records still at -1 whose classes among themselves
    meet the models at ``levels`` get ``position`` (a new array)."""
    round_of = round_of.copy()
    remaining = np.flatnonzero(round_of < 0)
    if remaining.size:
        subset = _generalised(df.iloc[remaining], hierarchies, levels)
        passing = ~failing_records(subset, list(levels), models)
        round_of[remaining[passing]] = position
    return round_of


def _checked(df, hierarchies, level_rounds, round_of, models) -> np.ndarray:
    """Step 4, the release check, on the rounds' result (a new array)."""
    round_of = round_of.copy()
    if len(level_rounds) > 1:
        round_of[_failing_after_merge(df, hierarchies, level_rounds, round_of, models)] = -1
    return round_of


def _released_text(df, hierarchies, level_rounds, round_of, qis) -> pd.DataFrame:
    """Quasi-identifiers as a reader sees them: the text at each record's own round."""
    columns = {}
    for column in qis:
        levels = np.array([levels[column] for levels in level_rounds])
        if (levels == levels[0]).all():
            text = as_text(_generalised(df[[column]], hierarchies, {column: levels[0]})[column])
        else:
            text = pd.Series(pd.NA, index=df.index, dtype="str")
            for level in np.unique(levels):
                rows = np.isin(round_of, np.flatnonzero(levels == level))
                part = df[column].iloc[rows]
                text.iloc[rows] = hierarchies[column].generalise(part, int(level)).to_numpy()
        columns[column] = text
    return pd.DataFrame(columns, index=df.index)


def _failing_after_merge(df, hierarchies, level_rounds, round_of, models) -> np.ndarray:
    """Records of rounds >= 1 in a released class (grouped by text) that fails the models,
    t/delta/beta measured against the whole input table (step 4)."""
    qis = list(level_rounds[0])
    table = _released_text(df, hierarchies, level_rounds, round_of, qis)
    # Suppressed records stay in the table (they belong to the reference distribution) but
    # in classes of their own, marked by a column whose name is not a quasi-identifier.
    marker = "released" + "_" * (1 + max(len(str(c)) for c in df.columns))
    table[marker] = round_of >= 0
    if models.uses_sensitive:
        table[models.sensitive] = df[models.sensitive].to_numpy()
    fail = failing_records(table.reset_index(drop=True), [*qis, marker], models)
    return fail & (round_of >= 1)


def release_locally(
    df: pd.DataFrame,
    hierarchies: Mapping[str, Hierarchy],
    level_rounds: Sequence[Mapping[str, int]],
    *,
    models: ClassModels,
) -> pd.DataFrame:
    """The released table of local recoding with the given rounds (global levels first):
    each record's quasi-identifiers at its round's levels, suppressed records removed,
    original order and index labels kept. With one round it equals
    :func:`core.search.apply_candidate`. Semantics in the module docstring."""
    round_of = release_rounds(df, hierarchies, level_rounds, models)
    return _released_table(df, hierarchies, level_rounds, round_of)


def _released_table(df, hierarchies, level_rounds, round_of: np.ndarray) -> pd.DataFrame:
    if len(level_rounds) == 1:
        out = _generalised(df, hierarchies, level_rounds[0])
    else:
        out = df.copy()
        qis = list(level_rounds[0])
        text = _released_text(df, hierarchies, level_rounds, round_of, qis)
        for column in qis:
            if any(levels[column] for levels in level_rounds):
                out[column] = text[column]
    return out.loc[round_of >= 0]


# --- loss of a released table, each record at its own levels ----------------------------


def local_loss(
    df: pd.DataFrame,
    hierarchies: Mapping[str, Hierarchy],
    level_rounds: Sequence[Mapping[str, int]],
    round_of: np.ndarray,
    measure: str,
) -> float:
    """``measure`` (:data:`LOCAL_MEASURES`) of the table in which record i is released at
    the levels of round ``round_of[i]`` (-1: suppressed). With one round it equals the
    figure of :func:`core.search.search` for that node."""
    require_choice("measure", measure, LOCAL_MEASURES)
    qis = list(level_rounds[0])
    n = len(df)
    suppressed = round_of < 0
    if measure == "discernibility":
        table = _released_text(df, hierarchies, level_rounds, round_of, qis)
        cls, n_classes = combined_codes(table.loc[~suppressed], qis)
        sizes = np.bincount(cls, minlength=n_classes).astype(float)
        return float((sizes**2).sum() + suppressed.sum() * n)
    level_table = np.array([[levels[c] for c in qis] for levels in level_rounds])
    record_round = np.where(suppressed, 0, round_of)
    per_column, entropy = np.zeros((n, len(qis))), np.zeros(n)
    for i, column in enumerate(qis):
        prepared = prepare_column(df[column], hierarchies[column])
        level = level_table[record_round, i]
        values = prepared.value_codes
        if measure in ("loss", "arx_loss"):
            per_column[:, i] = np.stack(prepared.value_loss)[level, values]
        elif measure == "precision":
            per_column[:, i] = level / max(prepared.height, 1)
        else:  # entropy: suppressed records as if generalised to '*' in the whole table
            per_value = np.stack(prepared.value_entropy)[level, values]
            entropy += np.where(suppressed, prepared.value_max_entropy[values], per_value)
    if measure == "entropy":
        return float(entropy.sum() / max(n, 1))
    per_column[suppressed] = 1.0
    if measure == "arx_loss":
        return float(arx_geometric_loss(per_column.mean(axis=0)))
    return float(per_column.mean())


# --- the search for each round's levels ---------------------------------------------------


def _minimal_group(models: ClassModels) -> int:
    """Fewest records that can form a passing class (ARX's minimal group size)."""
    l_part = math.ceil(models.l - 1e-9) if models.l is not None else 1
    return max(models.k, l_part)


def recode_suppressed(
    df: pd.DataFrame,
    hierarchies: Mapping[str, Hierarchy],
    target: Target,
    candidate: Candidate | None = None,
    *,
    measure: str = "loss",
    step_share: float | None = None,
    max_rounds: int = 100,
    progress: ProgressFn | None = None,
    gs_factor: float = 0.5,
    adaption: float = 0.0,
) -> LocalRecodingResult:
    """Release, by local recoding, records that the global solution ``candidate`` (found by
    :func:`core.search.search` when not given) suppresses; see the module docstring for the
    exact semantics. ``measure`` drives each round's search and the before/after figures.
    ``step_share`` (ARX ``optimizeIterativeFast(records)``): each round must release at
    least this share of the whole table (or every remaining record); None: each round
    keeps the target's suppression limit (ARX ``optimize``). ``gs_factor``: ARX's weighting
    of each round's search; ``adaption``: added to it when a round releases nothing (ARX's
    adaption factor; 0 stops there). ``max_rounds`` counts every search, as ARX's
    ``maxIterations`` does."""
    require_choice("measure", measure, LOCAL_MEASURES)
    max_rounds = require_int("max_rounds", max_rounds, minimum=0)
    if step_share is not None and require_probability("step_share", step_share) == 0:
        raise ParameterError("Parameter 'step_share' must be greater than 0 (or None).")
    gs_factor = require_probability("gs_factor", gs_factor)
    adaption = require_probability("adaption", adaption)
    if target.population_table is not None:
        raise ParameterError(
            "Local recoding cannot be used with k-map against a population table: a round's "
            "records would need the population of their own classes (ARX's KMap with a "
            "research subset does not support local recoding either)."
        )
    report = progress or (lambda fraction, message: None)
    if candidate is None:
        optimum = search(df, hierarchies, target, measure=measure).optimum
        if optimum is None:
            raise ParameterError(
                f"No generalisation meets {target.describe()}: there is no global solution "
                "whose suppressed records could be recoded."
            )
        candidate = optimum
    models = target.models
    global_levels = {c: int(level) for c, level in candidate.levels.items()}
    level_rounds: list[Mapping[str, int]] = [global_levels]
    round_of = release_rounds(df, hierarchies, level_rounds, models)
    n, suppressed_before = len(df), int((round_of < 0).sum())
    note = ""
    # Rounds go on from the records no round released (step 3); the release check (step 4)
    # is applied to the whole result after each round, as a replay would.
    before_check = round_of
    searches = 0
    while searches < max_rounds:
        searches += 1
        remaining = np.flatnonzero(before_check < 0)
        if remaining.size < max(_minimal_group(models), 1):
            note = note or (
                f"fewer records remain than the smallest class allowed ({_minimal_group(models)})."
            )
            break
        limit = target.max_suppressed
        if step_share is not None:
            limit = float(np.clip(1 - step_share * n / remaining.size, 0.0, 1.0))
        report(
            len(level_rounds) / (max_rounds + 1),
            f"round {len(level_rounds)}: searching {remaining.size:,} suppressed records",
        )
        sub_target = dataclasses.replace(target, max_suppressed=limit)
        found = search(
            df.iloc[remaining], hierarchies, sub_target, measure=measure, gs_factor=gs_factor
        ).optimum
        # ARX also weighs removing every remaining record (allowed when the limit is 100%):
        # at the lowest levels each column then loses the suppression factor min(2 gsFactor,
        # 1) (ARX's loss: share + s (1 - share), rescaled), so a low gsFactor makes that the
        # round's optimum and it releases nothing.
        everything = min(2 * gs_factor, 1.0)
        if (
            found is not None
            and limit >= 1
            and measure == "arx_loss"
            and (everything <= found.measures["arx_loss"])
        ):
            found = None
        released_any = False
        if found is None:
            note = "no generalisation of the remaining records met the target."
        else:
            levels = {c: int(found.levels[c]) for c in global_levels}
            trial = [*level_rounds, levels]
            trial_before = _release_round(
                df, hierarchies, levels, len(level_rounds), before_check, models
            )
            trial_round_of = _checked(df, hierarchies, trial, trial_before, models)
            released_any = (trial_round_of < 0).sum() < (round_of < 0).sum()
            note = "" if released_any else "the last search released no record."
        if released_any:
            level_rounds, before_check, round_of = trial, trial_before, trial_round_of
            continue
        # ARX optimizeIterative: nothing released, so raise the gsFactor and try again
        gs_factor += adaption
        if adaption == 0 or gs_factor > 1:
            break
    global_round_of = release_rounds(df, hierarchies, [global_levels], models)
    loss_before = local_loss(df, hierarchies, [global_levels], global_round_of, measure)
    loss_after = local_loss(df, hierarchies, level_rounds, round_of, measure)
    if len(level_rounds) > 1 and loss_after >= loss_before:
        note = f"recoding would not lower the {measure} ({loss_before:.4g} -> {loss_after:.4g})."
        level_rounds, round_of, loss_after = [global_levels], global_round_of, loss_before
    report(1.0, "done")
    released = np.bincount(round_of[round_of >= 0], minlength=len(level_rounds))
    return LocalRecodingResult(
        data=_released_table(df, hierarchies, level_rounds, round_of),
        global_levels=global_levels,
        rounds=tuple(level_rounds[1:]),
        released_per_round=tuple(int(r) for r in released),
        n=n,
        suppressed_before=suppressed_before,
        suppressed_after=int((round_of < 0).sum()),
        measure=measure,
        loss_before=loss_before,
        loss_after=loss_after,
        models=models,
        note=note,
    )


# --- the recipe step's technique ----------------------------------------------------------


def _hierarchy_of(df: pd.DataFrame, column: str, given: Hierarchy | Mapping) -> Hierarchy:
    """A hierarchy as given, or built from the column by its rule (a recipient's recipe
    carries rules, not files listing original values: core.hierarchy_rules)."""
    if not isinstance(given, Mapping):
        return given
    from core.hierarchy_rules import HierarchyRule  # the builders: only a rule needs them

    require_columns(df, column, parameter="hierarchies")
    return HierarchyRule.from_mapping(given).build(df[column].dropna(), name=str(column))


def recode_locally(
    df: pd.DataFrame,
    *,
    hierarchies: Mapping[str, Hierarchy | Mapping[str, Any]],
    rounds: Sequence[Sequence[int]],
    k: int = 1,
    **models: Mapping[str, object] | None,
) -> pd.DataFrame:
    """Local recoding replayed (recipe step ``recode_locally``; PDPC guide, Annex A:
    Generalisation and Record suppression; Annex C). ``hierarchies`` maps each
    quasi-identifier to its hierarchy, in order; ``rounds`` lists one level per
    quasi-identifier for each round, the global levels first. ``models`` are the privacy
    models of :data:`core.measures.models.registry.CLASS_MODELS` (``l_diversity=``,
    ``t_closeness=``, ...), each given as :func:`core.techniques.suppression.
    suppress_failing_classes` takes it. Returns :func:`release_locally`'s table (semantics in
    this module's docstring); ``df`` is unchanged."""
    from core.techniques.suppression import class_models

    models = class_models(k=k, **models)
    hierarchies = {
        column: _hierarchy_of(df, column, given) for column, given in hierarchies.items()
    }
    qis = list(hierarchies)
    if isinstance(rounds, str | bytes) or not isinstance(rounds, Sequence) or not rounds:
        raise ParameterError("Parameter 'rounds' must be a list of level lists, global first.")
    level_rounds = []
    for position, levels in enumerate(rounds):
        if (
            isinstance(levels, str | bytes)
            or not isinstance(levels, Sequence)
            or (len(levels) != len(qis))
        ):
            raise ParameterError(
                f"Round {position} of 'rounds' must list {len(qis)} levels, one for each of "
                f"{qis}; got {levels!r}."
            )
        level_rounds.append(dict(zip(qis, levels, strict=True)))
    return release_locally(df, hierarchies, level_rounds, models=models)
