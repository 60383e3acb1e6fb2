"""Person names: in a whole cell (a column of names) and inside free text.

The PDPC guide (Step 1) lists a person's name as the first direct identifier; HIPAA Safe
Harbor calls it identifier A. Names are recognised from three kinds of evidence:

* **known names**: the hand-written list ``data/names.txt`` (romanised Chinese, Malay with
  bin/binte, Indian with s/o, d/o, Eurasian and English names, written for this project)
  merged with vendored public lists in ``data/name_lists.txt.gz``: the US Census Bureau's
  1990 given names and surnames and 2010 surnames (about 170,000, many of Chinese, Indian
  and Malay origin) and 4,251 given names of Tzioumis (2018), with the English words of
  Debian's SCOWL lists to set apart names that are everyday words (sources, versions and
  licences in ``data/SOURCES.md``);
* **shape**: 2-4 capitalised tokens (``Yeo Jia Hui``), allowing the particles inside,
  with no word that never belongs to a name (street, place, organisation and sentence
  words, also in ``data/names.txt``);
* **cues**: after a title (Mr, Mdm), a relation or role (son, wife, pt, nok) or a verb of
  reaching someone (called, spoke to), a first name alone is a name, in any case: after a
  title any word but a function word ("mdm rosnah"), after a relation a word that is no
  English word ("son venkatesh"), and everyday names ("tan") only next to a surer one
  ("pt tan ah kow").

Names that are everyday English words ("May", "Rose", "Tan", "Brown") count only inside a
longer name or after a cue, never alone, so a column of months or colours is not taken for
names; a name followed by an organisation word ("Ng Teng Fong General Hospital") is the
organisation's. Names written in Chinese characters (2-4 characters starting with a
common surname character) are recognised in whole cells; other scripts (Tamil, Jawi...) are not (the column is
reported as such by :func:`non_latin_script`).

This module finds names inside free text (:func:`find_names`); whole cells are checked in
:mod:`core.detect.name_cells` and the word lists both read live in :mod:`core.detect.name_words`.
"""

from __future__ import annotations

import re
import unicodedata

from core.detect.lexicon import NameLists, name_lists
from core.detect.name_context import (
    RECORD_DASH,
    a_greeting,
    a_medicine,
    a_pet_name,
    after_a_firm_or_place_word,
    facts_after,
    family_first,
    in_brackets_after_a_firm,
    opens_a_place,
    other_names,
    passenger_names,
    previous_word,
    town_after_a_comma,
)
from core.detect.name_lines import (
    alone_on_line,
    names_a_person,
    names_a_place,
    trim_everyday_ends,
)
from core.detect.name_words import (
    CASE_PARTY_WORDS,
    CUES,
    KINSHIP,
    LOWER,
    NAME_PARTICLES,
    NAME_TOKEN,
    NAME_WORD,
    NAMING_WORDS,
    NICKNAME_CUES,
    NICKNAME_WORDS,
    NOT_AFTER_TITLE,
    ORGANISATION_BEFORE,
    ORGANISATION_WORDS,
    PERSON_VERBS,
    REACH_WORDS,
    RELATION_WORDS,
    RELATIONS,
    SERVICE_WORDS,
    SURE_PERSON_VERBS,
    TITLES,
    UPPER,
    WEAK_CUES,
)
from core.detect.patterns import RECORD_PREFIX
from core.detect.place_names import place_names, place_not_person
from core.detect.quasi import occupation_words
from core.detect.word_places import written_alone

#: The words naming an identity or record number, as written (in capitals: "SIN", "PAN").
_ID_WORD = re.compile(RECORD_PREFIX)

__all__ = [
    "CUED_NAME",
    "LOWER_RUN",
    "NAME_RUN",
    "NameLists",
    "cued_span",
    "find_names",
    "may_hold_lower_name",
    "name_lists",
    "names_from_matches",
]


def _fold(word: str) -> str:
    """A word without its diacritics, as the (ASCII) lists write it: "josé" -> "jose"."""
    if word.isascii():
        return word
    decomposed = unicodedata.normalize("NFKD", word).translate(_UNDECOMPOSED)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# Letters with a stroke have no decomposition: "Đà Nẵng" is "Da Nang" in the lists.
_UNDECOMPOSED = str.maketrans("ĐđŁłØø", "DdLlOo")


#: A run of capitalised words, particles inside: where names in free text are looked for.
NAME_RUN = re.compile(
    rf"(?:{NAME_WORD})(?:[ \t]+(?:(?:{NAME_PARTICLES})[ \t]+)?(?:{NAME_WORD}))*",
)

# "X bin Y", "X s/o Y": a patronymic between two capitalised words marks a person's name.
_PARTICLE_INSIDE = re.compile(
    r"[A-Za-z][ \t]+(?:bin|binte|binti|bte|s/o|d/o|w/o|a/l|a/p)[ \t]+[A-Z]"
)

# A capitalised word of two letters or more, not an acronym (shape-only names need two).
_PROPER = re.compile(rf"\b[{UPPER}](?:['’][{UPPER}])?[{LOWER}]+")


def find_names(text: str) -> list[tuple[int, int]]:
    """Spans ``(start, end)`` of person names inside ``text``.

    A run of capitalised words (with bin/binte/s/o/d/o... inside) is cut at words that
    never belong to a name ("Patient", "Clementi", "Avenue"); a piece right before an
    organisation word ("Tan Tock Seng Hospital", "Great Eastern Life") is not a person.
    What is left is a name when

    * it follows a title or cue word (Mr, Mdm, Dr, patient, son, wife...);
    * it holds a known given or family name (a lone one that is also an English word,
      such as "May" or "Tan", only after a cue);
    * a patronymic joins two of its words ("X bin Y", "X s/o Y");
    * it has the shape of a name, 2-4 capitalised words (not acronyms, one at least no
      English word), and stands where people are named: after "to", "with", "by", "from",
      "and", "employee"... or before "attended", "called", "reports"...;
    * it is one word no list knows and no English word, before a verb only people do
      ("Kuldeep says"), joined by "and" to a sure name, or a speaker ("Kuldeep: ...").

    In lower case, a name follows a cue (see :func:`cued_span`), or two sure names stand
    side by side ("lim boon huat"), or it opens a contact line ("ishaan kapoor, +91...").
    """
    lists = name_lists()
    runs = [run.span() for run in NAME_RUN.finditer(text)]
    cued = [span for m in CUED_NAME.finditer(text) if (span := cued_span(m, lists))]
    lower = [run.span() for run in LOWER_RUN.finditer(text)]
    return names_from_matches(text, runs, cued, lists, lower)


def names_from_matches(
    text: str,
    runs: list[tuple[int, int]],
    cued: list[tuple[int, int]],
    lists: NameLists,
    lower: list[tuple[int, int]] = (),
    hinted: bool = True,
) -> list[tuple[int, int]]:
    """:func:`find_names` from the spans of the capitalised runs (``NAME_RUN``), of the names
    after a cue (:func:`cued_span`) and of the lower-case runs (:data:`LOWER_RUN`) already
    found in ``text``; the free-text scanner finds them for a whole column in one pass, and
    says whether ``text`` matches :data:`core.detect.name_context.OTHER_NAME_HINT`
    (``hinted``: where :func:`core.detect.name_context.other_names` may find a name)."""
    # Passenger names ("LIM/WEI MING MR"): the word after the title is a flight's code.
    spans, after_titles = passenger_names(text)
    for run_start, run_end in runs:
        for start, end, tokens in _split_run(text[run_start:run_end], run_start, lists):
            # Every test below reads the text only: the costliest (an organisation word
            # after the piece) runs last, on the pieces that would be names without it.
            if (
                len(tokens) <= 4
                and start not in after_titles
                and _a_name_piece(text, start, end, tokens, lists)
                and not _organisation_after(text, end)
            ):
                spans.append((start, end))
    spans += [span for span in cued if span[0] not in after_titles]
    if hinted:  # "I am X", "chiamaka obi 33F", Chinese characters
        spans += other_names(text, lists)
    for run_start, run_end in lower:
        spans += _lower_names(text, run_start, run_end, lists)
        spans += _lower_name_before_verb(text, run_start, run_end, lists)
    spans += _named_again(text, spans, lists)
    spans = [span for span in spans if not a_pet_name(text, *span)]  # 'dog "Bruno"'
    # The passes may find the same name: keep each span not inside another one
    # (sorted by start, longest first: a span inside another comes after it; n log n).
    kept, reach = [], -1
    for start, end in sorted(set(spans), key=lambda span: (span[0], -span[1])):
        if end > reach:
            kept.append((start, end))
            reach = end
    return kept


def _a_name_piece(text: str, start: int, end: int, tokens: list[str], lists: NameLists) -> bool:
    """Whether the piece ``text[start:end]`` of a capitalised run (its ``tokens``, at most
    four) is a name by its cue, its words or its shape (see :func:`find_names`), before the
    organisation word after it is looked for."""
    cue = previous_word(text, start)
    if cue in ORGANISATION_BEFORE:
        return False  # "Hospital Sultanah Aminah", "Masjid Sultan Abu Bakar"
    if cue in CUES:
        return True
    # The words around a piece that would be a name may still say it is none: read only
    # for those (most pieces are not names by their words: fewer reads per note).
    return _a_name_by_its_words(text, start, end, tokens, cue, lists) and not (
        _a_place(text, start, tokens, cue, lists)  # "from Madrid", "Kuala Lumpur"
        or _no_person_around(text, start, end, tokens, cue)
    )


def _no_person_around(text: str, start: int, end: int, tokens: list[str], cue: str) -> bool:
    """The words around the piece say it names a firm, a place, a medicine or a greeting
    (:mod:`core.detect.name_context`): "Hotel X", "County of X", "tab. X", "X 40 mg",
    "Mount X", "Kia ora", "pharmacy (X)"."""
    before_cue = previous_word(text, text.rfind(cue, 0, start)) if cue in ("of", "at") else ""
    return (
        after_a_firm_or_place_word(text, start, end, cue, before_cue, _next_word(text, end))
        or a_medicine(text, end, cue)
        or opens_a_place(tokens[0])
        or a_greeting(text, start)
        or in_brackets_after_a_firm(text, start, previous_word(text, start - 1))
    )


def _a_name_by_its_words(
    text: str, start: int, end: int, tokens: list[str], cue: str, lists: NameLists
) -> bool:
    """:func:`_a_name_piece` without a cue: a sure name, an unknown word named by what
    follows, a couple's given name, listed words, a patronymic, or a name's shape where
    people are named."""
    piece = text[start:end]
    if len(tokens) == 1:
        only = tokens[0]
        # A lone word in capitals ("UK", "HDB", "ICU") is an acronym more often than a
        # surname: only the hand-written list's names count ("LIM"), and not when it is
        # the name of an identity number ("SIN 046 454 286": Canada's, not a surname Sin).
        acronym = piece.isupper() and (
            only not in lists.listed or _ID_WORD.fullmatch(piece) is not None
        )
        sure = only in lists.strong and not acronym
        if town_after_a_comma(text, start, end, only, lists):
            return False  # "Court, Sheffield, Case 12": an address's or a court's town
        return (
            sure
            or _unknown_but_named(text, start, end, only, piece, lists)
            or (not acronym and _first_of_a_couple(text, end, only, lists))
        )
    return bool(
        _has_sure_name(piece, lists)
        or all(t in lists.listed for t in tokens)
        or _PARTICLE_INSIDE.search(piece)
        or _shaped_like_a_name(piece, tokens, lists)
        and (
            cue in WEAK_CUES
            or (RECORD_DASH.match(text, end) and _LINE_START.search(text, max(0, start - 8), start))
            or _next_word(text, end) in PERSON_VERBS
            or _next_word(text, end) in CASE_PARTY_WORDS  # "X v Y"
            or facts_after(text, end, age_in_commas=True)  # "X Y dob", "X Y 47M", "X Y, 91,"
            # the whole cell: "Tshepo Baloyi" (not a job title: "Sous Chef")
            or (start == 0 and end == len(text) and occupation_words().isdisjoint(tokens))
        )
    )


_SENTENCE_START = re.compile(r"(?:^|[.!?:;/\n\"“(])[ \t]*$")


def _named_again(
    text: str, spans: list[tuple[int, int]], lists: NameLists
) -> list[tuple[int, int]]:
    """Each word of a name found in ``text`` is a name wherever else ``text`` writes it
    with a capital ("Complaint by Megan Swift ... Swift and Lauren"; "Mother is Vrinda
    Sibal ... Remember me, Vrinda?"), as a reader who has met the person takes it. A word
    that is also an English word counts again only inside a sentence ("Ruby Christie ...
    she told Ruby", not "Will Tan ... Will you call"); particles, titles and words of
    fewer than three letters do not spread."""
    found: list[tuple[int, int]] = []
    seen: set[str] = set()
    spans = sorted(set(spans))
    inside: str | None = None  # the found names, joined: what is already a name
    for start, end in spans:
        for word in text[start:end].split():
            word = word.strip(".,;:()\"'’").removesuffix("'s").removesuffix("’s")
            if len(word) < 3 or word in seen or not word[0].isupper():
                continue
            seen.add(word)
            # The usual case, settled by C-level counts: the word is written only where
            # it was found (each found span holding it once).
            written = text.count(word)
            if written < 2:
                continue
            if inside is None:
                inside = "\n".join(text[a:b] for a, b in spans)
            if written <= inside.count(word):
                continue
            lower = word.lower()
            if lower in lists.particles or lower in TITLES or lower in lists.not_name:
                continue
            english = lower in lists.english or lower in lists.ambiguous
            for at in written_alone(text, word):
                if english and _SENTENCE_START.search(text, max(0, at - 4), at):
                    continue
                if _a_place(text, at, [_fold(lower)], previous_word(text, at), lists):
                    continue  # "Jordan Smith went to Jordan": the second is the country
                if _organisation_after(text, at + len(word)):
                    continue  # "Ms Anjali Desai of Desai & Associates": her firm
                found.append((at, at + len(word)))
    return [span for span in found if not _within(span, spans)]


def _within(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """``span`` lies inside one of the sorted ``spans``."""
    for start, end in spans:
        if start > span[0]:
            return False
        if end >= span[1]:
            return True
    return False


def _trie(words: list[str]) -> str:
    """One expression matching exactly ``words``, written as a tree of their letters
    ("grand(?:ma|pa|son...)"): Python's engine tries a plain alternation word by word at
    each position, a tree letter by letter (the cue search is the scanner's costliest)."""
    tree: dict = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [re.escape(char) + emit(node[char]) for char in sorted(node) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(tree)


_CUE_TREE = _trie([*TITLES, *RELATIONS.split("|"), *REACH_WORDS.split("|")])
# Another cue next ("wife mrs oyelaran", "mr and mrs fernandez", "called grandmother mdm
# wong"): the last cue is the one before the name, so the first cue's match stops short and
# leaves the next to be found (else it hid it).
_TITLE_NEXT = rf"(?!(?:(?:and|&)[ \t]+)?(?:{_CUE_TREE})\.?[ \t])"
#: A cue word and up to four words after it; :func:`cued_span` says which are a name.
CUED_NAME = re.compile(
    rf"(?<![\w/-])(?<![0-9] )(?P<cue>{_CUE_TREE}"
    r"|(?:spoke|speak|spoken|talked|talk|met|meeting|chatted|chat|discussed)[ \t]+(?:to|with)"
    rf"|{NICKNAME_CUES})\.?[ \t]*[:,]?[ \t]+(?:(?:is|was|named|called)[ \t]+)?"
    + _TITLE_NEXT
    + rf"(?P<words>[{UPPER}{LOWER}][{UPPER}{LOWER}'’-]*(?:[ \t]+[{UPPER}{LOWER}][{UPPER}{LOWER}'’-]*){{0,3}})",
    re.IGNORECASE,
)

# Runs of lower-case words (a note typed without capitals): two or more sure names side by
# side in one ("lim boon huat, 9123 4567") are a name without any cue.
LOWER_RUN = re.compile(
    r"(?<![\w'’@./-])[a-z][a-z'’-]{1,24}(?:[ \t]+(?:[a-z][a-z'’-]{1,24}|[sdw]/o|a/[lp]|[a-z]\.))+"
    r"(?![\w@'’/-])"
)
_SPACE_SPLIT = re.compile(r"[^ ]+")
_APOSTROPHE_HYPHEN = re.compile(r"['’-]")

# Punctuation read as a space when a text's words are looked up all at once.
_WORD_PUNCTUATION = ',.;:!?()[]{}"/\t\n-'
# The words of a text between white space (as str.split cuts: the same characters as \s)
# and that punctuation: one C-level pass, where translating the punctuation to spaces and
# splitting took two (str.translate alone cost a third of a millisecond on eval5's notes).
_LOOKUP_WORDS = re.compile(rf"[^\s{re.escape(_WORD_PUNCTUATION)}]+")


def may_hold_lower_name(text: str, lists: NameLists) -> bool:
    """Whether a lower-case word of ``text`` is a sure name (a C-level set test): only such
    texts can hold a name found by :data:`LOWER_RUN`."""
    return not lists.strong_lower.keys().isdisjoint(_LOOKUP_WORDS.findall(text))


_BEFORE_PERSON_VERB = re.compile(
    rf"(?<![\w'’-])([a-z][a-z'’-]{{1,24}})[ \t]+(?:{'|'.join(sorted(SURE_PERSON_VERBS))})(?![\w])"
)


def _lower_name_before_verb(
    text: str, start: int, end: int, lists: NameLists
) -> list[tuple[int, int]]:
    """In a run of lower-case words, a sure name (no everyday word) right before a verb
    only people do: "priya says", "rahul refused" (as "Kuldeep says" with a capital)."""
    return [
        match.span(1)
        for match in _BEFORE_PERSON_VERB.finditer(text, start, end)
        if match.group(1) in lists.strong_lower and match.group(1) not in lists.english
    ]


def _lower_names(text: str, start: int, end: int, lists: NameLists) -> list[tuple[int, int]]:
    """In a run of lower-case words, each stretch of 2-4 known names (no function word)
    holding at least two sure ones (no everyday word: "boon", "huat", not "will", "long");
    or, opening a line and followed by a comma (a contact line: "ishaan kapoor, +91..."),
    a stretch of 2-4 words that are names or no English word, one of them a sure name; or,
    alone on its line (:func:`core.detect.name_lines.alone_on_line`: a next-of-kin cell
    "tan ah kow (father)"), a stretch of 2-5 such words that name a person
    (:func:`core.detect.name_lines.names_a_person`) and no place.
    Particles (van, bin, d/o) and initials ("maria t. santos") may stand inside."""
    if lists.strong_lower.keys().isdisjoint(text[start:end].replace("-", " ").split(" ")):
        return []  # the usual case: no sure name in the run (one C-level set test)
    found: list[tuple[int, int]] = []
    stretch: list[tuple[int, int, str]] = []  # (start, end, "sure" | "known" | "new" | "particle")

    def close(stretch: list[tuple[int, int, str]]) -> None:
        count = len(found)  # none found: read again without everyday words at the ends
        close_once(stretch)
        if len(found) == count and (trimmed := trim_everyday_ends(text, stretch, lists)):
            close_once(trimmed)

    def close_once(stretch: list[tuple[int, int, str]]) -> None:
        while stretch and stretch[-1][2] == "particle":
            stretch = stretch[:-1]
        kinds = [k for _, _, k in stretch if k != "particle"]
        if not kinds:
            return
        first, last = stretch[0][0], stretch[-1][1]
        contact = (  # "ishaan kapoor, +91 ...", "siti aminah - leave": a line opening on it
            len(kinds) <= 4
            and (text.startswith(",", last) or RECORD_DASH.match(text, last))
            and _LINE_START.search(text, max(0, first - 8), first)
        )
        if (
            2 <= len(kinds) <= 5
            and (
                (contact and "sure" in kinds)
                or (alone_on_line(text, first, last) and _a_person(text, stretch, lists))
            )
            and not names_a_place(text[first:last])
        ):
            found.append((first, last))  # a name alone on its line, or a contact line
            return
        if "new" in kinds:  # the parts between unknown words, each on its own
            part: list[tuple[int, int, str]] = []
            for item in [*stretch, (0, 0, "new")]:
                if item[2] == "new":
                    if part:
                        close_once(part)
                    part = []
                else:
                    part.append(item)
            return
        if 2 <= len(kinds) <= 4 and kinds.count("sure") >= 2:
            found.append((first, last))

    for match in _SPACE_SPLIT.finditer(text, start, end):
        word = match.group()
        if stretch and (word in lists.particles or _LOWER_INITIAL.fullmatch(word)):
            kind = "particle"  # bin, s/o, anak; a middle initial ("maria t. santos")
        elif "-" in word.strip("-"):  # a hyphenated given name: "wei-ming", "siu-ling"
            kinds_of_parts = {_lower_kind(part, lists) for part in word.split("-")}
            kind = "" if "" in kinds_of_parts else min(kinds_of_parts, key=_LOWER_KINDS.index)
        else:
            kind = _lower_kind(word, lists)
        if kind:
            stretch.append((match.start(), match.end(), kind))
            continue
        close(stretch)
        stretch = []
    close(stretch)
    return found


# How surely a lower-case word is a name, surest first.
_LOWER_KINDS = ("sure", "known", "new")
_LOWER_INITIAL = re.compile(r"[a-z]\.")


def _lower_kind(word: str, lists: NameLists) -> str:
    """A lower-case word of a run: "sure" (a name that is no everyday word), "known" (a
    name that may be a word), "new" (no English word, 3 letters or more) or ""."""
    if word in NOT_AFTER_TITLE or word in lists.not_name:
        return ""
    if word in lists.strong_lower:
        return "sure"
    if word in lists.known:
        return "known"
    if len(word) >= 3 and word.isalpha() and word not in lists.english:
        return "new"
    return ""


def _a_person(text: str, stretch: list[tuple[int, int, str]], lists: NameLists) -> bool:
    """:func:`core.detect.name_lines.names_a_person` on a stretch of a lower-case run."""
    words = [text[a:b] for a, b, kind in stretch if kind != "particle"]
    particles = [text[a:b] for a, b, kind in stretch if kind == "particle"]
    return names_a_person(words, particles, lists)


def _lower_strength(word: str, lists: NameLists, *, title: bool, relation: bool) -> str:
    """How surely a lower-case word after a cue is (part of) a name: "lower" (a known name
    that is no everyday word; after a title any word but a function word; after a relation
    such as "son" or "pt" a word that is no English word: "venkatesh"), "weak" (a known
    name that is also an everyday word: "tan", "will"), or "" (not a name)."""
    if not _APOSTROPHE_HYPHEN.sub("", word).isalpha() or word in NOT_AFTER_TITLE:
        return ""
    if word in lists.strong_lower or title:
        return "lower"
    if relation and len(word) >= 3 and word not in lists.english:
        return "lower"
    return "weak" if word in lists.known else ""


def cued_span(match: re.Match[str], lists: NameLists) -> tuple[int, int] | None:
    """The name right after a title, a relation or a verb of reaching someone.

    After the cue, words are taken while they can be a name: a capitalised word that is no
    street, place, organisation, sentence or medicine word (an everyday word such as "May"
    only inside a longer name or after a title); a lower-case word only when it is a known
    given or family name that is no everyday word ("spoke to siti"), or, after a title
    (Mr, Mdm...), any word that is not a function word ("mdm rosnah"). Particles (bin,
    s/o) are kept inside. Up to four words.
    """
    cue = match.group("cue").lower()
    title = cue in TITLES
    nickname = " ".join(cue.split()) in NICKNAME_WORDS  # "known as", read as a relation
    reach = not title and not nickname and cue not in RELATION_WORDS  # "call", "spoke to"
    taken: list[tuple[int, int, str, str]] = []  # (start, end, word, case)
    words = match.group("words")
    word_end = 0
    tokens = words.split()  # the words \S+ finds, each after the previous one
    for place, token in enumerate(tokens):
        word_start = words.find(token, word_end)
        word_end = word_start + len(token)
        lower = _fold(token.lower())
        if taken and lower in lists.particles:
            taken.append((word_start, word_end, "particle", ""))
            continue
        capital = bool(NAME_TOKEN.fullmatch(token)) and token[0].isupper()
        if lower.rstrip(".") in lists.not_name and not family_first(tokens, place, lists):
            break
        bare = token.rstrip(".")
        if (
            capital
            and bare.isupper()
            and (
                reach or (not title and not taken and len(bare) <= 4 and lower not in lists.listed)
            )
        ):
            break  # "spoke to GP", "called AIC", "Name MRN": capitals are an acronym
        if capital and len(token.rstrip(".")) >= 2:
            taken.append((word_start, word_end, lower, "capital"))
        elif token.islower() and not any(t[3] == "capital" for t in taken):
            strength = _lower_strength(lower, lists, title=title, relation=not reach)
            if not strength:
                break
            taken.append((word_start, word_end, lower, strength))
        else:
            break
    # Lower-case everyday names ("tan", "will") count only next to a surer name token
    # ("pt tan ah kow", not "son will come"), or before a verb only people do ("pt hazel
    # says", "son bill phoned").
    by_verb = (
        bool(taken)
        and taken[-1][3] == "weak"
        and not reach
        and _next_word(match.string, match.start("words") + taken[-1][1]) in SURE_PERSON_VERBS
    )
    if by_verb:
        taken[-1] = (*taken[-1][:3], "lower")
    while taken and taken[-1][3] in ("weak", ""):
        taken.pop()
    if not taken:
        return None
    names = [t for _, _, t, _ in taken if t != "particle"]
    if reach and all(n in lists.english or n in lists.ambiguous for n in names):
        return None  # "text, Safe Harbor", "call Will Young": everyday words after a verb
    if (
        len(names) == 1
        and not title
        and not by_verb
        and names[0] in lists.ambiguous
        and cue not in NAMING_WORDS
        and not (cue in KINSHIP and taken[0][3] == "capital")  # "dtr Grace", "son Will"
    ):
        return None  # "call May", "ask Will": an everyday word alone
    offset = match.start("words")
    end = offset + taken[-1][1]
    # "Mr Lim's office": a titled person's place, not a firm named after them
    possessive = title and (
        match.string.startswith(("'s", "’s"), end) or match.string.endswith(("'s", "’s"), 0, end)
    )
    if not possessive and (
        _next_word(match.string, end) in SERVICE_WORDS or _organisation_after(match.string, end)
    ):
        return None  # "told Grab driver", "emailed Medisave team": a company or service
    return offset + taken[0][0], end


# An organisation word up to four capitalised words after a name-like piece ("Ng Teng Fong
# General Hospital", "Lee Ah Mooi Old Age Home", "KK Women's and Children's Hospital"):
# the piece names the organisation, not a person.
# (Street words end a place, not an organisation: "Mr Tan Ah Kow Bedok Road" keeps its name
# by the next-word rule alone.)
_INSTITUTIONS = ORGANISATION_WORDS - {"road", "street", "avenue", "drive", "park", "life"}
_ORGANISATION_AFTER = re.compile(
    r"(?:['’]s?)?(?:[ \t]+(?:[A-Z][A-Za-z'’.-]{0,24}"
    r"|(?:and|&)(?=[ \t]+(?!(?:Dr|Mr|Mrs|Ms|Mdm|Miss|Nurse|Prof)\b)[A-Z]))){0,5}?[ \t]+"
    rf"(?i:{'|'.join(sorted(_INSTITUTIONS))})s?(?![A-Za-z])"
)
_SPEAKER = re.compile(r":[ \t]")
_EMAIL_LOCAL = re.compile(r"([a-z0-9._%+'-]+)@[a-z0-9-]+\.")
_JOINED_AFTER = re.compile(
    rf"[ \t]+(?:and|&)[ \t]+([{UPPER}][{LOWER}'’-]{{1,24}})(?![{UPPER}{LOWER}])"
)
_JOINED_BEFORE = re.compile(
    rf"(?<![{UPPER}{LOWER}])([{UPPER}][{LOWER}'’-]{{1,24}})[ \t]+(?:and|&)[ \t]+$"
)
_LINE_START = re.compile(r"(?:^|[.!?;/\n\"“])[ \t]*$")
# The start of a line, a sentence or a clause after a colon: where a subject stands.
_SUBJECT_START = re.compile(r"(?:^|[.!?;:\n\"“])[ \t]*$")


def _unknown_but_named(
    text: str, start: int, end: int, word: str, piece: str, lists: NameLists
) -> bool:
    """One capitalised word no list knows, that is no English word, followed by a verb only
    people do ("Kuldeep says") or, opening a line or sentence, by a colon as a speaker
    ("Harbhajan: I will come"; not "Brother in Chennai: ...")."""
    if len(word) < 3 or piece.isupper() or word in lists.english or word in lists.known:
        return False
    opens = _SUBJECT_START.search(text, max(0, start - 8), start) is not None
    if _next_word(text, end) in SURE_PERSON_VERBS or facts_after(text, end, age_in_brackets=opens):
        return True  # "Kuldeep says", "Kerubo 14F"; opening a sentence: "Adhiambo (12)"
    # Written in an email address of the same text ("Zaitra ... zaitradeshpande@..."):
    # people's addresses are made of their names.
    if (
        len(word) >= 4
        and "@" in text
        and any(word in local for local in _EMAIL_LOCAL.findall(text.lower()))
    ):
        return True
    # Joined by "and" to a sure name ("Vaidehi and Margaret", "Margaret and Oluwaseun");
    # two unknown words joined are more often places ("Chennai and Coimbatore").
    after = _JOINED_AFTER.match(text, end)
    before = _JOINED_BEFORE.search(text, max(0, start - 32), start)
    if any(m and m.group(1).lower() in lists.strong for m in (after, before)):
        return True
    return bool(_SPEAKER.match(text, end)) and (
        bool(_LINE_START.search(text, max(0, start - 8), start))
        or previous_word(text, start) in ("from", "per", "by")  # "Memo from X: ..."
    )


# "Dawn and Peter Okafor": "and"/"&", a given name, a surname (both capitalised).
_COUPLE_AFTER = re.compile(
    rf"[ \t]+(?:and|&)[ \t]+([{UPPER}][{LOWER}'’-]{{1,24}})[ \t]+([{UPPER}][{LOWER}'’-]{{1,24}})"
    rf"(?![{UPPER}{LOWER}])"
)


def _first_of_a_couple(text: str, end: int, word: str, lists: NameLists) -> bool:
    """A given name that is also an everyday word ("Dawn", "Mark", "Grace") joined by
    "and" to a sure given name and a surname shares it: "Dawn and Peter Okafor". Not when
    an organisation word follows ("Hope and Faith Church") or the surname is never a name."""
    if word not in lists.given:
        return False
    couple = _COUPLE_AFTER.match(text, end)
    if not couple:
        return False
    given, surname = couple.group(1).lower(), couple.group(2).lower()
    return (
        given in lists.strong
        and given in lists.given
        and surname not in lists.not_name
        and surname not in lists.english
        and not _organisation_after(text, couple.end())
    )


def _shaped_like_a_name(piece: str, tokens: list[str], lists: NameLists) -> bool:
    """Two or more capitalised words of two letters or more (in capitals too: "VEHBIJA
    EKMECIC"), one of them at least no English word ("Heart Rate" is not a name)."""
    if piece.isupper():  # two words of 3 letters or more: not "HIPAA CE"
        return sum(len(t) >= 3 for t in tokens) >= 2 and any(t not in lists.english for t in tokens)
    proper = [w.lower() for w in _PROPER.findall(piece)]  # not the acronyms ("HIPAA Safe")
    return len(proper) >= 2 and any(w not in lists.english for w in proper)


def _has_sure_name(piece: str, lists: NameLists) -> bool:
    """A word of ``piece`` is a known name that is no everyday word, and not a short
    acronym in capitals that only the vendored lists know ("UK NI number", "NIST SP")."""
    for word in piece.split():
        bare = word.rstrip(".")
        lower = _fold(bare.lower())
        if lower in lists.strong and not (
            bare.isupper() and len(bare) <= 4 and lower not in lists.listed
        ):
            return True
        # the Irish O' (Ó, "grandson of") before a family name: "O'Donoghue", "O’Halloran"
        if lower[:2] in ("o'", "o’") and lower[2:] in lists.family and lower[2:] in lists.strong:
            return True
    return False


def _organisation_after(text: str, end: int) -> bool:
    """A piece followed by an organisation word (next word, or up to four capitalised
    words later) names an organisation."""
    following = _next_word(text, end)
    return (
        following in ORGANISATION_WORDS
        # "Apollo Hospitals", "Raffles Clinics"; not a verb ("Olumide drives a taxi")
        or following.endswith("s")
        and following[:-1] in ORGANISATION_WORDS
        and _NEXT.match(text, end).group(1)[0].isupper()
        or bool(_ORGANISATION_AFTER.match(text, end))
    )


# Bounded: the word after a name is read in constant time, even in a cell that is one
# 100,000-letter "word" (a longer word is no organisation word anyway).
_NEXT = re.compile(r"[ \t]*([A-Za-z]{1,24})(?![A-Za-z])")


def _next_word(text: str, end: int) -> str:
    match = _NEXT.match(text, end)
    return match.group(1).lower() if match else ""


def _split_run(run: str, offset: int, lists: NameLists):
    """Pieces ``(start, end, tokens)`` of a capitalised run without the words never in names.

    Particles (bin, s/o...) are kept inside a piece but never start or end one, nor does
    an English word that is no name ("Excludes Washington": a sentence's first word).
    """
    start = end = 0
    tokens: list[str] = []
    particles, english, known, not_name = (
        lists.particles,
        lists.english,
        lists.known,
        lists.not_name,
    )
    # The words as \S+ finds them (str.split cuts at the same white space), each found
    # after the previous one: only white space stands between them.
    word_end = 0
    for word in run.split():
        word_start = run.find(word, word_end)
        word_end = word_start + len(word)
        lower = word.lower()
        if lower in particles:
            continue
        if not tokens and lower in english and lower not in known:
            continue
        bare = lower.rstrip(".")  # = word.rstrip(".").lower(): no letter lowers to a dot
        if bare in not_name:  # a word never in a name
            if tokens:
                yield offset + start, offset + end, tokens
            tokens = []
            continue
        if not tokens:
            start = word_start
        possessive = lower.endswith(("'s", "’s"))  # "Margaret's": the name ends here
        token = lower[:-2] if possessive else bare
        tokens.append(token if token.isascii() else _fold(token))
        end = word_end - 2 if possessive else word_end
        if possessive:
            yield offset + start, offset + end, tokens
            tokens = []
    if tokens:
        yield offset + start, offset + end, tokens


def _a_place(text: str, start: int, tokens: list[str], cue: str, lists: NameLists) -> bool:
    """The piece of ``tokens`` starting at ``start`` is a place (core.detect.place_names);
    the word before its cue is read only for a known place; a place Vietnamese writes in
    syllables ("Hà Nội") is looked up joined, as the gazetteer writes it ("hanoi")."""
    if " ".join(tokens) not in place_names():
        joined = "".join(tokens)
        if text[start : start + len(joined)].isascii() or joined not in place_names():
            return False
        tokens = [joined]
    cue_at = text.rfind(cue, max(0, start - 24), start) if cue else -1
    before = previous_word(text, cue_at) if cue_at > 0 else ""
    return place_not_person(tokens, cue, before, lists)
