"""National phone formats and identity numbers of more countries, and numbers after the
word that names them (issue 26). Every note below is written by hand for this file; the
expected span is read off the note."""

from __future__ import annotations

import pytest

from core.detect import find_entities
from core.detect.national_ids import valid_ird


def _found(note: str) -> list[tuple[str, str]]:
    return [(e.label, e.text) for e in find_entities(note)]


# Indonesian mobiles are 08xx written 4-4-4 (12 digits with the trunk 0), the shape of a
# Philippine PhilSys number: a trunk 0 and a valid Indonesian number make it a phone.
INDONESIAN_MOBILES = [
    ("Bu Ratna bisa dihubungi 0813-2277-9140 sore hari.", "0813-2277-9140"),
    ("kakaknya 0878 5512 3309 (WA saja)", "0878 5512 3309"),
    ("contact 0821-4410-7786 after 5pm", "0821-4410-7786"),
]


@pytest.mark.parametrize(("note", "phone"), INDONESIAN_MOBILES)
def test_an_indonesian_mobile_written_4_4_4_is_a_phone_not_a_philsys_number(note, phone):
    assert ("PHONE", phone) in _found(note)
    assert not [e for e in find_entities(note) if e.label == "ID"]


def test_a_philsys_number_without_a_trunk_zero_stays_an_id():
    assert ("ID", "4821-0937-5516") in _found("PhilSys 4821-0937-5516 presented at the desk")
    assert ("ID", "7720 1846 3391") in _found("her PSN 7720 1846 3391 on file")


# New Zealand IRD numbers: 8 or 9 digits, Inland Revenue's check digit (weights
# 3,2,7,6,5,4,3,2 on the 8 base digits padded to 8, remainder 0 -> check 0, else 11 - r;
# a result of 10 is recomputed with weights 7,4,3,2,5,2,7,6 and must not be 10 again).
# Worked by hand:
#   49-091-850: 0,4,9,0,9,1,8,5 x 3,2,7,6,5,4,3,2 = 0+8+63+0+45+4+24+10 = 154,
#               154 mod 11 = 0 -> check 0. Valid.
#   35-901-981: 0,3,5,9,0,1,9,8 x 3,2,7,6,5,4,3,2 = 0+6+35+54+0+4+27+16 = 142,
#               142 mod 11 = 10 -> 11 - 10 = 1. Valid.
#   136-410-132: 1,3,6,4,1,0,1,3 x 3,2,7,6,5,4,3,2 = 3+6+42+24+5+0+3+6 = 89,
#               89 mod 11 = 1 -> 11 - 1 = 10: second weights 7,4,3,2,5,2,7,6
#               = 7+12+18+8+5+0+7+18 = 75, 75 mod 11 = 9 -> 11 - 9 = 2. Valid.
#   49-091-851: check should be 0, is 1. Invalid.
def test_ird_check_digit_worked_by_hand():
    assert valid_ird("49-091-850")
    assert valid_ird("35-901-981")
    assert valid_ird("136-410-132")
    assert valid_ird("136410132")
    assert not valid_ird("49-091-851")
    assert not valid_ird("9-091-850")  # too short
    assert not valid_ird("150-000-000")  # above the range IR issues (10-150 million)


@pytest.mark.parametrize(
    ("note", "number"),
    [
        ("Client's IRD 49-091-850 confirmed by phone.", "49-091-850"),
        ("IRD number (35-901-981) was given to the caller", "35-901-981"),
        ("my ird no is 136410132 i think", "136410132"),
        ("tax refund: IRD 136-410-132, paid Tuesday", "136-410-132"),
    ],
)
def test_an_ird_number_after_its_name_is_an_id(note, number):
    assert ("ID", number) in _found(note)


def test_a_dashed_ird_number_with_a_valid_check_is_an_id_without_its_name():
    assert ("ID", "35-901-981") in _found("Refund sent for 35-901-981 on Friday.")
    # the same shape with a wrong check digit is not read as an ID without its name
    assert not [e for e in find_entities("Parts 35-901-982 in stock.") if e.label == "ID"]


@pytest.mark.parametrize(
    ("note", "number"),
    [
        # Nigeria's NIN (11 digits, no published check) after its name
        ("Applicant's NIN: 70412593386, verified at NIMC.", "70412593386"),
        ("the NIN is 31980442107 per slip", "31980442107"),
        # Kenya's national ID (7-8 digits) written in groups, after "ID"
        ("ID 27 640 318 produced at the counter", "27 640 318"),
        ("carried national ID no. 9 114 207 in wallet", "9 114 207"),
        # a US driving licence after "DL" alone
        ("ID checked: DL W215-7720-3318 (PA).", "W215-7720-3318"),
    ],
)
def test_numbers_after_an_id_word_in_groups_or_by_their_short_name(note, number):
    assert ("ID", number) in _found(note)


# HKID check digits worked by hand (a blank first letter counts 36, A=10 ... Z=35;
# weights 9..2; check = (11 - sum mod 11) mod 11, 10 written A):
#   Z683365: 36*9 + 35*8 + 6*7 + 8*6 + 3*5 + 3*4 + 6*3 + 5*2
#            = 324 + 280 + 42 + 48 + 15 + 12 + 18 + 10 = 749; 749 mod 11 = 1 -> 10 -> A
#   A123456: 324 + 10*8 + 1*7 + 2*6 + 3*5 + 4*4 + 5*3 + 6*2 = 324 + 80 + 77 = 481;
#            481 mod 11 = 8 -> 3
@pytest.mark.parametrize(
    ("note", "hkid"),
    [
        ("HKID Z 683365 (A) copy on file", "Z 683365 (A)"),
        ("holder of A123456 (3), tenant", "A123456 (3)"),
    ],
)
def test_a_hkid_written_with_spaces_is_found(note, hkid):
    assert ("ID", hkid) in _found(note)


def test_a_spaced_hkid_with_a_wrong_check_digit_is_not_read_as_one():
    assert not [e for e in find_entities("box Z 683365 (5) on shelf") if e.label == "ID"]


NOT_IDS = [
    "DL 5 ml of syrup given",  # a decilitre, not a licence
    "ID 2 patients in bay 4",  # a count, not a number
    "NIN 3 times a day",  # not 11 digits
    "Dose 0.5 mg at 14 00 then 18 00",
]


@pytest.mark.parametrize("note", NOT_IDS)
def test_short_counts_after_an_id_word_are_not_ids(note):
    assert not [e for e in find_entities(note) if e.label == "ID"]


def test_a_nik_printed_in_groups_is_one_id():
    # 3174 0554 0893 0002: province 31 (DKI Jakarta), regency 74, district 05, day 54 - 40
    # = 14 (a woman), month 08, year 93, serial 0002 (Permendagri 72/2019's codes)
    found = [(e.label, e.text) for e in find_entities("NIK 3174 0554 0893 0002 (KTP)")]
    assert found == [("ID", "3174 0554 0893 0002")]


def test_a_hkid_with_its_check_digit_after_a_space():
    # K345678: 36*9 + 20*8 (K) + 3*7 + 4*6 + 5*5 + 6*4 + 7*3 + 8*2 = 324 + 160 + 131 = 615;
    # 615 mod 11 = 10 -> 11 - 10 = 1
    assert ("ID", "K345678 1") in _found("hkid K345678 1, brother to collect")
    assert not [e for e in find_entities("box K345678 2 on shelf") if e.label == "ID"]


@pytest.mark.parametrize(
    ("note", "number"),
    [
        ("mum's IRD for the rebate query: 49091850, call back", "49091850"),
        ("Policy of the car owner: HX55120987 (Direct Line)", "HX55120987"),
        ("MRN for admission: 7730214 - bed 12", "7730214"),
    ],
)
def test_a_number_after_its_word_a_few_words_and_a_colon(note, number):
    assert ("ID", number) in _found(note)


def test_a_date_after_an_id_word_stays_a_date():
    assert ("DATE", "12/03/2025") in _found("ID of the visit: 12/03/2025, seen by GP")
    assert ("DATE", "12/03/2025") in _found("MRN: 12/03/2025")
    # words without a colon after them are no label: "ID for ages 12345 to 99999" is a range
    assert not [e for e in find_entities("account for most of 20245 cases") if e.label == "ID"]


@pytest.mark.parametrize(
    ("note", "number"),
    [
        ("work permit no. WP 0 2281904 6 expires Jan", "0 2281904 6"),
        ("Work Permit 0 5512087 3 cancelled by employer", "0 5512087 3"),
    ],
)
def test_a_work_permit_number_in_groups(note, number):
    assert ("ID", number) in _found(note)


def test_short_groups_after_an_id_word_are_no_id():
    assert not [e for e in find_entities("ID 2 3 4 on the list") if e.label == "ID"]


def test_a_number_asked_for_in_a_chat_and_answered_on_the_next_turn():
    chat = "agent: and your ID? | customer: 27 640 318 | agent: thanks"
    assert ("ID", "27 640 318") in _found(chat)
    chat = "agent: best contact number? | cust: 5473 2291 | agent: ok"
    assert ("PHONE", "5473 2291") in _found(chat)
    # a number that is no answer to the question stays what it is
    assert not [e for e in find_entities("any number? 3 of them") if e.label == "PHONE"]
