"""AppTest checks of issue 30 on Explore trade-offs: every hierarchy on "auto" follows what
Step 1 found (dates of birth keep their year, postal codes are masked), and a search
stopped by a rerun keeps its best so far, labelled as possibly not the optimum."""

from __future__ import annotations

import pytest
import streamlit as st
from apptest_helpers import open_app

import core.search.run
from core.search.watch import StopSearch

PAGE = "pages/9_tradeoffs.py"


@pytest.fixture
def people_page(people, tmp_path, monkeypatch):
    path = tmp_path / "people.csv"
    people.to_csv(path, index=False)
    monkeypatch.setenv("ANON_DATA", str(path))
    at = open_app("pages/2_classify.py")
    at.button(key="accept_all").click().run()  # Step 1's roles: dob, postal, addr indirect
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    assert at.multiselect(key="to_qi").value == ["dob", "postal", "addr"]
    at.number_input(key="to_k").set_value(5)
    at.number_input(key="to_supp").set_value(1.0)
    return at


def test_auto_hierarchies_keep_the_year_of_birth_and_a_masked_postal_code(people_page):
    at = people_page
    assert [at.selectbox(key=f"to_kind_{c}").value for c in ("dob", "postal", "addr")] == [
        "auto",
        "auto",
        "auto",
    ]
    captions = " ".join(c.value for c in at.caption)
    assert "Step 1 found date of birth: day → month → year → decade → \\*" in captions
    assert "Step 1 found postal code: masked from the right" in captions
    assert "Step 1 found address: house and unit dropped (street kept) → postal" in captions
    at.button(key="to_run").click().run()
    assert not at.exception and not at.error, (at.exception, at.error)
    result, hierarchies = at.session_state["tradeoff_result"]
    best = result.optimum
    assert best.k >= 5 and best.share_suppressed <= 0.01
    dob = hierarchies["dob"].levels[best.levels["dob"]]
    assert dob.str.fullmatch(r"\d{4}(-\d{2})?(-\d{2})?|\d{2}/\d{2}/\d{4}").all()  # year or finer
    postal = hierarchies["postal"].levels[best.levels["postal"]]
    assert postal.str.fullmatch(r"\d+\*+").all()  # masked from the right, not '*'
    answer = at.success[0].value
    assert "postal → " in answer and "dob → " in answer and "removed" not in answer.split(";")[0]


def test_a_search_stopped_by_a_rerun_keeps_its_best_so_far(people_page, monkeypatch):
    """A click during the search reruns the page, which ends the search at its next progress
    report (Streamlit raises in the script's thread); st.rerun() at the 10th node does that
    here. The rerun shows the best found so far, labelled."""
    searching = core.search.run.search
    reruns = []

    def clicked_during(*args, progress, **kwargs):
        def report(fraction: float, text: str) -> None:
            progress(fraction, text)
            if text.startswith("10 of") and not reruns:
                reruns.append(text)
                st.rerun()

        return searching(*args, progress=report, **kwargs)

    monkeypatch.setattr(core.search.run, "search", clicked_during)
    monkeypatch.setattr("core.search.watch.UPDATE_INTERVAL", 0.0)
    at = people_page
    at.button(key="to_run").click().run()
    assert reruns and not at.exception and not at.error, (at.exception, at.error)
    warning = at.warning[0].value
    assert warning.startswith("Stopped after 10 of 140 nodes: the best found so far, possibly")
    result, _ = at.session_state["tradeoff_result"]
    assert result.stopped and result.evaluated == 10 and result.optimum is not None
    assert at.success[0].value.startswith("Stopped after 10 of 140 nodes")
    assert "search_running" not in at.session_state  # taken up once
    at.run()
    assert not at.warning or "Stopped" not in at.warning[0].value


def test_a_search_the_core_stops_itself_leaves_nothing_to_take_up(people_page, monkeypatch):
    searching = core.search.run.search

    def stopped_at_once(*args, progress, **kwargs):
        def report(fraction: float, text: str) -> None:
            raise StopSearch  # the core's own stop: the search returns its (empty) best

        return searching(*args, progress=report, **kwargs)

    monkeypatch.setattr(core.search.run, "search", stopped_at_once)
    at = people_page
    at.button(key="to_run").click().run()
    assert not at.exception
    assert "search_running" not in at.session_state and not at.warning
    assert at.success[0].value == (
        "Stopped after 1 of 140 nodes: the best found so far, possibly not the optimum. No "
        "solution was found before the stop."
    )
