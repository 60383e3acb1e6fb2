"""Hand-written sources of bench/make_independent_pii.py (issue 26): names, places, notes.

Written for this benchmark from general knowledge of how people in Singapore, the US, the
UK and India write names, addresses and notes; not copied from, nor checked against, the
detectors' word lists (``core/detect/``), the project's generator
(``scripts/make_pii_data.py``) or its hand notes (``bench/detect_notes*.py``). The other
sources of the benchmark are Faker's locales and presidio-evaluator's published data
(``bench/data/README.md``).

Every list is split between the ``dev`` and the ``test`` part by a hash of each entry
(:func:`bench.make_independent_pii.split_of`), so a word seen in the dev part never
appears in the test part through these lists.

Note templates: ``{placeholder}`` marks a value; the labelled ones (names, phones, IDs,
emails, addresses, dates) become spans, the others (``{hosp}``, ``{ward}``, ``{amount}``,
``{weekday}``, ``{time}``, ``{job}``, ``{dx}``) are decoys a detector must leave alone;
``{ref}`` (an 8-digit number after "ref", "claim", "invoice") is neutral: it may be an
account number, so a detection on it is neither counted nor held against the detector. ``Dr {doctor}``: the title is not part of the span.
"""

from __future__ import annotations

# --- Chinese names as Singapore writes them (dialect romanisations, not Hanyu Pinyin) ---
CHINESE_SURNAMES = (
    "Tan", "Lim", "Lee", "Ng", "Goh", "Chua", "Ong", "Wong", "Teo", "Koh", "Chan", "Yeo",
    "Sim", "Chong", "Leong", "Foo", "Seah", "Quek", "Tay", "Toh", "Low", "Heng", "Ang",
    "Yap", "Kwek", "Loh", "Poh", "Soh", "Chia", "Khoo", "Phua", "Neo", "Liew", "Pang",
    "Ho", "Lau", "Kang", "Tham", "Yong", "Siew", "Lai", "Chew", "Wee", "Tok", "Boey",
    "Choo", "Hia", "Kee", "Lum", "Mok", "Ow", "Seet", "Tng", "Yeoh", "Aw", "Bek", "Cheong",
    "Chin", "Gan", "Hoon", "Kok", "Kuah", "Leow", "Lok", "Oei", "Sng", "Tee", "Thng",
    "Wan", "Yip", "Eng", "Fong", "Hong", "Khor", "Koay", "Kwan", "Lew", "Ling",
)  # fmt: skip
CHINESE_GIVEN_SYLLABLES = (
    "Wei", "Ming", "Hui", "Ling", "Boon", "Kiat", "Seng", "Hock", "Keng", "Mei", "Xin",
    "Jia", "Yi", "Hao", "Jun", "Kai", "Siew", "Choon", "Teck", "Beng", "Guan", "Swee",
    "Leng", "Geok", "Bee", "Lay", "Kim", "Chye", "Wai", "Yee", "Shu", "Qi", "Zhi", "Yong",
    "Peng", "Hwee", "Khim", "Soon", "Lian", "Chuan", "Heok", "Kwang", "Meng", "Pei",
    "Shan", "Tiong", "Yew", "Cheng", "Fatt", "Gek", "Hian", "Kok", "Lin", "Ngee", "Poh",
    "Sian", "Tze", "Wen", "Xuan", "Yun", "Zhen", "Eng", "Hong", "Jie", "Kheng", "Liang",
)  # fmt: skip

# --- Malay names ---
MALAY_MALE = (
    "Muhammad", "Ahmad", "Hafiz", "Farhan", "Zulkifli", "Haziq", "Iskandar", "Syafiq",
    "Rashid", "Ismail", "Azman", "Rosli", "Kamal", "Fauzi", "Hakim", "Danial", "Irfan",
    "Khairul", "Nizam", "Ridzuan", "Shahrul", "Taufik", "Yusof", "Zainal", "Amirul",
    "Fadli", "Hisham", "Jamil", "Luqman", "Mazlan", "Norhisham", "Rahim", "Sulaiman",
    "Firdaus", "Aiman", "Hairul", "Rizal", "Saiful", "Zaki", "Idris", "Osman", "Hamzah",
)  # fmt: skip
MALAY_FEMALE = (
    "Nur", "Siti", "Nurul", "Aisyah", "Amirah", "Farah", "Izzati", "Hidayah", "Aqilah",
    "Syahirah", "Zarina", "Rohani", "Norliza", "Salmah", "Halimah", "Fatimah", "Zaiton",
    "Rosnah", "Azizah", "Shafiqah", "Nadhirah", "Atiqah", "Sabrina", "Hanis", "Liyana",
    "Maisarah", "Suhaila", "Wahidah", "Yasmin", "Zubaidah", "Khadijah", "Aminah", "Mariam",
)  # fmt: skip
MALAY_FATHER = (
    "Abdullah", "Rahman", "Ismail", "Osman", "Hassan", "Hussein", "Ibrahim", "Yusof",
    "Salleh", "Jaafar", "Mohamed", "Ali", "Bakar", "Kassim", "Latif", "Mahmud", "Nordin",
    "Rahmat", "Sapari", "Taib", "Wahab", "Zakaria", "Ariffin", "Daud", "Hamid", "Jalil",
    "Karim", "Mansor", "Noor", "Razak", "Samad", "Yaakob", "Aziz", "Sulaiman", "Idris",
)  # fmt: skip

# --- Indian names as Singapore writes them (s/o, d/o) and Sikh names ---
TAMIL_MALE = (
    "Rajendran", "Muthusamy", "Ramasamy", "Subramaniam", "Krishnan", "Selvam", "Murugan",
    "Ganesan", "Karthik", "Arumugam", "Balakrishnan", "Chandran", "Devaraj", "Elangovan",
    "Gopal", "Jeyakumar", "Kannan", "Mohan", "Nadarajan", "Palaniappan", "Ravi",
    "Sivakumar", "Thangaraj", "Velu", "Vijayan", "Anand", "Senthil", "Prakash", "Saravanan",
    "Kumaran", "Manikam", "Pillai", "Suresh", "Ramesh", "Dinesh", "Vasu",
)  # fmt: skip
TAMIL_FEMALE = (
    "Kavitha", "Priya", "Lakshmi", "Meena", "Devi", "Shanti", "Malathi", "Revathi",
    "Sumathi", "Vasanthi", "Anitha", "Geetha", "Jayanthi", "Kala", "Latha", "Nirmala",
    "Padma", "Rani", "Saroja", "Thenmoli", "Uma", "Vimala", "Yamuna", "Deepa", "Indira",
    "Kamala", "Mala", "Sangeetha", "Selvi", "Vanitha",
)  # fmt: skip
SIKH_GIVEN = (
    "Harpreet", "Gurmeet", "Jaswinder", "Manjit", "Baljit", "Kuldip", "Amarjit", "Sukhwinder",
    "Rajinder", "Paramjit", "Davinder", "Harjit", "Inderjit", "Navjot", "Simran", "Tejinder",
)  # fmt: skip

# --- Eurasian surnames of Singapore (Portuguese, Dutch and British families) ---
EURASIAN_SURNAMES = (
    "De Souza", "Pereira", "Rodrigues", "D'Cruz", "Fernandez", "Shepherdson", "Westerhout",
    "Oliveiro", "De Silva", "Sta Maria", "Gomes", "Minjoot", "Scully", "Danker", "Hendricks",
    "Rozario", "Theseira", "Conceicao", "Aeria", "Nonis", "De Costa", "Martens", "Le Cain",
    "Van Cuylenburg", "Lazaroo", "Pestana", "Tessensohn", "Desker", "Fonseka", "Schoon",
    "De Rozario", "Almeida", "Monteiro", "Baptista", "D'Almeida", "Xavier",
)  # fmt: skip

TITLES = ("Mr", "Mrs", "Ms", "Mdm", "Dr", "Miss", "Encik", "Puan", "Prof")

# --- Singapore places for addresses ---
SG_TOWNS = (
    "Ang Mo Kio", "Bedok North", "Bedok Reservoir", "Tampines", "Jurong West", "Jurong East",
    "Yishun", "Woodlands", "Hougang", "Sengkang East", "Punggol Field", "Toa Payoh",
    "Bukit Batok West", "Clementi", "Pasir Ris", "Serangoon North", "Bishan", "Choa Chu Kang",
    "Bukit Panjang", "Marsiling", "Kallang Bahru", "Simei", "Telok Blangah", "Whampoa",
    "Bukit Merah", "Ghim Moh", "Boon Lay", "Teban Gardens", "Yung Sheng", "Chai Chee",
    "Eunos", "Geylang Bahru", "Holland", "Kim Keat", "MacPherson", "Redhill", "Lengkok Bahru",
)  # fmt: skip
SG_ROAD_WORDS = ("Ave", "Avenue", "St", "Street", "Rd", "Road", "Dr", "Drive", "Cres",
                 "Crescent", "Central", "Ring Rd", "Walk", "Link", "Close")  # fmt: skip
# Streets named without a road word, and Jalan / Lorong streets.
SG_BARE_STREETS = (
    "Marina View", "Whampoa West", "Bukit Purmei", "Kampong Arang", "Jalan Besar",
    "Jalan Kayu", "Jalan Bukit Merah", "Jalan Tenteram", "Jalan Membina", "Jalan Rumah Tinggi",
    "Jalan Tenaga", "Jalan Bahagia", "Jalan Klinik", "Jalan Ma'mor", "Jalan Daud",
    "Lorong Chuan", "Lorong Ah Soo", "Lorong Lew Lian", "Lorong Limau", "Lorong Kismis",
    "Kampong Kayu", "Upper Boon Keng", "Upper Aljunied", "Bendemeer", "Cantonment",
    "Everton Park", "Spottiswoode Park", "Kim Tian", "Moh Guan Terrace", "Tiong Bahru",
    "Hindhede", "Chin Swee", "Sims Place", "Jalan Loyang Besar", "Lengkong Tiga",
)  # fmt: skip
SG_LORONG_TOWNS = ("Toa Payoh", "Geylang", "Lew Lian", "Bukit Batok", "Chencharu")

INDIA_LOCALITIES = (
    ("Indiranagar", "Bengaluru", "560038"), ("Koramangala", "Bengaluru", "560034"),
    ("Anna Nagar", "Chennai", "600040"), ("T. Nagar", "Chennai", "600017"),
    ("Andheri West", "Mumbai", "400058"), ("Dadar", "Mumbai", "400014"),
    ("Salt Lake", "Kolkata", "700091"), ("Banjara Hills", "Hyderabad", "500034"),
    ("Kothrud", "Pune", "411038"), ("Vasant Kunj", "New Delhi", "110070"),
    ("Lajpat Nagar", "New Delhi", "110024"), ("Navrangpura", "Ahmedabad", "380009"),
    ("Gomti Nagar", "Lucknow", "226010"), ("Kakkanad", "Kochi", "682030"),
    ("Sector 15", "Chandigarh", "160015"), ("Malviya Nagar", "Jaipur", "302017"),
    ("Adyar", "Chennai", "600020"), ("Jayanagar", "Bengaluru", "560041"),
)  # fmt: skip
INDIA_BUILDINGS = ("Shanti Apartments", "Sai Residency", "Green Park Society", "Lotus Towers",
                   "Krishna Enclave", "Ganga Heights", "Prestige Court", "Sunrise CHS",
                   "Om Sai Niwas", "Royal Palms")  # fmt: skip
INDIA_ROADS = ("4th Cross Road", "12th Main Road", "MG Road", "Station Road", "2nd Avenue",
               "Link Road", "Nehru Street", "Gandhi Road", "Temple Street", "100 Feet Road",
               "Ring Road", "SV Road")  # fmt: skip

HOSPITALS = {
    "SG": ("Ng Teng Fong General Hospital", "Tan Tock Seng Hospital", "Khoo Teck Puat Hospital",
           "Changi General Hospital", "Singapore General Hospital", "Mount Elizabeth Hospital",
           "KK Women's and Children's Hospital", "Sengkang General Hospital",
           "Alexandra Hospital", "Raffles Hospital", "Gleneagles Hospital",
           "Woodlands Health Campus"),
    "US": ("Massachusetts General Hospital", "Johns Hopkins Hospital", "Mayo Clinic",
           "Cedars-Sinai Medical Center", "Mount Sinai Hospital", "Cleveland Clinic",
           "Stanford Health Care", "Brigham and Women's Hospital"),
    "GB": ("St Thomas' Hospital", "Guy's Hospital", "Royal Free Hospital",
           "Addenbrooke's Hospital", "John Radcliffe Hospital", "Manchester Royal Infirmary",
           "Queen Elizabeth Hospital Birmingham", "Royal London Hospital"),
    "IN": ("Apollo Hospitals Chennai", "Fortis Hospital Mulund", "AIIMS New Delhi",
           "Christian Medical College Vellore", "Lilavati Hospital", "Manipal Hospital",
           "Kokilaben Dhirubhai Ambani Hospital", "Sir Ganga Ram Hospital"),
}  # fmt: skip

DIAGNOSES = (
    "Type 2 diabetes mellitus", "Hypertension", "Hyperlipidaemia", "Asthma", "COPD",
    "Major depressive disorder", "Osteoarthritis of knee", "Chronic kidney disease stage 3",
    "Atrial fibrillation", "Gastro-oesophageal reflux", "Migraine", "Dengue fever",
    "Community-acquired pneumonia", "Cellulitis of leg", "Fractured neck of femur",
    "Iron deficiency anaemia", "Hypothyroidism", "Gout", "Urinary tract infection",
    "Ischaemic heart disease", "Stroke", "Eczema", "Psoriasis", "Anxiety disorder",
)  # fmt: skip

LOCAL_JOBS = (
    "Hawker", "Taxi driver", "Private-hire driver", "Civil servant", "Staff nurse",
    "Retiree", "Homemaker", "Student", "Security officer", "Cleaner", "Teacher",
    "Property agent", "Insurance agent", "Engineer", "Accountant", "Software developer",
    "Shop assistant", "Delivery rider", "Auto-rickshaw driver", "Tailor", "Pharmacist",
    "Bank teller", "Construction worker", "Domestic helper", "Unemployed",
)  # fmt: skip

# Hand-written notes: clinical, social-work, CRM, billing and HR styles. Placeholders:
# labelled: name name_lc name_uc first first_lc formal mother father spouse child nok
#   doctor staff phone phone_intl phone2 nric nric_sp ssn ssn_bare nino aadhaar email addr
#   addr_lc street postal dob date date_long daymonth
# neutral (neither scored nor a false alarm): ref
# decoys: hosp ward amount weekday time job dx
HAND_NOTES = (
    "Pt {name} seen at {hosp} on {date}, c/o chest pain. BP 142/90.",
    "Pt {name_lc} reviewed, for TCU 2/52.",
    "Mother is {mother}, contactable at {phone}.",
    "Checked with {staff} re: bill of {amount}, pt to pay by {daymonth}.",
    "Called on {phone} at {time}, no answer. Will try again {weekday}.",
    "NOK: {nok} ({phone2})",
    "Spoke to {first} today, confirmed address {addr}.",
    "IC {nric_sp} verified against original.",
    "Pls update NRIC to {nric} for {name}.",
    "Email from {email}: requests copy of medical report.",
    "Patient {name_uc} discharged {date}; f/u at {hosp} SOC.",
    "DOB {dob}, lives with {spouse} at {addr}.",
    "Appt rescheduled to {daymonth}, pt informed via SMS {phone}.",
    "Dr {doctor} reviewed: continue meds, repeat HbA1c in 3 months.",
    "SSN {ssn_bare} on file for insurance claim {ref}.",
    "Insurer requires SSN {ssn}; member {name}.",
    "NI number {nino} provided by {first}.",
    "Aadhaar {aadhaar} seen, name matches {name}.",
    "Home visit to {addr_lc} done by {staff}.",
    "pt's daughter {child} called from {phone}, asking about visiting hours",
    "Collected by {spouse} on {daymonth} at {time}.",
    "Reminder letter sent to {street}, {postal}.",
    "{name} {nric} was admitted to {ward} with {dx}.",
    "Contacted on {phone} re outstanding balance of {amount}.",
    "wife {spouse} accompanied pt, contact {phone2}",
    "Seen by Dr {doctor} at {hosp}. Next review {daymonth}.",
    "Father {father} is the main caregiver; he can be reached at {phone}.",
    "Referral letter addressed to {name}, {addr}.",
    "CRM: customer {name} ({email}) complained about late delivery, order {ref}.",
    "Customer asked us to stop calling {phone}.",
    "new address: {addr}",
    "Pt lives alone at {addr}; neighbour {nok} has a key.",
    "S/B Dr {doctor}. Pt {name} alert, GCS 15.",
    "Son {child} ({phone}) wants to be updated daily.",
    "Verified identity with NRIC {nric} and DOB {dob}.",
    "Pt states DOB is {dob}, records show otherwise; checked with {staff}.",
    "Last seen {date} at {hosp}.",
    "Mdm {name} defaulted follow-up on {daymonth}.",
    "Mr {name} requests a copy of his bill to be emailed to {email}.",
    "called {first} on {phone}: no pick up",
    "{name} (IC {nric}) signed consent on {date}.",
    "Caregiver: {mother}, mobile {phone}, email {email}.",
    "Pt's husband {spouse} says pt fell at home on {daymonth}.",
    "Social worker {staff} to visit {addr} on {weekday}.",
    "Please courier the documents to {addr}, attention {name}.",
    "Policy holder {name}, SSN {ssn}, DOB {dob}.",
    "Spoke with {first} ({phone}); will bring FIN card {nric} tomorrow.",
    "Appointment letter returned undelivered from {street}.",
    "Interpreter needed; daughter-in-law {child} will translate.",
    "Mother is {mother}, father is {father}.",
    "Mother is {mother}.",
    "checked with {first_lc}, ok to proceed",
    "checked with {staff}; pt {name} agreeable for surgery on {daymonth}.",
    "Pt {name} c/o giddiness x 3 days. Lives at {addr}. Contact {phone}.",
    "Patient is a {job}, works nights. Prefers calls after 10am on {phone}.",
    "ID: {nric}. Tel: {phone}. Email: {email}.",
    "Name: {name} / Tel: {phone} / Addr: {addr}",
    "{name_lc}, {phone}, {email}",
    "Per {staff}: {name} paid {amount} on {date}.",
    "Refund of {amount} to {name} processed {date}, ref {ref}.",
    "Escorted by {nok} from {addr}.",
    "Pt's sister {nok} in {hosp} too; same ward {ward}.",
    "Contact person {nok} at {phone}, alt {phone2}.",
    "Ms {name} rang at {time} about her results; call back on {phone}.",
    "Test results emailed to {email} on {daymonth}.",
    "Dr {doctor} informed of K+ 6.1 at {time}.",
    "Seen with wife {spouse}. Both agreeable to plan.",
    "Transport arranged from {addr} to {hosp} for {date}.",
    "pt {first_lc} says she is moving to {addr} next month",
    "Ambulance to pick up {name} at {addr}, contact {phone}.",
    "Bill sent to {street} {postal}; returned unclaimed.",
    "Claim {ref}: claimant {name}, SSN {ssn_bare}, DOB {dob}.",
    "Please note change of email to {email} (was {email2}).",
    "Called on {daymonth}, left voicemail on {phone}.",
    "Spoke to {mother} (mother) who will sign on pt's behalf.",
    "Encik {name} attended with son {child}.",
    "Puan {name} came with her daughter {child} on {daymonth}.",
    "Booked by {first} via the app on {date}.",
    "Dear {formal}, your appointment on {daymonth} at {hosp} is confirmed.",
    "Hi {first}, thanks for your call today. Regards, {staff}",
    "Mr {formal} wishes to be called on {phone} only.",
    "Discussed with Dr {doctor} and family ({nok}).",
    "Pt {name} admitted {date_long} via ED, dx {dx}.",
    "Lab request for {name_uc}, {nric}, ward {ward}.",
    "Witness: {staff}. Patient signature: {name}.",
    "Pt's FIN {nric_sp} expired; asked to bring new pass.",
    "Patient moved from {addr} to {addr2}.",
    "Previous address {street}.",
    "Emergency contact {nok} {phone}",
    "Complaint by {name} ({phone}): waited 3 hours at {hosp}.",
    "Telephone consult with {name} on {date}; {phone}.",
    "Pt claims she lost her IC ({nric}); police report made on {daymonth}.",
    "HR: employee {name}, staff email {email}, joined {date}.",
    "Payroll: {name}, NI {nino}, address {addr}.",
    "KYC done for {name}; Aadhaar {aadhaar}; mobile {phone}.",
    "Delivery to {addr}; recipient {nok}; call {phone} on arrival.",
    "Courier failed at {street} on {daymonth}; customer {first} not home.",
    "Guardian {father} consented for minor {name}.",
    "mother {mother} very anxious, pls call her at {phone}",
    "{name} did not turn up for {daymonth} appt. Tried {phone} x2.",
    "Follow up: {doctor} to call {first} re results.",
    "Pt and husband {spouse} live at {addr_lc}.",
    "pt brought in by neighbour {nok_lc}",
    "Spoke to pt's son {child_lc} on {phone}",
    "Chaplain visit requested by {name}.",
    "Pt {first} prefers to be called {formal}.",
    "Memo from {staff}: {name} to be billed {amount}.",
    "Physio: {name} walked 20 m with frame on {daymonth}.",
    "Dietitian saw {first} on {date}; wt 62 kg.",
    "Vaccination record for {name}, DOB {dob}, given {date}.",
    "Referral from Dr {doctor}, {hosp}.",
    "Parents {father} and {mother} informed.",
    "Info given to {nok}, who is the LPA donee.",
    "Letter of guarantee for {name} sent to {email}.",
    "SMS reminder sent to {phone_intl}.",
    "Overseas contact: {nok}, {phone_intl}.",
    "Pt is a retired {job}; lives with {child} at {addr}.",
    "MSW referral: {name}, {addr}, {phone}.",
    "Income statement for {name} ({nric}) received {daymonth}.",
    "Wrong number: {phone} belongs to someone else, pls update.",
    "Consent form signed by {nok} on behalf of {name}.",
    "Pt {name} (DOB {dob}) no known drug allergies.",
    "Tel consult: {first} reports better sleep. Next call {daymonth}.",
    "{name_uc} - FALL RISK",
    "Visitor log: {nok} {time}, {child} {time}.",
    "{staff} handed over to {staff2} at {time}.",
    "Keys returned by {nok} on {date}.",
    "Pt insists on being addressed as {first}.",
    "Discharge summary sent to {email} and to Dr {doctor}.",
    "Bank transfer from {name}, ref {ref}, {amount}.",
    "Customer {name_lc} called about invoice {ref}.",
    "Ms {formal} from {addr} enquired about fees.",
    "Please contact {name} at {email} or {phone}.",
    "Pt {first} says her SSN is {ssn}.",
    "Caller gave SSN as {ssn_bare}.",
    "Reg no. {nric} - {name_lc}",
    "Appt on {daymonth} cancelled by {first}.",
    "Patient {name} born {dob}, aged over 60, lives at {addr}.",
    "Post-op review with Dr {doctor} on {daymonth}.",
    "F/U {daymonth} with {hosp}; transport by {nok}.",
    "Sent home with {spouse}; contact {phone}.",
    "GP letter: Dear Dr {doctor}, thank you for referring {name}.",
    "Family meeting with {child}, {nok} and Dr {doctor} on {date}.",
    "Pt {name} refused blood test on {daymonth}.",
    "Mother {mother} (IC {nric2}) is the applicant.",
    "Spouse {spouse}, FIN {nric2}, tel {phone2}.",
    "Pt {name_lc} c/o cough x2/7, seen by dr {doctor}.",
    "Tel conversation w/ {nok} ({phone}) @ {time}: agreeable for NH placement.",
    "Re: {name} - {nric} - {dx}",
    "Spoke to caller who identified herself as {first}, DOB {dob}.",
    "Transfer to {hosp} arranged; escort {staff}; receiving Dr {doctor}.",
    "Whatsapp from {phone}: 'pls call me back, {first}'",
    "Postal address for statements: {addr}. Email copy to {email}.",
    "AMD signed on {daymonth} by {name}, witnessed by {staff}.",
    "mdm {name_lc} wants her son {child} to collect meds on {daymonth}",
    "FIN no. {nric_sp}; passport to be sighted.",
    "Next of kin changed from {nok} to {spouse} on {date}.",
)
