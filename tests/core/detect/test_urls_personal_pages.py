"""A person's page written without http or www (issue 26, eval8 URL recall 0.71): a
handle path ("instagram.com/@mei.ling.99") and a blog on a blogging host's subdomain
("johnsmith.wordpress.com"). A bare site ("example.com") stays. Made-up addresses."""

import pytest

from core.detect import find_entities


def _urls(text: str) -> list[str]:
    return [text[e.start : e.end] for e in find_entities(text) if e.label == "URL"]


@pytest.mark.parametrize(
    ("text", "url"),
    [
        ("account tiktok.com/@mei.ling.2010 posted it", "tiktok.com/@mei.ling.2010"),
        ("see her blog marytan88.wordpress.com for photos", "marytan88.wordpress.com"),
        ("3) Ravi Kumar, blog ravikumar.blogspot.com", "ravikumar.blogspot.com"),
        ("code at jdoe-lab.github.io today", "jdoe-lab.github.io"),
    ],
)
def test_personal_page_found(text: str, url: str) -> None:
    assert _urls(text) == [url]


@pytest.mark.parametrize("text", ["we use wordpress.com for the site", "see example.com"])
def test_a_bare_site_stays(text: str) -> None:
    assert _urls(text) == []


def test_an_id_word_ends_an_address_chain() -> None:
    """'staff no. SR-88213, ID <SA ID printed 6-4-3>': the ID word is no address part, so
    the number is read as the ID (South African ID 850214 5123 086: born 14 Feb 1985,
    citizen 0, Luhn digit 6 by python-stdnum's luhn.calc_check_digit('850214512308'))."""
    from stdnum import luhn

    assert luhn.calc_check_digit("850214512308") == "6"
    text = "Mpho Dlamini, staff no. SR-88213, ID 850214 5123 086; UIF deduction missing"
    ids = [text[e.start : e.end] for e in find_entities(text) if e.label == "ID"]
    assert "850214 5123 086" in ids


def test_many_texts_read_together_find_the_same_pages() -> None:
    import pandas as pd

    from core.detect.text import redact_series

    notes = pd.Series(
        ["see marytan88.wordpress.com", "x tiktok.com/@mei.ling.2010", "jdoe-lab.github.io"] * 30
    )
    redacted, _ = redact_series(notes, lambda e: f"[{e.label}]")
    assert redacted.str.count(r"\[URL\]").sum() == 90
