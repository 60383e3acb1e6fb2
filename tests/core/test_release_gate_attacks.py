"""The release check attacked: recipes that made ``apply`` write a table still holding
people's identifying values (issue 25, tried as an attacker and as a hurried user).

The table is written here, not drawn from the detectors' samples: names from Vietnam,
Nigeria and Ireland and in Japanese script, NRICs with valid check letters, emails and
phones, ages and sexes. Each test ran through ``apply`` and wrote its release before the
fix it comes with; each now asserts the refusal names the column and what would pass.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from core import cli


def _nric(prefix: str, digits: str) -> str:
    """An NRIC with its check letter (the published weights 2,7,6,5,4,3,2; +4 for T)."""
    total = sum(int(d) * w for d, w in zip(digits, (2, 7, 6, 5, 4, 3, 2), strict=True))
    total += 4 if prefix == "T" else 0
    return f"{prefix}{digits}{'JZIHGFEDCBA'[total % 11]}"


NAMES = [
    "Nguyễn Văn An",
    "Trần Thị Bích",
    "Lê Hoàng Minh",
    "Phạm Thu Hà",
    "Võ Đức Thắng",
    "Oluwaseun Adebayo",
    "Chidinma Okafor",
    "Babatunde Olatunji",
    "Ngozi Eze",
    "Adaeze Nwosu",
    "Siobhán Ní Bhriain",
    "Pádraig Ó Súilleabháin",
    "Aoife Nic Giolla",
    "Caoimhín Mac Aodha",
    "Gráinne Ní Mhaille",
    "山田太郎",
    "佐藤花子",
    "鈴木一郎",
    "高橋美咲",
    "田中健",
]
NRICS = [_nric("S" if i % 2 else "T", f"{2345671 + 7919 * i:07d}") for i in range(20)]
TABLE = pd.DataFrame(
    {
        "name": NAMES,
        "nric": NRICS,
        "email": [f"person{i}@mail.example.org" for i in range(20)],
        # ages 20..39 and sexes F/M alternating: width 20 gives one band, so each sex is
        # one group of 10 records (k = 10 by hand)
        "age": list(range(20, 40)),
        "sex": ["F", "M"] * 10,
        "salary": ["low", "high"] * 10,
    }
)
# the hurried user's recipe: what Step 1 calls direct is handled except the NRIC
BASE = (
    "seed: 3\nquasi_identifiers: [age, sex]\nk: 5\n"
    "not_quasi_identifiers: {salary: the outcome studied}\n"
)
STEPS = (
    "steps:\n  - {step: remove, columns: [name, email]}\n"
    "  - {step: generalise, column: age, width: 20}\n"
)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "people.csv"
    TABLE.to_csv(path, index=False)
    return path


def _apply(data: Path, recipe_text: str, *extra: str) -> int:
    recipe = data.parent / "recipe.yaml"
    recipe.write_text(recipe_text, encoding="utf-8")
    out = data.parent / "out.csv"
    out.unlink(missing_ok=True)
    return cli.main(["apply", str(data), "--recipe", str(recipe), "--out", str(out), *extra])


def test_the_control_passes_with_the_nric_removed(data, capsys):
    recipe = BASE + STEPS.replace("[name, email]", "[name, email, nric]")
    assert _apply(data, recipe) == 0, capsys.readouterr().err


# --- a column Step 1 calls a direct identifier cannot be talked out of it -----------------


@pytest.mark.parametrize(
    "how",
    [
        # the recipe lists no direct identifiers and decides the NRIC is no quasi-identifier
        "direct_identifiers: []\nnot_quasi_identifiers: {nric: used to link visits, "
        "salary: the outcome studied}\n",
        # it lists the others and decides the NRIC away
        "direct_identifiers: [name, email]\nnot_quasi_identifiers: {nric: used to link "
        "visits, salary: the outcome studied}\n",
        # the NRIC named as the sensitive column
        "direct_identifiers: [name, email]\nsensitive: nric\n",
        # the NRIC named as the sensitive column of a target
        "direct_identifiers: [name, email]\ntargets: {l_diversity: {sensitive: nric, l: 2}}\n",
    ],
    ids=["no-direct-list-and-a-decision", "a-decision", "sensitive", "target"],
)
def test_a_column_step1_calls_direct_is_judged_as_one_whatever_the_recipe_calls_it(
    data, capsys, how
):
    assert _apply(data, BASE + how + STEPS) == 2
    err = capsys.readouterr().err
    assert "'nric'" in err and "remove or pseudonymise" in err
    assert not (data.parent / "out.csv").exists()


# --- free text: what the rescan did not count ----------------------------------------------

#: Notes written as people do, with the identifiers in forms the scanner was not written
#: for: an NRIC with dots, an email in full-width characters (a phone keyboard's input
#: method), a Vietnamese name the scanner cuts in the middle of a word.
NOTES = [
    "spoke to mother; ic S.235.3590.D confirmed",
    "email minh２＠mail．example．org for results",
    "Nguyễn Văn An came in",
]


def test_the_rescan_counts_split_nrics_full_width_emails_and_words_cut_by_a_label():
    from core.text_rescan import rescan, scrub

    found = rescan(pd.Series(NOTES))
    assert found.get("id_number") == 1  # S.235.3590.D
    assert found.get("email") == 1  # minh2@mail.example.org once compatibility forms fold
    # "[NAME]ễn": a redaction that replaced part of a word left the rest of it
    assert rescan(pd.Series(["[NAME]ễn Văn An came in"])).get("cut_word") == 1
    scrubbed = scrub(pd.Series(["ic S.235.3590.D ok", "[NAME]ễn came"]))
    assert scrubbed.tolist() == ["ic [ID] ok", "[NAME] came"]


def test_redacted_notes_with_split_nrics_and_full_width_emails_are_not_released(data, capsys):
    # the other 17 notes say nothing identifying: free text to Step 1 (all distinct)
    table = TABLE.assign(
        notes=NOTES + [f"seen on day {i} of the trial, all well" for i in range(17)]
    )
    table.to_csv(data, index=False)
    recipe = (
        BASE
        + "reviewed_text: {notes: {by: A. Reader, at: 2026-11-27, rows_checked: 20}}\n"
        + STEPS.replace("[name, email]", "[name, email, nric]")
        + "  - {step: redact_text, columns: [notes], residue: true}\n"
    )
    # residue: true reads the full-width email as an email and replaces the split NRIC (a
    # name token reads Vietnamese letters whole, so "Nguyễn Văn" is no longer cut to
    # "[NAME]ễn"); the rescan then finds nothing, and what is written holds none of them
    assert _apply(data, recipe) == 0, capsys.readouterr().err
    notes = pd.read_csv(data.parent / "out.csv")["notes"].tolist()
    assert notes[:3] == [
        "spoke to mother; ic [ID] confirmed",
        "email [EMAIL] for results",
        "[NAME] An came in",
    ]


# --- targets that ask nothing ---------------------------------------------------------


def test_a_k_target_of_1_does_not_pass_a_table_of_unique_records(data, capsys):
    # names and NRICs removed, but the full age (20 distinct values) and sex released
    # with k: 1: every record is alone (k = 1 by hand: 20 ages, one record each)
    recipe = (
        BASE.replace("k: 5", "k: 1") + "steps:\n  - {step: remove, columns: [name, email, nric]}\n"
    )
    assert _apply(data, recipe) == 2
    err = capsys.readouterr().err
    assert "k target of 1" in err and "at least 2" in err
    # k: 2 is a choice the guide's threshold (3 or 5) argues against, but it is a
    # requirement: met by the banded ages (k = 10 by hand), the release passes
    assert _apply(data, BASE.replace("k: 5", "k: 2") + STEPS.replace("email]", "email, nric]")) == 0


# --- a table streamed by an engine: Step 1 reads only its first rows ---------------------


def test_an_engine_release_does_not_pass_a_column_step1_saw_empty_in_the_first_rows(data, capsys):
    # 5,000 records with no reference first (Step 1's sample on an engine), then the 20
    # people with their NRICs under a header that says nothing
    filler = TABLE.iloc[[0]].assign(nric=None, name="x", email="x").loc[[0] * 5000]
    table = pd.concat([filler, TABLE], ignore_index=True).rename(columns={"nric": "ref"})
    table.to_csv(data, index=False)
    recipe = BASE + STEPS
    assert _apply(data, recipe, "--engine", "duckdb") == 2
    err = capsys.readouterr().err
    assert "'ref' (no value in the first rows Step 1 read" in err and "not_quasi_identifiers" in err
    assert not list(data.parent.glob("out*.csv"))


# --- names Step 1 does not know, under a header that says nothing ----------------------


def test_a_category_whose_values_fewer_than_k_records_share_needs_a_decision(data, capsys):
    # a visits table: each person three times, the names under 'col_a'; 20 names in 60
    # values is a "category" to Step 1 (none of these names is in its lists), and each
    # value is held by 3 records, fewer than k = 5
    visits = pd.concat([TABLE] * 3, ignore_index=True).rename(columns={"name": "col_a"})
    visits.to_csv(data, index=False)
    recipe = BASE + STEPS.replace("[name, email]", "[email, nric]")
    assert _apply(data, recipe) == 2
    err = capsys.readouterr().err
    assert "'col_a' (a category of which 20 values are each held by fewer than 5 records" in err
    assert "not_quasi_identifiers" in err
    # counted as a quasi-identifier it gives k = 3 by hand (3 visits a person): refused
    assert _apply(data, recipe.replace("[age, sex]", "[age, sex, col_a]")) == 2
    assert "k = 3 is below the target k = 5" in capsys.readouterr().err


def test_a_review_that_read_more_cells_than_the_column_holds_is_not_a_review(data, capsys):
    # 20 notes, all clean after redaction; the signature claims 500 cells were read
    table = TABLE.assign(notes=[f"seen on day {i} of the trial, all well" for i in range(20)])
    table.to_csv(data, index=False)
    recipe = (
        BASE
        + "reviewed_text: {notes: {by: A. Reader, at: 2026-11-27, rows_checked: 500}}\n"
        + STEPS.replace("[name, email]", "[name, email, nric]")
        + "  - {step: redact_text, columns: [notes], residue: true}\n"
    )
    assert _apply(data, recipe) == 2
    err = capsys.readouterr().err
    assert "'notes'" in err and "500 cells" in err and "holds 20" in err
    assert _apply(data, recipe.replace("rows_checked: 500", "rows_checked: 20")) == 0


# --- identifiers typed with a phone's full-width keyboard ------------------------------

FULL_WIDTH = str.maketrans(
    "0123456789STDZIHGFEABCJ@.", "０１２３４５６７８９ＳＴＤＺＩＨＧＦＥＡＢＣＪ＠．"
)


def test_full_width_nrics_and_emails_are_read_as_what_they_are(data, capsys):
    from core.schema import suggest_roles

    table = TABLE.assign(
        ref=[n.translate(FULL_WIDTH) for n in NRICS],
        contact=TABLE["email"].str.translate(FULL_WIDTH),
    )
    kinds = {s.column: (s.role.value, s.kind, s.uncertain) for s in suggest_roles(table)}
    assert kinds["ref"] == ("direct", "nric", False)
    assert kinds["contact"] == ("direct", "email", False)
    # the hurried user's reason no longer lets them out in clear
    table.to_csv(data, index=False)
    recipe = BASE.replace(
        "{salary:", "{ref: internal reference, contact: not needed, salary:"
    ) + STEPS.replace("[name, email]", "[name, email, nric]")
    assert _apply(data, recipe) == 2
    err = capsys.readouterr().err
    assert "'ref'" in err and "'contact'" in err and "remove or pseudonymise" in err


# --- pseudonyms written back --------------------------------------------------------------


def test_keyed_pseudonyms_mapped_back_to_the_originals_are_refused(data, capsys, monkeypatch):
    # whoever holds the key can compute each NRIC's token, so a later 'mapping' step can
    # write the NRICs back; the gate trusted 'pseudonymise' in the recipe and passed it
    from core.techniques import pseudonymise_hmac

    key = "k" * 32
    monkeypatch.setenv("ANON_ATTACK_KEY", key)
    tokens = pseudonymise_hmac(TABLE, "nric", key=key.encode()).data["nric"]
    back = ", ".join(f"'{t}': {n}" for t, n in zip(tokens, NRICS, strict=True))
    recipe = (
        BASE
        + STEPS
        + "  - {step: pseudonymise, column: nric, method: hmac, key_env: ANON_ATTACK_KEY}\n"
        + f"  - {{step: generalise, column: nric, mapping: {{{back}}}}}\n"
    )
    assert _apply(data, recipe, "--plaintext-mapping") == 2
    err = capsys.readouterr().err
    assert "Column 'nric' is pseudonymised but 20 released record(s) hold its original" in err
    # each token mapped to the next person's NRIC: no record holds its own, all are out
    shifted = ", ".join(f"'{t}': {n}" for t, n in zip(tokens, NRICS[1:] + NRICS[:1], strict=True))
    assert _apply(data, recipe.replace(back, shifted), "--plaintext-mapping") == 2
    assert "20 released record(s) hold its original values" in capsys.readouterr().err
    # the pseudonyms alone pass
    tokens_only = recipe.rsplit("  - {step: generalise, column: nric", 1)[0]
    assert _apply(data, tokens_only, "--plaintext-mapping") == 0, capsys.readouterr().err


# --- identifiers inside a column the recipe decided is harmless ----------------------------


def test_phones_and_nrics_inside_a_decided_column_are_found(data, capsys):
    # staff remarks: mostly short words, some with a phone number or an NRIC; Step 1
    # calls the column a category and the hurried user decides it is not a quasi-identifier
    remarks = ["ok", "follow up", "no show", "declined"] * 5
    # (the second phone with Arabic-Indic digits: read as the digits they are)
    remarks[0], remarks[5] = "call +65 9123 4567", f"ic {NRICS[5]}"
    remarks[10] = "call ٨٧٦٥ ٤٣٢١"
    TABLE.assign(remarks=remarks).to_csv(data, index=False)
    recipe = BASE.replace("{salary:", "{remarks: free remarks by staff, salary:") + STEPS.replace(
        "[name, email]", "[name, email, nric]"
    )
    assert _apply(data, recipe) == 2
    err = capsys.readouterr().err
    assert "Column 'remarks' holds 1 cell with an NRIC/FIN" in err
    assert "2 cells with a phone number" in err and "redact_text" in err
    # redacted, the Arabic-Indic digits missed: still refused
    redacted = recipe + "  - {step: redact_text, columns: [remarks]}\n"
    assert _apply(data, redacted) == 2
    assert "Column 'remarks' holds 1 cell with a phone number" in capsys.readouterr().err
    # redacted reading every script's digits (residue: true), it passes
    assert _apply(data, redacted.replace("[remarks]}", "[remarks], residue: true}")) == 0


def test_an_engine_release_scans_the_first_rows_of_columns_no_step_changes(data, capsys):
    # the remarks of the test above, on --engine duckdb: the release holds no rows in
    # memory, but a column no step touches is released as the first rows show it
    remarks = ["ok", "follow up", "no show", "declined"] * 5
    remarks[0], remarks[5] = "call +65 9123 4567", f"ic {NRICS[5]}"
    TABLE.assign(remarks=remarks).to_csv(data, index=False)
    recipe = BASE.replace("{salary:", "{remarks: free remarks by staff, salary:") + STEPS.replace(
        "[name, email]", "[name, email, nric]"
    )
    assert _apply(data, recipe, "--engine", "duckdb") == 2
    err = capsys.readouterr().err
    assert "Column 'remarks' holds 1 cell with an NRIC/FIN, 1 cell with a phone number" in err
    assert "in the first rows" in err


def test_names_of_no_list_in_redacted_notes_are_counted_and_scrubbed():
    from core.text_rescan import rescan, scrub

    notes = pd.Series(
        [
            "daughter of Phạm Thu Hà phoned, wants results",  # Vietnamese
            "Dr Ngozi Eze will review on Monday",  # Igbo, after a title
            "Ruairí [NAME] Cárthaigh called",  # the scanner took the middle of an Irish name
            "spoke to Bùi [NAME]; all well",  # a family name beside the label of the rest
            "patient đặng ngọc [NAME] came in",  # lower case, beside the label
            "seen with Pádraig Ó Súilleabháin at the clinic",  # Irish, a one-letter word
            "COVID PCR negative, Singapore General Hospital",  # capitals and English words only
            "all well",
        ]
    )
    # two or more title-case words in a row that are no English word: a name to the
    # rescan whatever list it is missing from, or a word of no English beside a [NAME]
    # label (by hand: the first six notes)
    assert rescan(notes).get("unknown_name") == 6
    assert scrub(notes).tolist() == [
        "daughter of [NAME] [NAME] [NAME] phoned, wants results",
        "[NAME] [NAME] [NAME] [NAME] review on Monday",  # "Eze will": a listed pair
        "[NAME] [NAME] [NAME] called",
        "spoke to [NAME] [NAME]; all well",
        "patient [NAME] [NAME] [NAME] came in",
        "seen with [NAME] [NAME] [NAME] at the clinic",
        "COVID PCR negative, Singapore General Hospital",
        "all well",
    ]


def test_nrics_with_look_alike_letters_or_other_scripts_digits_are_nrics():
    from core.schema import suggest_roles
    from core.text_rescan import compatible

    cyrillic = ["\u0405" + n[1:] if n[0] == "S" else "\u0422" + n[1:] for n in NRICS]  # Ѕ, Т
    arabic = [
        n[0] + n[1:8].translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")) + n[8] for n in NRICS
    ]
    table = TABLE.assign(cyrillic=cyrillic, arabic=arabic)
    kinds = {s.column: (s.kind, s.uncertain) for s in suggest_roles(table)}
    assert kinds["cyrillic"] == kinds["arabic"] == ("nric", False)
    # a word of one script is left as it is: only a word mixing look-alikes with Latin
    # letters or digits is folded
    assert compatible(pd.Series(["Ѕ2353590D", "Москва", "САТ"])).tolist() == [
        "S2353590D",
        "Москва",
        "САТ",
    ]


def test_look_alike_folding_of_a_long_word_grows_linearly():
    # Step 1 and the release check fold every sampled cell (Step 1: up to 2,000
    # characters). A word of non-ASCII letters with no Latin letter beside them was read
    # from each of its characters to its end: 4x the length took 16x the time (100 cells
    # of 2,000 "’" held Step 1 for 8 s). 4x for a linear fold; 8x separates the two.
    import time

    from core.text_rescan import compatible

    def fastest(cells: pd.Series) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            compatible(cells)
            best = min(best, time.process_time() - start)
        return best

    short, long = pd.Series(["’" * 2_000] * 20), pd.Series(["’" * 8_000] * 20)
    assert fastest(long) / fastest(short) < 8.0
    # the words it folds are as before: a mixed word whole, wherever the mix stands
    assert compatible(pd.Series(["’’ab’Ѕ2 x"])).tolist() == ["’’ab’S2 x"]


def test_a_key_pasted_into_the_recipe_is_refused_before_anything_is_written(
    data, capsys, monkeypatch
):
    # the key is named by key_env, as it must be, but also pasted into the description
    # "for the record": the bundle's recipe would let any recipient recompute every
    # NRIC's token (PDPC guide, Annex A: the key must be protected)
    key = "Kx9-long-enough-secret-2026"
    monkeypatch.setenv("ANON_ATTACK_KEY", key)
    recipe = (
        BASE
        + f"description: tokens made with key {key}\n"
        + STEPS
        + "  - {step: pseudonymise, column: nric, method: hmac, key_env: ANON_ATTACK_KEY}\n"
    )
    assert _apply(data, recipe, "--plaintext-mapping") == 2
    err = capsys.readouterr().err
    assert "ANON_ATTACK_KEY" in err and "written in the recipe" in err and key not in err
    assert not list(data.parent.glob("out*.csv"))
