"""The rescan of a redacted free-text column, and the review a person signs for it.

PDPC guide, Step 2: direct identifiers inside free text are removed too. A redaction
(``redact_text``) replaces what the scanner recognises; what it misses stays: a name in
lower case (``tan ah kow``), an NRIC written with spaces or glued to a label
(``ms [NAME]3456789a``), a block and unit number (``Blk 7 ... #02-33``). Before such a
column may leave as part of an anonymised release (:mod:`core.release.gate`):

1. :func:`rescan` reads the *released* column again: the scanner
   (:func:`core.detect.scan_values`) plus three simple counters that do not depend on
   its recognisers (runs of :data:`DIGITS` or more digits, block and unit numbers, and
   name-like words of the curated name lists in any case), and must find nothing;
   ``redact_text`` with ``residue: true`` replaces what the counters find (:func:`scrub`);
2. a person records that they read it (:func:`check_review`): who, when and how many
   cells; the record goes into the recipe (``reviewed_text``) and the report.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import sys
import unicodedata
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from core._text import as_text
from core.errors import ParameterError

#: A run of this many digits or more is counted (an NRIC keeps 7, a phone 8, a postal
#: code 6; a year or a block number has at most 4).
DIGITS = 5
#: A review must read at least this many non-empty cells (all of them when fewer).
MIN_REVIEWED_CELLS = 20
#: Labels a redaction writes ([NAME], [ID-3f2a9c1b]): not findings themselves.
_LABEL = re.compile(r"\[[A-Z]+(?:-[0-9a-f]+)?\]")
_DIGIT_RUN = re.compile(rf"\d{{{DIGITS},}}")
#: An NRIC/FIN however it is written: any case, dots, dashes, slashes or spaces between
#: its characters (``S.235.3590.D``, ``t 234 5671 g``); not inside a longer word.
_SPLIT_ID = re.compile(r"(?<![^\W\d_])[STFGM][\s.\-/]*(?:\d[\s.\-/]*){7}[A-Z](?![^\W\d_])", re.I)
#: A redaction label glued to letters: the scanner replaced part of a word (``[NAME]ễn``,
#: a name read up to its first letter outside its alphabet) and left the rest of it.
_CUT_WORD = re.compile(r"(\[[A-Z]+(?:-[0-9a-f]+)?\])[^\W\d_]+|[^\W\d_]+(\[[A-Z]+(?:-[0-9a-f]+)?\])")
_CUT_WORD_FOUND = re.compile(r"\[[A-Z]+(?:-[0-9a-f]+)?\][^\W\d_]|[^\W\d_]\[[A-Z]+(?:-[0-9a-f]+)?\]")
_ADDRESS_PART = re.compile(r"#\s?\d{1,3}\s?-\s?\d{1,5}|\b(?:blk|block)\.?\s?\d+[a-z]?\b", re.I)
#: A word's letters: from its first letter to its last (``(tan,`` -> ``tan``).
_LETTERS = re.compile(r"[^\W\d_](?:.*[^\W\d_])?")

#: Counter names (besides the scanner's entity kinds) and what each means in a message.
COUNTERS = {
    "digit_run": f"a run of {DIGITS} or more digits",
    "id_number": "an NRIC/FIN-shaped number (also in lower case or split by dots, "
    "dashes or spaces)",
    "address_part": "a block or unit number",
    "name_word": "a name-like word",
    "unknown_name": "two or more capitalised words in a row that are no English word "
    "(a name of no list)",
    "cut_word": "the rest of a word a label replaced only part of",
}


def _names():
    """The detectors' name lists, imported on first use: every release check imports this
    module, but only free text needs the detectors (name lists, phone numbers: about 0.15 s
    of a command's start; issue 31)."""
    from core.detect.names import name_lists

    return name_lists()


def _without_labels(text: pd.Series) -> pd.Series:
    return text.str.replace(_LABEL, " ", regex=True)


@functools.cache
def _name_sets() -> tuple[pa.Array, pa.Array, pa.Array]:
    """(known, family, never an everyday word) name-list words, as arrow value sets."""
    lists = _names()
    known = lists.known.keys() - lists.not_name
    return (
        pa.array(sorted(known)),
        pa.array(sorted(lists.family.keys() - lists.not_name)),
        pa.array(sorted(known - lists.ambiguous)),
    )


def _name_word_cells(text: pd.Series) -> np.ndarray:
    """Per value: a capitalised word of the name lists that is never an everyday word
    (``Lim``, ``Mei``; in lower case too many names are words: ``see``), or two name-list
    words in a row in any case, one of them a family name (``tan ah``; not across
    punctuation, ``tan, ah``). Words are the text
    between spaces from its first to its last letter (as :func:`_name_words` reads them),
    split and looked up in arrow, column-wide."""
    hit = np.zeros(len(text), dtype=bool)
    values = pa.array(text.fillna("").tolist(), pa.string())
    parts = pc.split_pattern_regex(values, r"\s+")
    raw = pc.list_flatten(parts)
    if not len(raw):
        return hit
    owner = pc.list_parent_indices(parts).to_numpy()
    capital = pc.match_substring_regex(raw, r"^[^\p{L}]*\p{Lu}").to_numpy(zero_copy_only=False)
    words = pc.utf8_lower(pc.replace_substring_regex(raw, r"^[^\p{L}]+|[^\p{L}]+$", ""))
    clean_start = pc.invert(pc.match_substring_regex(raw, r"^[^\p{L}]")).to_numpy(
        zero_copy_only=False
    )
    clean_end = pc.invert(pc.match_substring_regex(raw, r"[^\p{L}]$")).to_numpy(
        zero_copy_only=False
    )
    known_set, family_set, sure_set = _name_sets()
    known = pc.is_in(words, value_set=known_set).to_numpy(zero_copy_only=False)
    family = pc.is_in(words, value_set=family_set).to_numpy(zero_copy_only=False)
    sure = pc.is_in(words, value_set=sure_set).to_numpy(zero_copy_only=False)
    follows = np.r_[False, (owner[1:] == owner[:-1]) & clean_end[:-1] & clean_start[1:]]
    pair = known & np.r_[False, known[:-1]] & follows & (family | np.r_[False, family[:-1]])
    hit[np.unique(owner[(sure & capital) | pair])] = True
    return hit


#: A ``[NAME]`` label as :func:`_unknown_name_cells` reads it: a title-case word of the
#: label's length that is no English word ("Bùi [NAME]": a name word beside a name).
_NAME_LABEL = re.compile(r"\[NAME(?:-[0-9a-f]+)?\]")
_LABEL_WORD = re.compile(r"^Xq+$")


def _shadow(value: str) -> str:
    """``value`` with each ``[NAME]`` label written as a placeholder word of its length and
    other labels as spaces, so positions stay those of ``value``."""
    value = _NAME_LABEL.sub(lambda m: "X" + "q" * (len(m.group()) - 1), value)
    return _LABEL.sub(lambda m: " " * len(m.group()), value)


def _unknown_name_cells(text: pd.Series) -> np.ndarray:
    """Per value: two or more title-case words in a row (``Phạm Thu Hà``, ``Ngozi Eze``)
    none of which is an English word, or a word of no English in any case beside a
    ``[NAME]`` label (``Bùi [NAME]``, ``[NAME] văn an``), not across punctuation. The name lists hold some cultures' names and not others'; an
    English sentence's capitalised words that are no English word, side by side, are
    most often a name (``Pádraig Ó Súilleabháin``: a one-letter word too). All-capital
    words (``COVID PCR``) are left out. ``text`` is read through :func:`_shadow`; looked
    up in arrow, column-wide, as :func:`_name_word_cells`."""
    hit = np.zeros(len(text), dtype=bool)
    shadowed = text.fillna("").map(_shadow) if text.str.contains("[", regex=False).any() else text
    values = pa.array(shadowed.fillna("").tolist(), pa.string())
    parts = pc.split_pattern_regex(values, r"\s+")
    raw = pc.list_flatten(parts)
    if not len(raw):
        return hit
    owner = pc.list_parent_indices(parts).to_numpy()
    letters = pc.replace_substring_regex(raw, r"^[^\p{L}]+|[^\p{L}]+$", "")
    title = pc.match_substring_regex(letters, r"^\p{Lu}\p{Ll}*$").to_numpy(zero_copy_only=False)
    label = pc.match_substring_regex(letters, _LABEL_WORD.pattern).to_numpy(zero_copy_only=False)
    clean_start = pc.invert(pc.match_substring_regex(raw, r"^[^\p{L}]")).to_numpy(
        zero_copy_only=False
    )
    clean_end = pc.invert(pc.match_substring_regex(raw, r"[^\p{L}]$")).to_numpy(
        zero_copy_only=False
    )
    english = pc.is_in(pc.utf8_lower(letters), value_set=_english_set()).to_numpy(
        zero_copy_only=False
    )
    has_letters = pc.match_substring_regex(letters, r"^\p{L}+$").to_numpy(zero_copy_only=False)
    unknown = has_letters & ~english & ~label  # no English word, in any case ("văn", "Phạm")
    real = title & ~english & ~label
    follows = np.r_[False, (owner[1:] == owner[:-1]) & clean_end[:-1] & clean_start[1:]]

    def before(flags: np.ndarray) -> np.ndarray:
        return np.r_[False, flags[:-1]]

    pair = follows & (
        (real & before(real | label)) | (label & before(real | unknown)) | (unknown & before(label))
    )
    hit[np.unique(owner[pair])] = True
    return hit


@functools.cache
def _english_set() -> pa.Array:
    return pa.array(sorted(_names().english), pa.string())


def _replace_unknown_names(text: pd.Series) -> pd.Series:
    """What :func:`_unknown_name_cells` finds replaced by ``[NAME]``, word by word (the
    labels beside them stay as they are)."""
    hits = _unknown_name_cells(text)
    if not hits.any():
        return text
    english = _names().english

    def once(value: str) -> str:
        shadow = _shadow(value)
        words = _name_words(shadow)
        label = [bool(_LABEL_WORD.match(shadow[w[0] : w[1]])) for w in words]
        unknown = [
            not label[i] and w[2].isalpha() and w[2] not in english for i, w in enumerate(words)
        ]
        real = [
            unknown[i] and w[5] and not any(c.isupper() for c in value[w[0] + 1 : w[1]])
            for i, w in enumerate(words)
        ]
        marked = [False] * len(words)
        for i in range(1, len(words)):
            if not (words[i - 1][4] and words[i][3]):
                continue
            if (real[i] and (real[i - 1] or label[i - 1])) or (unknown[i] and label[i - 1]):
                marked[i] = True
            if (real[i - 1] and (real[i] or label[i])) or (unknown[i - 1] and label[i]):
                marked[i - 1] = True
        return _names_replaced(value, words, marked)

    def one(value: str) -> str:  # only on the values with a hit; a name word at a time
        for _ in range(len(value)):  # "đặng ngọc [NAME]": ngọc, then đặng
            new = once(value)
            if new == value:
                break
            value = new
        return value

    out = text.copy()
    out[hits] = text[hits].map(one)
    return out


def _name_words(value: str) -> list[tuple[int, int, str, bool, bool, bool]]:
    """The words of one value as :func:`_name_word_cells` reads them: (start, end, the
    word in lower case, clean start, clean end, capitalised), the span from first to last
    letter."""
    words = []
    for token in re.finditer(r"\S+", value):
        core = _LETTERS.search(token.group())
        if core is None:
            continue
        start, end = token.start() + core.start(), token.start() + core.end()
        words.append(
            (
                start,
                end,
                value[start:end].lower(),
                start == token.start(),
                end == token.end(),
                value[start].isupper(),
            )
        )
    return words


def rescan(values: pd.Series) -> dict[str, int]:
    """Cells of ``values`` in which something identifying is still found, per kind: the
    scanner's entity kinds and the counters of :data:`COUNTERS` (kinds found in no cell
    are left out). Work is done once per distinct value."""
    folded = compatible(as_text(values))
    counts = folded.dropna().value_counts()
    if counts.empty:
        return {}
    from core.detect import scan_values  # the detectors load when text is read (see _names)

    scanned = scan_values(folded)
    found = dict(zip(scanned["kind"].astype(str), scanned["cells"].astype(int), strict=True))
    labelled = pd.Series(counts.index, dtype="str")
    text = _without_labels(labelled)
    weights = counts.to_numpy()
    counters = {
        "digit_run": text.str.contains(_DIGIT_RUN).to_numpy(dtype=bool),
        "id_number": text.str.contains(_SPLIT_ID).to_numpy(dtype=bool),
        "address_part": text.str.contains(_ADDRESS_PART).to_numpy(dtype=bool),
        "name_word": _name_word_cells(text),
        "unknown_name": _unknown_name_cells(labelled),
        "cut_word": labelled.str.contains(_CUT_WORD_FOUND).to_numpy(dtype=bool),
    }
    for kind, hits in counters.items():
        found[kind] = int(weights[hits].sum())
    return {kind: int(cells) for kind, cells in found.items() if cells}


@functools.cache
def _look_alikes() -> tuple[dict[int, str], dict[int, str]]:
    """Translate tables: every script's decimal digits (Arabic-Indic ``٢``, Devanagari
    ``२``...) as ASCII digits; Cyrillic and Greek capitals that look like Latin ones."""
    digits = {
        c: str(unicodedata.digit(chr(c)))
        for c in range(sys.maxunicode + 1)
        if unicodedata.category(chr(c)) == "Nd" and not chr(c).isascii()
    }
    letters = dict(zip("АВЕКМНОРСТХЅІЈΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEKMHOPCTXSIJABEZHIKMNOPTYX", strict=True))
    return str.maketrans(digits), str.maketrans(letters)


# (from a word's start only: the same words, but a long word without a mix is read once,
# not once from each of its characters, which was quadratic in a hostile cell)
_MIXED = re.compile(r"(?<!\S)\S*(?:[0-9A-Za-z][^\x00-\x7f]|[^\x00-\x7f][0-9A-Za-z])\S*")


def compatible(text: pd.Series) -> pd.Series:
    """Text in Unicode's compatibility form (NFKC): full-width digits and letters, the
    full-width ``＠`` and ``．`` a phone's input method types, read as the ASCII
    characters they stand for, so that ``minh２＠mail．example．org`` is an email to the
    scanner and the counters too. Every script's digits are read as ASCII digits
    (``S٢٣٥٣٥٩٠D``), and a word that mixes ASCII letters or digits with Cyrillic or
    Greek look-alikes (``Ѕ2353590D``) in ASCII; a word of one script (``Москва``) is
    left."""
    folded = text.str.normalize("NFKC")
    odd = folded.str.contains(r"[^\x00-\x7f]", regex=True).fillna(False).to_numpy(dtype=bool)
    if odd.any():
        folded = folded.copy()
        digits, letters = _look_alikes()
        folded[odd] = (
            folded[odd]
            .str.translate(digits)
            .str.replace(_MIXED, lambda m: m.group().translate(letters), regex=True)
        )
    return folded


def describe_findings(found: Mapping[str, int]) -> str:
    """'3 cells with a name, 2 with a run of 5 or more digits' (counts only, no values)."""
    from core.detect import label_of

    parts = []
    for kind, cells in found.items():
        what = COUNTERS.get(kind) or f"a {label_of(kind).lower()} the scanner recognises"
        parts.append(f"{cells:,} cell{'s' if cells != 1 else ''} with {what}")
    return ", ".join(parts)


def scrub(values: pd.Series) -> pd.Series:
    """``values`` with what the counters of :func:`rescan` find replaced: digit runs by
    ``[NUMBER]``, block and unit numbers by ``[ADDRESS]``, name-like words by ``[NAME]``
    (``redact_text`` with ``residue: true``). Missing values stay missing; done once per
    distinct value."""
    text = as_text(values)
    distinct = pd.Series(text.dropna().unique(), dtype="str")
    if distinct.empty:
        return values.copy()
    folded = compatible(distinct)
    new = folded.str.replace(_SPLIT_ID, "[ID]", regex=True)
    new = new.str.replace(_DIGIT_RUN, "[NUMBER]", regex=True)
    new = new.str.replace(_ADDRESS_PART, "[ADDRESS]", regex=True)
    # what a label (the scanner's or one above) left of a word ("[NUMBER]a", "[NAME]ễn"),
    # before the name words are read: none of these cuts a word
    new = new.str.replace(_CUT_WORD, lambda m: m.group(1) or m.group(2), regex=True)
    new = _replace_name_words(new)
    new = _replace_unknown_names(new)
    new = new.where(new != folded, distinct)  # nothing found: the value as it was written
    changed = dict(zip(distinct[new != distinct], new[new != distinct], strict=True))
    if not changed:
        return values.copy()
    out = values.astype(object).copy()
    rows = text.isin(list(changed)).fillna(False).to_numpy(dtype=bool)
    out[rows] = text[rows].map(changed)
    return out


def _replace_name_words(text: pd.Series) -> pd.Series:
    """Name-like words (as :func:`_name_word_cells` finds them) replaced by ``[NAME]``,
    with the word after a pair (``tan ah *kow*``) unless it is never part of a name."""
    lists = _names()
    known = lists.known.keys() - lists.not_name
    family = lists.family.keys() - lists.not_name
    plain = known - lists.ambiguous
    hits = _name_word_cells(_without_labels(text))
    if not hits.any():
        return text

    def one(value: str) -> str:  # only on the values with a hit
        words = _name_words(value)
        marked = [w[2] in plain and w[5] for w in words]
        for i in range(1, len(words)):
            (_, _, before, _, end_clean, _), (_, _, word, start_clean, _, _) = words[i - 1 : i + 1]
            if (
                end_clean
                and start_clean
                and before in known
                and word in known
                and (before in family or word in family)
            ):
                marked[i - 1] = marked[i] = True
                after = i + 1
                if after < len(words) and words[after][2] not in lists.not_name:
                    marked[after] = True
        return _names_replaced(value, words, marked)

    out = text.copy()
    out[hits] = text[hits].map(one)
    return out


def check_review(column: str, review: Any) -> dict[str, Any]:
    """A review record ``{by, at, rows_checked}`` checked: who (text), when (an ISO date
    or time) and how many cells they read (:func:`review_shortfall` says whether enough).
    Returns it as plain data; a one-line
    :class:`ParameterError` names the field at fault."""
    where = f"reviewed_text for '{column}'"
    if not isinstance(review, Mapping):
        raise ParameterError(
            f"{where} must be a mapping {{by: NAME, at: DATE, rows_checked: N}}, got {review!r}."
        )
    unknown = sorted(set(map(str, review)) - {"by", "at", "rows_checked"})
    if unknown:
        raise ParameterError(
            f"{where} does not take {', '.join(map(repr, unknown))}; it takes "
            "'by', 'at', 'rows_checked'."
        )
    by = review.get("by")
    if not isinstance(by, str) or not by.strip() or len(by) > 200:
        raise ParameterError(f"{where}: 'by' must name the person who read it (1-200 characters).")
    at = review.get("at")
    if isinstance(at, dt.datetime | dt.date):
        at = at.isoformat()
    try:
        dt.datetime.fromisoformat(str(at))
    except ValueError:
        raise ParameterError(
            f"{where}: 'at' must be the date (and time) of the review, e.g. 2026-11-27, got {at!r}."
        ) from None
    rows = review.get("rows_checked")
    if isinstance(rows, bool) or not isinstance(rows, int) or rows < 1:
        raise ParameterError(
            f"{where}: 'rows_checked' must be the number of cells read, a whole number >= 1, "
            f"got {rows!r}."
        )
    return {"by": by.strip(), "at": str(at), "rows_checked": rows}


def review_shortfall(review: Mapping[str, Any], cells: int) -> int:
    """How many more cells the review must read (0 when it read enough)."""
    return max(min(MIN_REVIEWED_CELLS, cells) - int(review["rows_checked"]), 0)


def _names_replaced(value: str, words: list, marked: list[bool]) -> str:
    """``value`` with each marked word (``words`` hold (start, end, ...)) replaced by
    "[NAME]", in one pass: cutting each word out in turn copied the whole value."""
    pieces, kept_from = [], 0
    for (start, end, *_), mark in zip(words, marked, strict=True):
        if mark:
            pieces += [value[kept_from:start], "[NAME]"]
            kept_from = end
    pieces.append(value[kept_from:])
    return "".join(pieces)
