"""Person names in whole cells: is this column a column of names (PDPC guide, Step 1)?

A cell is a *known* name (one to four capitalised tokens with a given or family name of the
lists, or 2-4 Chinese characters starting with a common surname character) or has the
*shape* of a name only; :func:`name_shares` gives both shares for a column. Names in other
scripts (Tamil, Jawi...) are not recognised: :func:`non_latin_script` says which script a
column is written in, so the report can say so. See :mod:`core.detect.names` for the lists.
"""

from __future__ import annotations

import re

import pandas as pd

from core.detect.lexicon import NameLists, name_lists
from core.detect.name_words import HAN_SURNAMES, NAME_TOKEN

# Chinese characters: 2-4 of them starting with one of the commonest surname characters.
_HAN_NAME = re.compile(rf"[{HAN_SURNAMES}][\u4e00-\u9fff]{{1,3}}")
_SCRIPTS = {
    "Chinese characters": r"[\u4e00-\u9fff\u3400-\u4dbf]",
    "Tamil": r"[\u0b80-\u0bff]",
    "Devanagari (Hindi)": r"[\u0900-\u097f]",
    "Arabic/Jawi": r"[\u0600-\u06ff]",
    "Thai": r"[\u0e00-\u0e7f]",
    "Korean": r"[\uac00-\ud7af]",
    "Japanese kana": r"[\u3040-\u30ff]",
    "Cyrillic": r"[\u0400-\u04ff]",
}


# A middle initial ("A.", "t.") or the Filipino "Ma." (Maria) inside a name.
_INITIAL = re.compile(r"[A-Za-z]\.|[Mm]a\.")


def _cell_verdict(value: str, lists: NameLists) -> str:
    """'known', 'shape' or '' for one whole cell.

    Initials are skipped; a word that never belongs to a name but is a listed name too
    ("Son", "Soon", "Sun": Vietnamese and Chinese names) counts beside two sure names of
    the cell; a patronymic name (bin, binti, anak, s/o inside) may have five tokens."""
    if _HAN_NAME.fullmatch(value):
        return "known"
    words = value.replace(",", " ").split()
    if not 1 <= len(words) <= 7:
        return ""
    tokens = []
    doubtful = patronymic = False
    for position, word in enumerate(words):
        lower = word.lower()
        if lower in lists.particles and 0 < position < len(words) - 1:
            patronymic = True
            continue
        if len(words) > 1 and _INITIAL.fullmatch(word):
            continue
        if not NAME_TOKEN.fullmatch(word):
            return ""
        bare = lower.rstrip(".")
        if bare in lists.not_name:
            if bare not in lists.known:
                return ""
            doubtful = True
        tokens.append(bare)
    if not 1 <= len(tokens) <= (5 if patronymic else 4):
        return ""
    if doubtful and sum(t in lists.strong and t not in lists.not_name for t in tokens) < 2:
        return ""
    known = [t for t in tokens if t in lists.strong] or all(t in lists.listed for t in tokens)
    if len(tokens) == 1:
        only = tokens[0]
        return "known" if only in lists.known and only not in lists.ambiguous else ""
    if known:
        return "known"
    # Shape alone: at least two tokens of two letters or more (not only initials).
    return "shape" if sum(len(t) > 2 for t in tokens) >= 2 else ""


def name_shares(values: pd.Series, counts: pd.Series | None = None) -> tuple[float, float]:
    """Shares of ``values`` (stripped strings) that are names: (known names, shape only).

    *known*: one to four capitalised tokens (particles such as bin, s/o allowed inside)
    with at least one given or family name of the curated list (a lone name that is also
    an English word, such as "May" or "Tan", does not count); *shape only*: 2-4 capitalised
    tokens, none of them a known name nor a word that never belongs to a name.
    Work is done once per distinct value: pass distinct ``values`` with their ``counts``
    (aligned), or all values and no counts.
    """
    if counts is None:
        counts = values.value_counts(sort=False)
        values = pd.Series(counts.index, dtype=object)
        counts = pd.Series(counts.to_numpy(), index=values.index)
    n = float(counts.sum())
    if n == 0:
        return 0.0, 0.0
    lists = name_lists()
    verdicts = [_cell_verdict(str(v), lists) for v in values]
    weights = counts.to_numpy()
    known = sum(w for v, w in zip(verdicts, weights, strict=True) if v == "known") / n
    shape = sum(w for v, w in zip(verdicts, weights, strict=True) if v == "shape") / n
    return float(known), float(shape)


def non_latin_script(values: pd.Series) -> tuple[str, float] | None:
    """The non-Latin script most sampled values are written in, and its share, if any."""
    n = len(values)
    if n == 0 or not values.str.contains(r"[^\x00-\x7f]", regex=True).any():
        return None  # plain ASCII (the usual case): one vectorised check
    best = None
    for script, pattern in _SCRIPTS.items():
        share = float(values.str.contains(pattern, regex=True).sum()) / n
        if share > 0 and (best is None or share > best[1]):
            best = (script, share)
    return best
