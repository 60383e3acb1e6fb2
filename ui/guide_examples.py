"""The guide's worked examples as tables, shown in training mode where they belong.

The tables are the guide's own (sample_data/guide_*.csv, transcribed from the PDPC Guide
to Basic Anonymisation) or its example values in :mod:`core.risk`; the figures beside
them (k per group) are computed by ``core``, so the example also shows the tool at work.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.io import read_table
from core.privacy import equivalence_classes
from core.risk import HARM_THRESHOLDS, INSIDER_ATTACK_TABLE, MOTIVATION_LEVELS
from ui import state

#: Annex D lists the levels of mitigating controls from high to none.
GUIDE_CONTROL_ORDER = ("high", "medium", "low", "none")


def _sample(name: str) -> pd.DataFrame:
    return read_table(state.SAMPLE_DIR / name)


def step4_k_example() -> pd.DataFrame:
    """Step 4's table with the size of each record's group (its k) and the overall k."""
    table = _sample("guide_step4_k_example.csv")
    columns = list(table.columns)
    sizes = equivalence_classes(table, columns).size_of_record
    return table.assign(**{"k of its group": sizes})


def annex_d_harm_thresholds() -> pd.DataFrame:
    """Annex D's example risk thresholds by potential harm, low to high."""
    return pd.DataFrame(
        {"Potential harm": [h.capitalize() for h in HARM_THRESHOLDS],
         "Risk threshold": list(HARM_THRESHOLDS.values())}
    )  # fmt: skip


def annex_d_insider_table() -> pd.DataFrame:
    """Annex D, Scenario #1: P(insider attack), rows in the guide's order (high to none)."""
    table = pd.DataFrame(INSIDER_ATTACK_TABLE).T.reindex(
        index=list(GUIDE_CONTROL_ORDER), columns=list(MOTIVATION_LEVELS)
    )
    table.index = [level.capitalize() for level in table.index]
    table.columns = [level.capitalize() for level in table.columns]
    table.index.name = "Mitigating controls \\ attacker motivation"
    return table


def show_step4_k_example() -> None:
    """Training mode: the guide's Step 4 example, k per group and overall."""
    if not state.training_mode():
        return
    with st.container(border=True):
        st.markdown("**The guide's Step 4 example**")
        example = step4_k_example()
        st.dataframe(example, hide_index=True)
        st.caption(
            f"Three groups of identical records, of {', '.join(map(str, sorted(set(example['k of its group']))))} "
            f"records: the table's k is the smallest, {example['k of its group'].min()} "
            "(the worst case). Source: PDPC guide, Step 4."
        )


def show_annex_d_tables() -> None:
    """Training mode: Annex D's harm thresholds and insider-attack table, as in the guide."""
    if not state.training_mode():
        return
    with st.container(border=True):
        st.markdown("**The guide's Annex D example values**")
        harm, insider = st.columns([1, 2])
        harm.dataframe(annex_d_harm_thresholds(), hide_index=True)
        insider.dataframe(annex_d_insider_table())
        st.caption(
            "The higher the potential harm, the stricter (lower) the acceptable P(re-ID). "
            "P(insider attack) falls as mitigating controls rise and grows with the "
            "attacker's motivation and resources. Source: PDPC guide, Annex D."
        )


def show_annex_c_taxi() -> None:
    """Training mode: Annex C's taxi table before and after generalisation and suppression."""
    if not state.training_mode():
        return
    with st.container(border=True):
        st.markdown("**The guide's Annex C example (taxi passengers)**")
        before, after = st.columns(2)
        before.caption("Before: every age is exact (k = 1)")
        before.dataframe(_sample("guide_annex_c_taxi.csv"), hide_index=True)
        after.caption("After: 10-year age bands, occupations grouped, the banker suppressed")
        after.dataframe(_sample("guide_annex_c_taxi_after.csv"), hide_index=True)
        st.caption("Source: PDPC guide, Annex C. Load this table on Data to try it yourself.")
