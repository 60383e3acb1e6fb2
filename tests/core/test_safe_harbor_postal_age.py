"""Safe Harbor on postal codes found by their values and on ages over 89 inside notes
(45 CFR 164.514(b)(2)(i)(B) and (C)), issue 26. Tables written by hand."""

import pandas as pd

from core.safe_harbor import apply_safe_harbor

# Australia, Malaysia, Singapore, Canada, Ireland, UK and US codes in one column.
INTERNATIONAL = [
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
] * 4
NOTES = [
    "Hajah Zaiton, 91 this year, lives alone.",
    "a 45-year-old man, BP 95/60, metformin 90 mg",
    "aged 92 with hip fracture",
    "no complaints",
] * 12


def table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "loc": pd.Series(INTERNATIONAL, dtype="str"),
            "c2": pd.Series(
                ["94110", "10001", "60614", "94110", "03601", "73301"] * 8, dtype="str"
            ),
            "remarks": NOTES,
        }
    )


def test_a_postal_column_found_by_its_values_is_removed_and_says_so():
    for free_text in ("remove", "redact"):  # 'redact' used to keep it whole as text
        result = apply_safe_harbor(table(), reference_date="2025-06-30", free_text=free_text)
        assert "loc" not in result.data.columns
        line = result.to_frame().set_index("column").loc["loc"]
        assert line["action"] == "removed" and line["identifier"].startswith("B")
        assert line["found by"] == "content"
        assert "recognised by their values" in line["detail"]


def test_us_zip_codes_found_by_their_values_keep_three_digits():
    result = apply_safe_harbor(table(), reference_date="2025-06-30")
    # 036 is one of the 17 restricted 3-digit areas (HHS list): 000
    assert result.data["c2"].tolist()[:6] == ["941", "100", "606", "941", "000", "733"]
    line = result.to_frame().set_index("column").loc["c2"]
    assert line["action"] == "zip3" and line["found by"] == "content"


def test_ages_over_89_inside_redacted_notes_become_the_90_plus_category():
    result = apply_safe_harbor(table(), reference_date="2025-06-30", free_text="redact")
    assert result.data["remarks"].tolist()[:4] == [
        "[NAME], [AGE 90+] this year, lives alone.",  # the name goes too
        "a 45-year-old man, BP 95/60, metformin 90 mg",
        "aged [AGE 90+] with hip fracture",
        "no complaints",
    ]
