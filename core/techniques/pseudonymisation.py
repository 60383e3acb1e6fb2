"""Pseudonymisation (PDPC guide, Step 2 and Annex A "Pseudonymisation").

Step 2 of the guide removes direct identifiers, and optionally assigns a pseudonym to each
record when records must stay linkable. Annex A asks that pseudonyms be unique for each
unique value, never re-used, with no relationship to the original value; that the
identity mapping table be kept securely (and its rows scrambled); and that any key, salt
or seed be protected like an encryption key. This module offers:

* :func:`pseudonymise_random`: random numeric tokens (the guide's "416765" example), with
  an identity mapping table for reversal by the data owner;
* :func:`pseudonymise_hmac`: persistent keyed pseudonyms (HMAC-SHA256), the same for the
  same value across tables and runs with the same key, so datasets can be linked;
* :func:`double_code`: the guide's double coding, with a linking table for a trusted third
  party and an identity mapping table for the organisation;
* :func:`key_from_env`, :func:`encrypt_table`, :func:`decrypt_table`: keep keys out of
  code and files, and store mapping tables encrypted with a passphrase.

Missing values (NaN/None) are never pseudonymised: they stay missing.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import re
import secrets
import struct
from dataclasses import dataclass

import numpy as np
import pandas as pd
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from core.errors import ParameterError, SecretError
from core.validation import make_rng, require_columns, require_int

__all__ = [
    "MAX_SCRYPT_MEMORY_BYTES",
    "MAX_SCRYPT_P",
    "MIN_KEY_BYTES",
    "MIN_PASSPHRASE_CHARS",
    "Pseudonymised",
    "chain_mapping",
    "decrypt_table",
    "double_code",
    "encrypt_table",
    "KEY_ENV_PREFIX",
    "key_from_env",
    "passphrase_from_env",
    "passphrase_problem",
    "pseudonymise_hmac",
    "require_key_env_name",
    "pseudonymise_random",
]

MIN_KEY_BYTES = 16
#: Every environment variable that may hold a key starts with this (e.g. ANON_PSEUDONYM_KEY).
KEY_ENV_PREFIX = "ANON_"
# The workbench's own settings share the prefix but never hold a key.
_SETTING_VARIABLES = frozenset(
    {"ANON_AUDIT_KEY", "ANON_DATA", "ANON_HIERARCHY_DIR", "ANON_MAP_STYLE", "ANON_WORKSPACE"}
)
_KEY_ADVICE = (
    "Create a long random key once, for example with "
    '`python -c "import secrets; print(secrets.token_hex(32))"`, keep it secret (never in '
    "the data, the recipe or version control) and pass it through an environment variable "
    "with key_from_env(...)."
)


@dataclass(frozen=True)
class Pseudonymised:
    """Result of a pseudonymisation (PDPC guide, Annex A "Pseudonymisation").

    ``data`` is the table with the column replaced by pseudonyms; share this one.
    ``mapping`` is the identity mapping table (pseudonym -> original value, or interim
    pseudonym -> original value for double coding); it permits re-identification and must
    be kept securely by the organisation, never shared with the recipient.
    ``linking`` is the double-coding linking table (pseudonym -> interim pseudonym) for a
    trusted third party only; ``None`` for single coding.
    """

    data: pd.DataFrame
    mapping: pd.DataFrame | None
    linking: pd.DataFrame | None = None

    def __repr__(self) -> str:  # keep reprs short: tables can be large and sensitive
        def shape(table: pd.DataFrame | None) -> str:
            return (
                "None" if table is None else f"<{table.shape[0]} rows x {table.shape[1]} columns>"
            )

        return (
            f"Pseudonymised(data={shape(self.data)}, mapping={shape(self.mapping)}, "
            f"linking={shape(self.linking)})"
        )


def _distinct(df: pd.DataFrame, column: str) -> tuple[np.ndarray, pd.Index]:
    """Integer code per row (-1 for missing) and the distinct non-missing values."""
    codes, uniques = pd.factorize(df[column], use_na_sentinel=True)
    return codes, uniques


def _apply_tokens(
    df: pd.DataFrame, column: str, codes: np.ndarray, tokens: np.ndarray
) -> pd.DataFrame:
    """A copy of ``df`` with ``column`` replaced by ``tokens[code]`` (missing stays missing)."""
    values = np.empty(len(codes), dtype=object)
    present = codes >= 0
    values[present] = tokens[codes[present]]
    values[~present] = None
    out = df.copy()
    out[column] = pd.Series(values, index=df.index, dtype="str")
    return out


def _random_numbers(rng: np.random.Generator, n: int, digits: int, *, what: str) -> np.ndarray:
    """``n`` distinct random numbers of exactly ``digits`` digits, as strings."""
    low = 10 ** (digits - 1) if digits > 1 else 0
    available = 10**digits - low
    if n > available:
        needed = digits
        while 9 * 10 ** (needed - 1) < n:
            needed += 1
        raise ParameterError(
            f"{what}: {n} distinct values need {n} distinct tokens, but {digits} digit(s) give "
            f"only {available}. Use digits={needed} or more."
        )
    chosen = rng.choice(available, size=n, replace=False) + low
    return chosen.astype(str).astype(object)


def _random_letters(rng: np.random.Generator, n: int, length: int = 6) -> np.ndarray:
    """``n`` distinct random strings of ``length`` uppercase letters (e.g. "OQCPBL")."""
    available = 26**length
    if n > available:
        raise ParameterError(
            f"double_code: {n} distinct values exceed the {available} interim pseudonyms of "
            f"{length} letters."
        )
    numbers = rng.choice(available, size=n, replace=False)
    # Base-26 digits, most significant first, vectorised over all numbers.
    powers = 26 ** np.arange(length - 1, -1, -1, dtype=np.int64)
    letters = ((numbers[:, None] // powers) % 26 + ord("A")).astype(np.uint8)
    words = np.ascontiguousarray(letters).view(f"S{length}").ravel()
    return words.astype(str).astype(object)


def _mapping_table(
    df: pd.DataFrame, column: str, tokens: np.ndarray, uniques: pd.Index, order: np.ndarray
) -> pd.DataFrame:
    """The identity mapping table (pseudonym -> original value) in the given row order."""
    return pd.DataFrame(
        {
            "pseudonym": pd.Series(tokens[order], dtype="str"),
            column: pd.Series(np.asarray(uniques, dtype=object)[order], dtype=df[column].dtype)
            if len(uniques)
            else pd.Series([], dtype=df[column].dtype),
        }
    )


def chain_mapping(column: str, earlier: pd.DataFrame, later: pd.DataFrame) -> pd.DataFrame:
    """The identity mapping table of a column pseudonymised a second time.

    ``earlier`` maps the first pseudonyms to the original values; ``later`` maps the new
    pseudonyms (or, double coded, the new interim pseudonyms) to the first pseudonyms,
    which are what the column held. Kept alone, ``later`` would lead back to a pseudonym,
    not to the person, and the earlier table would be lost (PDPC guide, Annex A: the
    identity mapping table is what lets the organisation re-identify). The result maps
    the new pseudonyms to the original values, in ``later``'s scrambled order.

    A column double coded first is refused: its link to the person runs through the
    linking table of a trusted third party, which a new table must not bypass."""
    if earlier.columns[0] != "pseudonym":
        raise ParameterError(
            f"Column '{column}' was pseudonymised by double coding at an earlier step; "
            "pseudonymising it again would cut its tables off from the people. Pseudonymise "
            "each column once."
        )
    positions = pd.Index(earlier["pseudonym"].astype(str)).get_indexer(later[column].astype(str))
    if (positions < 0).any():  # the column changed between the two steps
        raise ParameterError(
            f"Column '{column}' was changed after it was pseudonymised, so its earlier "
            "identity mapping table no longer matches it; pseudonymise it once, last."
        )
    chained = later.copy()
    chained[column] = earlier[column].iloc[positions].reset_index(drop=True)
    return chained


def _check_column(df: pd.DataFrame, column: str, reserved: tuple[str, ...]) -> None:
    require_columns(df, column)
    if int((df.columns == column).sum()) > 1:
        raise ParameterError(
            f"The table has more than one column named '{column}'; rename them so each name "
            "is unique before pseudonymising."
        )
    if column in reserved:
        raise ParameterError(
            f"Column '{column}' has the same name as a column of the mapping table "
            f"({', '.join(reserved)}); rename it before pseudonymising."
        )


def pseudonymise_random(
    df: pd.DataFrame, column: str, *, seed: int | None = None, digits: int = 6
) -> Pseudonymised:
    """Replace each distinct value with a unique random number (PDPC guide, Annex A).

    Each distinct value gets its own random token of exactly ``digits`` digits (no leading
    zero), drawn without replacement so a token is never re-used; the same value gets the
    same token everywhere in the table. Tokens are strings (e.g. "416765"). Missing values
    stay missing. Raises :class:`ParameterError` when there are more distinct values than
    tokens of that length.

    ``mapping`` is the identity mapping table with columns ``["pseudonym", column]``, one
    row per distinct value, in scrambled order as the guide advises. Keep it securely, or
    delete it for irreversible pseudonyms. Use a different ``seed`` for each attribute
    (Annex A: do not re-use the same generator without a change).
    """
    _check_column(df, column, ("pseudonym",))
    digits = require_int("digits", digits, minimum=1)
    if digits > 18:
        raise ParameterError(f"Parameter 'digits' must be at most 18, got {digits}.")
    rng = make_rng(seed)
    codes, uniques = _distinct(df, column)
    tokens = _random_numbers(rng, len(uniques), digits, what="pseudonymise_random")
    order = rng.permutation(len(uniques))
    mapping = _mapping_table(df, column, tokens, uniques, order)
    return Pseudonymised(_apply_tokens(df, column, codes, tokens), mapping, None)


def require_key(key: object) -> bytes:
    """The key as bytes, or :class:`SecretError` saying how to supply a usable one (bytes,
    at least ``MIN_KEY_BYTES`` long). Every keyed technique (HMAC pseudonyms, keyed
    redaction) checks its key here."""
    if isinstance(key, str):
        raise SecretError(
            "The pseudonymisation key must be bytes, not text. Encode it (key.encode()) or "
            "load it with key_from_env(...). " + _KEY_ADVICE
        )
    if not isinstance(key, (bytes, bytearray)):
        raise SecretError(f"The pseudonymisation key must be bytes, got {type(key).__name__}.")
    if len(key) < MIN_KEY_BYTES:
        raise SecretError(
            f"The pseudonymisation key is too short ({len(key)} bytes); use at least "
            f"{MIN_KEY_BYTES} bytes so the pseudonyms cannot be reversed by guessing. "
            + _KEY_ADVICE
        )
    return bytes(key)


def pseudonymise_hmac(
    df: pd.DataFrame, column: str, *, key: bytes, length: int = 16
) -> Pseudonymised:
    """Persistent keyed pseudonyms: HMAC-SHA256 of each value (PDPC guide, Annex A).

    The pseudonym of a value is the hexadecimal HMAC-SHA256 of the exact text of the value
    (``str(value)`` encoded as UTF-8, no trimming or case folding: "S1234567D" and
    "s1234567d " get different pseudonyms; normalise first if you need them equal),
    truncated to ``length`` characters (8 to 64). The same value gets the same pseudonym in
    every table and run with the same key, so datasets can be linked (persistent
    pseudonyms); another key gives unrelated pseudonyms. Missing values stay missing.

    Without the key, the pseudonyms cannot be recomputed from guessed values (unlike a
    plain hash of an NRIC number, which is easy to reverse by trying all numbers). The key
    is never stored in the result. ``key`` must be at least 16 bytes, otherwise
    :class:`SecretError`. ``mapping`` lists pseudonym -> value, sorted by pseudonym.
    Raises :class:`ParameterError` if two distinct values get the same truncated pseudonym
    (use a larger ``length``).
    """
    _check_column(df, column, ("pseudonym",))
    key = require_key(key)
    length = require_int("length", length, minimum=8)
    if length > 64:
        raise ParameterError(
            f"Parameter 'length' must be at most 64 (the length of a SHA-256 hex digest), "
            f"got {length}."
        )
    codes, uniques = _distinct(df, column)
    keyed = hmac.new(key, digestmod=hashlib.sha256)  # keyed state, copied per value

    def token(value: object) -> str:
        h = keyed.copy()
        h.update(str(value).encode("utf-8"))
        return h.hexdigest()[:length]

    tokens = np.array([token(value) for value in uniques.tolist()], dtype=object)
    texts = {str(value) for value in uniques.tolist()}
    if len(texts) < len(uniques):
        raise ParameterError(
            f"pseudonymise_hmac: column '{column}' holds values of different types with the "
            "same text (e.g. 1 and '1'), which would get the same pseudonym; convert the column "
            "to one type first."
        )
    if len(set(tokens.tolist())) < len(tokens):
        raise ParameterError(
            f"pseudonymise_hmac: two distinct values of column '{column}' got the same "
            f"{length}-character pseudonym; use a larger 'length' (up to 64)."
        )
    order = np.argsort(tokens, kind="stable") if len(tokens) else np.array([], dtype=int)
    mapping = _mapping_table(df, column, tokens, uniques, order)
    return Pseudonymised(_apply_tokens(df, column, codes, tokens), mapping, None)


def double_code(
    df: pd.DataFrame, column: str, *, seed: int | None = None, digits: int = 6
) -> Pseudonymised:
    """Double coding (PDPC guide, Annex A "Pseudonymisation", double coding example).

    ``data`` gets a random ``digits``-digit pseudonym per distinct value (e.g. "373666").
    ``linking`` (columns ``["pseudonym", "interim_pseudonym"]``) maps each pseudonym to an
    interim pseudonym of 6 random uppercase letters (e.g. "OQCPBL"); it is for a trusted
    third party only, who gets no other information. ``mapping`` (columns
    ``["interim_pseudonym", column]``) maps interim pseudonyms to the original values and
    is kept securely by the organisation. Only both tables together re-identify a person.
    The rows of both tables are scrambled independently, as the guide advises.
    """
    _check_column(df, column, ("pseudonym", "interim_pseudonym"))
    digits = require_int("digits", digits, minimum=1)
    if digits > 18:
        raise ParameterError(f"Parameter 'digits' must be at most 18, got {digits}.")
    rng = make_rng(seed)
    codes, uniques = _distinct(df, column)
    tokens = _random_numbers(rng, len(uniques), digits, what="double_code")
    interim = _random_letters(rng, len(uniques))
    originals = np.asarray(uniques, dtype=object)
    link_order = rng.permutation(len(uniques))
    map_order = rng.permutation(len(uniques))
    linking = pd.DataFrame(
        {
            "pseudonym": pd.Series(tokens[link_order], dtype="str"),
            "interim_pseudonym": pd.Series(interim[link_order], dtype="str"),
        }
    )
    mapping = pd.DataFrame(
        {
            "interim_pseudonym": pd.Series(interim[map_order], dtype="str"),
            column: pd.Series(originals[map_order], dtype=df[column].dtype)
            if len(uniques)
            else pd.Series([], dtype=df[column].dtype),
        }
    )
    return Pseudonymised(_apply_tokens(df, column, codes, tokens), mapping, linking)


def require_key_env_name(name: object) -> str:
    """Check the name of an environment variable that holds a key (``key_env``).

    Only names starting with ``ANON_`` (upper-case letters, digits and underscores) are
    accepted, and not the workbench's own settings (ANON_DATA, ...): a recipe or a
    dashboard user must not be able to read an arbitrary variable of the server, such as
    PATH or HOME, as a key (PDPC guide, Annex A: protect keys like encryption keys).
    Raises :class:`SecretError` otherwise.
    """
    advice = f"Name it e.g. {KEY_ENV_PREFIX}PSEUDONYM_KEY."
    if not isinstance(name, str):
        raise SecretError(
            "'key_env' must be the name of one environment variable (text), got "
            f"{type(name).__name__}. {advice}"
        )
    if not re.fullmatch(rf"{KEY_ENV_PREFIX}[A-Z0-9_]+", name):
        raise SecretError(
            f"'key_env' {name!r} is not accepted: a key must be in an environment variable "
            f"whose name starts with {KEY_ENV_PREFIX} (capital letters, digits, _). {advice}"
        )
    if name in _SETTING_VARIABLES:
        raise SecretError(f"'key_env' {name!r} is a setting of the workbench, not a key. {advice}")
    return name


def key_from_env(name: str) -> bytes:
    """Read a pseudonymisation key from the environment variable ``name``.

    The key is the UTF-8 bytes of the variable's text (a 64-character hex string from
    ``secrets.token_hex(32)`` is a good key). Keeping the key in the environment keeps it
    out of code, recipes and output files (PDPC guide, Annex A: protect keys and salts).
    Raises :class:`SecretError` naming the variable if it is unset, empty or shorter than
    16 bytes, or if its name does not start with ``ANON_`` (:func:`require_key_env_name`).
    """
    name = require_key_env_name(name)
    how = (
        f'Set it before starting, e.g. `export {name}=$(python -c "import secrets; '
        f"print(secrets.token_hex(32))\")` (PowerShell: `$env:{name} = '...'`), and keep the "
        "value secret."
    )
    value = os.environ.get(name)
    if value is None:
        raise SecretError(
            f"Environment variable '{name}' is not set; it should hold the key. {how}"
        )
    if not value.strip():
        raise SecretError(f"Environment variable '{name}' is empty; it should hold the key. {how}")
    key = value.encode("utf-8")
    if len(key) < MIN_KEY_BYTES:
        raise SecretError(
            f"Environment variable '{name}' holds a key of only {len(key)} bytes; use at least "
            f"{MIN_KEY_BYTES}. {how}"
        )
    return key


#: Shortest passphrase that may encrypt a table (PDPC guide, Step 5: passwords of at least
#: 12 characters): encrypt_table, passphrase_from_env and every page use this one rule.
MIN_PASSPHRASE_CHARS = 12


def passphrase_from_env(name: str) -> str:
    """The passphrase that encrypts identity mapping tables, read from variable ``name``.

    Read from the environment so it never appears in a command line, shell history,
    recipe, report or log. Raises :class:`SecretError` naming the variable (never its
    value) if it is unset or shorter than :data:`MIN_PASSPHRASE_CHARS` characters.
    """
    how = (
        f"Set it before running, e.g. `read -rs {name} && export {name}` (input hidden), "
        f"to a passphrase of at least {MIN_PASSPHRASE_CHARS} characters mixing upper and "
        "lower case, digits and symbols; keep it apart from the encrypted files."
    )
    value = os.environ.get(name)
    if not value:
        raise SecretError(f"Environment variable '{name}' is not set or empty. {how}")
    if len(value) < MIN_PASSPHRASE_CHARS:
        raise SecretError(
            f"The passphrase in '{name}' has only {len(value)} characters; use at least "
            f"{MIN_PASSPHRASE_CHARS}. {how}"
        )
    return value


# --------------------------------------------------------------------------------------
# Encrypted storage of tables (e.g. identity mapping tables)
# --------------------------------------------------------------------------------------
_MAGIC = b"PDPCTBL\x00"
_VERSION = 1
# scrypt for new files: n = 2**17, r = 8, p = 1 (OWASP's minimum recommendation for scrypt):
# 128 MiB of memory and about a second per derivation. Older files (n = 2**15) still decrypt.
_SCRYPT_LOG2_N = 17
_SCRYPT_R = 8
_SCRYPT_P = 1
#: The most a file's header may ask of scrypt when decrypting: 128 * r * n bytes of memory
#: (twice what encrypt_table uses) and p sequential passes. A header asking for more (up
#: to 16 GiB were accepted before) is refused before any key is derived.
MAX_SCRYPT_MEMORY_BYTES = 256 * 2**20
MAX_SCRYPT_P = 4
_HEADER = struct.Struct(">8sBBBB16s12s")  # magic, version, log2 n, r, p, salt, nonce
_CORRUPT = "Cannot decrypt the table: wrong passphrase or corrupted file."


def _derive(passphrase: str, salt: bytes, log2_n: int, r: int, p: int) -> bytes:
    return Scrypt(salt=salt, length=32, n=2**log2_n, r=r, p=p).derive(passphrase.encode("utf-8"))


def _require_passphrase(passphrase: object, *, minimum: int = 1) -> str:
    if not isinstance(passphrase, str) or not passphrase:
        raise SecretError(
            "A non-empty passphrase (text) is needed to encrypt or decrypt a table. Use a long "
            "passphrase and keep it apart from the encrypted file."
        )
    if len(passphrase) < minimum:
        raise SecretError(passphrase_problem(passphrase))
    return passphrase


def passphrase_problem(passphrase: str) -> str | None:
    """Why ``passphrase`` is too weak to encrypt a table, or ``None`` if it may be used.

    The one rule for every page and command: at least :data:`MIN_PASSPHRASE_CHARS`
    characters (PDPC guide, Step 5).
    """
    if len(passphrase) >= MIN_PASSPHRASE_CHARS:
        return None
    return (
        f"The passphrase has {len(passphrase)} characters; use at least "
        f"{MIN_PASSPHRASE_CHARS}, mixing upper and lower case, digits and symbols, and give it "
        "to the recipient apart from the file (PDPC guide, Step 5)."
    )


def encrypt_table(df: pd.DataFrame, passphrase: str) -> bytes:
    """Encrypt a table (e.g. an identity mapping table) with a passphrase.

    The PDPC guide (Annex A) asks that identity mapping tables be kept securely. The
    passphrase must have at least :data:`MIN_PASSPHRASE_CHARS` characters, otherwise
    :class:`SecretError`. The blob is self-describing: an 8-byte magic header
    ``PDPCTBL\\0``, a version byte, the scrypt parameters (n = 2**17, r = 8, p = 1), a random
    16-byte salt and a random 12-byte nonce, then the AES-256-GCM ciphertext (header
    authenticated too) of a small JSON line with the column types followed by the table as
    UTF-8 CSV. The index is not kept; column names become text; empty strings come back as
    missing values.
    """
    passphrase = _require_passphrase(passphrase, minimum=MIN_PASSPHRASE_CHARS)
    dtypes = {str(c): str(t) for c, t in df.dtypes.items()}
    plain = (
        json.dumps({"columns": [str(c) for c in df.columns], "dtypes": dtypes}).encode("utf-8")
        + b"\n"
        + df.to_csv(index=False).encode("utf-8")
    )
    salt = secrets.token_bytes(16)
    nonce = secrets.token_bytes(12)
    header = _HEADER.pack(_MAGIC, _VERSION, _SCRYPT_LOG2_N, _SCRYPT_R, _SCRYPT_P, salt, nonce)
    key = _derive(passphrase, salt, _SCRYPT_LOG2_N, _SCRYPT_R, _SCRYPT_P)
    return header + AESGCM(key).encrypt(nonce, plain, header)


def _restore_type(series: pd.Series, dtype: str) -> pd.Series:
    """Bring a column read as text back to its original type, when that is safe."""
    if dtype in {"str", "string", "object"} or dtype.startswith("string"):
        return series
    try:
        if dtype.startswith("datetime64"):
            return pd.to_datetime(series).astype(dtype)
        if dtype == "bool":
            return series.map({"True": True, "False": False}).astype(bool)
        if dtype == "category":
            return series.astype("category")
        return pd.to_numeric(series).astype(dtype)
    except (ValueError, TypeError):
        return series


def is_encrypted_table(blob: bytes) -> bool:
    """Whether ``blob`` has the header of a table made by :func:`encrypt_table`.

    A cheap guard for stores that must hold mapping tables encrypted only (no decryption).
    """
    blob = bytes(blob)
    return len(blob) >= _HEADER.size + 16 and blob.startswith(_MAGIC)


def decrypt_table(blob: bytes, passphrase: str) -> pd.DataFrame:
    """Decrypt a table made by :func:`encrypt_table`.

    Raises :class:`SecretError` ("wrong passphrase or corrupted file") if the passphrase is
    wrong or the blob was changed, and when the blob is not an encrypted table at all. A
    header asking scrypt for more than :data:`MAX_SCRYPT_MEMORY_BYTES` of memory or more than
    :data:`MAX_SCRYPT_P` passes is refused before any key is derived. Any non-empty
    passphrase is accepted here, so files made before the 12-character rule still open.
    Text columns come back as text exactly (leading zeros kept); numeric, boolean and date
    columns get their original type back.
    """
    passphrase = _require_passphrase(passphrase)
    blob = bytes(blob)
    if len(blob) < _HEADER.size + 16 or not blob.startswith(_MAGIC):
        raise SecretError(
            f"{_CORRUPT} The data does not start with the header of an encrypted table "
            "(made by encrypt_table)."
        )
    magic, version, log2_n, r, p, salt, nonce = _HEADER.unpack_from(blob)
    if version != _VERSION or not (10 <= log2_n <= 30) or r < 1 or p < 1:
        raise SecretError(f"{_CORRUPT} Unknown format version or parameters in the header.")
    memory = 128 * r * 2**log2_n
    if memory > MAX_SCRYPT_MEMORY_BYTES or p > MAX_SCRYPT_P:
        raise SecretError(
            f"{_CORRUPT} Its header asks scrypt for {memory / 2**20:,.0f} MiB of memory and "
            f"{p} pass(es), more than the {MAX_SCRYPT_MEMORY_BYTES // 2**20} MiB and "
            f"{MAX_SCRYPT_P} passes this tool allows; it was not made by encrypt_table."
        )
    header = blob[: _HEADER.size]
    key = _derive(passphrase, salt, log2_n, r, p)
    try:
        plain = AESGCM(key).decrypt(nonce, blob[_HEADER.size :], header)
    except InvalidTag:
        raise SecretError(_CORRUPT) from None
    meta_line, _, csv_bytes = plain.partition(b"\n")
    meta = json.loads(meta_line.decode("utf-8"))
    columns: list[str] = meta["columns"]
    if not columns:
        return pd.DataFrame()
    table = pd.read_csv(
        io.BytesIO(csv_bytes),
        dtype=str,
        keep_default_na=False,
        na_values=[""],
        encoding="utf-8",
    )
    table.columns = columns
    for position, name in enumerate(columns):
        dtype = meta["dtypes"].get(name, "str")
        table.isetitem(position, _restore_type(table.iloc[:, position], dtype))
    return table
