"""More cues to a name (issue 26), each note written by hand: a partner, child or helper
before a capitalised name, and a lower-case everyday name after a relation when a verb
only people do follows."""

from __future__ import annotations

import pytest

from core.detect import find_entities


def _names(note: str) -> list[str]:
    return [e.text for e in find_entities(note) if e.kind == "name"]


@pytest.mark.parametrize(
    ("note", "name"),
    [
        ("Spouse June B. White, FIN T4721221E, tel 6123 4567.", "June B. White"),
        ("Partner Will Young came at noon.", "Will Young"),
        ("Escort Rose Lim waited outside.", "Rose Lim"),
    ],
)
def test_a_partner_or_helper_cues_a_name_of_everyday_words(note: str, name: str) -> None:
    assert name in _names(note)


@pytest.mark.parametrize(
    ("note", "name"),
    [("pt hazel says she is moving", "hazel"), ("son bill phoned twice today", "bill")],
)
def test_a_lower_case_everyday_name_before_a_person_verb(note: str, name: str) -> None:
    assert _names(note) == [name]


@pytest.mark.parametrize(
    "note",
    ["son will come tomorrow", "pt also says ok", "child care needed", "Partner Clinic visit"],
)
def test_no_name_without_one(note: str) -> None:
    assert _names(note) == []


def test_a_word_written_in_an_email_of_the_note_is_a_name() -> None:
    note = (
        "Please note change of email to zd83@outlook.com (was zaitradeshpande@rediffmail.com)."
        " Zaitra is very reliable."
    )
    assert _names(note) == ["Zaitra"]
    # a place in an email is no person when nothing else says so
    assert _names("Chennai office: chennai.help@corp.com") == []


def test_a_name_before_a_plural_organisation_word_is_the_organisation() -> None:
    assert _names("Transfer to Apollo Hospitals Chennai arranged.") == []
    assert _names("Mr Ross Wells called.") == ["Ross Wells"]


@pytest.mark.parametrize(
    ("note", "name"),
    [
        ("Herr Müller kam heute.", "Müller"),
        ("Señora López llamó ayer.", "López"),
        ("Mme Dubois a appelé.", "Dubois"),
    ],
)
def test_titles_of_other_languages_cue_a_name(note: str, name: str) -> None:
    assert _names(note) == [name]


@pytest.mark.parametrize(
    ("note", "phone"),
    [
        ("llamar al 612 34 56 78 mañana", "612 34 56 78"),
        ("appeler le 06 12 34 56 78", "06 12 34 56 78"),
        ("rufen Sie 0171 1234567 an", "0171 1234567"),
        ("nombor telefon 012 345 6789", "012 345 6789"),
    ],
)
def test_phone_cue_words_of_other_languages(note: str, phone: str) -> None:
    assert [(e.kind, e.text) for e in find_entities(note)] == [("phone", phone)]


@pytest.mark.parametrize(
    ("note", "name"),
    [
        ("Isteri Rosnah Ahmad datang pagi tadi.", "Rosnah Ahmad"),
        ("La paciente Carmen Ruiz llamó.", "Carmen Ruiz"),
        ("Sohn Jonas Weber rief an.", "Jonas Weber"),
    ],
)
def test_relations_of_other_languages_cue_a_name(note: str, name: str) -> None:
    assert _names(note) == [name]


def test_malay_words_cue_no_name() -> None:
    # French "mari" (husband) is no cue: in Malay "Mari Kita pergi" is "let us go"
    assert "Kita" not in _names("Mari Kita pergi.")
    assert _names("Anak kecil demam.") == []
