"""Street addresses: house or block number, street, unit, town and postal code.

The PDPC guide (Annex B) treats an address as an indirect identifier to generalise to a
zone; HIPAA Safe Harbor removes every geographic subdivision smaller than a state
(identifier B). Shapes recognised (one compiled expression, bounded repetitions so a
long cell cannot make it backtrack):

* number first: ``104 Clementi Avenue 2 #09-57 Singapore 806799``, ``Blk 123 Jurong West
  Street 41``, ``221B Baker Street, London NW1 6XE``, ``1600 Pennsylvania Ave NW,
  Washington, DC 20500``: a number, 1-4 capitalised words, a street word (Street, Road,
  Avenue, Drive, Lane, Crescent, ...), then optionally a street number, a unit
  (``#09-57``, ``Apt 4``), a town and a postal code (Singapore 6 digits, UK postcode,
  US state + ZIP, a bare 6-digit Singapore postal or Indian PIN code); Indian street words
  (Marg, Nagar, Salai, Layout...) count as street words;
* Malay street names: ``Jalan Bukit Merah``, ``Lorong 1 Toa Payoh`` with the same tail;
* any case when a unit number, a block number or a Malay street word and a house number
  make it an address: ``blk 7 toa payoh lor 1 #02-33``, ``45 jalan sultan #01-02``;
* a street name without a street word followed by its postal code: ``12 Cavenagh 229603``;
* Indian: ``H.No. 49, Nair Colony, Belgaum - 590001``, ``11/13, Royal Palms, MG Road``;
* Philippine block and lot: ``Blk 9 Lot 3 Phase 1, Brgy. Mabini, Batangas City 4200``;
* ``Singapore 806799`` / ``S(806799)`` alone (a postal code named as such), a UK postcode
  alone (``SW1A 1AA``), an Irish Eircode alone (``D04 W5N8``), a Singapore unit number
  alone (``#11-204``), a Canadian postal code (``L6J 4K2``);
* a house or flat number, comma-separated parts and a postal code without a street word
  (``3 The Orchards, Little Hadham, Ware SG11 2DX``; a code of digits only after a town of
  the gazetteer); a house numbered as such (``H.No 4-1-22``), a Hong Kong floor (``Flat 7,
  15/F``), an estate's block (``Kwai Shing Block 12``), a building before its parts,
  villages and districts after their word (``Desa Sukamaju``, ``village Bhadra``),
  Indonesian ``Jl.``/``Gg.`` streets with ``No. 12``, a street named without a number
  after "on", "at", "along", "address" (``Wick Lane Road``).

Each match is then read whole (:func:`address_span`, :func:`widen_address`): the
comma-separated parts after it up to the last that ends in a postal code, is a town of the
gazetteer (:mod:`core.detect.place_names`) or holds an address word, stopping at a title
or a contact word ("12 Rata Street, Mount Albert, Auckland 1025"); before a postal code
found alone, the town of the gazetteer written before it ("Galway H91 X2C7"). HIPAA removes
the town and the code with the street.
"""

from __future__ import annotations

import re
import unicodedata

from core.detect.lexicon import name_lists
from core.detect.place_names import place_names

__all__ = ["ADDRESS", "address_span", "find_addresses", "widen_address"]

# Titles and words that start what follows an address, not a part of it ("12 Rata Street,
# Dr Aroha Ngata present", "..., Tel 6123 4567").
TITLES = (
    r"Dr|Mr|Mrs|Ms|Mdm|Miss|Mx|Prof|Sir|Dame|Nurse|Sister|Pt|Patient|"
    r"Tel|Ph|HP|Mob|Mobile|Phone|Fax|Email|E-mail|"
    r"DOB|NRIC|FIN|NHS|MRN|ID|Then|And|But|Contact|Call|Ref|Dear|Thanks|Regards"
)
_STREET = (
    r"(?:Street|St|Road|Rd|Avenue|Ave|Drive|Dr|Lane|Ln|Crescent|Cres|Close|Way|Boulevard|"
    r"Blvd|Place|Pl|Court|Ct|Terrace|Walk|Link|Rise|View|Grove|Gardens|Park|Square|Sq|"
    r"Highway|Hwy|Central|Circle|Parkway|Pkwy|Row|Mews|Hill|Heights|Loop|Green|Quay|"
    # more US street suffixes of USPS Publication 28 (Appendix C1)
    r"Trail|Trl|Ferry|Spur|Crest|Forks?|Mills?|Motorway|Forge|Ridges?|Course|Point|Wells|"
    r"Villages?|Dam|Squares|Parkways|Unions?|Turnpike|Expressway|Expy|Freeway|Pike|Pass|"
    r"Path|Pines|Ranch|Shores?|Springs|Summit|Trace|Valley|Vista|Landing|Junction|Harbou?r|"
    r"Haven|Glen|Estates|Creek|Cove|Commons?|Canyon|Brook|Bridge|Bluff|Bend|Alley|Manor|"
    r"Meadows?|Orchard|Oval|Plains?|Prairie|Stream|Ville|Walks|Garden|Gateway|Isle|Knolls?|"
    # grand streets named without a usual suffix ("Grand Concourse", "The Esplanade")
    r"Concourse|Esplanade|Promenade|Parade|Pde|Embankment|Causeway|"
    # Indian street and locality words: Marg (road), Salai (road, Tamil), Nagar, Colony,
    # Layout, Main, Cross (Bengaluru's numbered roads), Chowk, Bagh, Vihar, Enclave
    r"Marg|Salai|Nagar|Colony|Layout|Main|Cross|Chowk|Bagh|Vihar|Enclave)"
)
# Street name words: capitalised, or an ordinal ("225 E 57th St", "5th Avenue").
_WORDS = r"(?:(?:[A-Z][A-Za-z'’.-]*|[0-9]{1,3}(?:st|nd|rd|th))\s+){1,4}"
_UNIT = (
    r"(?:,?\s*#[0-9]{1,3}-[0-9]{1,5}[A-Z]?|,?\s*(?:Apt|Unit|Suite|Flat|Ste)\.?\s*#?[0-9A-Z-]{1,6})"
)
_UK_POSTCODE = r"[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}"
# A Canadian postal code (Canada Post: no D, F, I, O, Q, U; no W or Z first): "L6J 4K2".
_CA_POSTCODE = r"[ABCEGHJ-NPRSTVXY][0-9][ABCEGHJ-NPRSTV-Z] [0-9][ABCEGHJ-NPRSTV-Z][0-9]"
# An Australian state or a Canadian province after a town ends an address as a postal
# code does ("122 Dover, Goodna QLD", "232 Simcoe, Edmonton AB").
_STATE = r"(?:NSW|VIC|QLD|SA|WA|TAS|ACT|NT|ON|QC|NS|NB|MB|BC|PE|SK|AB|NL|YT|NU)"
# Singapore "Singapore 806799"/"S(806799)", a UK postcode, a US state and ZIP code, or a
# bare 6-digit code (Singapore's postal code, India's PIN code) ending the address.
_POSTAL = (
    rf"(?:(?:Singapore|S)\s*\(?[0-9]{{6}}\)?|{_UK_POSTCODE}|[A-Z]{{2}}\s+[0-9]{{5}}(?:-[0-9]{{4}})?"
    # an Australian state and postcode ("Sydney NSW 2000")
    r"|(?:NSW|VIC|QLD|SA|WA|TAS|ACT|NT)\s+[0-9]{4}"
    # a Canadian province and postal code ("Oakville ON L6J 4K2")
    rf"|(?:[A-Z]{{2}}\s+)?{_CA_POSTCODE}"
    r"|[0-9]{6})"
)
_TOWN = r"(?:,?\s+[A-Z][A-Za-z]*\.?(?:\s+[A-Z][A-Za-z]+){0,2})"
# A postal code before its town, as Malaysia and continental Europe write it.
_CODE_THEN_TOWN = r"(?:,?\s+[0-9]{5}\s+[A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+){0,2})"
_TAIL = rf"(?:\s+[0-9]{{1,3}}[A-Z]?)?{_UNIT}?(?:{_TOWN}?,?\s+{_POSTAL}|{_CODE_THEN_TOWN})?"
# A flat or house named before its number ("Flat 12, MG Road"), or a unit before the
# house number ("Apt 4B, 225 E 57th St", "Unit 5, 27 Smith St"); an Australian unit and
# house number ("3/45 King St").
_BEFORE_NUMBER = (
    r"(?:(?:Apt|Unit|Suite|Flat|Ste)\.?\s*#?[0-9A-Z-]{1,6},\s+)?"
    r"(?:(?:Blk|Block|Flat|Apt|Unit|House|[Nn]o\.?)\s+)?(?:[0-9]{1,4}/)?"
)
_NUMBER_FIRST = rf"{_BEFORE_NUMBER}[0-9]{{1,5}}[A-Z]?,?\s+{_WORDS}{_STREET}\.?(?![A-Za-z])(?:\s+(?:NW|NE|SW|SE|N|S|E|W)(?![\w]))?"
# Indonesian "Jl." and "Gg." (gang, a lane; not "Gang" written out, also a given name)
# too, with the house number after the name: "Jl. Pemuda No. 12".
_MALAY = (
    r"(?:(?:Blk|Block|No\.?|Lot)\s+[0-9]{1,5}(?:-[0-9]{1,4})?[A-Z]?,?\s+|[0-9]{1,5}[A-Z]?,?\s+)?"
    r"(?:Jalan|Jln\.?|Jl\.|Gg\.|Lorong|Lor)\s+(?:[0-9]{1,3}\s+)?(?:[A-Z][A-Za-z0-9/]+)"
    r"(?:\s+(?!No\.)(?:[A-Z][A-Za-z0-9/]+|[0-9]{1,3}/[0-9]{1,3}\b)){0,3}"  # "Jalan SS 2/24"
    r"(?:,?[ \t]+No\.[ \t]*[0-9]{1,4}[A-Z]?)?"
)
# Lower-case (or any-case) addresses, as typed in a hurry: "blk 7 toa payoh lor 1 #02-33",
# "45 jalan sultan #01-02", "blk 123 jurong west st 41". A word here is any word but the
# small words that go on the sentence ("and", "near", "since"...), so the address stops
# where the sentence goes on.
_GOES_ON = (
    r"and|or|but|the|a|an|to|at|on|in|of|for|with|from|by|near|since|is|was|were|has|had|"
    r"have|he|she|they|his|her|their|it|we|i|you|where|when|who|which|that|this|then|so|"
    r"because|after|before|lives|lived|stays|stayed|moved|until|till|tel|ph|hp|call|contact"
)
_ANY_WORD = rf"(?!(?:{_GOES_ON})\b)[A-Za-z][A-Za-z'’.-]*"
_SMALL_NUMBER = r"[0-9]{1,3}[A-Za-z]?"
_BLOCK = r"(?i:blk|block|bk)[ \t]+[0-9]{1,4}[A-Za-z]?"
_HOUSE = r"[0-9]{1,5}[A-Za-z]?"
_ANY_WORDS = rf"{_ANY_WORD}(?:[ \t]+(?:{_ANY_WORD}|{_SMALL_NUMBER})){{0,6}}"
_SG_UNIT = r",?[ \t]*#[0-9]{1,3}-[0-9]{1,5}[A-Za-z]?"
_LOWER_STREET = r"street|st|road|rd|avenue|ave|lane|crescent|boulevard|terrace|drive|close"
_SG_POSTAL_ANY_CASE = r"(?:,?[ \t]*(?i:singapore|s)?[ \t]*\(?[0-9]{6}\)?)"
_ANY_CASE = (
    # a block or house number, words, a unit number: the unit makes it an address
    rf"(?:{_BLOCK}|{_HOUSE}),?[ \t]+{_ANY_WORDS}{_SG_UNIT}{_SG_POSTAL_ANY_CASE}?"
    # a block number, words, a street word in any case and maybe a street number
    rf"|{_BLOCK},?[ \t]+(?:{_ANY_WORD}[ \t]+){{1,4}}(?i:{_STREET})\.?"
    rf"(?:[ \t]+{_SMALL_NUMBER})?{_SG_POSTAL_ANY_CASE}?"
    # a house number, words and a street word in lower case, then a postal code of
    # Singapore or the UK: "12 orchard road singapore 238826", "221b baker street london
    # nw1 6xe" (the code makes it an address)
    rf"|{_HOUSE},?[ \t]+(?:{_ANY_WORD}[ \t]+){{1,3}}(?i:{_LOWER_STREET})\.?"
    rf"(?:{_SG_POSTAL_ANY_CASE}|,?[ \t]+(?:{_ANY_WORD}[ \t]+){{0,2}}(?i:{_UK_POSTCODE}))"
    # a house or block number before a Malay street word in lower case: "12 jalan besar"
    rf"|(?:(?i:no)\.?[ \t]+)?(?:{_BLOCK}|{_HOUSE}),?[ \t]+(?i:jalan|jln|lorong|lor)[ \t]+"
    rf"(?:{_SMALL_NUMBER}[ \t]+)?"
    rf"{_ANY_WORD}(?:[ \t]+{_ANY_WORD}){{0,3}}{_SG_POSTAL_ANY_CASE}?"
    # a house number, words and a street word in lower case, then a comma and a word:
    # an address when that word is a town of the gazetteer ("42 wattle grove, ballarat";
    # address_span checks and reads the town with it)
    rf"|(?P<lower_street>[0-9]{{1,5}}[a-z]?[ \t]+(?:[a-z][a-z'’-]*[ \t]+){{1,3}}"
    rf"(?:{_LOWER_STREET}|grove|place|way|court|parade)\.?(?=,[ \t]*[a-z]))"
)
# A house number and a street name without a street word, ended by its postal code
# ("12 Cavenagh 229603", "30 Bukit Timah Singapore 259712"): the whole address, not only
# the code, is an address.
# (not a title or an ID word: "SR-88213, ID 850214 5123 086" is a staff number and an ID;
# nor a code that more digits follow, part of a longer number)
_NAME_THEN_CODE = (
    rf"[0-9]{{1,5}}[A-Z]?,?\s+(?:(?!(?:{TITLES})\b)[A-Z][A-Za-z'’.-]*\s+){{1,4}}"
    rf"(?:{_UNIT},?\s+)?(?:(?:Singapore|S)\s*\(?[0-9]{{6}}\)?|[0-9]{{6}}(?![ \t][0-9]))"
)
# Indian addresses: a house number with a slash or named ("H.No. 49", "No. 20", "Flat
# 14D", "11/13"), comma-separated parts (a building, a street, a locality, a town), then
# a 6-digit PIN code ("Mumbai 400014", "Rampur - 932686") or a street word.
_IN_HOUSE = (
    r"(?:(?:H\.?[ \t]?No|No|Door[ \t]+No|Plot[ \t]+No)\.?[ \t]*|(?:Flat|Plot|House)[ \t]+|#[ \t]?)"
    r"[0-9]{1,4}[A-Za-z]?(?:[/-][0-9]{1,4}[A-Za-z]?){0,3}"
    r"|[0-9]{1,4}[A-Za-z]?/[0-9]{1,4}[A-Za-z]?"
)
_IN_PART = r"[A-Z0-9][A-Za-z0-9.'’-]*(?:[ \t]+[A-Z0-9][A-Za-z0-9.'’-]*){0,3}"
_INDIAN = (
    rf"(?:{_IN_HOUSE}),[ \t]+(?:{_IN_PART},[ \t]+){{0,5}}"
    rf"(?:{_IN_PART}(?:[ \t]*-[ \t]*|,?[ \t]+)[0-9]{{6}}"
    rf"|(?:[A-Z0-9][A-Za-z0-9.'’-]*[ \t]+){{1,3}}{_STREET}\.?(?![A-Za-z]))"
)
# A post-office box or bag with its town and code ("PO Box 123, Austin TX 78701", "P.O. Box
# KS 1453, Kumasi", "Private Bag X17, Brits"), an Australian roadside mail box ("RMB 440"),
# a Canadian rural route, a Malaysian "Peti Surat" (not "RR" alone: a respiratory rate).
_BOX_WORD = (
    r"(?:(?:G\.?P\.?O\.?|P\.?[ \t]?O\.?)[ \t]+Box|Post[ \t]+Office[ \t]+Box|Private[ \t]+Bag|"
    r"Locked[ \t]+Bag|Mail[ \t]*Bag|P\.?M\.?B\.?|RMB|Rural[ \t]+Route|Peti[ \t]+Surat)"
)
_PO_BOX = (
    rf"{_BOX_WORD}[ \t]+(?:[A-Z]{{1,3}}[ \t]?)?[0-9]{{1,6}}(?:-[0-9]{{5}})?"
    rf"(?:{_TOWN}?,?\s+{_POSTAL}|{_CODE_THEN_TOWN})?"
)
# Continental European streets, the street word first or a German compound, then the
# house number, and maybe the postal code and town: "48 Rue de Rivoli, 75004 Paris",
# "Calle Mayor 12, 28013 Madrid", "Via Roma 5", "Musterstraße 5, 10115 Berlin".
_EU_STREET_WORD = (
    r"(?:Rue|Avenue|Boulevard|Bd|Allée|Impasse|Chemin|Place|Calle|Avenida|Avda\.?|Paseo|"
    r"Carrer|Camino|Via|Viale|Piazza|Corso|Rua|Travessa|Largo|Praça)"
)
_EU_NAME = r"(?:(?:de|du|des|la|le|les|del|de la|dos|das|da|di|della|dei)\s+)?[A-ZÀ-Þ][\w'’-]+(?:\s+[A-ZÀ-Þ][\w'’-]+){0,3}"
_EU_CODE_TOWN = r"(?:,?\s+[0-9]{4,5}\s+[A-ZÀ-Þ][\w'’-]+(?:\s+[A-ZÀ-Þ][\w'’-]+){0,2})?"
_EUROPEAN = (
    rf"[0-9]{{1,4}}[a-z]?,?\s+{_EU_STREET_WORD}\s+{_EU_NAME}{_EU_CODE_TOWN}"
    rf"|{_EU_STREET_WORD}\s+{_EU_NAME},?\s+[0-9]{{1,4}}[a-zA-Z]?\b{_EU_CODE_TOWN}"
    # ("-ring" after a consonant, as in "Kaiserring": "Hearing 4", "Offering 2" are English)
    r"|[A-ZÀ-Þ][a-zäöüß]+(?:straße|strasse|str\.|weg|platz|allee|gasse|damm|ufer"
    r"|(?<=[a-zäöüß]{3}[b-df-hj-np-tv-xzß])ring)"
    rf"\s+[0-9]{{1,4}}[a-z]?\b{_EU_CODE_TOWN}"
)
# A UK postcode alone ("SW1A 1AA"): written with its space, in capitals.
_UK_POSTCODE_ALONE = r"[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}"
# An Irish Eircode alone ("D04 W5N8"): a routing key (a letter of the 15 Eircode uses and
# two digits, or D6W), a space, and 4 characters of the same letters and digits, at least
# one of each (so a grid reference or a code of letters only is left).
_EIRCODE_LETTERS = "ACDEFHKNPRTVWXY"
_EIRCODE = (
    rf"(?:[{_EIRCODE_LETTERS}][0-9]{{2}}|D6W) (?=[A-Z0-9]{{0,3}}[0-9])(?=[A-Z0-9]{{0,3}}[A-Z])"
    rf"[0-9{_EIRCODE_LETTERS}]{{4}}"
)
# A Philippine subdivision address by block and lot ("Blk 9 Lot 3 Phase 1, Brgy. Mabini,
# Batangas City 4200"), then its comma-separated parts (barangay, subdivision, city, ZIP).
# a word of a part; its full stop kept only before the next word ("Brgy. Mabini")
_PH_WORD = r"[A-Z0-9][A-Za-z0-9'’-]*(?:\.(?=[ \t]+[A-Z]))?"
_PH_BLOCK_LOT = (
    r"(?:Blk|Block)\.?[ \t]*[0-9]{1,4}[A-Z]?,?[ \t]+Lot\.?[ \t]*[0-9]{1,4}[A-Z]?"
    r"(?:,?[ \t]+Phase[ \t]*[0-9IVX]{1,4})?"
    rf"(?:,[ \t]+{_PH_WORD}(?:[ \t]+{_PH_WORD}){{0,3}}){{0,5}}"
)
# A Singapore unit number alone ("#11-204"): a floor of two digits and a unit.
_SG_UNIT_ALONE = r"#[0-9]{2}-[0-9]{2,5}[A-Z]?"
# A house numbered as such ("H.No 4-1-22", "Door No. 5"): its locality and town follow
# (read by widen_address).
_NAMED_HOUSE = (
    r"(?:H\.?[ \t]?No|Door[ \t]+No|House[ \t]+No|Plot[ \t]+No)\.?[ \t]*"
    r"[0-9]{1,4}[A-Za-z]?(?:[/-][0-9]{1,4}[A-Za-z]?){0,3}"
)
# A Hong Kong floor ("15/F"), maybe after its flat or room: "Flat 7, 15/F".
_HK_FLOOR = r"(?:(?:Flat|Rm|Room|Unit|Shop|Suite)[ \t]*[0-9A-Z]{1,5},[ \t]+)?[0-9]{1,2}/F\b"
# A building or wing numbered before its parts ("Building 4, room 311, Lallubhai
# Compound"): an address once a part after it is one (widen_address).
# So is a dwelling named with its number ("Lot 52, Pembroke Hall, Kingston 20", "House 23,
# Street 7, Gulberg III, Lahore", "H/No. C 451/3, Kotobabi"; not "Unit": a hospital's).
_BUILDING = (
    r"(?P<building>(?:Building|Bldg\.?|Wing|House|Villa|Lot|Plot|Flat|Apt\.?|H/No\.?)[ \t]+"
    r"(?:[A-Z][ \t])?[0-9A-Z]{1,4}(?:[/-][0-9]{1,4}[A-Z]?)?(?=,[ \t]))"
)
# An estate's block or tower ("Kwai Shing Block 12"): two or three capitalised words.
_ESTATE_BLOCK = (
    r"(?=[A-Z][a-z]+[ \t]+[A-Z])(?:[A-Z][a-z]+[ \t]+){2,3}(?:Block|Tower)[ \t]+[0-9]{1,3}[A-Z]?\b"
)
# A village, district or subdivision named after its word: Indonesian "Dusun", "Desa",
# "Kel.", "Kec.", "Kab."; Indian "village", "tehsil", "taluk", "mandal"; Pakistani
# "Mohalla" (a neighbourhood).
ADMIN_WORD = (
    r"(?:(?-i:Dusun|Desa|Kampung|Kel\.|Kelurahan|Kec\.|Kecamatan|Kab\.|Kabupaten|Kota|Mohalla)"
    r"|village|tehsil|taluka?|mandal)"
)
_ADMIN_AREA = rf"{ADMIN_WORD}[ \t]+[A-Z][\w'’-]+(?:[ \t]+[A-Z][\w'’-]+){{0,2}}"
# A place in an Irish county ("Ballinagh, Co. Cavan") or a Jamaican parish ("Lime Hall,
# St. Ann", "Top Hill District, St. Elizabeth"): the county or parish names it as an
# address (not a church or hospital named after the saint: "St. Ann's", "St. James
# Hospital").
_IE_COUNTY = (
    r"Antrim|Armagh|Carlow|Cavan|Clare|Cork|Derry|Donegal|Down|Dublin|Fermanagh|Galway|Kerry|"
    r"Kildare|Kilkenny|Laois|Leitrim|Limerick|Londonderry|Longford|Louth|Mayo|Meath|Monaghan|"
    r"Offaly|Roscommon|Sligo|Tipperary|Tyrone|Waterford|Westmeath|Wexford|Wicklow"
)
_JM_PARISH = (
    r"St\.?[ \t](?:Andrew|Thomas|Mary|Ann|James|Elizabeth|Catherine)|Portland|Trelawny|Hanover|"
    r"Westmoreland|Manchester|Clarendon"
)
_PLACE_IN_COUNTY = (
    # (not from inside a hyphenated word: its words run on over "-", so a start at every
    # capital of "A-A-A-..." would read to the end each time, quadratic in a hostile cell)
    r"(?<![\w'’-])"
    rf"(?!(?:{TITLES})\b)(?:[A-Z][\w'’-]+[ \t]+){{0,2}}[A-Z][\w'’-]+,[ \t]+"
    rf"(?:Co\.?[ \t]+(?:{_IE_COUNTY})|{_JM_PARISH})(?![\w'’]|[ \t]+[A-Z])"
)
# A street named without a house number, after a word of place: "we lived on Wick Lane
# Road", "out on Pukekura Road" (the street word must be one that names a street).
_STREET_NAMED = (
    # (a capital first, then the word before it: one look-behind per width of word)
    r"(?=[A-Z][a-z])(?:(?<=\b(?:on|at|in) )|(?<=\boff )|(?<=\b(?:near|from) )|(?<=\balong )"
    r"|(?<=\baddress )|(?<=\baddress: ))"
    r"[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+){0,2}[ \t]+"
    r"(?:Street|Road|Avenue|Lane|Drive|Crescent|Boulevard|Terrace|Close|Grove|Highway)\b"
)
# A house (or flat) number, comma-separated parts and a postal code, with no street word
# ("3 The Orchards, Little Hadham, Ware SG11 2DX", "7, Nehru Gali, near Shiv Mandir,
# Navrangpura, Ahmedabad 380009"); a code of digits only counts after a known town
# (widen_address checks).
_CHAIN_WORD = r"[A-Z][\w'’-]*(?:\.(?=[ \t]+[A-Z]))?"  # its full stop only before a word
# (a postal code is no word of a part: "Newcastle NE4 9PQ" is a town and its code)
_CHAIN_TOKEN = (
    rf"(?!(?:{_UK_POSTCODE}|{_CA_POSTCODE}|{_STATE})(?![\w]))"
    rf"(?:{_CHAIN_WORD}|[0-9]{{1,3}}[A-Za-z]?(?:/[A-Za-z0-9]{{1,4}})*)"
)
_CHAIN_PART = (
    rf"(?:(?:near|opp\.?|behind|off|village|tehsil|taluka?|mandal)[ \t]+)?(?=[A-Z])(?!(?:{TITLES})\b)"
    rf"{_CHAIN_WORD}(?:[ \t]+{_CHAIN_TOKEN}){{0,3}}"
)
# A part of what follows an address may also be a unit in lower case ("room 311") or a
# house number and its street ("89 Pok Fu Lam Road" after "Flat C, 22/F, Tower 2").
_NEXT_PART_BODY = (
    rf"{_CHAIN_PART}|(?:room|rm|flat|unit|floor|level)[ \t]+[0-9A-Z]{{1,5}}\b"
    rf"|[0-9]{{1,5}}[A-Za-z]?[ \t]+{_CHAIN_WORD}(?:[ \t]+{_CHAIN_TOKEN}){{0,3}}"
)
_CHAIN_CODE = (  # (digits not followed by more digits: "9123 4567" is a phone)
    rf"(?:{_UK_POSTCODE}|(?:[A-Z]{{2}}[ \t]+)?{_CA_POSTCODE}|{_EIRCODE}|{_STATE}(?![\w])"
    rf"|(?P<digits>[0-9]{{4,6}}(?![ \t.-]?[0-9])))"
)
_HOUSE_START = (
    r"(?:(?:Flat|Unit|Apt|Rm|Room|Suite|House|Plot|Block|Blk|Tower|Building|Bldg|No)\.?[ \t]*"
    r"[0-9A-Z]{1,5}|[0-9]{1,4}[A-Za-z]?(?:/[0-9]{1,4})?)"
)
_CHAIN_TO_CODE = (
    rf"{_HOUSE_START},?[ \t]+{_CHAIN_PART}(?:,[ \t]+{_CHAIN_PART}){{0,6}}"
    rf"(?:[ \t]*-[ \t]*|,?[ \t]+)(?P<chain_code>{_CHAIN_CODE})"
)
# Every form starts with a digit, "#", a capital, or one of these words in lower case: the
# look-ahead spares trying each form at the other places (most words of a note).
_FIRST_CHARACTER = r"(?=[0-9#A-ZÀ-Þ]|(?i:blk|bk|block|no|village|tehsil|taluka?|mandal)\b)"
ADDRESS = re.compile(
    # (a chain of parts ending in a code last: where another form starts at the same place,
    # it is read, and widened, first)
    rf"(?<![\w#/]){_FIRST_CHARACTER}(?:{_PH_BLOCK_LOT}|(?:{_NUMBER_FIRST}|{_MALAY}){_TAIL}"
    rf"|{_INDIAN}|{_ANY_CASE}|{_NAME_THEN_CODE}|{_PO_BOX}|{_EUROPEAN}|{_CHAIN_TO_CODE}|{_NAMED_HOUSE}"
    rf"|{_HK_FLOOR}|{_BUILDING}|{_ESTATE_BLOCK}|{_ADMIN_AREA}|{_STREET_NAMED}|{_PLACE_IN_COUNTY}"
    rf"|(?:Singapore|S)\s*\(?[0-9]{{6}}\)?|{_SG_UNIT_ALONE}"
    rf"|(?P<postcode>{_UK_POSTCODE_ALONE}|{_EIRCODE}|{_CA_POSTCODE}))"
    r"(?![\w])"
)


# What may follow an address, part by part: ", Mount Albert", ", Auckland 1025", ", Lagos".
_NEXT_CODE = _CHAIN_CODE.replace("?P<digits>", "")
_NEXT_PART = re.compile(
    rf",[ \t]+(?:(?P<alone>{_NEXT_CODE})(?![\w])|(?P<part>{_NEXT_PART_BODY})"
    rf"(?:[ \t]*-?[ \t]*(?P<code>{_NEXT_CODE}))?)"
    r"(?![\w])"
)
# Words that make a part an address's part whatever its name: a street, an estate, a
# building, a village or district word, a numbered area ("Area 3", "Sector 4").
_PART_WORD = re.compile(
    rf"\b(?:{_STREET}|Estate|House|Court|Tower|Block|Mansions?|Building|Centre|Center|Plaza|"
    rf"Villas?|Compound|Apartments?|Flats|Chambers|Area|Sector|Phase|Zone|Ward|District|"
    # Thai village number, lane, subdistrict and district words ("Moo 4, Tambon Bang Kruai")
    rf"Garden|Gardens|Moo|Soi|Tambon|Amphoe)\b|^(?:{ADMIN_WORD})\b"
)


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


_REGION_CODES = frozenset(
    [
        "nsw",
        "vic",
        "qld",
        "sa",
        "wa",
        "tas",
        "act",
        "nt",
        "on",
        "qc",
        "ns",
        "nb",
        "mb",
        "bc",
        "pe",
        "sk",
        "ab",
        "nl",
        "yt",
        "nu",
    ]
)


def _a_place(part: str, after_more: bool) -> bool:
    """Whether a part after an address is a town, suburb or district of the gazetteer
    (:func:`core.detect.place_names.place_names`), whole or by its last words ("GRA
    Ikeja"); a single word that is also a person's name or an everyday English word
    ("Mary", "Lee", "Then") counts only when more of the address follows it."""
    words = _folded(part).replace(".", " ").split()
    # a postal district ("Dublin 9"), an Australian state or Canadian province ("Halifax NS")
    while len(words) > 1 and (words[-1].isdigit() or words[-1] in _REGION_CODES):
        words.pop()
    places = place_names()
    lists = name_lists()
    for n in range(len(words)):
        if " ".join(words[n:]) in places:
            if len(words) - n > 1 or after_more:
                return True
            return words[-1] not in lists.strong_lower and words[-1] not in lists.not_name
    return False


def widen_address(text: str, start: int, end: int) -> int:
    """Where the address ``text[start:end]`` ends once the parts after it that belong to it
    are read: comma-separated parts ending in a postal code, a known place, or a part
    with an address word (street, estate, block, village...); a part starting with a
    title or a contact word ends it. HIPAA Safe Harbor (§164.514(b)(2)(i)(B)) removes the
    town and the postal code as it removes the street."""
    parts: list[tuple[int, str, bool]] = []
    position = end
    while len(parts) < 8:
        match = _NEXT_PART.match(text, position)
        if match is None:
            break
        position = match.end()
        coded = match.group("code") is not None or match.group("alone") is not None
        parts.append((position, match.group("part") or "", coded))
    for i in range(len(parts) - 1, -1, -1):
        part_end, part, coded = parts[i]
        # (Singapore, a city-state, is the town of its addresses)
        if coded or _PART_WORD.search(part) or part == "Singapore":
            return part_end
        if _a_place(part, i < len(parts) - 1):
            return part_end
    return end


# A part just before a postal code found alone: "Knocknacarra, Galway H91 X2C7".
_PART_BEFORE = re.compile(
    rf"(?<![\w'’-])({_CHAIN_WORD}(?:[ \t]+{_CHAIN_WORD}){{0,2}})(?:,[ \t]*|[ \t]+)$"
)


def _widen_back(text: str, start: int) -> int:
    """Where a postal code found alone starts once the town before it, and the parts
    before that town, are read: each a place of the gazetteer or a part with an address
    word, up to three."""
    for _ in range(3):
        match = _PART_BEFORE.search(text, max(0, start - 60), start)
        if match is None:
            break
        part = match.group(1)
        # the whole part a place, no word of it a given name: "ask Mary SW1A 2AA", "Harold
        # Jenkins SW1A 1AA" are people ("Jenkins" is a town too)
        words = _folded(part).replace(".", " ").split()
        town = " ".join(words) in place_names()
        if not (_PART_WORD.search(part) or (town and not set(words) & name_lists().given.keys())):
            break
        start = match.start()
    return start


def _code_after_a_town(match: re.Match[str]) -> bool:
    """A chain of parts ending in a code of digits alone ("3, Good, Best 2024") is an
    address only when the word before the code is a known town, or a part names a
    street, an estate or a village."""
    if match.group("digits") is None:
        return True
    body = match.string[match.start() : match.start("chain_code")]
    parts = [p.strip(" \t-") for p in re.split(r",|^\S+\s", body) if p.strip(" \t-")]
    if any(_PART_WORD.search(p) for p in parts):
        return True
    # a list of single everyday words ("3, Good, Better, Best 2024") is no address
    english = name_lists().english
    if all(" " not in p and _folded(p) in english for p in parts):
        return False
    return bool(parts) and _a_place(parts[-1], True)  # the code follows the town


# The town after an address in lower case: ", ballarat".
_LOWER_TOWN = re.compile(
    r",[ \t]*(?P<two>(?P<one>[a-z][a-z'’-]+)(?![\w])(?:[ \t]+[a-z][a-z'’-]+(?![\w]))?)"
)


def address_span(match: re.Match[str]) -> tuple[int, int] | None:
    """The span of an :data:`ADDRESS` match once widened (:func:`widen_address`), or None
    for a chain of parts that is no address (:func:`_code_after_a_town`) or a building's
    number that no address part follows."""
    if match.group("chain_code") is not None and not _code_after_a_town(match):
        return None
    if match.group("lower_street") is not None:
        town = _LOWER_TOWN.match(match.string, match.end())
        if town is None:
            return None
        for group in ("two", "one"):  # "kota bharu" before "kota"
            if town.group(group) and _a_place(town.group(group), False):
                return match.start(), town.end(group)
        return None
    end = widen_address(match.string, match.start(), match.end())
    if end == match.end() and match.group("building") is not None:
        return None
    start = match.start()
    if match.group("postcode") is not None:
        start = _widen_back(match.string, start)
    return start, end


def find_addresses(text: str) -> list[tuple[int, int]]:
    """Spans ``(start, end)`` of street addresses inside ``text`` (see the module doc)."""
    return [span for m in ADDRESS.finditer(text) if (span := address_span(m)) is not None]
