"""The faster forms of the free-text scan give what the forms they replaced gave (issue 26,
speed): the word before a name read with string operations instead of an expression, and
the redaction of a column put back row by row with numpy instead of pandas look-ups.

Each test checks the new form against an independent one written here: the expression the
old code searched, and a plain per-row loop over the column."""

from __future__ import annotations

import random
import re

import numpy as np
import pandas as pd
import pytest

from core.detect.name_context import previous_word
from core.detect.text import _find, entity_kinds, redact_and_count

# The expression core.detect.names searched in the 24 characters before a name.
_PREVIOUS = re.compile(r"([A-Za-z]+)\.?[ \t:,]*$")


def _previous_by_expression(text: str, start: int) -> str:
    match = _PREVIOUS.search(text[max(0, start - 24) : start])
    return match.group(1).lower() if match else ""


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("seen by Dr. Tan", "dr"),  # the dot after the cue
        ("son:  Ravi", "son"),
        ("Mother is, Vrinda", "is"),
        ("called\nSiti", "called"),  # "$" reads the end before one final newline
        ("called\n\nSiti", ""),  # but not before two
        ("ask..Tan", ""),  # two dots: no word
        ("12 Tan", ""),
        ("Ms.\tLim", "ms"),
        ("Tan", ""),
        ("über Tan", "ber"),  # ASCII letters only, as the expression reads them
    ],
)
def test_the_word_before_a_name_is_the_one_the_expression_read(text, word):
    start = text.rindex(text.split()[-1]) if text.split() else len(text)
    assert _previous_by_expression(text, start) == previous_word(text, start)
    if word:
        assert previous_word(text, start) == word


def test_the_word_before_a_name_equals_the_expression_on_random_texts():
    rng = random.Random(26)
    pieces = ["Dr", "Mr.", "son", "with", "Tan", "by:", "to,", "\n", "x.", "..", " ", "\t"]
    pieces += ["é", "9", "\r", ";", "ab", "Ü", ":"]
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        start = rng.randint(0, len(text))
        assert previous_word(text, start) == _previous_by_expression(text, start), (
            text,
            start,
        )


def _redacted_row_by_row(values: pd.Series) -> list[object]:
    """Each cell redacted alone with the one-text scan (the independent form)."""
    out: list[object] = []
    for value in values.tolist():
        if value is None or (isinstance(value, float) and np.isnan(value)):
            out.append(value)
            continue
        text = value if isinstance(value, str) else str(value)
        found = _find(text, entity_kinds(), "SG")
        if not found:
            out.append(value)
            continue
        pieces, position = [], 0
        for entity in found:
            pieces += [text[position : entity.start], f"[{entity.label}]"]
            position = entity.end
        out.append("".join([*pieces, text[position:]]))
    return out


@pytest.mark.parametrize(
    "values",
    [
        pd.Series(
            ["Call Mr Tan Ah Kow on 9123 4567", "nothing", None, "Call Mr Tan Ah Kow on 9123 4567"],
            dtype="str",
        ),
        pd.Series(
            ["Seen by Dr Lim", "x", "Seen by Dr Lim", "email a@b.co"],
            index=[3, 3, 1, 1],  # a repeated index: rows are set by position
            dtype=object,
            name="notes",
        ),
        pd.Series(["Mdm Siti binte Ahmad, S1234567D", None, "ok"], dtype="category"),
    ],
)
def test_the_column_redaction_equals_each_row_redacted_alone(values):
    out, changed, counts = redact_and_count(values, lambda e: f"[{e.label}]")
    expected = _redacted_row_by_row(values.astype(object))
    got = out.astype(object).tolist()
    assert [str(x) for x in got] == [str(x) for x in expected]
    assert list(out.index) == list(values.index) and out.name == values.name
    was = values.astype(object).tolist()
    assert changed.tolist() == [
        e is not w and str(e) != str(w) for e, w in zip(expected, was, strict=True)
    ]
    assert sum(counts.values()) >= 2


def test_the_words_looked_up_for_lower_case_names_are_those_of_translate_and_split():
    # The form it replaced: punctuation translated to spaces, then str.split.
    from core.detect.names import _LOOKUP_WORDS, _WORD_PUNCTUATION

    table = str.maketrans({c: " " for c in _WORD_PUNCTUATION})
    spaces = [chr(c) for c in range(0x3001) if chr(c).isspace()]
    rng = random.Random(7)
    pieces = ["siti", "tan", "-", "é", "_", "#", "'", *_WORD_PUNCTUATION, *spaces]
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert _LOOKUP_WORDS.findall(text) == text.translate(table).split(), repr(text)


def test_a_name_word_written_again_is_found_where_the_expression_found_it():
    # The form it replaced: one expression compiled for each word of a name found.
    from core.detect.word_places import written_alone

    rng = random.Random(31)
    words = ["Ruby", "Tan", "Siti", "Ana"]
    pieces = [*words, " ", "\n", "@", ".", "'", "’", "-", "_", "9", "٣", "é", "x", "s", ","]
    for _ in range(20_000):
        word = rng.choice(words)
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        expression = rf"(?<![\w@.'’-]){re.escape(word)}(?![\w@-])"
        expected = [m.start() for m in re.finditer(expression, text)]
        assert list(written_alone(text, word)) == expected, (text, word)
    assert list(written_alone("AnaAna Ana", "Ana")) == [7]  # glued to itself: only the last
    assert list(written_alone("Tan_Tan Tan-Tan Tan", "Tan")) == [16]


def test_libphonenumber_keeps_its_compiled_metadata_beyond_python_s_cache():
    # Python's cache holds 512 compiled expressions and drops the oldest; once the phone
    # detector is loaded, an expression of libphonenumber's metadata is compiled once.
    phonenumbers = pytest.importorskip("phonenumbers")
    if not hasattr(phonenumbers, "enable_pattern_cache"):
        pytest.skip("this libphonenumber has no cache of its own (compiles as before)")
    from phonenumbers.re_util import re_compile

    import core.detect.phones  # noqa: F401  (switches the cache on)

    metadata = phonenumbers.PhoneMetadata.metadata_for_region("SG")
    first = re_compile(metadata.mobile.national_number_pattern)
    for i in range(600):  # more than Python's cache holds
        re.compile(f"(?:speed-test-{i})+")
    assert re_compile(metadata.mobile.national_number_pattern) is first
