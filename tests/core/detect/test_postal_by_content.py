"""Postal codes of several countries recognised by their content under a header that says
nothing (Step 1; HIPAA identifier B), issue 26. Every column is written by hand: real
formats (Australia 2000 Sydney, 0870 Alice Springs, 4000 Brisbane; Malaysia 50450 Kuala
Lumpur; Singapore 520412; Canada M5V 3L9; Ireland D04 C3P5; UK SW1A 1AA)."""

import pandas as pd
import pytest

from core.schema import suggest_roles


def kind_of(values: list[str]) -> str:
    (suggestion,) = suggest_roles(pd.DataFrame({"c7": pd.Series(values, dtype="str")}))
    return suggestion.kind


# 4 rows of each, repeated 5 times: 20+ rows in which codes repeat as neighbours' do.
AUSTRALIA = ["2000", "0870", "4000", "3000", "2600", "6000", "0870", "2000"]
MIXED = [
    "2000",
    "0870",
    "4000",
    "50450",
    "520412",
    "M5V 3L9",
    "D04 C3P5",
    "SW1A 1AA",
    "10001",
    "EC1A 1BB",
    "V6B 4Y8",
    "D02 X285",
]


@pytest.mark.parametrize(
    "values",
    [
        AUSTRALIA * 5,  # 4 digits with a leading zero, repeated
        MIXED * 4,  # an international customer table
        ["M5V 3L9", "H2X 1Y4", "T2P 2M5", "M5V 3L9"] * 6,  # Canada
        ["D04 C3P5", "D02 X285", "T12 K8AF", "D04 C3P5"] * 6,  # Ireland
        ["SW1A 1AA", "EC1A 1BB", "M1 1AE", "B33 8TH"] * 6,  # UK
        ["2000", "4000", "50450", "520412", "53100", "1100"] * 5,  # 4/5/6 digits
    ],
)
def test_postal_columns_of_each_format_and_mixed_are_postal(values):
    assert kind_of(values) == "postal_code"


@pytest.mark.parametrize(
    "values",
    [
        [str(y) for y in range(1940, 2000)],  # years of birth
        [str(y) for y in (1987, 1990, 1987, 2001, 1995, 1990, 1987, 2010)] * 4,  # repeated years
        ["1250", "3400", "2100", "1250", "5600", "2100", "8800", "1250"] * 4,  # amounts
        # 4-digit PINs: leading zeros, but hardly repeating (hand-typed, 30 of 32 distinct)
        [
            "0934",
            "4821",
            "7712",
            "3301",
            "9021",
            "1175",
            "6643",
            "2298",
            "0007",
            "8850",
            "5512",
            "3390",
            "0451",
            "7204",
            "6618",
            "2987",
            "1043",
            "5529",
            "8106",
            "0762",
            "3857",
            "9440",
            "2215",
            "6071",
            "4398",
            "1526",
            "0934",
            "7781",
            "3064",
            "8812",
            "5193",
            "4821",
        ],
        # product numbers: same length, no leading zero, repeated
        ["4410", "4411", "4410", "5230", "5231", "4410", "7001", "5230"] * 4,
    ],
)
def test_years_amounts_pins_and_product_numbers_are_not_postal(values):
    assert kind_of(values) != "postal_code"
