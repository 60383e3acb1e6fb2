"""AppTest checks of pages/3_deidentify.py (Step 2: remove or pseudonymise direct identifiers)."""

from __future__ import annotations

import hashlib
import hmac
import os
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.identifiers import valid_nric_mask
from ui import data_steps

ROOT = Path(__file__).resolve().parents[2]
KEY_ENV = "ANON_PSEUDONYM_KEY"


def session_replay(at: AppTest):
    """The replay of the session's current recipe, as ui.state caches it (ui.state.replay.current())."""
    recipe = at.session_state["history"].current
    return at.session_state["prefix_cache"][(recipe.seed or 0, repr(recipe.steps))]


def open_page(accept: bool = True) -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    app.run()
    if accept:
        app.switch_page("pages/2_classify.py").run()
        app.button(key="accept_all").click().run()
    app.switch_page("pages/3_deidentify.py").run()
    return app


def test_without_confirmed_roles_points_to_classify():
    at = open_page(accept=False)
    assert not at.exception
    assert any("Classify" in i.value for i in at.info)


def test_confirmed_roles_without_direct_identifiers_say_there_are_none():
    from core.schema import Role

    at = open_page(accept=False)
    at.session_state["roles"] = {"sex": Role.INDIRECT, "race": Role.INDIRECT}
    at.run()
    assert not at.exception, at.exception
    shown = " ".join(i.value for i in at.info)
    assert "This table has no column classified as a direct identifier" in shown
    assert "No roles are confirmed" not in shown


def test_lists_the_direct_identifiers():
    at = open_page()
    assert not at.exception
    keys = {s.key for s in at.selectbox}
    assert {"method_nric", "method_name", "method_email", "method_mobile"} <= keys


def test_remove_names_and_pseudonymise_nric():
    at = open_page()
    at.selectbox(key="method_name").set_value("remove")
    at.selectbox(key="method_nric").set_value("random")
    at.selectbox(key="method_email").set_value("keep")
    at.selectbox(key="method_mobile").set_value("keep")
    at.button(key="apply_deidentify").click().run()
    assert not at.exception and not at.error
    original = at.session_state["original"]
    recipe = at.session_state["history"].current
    assert list(recipe.steps) == [
        {"step": "remove", "columns": ["name"]},
        {"step": "pseudonymise", "column": "nric", "method": "random"},
    ]
    # What the page shows after the change: the same records, name gone, nric tokens.
    before, after = at.dataframe[0].value, at.dataframe[1].value
    assert "name" in before.columns and "name" not in after.columns
    assert valid_nric_mask(before["nric"]).all()
    assert not valid_nric_mask(after["nric"].astype(str)).any()
    assert after["nric"].astype(str).str.fullmatch(r"\d{6}").all()
    # The session's replay (what ui.state.replay.current() returns) and its identity mapping table
    # recover every original NRIC when joined on the pseudonym.
    replay = session_replay(at)
    assert "name" not in replay.data.columns
    assert list(replay.data["nric"].head(10).astype(str)) == list(after["nric"].astype(str))
    mapping = replay.mappings["nric"]
    joined = replay.data[["nric"]].merge(
        mapping.rename(columns={"nric": "original"}),
        left_on="nric",
        right_on="pseudonym",
        how="left",
    )
    assert joined["original"].notna().all()
    assert list(joined["original"]) == list(original["nric"])
    assert original["nric"].nunique() == len(mapping) == mapping["pseudonym"].nunique()
    # the mapping table is offered for download, plain and encrypted (passphrase needed)
    keys = {b.key: b for b in at.get("download_button")}
    assert "download_mapping_nric" in keys
    assert keys["download_mapping_encrypted_nric"].proto.disabled
    # handled columns are no longer offered
    assert "method_nric" not in {s.key for s in at.selectbox}


def use_key_button(at: AppTest):
    return at.button[[b.label for b in at.button].index("Use this key for this session")]


def test_typed_hmac_key_stays_in_its_session(monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    environment = dict(os.environ)
    at = open_page()
    at.selectbox(key="method_nric").set_value("hmac").run()
    assert any(KEY_ENV in w.value and "not set" in w.value for w in at.warning)
    secret = "a-typed-key-of-32-characters-xyz"
    at.text_input(key="hmac_key").input(secret)
    use_key_button(at).click().run()
    assert not at.exception and not at.error
    assert at.text_input(key="hmac_key").value == ""  # the form clears the typed key
    assert any("typed in this session" in s.value for s in at.success)
    for key in ("method_name", "method_email", "method_mobile"):
        at.selectbox(key=key).set_value("keep")
    at.button(key="apply_deidentify").click().run()
    assert not at.exception and not at.error
    recipe = at.session_state["history"].current
    assert list(recipe.steps) == [
        {"step": "pseudonymise", "column": "nric", "method": "hmac", "key_env": KEY_ENV}
    ]
    assert secret not in recipe.to_yaml()
    # The replay used the typed key: HMAC-SHA256(key, NRIC), first 16 hex digits, by hand.
    first = at.session_state["original"]["nric"].iloc[0]
    expected = hmac.new(secret.encode(), first.encode(), hashlib.sha256).hexdigest()[:16]
    assert session_replay(at).data["nric"].iloc[0] == expected
    # The server's environment is unchanged, and another session knows nothing of the key:
    # it restores the recipe from the workspace (only the key's name is stored there) and is
    # asked for the key before anything is replayed.
    assert dict(os.environ) == environment
    other = open_page(accept=False)  # the workspace restored the confirmed roles
    assert not other.exception
    assert any(KEY_ENV in e.value and "not set in this session" in e.value for e in other.error)
    assert not other.get("selectbox")  # nothing of the page is shown without the key
    other.text_input(key="missing_key").input(secret)
    other.button[0].click().run()
    assert not other.exception and not other.error
    assert session_replay(other).data["nric"].iloc[0] == expected


@pytest.mark.parametrize("name", ["HOME", "PATH", "ANON_DATA"])
def test_key_variable_outside_the_anon_prefix_is_refused_without_saying_if_it_is_set(name):
    assert name != "PATH" or os.environ.get("PATH")  # PATH is set on every server
    at = open_page()
    at.selectbox(key="method_nric").set_value("hmac").run()
    at.text_input(key="key_env").input(name).run()
    assert not at.exception
    assert any("ANON_" in e.value for e in at.error)
    shown = [m.value for m in (*at.success, *at.warning, *at.error)]
    assert not any("is set" in text or "not set" in text for text in shown), shown
    assert use_key_button(at).proto.disabled
    for key in ("method_name", "method_email", "method_mobile"):
        at.selectbox(key=key).set_value("keep")
    at.button(key="apply_deidentify").click().run()
    assert at.session_state["history"].current.steps == ()


def test_too_short_typed_key_is_refused(monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    at = open_page()
    at.selectbox(key="method_nric").set_value("hmac").run()
    at.text_input(key="hmac_key").input("short")
    use_key_button(at).click().run()
    assert any("at least" in e.value for e in at.error)
    assert KEY_ENV not in os.environ
    assert "session_keys" not in at.session_state


def test_hmac_without_key_shows_the_error_and_keeps_the_recipe(monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    at = open_page()
    at.selectbox(key="method_nric").set_value("hmac")
    at.button(key="apply_deidentify").click().run()
    assert any(KEY_ENV in e.value for e in at.error)
    assert at.session_state["history"].current.steps == ()


@pytest.mark.parametrize(
    ("choices", "expected"),
    [
        ({"a": "remove", "b": "remove", "c": "keep"}, [{"step": "remove", "columns": ["a", "b"]}]),
        (
            {"a": "double", "b": "hmac"},
            [
                {"step": "pseudonymise", "column": "a", "method": "double"},
                {"step": "pseudonymise", "column": "b", "method": "hmac", "key_env": "K"},
            ],
        ),
    ],
)
def test_deidentify_steps(choices, expected):
    assert data_steps.deidentify_steps(choices, key_env="K") == expected


def test_encrypted_mapping_download_needs_the_same_12_character_passphrase_as_the_report():
    at = open_page()
    at.selectbox(key="method_nric").set_value("random")
    for key in ("method_name", "method_email", "method_mobile"):
        at.selectbox(key=key).set_value("keep")
    at.button(key="apply_deidentify").click().run()
    at.text_input(key="passphrase_mapping_nric").input("short-pass1").run()  # 11 characters
    assert not at.exception
    assert at.download_button(key="download_mapping_encrypted_nric").proto.disabled
    assert any("has 11 characters; use at least 12" in w.value for w in at.warning)
    at.text_input(key="passphrase_mapping_nric").input("long-passphrase").run()
    assert not at.download_button(key="download_mapping_encrypted_nric").proto.disabled
    assert not any("use at least 12" in w.value for w in at.warning)
