"""Fingerprints a workspace records: the sha256 of bytes, text, files and tables.

Apart from the store because the release, the audit check and the engines fingerprint
files and tables the same way without opening a workspace.
"""

from __future__ import annotations

import hashlib
import json
import os

import pandas as pd


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_text(text: str) -> str:
    return sha256_bytes(text.encode("utf-8"))


def sha256_file(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def table_sha256(df: pd.DataFrame) -> str:
    """A fingerprint of a table's content (values, column names and types, row order)."""
    hashed = pd.util.hash_pandas_object(df, index=False).to_numpy().tobytes()
    header = json.dumps([[str(c), str(t)] for c, t in df.dtypes.items()]).encode("utf-8")
    return sha256_bytes(header + b"\n" + hashed)
