"""Writes the seventh evaluation set of issue 26 (bench/data/eval7/): held-out, measure only.

Made by a sixth method, apart from every earlier set (the project's generator;
``independent_pii/``; eval3 and eval4 by hand; eval5 from mimesis, pypinyin and
indian-names; eval6's hand-written clinic, HR, call-centre and police notes of seven
countries): **notes only**, every one written by hand for this set in styles eval6 has
none of (emails and letters, insurance claims, pharmacy dispensing logs, social-work case
notes, court and tribunal minutes, hotel and airline bookings, telco support chats,
research interview transcripts, ambulance and triage handovers), set in Singapore, India,
the UK, the US, New Zealand, Hong Kong, Indonesia, Nigeria and Kenya. No name list, no
package and no earlier set's notes were used: the names were chosen by hand.

``notes.txt`` marks each personal-data span ``{{kind|text}}`` or ``{{name:origin|text}}``
(``{{ref|text}}``: neutral). This script cuts the marks out, writes ``notes.csv`` and
``spans.csv`` in eval6's layout (``bench/bench_detect_eval6.py --data bench/data/eval7``
scores it), and checks that every offset gives back its text, that spans do not overlap,
and that every marked identifier passes its published check (NRIC/FIN check letter;
Aadhaar Verhoeff; NHS mod 11; SSN area/group/serial; HKID check digit; NZ IRD; Indonesian
NIK region and date of birth; PAN's shape; passports, driving licences and
Kenyan and Nigerian IDs by shape alone, having no published check) and every marked phone is valid for one of the set's
countries (libphonenumber). Identifiers are checked twice where an independent checker
exists: the rule written out here and python-stdnum's.

**Do not tune a detector on this set**: not its notes, spans or misses.

``python bench/make_eval7.py`` (re)writes ``notes.csv`` and ``spans.csv`` and prints counts.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.check_digits import nhs_check, nric_check  # noqa: E402
from bench.eval_build import parse_marked_notes, phone_region, write_csv  # noqa: E402

DATA = HERE / "data" / "eval7"

KINDS = ("name", "phone", "id", "ssn", "email", "url", "address", "date", "age")
DIRECT_KINDS = ("name", "phone", "id", "ssn", "email", "url")
ORIGINS = ("Chinese", "Malay", "Indian", "Eurasian", "Western", "Filipino", "African", "Other")
#: Regions a phone of the notes must be valid in (one of them), for numbers without "+".
REGIONS = ("SG", "IN", "GB", "US", "NZ", "HK", "ID", "NG", "KE")

Span = tuple[int, int, int, str, str, bool, str]


def parse_notes(text: str) -> tuple[list[str], list[Span]]:
    """Notes without marks, and each span: note, start, end, kind, origin, direct, text."""
    return parse_marked_notes(text, KINDS, ORIGINS, DIRECT_KINDS)


# --- identifier checks written out from the published rules ------------------------------
def nric_ok(value: str) -> bool:
    """Singapore NRIC/FIN (S, T, F, G): weights 2765432, +4 for T and G, letter table."""
    v = re.sub(r"[\s-]", "", value).upper()
    return bool(re.fullmatch(r"[STFG]\d{7}[A-Z]", v)) and v[8] == nric_check(v[0], v[1:8])


def hkid_ok(value: str) -> bool:
    """Hong Kong ID: letter(s) valued A=10..Z=35 (a space 36 when one), weights 9..2,
    check = (11 - sum mod 11) mod 11, 10 written A."""
    v = re.sub(r"[\s()]", "", value).upper()
    m = re.fullmatch(r"([A-Z]{1,2})(\d{6})([0-9A])", v)
    if not m:
        return False
    letters = m.group(1).rjust(2)
    values = [36 if c == " " else ord(c) - 55 for c in letters] + [int(d) for d in m.group(2)]
    total = sum(x * w for x, w in zip(values, range(9, 1, -1), strict=True))
    check = (11 - total % 11) % 11
    return m.group(3) == ("A" if check == 10 else str(check))


def nhs_ok(value: str) -> bool:
    """NHS number: weights 10..2 on the first nine digits, check 11 - sum mod 11 (11 -> 0,
    10 invalid)."""
    d = re.sub(r"[\s-]", "", value)
    return bool(re.fullmatch(r"\d{10}", d)) and nhs_check(d[:9]) == int(d[9])


def classify_id(value: str) -> str:
    """Which identifier a marked ``id`` is, from its shape."""
    v = re.sub(r"[\s\-()]", "", value).upper()
    if re.fullmatch(r"[STFG]\d{7}[A-Z]", v):
        return "nric"
    if re.fullmatch(r"[A-Z]{1,2} ?\d{6} ?[( ][0-9A]\)?", value.strip().upper()):
        return "hkid"  # its check digit set apart, as written: A123456(3), A123456 3
    if re.fullmatch(r"\d{16}", v):
        return "nik"
    if re.fullmatch(r"\d{12}", v):
        return "aadhaar"
    if re.fullmatch(r"\d{10}", v):
        return "nhs"
    if re.fullmatch(r"[A-Z]{3}P[A-Z]\d{4}[A-Z]", v):
        return "pan"  # India's PAN: its 4th letter P for a person
    if re.fullmatch(r"[A-Z]{1,2}\d{7}[A-Z]?", v):
        return "passport"  # SG, IN, PH, JP passport shapes, no published check
    if re.fullmatch(r"[A-Z]\d{11}", v):
        return "driver_licence"  # a US state licence: letter and 11 digits, no check
    if re.fullmatch(r"\d{8,9}", v) and re.search(r"\d{2}-\d{3}-\d{3}|^\d{9}$", value.strip()):
        return "ird"
    if re.fullmatch(r"\d{8}", v):
        return "kenya_id"  # 8 digits, no published check digit
    if re.fullmatch(r"\d{11}", v):
        return "nigeria_nin"  # 11 digits, no published check digit
    return "unknown"


def check_identifier(value: str) -> str:
    """The identifier's type when it passes every check written for it; ValueError if not."""
    from stdnum import verhoeff
    from stdnum.gb import nhs
    from stdnum.id import nik
    from stdnum.in_ import aadhaar, pan
    from stdnum.nz import ird

    kind = classify_id(value)
    v_upper = value.strip().upper()
    digits = re.sub(r"\D", "", value)
    ok = {
        "nric": lambda: nric_ok(value),
        "hkid": lambda: hkid_ok(value),
        "nik": lambda: nik.is_valid(digits),
        "aadhaar": lambda: aadhaar.is_valid(digits) and verhoeff.is_valid(digits),
        "nhs": lambda: nhs_ok(value) and nhs.is_valid(digits),
        "ird": lambda: ird.is_valid(digits),
        "pan": lambda: pan.is_valid(v_upper),
        "passport": lambda: True,
        "driver_licence": lambda: True,
        "kenya_id": lambda: True,
        "nigeria_nin": lambda: True,
    }.get(kind, lambda: False)()
    if not ok:
        raise ValueError(f"identifier {value!r} ({kind}) fails its check")
    return kind


def check_ssn(value: str) -> None:
    from stdnum.us import ssn

    digits = re.sub(r"\D", "", value)
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    rule = area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"
    if not (len(digits) == 9 and rule and ssn.is_valid(digits)):
        raise ValueError(f"SSN {value!r} fails its check")


def check_phone(value: str) -> str:
    """The region a marked phone is valid in (libphonenumber); ValueError if none."""
    return phone_region(value, REGIONS)


def check_spans(notes: list[str], spans: list[Span]) -> dict[str, Counter]:
    """Every offset gives back its text, no two spans of a note overlap, every identifier
    and phone passes its check. Returns the identifier types and phone regions counted."""
    ids, regions = Counter(), Counter()
    last: dict[int, int] = {}
    for note, start, end, kind, _origin, _direct, text in spans:
        if notes[note][start:end] != text or text != text.strip() or not text:
            raise ValueError(f"note {note}: span {start}-{end} does not give back {text!r}")
        if start < last.get(note, 0):
            raise ValueError(f"note {note}: span {text!r} overlaps the one before")
        last[note] = end
        if kind == "id":
            ids[check_identifier(text)] += 1
        elif kind == "ssn":
            check_ssn(text)
            ids["ssn"] += 1
        elif kind == "phone":
            regions[check_phone(text)] += 1
        elif kind == "age" and text.isdigit() and int(text) <= 89:
            raise ValueError(f"note {note}: age {text} is not over 89")
    return {"ids": ids, "regions": regions}


def write(notes: list[str], spans: list[Span], folder: Path = DATA) -> None:
    write_csv(
        folder / "notes.csv", ["note", "row", "text"], ((i, i, t) for i, t in enumerate(notes))
    )
    write_csv(
        folder / "spans.csv", ["note", "start", "end", "kind", "origin", "direct", "text"], spans
    )


def main() -> None:
    notes, spans = parse_notes((DATA / "notes.txt").read_text(encoding="utf-8"))
    counts = check_spans(notes, spans)
    write(notes, spans)
    kinds = Counter(s[3] for s in spans)
    origins = Counter(s[4] for s in spans if s[3] == "name")
    print(f"{len(notes)} notes, {len(spans)} spans")
    print("kinds:", dict(kinds))
    print("name origins:", dict(origins))
    print("identifiers:", dict(counts["ids"]))
    print("phone regions:", dict(counts["regions"]))


if __name__ == "__main__":
    sys.exit(main())
