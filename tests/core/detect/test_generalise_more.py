"""More shapes of personal data in free text (issue 26), each written by hand: names
written with their accents, dates as a month and year, a range of days or the Malay
"haribulan", and addresses of the US, UK, Australia and India in their usual forms."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _found(note: str) -> list[tuple[str, str]]:
    return [(e.kind, e.text) for e in find_entities(note)]


@pytest.mark.parametrize(
    ("note", "name"),
    [
        ("Seen with José Martínez today.", "José Martínez"),
        ("Mr José Martínez called.", "José Martínez"),
        ("Referred by Dr François Müller.", "François Müller"),
        ("Complaint by Łukasz Kowalski about the wait.", "Łukasz Kowalski"),
        ("José called twice about the bill.", "José"),
    ],
)
def test_a_name_with_accents_is_found_whole(note: str, name: str) -> None:
    assert ("name", name) in _found(note)


@pytest.mark.parametrize(
    ("note", "date"),
    [
        ("admitted in September 2025 for review", "September 2025"),
        ("last seen March 2021", "March 2021"),
        ("dirujuk sejak Ogos 2019", "Ogos 2019"),
        ("seen on 17-18 Mar at the clinic", "17-18 Mar"),
        ("temujanji pada 15hb Mac", "15hb Mac"),
        ("lahir 15 hb. Ogos 2020", "15 hb. Ogos 2020"),
    ],
)
def test_a_month_with_its_year_or_a_range_is_a_date(note: str, date: str) -> None:
    assert ("date", date) in _found(note)


@pytest.mark.parametrize("note", ["may 2025 help", "Mars 2020 rover", "took 2 may help"])
def test_no_date_in_look_alikes(note: str) -> None:
    assert "date" not in [kind for kind, _ in _found(note)]


@pytest.mark.parametrize(
    "address",
    [
        "Apt 4B, 225 E 57th St, New York, NY 10022",
        "PO Box 123, Austin TX 78701",
        "42 Wallaby Way, Sydney NSW 2000",
        "3/45 King St, Newtown NSW 2042",
        "Unit 5, 27 Smith St, Fitzroy VIC 3065",
        "Flat 3, 14 High Street, Oxford OX1 4AA",
        "Plot 45, Sector 18, Noida, Uttar Pradesh 201301",
        "H.No. 12-2-345, Mehdipatnam, Hyderabad 500028",
        "221b baker street london nw1 6xe",
        "12 orchard road singapore 238826",
        "1234 NW Bobcat Lane, St. Robert, MO 65584-5678",
        "#12, 3rd Cross, 4th Main, Indiranagar, Bangalore 560038",
        "No 5, Jalan SS2/24, 47300 Petaling Jaya",
        "48 Rue de Rivoli, 75004 Paris",
        "Calle Mayor 12, 28013 Madrid",
        "Via Roma 5, 00184 Roma",
        "Musterstraße 5, 10115 Berlin",
    ],
)
def test_an_address_is_found_whole(address: str) -> None:
    assert ("address", address) in _found(f"Please send it to {address} by Friday.")


@pytest.mark.parametrize(
    "note",
    [
        "took 2 tablets on the road",
        "she walked 3 km down the road today",
        "2 dogs park here",
        "Place de la Concorde was busy",
        "Rue 5 times a day",
    ],
)
def test_no_address_in_everyday_sentences(note: str) -> None:
    assert "address" not in [kind for kind, _ in _found(note)]
