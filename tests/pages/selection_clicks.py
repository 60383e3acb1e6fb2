"""Clicks on a table row or a chart point in AppTest, which has no method for them.

The browser sends a selection as the element's widget state, a JSON text
(``{"selection": {"rows": [3]}}`` for ``st.dataframe``, ``{"selection": {<param>: [{field:
value}]}}`` for a Vega-Lite point selection); these helpers send the same with the other
widgets' values, as one rerun.
"""

from __future__ import annotations

import json
from typing import Any

from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest


def _element(at: AppTest, kind: str, key_start: str) -> Any:
    found = [e for e in at.get(kind) if (getattr(e, "key", None) or "").startswith(key_start)]
    assert len(found) == 1, f"{len(found)} {kind} elements with a key starting {key_start!r}"
    return found[0]


def _send(at: AppTest, element_id: str, value: dict) -> AppTest:
    states = at._tree.get_widget_states()
    sent = WidgetStates()
    sent.widgets.extend(w for w in states.widgets if w.id != element_id)
    state = sent.widgets.add()
    state.id = element_id
    state.string_value = json.dumps(value)
    return at._run(sent)


def click_row(at: AppTest, key_start: str, row: int) -> AppTest:
    """Click row ``row`` (0-based, in the table's own order) of the st.dataframe whose key
    starts with ``key_start``; the script reruns."""
    frame = _element(at, "dataframe", key_start)
    return _send(at, frame.proto.id, {"selection": {"rows": [row], "columns": [], "cells": []}})


def click_point(at: AppTest, key: str, selection: str, fields: dict) -> AppTest:
    """Click the point with ``fields`` of the Vega-Lite chart ``key`` (its point selection
    ``selection``); the script reruns."""
    chart = _element(at, "vega_lite_chart", key)
    return _send(at, chart.proto.id, {"selection": {selection: [fields]}})
