"""Pseudonymisation (PDPC guide, Step 2 and Annex A), checked against independent methods."""

from __future__ import annotations

import hashlib
import hmac

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.pandas import column, data_frames

from core.errors import ColumnNotFoundError, ParameterError, SecretError
from core.techniques import pseudonymisation
from core.techniques.pseudonymisation import (
    Pseudonymised,
    decrypt_table,
    double_code,
    encrypt_table,
    key_from_env,
    passphrase_problem,
    pseudonymise_hmac,
    pseudonymise_random,
)

KEY = b"0123456789abcdef-test-key-32byte"
OTHER_KEY = b"fedcba9876543210-other-key-32byt"


@pytest.fixture
def licences() -> pd.DataFrame:
    """PDPC guide, Annex A, Pseudonymisation example (driving licences), one name repeated."""
    return pd.DataFrame(
        {
            "Person": [
                "Joe Phang",
                "Zack Lim",
                "Eu Cheng San",
                "Linnie Mok",
                "Jeslyn Tan",
                "Chan Siew Lee",
                "Joe Phang",
            ],
            "Pre-assessment result": ["A", "B", "C", "D", "B", "A", "A"],
            "Hours of lessons taken before passing": [20, 26, 30, 29, 32, 25, 20],
        }
    )


def reference_hmac(key: bytes, value: str, length: int = 16) -> str:
    return hmac.new(key, value.encode("utf-8"), hashlib.sha256).hexdigest()[:length]


# ---------------------------------------------------------------- random pseudonyms


def test_random_same_value_same_token_distinct_values_distinct_tokens(licences):
    result = pseudonymise_random(licences, "Person", seed=1)
    tokens = result.data["Person"]
    assert tokens.iloc[0] == tokens.iloc[6]  # Joe Phang twice
    assert tokens.nunique() == licences["Person"].nunique() == 6
    assert tokens.str.fullmatch(r"[1-9][0-9]{5}").all()  # 6 digits like "416765"
    assert not set(tokens) & set(licences["Person"])
    # Other columns untouched.
    pd.testing.assert_frame_equal(
        result.data.drop(columns="Person"), licences.drop(columns="Person")
    )


def test_random_mapping_reverses_the_pseudonyms(licences):
    result = pseudonymise_random(licences, "Person", seed=2)
    assert list(result.mapping.columns) == ["pseudonym", "Person"]
    assert len(result.mapping) == 6 and result.mapping["pseudonym"].is_unique
    back = result.data.merge(result.mapping, left_on="Person", right_on="pseudonym")
    assert back["Person_y"].tolist() == licences["Person"].tolist()
    assert result.linking is None


def test_random_mapping_rows_are_scrambled():
    # Over many seeds, the mapping must not always follow the order of first appearance.
    df = pd.DataFrame({"id": [f"v{i}" for i in range(20)]})
    orders = {tuple(pseudonymise_random(df, "id", seed=s).mapping["id"]) for s in range(5)}
    assert tuple(df["id"]) not in orders  # never left in the order of the data
    assert len(orders) > 1


def test_random_is_reproducible_with_a_seed(licences):
    a = pseudonymise_random(licences, "Person", seed=5)
    b = pseudonymise_random(licences, "Person", seed=5)
    c = pseudonymise_random(licences, "Person", seed=6)
    pd.testing.assert_frame_equal(a.data, b.data)
    assert not a.data["Person"].equals(c.data["Person"])


def test_random_keeps_missing_values_missing():
    df = pd.DataFrame({"name": ["a", None, "a", np.nan]})
    data = pseudonymise_random(df, "name", seed=0).data
    assert data["name"].isna().tolist() == [False, True, False, True]
    assert len(pseudonymise_random(df, "name", seed=0).mapping) == 1


def test_random_never_reuses_a_token_and_errors_when_too_few():
    # 1 digit gives 10 tokens (0-9): 10 values fit exactly, 11 cannot.
    ten = pd.DataFrame({"x": range(10)})
    tokens = pseudonymise_random(ten, "x", seed=0, digits=1).data["x"]
    assert sorted(tokens) == [str(d) for d in range(10)]
    with pytest.raises(ParameterError, match="digits=2"):
        pseudonymise_random(pd.DataFrame({"x": range(11)}), "x", seed=0, digits=1)


def test_random_rejects_bad_parameters(licences):
    with pytest.raises(ColumnNotFoundError):
        pseudonymise_random(licences, "person")
    with pytest.raises(ParameterError):
        pseudonymise_random(licences, "Person", digits=0)
    with pytest.raises(ParameterError):
        pseudonymise_random(licences, "Person", seed=-1)
    twice = pd.DataFrame([[1, 2]], columns=["a", "a"])
    with pytest.raises(ParameterError, match="more than one column named 'a'"):
        pseudonymise_random(twice, "a")
    with pytest.raises(ParameterError, match="rename"):
        pseudonymise_random(pd.DataFrame({"pseudonym": [1]}), "pseudonym")


# ---------------------------------------------------------------- keyed (HMAC) pseudonyms


def test_hmac_equals_an_independent_computation(licences):
    result = pseudonymise_hmac(licences, "Person", key=KEY)
    expected = [reference_hmac(KEY, name) for name in licences["Person"]]
    assert result.data["Person"].tolist() == expected
    short = pseudonymise_hmac(licences, "Person", key=KEY, length=10)
    assert short.data["Person"].tolist() == [e[:10] for e in expected]


def test_hmac_uses_the_exact_text_of_the_value():
    df = pd.DataFrame({"nric": ["S1234567D", "s1234567d ", "S1234567D"], "n": [1, 22, 1]})
    tokens = pseudonymise_hmac(df, "nric", key=KEY).data["nric"]
    assert tokens[0] == tokens[2] != tokens[1]
    assert tokens[1] == reference_hmac(KEY, "s1234567d ")
    numbers = pseudonymise_hmac(df, "n", key=KEY).data["n"]
    assert numbers[1] == reference_hmac(KEY, "22")


def test_hmac_is_persistent_across_tables_and_differs_across_keys(licences):
    other_table = pd.DataFrame({"Person": ["Linnie Mok", "Someone Else", "Joe Phang"]})
    first = pseudonymise_hmac(licences, "Person", key=KEY).data["Person"]
    second = pseudonymise_hmac(other_table, "Person", key=KEY).data["Person"]
    a = dict(zip(licences["Person"], first, strict=True))
    b = dict(zip(other_table["Person"], second, strict=True))
    for name in ["Linnie Mok", "Joe Phang"]:
        assert a[name] == b[name]
    c = pseudonymise_hmac(licences, "Person", key=OTHER_KEY).data["Person"]
    assert not (c == pseudonymise_hmac(licences, "Person", key=KEY).data["Person"]).any()


def test_hmac_key_never_appears_in_any_output(licences):
    result = pseudonymise_hmac(licences, "Person", key=KEY)
    forms = [KEY.decode(), KEY.hex(), repr(KEY)]
    texts = [
        result.data.to_csv(),
        result.mapping.to_csv(),
        repr(result),
        str(result),
        repr(result.data),
        repr(result.mapping),
    ]
    for text in texts:
        for form in forms:
            assert form not in text


def test_hmac_mapping_reverses_the_pseudonyms(licences):
    result = pseudonymise_hmac(licences, "Person", key=KEY)
    lookup = dict(zip(result.mapping["pseudonym"], result.mapping["Person"], strict=True))
    assert [lookup[t] for t in result.data["Person"]] == licences["Person"].tolist()


def test_hmac_rejects_short_or_text_keys(licences):
    with pytest.raises(SecretError, match="at least 16 bytes"):
        pseudonymise_hmac(licences, "Person", key=b"short")
    with pytest.raises(SecretError, match="bytes, not text"):
        pseudonymise_hmac(licences, "Person", key=KEY.decode())  # type: ignore[arg-type]
    with pytest.raises(ParameterError):
        pseudonymise_hmac(licences, "Person", key=KEY, length=65)


def test_hmac_refuses_values_with_the_same_text():
    df = pd.DataFrame({"x": pd.Series([1, "1"], dtype=object)})
    with pytest.raises(ParameterError, match="same text"):
        pseudonymise_hmac(df, "x", key=KEY)


# ---------------------------------------------------------------- double coding


def test_double_coding_joins_back_to_the_original(licences):
    result = double_code(licences, "Person", seed=3)
    assert list(result.linking.columns) == ["pseudonym", "interim_pseudonym"]
    assert list(result.mapping.columns) == ["interim_pseudonym", "Person"]
    assert result.linking["interim_pseudonym"].str.fullmatch(r"[A-Z]{6}").all()  # "OQCPBL"
    assert result.data["Person"].str.fullmatch(r"[0-9]{6}").all()
    joined = result.data.merge(result.linking, left_on="Person", right_on="pseudonym").merge(
        result.mapping, on="interim_pseudonym", suffixes=("_pseudonym", "")
    )
    assert joined["Person"].tolist() == licences["Person"].tolist()


def test_double_coding_keeps_the_tables_apart(licences):
    result = double_code(licences, "Person", seed=4)
    # The linking table (for the third party) holds no original value, and the
    # organisation's mapping table holds no final pseudonym.
    assert not set(licences["Person"]) & set(result.linking.stack())
    assert not set(result.data["Person"]) & set(result.mapping.stack())
    assert result.linking["interim_pseudonym"].is_unique
    assert result.data["Person"].iloc[0] == result.data["Person"].iloc[6]


# ---------------------------------------------------------------- no mutation (property)


@settings(max_examples=20, deadline=None)
@given(
    df=data_frames(
        [
            column("v", elements=st.one_of(st.none(), st.text(max_size=5))),
            column("w", dtype=int, elements=st.integers(-5, 5)),
        ]
    ),
    seed=st.integers(0, 2**16),
)
def test_input_is_never_mutated(df, seed):
    before = df.copy(deep=True)
    results = [
        pseudonymise_random(df, "v", seed=seed),
        pseudonymise_hmac(df, "v", key=KEY),
        double_code(df, "v", seed=seed),
        pseudonymise_random(df, "w", seed=seed, digits=2),
    ]
    pd.testing.assert_frame_equal(df, before)
    for result in results:
        assert isinstance(result, Pseudonymised)
        assert result.data is not df
        assert result.data.index.equals(df.index)
        # same value -> same token, distinct values -> distinct tokens
        col = "w" if result is results[3] else "v"
        pairs = pd.DataFrame({"orig": df[col], "token": result.data[col]}).dropna()
        assert pairs.groupby("orig")["token"].nunique().le(1).all()
        assert pairs.drop_duplicates()["token"].is_unique


# ---------------------------------------------------------------- keys and encryption


def test_key_from_env(monkeypatch):
    monkeypatch.setenv("ANON_TEST_KEY", KEY.decode())
    assert key_from_env("ANON_TEST_KEY") == KEY
    monkeypatch.delenv("ANON_TEST_KEY")
    with pytest.raises(SecretError, match="ANON_TEST_KEY.*not set.*export ANON_TEST_KEY"):
        key_from_env("ANON_TEST_KEY")
    monkeypatch.setenv("ANON_TEST_KEY", "")
    with pytest.raises(SecretError, match="'ANON_TEST_KEY' is empty"):
        key_from_env("ANON_TEST_KEY")


@pytest.mark.parametrize("name", ["HOME", "PATH", "anon_key", "ANON_", "ANON_DATA", "ANON KEY"])
def test_key_from_env_refuses_names_outside_the_anon_prefix(monkeypatch, name):
    # HOME and PATH exist on every server: reading them as a key must be refused, and the
    # message must not say whether they are set.
    monkeypatch.setenv("HOME", "/home/someone-with-a-long-path")
    with pytest.raises(SecretError, match="ANON_") as caught:
        key_from_env(name)
    assert "not set" not in str(caught.value) and "/home" not in str(caught.value)


def test_encryption_round_trip_keeps_text_and_types():
    df = pd.DataFrame(
        {
            "pseudonym": ["416765", "562396", "964825"],
            "postal": ["010101", "NA", None],  # leading zero and the text "NA" survive
            "hours": [20, 26, 30],
            "rate": [0.1, np.nan, 2.5],
        }
    )
    blob = encrypt_table(df, "correct horse battery staple")
    assert blob.startswith(b"PDPCTBL\x00")
    assert b"416765" not in blob and b"010101" not in blob
    back = decrypt_table(blob, "correct horse battery staple")
    pd.testing.assert_frame_equal(back, df)


RIGHT = "the right passphrase"


def test_wrong_passphrase_or_tampering_fails_cleanly():
    blob = encrypt_table(pd.DataFrame({"a": ["x"]}), RIGHT)
    with pytest.raises(SecretError, match="wrong passphrase or corrupted file"):
        decrypt_table(blob, "the wrong passphrase")
    tampered = bytearray(blob)
    tampered[-1] ^= 1
    with pytest.raises(SecretError, match="wrong passphrase or corrupted file"):
        decrypt_table(bytes(tampered), RIGHT)
    with pytest.raises(SecretError, match="wrong passphrase or corrupted file"):
        decrypt_table(b"not an encrypted table at all, just some text", RIGHT)
    with pytest.raises(SecretError):
        encrypt_table(pd.DataFrame({"a": [1]}), "")


def test_each_encryption_uses_a_fresh_salt_and_nonce():
    df = pd.DataFrame({"a": ["x"]})
    assert encrypt_table(df, RIGHT) != encrypt_table(df, RIGHT)


def test_new_files_use_scrypt_n_2_17_at_least():
    # header: 8-byte magic, version, log2 n, r, p (OWASP: scrypt n >= 2**17, r = 8, p = 1)
    blob = encrypt_table(pd.DataFrame({"a": ["x"]}), RIGHT)
    assert blob[9] >= 17 and blob[10] == 8 and blob[11] == 1


def test_encryption_needs_a_passphrase_of_12_characters():
    df = pd.DataFrame({"a": ["x"]})
    with pytest.raises(SecretError, match="has 11 characters; use at least 12"):
        encrypt_table(df, "elevenchars")
    assert decrypt_table(encrypt_table(df, "twelve chars"), "twelve chars")["a"].tolist() == ["x"]
    assert passphrase_problem("twelve chars") is None
    assert "at least 12" in passphrase_problem("short")


# Made by the previous version (scrypt n = 2**15, r = 8, p = 1) with the 8-character
# passphrase "old pass", which the De-identify page then accepted: it must still open.
OLD_BLOB = bytes.fromhex(
    "5044504354424c00010f0801e729c56f506b76b6ce8dfbb0bb60b48414e68336984d6b7afbb9f5d1"
    "f6a09f78c762db1db4c9449f7ccceeae1bde51af6f679eee2d0d2690daaed6a37b81bf0c7421a1fc"
    "b782516f33b8c23d24605c566a8525cc416846bf6c9b7ae8be553ecd6b43ba98fb1db9a93bc1a494"
    "51ad8eb1f52e29f7a97a6e7e5b112d79157ed2e5f2f077a04f22e8a54c07ddb653f5004768a701b2"
    "fd4122ea9b60cf611b2822d5a7510c5dc5ef840a07fccf10e99a79"
)


def test_files_made_with_the_old_scrypt_parameters_still_decrypt():
    assert OLD_BLOB[9] == 15
    back = decrypt_table(OLD_BLOB, "old pass")
    assert back.to_dict("list") == {
        "pseudonym": ["416765", "373666"],
        "nric": ["S1234567D", "T7654321J"],
    }


@pytest.mark.parametrize(
    ("log2_n", "r", "p", "mib"),
    [(22, 32, 16, 16384), (19, 8, 1, 512), (18, 9, 1, 288), (15, 8, 5, 32)],
)
def test_a_header_asking_scrypt_for_too_much_is_refused_before_deriving(
    monkeypatch, log2_n, r, p, mib
):
    # 128 * r * n bytes: log2 n = 22, r = 32 asks for 16 GiB (the old limits allowed it)
    assert 128 * r * 2**log2_n == mib * 2**20
    crafted = bytearray(OLD_BLOB)
    crafted[9:12] = bytes([log2_n, r, p])

    def no_derivation(*args, **kwargs):
        raise AssertionError("a key was derived from a hostile header")

    monkeypatch.setattr(pseudonymisation, "_derive", no_derivation)
    with pytest.raises(SecretError, match=rf"asks scrypt for {mib:,} MiB of memory and {p} pass"):
        decrypt_table(bytes(crafted), "old pass")
