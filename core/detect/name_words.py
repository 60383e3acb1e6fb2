"""The words and token shapes that say a name is meant, or that it is not.

Vocabulary only, no logic: the shape of a name token and the particles (bin, s/o) inside
names; the cues before a name (titles, relations and roles, verbs of reaching someone); the
verbs only people do; and the organisation, service and street words that turn a name-like
piece into an organisation's name. The cell check (:mod:`core.detect.name_cells`), the
free-text finder (:mod:`core.detect.names`) and the scanner's quick filters
(:mod:`core.detect.text`) read them, so each word list is written once.
"""

from __future__ import annotations

import re

# A name token: capitalised word (Tan, O'Brien, McDonald, Jean-Luc), ALL CAPS (TAN), or an
# initial (G, G.). Particles are matched separately, case-insensitively.
# A token never runs into digits or an underscore ("SUDA2", "MIN_EPSILON"), and capitals
# never into lower case ("QIs").
# Latin letters with diacritics (Latin-1 and Latin Extended-A: "José", "Müller",
# "Łukasz", "Şahin"), upper and lower case, for names written with their accents; and
# Vietnamese's (ơ, ư of Latin Extended-B; the stacked tone marks of Latin Extended
# Additional: "Nguyễn", "Hương"), else a token stopped inside such a word ("Nguy").
_ACCENTED = [
    chr(c)
    for c in [*range(0xC0, 0x180), 0x1A0, 0x1A1, 0x1AF, 0x1B0, *range(0x1EA0, 0x1EFA)]
    if chr(c).isalpha()
]
UPPER = "A-Z" + "".join(c for c in _ACCENTED if c.isupper())
LOWER = "a-z" + "".join(c for c in _ACCENTED if c.islower())
NAME_WORD = (
    rf"[{UPPER}](?:['’][{UPPER}])?[{LOWER}'’-]*[{LOWER}](?:[{UPPER}][{LOWER}'’-]*)?(?![0-9_])"
    rf"|[{UPPER}](?:[{UPPER}'’-]*[{UPPER}])?(?![{LOWER}0-9_])\.?"
)
#: One name token (compiled :data:`NAME_WORD`).
NAME_TOKEN = re.compile(NAME_WORD)
#: Particles that stand inside a name (bin, s/o, van...), as a regular alternation.
# (w/o: "wife of", as Indian records write a married woman: "Kamala w/o Raman")
# (ní, nic: Irish "daughter of", "Aoife Ní Bhriain")
NAME_PARTICLES = (
    r"bin|binte|binti|bte|bt|s/o|d/o|w/o|a/l|a/p|van|von|de|da|del|della|di|du|al|el|ní|nic"
)

#: The commonest Chinese surname characters (simplified and traditional): 2-4 Chinese
#: characters starting with one are read as a name.
HAN_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝"
    "龚邵万钱严覃武戴莫孔向汤陳黃張劉楊趙吳鄭謝許馮鄧蕭葉蘇呂盧姜鍾譚陸範賈韋鄒"
)

# Words that, just before a capitalised run, say a person is named.
CUES = frozenset(
    [
        # partners, children and helpers named like the family below ("Spouse June B.
        # White": the cue makes the everyday words "June" and "White" a name)
        "spouse",
        "partner",
        "child",
        "kid",
        "fiance",
        "fiancee",
        "grandma",
        "grandpa",
        "stepson",
        "stepdaughter",
        "stepfather",
        "stepmother",
        "neighbor",
        "escort",
        "helper",
        "maid",
        "colleague",
        # relations and roles in Malay, Indonesian, Spanish, French and German (issue 26)
        *("pesakit", "pasien", "isteri", "istri", "suami", "anak", "waris", "penjaga"),
        *("paciente", "esposa", "esposo", "hijo", "hija", "madre", "padre", "hermano"),
        *("hermana", "patiente", "épouse", "époux", "fils", "fille", "mère", "père"),
        *("patientin", "ehefrau", "ehemann", "sohn", "tochter", "mutter", "vater"),
        "pt",
        "nok",
        "tuan",
        "herr",
        "frau",
        "señor",
        "senor",
        "señora",
        "senora",
        "monsieur",
        "madame",
        "mme",
        "mlle",
        "mr",
        "mrs",
        "ms",
        "mdm",
        "miss",
        "madam",
        "dr",
        "prof",
        "patient",
        "client",
        "customer",
        "son",
        "daughter",
        "wife",
        "husband",
        "mother",
        "father",
        "brother",
        "sister",
        "named",
        "called",
        "caregiver",
        "nok",
        "nephew",
        "niece",
        "aunt",
        "aunty",
        "auntie",
        "uncle",
        "cousin",
        "grandson",
        "granddaughter",
        "grandmother",
        "grandfather",
        "carer",
        "guardian",
        "friend",
        "neighbour",
    ]
)

# Titles: whatever word follows is a name, even in lower case ("mdm rosnah", "mr tan").
TITLES = frozenset(
    [
        *("mr", "mrs", "ms", "mdm", "miss", "madam", "mister", "prof", "encik", "puan"),
        # other languages' titles (issue 26): "Herr Müller", "Señora López", "Mme Dubois"
        *("tuan", "herr", "frau", "señor", "senor", "señora", "senora", "señorita"),
        *("senorita", "monsieur", "madame", "mme", "mlle"),
        # Hindi "Shri", "Shrimati"/"Smt"; Sesotho and Setswana "Ntate" (Mr); Thai "Khun"
        *("shri", "shrimati", "smt", "ntate", "khun"),
    ]
)

# Relations and roles, and the verbs of reaching someone: a following capitalised word, or a
# lower-case known name, is the person ("spoke to siti", "Contact Bernadette on...").
RELATIONS = (
    "patient|client|customer|son|daughter|wife|husband|mother|father|brother|sister|nephew|"
    "niece|aunt|aunty|auntie|uncle|cousin|grandson|granddaughter|grandmother|grandfather|"
    "grandma|grandpa|friend|neighbour|neighbor|caregiver|carer|guardian|nok|named|called|"
    "nurse|pharmacist|interpreter|colleague|dr|doctor|pt|spouse|partner|fiance|fiancee|"
    "son-in-law|daughter-in-law|mother-in-law|father-in-law|brother-in-law|sister-in-law|"
    "stepson|stepdaughter|stepmother|stepfather|helper|maid|escort|kid|child|name|kin|"
    # the parties and people of court, tribunal, claim and booking records
    "claimant|complainant|respondent|appellant|plaintiff|defendant|petitioner|accused|"
    "deceased|insured|policyholder|tenant|landlord|guest|passenger|beneficiary|"
    # kinship words of other languages and notes: "dtr" (daughter), Zulu and Xhosa
    # "gogo"/"mkhulu" (grandmother/grandfather), Filipino "lola"/"lolo", "tita"/"tito",
    # "kuya" (older brother)
    "dtr|gogo|mkhulu|lola|lolo|tita|tito|kuya|"
    # an IT ticket's user ("user tham cannot log in")
    "user"
)
#: Kinship words: after one, a capitalised everyday word alone is the relative's name
#: ("dtr Grace", "son Will"), not only a surer one.
KINSHIP = frozenset(
    {
        *("son", "daughter", "dtr", "wife", "husband", "spouse", "mother", "father"),
        *("brother", "sister", "nephew", "niece", "aunt", "aunty", "auntie", "uncle"),
        *("cousin", "grandson", "granddaughter", "grandmother", "grandfather", "grandma"),
        *("grandpa", "stepson", "stepdaughter", "stepmother", "stepfather", "fiance"),
        *("fiancee", "son-in-law", "daughter-in-law", "mother-in-law", "father-in-law"),
        *("brother-in-law", "sister-in-law", "gogo", "mkhulu", "lola", "lolo", "tita"),
        *("tito", "kuya"),
    }
)
#: Verbs of reaching someone, one word each (contact, called, told...).
REACH_WORDS = (
    "contact|contacted|call|called|calling|ring|rang|phone|phoned|email|emailed|text|texted|"
    "message|messaged|tell|told|ask|asked|inform|informed|remind|reminded|meet|met|reached"
)
#: The verbs of reaching someone, with the two-word ones (spoke to, met with).
REACH_VERBS = (
    rf"{REACH_WORDS}|"
    r"(?:spoke|speak|spoken|talked|talk|met|meeting|chatted|chat|discussed)[ \t]+(?:to|with)"
)
#: The words before a nickname ("known as Kuttan", "goes by kumaresh"): read as a relation
#: is, so a lower-case word no dictionary holds after them is a name.
NICKNAME_CUES = r"known[ \t]+as|goes[ \t]+by|nicknamed"
NICKNAME_WORDS = frozenset({"known as", "goes by", "nicknamed"})
#: The relations and roles as a set, to tell a relation cue from a verb cue.
RELATION_WORDS = frozenset(RELATIONS.split("|"))
#: Every cue word as one alternation (the scanner's quick filter for cued names).
CUE_WORDS = rf"{'|'.join(sorted(TITLES))}|{RELATIONS}|{REACH_VERBS}"

# Lower-case words a title may be followed by that are not a name ("the dr said").
NOT_AFTER_TITLE = frozenset(
    [
        "and",
        "or",
        "is",
        "was",
        "has",
        "had",
        "will",
        "would",
        "said",
        "says",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "from",
        "by",
        "not",
        "also",
        "then",
        "who",
        "as",
        "are",
        "the",
        "a",
        "an",
        "his",
        "her",
        "their",
        "this",
        "that",
        "be",
        "been",
        "did",
        "does",
        "can",
    ]
)

# After these a single everyday word is still a name ("maiden name is Grant").
NAMING_WORDS = frozenset(["name", "named"])

# Words around a run of capitalised words that say it names a person, or an organisation.
WEAK_CUES = frozenset(
    [
        "to",
        "with",
        "by",
        "from",
        "kin",
        "contact",
        "cc",
        "attn",
        "for",
        "informed",
        "told",
        "and",
        "employee",
        "recipient",
        "up",
        "per",
        "escort",
        "visitor",
        "applicant",
        # a case caption's parties: "X v Y", "X vs Y"
        "v",
        "vs",
        "versus",
    ]
)
#: After a name-like piece, the word that makes it a party of a case ("X v Y").
CASE_PARTY_WORDS = frozenset({"v", "vs", "versus"})
PERSON_VERBS = frozenset(
    [
        "attended",
        "called",
        "reports",
        "reported",
        "said",
        "says",
        "was",
        "is",
        "has",
        "had",
        "visited",
        "came",
        "phoned",
        "emailed",
        "presented",
        "complained",
        "declined",
        "agreed",
        "requested",
        "asked",
        "lives",
        "lived",
        "died",
        "consented",
        "refused",
        "wants",
        "will",
        "who",
        "herself",
        "himself",
        "did",
        "does",
    ]
)
ORGANISATION_WORDS = frozenset(
    [
        "hospital",
        "hosp",
        "clinic",
        "polyclinic",
        "chemist",
        "chemists",
        "centre",
        "center",
        "programme",
        "program",
        "life",
        "holdings",
        "bank",
        "school",
        "university",
        "college",
        "institute",
        "foundation",
        "trust",
        "group",
        "ltd",
        "pte",
        "inc",
        "corp",
        "hub",
        "mall",
        "plaza",
        "building",
        "tower",
        "park",
        "road",
        "street",
        "avenue",
        "drive",
        "monitor",
        "insurance",
        "pharmacy",
        "medical",
        "healthcare",
        "health",
        "station",
        "airport",
        "library",
        "home",
        "homes",
        "hospice",
        "society",
        "association",
        "church",
        "temple",
        "mosque",
        "ministry",
        "council",
        "agency",
        "enterprise",
        "enterprises",
        "trading",
        "llp",
        "co",
        "company",
        "corporation",
        "restaurant",
        "cafe",
        "hotel",
        "market",
        "kindergarten",
        "academy",
        "services",
        "nursing",
        "dental",
        "surgery",
        "practice",
        "partners",
        "authority",
        "commission",
        "bureau",
        "committee",
        "board",
        "department",
        "office",
        # firms and places of worship named after people ("Lim Brothers", "Kenmare Motors")
        "brothers",
        "motors",
        "cathedral",
        "chapel",
        # firms' legal forms ("X plc", "X LLC", "X GmbH", "X Sdn Bhd", "PT X Tbk")
        *("plc", "llc", "gmbh", "bhd", "berhad", "sdn", "pty", "tbk", "pvt", "limited"),
        # airlines, embassies, palaces (hotels), elementary schools, food firms, a
        # partnership ("Desai & Associates")
        *("airways", "airlines", "embassy", "consulate", "palace", "elementary", "foods"),
        *("industries", "resort", "resorts", "associates"),
    ]
)

# Verbs that, after one capitalised word, say a person is meant ("Kuldeep says", "Thivya
# complained"); "said" and "is" are left out: places and things take them too.
SURE_PERSON_VERBS = frozenset(
    [
        "says",
        "complained",
        "complains",
        "agreed",
        "agrees",
        "consented",
        "refused",
        "declined",
        "attended",
        "phoned",
        "emailed",
        "texted",
        "requested",
        "denies",
        "denied",
        "feels",
        "felt",
        "wants",
        "wanted",
        "asked",
        "told",
        "mentioned",
        "promised",
        "prefers",
        "insisted",
        "apologised",
        "apologized",
        "thanked",
    ]
)

# After a name-like word, these say it names a company, a service or a team, not a person.
SERVICE_WORDS = ORGANISATION_WORDS | frozenset(
    [
        "driver",
        "agent",
        "team",
        "staff",
        "officer",
        "hotline",
        "helpline",
        "desk",
        "counter",
        "branch",
        "department",
        "dept",
        "service",
        "services",
        "rep",
        "representative",
        "app",
        "website",
        "office",
        "support",
        "account",
        "customer",
        "ward",
        "unit",
        "lab",
        "laboratory",
        "company",
        "shop",
        "store",
        "counsellor",
        "worker",
    ]
)

# Words that come before the name of a place or an organisation in Malay and Indonesian
# (and in some English names: "Hospital Sultanah Aminah", "Klinik Kesihatan Bedok"): the
# capitalised words right after them name it, not a person.
ORGANISATION_BEFORE = frozenset(
    [
        "hospital",
        "klinik",
        "universiti",
        "masjid",
        "surau",
        "sekolah",
        "kolej",
        "institut",
        "politeknik",
        "maktab",
        "dewan",
        "pusat",
        "taman",
        "kampung",
        "kg",
        "jalan",
        "jln",
        "lorong",
        "lor",
        "lebuh",
        "persiaran",
        "sakit",
        "puskesmas",
        "syarikat",
        "yayasan",  # a Malay foundation: "Yayasan Khazanah"
        # storms are given people's names: "Hurricane Beryl", "Typhoon Agnes"
        *("hurricane", "cyclone", "typhoon", "storm"),
        # a saint's church, school or hospital ("St Teresa's", "Saint Patrick's"), an Irish
        # county ("Co. Mayo")
        "st",
        "saint",
        "co",
    ]
)
