"""Stopping a long search and keeping the best found so far (issue 30): the progress text
names the nodes checked of the lattice and the best so far; a progress callback that
raises StopSearch (or Ctrl-C, when asked) returns that best, labelled as possibly not the
optimum, and it meets the target (checked by pandas groupby, an independent method)."""

from __future__ import annotations

import re

import pytest

import core.search.watch
from core.hierarchy import read_hierarchy
from core.search import Target, search
from core.search.watch import StopSearch

QI8 = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass"]
QI8 += ["occupation"]
TARGET = Target(k=5, max_suppressed=0.01)


@pytest.fixture(scope="module")
def hierarchies(adult_hierarchies_dir):
    return {c: read_hierarchy(adult_hierarchies_dir / f"adult_hierarchy_{c}.csv") for c in QI8}


def _suppressed_by_groupby(df, hierarchies, levels: dict[str, int], k: int) -> int:
    """Records in groups smaller than k at ``levels``, by dictionary lookups and groupby."""
    out = df.copy()
    for column, level in levels.items():
        table = hierarchies[column].levels
        out[column] = df[column].astype(str).map(dict(zip(table[0], table[level], strict=True)))
    sizes = out.groupby(list(levels))[list(levels)[0]].transform("size")
    return int((sizes < k).sum())


def _stopping_after(nodes: int, texts: list[str]):
    def progress(fraction: float, text: str) -> None:
        texts.append(text)
        checked = int(re.match(r"([\d,]+) of", text).group(1).replace(",", ""))
        if checked >= nodes:
            raise StopSearch

    return progress


def test_a_stop_after_300_nodes_keeps_a_best_that_meets_the_target(
    _adult_table, hierarchies, monkeypatch
):
    monkeypatch.setattr(core.search.watch, "UPDATE_INTERVAL", 0.0)  # measure at every report
    texts: list[str] = []
    partials = []
    result = search(
        _adult_table,
        hierarchies,
        TARGET,
        measure="loss",
        progress=_stopping_after(300, texts),
        on_best=partials.append,
    )
    # levels + 1 per column (sex 2, age 5, race 2, marital 3, education 4, country 3,
    # workclass 3, occupation 3): 2 * 5 * 2 * 3 * 4 * 3 * 3 * 3 = 6,480 nodes
    assert result.stopped and result.evaluated == 300 and result.lattice_size == 6480
    assert result.explanation().startswith(
        "Stopped after 300 of 6,480 nodes: the best found so far, possibly not the optimum. "
        "The solution of least average loss found meeting k = 5"
    )
    best = result.optimum
    assert best is not None and result.frontier == (best,)
    limit = int(0.01 * len(_adult_table))  # 301 of 30,162 records
    assert best.suppressed == _suppressed_by_groupby(_adult_table, hierarchies, best.levels, 5)
    assert best.suppressed <= limit
    # the text a person watches: nodes checked of the lattice, then the best so far in words
    assert texts[0].startswith("1 of 6,480 nodes checked; ")
    assert re.search(r"best so far: average loss [\d.]+, [\d,]+ removed \(.*age → ", texts[-1])
    # on_best got, with each report, the result a stop would give; the last one this
    assert partials and all(p.stopped for p in partials)
    assert partials[-1].optimum == best and partials[-1].evaluated == 300
    losses = [p.optimum.measures["loss"] for p in partials]
    assert losses == sorted(losses, reverse=True)
    # the whole search finds an optimum at least as good (the stop may not have)
    full = search(_adult_table, hierarchies, TARGET, measure="loss")
    assert not full.stopped and full.optimum.measures["loss"] <= best.measures["loss"]


def test_ctrl_c_keeps_the_best_only_when_asked(_adult_table, hierarchies):
    def interrupt(fraction: float, text: str) -> None:
        if text.startswith("200 of"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        search(_adult_table, hierarchies, TARGET, progress=interrupt)
    kept = search(
        _adult_table, hierarchies, TARGET, progress=interrupt, keep_best_on_interrupt=True
    )
    assert kept.stopped and kept.evaluated == 200 and kept.optimum is not None
    assert _suppressed_by_groupby(_adult_table, hierarchies, kept.optimum.levels, 5) <= 301


def test_a_stop_before_any_solution_says_so(_adult_table, hierarchies):
    result = search(_adult_table, hierarchies, TARGET, progress=_stopping_after(1, []))
    assert result.stopped and result.optimum is None and result.frontier == ()
    assert result.explanation() == (
        "Stopped after 1 of 6,480 nodes: the best found so far, possibly not the optimum. "
        "No solution was found before the stop."
    )


def test_the_greedy_search_stopped_keeps_the_first_solution_it_climbed_to(
    _adult_table, hierarchies
):
    """The greedy fallback reports once per step up (9 options each here); stopped at the
    step that first meets the target, it keeps that node, which the full greedy search
    then only lowers (top-down)."""
    texts: list[str] = []
    full = search(_adult_table, hierarchies, TARGET, method="greedy", progress=_record(texts))
    last_climb = [t for t in texts if "greedy search" in t][-1]
    nodes = int(last_climb.split(" of ")[0].replace(",", ""))
    stopped = search(
        _adult_table, hierarchies, TARGET, method="greedy", progress=_stopping_after(nodes, [])
    )
    assert stopped.stopped and stopped.evaluated == nodes and stopped.optimum is not None
    best = stopped.optimum
    assert _suppressed_by_groupby(_adult_table, hierarchies, best.levels, 5) <= 301
    assert all(full.optimum.levels[c] <= best.levels[c] for c in QI8)
    assert full.optimum.measures["loss"] <= best.measures["loss"]


def _record(texts: list[str]):
    return lambda fraction, text: texts.append(text)
