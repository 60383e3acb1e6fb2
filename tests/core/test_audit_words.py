"""core.audit_words: an audit entry's tokens in words, unknown ones never refused."""

from core.audit_words import action_in_words, object_in_words

DIGEST = "3f2a" + "0" * 56 + "9c1b"


def test_known_objects_read_as_words():
    assert object_in_words("setting:current_recipe") == "setting: current recipe"
    assert object_in_words("setting:sign_off") == "setting: sign-off"
    named = {DIGEST: "patients.csv"}
    assert (
        object_in_words(f"dataset:{DIGEST}", named) == "data set 'patients.csv' (sha256 3f2a…9c1b)"
    )
    assert object_in_words(f"dataset:{DIGEST}") == "data set (sha256 3f2a…9c1b)"
    assert object_in_words("recipe:3") == "recipe version 3"
    # a hierarchy by its column, not the content-hashed name it is kept under
    assert (
        object_in_words("hierarchy:hierarchies/Age-0a1b2c3d4e.csv") == "hierarchy of column 'Age'"
    )
    assert object_in_words("hierarchy:ages.csv") == "hierarchy 'ages.csv'"
    assert object_in_words("mapping:nric") == "mapping table of column 'nric'"


def test_a_token_from_a_crafted_workspace_is_shown_plainly():
    # A kind or setting this tool never writes: underscores as spaces, a hash shortened.
    assert object_in_words("setting:night_mode") == "setting: night mode"
    assert object_in_words(f"odd_kind:{DIGEST}") == "odd kind: 3f2a…9c1b"
    assert object_in_words("no_colon_here") == "no colon here"
    assert action_in_words("store_data") == "data set rows stored"
    assert action_in_words("new_action") == "new action"
