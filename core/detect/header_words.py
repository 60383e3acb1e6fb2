"""Column headers beyond English: what a header in Malay, Indonesian, Filipino, Chinese,
Tamil, Spanish, French or German says a column holds (Step 1, issue 26).

:mod:`core.schema` reads English headers with its own hints; a table exported in
Kuala Lumpur, Jakarta or Manila says ``poskod``, ``tanggal_lahir`` or ``kasarian``, and a
Hong Kong one ``身份證號碼``. :func:`foreign_header_kind` reads such a header: it is
split into words (``Poskod_Rumah``, ``poskodRumah`` and ``POSKOD RUMAH`` all become
``poskod rumah``), compared without case or Latin diacritics (``Dirección`` = ``direccion``,
``Straße`` = ``strasse``), and a term matches whole words only (``nama`` matches
``Nama Pesakit`` but not ``namaste``); a term of several words also matches when they are
written as one (``kodepos``, ``tarikhlahir``) and one word written in parts still matches (``PhilSys``
read as ``phil sys``). Chinese has no spaces between words, so a
Chinese term (two characters or more) matches anywhere in the header.

Source of the words: written by hand for this project (no third-party list was copied)
from the ordinary word of each language for these fields and the field labels printed on
the countries' identity cards and public forms: Malaysia's MyKad and JPN forms (Malay),
Indonesia's KTP (Indonesian), the PhilSys registration form (Filipino), Hong Kong and
mainland forms (traditional and simplified Chinese), Spain's DNI, France's carte
d'identité and Germany's Personalausweis. Tamil is given only for the simplest words.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

__all__ = ["FOREIGN_HEADER_TERMS", "foreign_header_kind", "header_tokens", "header_words"]

# kind -> terms, in the order the kinds are tried: the first kind with a matching term wins,
# so the more specific kinds come first ("alamat emel" is an email, not an address; "kode
# pos" a postal code; "nama syarikat" a company, not a person's name).
FOREIGN_HEADER_TERMS: dict[str, tuple[str, ...]] = {
    "company": (
        "syarikat",  # ms
        "majikan",  # ms: employer
        "perusahaan",  # id
        "kompanya",  # tl
        "empresa",  # es
        "entreprise",  # fr
        "societe",  # fr
        "unternehmen",  # de
        "arbeitgeber",  # de
        "firma",  # de
        "公司",  # zh
        "单位",  # zh (simplified): work unit
        "單位",  # zh (traditional)
    ),
    "email": (
        "emel",  # ms
        "e mel",  # ms
        "alamat emel",  # ms
        "surel",  # id: surat elektronik
        "surat elektronik",  # id
        "correo",  # es
        "correo electronico",  # es
        "courriel",  # fr
        "adresse electronique",  # fr
        "adresse mail",  # fr
        "电子邮件",  # zh
        "電子郵件",  # zh
        "电邮",  # zh
        "電郵",  # zh
        "邮箱",  # zh
        "郵箱",  # zh
        "மின்னஞ்சல்",  # ta
    ),
    "phone": (
        "telefon",  # ms, de
        "tel bimbit",  # ms: mobile
        "telefon bimbit",  # ms
        "bimbit",  # ms
        "no tel",  # ms
        "telepon",  # id
        "nomor telepon",  # id
        "no telp",  # id
        "telp",  # id
        "ponsel",  # id: mobile
        "telepono",  # tl
        "numero ng telepono",  # tl
        "selpon",  # tl: cellphone
        "telefono",  # es
        "movil",  # es
        "celular",  # es
        "telephone",  # fr (written without its accents here)
        "telefonnummer",  # de
        "handynummer",  # de: mobile
        "mobilnummer",  # de
        "rufnummer",  # de
        "no hp",  # id: "HP", handphone
        "nomor hp",  # id
        "handphone",  # ms, id
        "telefone",  # pt
        "portable",  # fr: mobile
        "whatsapp",
        "电话",  # zh
        "電話",  # zh
        "手机",  # zh
        "手機",  # zh
        "联系电话",  # zh
        "聯絡電話",  # zh
        "தொலைபேசி",  # ta
    ),
    "postal_code": (
        "poskod",  # ms
        "kod pos",  # ms
        "kode pos",  # id
        "codigo postal",  # es
        "cod postal",  # es
        "code postal",  # fr
        "plz",  # de: Postleitzahl
        "postleitzahl",  # de
        "邮编",  # zh
        "郵編",  # zh
        "邮政编码",  # zh
        "郵政編碼",  # zh
        "郵遞區號",  # zh (Taiwan)
        "அஞ்சல் குறியீடு",  # ta
    ),
    "national_id": (
        "kad pengenalan",  # ms: identity card
        "no kad pengenalan",  # ms
        "no kp",  # ms: "No. K/P"
        "no k p",  # ms
        "mykad",  # ms
        "mykid",  # ms: the children's card
        "nik",  # id: Nomor Induk Kependudukan
        "ktp",  # id: Kartu Tanda Penduduk
        "nomor induk kependudukan",  # id
        "philsys",  # ph: Philippine Identification System
        "psn",  # ph: PhilSys Number
        "tfn",  # au: tax file number
        "tax file number",  # au
        "medicare no",  # au
        "medicare number",  # au
        "medicare card",  # au
        "hkid",  # hk
        "dni",  # es: Documento Nacional de Identidad
        "nie",  # es: foreigners' number
        "nif",  # es: tax number
        "documento de identidad",  # es
        "numero de identidad",  # es
        "nir",  # fr: numéro de sécurité sociale
        "numero de securite sociale",  # fr
        "personalausweis",  # de
        "ausweisnummer",  # de
        "steuer id",  # de
        "steueridentifikationsnummer",  # de
        "sozialversicherungsnummer",  # de: social insurance number
        "numero de seguridad social",  # es
        "seguridad social",  # es
        "nss",  # es: número de la Seguridad Social
        "securite sociale",  # fr
        "cedula",  # es (Latin America), tl: cédula de identidad
        "身份证",  # zh
        "身份證",  # zh
        "身分證",  # zh (Taiwan)
        "证件号码",  # zh
        "證件號碼",  # zh
    ),
    "address": (
        "alamat",  # ms, id
        "alamat rumah",  # ms, id
        "tirahan",  # tl
        "tinitirhan",  # tl
        "direccion",  # es
        "domicilio",  # es, tl
        "adresse",  # fr, de
        "anschrift",  # de
        "strasse",  # de (Straße)
        "wohnadresse",  # de
        "地址",  # zh
        "住址",  # zh
        "居住地",  # zh
        "முகவரி",  # ta
    ),
    "place": (
        "bandar",  # ms: town
        "kota",  # id: city
        "kabupaten",  # id: regency
        "kecamatan",  # id: district
        "lungsod",  # tl: city
        "bayan",  # tl: town
        "barangay",  # tl
        "ciudad",  # es
        "localidad",  # es
        "municipio",  # es
        "ville",  # fr
        "commune",  # fr
        "wohnort",  # de
        "ort",  # de
        "geburtsort",  # de: place of birth
        "tempat lahir",  # ms, id: place of birth
        "lugar de nacimiento",  # es
        "lieu de naissance",  # fr
        "出生地",  # zh
        "stadt",  # de
        "negeri",  # ms: state
        "daerah",  # ms, id: district
        "provinsi",  # id: province
        "kelurahan",  # id: urban village
        "desa",  # id: village
        "kampung",  # ms: village
        "lalawigan",  # tl: province
        "provincia",  # es
        "bundesland",  # de
        "城市",  # zh
        "ஊர்",  # ta
    ),
    "date_of_birth": (
        "tarikh lahir",  # ms
        "tkh lahir",  # ms (abbreviated on forms)
        "tarikh kelahiran",  # ms
        "tanggal lahir",  # id
        "tgl lahir",  # id (KTP: "Tempat/Tgl Lahir")
        "lahir",  # ms, id: born
        "kaarawan",  # tl: birthday
        "petsa ng kapanganakan",  # tl
        "kapanganakan",  # tl
        "fecha de nacimiento",  # es
        "fecha nacimiento",  # es
        "f nacimiento",  # es
        "nacimiento",  # es
        "date de naissance",  # fr
        "naissance",  # fr
        "geburtsdatum",  # de
        "geburtstag",  # de
        "geboren",  # de
        "tanggal kelahiran",  # id
        "f nac",  # es: "F. Nac."
        "fec nac",  # es
        "geb datum",  # de: "Geb.-Datum"
        "data de nascimento",  # pt
        "nascimento",  # pt
        "出生日期",  # zh
        "出生年月",  # zh
        "生日",  # zh
        "பிறந்த தேதி",  # ta
    ),
    "name": (
        "nama",  # ms, id
        "nama penuh",  # ms
        "nama lengkap",  # id
        "pangalan",  # tl
        "apelyido",  # tl: family name
        "nombre",  # es
        "nombres",  # es
        "apellido",  # es
        "apellidos",  # es
        "nom",  # fr
        "prenom",  # fr
        "nom de famille",  # fr
        "vorname",  # de
        "nachname",  # de
        "familienname",  # de
        "姓名",  # zh
        "名字",  # zh
        "பெயர்",  # ta
    ),
    "age": (
        "umur",  # ms, id
        "usia",  # id
        "idade",  # pt
        "edad",  # es, tl
        "gulang",  # tl
        "alter",  # de
        "年龄",  # zh
        "年齡",  # zh
        "வயது",  # ta
    ),
    "gender": (
        "jantina",  # ms
        "jenis kelamin",  # id
        "kelamin",  # id
        "kasarian",  # tl
        "sexo",  # es
        "sexe",  # fr
        "geschlecht",  # de
        "genero",  # es: género
        "性别",  # zh
        "性別",  # zh
        "பாலினம்",  # ta
    ),
    "group": (
        "bangsa",  # ms: race
        "kaum",  # ms: ethnic group
        "agama",  # ms, id: religion
        "suku",  # id: ethnic group
        "kewarganegaraan",  # ms, id: citizenship
        "negara",  # ms, id: country
        "negara asal",  # ms, id: country of origin
        "bansa",  # tl: country
        "pais",  # es: país
        "pays",  # fr
        "land",  # de
        "herkunftsland",  # de: country of origin
        "国家",  # zh: country
        "國家",  # zh
        "நாடு",  # ta: country
        "warganegara",  # ms
        "relihiyon",  # tl
        "nasyonalidad",  # tl
        "religion",  # es (religión), fr, de
        "nacionalidad",  # es
        "nationalite",  # fr
        "staatsangehorigkeit",  # de
        "konfession",  # de
        "jabatan",  # ms: department
        "departemen",  # id
        "bagian",  # id: section
        "departamento",  # es
        "departement",  # fr (département)
        "abteilung",  # de
        "taraf perkahwinan",  # ms: marital status
        "status perkawinan",  # id
        "estado civil",  # es, tl
        "situation familiale",  # fr
        "etat civil",  # fr
        "familienstand",  # de
        "pendidikan",  # ms, id: education
        "edukasyon",  # tl
        "nivel de estudios",  # es
        "niveau d etudes",  # fr
        "bildungsabschluss",  # de
        "部门",  # zh: department
        "部門",  # zh
        "婚姻状况",  # zh: marital status
        "婚姻狀況",  # zh
        "学历",  # zh: education
        "學歷",  # zh
        "宗教",  # zh
        "民族",  # zh
        "国籍",  # zh
        "國籍",  # zh
        "மதம்",  # ta
    ),
    "job_title": (
        "pekerjaan",  # ms, id
        "jawatan",  # ms: post
        "hanapbuhay",  # tl
        "trabaho",  # tl
        "ocupacion",  # es
        "profesion",  # es
        "profession",  # fr
        "metier",  # fr
        "beruf",  # de
        "职业",  # zh
        "職業",  # zh
        "தொழில்",  # ta
    ),
}

_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def _plain(text: str) -> str:
    """Case-folded, Latin diacritics dropped (é -> e, ß -> ss), other scripts kept whole
    (a Tamil vowel sign is part of its letter, not a diacritic)."""
    decomposed = unicodedata.normalize("NFKD", str(text).casefold())
    kept = "".join(c for c in decomposed if not "\u0300" <= c <= "\u036f")
    return unicodedata.normalize("NFC", kept)


def header_tokens(column: object) -> tuple[str, ...]:
    """A header's words, case-folded and without Latin diacritics: ``"Poskod_Rumah"``,
    ``"poskodRumah"`` -> ``("poskod", "rumah")``; ``"Dirección"`` -> ``("direccion",)``."""
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", str(column))
    # Letters and digits of any script, with their combining marks, make a word.
    return tuple(re.findall(r"[^\W_]+(?:[\u0300-\u036f\u0b80-\u0bff]*[^\W_]*)*", _plain(text)))


def header_words(column: object) -> str:
    """The header's Latin words joined by '_', as the English hints read them: 'Date of
    Birth' / 'dateOfBirth' / 'date-of-birth' -> 'date_of_birth', 'Âge' -> 'age' (words of
    other scripts left out)."""
    return "_".join(re.findall(r"[a-z0-9]+", " ".join(header_tokens(column))))


@cache
def _terms() -> tuple[tuple[str, frozenset[str], tuple[str, ...]], ...]:
    """Per kind: the word terms, each written as one word ("kode pos" -> "kodepos"), and
    the Chinese terms."""
    table = []
    for kind, terms in FOREIGN_HEADER_TERMS.items():
        han = tuple(t for t in terms if _HAN.search(t))
        words = frozenset("".join(header_tokens(t)) for t in terms if not _HAN.search(t))
        table.append((kind, words, han))
    return tuple(table)


def _runs(tokens: tuple[str, ...]) -> set[str]:
    """Every run of consecutive words written as one word: a term matches whole words
    however the header splits or joins them ("Kode Pos", "KodePos", "kodepos";
    "PhilSys" read as "phil sys")."""
    return {"".join(tokens[i:j]) for i in range(len(tokens)) for j in range(i + 1, len(tokens) + 1)}


def foreign_header_kind(column: object) -> str | None:
    """The kind a non-English header names (``"name"``, ``"postal_code"``,
    ``"national_id"``...; see :data:`FOREIGN_HEADER_TERMS`), or None."""
    tokens = header_tokens(column)
    if not tokens:
        return None
    compact = "".join(tokens)
    runs = _runs(tokens[:12])  # a header of more than 12 words is a sentence, not a label
    for kind, words, han in _terms():
        if any(term in compact for term in han) or not runs.isdisjoint(words):
            return kind
    return None
