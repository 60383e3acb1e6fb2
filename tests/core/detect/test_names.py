"""core.detect.names: person names in cells and in text, with the ambiguous cases."""

from __future__ import annotations

import pandas as pd

from core.detect import find_entities
from core.detect.lexicon import name_lists
from core.detect.name_cells import name_shares, non_latin_script


def names_in(text: str) -> list[str]:
    return [e.text for e in find_entities(text, kinds="name")]


def test_the_four_name_families_in_cells():
    names = [
        "Yeo Jia Hui",  # Chinese, surname first (romanised Hokkien)
        "Ng Kok Leong",
        "Ravi bin Abdullah",  # with a patronymic particle
        "Siti Nurhaliza binte Ahmad",
        "Rajesh s/o Kumar",
        "Priya d/o Ramasamy",
        "Sarah Pereira",  # Eurasian / English
        "O'Brien",
        "陈美玲",  # Chinese characters: surname character + given name
    ]
    known, shape = name_shares(pd.Series(names))
    assert (known, shape) == (1.0, 0.0)


def test_shape_only_names_are_counted_apart():
    # Two capitalised words, neither in the list nor a street or organisation word.
    known, shape = name_shares(pd.Series(["Xylo Quenby", "Zorvan Plethis"]))
    assert (known, shape) == (0.0, 1.0)


def test_tan_and_may_alone_are_not_names_but_are_inside_a_name():
    words = pd.Series(["Tan", "May", "Brown", "Rose"])
    assert name_shares(words) == (0.0, 0.0)
    assert name_shares(pd.Series(["Tan Wei Ling", "May Tan", "Rose Brown"]))[0] == 1.0
    # A column of Chinese surnames (unambiguous ones) is a column of names.
    surnames = pd.Series(["Lim", "Ng", "Yeo", "Goh", "Tan"])
    assert name_shares(surnames)[0] == 0.8


def test_places_organisations_and_categories_are_not_names():
    values = pd.Series(
        [
            "Clementi Avenue",
            "Ang Mo Kio",
            "Human Resource",
            "Engineering",
            "Data scientist",
            "Tan Tock Seng Hospital",
            "Chinese",
            "Widowed",
            "Singapore",
        ]
    )
    assert name_shares(values) == (0.0, 0.0)


def test_names_inside_text():
    assert names_in("patient Ravi bin Abdullah reports chest pain") == ["Ravi bin Abdullah"]
    assert names_in("Seen by Dr Tan today; Mdm Goh Siew Lee waited") == ["Tan", "Goh Siew Lee"]
    assert names_in("Rajesh s/o Kumar called") == ["Rajesh s/o Kumar"]
    # "May" the month and "tan" the colour are not names; "Referral" opens the sentence.
    assert names_in("Referral letter sent in May; tan coloured rash") == []
    assert names_in("Follow up at Clementi Polyclinic next Monday") == []


def test_non_latin_scripts_are_reported():
    tamil = pd.Series(["ராஜேஷ் குமார்", "பிரியா"])
    assert non_latin_script(tamil) == ("Tamil", 1.0)
    assert non_latin_script(pd.Series(["Tan Wei Ling"])) is None


def test_lists_are_shipped_and_sizable():
    lists = name_lists()
    assert len(lists.known) > 1200
    for name in ["tan", "lim", "ng", "yeo", "goh", "abdullah", "kumar", "priya", "sarah"]:
        assert name in lists.known
    assert {"bin", "binte", "s/o", "d/o"} <= lists.particles
