"""Dashboard entry point: ``streamlit run app.py``.

Walks a privacy officer through the five steps of the PDPC Guide to Basic
Anonymisation on their own data. Pages are thin: widgets -> ``core`` -> results;
session state and caching live in :mod:`ui.state`.
"""

from __future__ import annotations

import streamlit as st

from ui import collector
from ui.navigation import draw_menu
from ui.state.early_read import start_reading_startup_table

# A cold server's first run imports pandas and the library: no garbage collector passes
# over them meanwhile (0.15-0.25 s of the first table; ui.collector), until the run ends.
collector.pause_for_first_run()
try:
    # The table the dashboard opens with ($ANON_DATA) is read on another thread from the
    # start, while this thread sets up the page (Streamlit's emoji catalogue: 0.1 s) and
    # imports the library below (issue 31).
    start_reading_startup_table()

    # Page icons are emoji, not ":material/...:" names: Streamlit turns a page's Material icon
    # into a favicon fetched from Google's servers, and nothing here may reach the internet.
    st.set_page_config(
        page_title="Anonymisation workbench (PDPC guide)", page_icon="🛡️", layout="wide"
    )

    PAGES = {
        "Start": [
            st.Page("pages/1_data.py", title="Data", icon="📂", default=True),
        ],
        "Step 1 · Know your data": [
            st.Page("pages/2_classify.py", title="Classify", icon="🏷️"),
        ],
        "Step 2 · De-identify": [
            st.Page("pages/3_deidentify.py", title="De-identify", icon="🕶️"),
        ],
        "Step 3 · Apply techniques": [
            st.Page("pages/4_techniques.py", title="Techniques", icon="🛠️"),
            st.Page("pages/8_locations_dates.py", title="Locations and dates", icon="🗺️"),
            st.Page("pages/11_dp_release.py", title="Aggregate release", icon="🎲"),
            st.Page("pages/9_tradeoffs.py", title="Explore trade-offs", icon="⚖️"),
        ],
        "Step 4 · Compute your risk": [
            st.Page("pages/5_risk.py", title="Risk", icon="📊"),
            st.Page("pages/6_uniqueness.py", title="Uniqueness", icon="🎂"),
            st.Page("pages/15_survey_risk.py", title="Survey risk", icon="🧮"),
            st.Page("pages/10_contextual.py", title="Area-level risk", icon="🏘️"),
        ],
        "Step 5 · Manage the risk": [
            st.Page("pages/7_report.py", title="Report", icon="📝"),
            st.Page("pages/12_history.py", title="History", icon="🗂️"),
        ],
    }

    # Streamlit's own sectioned menu is not a valid list (axe-core: list, listitem): hidden, and
    # drawn by ui.navigation as headings and links instead, every page listed.
    navigation = st.navigation(PAGES, position="hidden")
    draw_menu(PAGES)
    # The library is imported only now, once the page set-up and the menu are on their way to
    # the browser (issue 31: a cold server's first table): the browser draws the menu while
    # the server imports.
    from ui.page_errors import friendly_errors  # noqa: E402
    from ui.state import following, presentation  # noqa: E402
    from ui.warm_up import warm_up_later_pages  # noqa: E402

    # The workspace is the single source of truth: load where it left off, or take over what
    # another session (a tab, the CLI) changed in it since the last rerun.
    following.sync_with_workspace()
    # A failing page (or sidebar) shows a short message, never a traceback with server paths.
    with friendly_errors():
        presentation.sidebar()
    with friendly_errors():
        navigation.run()
    # After the page: its import of the chart library would delay the first table otherwise.
    warm_up_later_pages()
finally:
    collector.resume()
