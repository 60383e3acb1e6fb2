"""Tests for core/techniques/masking.py (PDPC guide, Annex A: Character masking; Annex B)."""

from __future__ import annotations

import ipaddress

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ColumnNotFoundError, ParameterError
from core.techniques.masking import MASK_PRESETS, mask


def test_guide_annex_a_postal_codes_keep_sector_code():
    """Annex A example: the last 4 digits of the postal code are masked."""
    df = pd.DataFrame(
        {
            "Postal code": ["100111", "200222", "300333"],
            "Average number of orders per month": [2, 8, 1],
        }
    )
    out = mask(df, "Postal code", keep_first=2)
    assert out["Postal code"].tolist() == ["10xxxx", "20xxxx", "30xxxx"]
    pdt.assert_series_equal(
        out["Average number of orders per month"], df["Average number of orders per month"]
    )


def test_postal_codes_read_as_numbers_are_masked_through_their_text():
    df = pd.DataFrame({"postal": [100111, 200222, 300333]})
    assert mask(df, "postal", keep_first=2)["postal"].tolist() == ["10xxxx", "20xxxx", "30xxxx"]


@pytest.mark.parametrize(
    ("preset", "before", "after"),
    [
        # Annex B, "Postal code"
        ("postal_code", "117438", "11xxxx"),
        # Annex B, "IP address" (each masked octet written as xxx)
        ("ipv4", "12.120.210.88", "12.120.xxx.xxx"),
        # Annex B, "IP address": last 80 bits = last five 16-bit groups. The guide prints
        # "2001:0db8:85a3:xxxx-:xxxx:..." where the "-" is a typesetting slip.
        (
            "ipv6",
            "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
            "2001:0db8:85a3:xxxx:xxxx:xxxx:xxxx:xxxx",
        ),
        # Annex B, "Vehicle license plate number"
        ("vehicle_plate", "SMF1234A", "SMF1xxxx"),
        # Annex B, "In-vehicle unit (IU) number"
        ("iu_number", "1234567890", "1234567xxx"),
        # Contract: prefix, last three digits and check letter stay
        ("nric", "S1234567D", "Sxxxx567D"),
    ],
)
def test_guide_annex_b_presets(preset, before, after):
    df = pd.DataFrame({"v": [before]})
    assert mask(df, "v", preset=preset)["v"].tolist() == [after]
    assert MASK_PRESETS[preset]["example"] == (before, after)


def test_ipv6_preset_masks_80_bits_of_compressed_addresses():
    address = "2001:db8::8a2e:370:7334"
    # independent: the first 48 bits of the address, written in full by the ipaddress module
    first_48 = ipaddress.IPv6Address(address).exploded.split(":")[:3]
    out = mask(pd.DataFrame({"ip": [address]}), "ip", preset="ipv6")["ip"].iloc[0]
    assert out == ":".join(first_48 + ["xxxx"] * 5)


def test_postal_code_preset_restores_a_lost_leading_zero():
    # 018956 read from a CSV as the number 18956
    out = mask(pd.DataFrame({"p": [18956]}), "p", preset="postal_code")
    assert out["p"].tolist() == ["01xxxx"]


def test_separators_are_kept_and_length_preserved():
    df = pd.DataFrame({"email": ["john.tan@gmail.com"]})
    out = mask(df, "email", keep_first=1)
    assert out["email"].iloc[0] == "jxxx.xxx@xxxxx.xxx"


def test_keep_last_and_custom_char():
    df = pd.DataFrame({"card": ["4111-1111-1111-1234"]})
    out = mask(df, "card", keep_last=4, char="*")
    assert out["card"].iloc[0] == "****-****-****-1234"


def test_empty_keep_masks_separators_too():
    out = mask(pd.DataFrame({"a": ["a.b"]}), "a", keep="")
    assert out["a"].iloc[0] == "xxx"


NRICS = pd.DataFrame({"nric": ["S1234567D", "T7654321J", "F0000001X"]})


@pytest.mark.parametrize(("keep_first", "keep_last"), [(9, 0), (0, 9), (5, 4), (12, 0), (9, 9)])
def test_keeping_a_whole_nric_is_refused(keep_first, keep_last):
    # 9-character NRICs: keeping 9 characters would release every NRIC in clear.
    with pytest.raises(
        ParameterError,
        match=r"leave 3 value\(s\) unmasked, the first in row 1 "
        r"\(9 characters\)",
    ) as error:
        mask(NRICS, "nric", keep_first=keep_first, keep_last=keep_last)
    assert "S1234567D" not in str(error.value)  # the message never shows the data


def test_keeping_all_but_one_nric_character_masks_one():
    out = mask(NRICS, "nric", keep_first=5, keep_last=3)
    assert out["nric"].tolist() == ["S1234x67D", "T7654x21J", "F0000x01X"]


def test_a_short_value_that_would_stay_in_clear_is_named_by_row():
    df = pd.DataFrame({"code": ["S1234567D", None, "", "AB", "--", "XYZ1"]})
    with pytest.raises(
        ParameterError,
        match=r"leave 1 value\(s\) unmasked, the first in row 4 "
        r"\(2 characters\)",
    ):
        mask(df, "code", keep_first=2)
    # separators alone have nothing to mask; missing and empty values stay as they are
    out = mask(df, "code", keep_first=1)
    assert out["code"].tolist()[2:] == ["", "Ax", "--", "Xxxx"]
    assert pd.isna(out["code"].iloc[1])


def test_missing_values_stay_missing():
    df = pd.DataFrame({"p": ["117438", None], "n": [117438.0, np.nan]})
    assert mask(df, "p", keep_first=2)["p"].isna().tolist() == [False, True]
    out = mask(df, "n", keep_first=2)["n"]
    assert out.iloc[0] == "11xxxx"
    assert pd.isna(out.iloc[1])
    assert mask(df, "p", preset="postal_code")["p"].isna().tolist() == [False, True]


def test_preset_reports_first_row_with_wrong_format():
    df = pd.DataFrame({"ip": ["12.120.210.88", "not an ip", "1.2.3"]})
    with pytest.raises(ParameterError, match=r"row 2 \('not an ip'\)"):
        mask(df, "ip", preset="ipv4")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"char": "xx"},
        {"char": ""},
        {"keep_first": -1},
        {"keep_last": 1.5},
        {"preset": "passport"},
        {"preset": "ipv4", "keep_first": 2},
    ],
)
def test_bad_parameters(kwargs):
    with pytest.raises(ParameterError):
        mask(pd.DataFrame({"a": ["12.120.210.88"]}), "a", **kwargs)


def test_unknown_column():
    with pytest.raises(ColumnNotFoundError, match="'b'"):
        mask(pd.DataFrame({"a": ["x"]}), "b")


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), st.text(max_size=12)), min_size=1, max_size=15),
    keep_first=st.integers(0, 5),
    keep_last=st.integers(0, 5),
)
def test_property_never_mutates_and_preserves_shape(values, keep_first, keep_last):
    df = pd.DataFrame({"a": values, "b": range(len(values))})
    before = df.copy()
    # hand-computed rule: a value with a maskable character none of which is in the middle
    in_clear = [
        v is not None
        and any(c not in ".-@:/ " for c in v)
        and all(c in ".-@:/ " for c in v[keep_first : max(len(v) - keep_last, keep_first)])
        for v in values
    ]
    if any(in_clear):
        with pytest.raises(ParameterError, match="unmasked"):
            mask(df, "a", keep_first=keep_first, keep_last=keep_last)
        pdt.assert_frame_equal(df, before)
        return
    out = mask(df, "a", keep_first=keep_first, keep_last=keep_last)
    pdt.assert_frame_equal(df, before)
    for original, masked in zip(values, out["a"], strict=True):
        if original is None:
            assert pd.isna(masked)
            continue
        assert len(masked) == len(original)
        assert masked[:keep_first] == original[:keep_first]
        tail = min(keep_last, max(len(original) - keep_first, 0))
        if tail:
            assert masked[-tail:] == original[-tail:]
        middle = range(keep_first, len(original) - tail)
        for i in middle:  # every middle character is masked unless it is a separator
            assert masked[i] == (original[i] if original[i] in ".-@:/ " else "x")
