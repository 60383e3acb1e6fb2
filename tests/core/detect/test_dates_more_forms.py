"""More ways of writing a date in a note (HIPAA §164.514(b)(2)(i)(C): every element of a
date but the year), and bare web addresses of a person's page, issue 26. Every sentence
was written by hand for this file; the expected span is read off the sentence."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _dates(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "DATE"]


@pytest.mark.parametrize(
    ("text", "date"),
    [
        # airline and ticketing style, day and month glued in capitals (with a year or not)
        ("PNR QX4R2T: TAN/WEI MR SQ 231 SIN-SYD 14MAR, return 28MAR.", "14MAR"),
        ("EK 404 DXB-SIN 07SEP25 seat 41A", "07SEP25"),
        # two full dates joined by a dash: a stay, a sick leave
        ("Admitted Kenyatta 11/08/2025-15/08/2025 for observation.", "11/08/2025-15/08/2025"),
        # day, month name and a 2-digit year, with dashes
        ("Order placed 21-Aug-24, shipped late.", "21-Aug-24"),
        ("Date of loss: 5/Jan/26 (night).", "5/Jan/26"),
        # a weekday before the day and month belongs to the date
        ("Clinic moved to Tue 4 Mar, please confirm.", "Tue 4 Mar"),
        ("Interview set for Thursday, Jan. 15 at noon.", "Thursday, Jan. 15"),
        ("Parent meeting Friday 7th Feb in the hall.", "Friday 7th Feb"),
        # a range of days with its year
        ("Conference 21–23 October 2025 in Perth.", "21–23 October 2025"),
        # a range of days and months in digits
        ("on MC 03/02-07/02, cert from polyclinic", "03/02-07/02"),
        # Indonesian months shortened after a day number (Mei, Agu, Okt, Des)
        ("kontrol ulang 14 Okt di poli dalam", "14 Okt"),
        ("datang lagi 2 Des pagi", "2 Des"),
        # cue words of letters, orders and court lists
        ("Invoice dt 19/10 enclosed.", "19/10"),
        ("Matter stood over; next mention 23/01.", "23/01"),
        ("Hearing 4/12 in chambers.", "4/12"),  # (not "Hearing 4", a German "-ring" street)
    ],
)
def test_more_written_forms_of_a_date(text: str, date: str) -> None:
    assert date in _dates(text), _dates(text)


def test_a_full_month_name_ends_without_the_full_stop():
    # "3rd of October." : the full stop ends the sentence, it is no abbreviation's
    assert _dates("The hearing is on the 3rd of October.") == ["3rd of October"]
    assert _dates("Seen 4 Oct. and discharged") == ["4 Oct."]


@pytest.mark.parametrize(
    "text",
    [
        "Tablets: 1/2-3/4 tab at night.",  # a dose between two fractions
        "Score 2/3-4/5 on the two tests",  # a range of scores: no 2-digit day or month
        "FLIGHT 12MARKET street",  # glued letters going on after "MAR": no date
        "Stock code 3DEC9A on shelf",  # letters and digits going on after the month
        "Des is my brother, he called",  # the name Des, no day number before it
    ],
)
def test_look_alikes_are_not_dates(text: str) -> None:
    assert _dates(text) == []


def _urls(text: str) -> list[str]:
    return [e.text for e in find_entities(text) if e.label == "URL"]


@pytest.mark.parametrize(
    ("text", "url"),
    [
        ("her profile: instagram.com/mei.ling.ong_92 (private)", "instagram.com/mei.ling.ong_92"),
        ("CV at github.io/rkumar-dev/cv, ref attached", "github.io/rkumar-dev/cv"),
        ("see twitter.com/j_okafor.", "twitter.com/j_okafor"),
        (
            "blog: kavitha-writes.blogspot.in/2024/05/my-story",
            "kavitha-writes.blogspot.in/2024/05/my-story",
        ),
    ],
)
def test_a_web_address_without_www_or_http_but_with_a_path(text: str, url: str) -> None:
    assert _urls(text) == [url]


@pytest.mark.parametrize(
    "text",
    [
        "dose 2.5mg/kg twice daily",
        "ratio 3.5/10 on the scale",
        "e.g./i.e. both fine",
        "Company site example.com for hours",  # a bare domain, no path: a site, not a page
        "write to kavitha@mail.com/or call",
    ],
)
def test_doses_and_bare_domains_are_not_page_addresses(text: str) -> None:
    assert _urls(text) == []


def test_a_word_ending_in_ring_is_no_german_street_and_a_route_code_no_id_word():
    # "Hearing 4" read as a German "-ring" street (Kaiserring 4), "SIN" of the route
    # "DXB-SIN" as the Canadian SIN's word: neither, the date after them is a date
    assert [e.label for e in find_entities("Hearing 4/12 in chambers.")] == ["DATE"]
    assert [e.label for e in find_entities("EK 404 DXB-SIN 07SEP25")] == ["DATE"]
    assert ("ADDRESS", "Kaiserring 4, Mannheim") in [
        (e.label, e.text) for e in find_entities("Praxis am Kaiserring 4, Mannheim")
    ]
