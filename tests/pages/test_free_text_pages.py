"""AppTest checks of issue 16 on the dashboard: Classify reads the values, De-identify scans
free text and adds a redact_text step (the issue's c1..c9 patients table, via ANON_DATA)."""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest_helpers import open_app

from core.detect import find_entities
from core.io import read_table
from scripts import make_pii_data


@pytest.fixture
def patients(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "patients.csv"
    make_pii_data.patients_table(200, seed=16).to_csv(path, index=False)
    monkeypatch.setenv("ANON_DATA", str(path))
    return path


def test_classify_shows_what_the_values_are(patients):
    at = open_app("pages/2_classify.py")
    table = at.dataframe(key="roles_editor").value.set_index("column")
    assert table.loc["c1", "found"] == "name" and table.loc["c1", "suggested"] == "direct"
    assert "look like person names" in table.loc["c1", "reason"]
    assert table.loc["c2", "found"] == "phone" and "country code" in table.loc["c2", "reason"]
    assert table.loc["c3", "found"] == "address"
    assert table.loc["c4", "found"] == "nric" and table.loc["c8", "found"] == "email"
    assert table.loc["c9", "found"] == "free text"
    assert "scanner found" in table.loc["c9", "reason"]


def test_deidentify_scans_free_text_and_adds_redact_text(patients):
    at = open_app("pages/2_classify.py")
    at.button(key="accept_all").click().run()
    at.switch_page("pages/3_deidentify.py").run()
    assert not at.exception, at.exception
    assert at.multiselect(key="ft_columns").value == ["c9"]
    counts = at.dataframe[0].value
    # Independent count: cells of c9 with at least one email, by a plain substring test
    # on the generator's own record of what it wrote into each note.
    notes = make_pii_data.labelled_notes(200, seed=17)
    with_email = sum(any(kind == "email" for kind, _ in note.entities) for note in notes)
    assert counts.loc["c9", "email"] == with_email
    # the scanner's redaction alone (the residue option, ticked by default, also replaces
    # name-like words such as a hospital's "Tan Tock Seng": tests/pages/test_release_fixes_page.py)
    at.checkbox(key="ft_residue").uncheck().run()
    # the button says what it adds in words, not the step's registry name (issue 29)
    assert at.button(key="ft_add").label == "Add the redaction to the recipe"
    at.button(key="ft_add").click().run()
    assert not at.exception and not at.error
    step = at.session_state["history"].current.steps[-1]
    assert step["step"] == "redact_text" and step["columns"] == ["c9"]
    assert step["mode"] == "label"
    from core.recipe import apply_recipe

    out = apply_recipe(read_table(patients), at.session_state["history"].current).data
    for before, after in zip(read_table(patients)["c9"], out["c9"], strict=True):
        assert (after == before) == (not find_entities(before))
    assert not any("@" in text for text in out["c9"])


def test_safe_harbor_page_removes_free_text_by_default(patients):
    at = open_app("pages/8_locations_dates.py")
    assert at.radio(key="sh_free_text").value == "remove"  # issue 26: remove by default
    reports = [d.value for d in at.dataframe if "action" in getattr(d.value, "columns", [])]
    assert reports, "the Safe Harbor report table is shown"
    actions = reports[-1].set_index("column")["action"]
    assert actions["c1"] == "removed" and actions["c2"] == "removed"
    assert actions["c9"] == "removed"
    # One line per identifier A-R, in plain words, citing the rule.
    lines = [t.value for t in at.table if "how handled" in getattr(t.value, "columns", [])]
    assert lines and len(lines[-1]) == 18
    assert lines[-1]["identifier"].iloc[0] == "(A) Names"
    assert any("164.514(b)(2)" in m.value for m in at.markdown)
    # Redaction is the opt-in, and says how much it misses.
    at.radio(key="sh_free_text").set_value("redact").run()
    assert any("Measured recall" in c.value for c in at.caption)
    reports = [d.value for d in at.dataframe if "action" in getattr(d.value, "columns", [])]
    assert reports[-1].set_index("column")["action"]["c9"] == "redacted"
    assert any("was redacted" in c.value for c in at.caption)
