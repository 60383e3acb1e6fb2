"""Names written in lower case in the cells of a name-like column (issue 26: a next-of-kin
column's names were found in 39% of cells): the column is a name column, also when a
cell notes the relation ("tan ah kow (father)", "wife - priya ramasamy"), and a cell
that is a name and nothing else, or a name with a one-word note, is redacted as a name
by the free-text scanner; cells of lower-case ordinary text (addresses, food, diagnoses,
occupations, relations) are not names.

The 116 names were written by hand for this test (Chinese, Malay, Indian, Western,
Eurasian, Vietnamese, Filipino, Iban; surname first or last), not taken from the name
lists or a test generator; the negatives likewise.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.detect import find_entities
from core.schema import Role, suggest_roles

NAMES = [
    "tan ah kow",
    "lim mei ling",
    "ng boon huat",
    "goh siew lan",
    "teo chee keong",
    "koh wei jie",
    "chua soo hong",
    "low kah wai",
    "ong bee choo",
    "yeo hui min",
    "wee chin seng",
    "seah poh lin",
    "heng kok wah",
    "quek lay hoon",
    "tay eng soon",
    "sim ai lian",
    "toh yong sheng",
    "kwek li na",
    "chia swee kiat",
    "phua geok eng",
    "leong mun yee",
    "foo jia hui",
    "lau chee meng",
    "soh pei shan",
    "ho kar mun",
    "siti binte osman",
    "muhammad faizal bin rahman",
    "nurul huda binte ismail",
    "ahmad bin hassan",
    "farah binte yusof",
    "hafiz bin abdullah",
    "zainab binte salleh",
    "rizwan bin jamil",
    "aishah binte kassim",
    "norhayati binte mohd noor",
    "khairul anwar",
    "syazwani binte roslan",
    "iskandar bin ali",
    "haslinda binte said",
    "mohd firdaus bin karim",
    "priya ramasamy",
    "muthu s/o raman",
    "lakshmi d/o subramaniam",
    "arjun nair",
    "kavitha pillai",
    "suresh krishnan",
    "deepa menon",
    "ravi shankar",
    "anand balakrishnan",
    "meena sundaram",
    "vijay kumar s/o gopal",
    "thangaraj periasamy",
    "selvi d/o murugan",
    "karthik venkatesan",
    "revathi chandrasekaran",
    "o'brien james",
    "james o'brien",
    "sarah mitchell",
    "david thompson",
    "emily clarke",
    "michael johnson",
    "laura bennett",
    "thomas wright",
    "olivia harris",
    "daniel hughes",
    "rebecca walsh",
    "patrick kelly",
    "chloe robinson",
    "george evans",
    "hannah lewis",
    "de souza michael",
    "anthony pereira",
    "maria de silva",
    "gerald rodrigues",
    "clara fernandez",
    "desmond de rozario",
    "brenda oliveiro",
    "marcus scully",
    "jeanette d'cruz",
    "vanessa westerhout",
    "nguyen thi mai",
    "tran van hung",
    "le thi hoa",
    "pham minh tuan",
    "vo thi thu trang",
    "maria santos reyes",
    "jose dela cruz",
    "juan miguel garcia",
    "rosalinda mendoza",
    "jimbun anak sadai",
    "linda anak jugah",
    "zhang xiuying",
    "liu yang",
    "huang jiahao",
    "zhao lei",
    "chen jing",
    "teo ah hock",
    "kavitha a/p muthusamy",
    "ravi a/l subramaniam",
    "nur aisyah binti mohamad ali",
    "muhammad hafiz bin abdul rahman",
    "wan nur izzati binti wan ahmad",
    "ahmad zulkifli",
    "sharifah nor azlina",
    "gurpreet kaur",
    "harjit singh",
    "arumugam s/o veerasamy",
    "dinesh kumar",
    "sandeep reddy",
    "venkata ramana",
    "lalitha devi",
    "fatimah az-zahra",
    "chong kah yan",
    "yap siew fong",
    "eng swee lian",
    "loh kim seng",
]
NOT_NAMES = [
    "blk 123 ang mo kio ave 3 #05-12",
    "12 baker street",
    "toa payoh lorong 1",
    "jalan besar",
    "orchard road",
    "ang mo kio",
    "bukit batok west",
    "tampines street 81",
    "chicken rice",
    "nasi lemak",
    "roti prata",
    "mee goreng",
    "char kway teow",
    "laksa",
    "fish ball noodles",
    "teh tarik",
    "kaya toast",
    "bak kut teh",
    "hokkien mee",
    "nasi biryani",
    "mutton murtabak",
    "ayam penyet",
    "type 2 diabetes",
    "dengue fever",
    "hypertension",
    "chronic kidney disease",
    "asthma",
    "gastritis",
    "migraine",
    "hand foot mouth disease",
    "urinary tract infection",
    "osteoarthritis of knee",
    "taxi driver",
    "staff nurse",
    "software engineer",
    "hawker",
    "security guard",
    "property agent",
    "nil",
    "none",
    "same as above",
    "not applicable",
    "self",
    "refer to mother",
    "wife",
    "son",
    "daughter in law",
]
# Dishes, drinks and phrases of Singapore's and Malaysia's languages typed alone in a
# cell: many of their words are rare surnames of the census lists ("manis", "dosa",
# "chor"), and some given names ("siew", "tam"). Four such cells were already taken for
# names before this work, by the rule of two sure names side by side in running text
# ("dolor de cabeza", "pei pa koa", "yong tau foo", "kare kare"), and are left out.
LOCAL_PHRASES = [
    "tidak hadir",
    "cirit birit",
    "demam panas",
    "darah tinggi",
    "kencing manis",
    "sakit kepala",
    "batuk kering",
    "mal de tete",
    "sin cambios",
    "chai tow kway",
    "roti john",
    "masala dosa",
    "palak paneer",
    "ang ku kueh",
    "bak chor mee",
    "char siew rice",
    "martabak manis",
    "pho bo",
    "bun cha",
    "com tam",
    "teh halia",
    "teh tarik",
    "kopi o kosong",
    "mee rebus",
    "soto ayam",
    "nasi padang",
    "ayam penyet",
    "masakit ang ulo",
    "walang sakit",
    "tau huay",
    "wanton mee",
    "hokkien mee",
]
RELATIONS = ["father", "mother", "wife", "husband", "son", "daughter", "brother", "sister"]
# How a next-of-kin cell is typed: the name alone, or with its relation before or after.
FORMS = ["{n}", "{n} ({r})", "{r} - {n}", "{r}: {n}", "{n}, {r}", "{n} / {r}"]


def _cells(form: str) -> list[tuple[str, str]]:
    return [
        (form.format(n=name, r=RELATIONS[i % len(RELATIONS)]), name) for i, name in enumerate(NAMES)
    ]


def _found(cell: str, name: str) -> bool:
    """A NAME detection overlaps the name in the cell."""
    at = cell.index(name)
    return any(
        e.label == "NAME" and e.start < at + len(name) and e.end > at for e in find_entities(cell)
    )


@pytest.mark.parametrize("form", FORMS)
def test_lower_case_names_in_next_of_kin_cells_are_found(form: str) -> None:
    cells = _cells(form)
    missed = [cell for cell, name in cells if not _found(cell, name)]
    # issue 26's goal for names in free text is 0.97 of spans; a cell alone has no
    # context, so 0.95 (at most 5 of these 116 missed)
    assert len(missed) <= 5, missed


def test_lower_case_cells_of_other_things_are_not_names() -> None:
    flagged = {
        cell: [e.text for e in find_entities(cell) if e.label == "NAME"]
        for cell in NOT_NAMES + LOCAL_PHRASES
    }
    assert not {cell: names for cell, names in flagged.items() if names}


@pytest.mark.parametrize("form", ["{n}", "mixed"])
def test_a_column_of_lower_case_names_is_a_name_column(form: str) -> None:
    rng = np.random.default_rng(26)
    if form == "mixed":
        cells = [
            FORMS[i % len(FORMS)].format(n=name, r=RELATIONS[i % len(RELATIONS)])
            for i, name in enumerate(NAMES)
        ]
    else:
        cells = list(NAMES)
    values = list(rng.choice(cells, size=600))
    suggestion = suggest_roles(pd.DataFrame({"c3": values}))[0]
    assert (suggestion.kind, suggestion.role) == ("name", Role.DIRECT), suggestion


def test_a_column_of_lower_case_ordinary_text_is_not_a_name_column() -> None:
    values = list(np.random.default_rng(3).choice(NOT_NAMES, size=600))
    assert suggest_roles(pd.DataFrame({"c3": values}))[0].kind != "name"


# Name forms a next-of-kin column holds that the name shapes did not read (written by hand):
# the Iban and Bidayuh "anak" (child of), Filipino "dela"/"delos", a middle initial or
# "Ma." (Maria), a hyphenated given name, a name that is also an everyday word ("son",
# "soon", "sun"), and long Malay names with Wan, Nik or Syed.
NAME_FORMS = [
    "ngumbang anak sanggau",
    "lucy anak bujang",
    "jerry anak kuling",
    "rose anak mawang",
    "maria t. santos",
    "john p. dunne",
    "ahmad b. yusof",
    "ma. theresa reyes",
    "jose r. villanueva",
    "tan wei-ming",
    "ng hui-ling",
    "lee kah-wai",
    "chen yu-ting",
    "wong siu-ming",
    "juan dela cruz",
    "ana delos reyes",
    "nguyen van son",
    "lim soon huat",
    "tan teck soon",
    "sun li hua",
    "wan nur syafiqah binti wan ismail",
    "nik muhammad haziq bin nik ahmad",
    "syed abdul rahman bin syed ali",
    "cruz, maria t.",
    "dela cruz, juan",
]


def test_a_column_of_such_name_forms_is_a_name_column() -> None:
    values = list(np.random.default_rng(5).choice(NAME_FORMS, size=600))
    suggestion = suggest_roles(pd.DataFrame({"c6": values}))[0]
    assert (suggestion.kind, suggestion.role) == ("name", Role.DIRECT), suggestion


@pytest.mark.parametrize(
    "cell",
    [
        "maria t. santos",
        "john p. dunne",
        "jose r. villanueva",
        "ahmad b. yusof",
        "tan wei-ming",
        "ng hui-ling",
        "lee kah-wai (son)",
        "wife - chen yu-ting",
    ],
)
def test_a_lower_case_name_with_an_initial_or_a_hyphenated_given_name_is_found(cell: str) -> None:
    assert [e.label for e in find_entities(cell)] == ["NAME"]


# Vietnamese names as written, with the letters of Vietnamese beyond Latin-1 (written by
# hand; one in two typed in lower case, as in a next-of-kin column).
VIETNAMESE = [
    "Nguyễn Thị Lan",
    "Trần Văn Minh",
    "Lê Hoàng Nam",
    "Phạm Thu Trang",
    "Hoàng Đức Anh",
    "Vũ Thị Mai",
    "Đỗ Quang Huy",
    "Bùi Thanh Tùng",
    "Đặng Thị Hương",
    "Ngô Minh Khoa",
    "Dương Văn Long",
    "Lý Thị Ngọc",
    "Huỳnh Tấn Phát",
    "Phan Thanh Bình",
    "Võ Thị Kim",
    "Trương Quốc Việt",
    "Đinh Văn Hải",
    "Lâm Thị Thảo",
    "Mai Anh Tuấn",
    "Hồ Xuân Hương",
]


def test_a_column_of_vietnamese_names_with_their_accents_is_a_name_column() -> None:
    cells = [name.lower() if i % 2 else name for i, name in enumerate(VIETNAMESE)]
    values = list(np.random.default_rng(9).choice(cells, size=400))
    suggestion = suggest_roles(pd.DataFrame({"c6": values}))[0]
    assert (suggestion.kind, suggestion.role) == ("name", Role.DIRECT), suggestion
