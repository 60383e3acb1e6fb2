"""Long work says what it does (issue 29, "No sign of long work"): De-identify on 50,000
rows left the page blank for 35-40 s, redaction and Apply only greyed it. Each such
computation now shows a spinner or a progress bar with what it computes.

Streamlit removes a spinner and the replay's progress bar when the work ends, so AppTest
never sees them in the finished page: the tests record what ``st.spinner`` and
``st.progress`` were asked to show while the script ran.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import streamlit
from apptest_helpers import open_sample

import ui.state.replay
from core.schema import Role


@pytest.fixture
def shown_work(monkeypatch) -> Iterator[list[str]]:
    """The texts of every spinner and progress bar drawn while the app runs."""
    texts: list[str] = []
    spinner, progress = streamlit.spinner, streamlit.progress

    def recording_spinner(text="", *args, **kwargs):
        texts.append(str(text))
        return spinner(text, *args, **kwargs)

    class RecordingBar:  # the bar's later texts (each step) go through its .progress
        def __init__(self, bar):
            self.bar = bar

        def progress(self, value=0, text=None):
            texts.append(str(text))
            return self.bar.progress(value, text=text)

        def empty(self):
            return self.bar.empty()

    def recording_progress(value=0, text=None, *args, **kwargs):
        texts.append(str(text))
        return RecordingBar(progress(value, text, *args, **kwargs))

    monkeypatch.setattr(streamlit, "spinner", recording_spinner)
    monkeypatch.setattr(streamlit, "progress", recording_progress)
    # The sample has 10,000 records; a replay names its steps from 20,000: show it here.
    monkeypatch.setattr(ui.state.replay, "PROGRESS_ROWS", 1)
    yield texts


def test_de_identify_says_what_it_does_and_which_step_runs(shown_work):
    at = open_sample("singapore_people.csv", ["sex", "race"], "pages/2_classify.py")
    at.session_state["roles"] = {"sex": Role.INDIRECT, "nric": Role.DIRECT, "name": Role.DIRECT}
    at.switch_page("pages/3_deidentify.py").run()
    shown_work.clear()
    at.button(key="apply_deidentify").click().run()
    assert not at.exception, at.exception
    assert any("direct identifiers in 10,000 records" in text for text in shown_work), shown_work
    # the replay names the step in words (core.step_words), not its registry name
    assert any(
        text.startswith("Step 1 of 1: removed: nric, name") and "10,000 records" in text
        for text in shown_work
    ), shown_work


def test_trade_offs_apply_says_what_it_applies(shown_work):
    at = open_sample("guide_annex_c_taxi.csv", ["Age", "Gender"], "pages/9_tradeoffs.py")
    at.selectbox(key="to_kind_Age").set_value("numeric").run()
    at.number_input(key="to_k").set_value(2)
    at.button(key="to_run").click().run()
    assert not at.exception, at.exception
    shown_work.clear()
    at.button(key="to_apply").click().run()
    assert not at.exception, at.exception
    assert any(text.startswith("Applying the option (Age ") for text in shown_work), shown_work
