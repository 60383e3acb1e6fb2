"""The page menu in the sidebar: one link per page, under the guide's five steps.

Streamlit's own sectioned menu (``st.navigation`` given a dict) renders each section as
``<div><header/><li>...</li></div>`` directly inside a ``<ul>``: not a valid list, which
axe-core reports on every page (rules ``list`` and ``listitem``; issue 29). app.py hides
that menu (``position="hidden"``) and this module draws it instead with ``st.page_link``:
each section a heading, each page a link, nothing that claims to be a list and is not one.
A link switches the page within the session (no reload), as Streamlit's menu does, and the
current page's link is marked as such by Streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st
import streamlit.delta_generator
from streamlit.navigation.page import StreamlitPage

#: The menu's container key: Streamlit gives it the CSS class ``st-key-app_menu``.
MENU_KEY = "app_menu"


def skip_the_interpreter_check() -> None:
    """Streamlit checks once per process, at the first element drawn, whether it runs in an
    interactive interpreter, to print a warning: ``inspect.stack()``, which resolves the
    real path of every module loaded (about a thousand, pandas being imported beside it).
    In the server that took 0.16-0.22 s of the first run, before the first table (timed in
    the server, issue 31). app.py only ever runs under ``streamlit run``: the check is
    marked done. The mark is a private flag of Streamlit 1.67; a release without it loses
    only the time."""
    flag = "_use_warning_has_been_displayed"
    if hasattr(streamlit.delta_generator, flag):
        setattr(streamlit.delta_generator, flag, True)


def draw_menu(pages: Mapping[str, Sequence[StreamlitPage]]) -> None:
    """The sections of ``pages`` (the dict given to ``st.navigation``) in the sidebar."""
    skip_the_interpreter_check()
    with st.sidebar, st.container(key=MENU_KEY, gap="small"):
        for section, entries in pages.items():
            st.markdown(f"**{section}**")
            for page in entries:
                st.page_link(page)
        st.divider()
