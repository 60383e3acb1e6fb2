"""A second set of hand-written notes, held out: never looked at while changing the detectors.

Written (before the detector changes of the in-text recall work, issue 16) by a different
engineer from the first set in bench/detect_notes.py, in the same style: varied wording, a
few hard cases (names in lower case, lone names after a verb, foreign numbers in national
format, the UK and US fictional phone ranges), and notes that hold no personal data but
look as if they might (months, weekdays, drugs, streets, organisations, capitalised
sentence starts). Use them only to *measure* (bench/bench_detect.py); a detector change
made by looking at a miss here spoils them, so write a new set instead. Entity kinds:
name, email, phone, id, address, date, ip, url.
"""

from __future__ import annotations

NOTES: list[tuple[str, list[tuple[str, str]]]] = [
    ("Spoke to Mrs Fernandez about the discharge plan; she agreed.", [("name", "Fernandez")]),
    ("called nephew darren, no answer, left voicemail", [("name", "darren")]),
    (
        "Patient Muthu Krishnan attended with his wife Kamala.",
        [("name", "Muthu Krishnan"), ("name", "Kamala")],
    ),
    ("Please ring the ward on 6772 5555 if the wound bleeds.", [("phone", "6772 5555")]),
    ("Relative in Leeds can be reached on 07700 900461.", [("phone", "07700 900461")]),
    ("US cousin's number is (202) 555-0147, evenings only.", [("phone", "(202) 555-0147")]),
    ("Metformin 500mg BD started; review HbA1c in June.", []),
    ("Emailed Dr Koh the ECG tracing this morning.", [("name", "Koh")]),
    (
        "Referral letter sent to ahmad.faizal@example.com.my.",
        [("email", "ahmad.faizal@example.com.my")],
    ),
    ("FIN G1234567X on the work permit did not match the form.", [("id", "G1234567X")]),
    ("Discussed with nurse manager Rachel Ong, bed 12 freed.", [("name", "Rachel Ong")]),
    (
        "Moved to 22 Tampines Street 81 #05-112 Singapore 520022 last year.",
        [("address", "22 Tampines Street 81 #05-112 Singapore 520022")],
    ),
    ("Friday clinic cancelled due to public holiday.", []),
    ("Mother (Lim Siew Ling) has a history of breast cancer.", [("name", "Lim Siew Ling")]),
    ("contact person: mdm rosnah, tel 9345 6781", [("name", "rosnah"), ("phone", "9345 6781")]),
    (
        "Second opinion from Prof. Anand Menon at 3pm on 12 May 2025.",
        [("name", "Anand Menon"), ("date", "12 May 2025")],
    ),
    ("Warfarin held; INR 4.2 on Monday.", []),
    ("Texted Hui Min the appointment card photo.", [("name", "Hui Min")]),
    ("Boston office fax +1 617 555 0199 for the records request.", [("phone", "+1 617 555 0199")]),
    (
        "SSN on file 078-05-1120 is the famous wallet card number; ask for the real one.",
        [("id", "078-05-1120")],
    ),
    ("Tried calling Siobhan twice, no reply.", [("name", "Siobhan")]),
    ("Accompanied by son-in-law Farid bin Hassan.", [("name", "Farid bin Hassan")]),
    ("Orchard Road clinic closed for renovation until August.", []),
    ("Admitted 3/4/2025, discharged 7/4/2025.", [("date", "3/4/2025"), ("date", "7/4/2025")]),
    ("Asked pharmacist Nadia to check the interaction with simvastatin.", [("name", "Nadia")]),
    ("Portal login from 198.51.100.7 flagged as unusual.", [("ip", "198.51.100.7")]),
    (
        "Guidance at https://www.moh.gov.sg/hpp/doctors/guidelines was followed.",
        [("url", "https://www.moh.gov.sg/hpp/doctors/guidelines")],
    ),
    (
        "Grandmother lives at 17 Jalan Kemuning, Singapore 769824.",
        [("address", "17 Jalan Kemuning, Singapore 769824")],
    ),
    ("Seen together with Mr and Mrs Balakrishnan.", [("name", "Balakrishnan")]),
    ("Specimen NI number QQ123456C copied from the leaflet, not the patient's.", []),
    ("Christmas leave: cover by the duty registrar.", []),
    (
        "Mr Teo's daughter can be reached at teo.family@example.net.",
        [("name", "Teo"), ("email", "teo.family@example.net")],
    ),
    ("Interpreter Nguyen Van An helped with the consent form.", [("name", "Nguyen Van An")]),
    ("Amoxicillin allergy confirmed by Gleneagles records.", []),
    ("Home visit arranged; patient's brother yusof will open the door.", [("name", "yusof")]),
    (
        "Reached Ms Okafor on her mobile +44 7700 900982.",
        [("name", "Okafor"), ("phone", "+44 7700 900982")],
    ),
    ("Old landline 020 7946 0321 disconnected, per the family.", [("phone", "020 7946 0321")]),
    ("Policy no. PX-2209-8841 lapsed in January.", [("id", "PX-2209-8841")]),
    ("Blood pressure 142/88, pulse 76, temperature 37.2.", []),
    ("Daughter-in-law Priyanka will bring the insulin pens on Saturday.", [("name", "Priyanka")]),
    ("Message left for Aunty Lucy to confirm transport.", [("name", "Lucy")]),
    ("Scans couriered to Raffles Hospital on 2024-11-30.", [("date", "2024-11-30")]),
    ("Meeting with Grace, Hope and Faith ward teams postponed.", []),
    ("Wei Jie's school called about his asthma inhaler.", [("name", "Wei Jie")]),
]
