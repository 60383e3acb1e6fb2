"""Hand-written notes with their entities marked by hand, for bench/bench_detect.py.

Unlike the template notes of scripts/make_pii_data.py, these vary their wording and
include cases the scanner is known to find hard (a lone unknown name without a title, a
name in lower case, a national phone number of another country, dates in words). They
were written once and the detector was not tuned on them afterwards, so their figures are
the fairer estimate of accuracy on real notes. Entity kinds: name, email, phone, id,
address, date, ip, url.
"""

from __future__ import annotations

NOTES: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "Mdm Wong Ah Lian came with her son Kelvin for the 3-month review.",
        [("name", "Wong Ah Lian"), ("name", "Kelvin")],
    ),
    (
        "Caller identified herself as Nurul Ain, asked to reschedule to 14 March 2025.",
        [("name", "Nurul Ain"), ("date", "14 March 2025")],
    ),
    (
        "Pt's daughter (Joanne Tay, 9876 5432) will bring the old scans.",
        [("name", "Joanne Tay"), ("phone", "9876 5432")],
    ),
    ("Emailed results to kumar.r@example.com; no reply yet.", [("email", "kumar.r@example.com")]),
    (
        "Husband Mohamed Rizal bin Osman consented on behalf of the patient.",
        [("name", "Mohamed Rizal bin Osman")],
    ),
    (
        "Lives alone at Blk 512 Bedok North Avenue 2 #11-204 Singapore 460512.",
        [("address", "Blk 512 Bedok North Avenue 2 #11-204 Singapore 460512")],
    ),
    ("NRIC S8812345Z scanned; insurance card to follow.", [("id", "S8812345Z")]),
    (
        "Referred by Dr. Priya Nair from the polyclinic on 02/01/2025.",
        [("name", "Priya Nair"), ("date", "02/01/2025")],
    ),
    (
        "GP letter from Dr Harjit Singh, Jurong clinic, tel 6561 2345.",
        [("name", "Harjit Singh"), ("phone", "6561 2345")],
    ),
    ("Overseas contact: brother in London, +44 7700 900123.", [("phone", "+44 7700 900123")]),
    ("US insurer needs SSN 219-09-9999 before the claim.", [("id", "219-09-9999")]),
    ("Wife said Arjun had chest tightness since Sunday.", [("name", "Arjun")]),
    ("spoke to siti on the phone, she will call back", [("name", "siti")]),
    (
        "Seen with interpreter; patient Zhang Wei understands Mandarin only.",
        [("name", "Zhang Wei")],
    ),
    ("Booked MRI for 2025-02-17 at 09:30.", [("date", "2025-02-17")]),
    (
        "Old address: 45 Baker Road, Manchester M14 5RR.",
        [("address", "45 Baker Road, Manchester M14 5RR")],
    ),
    ("Login alert from 203.0.113.42 at 2am; password reset.", [("ip", "203.0.113.42")]),
    (
        "Leaflet: https://www.example.org/diabetes/foot-care.pdf",
        [("url", "https://www.example.org/diabetes/foot-care.pdf")],
    ),
    ("Follow-up with Ms Chong next week about the biopsy.", [("name", "Chong")]),
    ("Ravindran s/o Pillai declined the flu vaccine.", [("name", "Ravindran s/o Pillai")]),
    ("Discussed diet with patient; BMI 31, target weight 80 kg.", []),
    ("Panadol 1g QID PRN, review if fever persists beyond 3 days.", []),
    ("Transferred to Changi General Hospital ICU overnight.", []),
    ("Call from NTUC Income about the policy renewal.", []),
    ("Chan", [("name", "Chan")]),
    (
        "Daughter Emily (emily.lim@example.sg) is the main carer.",
        [("name", "Emily"), ("email", "emily.lim@example.sg")],
    ),
    ("Patient Goh reports dizziness when standing.", [("name", "Goh")]),
    (
        "Contact Bernadette on 8123 4567 after 6pm.",
        [("name", "Bernadette"), ("phone", "8123 4567")],
    ),
    ("UK NI number QQ 12 34 56 C is a specimen and should not be stored.", []),
    ("Staff nurse Aisha Binte Rahman checked the drip.", [("name", "Aisha Binte Rahman")]),
    ("Mr O'Sullivan, a tourist from Dublin, lost his passport.", [("name", "O'Sullivan")]),
    ("Next appointment: Tuesday 4 Feb 2025, 10am.", [("date", "4 Feb 2025")]),
    ("Lab results sent to the family's address in Johor Bahru.", []),
    ("Tan Boon Huat, 72, lives with his grandson.", [("name", "Tan Boon Huat")]),
    ("Her mobile changed to +65 9012 3456 last month.", [("phone", "+65 9012 3456")]),
    (
        "Visited by social worker Lakshmi Devi on 18/12/2024.",
        [("name", "Lakshmi Devi"), ("date", "18/12/2024")],
    ),
    (
        "Pharmacy at 1 Orchard Boulevard, Singapore 248649 will deliver.",
        [("address", "1 Orchard Boulevard, Singapore 248649")],
    ),
    ("Account no. 123-456789-001 charged for the visit.", [("id", "123-456789-001")]),
    ("May stop the medication if the rash gets worse.", []),
    ("Seen by Dr May Lin; plan unchanged.", [("name", "May Lin")]),
]
