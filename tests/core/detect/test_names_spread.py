"""Names the lists did not know (issue 26): a word of a name found once in a note is a
name wherever else the note writes it, and given names of many countries (South Asian,
Irish, Nigerian...) are known from the nomquamgender lists (core/detect/data/SOURCES.md).
Every note here is written by hand."""

from __future__ import annotations

from core.detect import find_entities
from core.detect.lexicon import base_name_lists, name_lists


def _names(note: str) -> list[str]:
    return [e.text for e in find_entities(note) if e.kind == "name"]


def test_a_surname_found_with_its_given_name_is_found_again_alone() -> None:
    # "Thuraisamy" is in no list: found the first time after the title "Mr", then alone
    # after "for", which is no cue.
    note = "Mr Rajan Thuraisamy came in today. The bill for Thuraisamy is unpaid."
    assert _names(note) == ["Rajan Thuraisamy", "Thuraisamy"]


def test_each_word_of_a_name_is_found_again() -> None:
    note = "Seen with Mdm Wahyuni Kusnadi; card for Kusnadi, copy to Wahyuni file."
    assert _names(note) == ["Wahyuni Kusnadi", "Kusnadi", "Wahyuni"]


def test_a_name_that_is_an_english_word_spreads_inside_a_sentence_only() -> None:
    note = "Ruby Christie missed her visit; the nurse phoned Ruby twice. Ruby tablets given."
    names = [(e.text, e.start) for e in find_entities(note) if e.kind == "name"]
    assert ("Ruby", note.index("phoned Ruby") + 7) in names
    assert ("Ruby", note.index("Ruby tablets")) not in names


def test_nothing_spreads_from_a_note_without_a_name() -> None:
    assert _names("Swift recovery expected. Will review in a week.") == []


def test_given_names_of_many_countries_are_known_alone() -> None:
    lists, base = name_lists(), base_name_lists()
    for name in ("tejaswini", "navneet", "ishaan", "meenakshi", "aoife", "oluwaseun"):
        assert name not in base.known  # not in the US lists
        assert name in lists.strong
    assert _names("Navneet says she will come on Monday.") == ["Navneet"]
    assert _names("Remember to call Aoife about the results.") == ["Aoife"]


def test_the_world_list_adds_no_english_word_nor_place() -> None:
    lists, base = name_lists(), base_name_lists()
    added = lists.given.keys() - base.given
    assert len(added) > 40_000
    for word in ("the", "said", "street", "hospital", "singapore", "madrid", "patient"):
        assert word not in added
    assert added.isdisjoint(base.english)


def test_the_long_lists_are_not_walked_by_the_garbage_collector() -> None:
    """The name lists and the gazetteer (hundreds of thousands of words) are kept in
    containers the cyclic garbage collector does not track: a frozenset of them was walked
    word by word at every full collection (0.14 s each with every list loaded)."""
    import gc

    from core.detect.place_names import place_names

    lists = name_lists()
    for field in ("given", "family", "english", "world", "known", "strong", "strong_lower"):
        words = getattr(lists, field)
        assert len(words) > 1000 and not gc.is_tracked(words), field
    assert len(place_names()) > 30_000 and not gc.is_tracked(place_names())
