"""The detect-text helper's own check set (issue 26): notes written by hand BEFORE the
detector changes, never edited afterwards, and never used to tune a detector (the unit
tests in this folder are the tuning examples; these are written in a different way:
longer, mixed-topic case-worker notes with several entities each, names chosen from the
writer's memory of people's names in Singapore, India, the UK, the US and Malaysia, not
from any name list the detector reads).

Each note comes with its personal-data strings and their kind (name, phone, id, address,
date, email), and with strings that must NOT be redacted as a person or phone (false-alarm
checks). Run ``python -m tests.core.detect.check_notes`` to print recall and precision.
"""

from __future__ import annotations

# (note, [(kind, string), ...], [strings that are not personal data])
NOTES: list[tuple[str, list[tuple[str, str]], list[str]]] = [
    (
        "seen at home by sw. mdm lakshmi d/o ramasamy, 78, lives alone; daughter kavitha visits on sundays.",
        [("name", "lakshmi d/o ramasamy"), ("name", "kavitha")],
        [],
    ),
    (
        "Pt Bala reports dizziness since 3 June. Wife Meenakshi Sundaram accompanied him.",
        [("name", "Bala"), ("date", "3 June"), ("name", "Meenakshi Sundaram")],
        [],
    ),
    (
        "Referred from Khoo Teck Puat Hospital. Contact son Jeremy Lee on 9123 8876.",
        [("name", "Jeremy Lee"), ("phone", "9123 8876")],
        ["Khoo Teck Puat Hospital"],
    ),
    (
        "IC no. S 8823471 E verified against letter dated 14 Feb.",
        [("id", "S 8823471 E"), ("date", "14 Feb")],
        [],
    ),
    (
        "Mr Rajesh Kumar Nair F2240916Q requested copy of report.",
        [("name", "Rajesh Kumar Nair"), ("id", "F2240916Q")],
        [],
    ),
    (
        "Caller from Ohio gave her cell as 614.555.0183 and SSN 219099999 for the form.",
        [("phone", "614.555.0183"), ("id", "219099999")],
        ["Ohio"],
    ),
    (
        "uk relative, mr oliver hughes, reachable at 0161 496 0742, lives at 42 Oldham Road, Manchester M4 5EB.",
        [
            ("name", "oliver hughes"),
            ("phone", "0161 496 0742"),
            ("address", "42 Oldham Road, Manchester M4 5EB"),
        ],
        [],
    ),
    (
        "Brother in Chennai: Senthil Murugan, mobile +91 94441 23456.",
        [("name", "Senthil Murugan"), ("phone", "+91 94441 23456")],
        ["Chennai"],
    ),
    (
        "Home visit: blk 412 bedok north ave 2 #05-118. Neighbour aunty lim siew hua helps with meals.",
        [("address", "blk 412 bedok north ave 2 #05-118"), ("name", "lim siew hua")],
        [],
    ),
    (
        "Lot 24117830 of insulin pens recalled; no action for this patient.",
        [],
        ["24117830"],
    ),
    (
        "Discussed with Dr Farah Aziz at Changi General Hospital on 22 March.",
        [("name", "Farah Aziz"), ("date", "22 March")],
        ["Changi General Hospital"],
    ),
    (
        "Checked with Priya regarding the appointment; she will call back on (212) 555-0139.",
        [("name", "Priya"), ("phone", "(212) 555-0139")],
        [],
    ),
    (
        "Mother is Noor Hidayah binte Abdul Rahman, NRIC T0312958B.",
        [("name", "Noor Hidayah binte Abdul Rahman"), ("id", "T0312958B")],
        [],
    ),
    (
        "Passport number 548812903 seen; held by Mrs Catherine Pereira-D'Souza.",
        [("id", "548812903"), ("name", "Catherine Pereira-D'Souza")],
        [],
    ),
    (
        "Address on file: 88 Lorong 4 Geylang, Singapore 399288.",
        [("address", "88 Lorong 4 Geylang, Singapore 399288")],
        [],
    ),
    (
        "She moved to 350 Fifth Avenue, New York, NY 10118 in the summer.",
        [("address", "350 Fifth Avenue, New York, NY 10118")],
        [],
    ),
    (
        "Correspondence: 17 Nehru Nagar, Kanpur 208001. Father Anil Srivastava phoned on 12th April.",
        [
            ("address", "17 Nehru Nagar, Kanpur 208001"),
            ("name", "Anil Srivastava"),
            ("date", "12th April"),
        ],
        [],
    ),
    (
        "spoke to ahmad re transport; he can drive her on tues.",
        [("name", "ahmad")],
        [],
    ),
    (
        "Grandson Marcus Tan Wei Jie (G5123874K) is the nok.",
        [("name", "Marcus Tan Wei Jie"), ("id", "G5123874K")],
        [],
    ),
    (
        "Clinic number 6355 8000 for Tan Tock Seng Hospital appointments.",
        [],
        ["Tan Tock Seng Hospital"],
    ),
    (
        "Email from siobhan.obrien@example.ie: her UK mobile 07700 900318.",
        [("email", "siobhan.obrien@example.ie"), ("phone", "07700 900318")],
        [],
    ),
    (
        "Seen by Ms Nurul Ain; follow up with Ravi Shankar Prasad in two weeks.",
        [("name", "Nurul Ain"), ("name", "Ravi Shankar Prasad")],
        [],
    ),
    (
        "Patient: wong kah mun. DOB given only as 5 Oct. ic s7012345b.",
        [("name", "wong kah mun"), ("date", "5 Oct"), ("id", "s7012345b")],
        [],
    ),
    (
        "Dosage 500 mg twice daily for 14 days; batch 30119874 noted.",
        [],
        ["30119874", "500", "14"],
    ),
    (
        "MRN 00482915 transferred to Mount Elizabeth Medical Centre.",
        [("id", "00482915")],
        ["Mount Elizabeth Medical Centre"],
    ),
    (
        "Called Mrs Aileen Fernandez on 020 7946 0561; no answer.",
        [("name", "Aileen Fernandez"), ("phone", "020 7946 0561")],
        [],
    ),
    (
        "Daughter-in-law Deepa, tel 98401 55672 (India).",
        [("name", "Deepa"), ("phone", "98401 55672")],
        [],
    ),
    (
        "Lives with partner Gareth Evans-Powell at 9 Harbour Street, Whitby YO21 3PN.",
        [("name", "Gareth Evans-Powell"), ("address", "9 Harbour Street, Whitby YO21 3PN")],
        [],
    ),
    (
        "Account number 0123456789 closed; refund sent to Mr Chua.",
        [("id", "0123456789"), ("name", "Chua")],
        [],
    ),
    (
        "Met uncle Ah Seng at the void deck of blk 21 jalan bukit merah #01-12.",
        [("name", "Ah Seng"), ("address", "blk 21 jalan bukit merah #01-12")],
        [],
    ),
    (
        "Tel: +60 12-345 6789 (Malaysia), friend Siti Khadijah.",
        [("phone", "+60 12-345 6789"), ("name", "Siti Khadijah")],
        [],
    ),
    (
        "Social Security 123-45-6789 on the Medicare card for Robert J. Kowalski.",
        [("id", "123-45-6789"), ("name", "Robert J. Kowalski")],
        [],
    ),
    (
        "National Skin Centre review moved to May 30th; patient agreeable.",
        [("date", "May 30th")],
        ["National Skin Centre"],
    ),
    (
        "Client Harpreet Kaur Gill (S6655443J) called from 8765 4321.",
        [("name", "Harpreet Kaur Gill"), ("id", "S6655443J"), ("phone", "8765 4321")],
        [],
    ),
    (
        "HbA1c 7.2 on 2 Jan, BP 132/84, weight 71.5 kg.",
        [("date", "2 Jan")],
        ["7.2", "132/84", "71.5"],
    ),
    (
        "Invoice 4471-2290 paid by cheque; Parkway Shenton Pte Ltd acknowledged.",
        [],
        ["4471-2290", "Parkway Shenton Pte Ltd"],
    ),
    (
        "Contacted on 9988 1122 x2 - no reply. Will try her sister Mei Ling.",
        [("phone", "9988 1122"), ("name", "Mei Ling")],
        [],
    ),
    (
        "visit address 5 toa payoh lor 8 #11-204 s(310005)",
        [("address", "5 toa payoh lor 8 #11-204 s(310005)")],
        [],
    ),
    (
        "Son Joseph Anthony de Souza, Eurasian, living at 33 Upper Wilkie Road 228107.",
        [("name", "Joseph Anthony de Souza"), ("address", "33 Upper Wilkie Road 228107")],
        [],
    ),
    (
        "Her doctor in Texas, Dr. Emily Nakamura, fax (512) 555-0172.",
        [("name", "Emily Nakamura"), ("phone", "(512) 555-0172")],
        ["Texas"],
    ),
]


def _score() -> None:
    from core.detect import find_entities

    kinds = {"nric": "id", "ssn": "id", "nino": "id", "record_code": "id"}
    tp = fn = fp = 0
    misses, alarms = [], []
    per_kind: dict[str, list[int]] = {}
    for note, truth, negatives in NOTES:
        found = [(kinds.get(e.kind, e.kind), e.start, e.end) for e in find_entities(note)]
        spans = []
        for kind, string in truth:
            start = note.index(string)
            spans.append((kind, start, start + len(string)))
            hit = any(k == kind and s < start + len(string) and start < e for k, s, e in found)
            per_kind.setdefault(kind, [0, 0])[0 if hit else 1] += 1
            tp += hit
            fn += not hit
            if not hit:
                misses.append((kind, string, note))
        for k, s, e in found:
            if not any(k == kind and s < b and a < e for kind, a, b in spans):
                fp += 1
                alarms.append((k, note[s:e], note))
        for string in negatives:
            start = note.index(string)
            if any(
                k in ("name", "phone") and s < start + len(string) and start < e
                for k, s, e in found
            ):
                alarms.append(("negative", string, note))
    print(f"recall {tp / (tp + fn):.3f} ({tp}/{tp + fn}), precision {tp / (tp + fp):.3f}")
    for kind, (hit, miss) in sorted(per_kind.items()):
        print(f"  {kind}: {hit}/{hit + miss}")
    for miss in misses:
        print("MISS", miss)
    for alarm in alarms:
        print("ALARM", alarm)


if __name__ == "__main__":
    _score()
