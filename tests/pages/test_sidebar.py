"""The sidebar (ui.state.sidebar): the recipe's latest steps in plain words, the delta of
P(re-ID) against the Annex D threshold, and the l-diversity = 1 warning (issue 17)."""

from __future__ import annotations

import os

from streamlit.proto.Metric_pb2 import Metric
from streamlit.testing.v1 import AppTest

from core.markup import escape_markdown
from core.recipe import Recipe
from core.schema import Role
from core.workspace import Workspace
from tests.pages.apptest_helpers import ROOT

REMOVED = ["name", "email", "mobile", "nric", "postal_code", "occupation"]


def _session(
    quasi_identifiers: list[str], sensitive: str | None = None, annex_d: dict | None = None
) -> AppTest:
    """A session that resumes a workspace holding the default sample with ``REMOVED``
    removed one step at a time, these roles and sensitive column. (AppTest draws the
    sidebar on a session's first run only, so the state is put in the workspace first.)"""
    first = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    first.run()  # the default sample (singapore_people.csv), not yet in the workspace:
    first.switch_page("pages/1_data.py").run()  # picked on Data, it is recorded there
    first.button(key="load_sample").click().run()
    roles = {c: Role.INDIRECT.value for c in quasi_identifiers}
    if sensitive is not None:
        roles[sensitive] = Role.TARGET.value
    steps = [{"step": "remove", "columns": [c]} for c in REMOVED]
    with Workspace(os.environ["ANON_WORKSPACE"]) as ws:
        sha = ws.settings()["current_data"]["sha256"]
        ws.set_roles(sha, roles, author="test")
        version = ws.add_recipe_version(Recipe(steps=steps).to_yaml(), message="t", author="t")
        ws.set_setting("current_recipe", version.id)
        ws.set_setting("sensitive", sensitive)
        if annex_d is not None:
            ws.set_setting("annex_d", annex_d)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def _p_reid(at: AppTest):
    return next(m for m in at.sidebar.metric if m.label == "Annex D P(re-ID)")


def test_sidebar_lists_the_latest_steps_in_plain_words_and_the_delta_direction():
    at = _session(["sex"])
    captions = [c.value for c in at.sidebar.caption]
    # 6 steps: the last 4 in words, numbered 3 to 6, and a line for the 2 before them.
    assert "... 2 earlier (all on Techniques)" in captions
    # (the words Markdown-escaped by core.markup, the number's dot escaped too)
    assert f"3\\. {escape_markdown('removed: mobile')}" in captions
    assert f"6\\. {escape_markdown('removed: occupation')}" in captions
    assert not any("name" in c or "remove:" in c for c in captions)
    # On sex alone k is in the hundreds: P(re-ID) is far below the threshold, so the
    # delta is negative (arrow down), shown as good with the inverse colouring.
    metric = _p_reid(at)
    assert metric.delta.startswith("-") and "against the threshold" in metric.delta
    assert "Annex D" in metric.help and "1/k" in metric.help
    assert not at.sidebar.warning


def test_sidebar_flags_a_group_that_reveals_its_sensitive_value():
    # On date of birth and sex most records are unique, so a group of one reveals its
    # diagnosis (l = 1) and P(re-ID) is above the threshold (delta positive, arrow up).
    at = _session(["date_of_birth", "sex"], sensitive="diagnosis")
    assert not _p_reid(at).delta.startswith("-")
    assert any("l-diversity = 1" in w.value and "diagnosis" in w.value for w in at.sidebar.warning)


def test_at_the_threshold_the_margin_reads_zero_without_an_arrow():
    """Issue 29: a P(re-ID) one float step from its threshold read "↓ -1.39e-17 against the
    threshold 0.1". Here the threshold is the float just below P(attempt) / k: acceptable
    (within rounding), so the margin reads 0, with no red or green arrow."""
    import math

    import pandas as pd

    people = pd.read_csv(ROOT / "sample_data" / "singapore_people.csv", usecols=["sex"])
    k = int(people.groupby("sex").size().min())  # REMOVED takes no row away
    # high controls and high motivation: P(attempt) = 0.1 (Annex D's insider table)
    harm = math.nextafter(0.1 / k, 0.0)
    settings = {"controls": "high", "motivation": "high", "acquaintance": 0.0, "breach": 0.0}
    at = _session(["sex"], annex_d={**settings, "harm": harm})
    metric = _p_reid(at)
    assert metric.delta.startswith("0 against the threshold"), metric.delta
    assert (metric.proto.direction, metric.proto.color) == (Metric.NONE, Metric.GRAY)
    assert any("Within the Annex D threshold" in s.value for s in at.sidebar.success)
