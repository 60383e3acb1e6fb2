"""Widget-key housekeeping.

A widget keeps its own value across reruns and its page writes that value back. So a page
registers each widget that shows a setting the session follows from the workspace
(:mod:`ui.state.following`) under that setting's name, as it draws it; when another
session changes the setting, the widgets registered under it are forgotten, to be drawn
again from the new value instead of writing the old one back. The registry is the
session's own: a widget has a value in this session only if a page drew it here.
"""

from __future__ import annotations

from ui.state.session import session

_SHOWING = "widgets_showing"  # setting name -> the widget keys registered under it


def showing(setting: str, key: str) -> str:
    """Register the widget ``key`` as showing ``setting`` (a workspace setting's name, or
    "roles" for the role pickers); return ``key``, for the widget's ``key=``."""
    registry = session().setdefault(_SHOWING, {})
    registry.setdefault(setting, set()).add(key)
    return key


def forget_widgets_showing(setting: str) -> None:
    """Drop the values of the widgets registered as showing ``setting``."""
    state = session()
    for key in (state.get(_SHOWING) or {}).get(setting, ()):
        state.pop(key, None)


def forget_widget(key: str) -> None:
    """Drop a widget's stored value (e.g. a table editor's edits); call from a callback."""
    session().pop(key, None)
