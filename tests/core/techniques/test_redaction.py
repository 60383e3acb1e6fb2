"""redact_text (PDPC guide, Step 2): identifiers inside free text, replaced in place."""

from __future__ import annotations

import hashlib
import hmac
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.detect import find_entities
from core.errors import ParameterError, RecipeError, SecretError
from core.io import read_table
from core.recipe import Recipe, apply_recipe, describe_step, to_python_script
from core.techniques import redact_text

ROOT = Path(__file__).resolve().parents[3]
KEY = b"0123456789abcdef-test-key-32byte"


def notes() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "notes": [
                "Referral letter emailed to ann.lee@clinic.example",
                "Call back on +1 617-555-0199",
                "patient Ravi bin Abdullah reports chest pain",
                "no complaints today",
                None,
                "Ravi bin Abdullah seen again, NRIC S1234567D",
            ],
            "age": [30, 41, 52, 63, 74, 85],
        }
    )


def test_labels_replace_entities_and_leave_other_cells_alone():
    df = notes()
    before = df.copy()
    out = redact_text(df, ["notes"])
    assert out["notes"].tolist()[:4] == [
        "Referral letter emailed to [EMAIL]",
        "Call back on [PHONE]",
        "patient [NAME] reports chest pain",
        "no complaints today",
    ]
    assert pd.isna(out["notes"].iloc[4])
    assert out["notes"].iloc[5] == "[NAME] seen again, NRIC [ID]"
    pd.testing.assert_frame_equal(df, before)  # the input is never changed
    pd.testing.assert_series_equal(out["age"], df["age"])


def test_kinds_limit_what_is_redacted():
    out = redact_text(notes(), "notes", kinds=["email", "id"])
    assert out["notes"].iloc[0].endswith("[EMAIL]")
    assert out["notes"].iloc[1] == "Call back on +1 617-555-0199"
    assert out["notes"].iloc[5] == "Ravi bin Abdullah seen again, NRIC [ID]"
    with pytest.raises(ParameterError, match="unknown kind 'passport'"):
        redact_text(notes(), "notes", kinds=["passport"])


def test_pseudonyms_are_keyed_hmacs_consistent_per_entity():
    out = redact_text(notes(), "notes", mode="pseudonym", key=KEY)
    # Independent check: HMAC-SHA256(key, kind NUL normalised text), first 8 hex digits.
    name = hmac.new(KEY, b"name\x00ravi bin abdullah", hashlib.sha256).hexdigest()[:8]
    phone = hmac.new(KEY, b"phone\x0016175550199", hashlib.sha256).hexdigest()[:8]
    assert out["notes"].iloc[2] == f"patient [NAME-{name}] reports chest pain"
    assert out["notes"].iloc[5].startswith(f"[NAME-{name}] seen again")
    assert out["notes"].iloc[1] == f"Call back on [PHONE-{phone}]"
    other = redact_text(notes(), "notes", mode="pseudonym", key=b"another key of 16+ bytes")
    assert other["notes"].iloc[2] != out["notes"].iloc[2]
    with pytest.raises(ParameterError, match="needs a key"):
        redact_text(notes(), "notes", mode="pseudonym")
    with pytest.raises(SecretError, match="too short"):
        redact_text(notes(), "notes", mode="pseudonym", key=b"short")
    with pytest.raises(ParameterError, match="mode"):
        redact_text(notes(), "notes", mode="blank")


WORDS = st.sampled_from(
    [
        "the",
        "patient",
        "felt",
        "better",
        "after",
        "rest",
        "and",
        "fluids",
        "tan",
        "coat",
        "may",
        "improve",
        "Follow",
        "up",
        "in",
        "two",
        "weeks",
        "123",
        "x",
        "-",
        "Referral",
    ]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(WORDS, min_size=0, max_size=12).map(" ".join), min_size=1, max_size=8))
def test_cells_without_an_entity_are_never_changed(cells):
    df = pd.DataFrame({"t": cells})
    out = redact_text(df, "t")
    for before, after in zip(df["t"], out["t"], strict=True):
        if not find_entities(before):
            assert after == before
        else:
            assert after != before


def test_numbers_and_long_cells():
    long_note = "nothing to report. " * 6000 + "Call +65 9123 4567."
    df = pd.DataFrame({"mobile": [91234567, 81234567], "note": [long_note, "ok"]})
    out = redact_text(df, ["mobile", "note"])
    assert out["mobile"].tolist() == ["[PHONE]", "[PHONE]"]
    assert out["note"].iloc[0].endswith("Call [PHONE].") and out["note"].iloc[1] == "ok"
    untouched = redact_text(pd.DataFrame({"n": [1.5, 2.5]}), "n")
    assert untouched["n"].dtype == float


def test_recipe_step_replays_describes_and_exports(tmp_path, monkeypatch):
    recipe = Recipe.from_yaml(
        "steps:\n"
        "  - {step: redact_text, columns: [notes], kinds: [name, email, phone]}\n"
        "  - {step: redact_text, columns: notes, mode: pseudonym, key_env: ANON_NOTES_KEY}\n"
    )
    monkeypatch.setenv("ANON_NOTES_KEY", KEY.decode())
    result = apply_recipe(notes(), recipe)
    assert result.data["notes"].iloc[0] == "Referral letter emailed to [EMAIL]"
    assert result.data["notes"].iloc[5].startswith("[NAME] seen again, NRIC [ID-")
    assert (
        describe_step(recipe.steps[0])
        == "name, email, phone found in notes replaced by labels such as [NAME]"
    )
    script = to_python_script(recipe)
    assert "t.redact_text(df, ['notes'], mode='label', kinds=['name', 'email', 'phone'])" in script
    assert "key=key_from_env('ANON_NOTES_KEY')" in script
    assert KEY.decode() not in script + recipe.to_yaml()
    source = tmp_path / "notes.csv"
    notes().to_csv(source, index=False)
    target = tmp_path / "out.csv"
    path = tmp_path / "replay.py"
    path.write_text(script, encoding="utf-8")
    env = {"PYTHONPATH": str(ROOT), "ANON_NOTES_KEY": KEY.decode()}
    subprocess.run([sys.executable, str(path), str(source), str(target)], check=True, env=env)
    replayed = read_table(target)
    expected = apply_recipe(read_table(source), recipe).data
    pd.testing.assert_series_equal(replayed["notes"], expected["notes"], check_dtype=False)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("steps: [{step: redact_text, columns: [notes], mode: pseudonym}]", "needs 'key_env'"),
        ("steps: [{step: redact_text, columns: [notes], key_env: ANON_K}]", "only used with"),
        ("steps: [{step: redact_text, columns: [notes], mode: pseudonym, key_env: HOME}]", "ANON_"),
        ("steps: [{step: redact_text, columns: [notes], key: abc}]", "never hold a key"),
    ],
)
def test_recipe_errors(text, message):
    with pytest.raises(RecipeError, match=message):
        Recipe.from_yaml(text)
