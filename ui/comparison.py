"""Options of a search side by side, as ARX compares solutions: the figures of each, the
sizes of their groups, the loss per column and a few released rows (PDPC guide, Step 3:
weigh the risk left against the detail lost; Annex C).

Pure functions of the search result and the released tables, so the page only draws
them. Nothing here imports streamlit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from core.figure_names import ANNEX_D_P_REID, RECORD_RISK
from core.formatting import fmt_count, fmt_number, fmt_percent, fmt_probability
from core.hierarchy import Hierarchy
from core.search.result import Candidate, SearchResult
from ui.tradeoffs import MEASURE_NAMES, OPTIMUM_MARK, describe_level

#: Lower edges of the group-size bands (the last is open): ARX shows the distribution of
#: class sizes; bands keep a 30,000-record table's sizes readable in a few bars.
SIZE_EDGES = (1, 2, 3, 5, 10, 20, 50, 100, 1_000, 10_000)


def _band_names() -> list[str]:
    names = []
    for low, high in zip(SIZE_EDGES, (*SIZE_EDGES[1:], None), strict=True):
        if high is None:
            names.append(f"{fmt_count(low)} or more")
        elif high - low == 1:
            names.append(fmt_count(low))
        else:
            names.append(f"{fmt_count(low)}-{fmt_count(high - 1)}")
    return names


#: The bands' names, smallest first ("1", "2", "3-4", "5-9", ..., "10,000 or more").
SIZE_BANDS = _band_names()


def class_sizes(released: pd.DataFrame, quasi_identifiers: Sequence[str]) -> pd.DataFrame:
    """Records and groups per group-size band of ``released`` (grouped on the
    quasi-identifiers it still has): columns ``band``, ``groups``, ``records``, one row per
    band from the smallest group's to the largest's (empty bands in between kept, so that
    options read on one axis)."""
    columns = [c for c in quasi_identifiers if c in released.columns]
    sizes = (
        released.groupby(columns, dropna=False, sort=False).size().to_numpy()
        if columns and len(released)
        else np.array([len(released)] if len(released) else [], dtype=np.int64)
    )
    band = np.searchsorted(np.asarray(SIZE_EDGES), sizes, side="right") - 1
    groups = np.bincount(band, minlength=len(SIZE_EDGES))
    records = np.bincount(band, weights=sizes, minlength=len(SIZE_EDGES)).astype(np.int64)
    table = pd.DataFrame({"band": SIZE_BANDS, "groups": groups, "records": records})
    used = np.flatnonzero(groups)
    if not len(used):
        return table.iloc[0:0]
    return table.iloc[used[0] : used[-1] + 1].reset_index(drop=True)


def option_title(number: int, candidate: Candidate, result: SearchResult) -> str:
    """'Option 3' or 'Option 1 ★' (the optimum), as the table numbers them."""
    optimum = result.optimum is not None and candidate.levels == result.optimum.levels
    return f"Option {number}" + (f" {OPTIMUM_MARK}" if optimum else "")


def comparison_table(
    result: SearchResult,
    hierarchies: Mapping[str, Hierarchy],
    options: Sequence[tuple[int, Candidate]],
    *,
    p_reid: Callable[[int], float],
) -> pd.DataFrame:
    """One column per option (``(number, candidate)`` as the table numbers them), one row
    per figure, every cell in words: records removed, smallest group k, the highest record
    risk 1/k, the Annex D P(re-ID) (the search's when it had the Annex D target, else
    ``p_reid(k)`` with the Risk page's settings), the loss, then each quasi-identifier's
    level and loss (Iyengar's, 0 = unchanged, 1 = '*')."""
    measure = MEASURE_NAMES[result.measure]
    rows: dict[str, list[str]] = {
        "records removed": [],
        "smallest group (k)": [],
        RECORD_RISK.name: [],
        ANNEX_D_P_REID.name: [],
    }
    # A search that minimised the records removed has its measure in the first row
    # already: a second row of the same name gave each option two cells (a crash).
    own_measure_row = measure not in rows
    if own_measure_row:
        rows[measure] = []
    columns = list(result.quasi_identifiers)
    for column in columns:
        rows[column] = []
    for _, candidate in options:
        share = fmt_percent(candidate.share_suppressed)
        rows["records removed"].append(f"{fmt_count(candidate.suppressed)} ({share})")
        rows["smallest group (k)"].append(fmt_count(candidate.k))
        rows[RECORD_RISK.name].append(fmt_probability(candidate.max_risk))
        annex_d = candidate.p_reid if candidate.p_reid is not None else p_reid(candidate.k)
        rows[ANNEX_D_P_REID.name].append(fmt_probability(annex_d))
        if own_measure_row:
            rows[measure].append(fmt_number(candidate.measures[result.measure], 3))
        for column in columns:
            level = candidate.levels.get(column, 0)
            words = describe_level(column, hierarchies[column], level).removeprefix("→ ")
            loss = candidate.column_loss.get(column)
            rows[column].append(words if loss is None else f"{words} (loss {fmt_number(loss, 3)})")
    titles = [option_title(number, candidate, result) for number, candidate in options]
    return pd.DataFrame.from_dict(rows, orient="index", columns=titles).rename_axis("figure")


def loss_frame(result: SearchResult, options: Sequence[tuple[int, Candidate]]) -> pd.DataFrame:
    """Long table of each option's loss per quasi-identifier (columns ``option``,
    ``column``, ``loss``, ``loss shown``), for a grouped bar chart."""
    rows = [
        {
            "option": option_title(number, candidate, result),
            "column": column,
            "loss": float(loss),
            "loss shown": fmt_number(loss, 3),
        }
        for number, candidate in options
        for column, loss in candidate.column_loss.items()
    ]
    return pd.DataFrame(rows, columns=["option", "column", "loss", "loss shown"])


def common_rows(released: Sequence[pd.DataFrame], count: int = 5) -> pd.Index:
    """The first ``count`` records (index labels) every released table keeps, so that the
    samples show the same people under each option."""
    if not released:
        return pd.Index([])
    kept = released[0].index
    for table in released[1:]:
        kept = kept[kept.isin(table.index)]
    return kept[:count]
