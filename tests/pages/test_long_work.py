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


def test_classify_says_it_suggests_the_roles(shown_work):
    at = open_sample("singapore_people.csv", [], "pages/1_data.py")
    shown_work.clear()
    at.session_state["suggestions"] = None  # as after a new upload: suggested on first use
    at.switch_page("pages/2_classify.py").run()
    assert not at.exception, at.exception
    assert "Suggesting a role for each of the 13 columns (10,000 records)..." in shown_work


def test_an_upload_says_it_reads_the_file(shown_work):
    at = open_sample("singapore_people.csv", [], "pages/1_data.py")
    upload = b"id,town\n" + b"".join(b"%d,Bedok\n" % i for i in range(200_000))
    at.file_uploader(key="upload").set_value(("towns.csv", upload, "text/csv")).run()
    assert not at.exception, at.exception
    assert at.session_state["source_name"] == "towns.csv"
    assert f"Reading 'towns.csv' ({len(upload) / 1e6:.1f} MB)..." in shown_work, shown_work


def test_de_identify_rescans_free_text_only_when_the_scanner_finds_nothing(shown_work, monkeypatch):
    """Issue 29: the first visit to De-identify on 50,000 notes read every cell twice (the
    scan, then a rescan only needed when the scan finds nothing to redact), 11 s more,
    the second with nothing on screen."""
    import ui.free_text

    rescanned: list[str] = []
    rescan = ui.free_text.rescan
    monkeypatch.setattr(
        ui.free_text, "rescan", lambda values: rescanned.append(values.name) or rescan(values)
    )
    at = open_sample("singapore_people.csv", [], "pages/2_classify.py")
    at.session_state["roles"] = {"name": Role.DIRECT}
    at.switch_page("pages/3_deidentify.py").run()
    at.multiselect(key="ft_columns").set_value(["name"]).run()  # names: the scanner finds them
    assert not at.exception, at.exception
    assert at.button(key="ft_add")  # the redaction is offered
    assert rescanned == []
    at.multiselect(key="ft_columns").set_value(["sex"]).run()  # nothing the scanner knows
    assert rescanned == ["sex"]
    assert "Rescanning 10,000 redacted cells of 'sex'..." in shown_work
