"""Charts and chart-side wording shared by the pages (Altair; no Streamlit calls here).

Each chart has axis titles with units and no scale Vega cannot draw (no log scale over a
zero), so the browser console stays free of Vega warnings (issue 17, "Charts").
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from core.formatting import fmt_count
from core.markup import escape_markdown

#: Class sizes shown one by one below the target k (at most this many), then in bands
#: whose lower ends follow 1-2-5 steps (10, 20, 50, 100, ...), so a table whose groups
#: range from 1 to thousands still gets bars wide enough to read.
MAX_SINGLE_SIZES = 9
BELOW = "#d62728"
MEETS = "#1f77b4"


def _band_starts(k: int, largest: int) -> list[int]:
    starts = set(range(1, min(k, MAX_SINGLE_SIZES + 1)))
    starts.add(max(k, 1))
    nice = 10
    while nice <= largest:
        for step in (1, 2, 5):
            if nice * step <= largest:
                starts.add(nice * step)
        nice *= 10
    return sorted(s for s in starts if s <= max(largest, k))


def class_size_bands(class_sizes: pd.DataFrame, k: int) -> pd.DataFrame:
    """Records and classes per band of class size, in order, each marked below k or not.

    ``class_sizes`` has the columns class_size, classes and records (core.risk). Bands
    between the smallest and the largest are kept even when empty, so the axis reads as a
    scale; every band lies wholly below k or wholly at or above it.
    """
    largest = int(class_sizes["class_size"].max()) if len(class_sizes) else k
    starts = _band_starts(k, largest)
    ends = [*(s - 1 for s in starts[1:]), largest]
    rows = []
    for order, (low, high) in enumerate(zip(starts, ends, strict=True)):
        inside = class_sizes[class_sizes["class_size"].between(low, high)]
        if low == high:
            label = fmt_count(low)
        elif order == len(starts) - 1:
            label = f"{fmt_count(low)}+"
        else:
            label = f"{fmt_count(low)}–{fmt_count(high)}"
        rows.append(
            {
                "band": label,
                "order": order,
                "low": low,
                "classes": int(inside["classes"].sum()),
                "records": int(inside["records"].sum()),
                "below_k": low < k,
            }
        )
    return pd.DataFrame(rows)


def class_size_chart(class_sizes: pd.DataFrame, k: int) -> alt.LayerChart:
    """Bars of records per band of class size (red below ``k``) and a dashed line at k."""
    bands = class_size_bands(class_sizes, k)
    order = bands["band"].tolist()
    x = alt.X(
        "band:N",
        sort=order,
        title="Class size (records alike on the quasi-identifiers)",
        axis=alt.Axis(labelAngle=0),
    )
    bars = (
        alt.Chart(bands)
        .mark_bar()
        .encode(
            x=x,
            y=alt.Y("records:Q", title="Records", axis=alt.Axis(tickMinStep=1, format=",d")),
            color=alt.Color(
                "below_k:N",
                scale=alt.Scale(domain=[True, False], range=[BELOW, MEETS]),
                legend=alt.Legend(
                    title=None, labelExpr=f"datum.value ? 'below k = {k}' : 'k = {k} or more'"
                ),
            ),
            tooltip=[
                alt.Tooltip("band:N", title="Class size"),
                alt.Tooltip("classes:Q", title="Classes", format=","),
                alt.Tooltip("records:Q", title="Records", format=","),
            ],
        )
    )
    at_k = bands.loc[bands["low"] >= k, "band"].head(1)  # a band always starts at k
    rule = (
        alt.Chart(pd.DataFrame({"band": at_k, "label": [f"target k = {k}"]}))
        .mark_rule(color="black", strokeDash=[4, 4], size=2)
        .encode(x=alt.X("band:N", sort=order, bandPosition=0))
    )
    text = rule.mark_text(align="left", dx=4, dy=-4, baseline="top").encode(
        text="label:N", y=alt.value(0)
    )
    return alt.layer(bars, rule, text)


def driving_advice(impact: pd.DataFrame, k: int, uniques: int) -> str:
    """Which quasi-identifier to generalise first, in Markdown; says so when several tie.

    ``impact`` has one row per quasi-identifier with k_without and uniques_without (k and
    unique records if it were left out, core.risk). The one whose removal gives the
    highest k, then the fewest uniques, drives the risk; equal figures are a tie.
    """
    ranked = impact.sort_values(["k_without", "uniques_without"], ascending=[False, True])
    top = ranked.iloc[0]
    tied = ranked[
        (ranked["k_without"] == top.k_without) & (ranked["uniques_without"] == top.uniques_without)
    ]
    figures = (
        f"k = {fmt_count(top.k_without)} and {fmt_count(top.uniques_without)} unique "
        f"record(s) (now k = {fmt_count(k)}, {fmt_count(uniques)})"
    )
    names = [f"'{escape_markdown(name)}'" for name in tied["quasi_identifier"]]
    if len(tied) == len(ranked) and len(ranked) > 1:
        return (
            f"Leaving out any one of {', '.join(names)} gives the same figures, {figures}: "
            "they tie, so no single quasi-identifier drives the risk; generalise them "
            "together, or first the one the data's users need least."
        )
    if len(tied) > 1:
        return (
            f"Leaving out {' or '.join(names)} (a tie) would give {figures}; these drive the "
            "risk: generalise one of them first."
        )
    return (
        f"Leaving out {names[0]} would give {figures}; the quasi-identifier with the longest "
        "k bar and shortest uniques bar drives the risk: generalise it first."
    )


def labelled_bars(
    frame: pd.DataFrame,
    value: str,
    category: str,
    *,
    title: str,
    number_format: str,
    color: str = MEETS,
    domain_max: float | None = None,
    row_height: int = 28,
    category_title: str | None = None,
) -> alt.LayerChart:
    """Horizontal bars, one per ``category``, each with its value written at its end, so
    every bar reads without the axis (issue 29: Report's "Utility cost per column" and
    Risk's "Which quasi-identifier drives the risk" had bars and no figures). The x scale
    leaves room after the longest bar for its label; the height is fixed (a step per
    bar makes Vega drop "fit-y" with a warning under width="stretch"). The tooltip names
    its two figures in words (``category_title``, else the category's name with spaces):
    a field without a title shows its name, such as "k_without", on hover."""
    largest = float(frame[value].max()) if len(frame) else 0.0
    top = domain_max if domain_max is not None else largest
    scale = alt.Scale(domain=[0, (top or 1.0) * 1.18], nice=False)
    # Whole numbers get whole ticks (a k of 1 otherwise reads "0 0 0 0 1 1 1" on its axis).
    whole = number_format.endswith("d")
    ticks: dict[str, object] = {"tickMinStep": 1} if whole else {}
    if domain_max is not None:  # a bounded figure (a share): no tick past its bound
        ticks["values"] = [domain_max * i / 10 for i in range(11)]
    axis = alt.Axis(format=number_format, **ticks)
    # Largest first, as an explicit order: "-x" sorts each layer on its own, and Vega warns
    # that the layers' domains have conflicting sort properties.
    order = list(frame.sort_values(value, ascending=False, kind="stable")[category].astype(str))
    base = alt.Chart(frame).encode(
        y=alt.Y(f"{category}:N", title=None, sort=order),
        x=alt.X(f"{value}:Q", title=title, scale=scale, axis=axis),
        tooltip=[
            alt.Tooltip(f"{category}:N", title=category_title or category.replace("_", " ")),
            alt.Tooltip(f"{value}:Q", title=title, format=number_format),
        ],
    )
    bars = base.mark_bar(color=color)
    labels = base.mark_text(align="left", baseline="middle", dx=4, color="#262730").encode(
        text=alt.Text(f"{value}:Q", format=number_format)
    )
    return (bars + labels).properties(height=row_height * len(frame) + 50)
