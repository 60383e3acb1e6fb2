"""Character masking (PDPC guide, Annex A: Character masking; Annex B presets).

"Replace the appropriate characters with a chosen symbol": :func:`mask` keeps the first
``keep_first`` and the last ``keep_last`` characters of each value and replaces the others
with ``char``, leaving separators (``keep``) in place so the format stays readable.
For common identifiers the guide's Annex B gives a rule; :data:`MASK_PRESETS` implements
them with one regular expression each (the value must match the format, otherwise the
first row that does not is reported, so nothing is left unmasked by accident).
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any

import pandas as pd

from core._text import as_text
from core.errors import ParameterError
from core.validation import require_choice, require_columns, require_int, shown_value

_HEX = "[0-9A-Fa-f]{1,4}"

#: Annex B masking rules. ``pattern`` must match the whole value; ``replacement`` is a
#: regex template where ``{c}`` stands for the masking character. ``example`` is the
#: guide's (or, for ``nric``, our documented) before/after pair.
MASK_PRESETS: dict[str, dict[str, Any]] = {
    "postal_code": {
        "description": "Mask the last four digits of a 6-digit postal code, keeping the "
        "2-digit sector code (Annex A example; Annex B).",
        "pattern": r"^(\d{2})\d{4}$",
        "replacement": r"\1{c}{c}{c}{c}",
        "zfill": 6,
        "example": ("117438", "11xxxx"),
    },
    "ipv4": {
        "description": "Mask the last two octets of an IPv4 address, each as three "
        "characters so the octet's length is hidden too (Annex B, footnote 20).",
        "pattern": r"^(\d{1,3}\.\d{1,3})\.\d{1,3}\.\d{1,3}$",
        "replacement": r"\1.{c}{c}{c}.{c}{c}{c}",
        "example": ("12.120.210.88", "12.120.xxx.xxx"),
    },
    "ipv6": {
        "description": "Mask the last 80 bits (last five 16-bit groups) of an IPv6 address; "
        "compressed forms ('::') are expanded first (Annex B).",
        "pattern": rf"^({_HEX}:{_HEX}:{_HEX})(?::{_HEX}){{5}}$",
        "replacement": r"\1" + ":{c}{c}{c}{c}" * 5,
        "expand": "ipv6",
        "example": (
            "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
            "2001:0db8:85a3:xxxx:xxxx:xxxx:xxxx:xxxx",
        ),
    },
    "vehicle_plate": {
        "description": "Mask the last four characters of a vehicle licence plate number (Annex B).",
        "pattern": r"^(\S*)\S{4}$",
        "replacement": r"\1{c}{c}{c}{c}",
        "example": ("SMF1234A", "SMF1xxxx"),
    },
    "iu_number": {
        "description": "Mask the last three digits of an in-vehicle unit (IU) number (Annex B).",
        "pattern": r"^(\d*)\d{3}$",
        "replacement": r"\1{c}{c}{c}",
        "example": ("1234567890", "1234567xxx"),
    },
    "nric": {
        "description": "Mask the first four digits of an NRIC/FIN, keeping the prefix letter, "
        "the last three digits and the check letter: the common public practice for "
        "partially masked NRICs (Annex A notes that masked NRICs let data subjects "
        "recognise themselves, so use this only for that purpose; Annex B recommends "
        "suppression or pseudonyms for NRICs in anonymised data).",
        "pattern": r"^([STFGMstfgm])\d{4}(\d{3}[A-Za-z])$",
        "replacement": r"\1{c}{c}{c}{c}\2",
        "example": ("S1234567D", "Sxxxx567D"),
    },
}


def mask(
    df: pd.DataFrame,
    column: str,
    *,
    keep_first: int = 0,
    keep_last: int = 0,
    char: str = "x",
    keep: str = ".-@:/ ",
    preset: str | None = None,
) -> pd.DataFrame:
    """Mask the characters of ``column`` (PDPC guide, Annex A: Character masking).

    Without a preset, the first ``keep_first`` and the last ``keep_last`` characters are kept
    and every other character is replaced by ``char``, except separators listed in ``keep``
    (so ``"a.b@c.com"`` keeps its dots and ``@``). ``keep_last`` only counts characters after
    the first ``keep_first`` ones. The length of each value is preserved; the guide warns
    that length itself may identify, in which case suppress the column instead.

    Annex A defines masking as replacing "the appropriate characters" with a symbol, so a
    masking step must hide something in every value it touches. A value is *left in clear*
    when it has characters to mask but none of them lies between the first ``keep_first``
    and the last ``keep_last`` characters, i.e. when ``keep_first + keep_last`` reaches its
    length (or only separators remain in between). If any value would be left in clear,
    :class:`ParameterError` is raised naming the first such row and its length, rather than
    masking some values and silently releasing others (e.g. ``keep_first=9`` on 9-character
    NRICs would release every NRIC unchanged while the step appears to have run). Lower
    ``keep_first``/``keep_last`` below the length of the shortest value, or suppress the
    column. Values with nothing to mask (only separators, or empty) are left as they are.

    With ``preset`` (a key of :data:`MASK_PRESETS`, Annex B), the preset's rule is used and
    ``keep_first``/``keep_last``/``keep`` must be left at their defaults. Values that do not
    have the preset's format raise :class:`ParameterError` naming the first such row.

    Numbers are masked through their text (``117438``); missing values stay missing.
    The result column is text (``str`` dtype).
    """
    require_columns(df, column)
    keep_first = require_int("keep_first", keep_first, minimum=0)
    keep_last = require_int("keep_last", keep_last, minimum=0)
    if not isinstance(char, str) or len(char) != 1:
        raise ParameterError(f"Parameter 'char' must be a single character, got {char!r}.")
    if not isinstance(keep, str):
        raise ParameterError(f"Parameter 'keep' must be a string of characters, got {keep!r}.")
    series = df[column]
    if preset is not None:
        require_choice("preset", preset, MASK_PRESETS)
        if keep_first or keep_last or keep != ".-@:/ ":
            raise ParameterError(
                f"Parameter 'preset' ({preset!r}) already decides which characters to mask: "
                "leave 'keep_first', 'keep_last' and 'keep' at their defaults, or drop the preset."
            )
        masked = _mask_preset(series, column, preset, char)
    else:
        masked = _mask_positions(as_text(series), column, keep_first, keep_last, char, keep)
    out = df.copy()
    out[column] = masked
    return out


def _mask_positions(
    text: pd.Series, column: str, keep_first: int, keep_last: int, char: str, keep: str
) -> pd.Series:
    head = text.str.slice(0, keep_first)
    rest = text.str.slice(keep_first)
    if keep_last:
        middle = rest.str.slice(0, -keep_last)
        tail = rest.str.slice(-keep_last)
    else:
        middle, tail = rest, rest.str.slice(0, 0)
    maskable = re.compile(f"[^{re.escape(keep)}]" if keep else ".", flags=re.DOTALL)
    in_clear = (text.str.count(maskable) > 0) & (middle.str.count(maskable) == 0)
    if in_clear.any():
        row = int(in_clear.to_numpy().nonzero()[0][0])
        raise ParameterError(
            f"Masking column '{column}' with keep_first={keep_first} and keep_last={keep_last} "
            f"would leave {int(in_clear.sum())} value(s) unmasked, the first in row {row + 1} "
            f"({len(text.iloc[row])} characters): keep_first + keep_last must be less than the "
            "length of every value. Keep fewer characters, or suppress the column."
        )
    middle = middle.str.replace(maskable, char.replace("\\", "\\\\"), regex=True)
    return (head + middle + tail).astype("str")


def _mask_preset(series: pd.Series, column: str, preset: str, char: str) -> pd.Series:
    rule = MASK_PRESETS[preset]
    if "zfill" in rule and pd.api.types.is_numeric_dtype(series):
        # a postal code read as a number lost its leading zero (018956 -> 18956)
        text = as_text(series).str.zfill(rule["zfill"])
    else:
        text = as_text(series).str.strip()
    if rule.get("expand") == "ipv6":
        text = _expand_ipv6(text)
    pattern = re.compile(rule["pattern"])
    bad = text.notna() & ~text.str.fullmatch(pattern).fillna(False).astype(bool)
    if bad.any():
        row = int(bad.to_numpy().nonzero()[0][0])
        raise ParameterError(
            f"Mask preset {preset!r} expects values like {rule['example'][0]!r}, but column "
            f"'{column}' has {int(bad.sum())} value(s) that are not, the first in row "
            f"{row + 1} ({shown_value(series.iloc[row])}). Clean those values, or use keep_first/keep_last."
        )
    replacement = rule["replacement"].replace("{c}", char.replace("\\", "\\\\"))
    return text.str.replace(pattern, replacement, regex=True).astype("str")


def _expand_ipv6(text: pd.Series) -> pd.Series:
    """Write compressed IPv6 addresses ('2001:db8::1') in full, once per distinct value."""
    compressed = text.dropna()
    compressed = compressed[compressed.str.contains("::", regex=False)].unique()
    if len(compressed) == 0:
        return text
    mapping = {}
    for value in compressed:
        try:
            mapping[value] = ipaddress.IPv6Address(value).exploded
        except ValueError:
            mapping[value] = value  # reported as malformed by the caller
    return text.replace(mapping)
