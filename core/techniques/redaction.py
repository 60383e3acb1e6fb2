"""Redaction of identifiers inside free text (PDPC guide, Step 2 "De-identify your data").

Step 2 removes direct identifiers; a free-text column (notes, comments, letters) holds
them *inside* the text: a name, an email, a phone number, an NRIC number, an address.
:func:`redact_text` finds them with the scanner of :mod:`core.detect.text` and replaces
each one in place:

* ``mode="label"``: by its kind in brackets, ``[NAME]``, ``[EMAIL]``, ``[PHONE]``,
  ``[ID]``, ``[ADDRESS]``, ``[DATE]``, ``[URL]``, ``[IP]``, ``[MAC]``, ``[PLATE]``;
* ``mode="pseudonym"``: by a consistent keyed pseudonym per entity, ``[NAME-3f2a9c1b]``,
  the HMAC-SHA256 of the kind and the entity's text under a secret key (the same person
  gets the same pseudonym in every cell and every run with the same key, so notes about
  one person stay linkable; Annex A "Pseudonymisation", persistent pseudonyms). The key is
  handled as for :func:`core.techniques.pseudonymise_hmac`: at least 16 bytes, read from
  an environment variable by recipes (``key_env``), never stored.

A cell in which nothing is found is left exactly as it was. Detection is not perfect (see
the benchmark in docs/guide/step1-know-your-data.md): review a sample of the result before
release.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.techniques.pseudonymisation import require_key
from core.text_rescan import compatible, scrub
from core.validation import require_choice, require_columns, require_int

if TYPE_CHECKING:
    from core.detect.text import Entity

__all__ = ["REDACTION_MODES", "redact_text"]

REDACTION_MODES = ("label", "pseudonym")


def _normalised(entity: Entity) -> str:
    """The text that identifies the entity: case, spacing and phone punctuation ignored."""
    if entity.kind == "phone":
        return re.sub(r"\D", "", entity.text)
    return " ".join(entity.text.casefold().split())


def redact_text(
    df: pd.DataFrame,
    columns: Sequence[str] | str,
    *,
    kinds: Iterable[str] | str | None = None,
    mode: str = "label",
    key: bytes | None = None,
    length: int = 8,
    residue: bool = False,
) -> pd.DataFrame:
    """Replace the names, emails, phones, IDs, addresses, dates... inside text columns.

    ``columns``: the text columns to redact; ``kinds``: what to redact (default every
    kind of :func:`core.detect.entity_kinds`; a label such as ``"id"`` stands for all ID
    kinds); ``mode``: ``"label"`` or ``"pseudonym"`` (needs ``key``, bytes of at least 16,
    and writes ``length`` hex characters of the HMAC, 6 to 64). Cells without a detected
    entity and missing values are unchanged; the input table is never modified.
    ``residue=True`` then also replaces what the release check's rescan counts
    (:func:`core.text_rescan.scrub`: runs of 5+ digits, block and unit numbers, name-like
    words in any case, NRICs split by dots or spaces), which the scanner's recognisers
    may miss; the text is first read in Unicode's compatibility form (full-width
    characters as the ASCII ones they stand for), so the scanner sees them too.
    """
    # the scanner (name lists, phone numbers) loads when a recipe redacts, not with the
    # registry of techniques every command imports (issue 31: start-up)
    from core.detect.text import redact_series, resolve_kinds

    columns = [columns] if isinstance(columns, str) else list(columns)
    require_columns(df, columns)
    chosen = resolve_kinds(kinds)
    if not isinstance(residue, bool):
        raise ParameterError(f"redact_text: 'residue' must be true or false, got {residue!r}.")
    mode = require_choice("mode", mode, REDACTION_MODES)
    if mode == "pseudonym":
        if key is None:
            raise ParameterError(
                "redact_text with mode 'pseudonym' needs a key (in a recipe: 'key_env', the "
                "name of the environment variable holding it)."
            )
        keyed = hmac.new(require_key(key), digestmod=hashlib.sha256)
        length = require_int("length", length, minimum=6)
        if length > 64:
            raise ParameterError(f"Parameter 'length' must be at most 64, got {length}.")

        def replace(entity: Entity) -> str:
            h = keyed.copy()
            h.update(f"{entity.kind}\x00{_normalised(entity)}".encode())
            return f"[{entity.label}-{h.hexdigest()[:length]}]"

    else:
        if key is not None:
            raise ParameterError("redact_text: 'key' is only used with mode 'pseudonym'.")

        def replace(entity: Entity) -> str:
            return f"[{entity.label}]"

    out = df.copy()
    for column in columns:
        source = df[column]
        if residue:  # full-width '＠', digits... read as what they stand for (text_rescan)
            text = as_text(source)
            folded = compatible(text)
            source = source.mask((folded != text).fillna(False).astype(bool), folded)
        new, changed = redact_series(source, replace, kinds=chosen)
        if residue:
            new = scrub(new)
            changed = new.astype(object).ne(df[column].astype(object)) & df[column].notna()
        if changed.any():
            out[column] = new
    return out
