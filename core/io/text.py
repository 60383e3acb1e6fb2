"""Decoding text and detecting its delimiter: the encoding (given, by byte-order mark, or
UTF-8, cp1252, latin-1 in turn) and the delimiter among ``, ; tab |``.

Separate from the readers because the engines (:mod:`core.engines.sources`) detect the
dialect of the files they read the same way.
"""

from __future__ import annotations

import codecs
import csv

from core.errors import DataReadError

DELIMITERS = (",", ";", "\t", "|")
"""Delimiters recognised automatically, in order of preference on a tie."""

#: Characters (and at most this many non-blank lines) sampled to detect the delimiter.
SAMPLE_CHARS = 64_000
_SAMPLE_LINES = 200

#: Byte-order marks and the encoding each announces (UTF-32 before UTF-16: they share bytes).
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode_text(data: bytes, display: str, encoding: str | None) -> tuple[str, str]:
    """Decode ``data``; return the text and the name of the encoding used."""
    if encoding is not None:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError as exc:
            raise DataReadError(
                f"Unknown encoding '{encoding}' for file '{display}'. Use a name such as "
                "'utf-8', 'cp1252' or 'latin-1', or leave it empty to detect it."
            ) from exc
        if codec == "utf-8" and data.startswith(codecs.BOM_UTF8):
            codec = "utf-8-sig"
        try:
            return data.decode(codec), encoding
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            bad = data[exc.start : exc.start + 1].hex()
            raise DataReadError(
                f"File '{display}' cannot be decoded as '{encoding}': byte 0x{bad} at byte "
                f"offset {exc.start} (line {line}) is not valid in that encoding. Leave the "
                "encoding empty to detect it, or try 'utf-8', 'cp1252' or 'latin-1'."
            ) from exc
    for bom, codec in BOMS:
        if data.startswith(bom):
            try:
                return data.decode(codec), codec
            except UnicodeDecodeError as exc:
                raise DataReadError(
                    f"File '{display}' starts with a {codec.upper()} byte-order mark but byte "
                    f"offset {exc.start} is not valid {codec.upper()}. The file is probably "
                    "damaged: export it again."
                ) from exc
    for codec in ("utf-8", "cp1252", "latin-1"):
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes every byte")  # pragma: no cover


def normalise_sep(sep: str, display: str) -> str:
    """The delimiter the user gave as one character (``\\t`` or ``tab`` for a tab), or an error."""
    if sep in ("\\t", "tab", "TAB"):
        return "\t"
    if not isinstance(sep, str) or len(sep) != 1 or sep in '"\r\n':
        raise DataReadError(
            f"Delimiter {sep!r} for file '{display}' is not usable: give a single character "
            "such as ',' ';' '|' or a tab, or leave it empty to detect it."
        )
    return sep


def _sample_lines(text: str) -> list[str]:
    sample = text[:SAMPLE_CHARS]
    lines = sample.splitlines()
    if len(text) > SAMPLE_CHARS and len(lines) > 1:
        lines = lines[:-1]  # the last line of a truncated sample may be cut in half
    return [line for line in lines if line.strip()][:_SAMPLE_LINES]


def _field_counts(lines: list[str], sep: str) -> list[int]:
    return [len(row) for row in csv.reader(lines, delimiter=sep)]


def detect_sep(text: str) -> str:
    """Pick the delimiter: the one candidate that splits every sample line into the same
    number of fields (more than one); of several, the one giving the most fields (a tie:
    the first of :data:`DELIMITERS`); of none, the one splitting the header line into the
    most fields (the full check then names the first line that differs).

    Fields are counted by the csv module, so a delimiter inside quotes does not count.
    ``csv.Sniffer`` is not used: its regular expressions backtrack without bound on quotes
    (a 270-byte file took 38 s, a 62 KB one minutes); counting is linear in the sample."""
    lines = _sample_lines(text)
    if not lines:
        return ","
    consistent: dict[str, int] = {}
    for candidate in DELIMITERS:
        counts = _field_counts(lines, candidate)
        if counts and counts[0] > 1 and all(c == counts[0] for c in counts):
            consistent[candidate] = counts[0]
    if consistent:
        return max(consistent, key=lambda c: (consistent[c], -DELIMITERS.index(c)))
    in_header = {c: _field_counts(lines[:1], c)[0] for c in DELIMITERS}
    best = max(DELIMITERS, key=lambda c: (in_header[c], -DELIMITERS.index(c)))
    return best if in_header[best] > 1 else ","
