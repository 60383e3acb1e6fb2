"""The search itself: :func:`search` checks its inputs, builds the lattice and runs the
exact or the greedy traversal (PDPC guide, Step 3 and Annex C). The parts it brings
together are the other modules of :mod:`core.search`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from core.errors import ParameterError
from core.hierarchy import Hierarchy
from core.population_risk.kmap import check_sample_in_population
from core.progress import ProgressFn, no_progress
from core.search.lattice import Lattice
from core.search.measures import MEASURES
from core.search.result import AloneColumn, Candidate, SearchResult
from core.search.target import Target
from core.search.traversal import exact_search, greedy_search
from core.search.watch import SearchWatch, StopSearch
from core.validation import require_choice, require_columns

METHODS = ("auto", "exact", "greedy", "exhaustive")


def search(
    df: pd.DataFrame,
    hierarchies: Mapping[str, Hierarchy],
    target: Target,
    *,
    measure: str = "loss",
    method: str = "auto",
    max_nodes: int = 200_000,
    progress: ProgressFn | None = None,
    counts: np.ndarray | None = None,
    gs_factor: float = 0.5,
    weights: Mapping[str, float] | None = None,
    on_best: Callable[[SearchResult], None] | None = None,
    keep_best_on_interrupt: bool = False,
) -> SearchResult:
    """Find the generalisation levels that meet ``target`` with the least ``measure``.

    ``hierarchies`` maps each quasi-identifier to its hierarchy (the lattice has one level
    per quasi-identifier). ``method``: ``"exact"`` (pruned lattice search), ``"greedy"``
    (fallback, see :mod:`core.search.traversal`), ``"exhaustive"`` (every node evaluated, no
    pruning; for checks and benchmarks) or ``"auto"`` (exact up to ``max_nodes`` nodes).
    ``progress(fraction, message)`` is called as the search goes. ``counts``: ``df`` is a
    frequency table (:mod:`core.engines`), one row per distinct combination of the
    quasi-identifiers and the sensitive attribute, and ``counts[i]`` records have row i's
    values; the result is the search on those records. ``gs_factor`` and ``weights``:
    ARX's weighting of generalisation against suppression and of the quasi-identifiers, for
    the ``arx_*`` measures (:mod:`core.search.measures`). PDPC guide, Step 3 and Annex C.

    Stopping (:mod:`core.search.watch`): the progress text names the nodes checked of the
    lattice and the best solution so far; ``on_best(partial)`` gets, with each progress
    report once a solution is known, the result a stop now would return. When ``progress`` raises
    :class:`StopSearch` (or Ctrl-C is pressed and ``keep_best_on_interrupt``), the search
    returns the best found so far with ``stopped`` set: possibly not the optimum.
    """
    started = time.perf_counter()
    require_choice("measure", measure, MEASURES)
    require_choice("method", method, METHODS)
    if not hierarchies:
        raise ParameterError("Choose at least one quasi-identifier with a hierarchy.")
    require_columns(df, list(hierarchies), parameter="quasi_identifiers")
    if target.sensitive is not None:
        require_columns(df, target.sensitive, parameter="sensitive")
        if target.sensitive in hierarchies:
            raise ParameterError(
                f"'{target.sensitive}' cannot be both a quasi-identifier and the sensitive column."
            )
    if counts is not None:
        counts = np.asarray(counts, dtype=np.int64)
        if counts.shape != (len(df),) or (counts < 0).any():
            raise ParameterError(
                "Parameter 'counts' must give a record count >= 0 for every row of the table."
            )
    if len(df) == 0 or (counts is not None and counts.sum() == 0):
        raise ParameterError("The table is empty: there is nothing to search.")
    records = len(df) if counts is None else int(counts.sum())
    if target.population is not None and target.population < records:
        raise ParameterError(
            f"Parameter 'population' ({target.population:,.0f}) must be at least the number of "
            f"records ({records:,}): give the size of the population the table was drawn from."
        )
    if target.population_table is not None:
        check_sample_in_population(df, target.population_table, list(hierarchies), counts)
    lattice = Lattice(df, hierarchies, target, counts)
    lattice.set_weighting(gs_factor, weights)
    if method == "auto":
        method = "exact" if lattice.size <= max_nodes else "greedy"
    elif method in ("exact", "exhaustive") and lattice.size > max_nodes:
        raise ParameterError(
            f"The lattice has {lattice.size:,} nodes, more than max_nodes = {max_nodes:,}; use "
            "method='greedy', fewer quasi-identifiers, or shorter hierarchies."
        )
    given = dict(
        hierarchies=hierarchies,
        lattice=lattice,
        target=target,
        measure=measure,
        method=method,
        started=started,
        gs_factor=gs_factor,
        weights=weights,
        alone=lattice.alone(),
    )
    watch = SearchWatch(
        lattice,
        hierarchies,
        measure,
        progress or no_progress,
        on_best=None if on_best is None else lambda best: on_best(_stopped(best, **given)),
    )
    report = watch.report
    try:
        if method == "greedy":
            optimum, frontier, solutions = greedy_search(lattice, measure, report)
        else:
            optimum, frontier, solutions = exact_search(
                lattice, measure, report, method == "exhaustive"
            )
    except StopSearch:
        return _stopped(watch.update(), **given)
    except KeyboardInterrupt:
        if not keep_best_on_interrupt:
            raise
        return _stopped(watch.update(), **given)
    finally:
        lattice.on_solution = None
    if method == "greedy":
        note = (
            "Greedy fallback: a locally minimal solution, not guaranteed optimal; the "
            "frontier holds that node only."
        )
    else:
        note = (
            ""
            if lattice.monotone
            else (
                "Part of the target is not monotone (ARX: entropy/recursive l, t, delta, beta "
                "and alpha with suppression; delta and Grassberger's l always): k and at least l "
                "sensitive values pruned, and every node meeting them was checked against the rest"
                + (
                    "; population uniqueness, a whole-table criterion, was checked on every such "
                    "node."
                    if target.max_population_uniqueness is not None
                    else "."
                )
            )
        )
    (progress or no_progress)(1.0, "done")
    return SearchResult(
        quasi_identifiers=lattice.qis,
        target=target,
        measure=measure,
        optimum=optimum,
        frontier=tuple(frontier),
        method=method,
        lattice_size=lattice.size,
        evaluated=lattice.evaluated,
        solutions=solutions,
        seconds=time.perf_counter() - started,
        monotone=lattice.monotone,
        note=note,
        gs_factor=float(gs_factor),
        weights={c: float(w) for c, w in (weights or {}).items()},
        alone=given["alone"],
    )


def _stopped(
    best: Candidate | None,
    *,
    hierarchies: Mapping[str, Hierarchy],
    lattice: Lattice,
    target: Target,
    measure: str,
    method: str,
    started: float,
    gs_factor: float,
    weights: Mapping[str, float] | None,
    alone: tuple[AloneColumn, ...],
) -> SearchResult:
    """The result of a search stopped now: the best found so far (possibly not the
    optimum, and the only option it offers)."""
    return SearchResult(
        quasi_identifiers=lattice.qis,
        target=target,
        measure=measure,
        optimum=best,
        frontier=() if best is None else (best,),
        method=method,
        lattice_size=lattice.size,
        evaluated=lattice.evaluated,
        solutions=-1,
        seconds=time.perf_counter() - started,
        monotone=lattice.monotone,
        note="stopped before the end: the minimal solutions were not all found.",
        gs_factor=float(gs_factor),
        weights={c: float(w) for c, w in (weights or {}).items()},
        alone=alone,
        stopped=True,
    )
