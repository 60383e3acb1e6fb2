"""The guide's worked examples as tables, shown in training mode where they belong.

The tables are the guide's own (sample_data/guide_*.csv, transcribed from the PDPC Guide
to Basic Anonymisation) or its example values in :mod:`core.risk`; the figures beside
them (k per group) are computed by ``core``, so the example also shows the tool at work.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.geo import round_coordinates
from core.io import read_table
from core.measures.classes import equivalence_classes
from core.risk import HARM_THRESHOLDS, INSIDER_ATTACK_TABLE, MOTIVATION_LEVELS
from core.techniques import generalise_date
from ui.state import loading, presentation, session

#: Annex D lists the levels of mitigating controls from high to none.
GUIDE_CONTROL_ORDER = ("high", "medium", "low", "none")


def show_training(text: str) -> None:
    """A training-mode box on its own (state.explain adds one under a caption)."""
    if presentation.training_mode():
        st.info(text, icon=":material/school:")


def _sample(name: str) -> pd.DataFrame:
    return read_table(loading.SAMPLE_DIR / name)


def step4_k_example() -> pd.DataFrame:
    """Step 4's table with the size of each record's group (its k) and the overall k."""
    table = _sample("guide_step4_k_example.csv")
    columns = list(table.columns)
    sizes = equivalence_classes(table, columns).size_of_record
    return table.assign(**{"k of its group": sizes})


def annex_d_harm_thresholds() -> pd.DataFrame:
    """Annex D's example risk thresholds by potential harm, low to high."""
    return pd.DataFrame(
        {
            "Potential harm": [h.capitalize() for h in HARM_THRESHOLDS],
            "Risk threshold": list(HARM_THRESHOLDS.values()),
        }
    )


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
    if not presentation.training_mode():
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
    if not presentation.training_mode():
        return
    with st.container(border=True):
        st.markdown("**The guide's Annex D example values**")
        harm, insider = st.columns([1, 2])
        harm.dataframe(annex_d_harm_thresholds(), hide_index=True)
        insider.dataframe(annex_d_insider_table())
        st.caption(
            "The higher the potential harm, the stricter (lower) the acceptable Annex D P(re-ID). "
            "P(insider attack) falls as mitigating controls rise and grows with the "
            "attacker's motivation and resources. Source: PDPC guide, Annex D."
        )


def show_annex_c_taxi() -> None:
    """Training mode: Annex C's taxi table before and after generalisation and suppression."""
    if not presentation.training_mode():
        return
    with st.container(border=True):
        st.markdown("**The guide's Annex C example (taxi passengers)**")
        before, after = st.columns(2)
        before.caption("Before: every age is exact (k = 1)")
        before.dataframe(_sample("guide_annex_c_taxi.csv"), hide_index=True)
        after.caption("After: 10-year age bands, occupations grouped, the banker suppressed")
        after.dataframe(annex_c_after_suppression(), hide_index=True)
        st.caption(
            "Source: PDPC guide, Annex C. The guide's printed table still lists the banker "
            "(serial number 3) although its text removes that record; it is left out here, "
            "so both groups have 5 records. Load this table on Data to try it yourself."
        )


def annex_c_after_suppression() -> pd.DataFrame:
    """Annex C's table after generalisation *and* the record suppression its text describes
    ("the banker's record is removed as it is the only such value under Occupation"): the
    guide's printed 'after' table still has the banker's row."""
    after = _sample("guide_annex_c_taxi_after.csv")
    return after[after["Occupation"] != "Banker"].reset_index(drop=True)


ANNEX_B_TRAINING = (
    "Annex B of the guide: round GPS coordinates to 2 decimal places (about 1.11 km) or 3 "
    "(about 111 m), or swap them between records; generalise a date of birth to month and "
    "year, or to year. NIST SP 800-188 adds perturbation: move each point a random distance, "
    "and shift all dates of one person by the same random number of days, so intervals "
    "(length of stay, age at visit) stay true."
)


def annex_b_examples() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Annex B's GPS and date-of-birth examples: the guide's before and after, and what
    this tool gives (core.geo.round_coordinates, generalise_date), which must agree."""
    gps = pd.DataFrame({"latitude": [1.27434], "longitude": [103.79967]})
    rounded = round_coordinates(gps, "latitude", "longitude", decimals=3)
    gps_table = pd.DataFrame(
        {
            "Before (guide)": ["1.27434, 103.79967"],
            "After (guide, 3 decimals)": ["1.274, 103.800"],
            "After (this tool)": [f"{rounded['latitude'][0]:.3f}, {rounded['longitude'][0]:.3f}"],
        }
    )
    births = pd.DataFrame({"date_of_birth": ["2003-02-01", "1990-08-15", "1998-12-30"]})
    months = generalise_date(births, "date_of_birth", unit="month")["date_of_birth"]
    dob_table = pd.DataFrame(
        {
            "Before (guide)": ["1 Feb 2003", "15 Aug 1990", "30 Dec 1998"],
            "After (guide, month and year)": ["Feb 2003", "Aug 1990", "Dec 1998"],
            "After (this tool)": list(months),
        }
    )
    return gps_table, dob_table


def show_annex_b_examples() -> None:
    """Training mode: Annex B's GPS location and date of birth examples."""
    if not presentation.training_mode():
        return
    with st.container(border=True):
        st.markdown("**The guide's Annex B examples**")
        gps, dob = st.columns(2)
        gps_table, dob_table = annex_b_examples()
        gps.caption("GPS location, generalised")
        gps.dataframe(gps_table, hide_index=True)
        dob.caption("Date of birth, generalised")
        dob.dataframe(dob_table, hide_index=True)
        st.caption("Source: PDPC guide, Annex B.")


#: The 30-minute workshop on the guide's Annex C taxi table: one short task per page, in
#: the order of the guide's five steps.
WORKSHOP_TABLE = "guide_annex_c_taxi.csv"
WORKSHOP_TASKS = (
    (
        "Classify",
        "Accept the suggestions: Serial number is a direct identifier; Age, Gender "
        "and Occupation are indirect identifiers (Step 1). Save.",
    ),
    ("De-identify", "Remove the Serial number (Step 2)."),
    (
        "Risk",
        "Note k = 1: every occupation is different, so each record is one of a kind; the "
        "impact table shows that leaving out occupation would not help alone, because "
        "ages are nearly unique too (Step 4).",
    ),
    (
        "Techniques",
        "Generalise Age into the guide's bands (edges 21, 31, 41), group the "
        "occupations (Data Protection Officer, IT), then suppress records in groups smaller "
        "than 5: the banker (Step 3, Annex C).",
    ),
    ("Risk", "Check k again, and the Annex D P(re-ID) against its threshold (Step 4)."),
    ("Report", "Tick the controls you would put in place and download the report (Step 5)."),
)


def workshop_running() -> bool:
    """The workshop is on: training mode, with the workshop's table loaded."""
    return presentation.training_mode() and session.source_name() == WORKSHOP_TABLE


def workshop_task_lines(page: str) -> list[str]:
    """The workshop's tasks on ``page``, each numbered as in the whole list."""
    return [
        f"Workshop task {number} of {len(WORKSHOP_TASKS)}: {task}"
        for number, (task_page, task) in enumerate(WORKSHOP_TASKS, start=1)
        if task_page == page
    ]


def show_workshop_task(page: str) -> None:
    """During the workshop, this page's own task(s) at the top of the page."""
    if workshop_running():
        for line in workshop_task_lines(page):
            st.info(line, icon=":material/school:")


def workshop_tasks_markdown() -> str:
    """The whole workshop as a numbered list (long tasks wrap; a table cell would cut them)."""
    return "\n".join(
        f"{number}. **{page}**: {task}"
        for number, (page, task) in enumerate(WORKSHOP_TASKS, start=1)
    )
