"""ui.tables: figures in a table read as core.formatting writes them, numbers kept beneath."""

from __future__ import annotations

import pandas as pd

from ui.tables import formatted_table


def _cells(styler) -> list[list[str]]:
    """The text of each body cell, as the grid shows it."""
    lines = styler.to_string(delimiter="|").splitlines()[1:]
    return [line.split("|")[1:] for line in lines]


def test_counts_measures_and_labels_read_as_every_page_writes_them():
    table = pd.DataFrame(
        {
            "year": [2019, 2020],  # a label: no separator
            "count": [5083, 949],
            "mean": [4563.857, 0.123456],
            "released": [True, False],
            "k": [None, None],  # no figure at all: object dtype, still "-"
            "name": ["a", "b"],
        }
    )
    styled = formatted_table(table, counts=["count", "k"], labels=["year"])
    # by hand: 5083 with a separator; 4563.857 to three significant digits is the whole
    # number 4,564; 0.123456 is 0.123; booleans and text untouched
    assert _cells(styled) == [
        ["2019", "5,083", "4,564", "True", "-", "a"],
        ["2020", "949", "0.123", "False", "-", "b"],
    ]
    # the numbers beneath are the table's own (the grid sorts on them); the input unchanged
    assert styled.data["count"].tolist() == [5083, 949]
    assert table["mean"].tolist() == [4563.857, 0.123456]


def test_named_measures_are_formatted_even_without_a_numeric_dtype():
    table = pd.DataFrame({"P(re-ID)": pd.Series([None, 0.004918], dtype=object), "id": [1, 2]})
    styled = formatted_table(table, measures=["P(re-ID)"], labels=["id"])
    assert _cells(styled) == [["-", "1"], ["0.00492", "2"]]


def test_shares_read_as_percentages():
    table = pd.DataFrame({"changed": [0.0, 0.034, 1.0, 0.0013]})
    # by hand: exact shares without decimals, 3.4% with one, 0.13% with two significant
    assert _cells(formatted_table(table, shares=["changed"])) == [
        ["0%"],
        ["3.4%"],
        ["100%"],
        ["0.13%"],
    ]


def test_a_measure_is_named_once_and_keeps_its_capitals():
    from core.search import MEASURES
    from ui.tradeoffs import measure_label, measure_words

    # core's loss descriptions begin with their name ("ARX loss: Iyengar's ..."): not twice
    assert measure_words("arx_loss") == MEASURES["arx_loss"]
    assert measure_words("arx_loss").count("ARX loss") == 1
    assert measure_words("entropy") == f"entropy per record: {MEASURES['entropy']}"
    assert measure_label("arx_loss") == "ARX loss"  # not str.capitalize()'s "Arx loss"
    assert measure_label("entropy") == "Entropy per record"
