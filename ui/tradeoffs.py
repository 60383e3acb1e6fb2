"""Words and tables for the Explore trade-offs page (PDPC guide, Step 3 and Annex C).

Pure functions of a :class:`core.search.SearchResult` and its hierarchies, so the page
stays thin and the wording is tested without a browser. Nothing here imports streamlit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from core._text import as_text
from core.auto_hierarchy import auto_hierarchy
from core.errors import AnonymisationError
from core.figure_names import ANNEX_D_P_REID, RECORD_RISK
from core.formatting import fmt_count, fmt_number, fmt_probability
from core.hierarchy import Hierarchy, build_hierarchy
from core.search.measures import MEASURES
from core.search.result import Candidate, SearchResult

_BAND = re.compile(
    r"^\s*[\[(]?\s*(-?\d+(?:\.\d+)?)\s*(?:-|,|;|\.\.)\s*(-?\d+(?:\.\d+)?)\s*([\])[]?)\s*$"
)

#: Short names of the measures for table headers and sentences.
MEASURE_NAMES: dict[str, str] = {
    "loss": "average loss",
    "arx_loss": "ARX loss",
    "precision": "precision loss",
    "entropy": "entropy per record",
    "arx_entropy": "ARX non-uniform entropy",
    "arx_entropy_monotonic": "ARX monotonic entropy",
    "discernibility": "discernibility",
    "arx_dm_star": "ARX discernibility (DM*)",
    "avg_class_size": "average group size",
    "height": "generalisation height",
    "suppressed": "records removed",
}


def measure_words(measure: str) -> str:
    """ "name: what it measures", with the name once (the loss measures' descriptions in
    :data:`core.search.MEASURES` begin with their name, for the command line)."""
    name, words = MEASURE_NAMES[measure], MEASURES[measure]
    return words if words.lower().startswith(name.lower()) else f"{name}: {words}"


def measure_label(measure: str) -> str:
    """The measure's name as a label: its first letter capital, the rest as written
    ("ARX loss", not "Arx loss")."""
    name = MEASURE_NAMES[measure]
    return name[:1].upper() + name[1:]


def hierarchy_from_choice(
    series: pd.Series,
    spec: Mapping,
    *,
    stored: Callable[[str, str | None], Hierarchy],
    detected: str | None = None,
) -> Hierarchy:
    """The hierarchy a column's choice on the trade-offs page describes (kind ``numeric``
    with band ``widths``, ``grouping`` with a ``value: group`` ``mapping``, ``upload`` with
    the ``name`` of a hierarchy kept in the workspace, read by ``stored``, ``auto`` by the
    kind Step 1 ``detected`` in the column (:mod:`core.auto_hierarchy`; found again from
    the column when None), or a built-in kind). PDPC guide, Annex A: Generalisation."""
    if spec["kind"] == "numeric":
        widths = [float(w) for w in spec["widths"].replace(";", ",").split(",") if w.strip()]
        return build_hierarchy(series, "numeric", widths=widths)
    if spec["kind"] == "grouping":
        pairs = [line.split(":", 1) for line in spec["mapping"].splitlines() if ":" in line]
        return build_hierarchy(
            series, "grouping", mappings={a.strip(): b.strip() for a, b in pairs}
        )
    if spec["kind"] == "upload":
        if not spec.get("name"):
            raise AnonymisationError(f"Upload a hierarchy file for '{series.name}'.")
        file = spec.get("file")  # the name the person knows it by, never the key
        return stored(spec["name"], str(file) if file else None)
    if spec["kind"] == "auto":
        return auto_hierarchy(series, detected)
    return build_hierarchy(series, spec["kind"])


def hierarchy_gaps(series: pd.Series, hierarchy: Hierarchy) -> list[str]:
    """The values of ``series`` that ``hierarchy`` does not know (as text, each once, in the
    order met): a hierarchy made for another data set's column of the same name."""
    text = as_text(series).dropna()
    return list(dict.fromkeys(text[~text.isin(set(hierarchy.values))]))


def gaps_in_words(column: str, name: str, gaps: list[str], *, shown: int = 3) -> str:
    """The warning for :func:`hierarchy_gaps`, naming a few of the values."""
    examples = ", ".join(repr(value) for value in gaps[:shown])
    more = f" and {len(gaps) - shown} more" if len(gaps) > shown else ""
    return (
        f"The hierarchy {name!r} does not know {len(gaps)} value(s) of '{column}' in this "
        f"table ({examples}{more}): it was made for other data. Generalising '{column}' "
        "with it will stop at the first such value. Upload a hierarchy made for this "
        "table, or choose another kind."
    )


@dataclass(frozen=True)
class LevelPreview:
    """One level of a hierarchy as it falls on a table: how many distinct values the
    records take there (``groups``) and the largest of them with their record counts."""

    level: int
    groups: int
    largest: tuple[tuple[str, int], ...]


def value_counts(series: pd.Series) -> pd.Series:
    """Records per distinct value of ``series`` (as text, missing values left out): what a
    hierarchy preview reads, so it works per distinct value, not per record."""
    return as_text(series).value_counts(dropna=True)


def level_previews(
    counts: pd.Series, hierarchy: Hierarchy, *, shown: int = 3
) -> list[LevelPreview]:
    """Each level of ``hierarchy`` (0 = the values themselves) on a table whose records per
    distinct value are ``counts`` (:func:`value_counts`): the number of groups and the
    ``shown`` largest, biggest first. Values the hierarchy does not know are left out of
    levels 1 and up (:func:`hierarchy_gaps` names them). PDPC guide, Annex A."""
    table = hierarchy.levels.set_index(0)
    known = counts[counts.index.isin(table.index)]
    labels = table.reindex(known.index)
    out = []
    for level in range(hierarchy.height + 1):
        at_level = counts if level == 0 else known.groupby(labels[level].to_numpy()).sum()
        top = at_level.sort_values(ascending=False, kind="stable").head(shown)
        out.append(
            LevelPreview(level, len(at_level), tuple((str(v), int(n)) for v, n in top.items()))
        )
    return out


def level_preview_words(preview: LevelPreview) -> str:
    """ "Level 1 · 15 groups: 35-39 (8,248), 30-34 (7,997), 40-44 (7,583) …" (plain text)."""
    what = "values" if preview.level == 0 else "groups"
    if preview.groups == 1:
        what = what[:-1]
    examples = ", ".join(f"{value} ({fmt_count(n)})" for value, n in preview.largest)
    more = " …" if preview.groups > len(preview.largest) else ""
    return f"Level {preview.level} · {fmt_count(preview.groups)} {what}: {examples}{more}"


def _band_width(labels: list[str]) -> float | None:
    """The usual width of numeric band labels such as '20-39' or '[20, 40[' (or None).

    Bands at the ends of a range are often cut short, so the most common width is taken
    when at least half of the bands have it."""
    widths = []
    for label in labels:
        match = _BAND.match(label)
        if match is None:
            return None
        low, high, close = float(match.group(1)), float(match.group(2)), match.group(3)
        closed = close == "]" or (close == "" and "[" not in label and "(" not in label)
        whole = low.is_integer() and high.is_integer()
        widths.append(high - low + (1 if closed and whole else 0))
    values, counts = np.unique(widths, return_counts=True)
    best = int(np.argmax(counts))
    return float(values[best]) if counts[best] * 2 >= len(widths) else None


def describe_level(column: str, hierarchy: Hierarchy, level: int) -> str:
    """A level in words: 'unchanged', 'age → bands of 20 (e.g. 20-39)', 'sex → *'."""
    if level == 0:
        return "unchanged"
    labels = hierarchy.levels[level].astype(str)
    distinct = list(dict.fromkeys(labels))
    if len(distinct) == 1:
        return f"→ {distinct[0]} (removed)"
    example = labels.mode().iloc[0]
    width = _band_width(distinct)
    if width is not None:
        size = int(width) if float(width).is_integer() else width
        return f"→ bands of {size} (e.g. {example})"
    return f"→ {len(distinct)} groups (e.g. {example})"


def level_words(
    result: SearchResult, hierarchies: Mapping[str, Hierarchy]
) -> dict[tuple[str, int], str]:
    """:func:`describe_level` of every (column, level) the options use, each worked out
    once: a table of 324 adult options named 2,600 cells, 1 s on every rerun."""
    pairs = {(c, lvl) for option in result.candidates for c, lvl in option.levels.items()}
    return {(c, lvl): describe_level(c, hierarchies[c], lvl) for c, lvl in pairs}


def option_in_words(
    candidate: Candidate,
    hierarchies: Mapping[str, Hierarchy],
    words: Mapping[tuple[str, int], str] | None = None,
) -> str:
    """An option as a person reads it, for a recipe version's message: "Age → bands of 10
    (e.g. 20-29); Gender unchanged" (not its level codes "Age:2 Gender:0"); ``words``
    from :func:`level_words` when naming many."""
    return "; ".join(
        f"{column} "
        + (
            words[(column, level)]
            if words is not None
            else describe_level(column, hierarchies[column], level)
        )
        if level
        else f"{column} unchanged"
        for column, level in candidate.levels.items()
    )


def _share(value: float) -> str:
    return f"{value:.1%}" if value >= 0.001 or value == 0 else f"{value:.2%}"


def option_order(result: SearchResult) -> list[Candidate]:
    """The options in the order the table lists them (least loss first, then fewest
    records removed): option 1 is the first row, and the list and the chart's tooltips
    number them the same way."""
    return sorted(
        result.candidates, key=lambda c: (c.measures[result.measure], c.suppressed)
    )  # sorted() is stable: ties keep the search's order


#: The table's mark of the optimum (a read-only checkbox column looked like a choice).
OPTIMUM_MARK = "★"


def solutions_table(result: SearchResult, hierarchies: Mapping[str, Hierarchy]) -> pd.DataFrame:
    """One row per minimal solution (and the optimum), numbered as :func:`option_order`:
    ★ on the optimum, each quasi-identifier in words, records removed (count and share),
    the loss under the chosen measure, k, the highest record risk 1/k and, with an Annex D
    target, the Annex D P(re-ID) (core.figure_names); ``levels`` holds the level codes
    (hidden on the page, they map a clicked row to its option)."""
    rows = []
    optimum = _levels(result.optimum)
    words = level_words(result, hierarchies)
    for number, candidate in enumerate(option_order(result), start=1):
        row: dict[str, object] = {
            "option": number,
            "optimum": OPTIMUM_MARK if candidate.levels == optimum else "",
        }
        for column, level in candidate.levels.items():
            row[column] = words[(column, level)]
        row["records removed"] = candidate.suppressed
        row["% removed"] = round(100 * candidate.share_suppressed, 2)
        row[MEASURE_NAMES[result.measure]] = candidate.measures[result.measure]
        row["k"] = candidate.k
        row[RECORD_RISK.name] = candidate.max_risk
        if candidate.p_reid is not None:
            row[ANNEX_D_P_REID.name] = candidate.p_reid
        row["levels"] = candidate.label()
        rows.append(row)
    return pd.DataFrame(rows)


def option_short(result: SearchResult, number: int, candidate: Candidate) -> str:
    """An option in one short line for a list, numbered as the table: "Option 3: ARX loss
    0.359, 12 records removed (0.04%), k = 5 ★"."""
    star = f" {OPTIMUM_MARK} optimum" if candidate.levels == _levels(result.optimum) else ""
    removed = fmt_count(candidate.suppressed)
    share = f" ({_share(candidate.share_suppressed)})" if candidate.suppressed else ""
    value = fmt_number(candidate.measures[result.measure], 3)
    return (
        f"Option {number}: {MEASURE_NAMES[result.measure]} {value}, {removed} record(s) "
        f"removed{share}, k = {candidate.k}{star}"
    )


def _levels(candidate: Candidate | None) -> Mapping[str, int] | None:
    return None if candidate is None else candidate.levels


#: How the search's figures of the sensitive attribute read, by their names in
#: ``Candidate.sensitive_figures`` (each model's ``node_figures``); a figure of a model added
#: to core.measures.models later reads by its name, so the page needs no edit for it.
FIGURE_WORDS: dict[str, Callable[[float], str]] = {
    "l_distinct": lambda v: f"at least {fmt_count(v)} distinct values",
    "l_entropy": lambda v: f"entropy l {fmt_number(v)}",
    "recursive_c": lambda v: f"recursive (c,l) ratio {fmt_number(v)}",
    "t": lambda v: f"largest distance t {fmt_number(v)}",
    "delta": lambda v: f"delta {fmt_number(v)}",
    "beta": lambda v: f"beta {fmt_number(v)}",
    "alpha": lambda v: f"largest share of one value (alpha) {v:.0%}",
}


def sensitive_figures_words(sensitive: str, figures: Mapping[str, float]) -> str:
    """The figures of the sensitive attribute on an option's kept groups, in words."""
    parts = [
        FIGURE_WORDS[name](value) if name in FIGURE_WORDS else f"{name} {fmt_number(value)}"
        for name, value in figures.items()
    ]
    return f"On '{sensitive}' in the kept groups: {'; '.join(parts)}."


def summary(result: SearchResult, hierarchies: Mapping[str, Hierarchy]) -> str:
    """The search's answer in plain words (no level codes)."""
    alone = f" {result.alone_words()}" if result.alone else ""
    if result.stopped:  # the best found so far, said first: it may not be the optimum
        return (
            result.explanation()
            if result.optimum is None
            else f"{result.stopped_words()} {_answer(result, hierarchies)}{alone}"
        )
    if result.optimum is None:
        return (
            f"No combination of generalisation levels meets {result.target.describe()}. "
            "Allow more records to be removed, lower the target, or add coarser levels to "
            f"the hierarchies.{alone}"
        )
    return (
        f"{_answer(result, hierarchies)} {len(result.frontier)} other minimal option(s) are in "
        f"the table below.{alone}"
    )


def _answer(result: SearchResult, hierarchies: Mapping[str, Hierarchy]) -> str:
    """The optimum (or best found) in words: what to keep, generalise and remove."""
    best = result.optimum
    kept = [c for c, lvl in best.levels.items() if lvl == 0]
    changed = [
        f"{c} {describe_level(c, hierarchies[c], lvl)}" for c, lvl in best.levels.items() if lvl > 0
    ]
    parts = []
    if kept:
        parts.append(f"keep {', '.join(kept)} unchanged")
    if changed:
        parts.append(f"generalise {'; '.join(changed)}")
    removed = (
        f"remove {best.suppressed:,} record(s) ({_share(best.share_suppressed)})"
        if best.suppressed
        else "remove no records"
    )
    risk = f"the {RECORD_RISK.name} is {fmt_probability(best.max_risk)}"
    if best.p_reid is not None:
        risk += f" and the {ANNEX_D_P_REID.name} {fmt_probability(best.p_reid)}"
    value = best.measures[result.measure]
    return (
        f"To meet {result.target.describe()} with the least {MEASURE_NAMES[result.measure]}"
        f"{result.weighting()}: "
        f"{' and '.join(parts)}, and {removed}. Every remaining group then has at least "
        f"{best.k} records, so {risk}; {MEASURE_NAMES[result.measure]} "
        f"{value:,.4g} ({MEASURES[result.measure]})."
    )


def frontier_frame(
    result: SearchResult, hierarchies: Mapping[str, Hierarchy], *, seed: int = 0
) -> pd.DataFrame:
    """Points of the frontier chart, one per option in :func:`option_order`: loss against
    records removed, with a small vertical jitter (at most 2% of the range) so that
    options with equal figures stay visible; the tooltip's text in words and figures of 3
    significant digits ("ARX loss 0.359", not 0.358785324608), the legend's "yes"/"no"."""
    ordered = option_order(result)
    optimum = _levels(result.optimum)
    table = pd.DataFrame(
        {
            "option": range(1, len(ordered) + 1),
            "levels": [c.label() for c in ordered],
            "loss": [c.measures[result.measure] for c in ordered],
            "records removed": [c.suppressed for c in ordered],
            "k": [c.k for c in ordered],
            "optimum": [c.levels == optimum for c in ordered],
        }
    )
    table["Optimum"] = np.where(table["optimum"], "yes", "no")
    words = level_words(result, hierarchies)
    table["in words"] = [option_in_words(c, hierarchies, words) for c in ordered]
    table["loss shown"] = [fmt_number(v, 3) for v in table["loss"]]
    table["removed shown"] = [
        fmt_count(c.suppressed) + (f" ({_share(c.share_suppressed)})" if c.suppressed else "")
        for c in ordered
    ]
    spread = max(float(table["records removed"].max() - table["records removed"].min()), 1.0)
    jitter = np.random.default_rng(seed).uniform(-0.02, 0.02, len(table)) * spread
    duplicated = table.duplicated(["loss", "records removed"], keep="first").to_numpy()
    table["removed (jittered)"] = table["records removed"] + np.where(duplicated, jitter, 0.0)
    return table
