"""What stands around a name-like piece of free text and says it is no person (issue 26),
and the airlines' passenger-name form, which says it is one.

:mod:`core.detect.names` finds a piece of capitalised words that holds a known name; the
words around it can still say it names something else:

* **a medicine**: after its form ("tab. Nadia 40", "syp. X", "2 sachets X") or before a
  dose ("X 40 mg", "X 500 bd"): brand names are often given names;
* **a firm or a place**: after a word that opens a firm's or a place's name ("Hotel X",
  "Bank X", "apotek X", Indonesian hospitals' "RSUP"), after "The" with its capital
  inside a sentence ("at The X Bali"; "the Tan family" names people), after "County of", "City of"..., in brackets after
  the kind of firm it is ("pharmacy (X)", "insurance (X)", "social work (X)"), or when its
  first word is a mountain's, a lake's or a port's ("Mount X", "Port X");
* **a greeting** of Māori or Malay ("Kia ora", "Ngā mihi", "Selamat pagi"), whose first
  word is also a given name;
* **a town** of the gazetteer after a comma and before a comma, a full stop or a number
  ("Court, Sheffield, Case 12"), that the lists know only as a surname or another
  country's given name (:func:`town_after_a_comma`).

The passenger-name record (IATA's form, on tickets and bookings) writes a person as
``SURNAME/GIVEN NAMES`` and a title: ``LIM/WEI MING MR``; what follows the title is the
flight ("SQ 322"), not a name.

Other words say a person is named (:func:`other_names`, :func:`facts_after`):

* **a person's facts** after the name: a date of birth ("dob", "born"), an age and sex
  ("47M", "33F", "58 yo"), an age in brackets before the sentence goes on ("X (12) left");
* **a speaker naming themself**: "I am X", "I'm X", "my name is X" (a word that is no
  English word, no place and no function word);
* **Chinese characters** in an English text: 2-3 of them standing alone, the first a
  common surname character (``HAN_SURNAMES``), as whole cells are read;
* **a given name before a possessive kinship word**, in any case and even when it is an
  everyday word: "jasmine's mum", "Hope's brother";
* **a record line** opening on the name before a dash ("Tshepo Baloyi - job applicant":
  :data:`RECORD_DASH`), and a family name that is also a street word before a hyphenated
  given name after a cue ("guest Park Ji-hoon": :func:`family_first`).
"""

from __future__ import annotations

import re
import string

from core.detect.lexicon import NameLists
from core.detect.name_lines import LONE_LOWER_LINE, lone_lower_names
from core.detect.name_words import HAN_SURNAMES, LOWER, UPPER
from core.detect.place_names import place_names

__all__ = [
    "OTHER_NAME_HINT",
    "PASSENGER_NAME",
    "RECORD_DASH",
    "a_greeting",
    "a_medicine",
    "a_pet_name",
    "after_a_firm_or_place_word",
    "facts_after",
    "family_first",
    "in_brackets_after_a_firm",
    "opens_a_place",
    "other_names",
    "passenger_names",
    "previous_word",
    "town_after_a_comma",
]

# The forms a medicine is written in, before its name: "tab. X", "2 sachets X", "inj X".
_DOSAGE_FORMS = frozenset(
    {
        *("tab", "tabs", "tablet", "tablets", "cap", "caps", "capsule", "capsules"),
        *("syp", "syr", "syrup", "inj", "injection", "sachet", "sachets", "susp"),
        *("oint", "ointment", "cream", "gel", "drops", "inhaler", "neb", "supp", "pessary"),
    }
)
# A dose after a name-like word: "X 40 mg", "X 500 bd", "X 15ml".
_DOSE_AFTER = re.compile(
    r"[ \t]+\d+(?:\.\d+)?[ \t]*"
    r"(?:mg|mcg|µg|g|ml|iu|units?|%|(?:[ \t]*(?:od|bd|bid|tds|tid|qid|qds|prn|sos|hs|mane|nocte|stat)))"
    r"(?![A-Za-z])",
    re.IGNORECASE,
)

# Words that open the name of a firm or a place (the capitalised words after them name
# it): hotels, banks, Indonesian pharmacies and shops, Indonesian hospitals (Rumah Sakit,
# RS Umum, RS Umum Daerah, RS Umum Pusat).
_FIRM_OR_PLACE_BEFORE = frozenset(
    {
        *("hotel", "bank", "apotek", "toko", "rs", "rsu", "rsud", "rsup"),
        # a record's label for a firm ("Provider: X", "Insurer: X", "Airline: X")
        *("provider", "insurer", "vendor", "supplier", "merchant", "airline", "carrier"),
        *("lender", "retailer"),
    }
)
# "at X" names a venue ("at Westfield X", "lunch at X"), unless a person is looked,
# shouted or pointed at ("shouted at X"), or the venue is their home ("at X's").
_AT_A_PERSON = frozenset(
    {
        *("look", "looked", "looking", "looks", "stare", "stared", "staring", "glared"),
        *("shout", "shouted", "shouting", "yelled", "yelling", "screamed", "swore", "cursed"),
        *("snapped", "angry", "mad", "upset", "furious", "annoyed", "cross", "smiled"),
        *("smiling", "laughed", "laughing", "grinned", "winked", "nodded", "waved", "waving"),
        *("pointed", "pointing", "lashed", "threw", "thrown", "aimed", "directed", "lunged"),
        *("spat", "swung", "hit", "jabbed", "barked", "frowned"),
    }
)
_POSSESSIVE = re.compile(r"['’]s?(?![A-Za-z])")
# What a brand sells, after its name: "X booking", "X supplement", "X voucher".
_PRODUCTS = frozenset(
    {
        *("booking", "bookings", "reservation", "supplement", "supplements", "voucher"),
        *("vouchers", "loyalty", "miles", "points", "subscription", "outlet", "outlets"),
        *("membership", "ticket", "tickets", "delivery", "ride", "app", "package"),
    }
)
# "The" with its capital inside a sentence is part of a firm's or a place's own name ("at
# The Ritz", "stayed at The Oberoi Bali"); "the Simpson novel", "the Tan family" name
# people (lower case), and so may "The" opening a sentence.
_THE_INSIDE = re.compile(r"(?:[\w,][ \t]+|\()The[ \t]+$")
# "County of X", "City of X": the word before "of" says a place or an institution follows.
_OF_A_PLACE = frozenset(
    {
        *("county", "city", "state", "province", "district", "region", "borough"),
        *("municipality", "shire", "town", "village", "republic", "kingdom", "isle"),
        *("university", "bank", "port", "diocese", "parish"),
    }
)
# First words of places' names: "Mount X", "Mt X", "Lake X", "Port X", "Fort X", "Cape X".
_PLACE_HEADS = frozenset({"mount", "mt", "lake", "port", "fort", "cape"})
# The kinds of firm or service after which a name in brackets is the firm's: "pharmacy
# (X)", "insurance (X)", "social work (X)".
_FIRM_KINDS = frozenset(
    {
        *("pharmacy", "insurance", "insurer", "bank", "hotel", "airline", "clinic"),
        *("hospital", "agency", "work", "provider", "telco", "carrier", "employer"),
        *("company", "firm", "shop", "store", "restaurant", "supermarket", "school"),
    }
)
# Greetings and sign-offs whose first word is also a given name: Māori ("Kia ora", "Ngā
# mihi", "Tēnā koe", "Mōrena") and Malay/Indonesian ("Selamat pagi", "Salam sejahtera").
_GREETING = re.compile(
    r"(?:kia[ \t]+ora|ng[aā][ \t]+mihi|t[eē]n[aā][ \t]+(?:koe|korua|koutou)|m[oō]rena"
    r"|selamat[ \t]+(?:pagi|siang|sore|petang|malam|datang|jalan)|salam[ \t]+sejahtera)"
    r"(?![A-Za-z])",
    re.IGNORECASE,
)

#: The passenger-name form: SURNAME/GIVEN NAMES (in capitals), then a title.
PASSENGER_NAME = re.compile(
    r"(?P<name>[A-Z][A-Z'’-]*/[A-Z][A-Z'’-]*(?:[ ][A-Z][A-Z'’-]*){0,3}?)"
    r"[ \t]+(?:MR|MRS|MS|MSTR|MISS|MSS|DR|PROF|CHD|INF)(?![\w])"
)
_NO_NAME_BEFORE = re.compile(r"[\w/]")


def a_medicine(text: str, end: int, cue: str) -> bool:
    """The piece ending at ``end``, after the word ``cue``, is a medicine: after a dosage
    form ("tab.", "syp.", "sachets") or before a dose ("40 mg", "500 bd")."""
    return cue in _DOSAGE_FORMS or bool(_DOSE_AFTER.match(text, end))


def after_a_firm_or_place_word(
    text: str, start: int, end: int, cue: str, before_cue: str, next_word: str
) -> bool:
    """The piece ``text[start:end]``, after the word ``cue`` (itself after
    ``before_cue``) and before ``next_word`` (lower case), names a firm, a place or a
    brand: "Hotel X", "Provider: X", "County of X", "at The X", "lunch at X", "X booking"
    (not "a X": the article stands before people's names too, "a Tan", "a Priya")."""
    if cue == "the":
        return bool(_THE_INSIDE.search(text, max(0, start - 8), start))
    if cue == "at":
        return before_cue not in _AT_A_PERSON and not _POSSESSIVE.match(text, end)
    return (
        cue in _FIRM_OR_PLACE_BEFORE
        or (cue == "of" and before_cue in _OF_A_PLACE)
        or next_word in _PRODUCTS
    )


def opens_a_place(first: str) -> bool:
    """The piece's first word (lower case) opens a place's name: "Mount X", "Port X"."""
    return first in _PLACE_HEADS


def in_brackets_after_a_firm(text: str, start: int, before_bracket: str) -> bool:
    """The piece at ``start`` stands in brackets after the kind of firm it is ("pharmacy
    (X)"); ``before_bracket`` is the word before the bracket, lower case."""
    return start > 0 and text[start - 1] == "(" and before_bracket in _FIRM_KINDS


def a_greeting(text: str, start: int) -> bool:
    """A greeting or sign-off starts at ``start``: "Kia ora", "Ngā mihi"."""
    return bool(_GREETING.match(text, start))


def passenger_names(text: str) -> tuple[list[tuple[int, int]], set[int]]:
    """The passenger names of ``text`` ("LIM/WEI MING MR": the span of "LIM/WEI MING"),
    and where the word after each title starts (a flight, not a name: "MR SQ 322")."""
    if "/" not in text:
        return [], set()
    spans, after_titles = [], set()
    for match in PASSENGER_NAME.finditer(text):
        if match.start() and _NO_NAME_BEFORE.match(text, match.start() - 1):
            continue  # inside a word or a code ("XLIM/WEI MR")
        spans.append(match.span("name"))
        end = match.end()
        while end < len(text) and text[end] in " \t":
            end += 1
        after_titles.add(end)
    return spans, after_titles


# A person's facts right after a name: "(12)", "47M", "33 F", "58 yo", "dob", "born".
_AGE_SEX = r"\(?\d{1,3}[ \t]?(?:[MFmf]|yo|y/o|yrs?|years?[ -]old)\)?(?![A-Za-z])"
_FACTS_AFTER = re.compile(
    rf"[ \t]*,?[ \t]*(?:{_AGE_SEX}|(?:dob|DOB|d\.o\.b\.?|D\.O\.B\.?|born)(?![A-Za-z]))"
)
_AGE_IN_BRACKETS = re.compile(r"[ \t]*\(\d{1,3}\)[ \t]+[a-z]")
# An age between commas, in digits or words, the note going on: "Kgosi Mothibi, 91,
# bedridden", "..., ninety-two, from ...".
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_AGE_IN_WORDS = rf"(?:{_TENS})(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?"
_AGE_IN_COMMAS = re.compile(
    rf"[ \t]*,[ \t]*(?:1[01][0-9]|[1-9]?[0-9]|{_AGE_IN_WORDS})[ \t]*[,;][ \t]*[a-z]"
)
# An age and sex after lower-case words: "triage: chiamaka obi 33F" (the expressions of
# other_names open on a character class, which Python's engine skips to at C speed; the
# character before a match is checked by hand).
_LOWER_AGE_SEX = re.compile(r"[0-9]{1,3}[ \t]?(?:[MFmf]|yo|y/o|yrs?)(?![A-Za-z])")
_NOT_BEFORE_AN_AGE = frozenset("0123456789/.-_") | frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
)
_LOWER_WORDS_BEFORE = re.compile(
    r"(?<![\w'’@./-])((?:[a-z][a-z'’-]{1,24}[ \t]+){1,2}[a-z][a-z'’-]{1,24}),?[ \t]*$"
)
# "I am X", "I'm X", "my name is X".
_SELF_NAMED = re.compile(
    r"(?:[Ii](?:[ \t]+[Aa][Mm]|['’]?[Mm])|[Mm][Yy][ \t]+[Nn][Aa][Mm][Ee](?:[ \t]+[Ii][Ss]|['’][Ss]))"
    r"[ \t]+([A-Za-z][a-z'’-]{2,24})(?![\w'’-])"
)
_WORD_BEFORE = re.compile(r"[\w'’]")
_HAN_NAME_IN_TEXT = re.compile(
    rf"(?<![\u3400-\u9fff])[{HAN_SURNAMES}][\u4e00-\u9fff]{{1,2}}(?![\u3400-\u9fff])"
)
#: Where :func:`other_names` may find a name, in RE2's syntax ("i'm", "i am", "name is", an
#: age and sex, a Chinese character): the scanner asks pyarrow which texts of a column
#: match it (at C speed) and reads only those. Every text where :func:`other_names` finds
#: a name matches it.
_KIN_AFTER = "mum|mom|mother|dad|father|wife|husband|son|daughter|brother|sister|grandma|grandpa"
OTHER_NAME_HINT = (
    r"(?i)(?:\bi['’]?m|\bi[ \t]+am|name[ \t]+is|name['’]s)[ \t]"
    rf"|[0-9][ \t]?(?:[mf](?:[^a-z]|$)|y)|[\x{{3400}}-\x{{9fff}}]|['’]s[ \t]+(?:{_KIN_AFTER})"
    f"|{LONE_LOWER_LINE}"
)
# "jasmine's mum", "Hope's brother": a given name before a possessive kinship word.
_BEFORE_POSSESSIVE_KIN = re.compile(
    rf"([A-Za-z][a-z'-]{{1,24}})['’]s[ \t]+(?:{_KIN_AFTER})(?![A-Za-z])", re.IGNORECASE
)


def facts_after(
    text: str, end: int, *, age_in_brackets: bool = False, age_in_commas: bool = False
) -> bool:
    """A person's facts follow ``end``: "47M", "58 yo", "dob", "born"; with
    ``age_in_brackets``, a number in brackets and the sentence going on in lower case too
    ("Adhiambo (12) missed the exam": asked of one word no list knows opening a sentence;
    a number in brackets after other words is as often a count or a ward's); with
    ``age_in_commas``, an age between commas before lower-case words ("Kgosi Mothibi,
    91, bedridden": asked of a piece of two or more words shaped like a name)."""
    return bool(
        _FACTS_AFTER.match(text, end)
        or (age_in_brackets and _AGE_IN_BRACKETS.match(text, end))
        or (age_in_commas and _AGE_IN_COMMAS.match(text, end))
    )


def other_names(text: str, lists: NameLists) -> list[tuple[int, int]]:
    """Names said by a speaker naming themself, lower-case names before an age and sex,
    and names in Chinese characters (see the module doc)."""
    found = []
    for match in _SELF_NAMED.finditer(text):
        if match.start() and _WORD_BEFORE.match(text, match.start() - 1):
            continue  # inside a word: "Kim am", "Hmm"
        word = match.group(1)
        lower = word.lower()
        if (
            lower in lists.english
            or lower in lists.ambiguous
            or lower in lists.not_name
            or lower in lists.function_words
            or lower in place_names()
            or (word.islower() and lower not in lists.strong_lower)
        ):
            continue
        found.append(match.span(1))
    for match in _LOWER_AGE_SEX.finditer(text):
        if match.start() and text[match.start() - 1] in _NOT_BEFORE_AN_AGE:
            continue  # inside a number or a code: "12.5m", "A-12F"
        words = _LOWER_WORDS_BEFORE.search(text, max(0, match.start() - 80), match.start())
        if words:
            found += _lower_name_before(text, words.start(1), words.group(1).split(), lists)
    if not text.isascii():
        found += [match.span() for match in _HAN_NAME_IN_TEXT.finditer(text)]
    found += lone_lower_names(text, lists)  # a cell or a line that is a name only
    for match in _BEFORE_POSSESSIVE_KIN.finditer(text):
        if match.start() and _WORD_BEFORE.match(text, match.start() - 1):
            continue
        word = match.group(1).lower()
        if word in lists.given and word not in lists.not_name and word not in lists.function_words:
            found.append(match.span(1))  # a given name, even an everyday word ("ruby")
    return found


def _lower_name_before(
    text: str, start: int, words: list[str], lists: NameLists
) -> list[tuple[int, int]]:
    """The longest tail of ``words`` (2 or 3 lower-case words from ``start``) that is a
    name: no English, function or never-a-name word, one word a sure name."""
    for first in range(len(words) - 1):
        tail = words[first:]
        if any(
            w in lists.english or w in lists.function_words or w in lists.not_name for w in tail
        ):
            continue
        if any(w in lists.strong_lower for w in tail):
            at = start + len(" ".join(words[:first])) + (1 if first else 0)
            at = text.index(tail[0], at)
            end = text.index(tail[-1], at) + len(tail[-1])
            return [(at, end)]
    return []


#: A dash after the words opening a line: a record of what the named person did.
RECORD_DASH = re.compile(r"[ \t]+[-–—][ \t]")
# A hyphenated given name after a family name: "Park Ji-hoon", "Lee Seo-yeon".
_HYPHENATED_GIVEN = re.compile(rf"[{UPPER}][{LOWER}]+-[{LOWER}]+")


_AFTER_A_COMMA = re.compile(r",[ \t]*$")
_END_OF_A_PLACE = re.compile(r"[ \t]*(?:[,.;\n]|[0-9]|$)")


def town_after_a_comma(text: str, start: int, end: int, word: str, lists: NameLists) -> bool:
    """One word of the gazetteer written after a comma and before a comma, a full stop or
    a number ("Court, Sheffield, Case 12"; "Kilimani, Nairobi."), that the lists know only
    as a surname or another country's given name: a town of an address or a court."""
    return (
        _AFTER_A_COMMA.search(text, max(0, start - 4), start) is not None
        and _END_OF_A_PLACE.match(text, end) is not None
        and word in place_names()
        and word not in lists.listed
        and (word not in lists.given or word in lists.world)
    )


def family_first(tokens: list[str], place: int, lists: NameLists) -> bool:
    """After a cue, a family name that is also a street or place word ("Park") stays a
    name before a hyphenated given name ("guest Park Ji-hoon"; "Park Road" stays a place)."""
    return (
        place == 0
        and len(tokens) > 1
        and tokens[0].lower() in lists.family
        and _HYPHENATED_GIVEN.fullmatch(tokens[1].rstrip(",.;:")) is not None
    )


# Animals a vet's or a boarding note names in quotes: a species word (English, French,
# Spanish, Malay) or "vet" right before the quote, or the species or an owner after it.
_SPECIES = (
    "dog|cat|puppy|pup|kitten|horse|pony|goat|rabbit|bunny|parrot|bird|hamster|pet|"
    "tortoise|canine|feline|chat|chien|chienne|perro|gato|kucing|anjing"
)
_SPECIES_BEFORE = re.compile(rf"(?i)\b(?:{_SPECIES}|vet)\b[ \t:,-]*$")
_PET_AFTER = re.compile(
    rf"(?i)[ \t]*\((?:{_SPECIES})\b|[ \t]*(?:\([^)\n]{{0,40}}\))?[ \t]*,?[ \t]*(?:owner|owned by)\b"
)
_OPEN_QUOTES = ('"', "“")
_CLOSE_QUOTES = ('"', "”")


def a_pet_name(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, in double quotes, names an animal: 'dog "Bruno"',
    'vet: "Rex" (kelpie x)', '"Bobo" (cat, 12y)', '"Mochi", owner ...'. A nickname in
    quotes ('known as "Ravi"') is still a person's."""
    if not (start and text[start - 1] in _OPEN_QUOTES and text[end : end + 1] in _CLOSE_QUOTES):
        return False
    return bool(
        _SPECIES_BEFORE.search(text, max(0, start - 30), start - 1)
        or _PET_AFTER.match(text, end + 1)
    )


_ASCII_LETTERS = string.ascii_letters


def previous_word(text: str, start: int) -> str:
    """The word right before ``start`` (in the 24 characters before it), lower-case: ASCII
    letters, then maybe a dot, then spaces, tabs, colons or commas (and, as ``$`` reads the
    end, one final newline); "" when none. The same word as the expression
    ``([A-Za-z]+)\\.?[ \\t:,]*$`` searched in those 24 characters, read from the end with
    C-level string operations (the expression tried each of the 24 places)."""
    before = text[max(0, start - 24) : start]
    if before.endswith("\n"):
        before = before[:-1]
    before = before.rstrip(" \t:,")
    if before.endswith("."):
        before = before[:-1]
    return before[len(before.rstrip(_ASCII_LETTERS)) :].lower()
