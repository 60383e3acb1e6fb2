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
from streamlit.navigation.page import StreamlitPage

#: The menu's container key: Streamlit gives it the CSS class ``st-key-app_menu``.
MENU_KEY = "app_menu"


def draw_menu(pages: Mapping[str, Sequence[StreamlitPage]]) -> None:
    """The sections of ``pages`` (the dict given to ``st.navigation``) in the sidebar."""
    with st.sidebar, st.container(key=MENU_KEY, gap="small"):
        for section, entries in pages.items():
            st.markdown(f"**{section}**")
            for page in entries:
                st.page_link(page)
        st.divider()
