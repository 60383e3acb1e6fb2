"""Tests of the command line, run as a user would: ``python -m core ...``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from core import cli

ROOT = Path(__file__).resolve().parents[2]
STEP4 = ROOT / "sample_data" / "guide_step4_k_example.csv"
TAXI = ROOT / "sample_data" / "guide_annex_c_taxi.csv"


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "core", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def test_risk_json_on_the_step4_example():
    columns = pd.read_csv(STEP4).columns
    qi = ",".join(columns[:2])  # postal code and age, as in the guide
    done = run("risk", str(STEP4), "--qi", qi, "--k", "3", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["records"], data["classes"], data["k"]) == (9, 3, 2)
    assert data["uniques"] == 0
    assert data["records_below_k"] == 2
    assert data["max_risk"] == pytest.approx(0.5)
    assert data["avg_risk"] == pytest.approx(3 / 9)


def test_risk_with_sensitive_attribute():
    columns = pd.read_csv(STEP4).columns
    done = run(
        "risk", str(STEP4), "--qi", ",".join(columns[:2]), "--sensitive", columns[2], "--json"
    )
    data = json.loads(done.stdout)
    # each group watches one show only: 1 distinct value, entropy exp(0) = 1
    assert data["l_distinct"] == 1
    assert data["l_entropy"] == pytest.approx(1.0)
    assert 0 <= data["t_closeness"] <= 1


def test_reid_risk_json():
    done = run(
        "reid-risk",
        "--k",
        "5",
        "--controls",
        "medium",
        "--motivation",
        "high",
        "--harm",
        "medium",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["p_insider"] == 0.3
    assert data["p_attempt"] == 0.3
    assert data["p_reid"] == pytest.approx(0.06)
    assert data["threshold"] == 0.1
    assert data["acceptable"] is True
    assert data["min_k"] == 3


def test_uniqueness_json():
    data = json.loads(run("uniqueness", "--population", "250", "--json").stdout)
    assert data["p_unique"] == pytest.approx((364 / 365) ** 249)


def test_classify_lists_every_column():
    data = json.loads(run("classify", str(TAXI), "--json").stdout)
    assert [row["column"] for row in data] == list(pd.read_csv(TAXI).columns)
    assert all(row["reason"] for row in data)
    # Each row says whether Step 1 is unsure and what showed the kind (issue 26).
    assert all(isinstance(row["uncertain"], bool) for row in data)
    assert {row["judged_by"] for row in data} <= {"", "header", "content", "header and content"}


def test_apply_writes_data_and_report(tmp_path):
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(
        "seed: 3\nquasi_identifiers: [Age, Gender]\nk: 5\nsteps:\n"
        "  - {step: remove, columns: [Serial number, Occupation]}\n"
        "  - {step: generalise, column: Age, width: 10}\n"
        "  - {step: suppress_records, below_k: 5, quasi_identifiers: [Age, Gender]}\n",
        encoding="utf-8",
    )
    out, report = tmp_path / "out.csv", tmp_path / "report.json"
    done = run(
        "apply", str(TAXI), "--recipe", str(recipe), "--out", str(out), "--report", str(report)
    )
    assert done.returncode == 0, done.stderr
    released = pd.read_csv(out)
    assert list(released.columns) == ["Age", "Gender", "Average number of trips per week"]
    assert sorted(released["Age"].unique()) == ["20-29", "30-39"]
    facts = json.loads(report.read_text())
    # By hand: women 21, 25, 29, 25, 23 (20-29: 5 records) and 30 (30-39: 1 record,
    # suppressed); men 38, 34, 38, 32, 31 (30-39: 5 records) -> 10 records, k = 5.
    assert (facts["risk_after"]["records"], facts["risk_after"]["k"]) == (10, 5)
    assert facts["risk_before"]["k"] == 1
    assert facts["release_check"]["passed"] and facts["release_check"]["k"] == 5
    assert facts["use_case"]["name"] == "External data sharing"
    assert any("re-identify" in c["control"] for c in facts["controls"])


@pytest.mark.parametrize(
    "args, message",
    [
        (["risk", "missing.csv", "--qi", "a"], "missing.csv"),
        (["risk", str(TAXI), "--qi", "Salary"], "'Salary'"),
        (["reid-risk", "--k", "0", "--controls", "low", "--motivation", "low"], "'k'"),
        (
            ["reid-risk", "--k", "5", "--controls", "low", "--motivation", "low", "--harm", "x"],
            "harm",
        ),
        (["apply", str(TAXI), "--recipe", "nope.yaml", "--out", "x.csv"], "nope.yaml"),
        (["uniqueness", "--population", "0"], "population"),
    ],
)
def test_user_mistakes_give_one_clear_line_and_no_traceback(args, message):
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_apply_prompts_for_a_missing_key_and_never_writes_it(tmp_path, monkeypatch, capsys):
    from core import cli
    from core.cli import apply_plan

    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(  # Gender alone: 6 women, 5 men, so k = 5 (the suggested k)
        "quasi_identifiers: [Gender]\nsteps:\n  - {step: remove, columns: [Serial number, Age]}\n"
        "  - {step: pseudonymise, column: Occupation, method: hmac, key_env: ANON_CLI_TEST_KEY}\n",
        encoding="utf-8",
    )
    key = "typed-at-the-prompt-0123456789"
    monkeypatch.delenv("ANON_CLI_TEST_KEY", raising=False)
    monkeypatch.setattr(apply_plan.getpass, "getpass", lambda prompt: key)
    out, report = tmp_path / "out.csv", tmp_path / "report.json"
    code = cli.main(
        [
            "apply",
            str(TAXI),
            "--recipe",
            str(recipe),
            "--out",
            str(out),
            "--report",
            str(report),
            "--ask-keys",
            "--plaintext-mapping",
        ]
    )
    assert code == 0
    assert pd.read_csv(out)["Occupation"].str.len().eq(16).all()
    written = out.read_text() + report.read_text() + recipe.read_text()
    written += "".join(p.read_text() for p in tmp_path.glob("*.mapping-*"))
    assert key not in written + capsys.readouterr().err
    assert "ANON_CLI_TEST_KEY" not in os.environ  # the typed key stayed in the replay only


def test_apply_without_key_names_the_variable():
    done = run(
        "apply",
        str(TAXI),
        "--recipe",
        str(ROOT / "tests" / "data" / "hmac_recipe.yaml"),
        "--out",
        "/tmp/never.csv",
    )
    assert done.returncode == 2
    assert "ANON_TEST_MISSING_KEY" in done.stderr


# sex + race alone: every pair twice (k = 2); with the date of birth every record is
# unique (k = 1, by hand: six different dates).
PEOPLE = pd.DataFrame(
    {
        "name": ["Ann", "Bea", "Cai", "Dan", "Eng", "Fay"],
        "sex": ["F", "F", "M", "M", "F", "F"],
        "race": ["Chinese", "Chinese", "Malay", "Malay", "Indian", "Indian"],
        "date_of_birth": ["1980-01-0" + str(day) for day in range(1, 7)],
    }
)


@pytest.fixture
def people(tmp_path):
    path = tmp_path / "people.csv"
    PEOPLE.to_csv(path, index=False)
    return path


def _recipe(tmp_path, text: str) -> Path:
    path = tmp_path / "recipe.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_misspelt_qi_on_apply_is_refused_not_reported_as_k_2(people, tmp_path, capsys):
    from core import cli

    recipe = _recipe(tmp_path, "steps:\n  - {step: remove, columns: [name]}\n")
    out, report = tmp_path / "out.csv", tmp_path / "report.json"
    code = cli.main(
        [
            "apply",
            str(people),
            "--recipe",
            str(recipe),
            "--out",
            str(out),
            "--report",
            str(report),
            "--qi",
            "sex,race,date_of_brith",
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "'date_of_brith'" in err and "'date_of_birth'" in err  # the name and the choices
    assert not out.exists() and not report.exists()
    # the same one-line error as `risk --qi`
    assert cli.main(["risk", str(people), "--qi", "sex,race,date_of_brith"]) == 2
    assert capsys.readouterr().err == err


@pytest.mark.parametrize(
    "header",
    [
        "quasi_identifiers: [sex, race, date_of_brith]\n",
        "quasi_identifiers: [sex, race, date_of_birth]\nsensitive: diagnosys\n",
    ],
)
def test_misspelt_recipe_columns_are_refused(people, tmp_path, capsys, header):
    from core import cli

    recipe = _recipe(tmp_path, header + "steps:\n  - {step: remove, columns: [name]}\n")
    out = tmp_path / "out.csv"
    code = cli.main(
        [
            "apply",
            str(people),
            "--recipe",
            str(recipe),
            "--out",
            str(out),
            "--report",
            str(tmp_path / "report.json"),
        ]
    )
    assert code == 2
    assert "do not exist in the table" in capsys.readouterr().err
    assert not out.exists()


def test_misspelt_below_k_quasi_identifier_is_refused(people, tmp_path, capsys):
    from core import cli

    recipe = _recipe(
        tmp_path,
        "steps:\n  - {step: suppress_records, below_k: 2, "
        "quasi_identifiers: [sex, race, date_of_brith]}\n",
    )
    code = cli.main(
        ["apply", str(people), "--recipe", str(recipe), "--out", str(tmp_path / "out.csv")]
    )
    assert code == 2
    assert "'date_of_brith'" in capsys.readouterr().err
    assert not (tmp_path / "out.csv").exists()


# Passes the release check: direct identifier removed, k = 2 on sex + race by hand.
SAFE_RECIPE = (
    "quasi_identifiers: [sex, race]\nk: 2\nsteps:\n"
    "  - {step: remove, columns: [name, date_of_birth]}\n"
)


def _apply(people, recipe, out, *extra):
    from core import cli

    return cli.main(["apply", str(people), "--recipe", str(recipe), "--out", str(out), *extra])


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("clash", ["data", "symlink", "hardlink", "recipe", "report=out"])
def test_outputs_never_overwrite_an_input_or_each_other(people, tmp_path, capsys, clash):
    recipe = _recipe(tmp_path, SAFE_RECIPE)
    out, extra = tmp_path / "out.csv", []
    if clash == "data":
        out = people
    elif clash == "symlink":
        out.symlink_to(people)
    elif clash == "hardlink":
        out.hardlink_to(people)
    elif clash == "recipe":
        extra = ["--report", str(recipe)]
    else:
        extra = ["--report", str(out)]
    before = _files(tmp_path)
    assert _apply(people, recipe, out, *extra, "--force") == 2
    assert _files(tmp_path) == before  # input, recipe and links untouched, nothing new
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_existing_output_is_replaced_only_with_force(people, tmp_path, capsys):
    recipe = _recipe(tmp_path, SAFE_RECIPE)
    out, report = tmp_path / "out.csv", tmp_path / "report.json"
    out.write_text("an earlier release\n")
    assert _apply(people, recipe, out, "--report", str(report)) == 2
    assert "--force" in capsys.readouterr().err
    assert out.read_text() == "an earlier release\n" and not report.exists()
    assert _apply(people, recipe, out, "--report", str(report), "--force") == 0
    assert list(pd.read_csv(out).columns) == ["sex", "race"] and report.exists()


def test_existing_mapping_table_is_never_replaced_even_with_force(people, tmp_path, capsys):
    recipe = _recipe(
        tmp_path,
        SAFE_RECIPE.replace(
            "columns: [name, date_of_birth]}",
            "columns: [date_of_birth]}\n  - {step: pseudonymise, column: name, method: random}",
        ),
    )
    out = tmp_path / "out.csv"
    extra = ["--plaintext-mapping", "--force"]
    assert _apply(people, recipe, out, *extra) == 0
    mapping = tmp_path / "out.csv.mapping-name.csv"
    earlier = mapping.read_bytes()
    capsys.readouterr()
    assert _apply(people, recipe, out, *extra) == 2
    err = capsys.readouterr().err
    assert "never replaced" in err and "out.csv.mapping-name.csv" in err
    assert mapping.read_bytes() == earlier


def test_missing_report_folder_is_found_before_anything_is_written(people, tmp_path, capsys):
    recipe = _recipe(tmp_path, SAFE_RECIPE)
    before = _files(tmp_path)
    code = _apply(
        people,
        recipe,
        tmp_path / "out.csv",
        "--report",
        str(tmp_path / "no-such-folder" / "report.md"),
    )
    assert code == 2
    assert "does not exist" in capsys.readouterr().err
    assert _files(tmp_path) == before


def test_a_failed_report_write_removes_the_whole_release(people, tmp_path, monkeypatch):
    from core import outputs

    recipe = _recipe(
        tmp_path,
        SAFE_RECIPE.replace(
            "columns: [name, date_of_birth]}",
            "columns: [date_of_birth]}\n  - {step: pseudonymise, column: name, method: double}",
        ),
    )
    write_temporary = outputs._write_temporary

    def fail_on_report(output, data, *rest):
        if output.label == "--report":
            raise outputs._cannot_write(output, OSError(28, "No space left on device"))
        return write_temporary(output, data, *rest)

    monkeypatch.setattr(outputs, "_write_temporary", fail_on_report)
    before = _files(tmp_path)
    code = _apply(
        people,
        recipe,
        tmp_path / "out.csv",
        "--report",
        str(tmp_path / "r.md"),
        "--plaintext-mapping",
    )
    assert code == 2
    assert _files(tmp_path) == before  # no table, no mapping or linking table, no temp file


def test_hostile_column_name_cannot_steer_the_mapping_table_path(tmp_path):
    column = "../../escaped\nname"
    data = tmp_path / "in" / "data.csv"
    data.parent.mkdir()
    pd.DataFrame({column: ["a", "b", "c", "d"], "sex": ["F", "F", "M", "M"]}).to_csv(
        data, index=False
    )
    recipe = _recipe(
        tmp_path,
        "quasi_identifiers: [sex]\nk: 2\nsteps:\n"
        f"  - {{step: pseudonymise, column: {json.dumps(column)}}}\n",
    )
    out = tmp_path / "in" / "out.csv"
    assert _apply(data, recipe, out, "--plaintext-mapping") == 0
    written = sorted(p.name for p in (tmp_path / "in").iterdir())
    assert len(written) == 3 and not (tmp_path / "escaped").exists()
    (mapping,) = (tmp_path / "in").glob("out.csv.mapping-*")
    assert "/" not in mapping.name[len("out.csv") :] and "\n" not in mapping.name


def test_safe_harbor_out_never_overwrites_the_data(people, tmp_path):
    from core import cli

    before = people.read_bytes()
    assert cli.main(["safe-harbor", str(people), "--out", str(people), "--force"]) == 2
    assert people.read_bytes() == before


PSEUDONYM_RECIPE = SAFE_RECIPE.replace(
    "columns: [name, date_of_birth]}",
    "columns: [date_of_birth]}\n  - {step: pseudonymise, column: name, method: random}",
)
PASSPHRASE = "correct horse battery staple 42"


def test_mapping_tables_need_an_explicit_choice(people, tmp_path, capsys):
    recipe = _recipe(tmp_path, PSEUDONYM_RECIPE)
    before = _files(tmp_path)
    assert _apply(people, recipe, tmp_path / "out.csv") == 2
    err = capsys.readouterr().err
    assert "--mapping-passphrase-env" in err and "--plaintext-mapping" in err
    assert _files(tmp_path) == before


def test_mapping_tables_are_encrypted_private_and_readable_back(
    people, tmp_path, capsys, monkeypatch
):
    import stat

    from core import cli

    monkeypatch.setenv("ANON_MAPPING_PASSPHRASE", PASSPHRASE)
    recipe = _recipe(tmp_path, PSEUDONYM_RECIPE)
    out, report = tmp_path / "out.csv", tmp_path / "report.json"
    assert (
        _apply(
            people,
            recipe,
            out,
            "--report",
            str(report),
            "--mapping-passphrase-env",
            "ANON_MAPPING_PASSPHRASE",
        )
        == 0
    )
    encrypted = tmp_path / "out.csv.mapping-name.enc"
    assert stat.S_IMODE(encrypted.stat().st_mode) == 0o600
    blob = encrypted.read_bytes()
    assert blob.startswith(b"PDPCTBL\x00") and b"Ann" not in blob
    facts = json.loads(report.read_text())
    assert facts["identity_files"] == [
        {"table": "identity mapping table of 'name'", "file": encrypted.name, "encrypted": True}
    ]
    assert facts["plaintext_mapping"] is False
    # the user reads it back; the result is private too and never overwritten
    plain = tmp_path / "mapping.csv"
    args = [
        "decrypt-mapping",
        str(encrypted),
        "--passphrase-env",
        "ANON_MAPPING_PASSPHRASE",
        "--out",
        str(plain),
    ]
    assert cli.main(args) == 0
    assert stat.S_IMODE(plain.stat().st_mode) == 0o600
    table = pd.read_csv(plain)
    released = pd.read_csv(out)
    assert sorted(table["name"]) == sorted(PEOPLE["name"])
    assert set(table["pseudonym"]) == set(released["name"])
    assert cli.main(args) == 2 and "never replaced" in capsys.readouterr().err
    written = "".join(p.read_text(errors="replace") for p in tmp_path.iterdir())
    assert PASSPHRASE not in written + capsys.readouterr().err


def test_short_or_missing_passphrase_is_refused_without_echo(people, tmp_path, capsys, monkeypatch):
    recipe = _recipe(tmp_path, PSEUDONYM_RECIPE)
    monkeypatch.setenv("ANON_MAPPING_PASSPHRASE", "elevenchars")
    before = _files(tmp_path)
    for variable in ("ANON_MAPPING_PASSPHRASE", "ANON_NOT_SET_ANYWHERE"):
        code = _apply(people, recipe, tmp_path / "out.csv", "--mapping-passphrase-env", variable)
        assert code == 2
        err = capsys.readouterr().err
        assert variable in err and "elevenchars" not in err and "12" in err
    assert _files(tmp_path) == before


def test_plaintext_mapping_is_recorded_in_the_report(people, tmp_path):
    recipe = _recipe(tmp_path, PSEUDONYM_RECIPE)
    report = tmp_path / "report.md"
    assert (
        _apply(people, recipe, tmp_path / "out.csv", "--report", str(report), "--plaintext-mapping")
        == 0
    )
    text = report.read_text()
    assert "`out.csv.mapping-name.csv`" in text and "PLAINTEXT" in text
    assert "--plaintext-mapping" in text


def test_risky_release_is_refused_with_its_reasons_and_nothing_written(tmp_path, capsys):
    from core import cli

    recipe = _recipe(
        tmp_path,
        "quasi_identifiers: [Age, Gender]\nk: 5\nsteps:\n"
        "  - {step: remove, columns: [Serial number, Occupation]}\n"
        "  - {step: generalise, column: Age, width: 10}\n",
    )
    out, report = tmp_path / "out.csv", tmp_path / "report.md"
    code = cli.main(
        ["apply", str(TAXI), "--recipe", str(recipe), "--out", str(out), "--report", str(report)]
    )
    assert code == 2
    err = capsys.readouterr().err
    # the 30-year-old woman is alone in her class: k = 1 by hand (see above)
    assert err.count("\n") == 1 and "k = 1 is below the target k = 5" in err
    assert "--release-anyway" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["recipe.yaml"]


@pytest.mark.parametrize(
    "recipe_text, reason",
    [
        ("quasi_identifiers: [sex, race]\nk: 2\nsteps: []\n", "original data"),
        (
            "quasi_identifiers: [sex, race]\nk: 2\nsteps:\n"
            "  - {step: remove, columns: [date_of_birth]}\n",
            "'name'",
        ),
        (
            "quasi_identifiers: [sex, race]\nk: 2\ndirect_identifiers: [race]\nsteps:\n"
            "  - {step: remove, columns: [name, date_of_birth]}\n",
            "'race'",
        ),
        ("steps:\n  - {step: remove, columns: [name, date_of_birth]}\n", "No quasi-identifiers"),
        # k = 2 by hand; low controls, medium motivation: P = 0.5 / 2 = 0.25 > 0.1
        (
            SAFE_RECIPE.replace("k: 2\n", "k: 2\nannex_d: {controls: low, motivation: medium}\n"),
            "0.25 is above the Annex D threshold of 0.1",
        ),
    ],
)
def test_release_gate_reasons(people, tmp_path, capsys, recipe_text, reason):
    recipe = _recipe(tmp_path, recipe_text)
    assert _apply(people, recipe, tmp_path / "out.csv") == 2
    assert reason in capsys.readouterr().err
    assert not (tmp_path / "out.csv").exists()


def test_release_anyway_marks_every_file_and_the_report(people, tmp_path, capsys):
    recipe = _recipe(tmp_path, PSEUDONYM_RECIPE.replace("k: 2", "k: 3"))  # k = 2 by hand
    out, report = tmp_path / "out.csv", tmp_path / "report.md"
    extra = ["--report", str(report), "--plaintext-mapping", "--release-anyway"]
    assert _apply(people, recipe, out, *extra) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "out.NOT-ANONYMISED.csv",
        "out.NOT-ANONYMISED.csv.mapping-name.csv",
        "people.csv",
        "recipe.yaml",
        "report.NOT-ANONYMISED.md",
    ]
    text = (tmp_path / "report.NOT-ANONYMISED.md").read_text()
    assert "RELEASED ANYWAY BY THE USER, NOT ANONYMISED" in text and "k = 2 is below" in text
    err = capsys.readouterr().err
    assert "NOT an anonymised release" in err
    # JSON reports carry the acknowledgement too
    json_report = tmp_path / "r.json"
    assert (
        _apply(
            people,
            recipe,
            tmp_path / "o.csv",
            "--report",
            str(json_report),
            "--plaintext-mapping",
            "--release-anyway",
        )
        == 0
    )
    check = json.loads((tmp_path / "r.NOT-ANONYMISED.json").read_text())["release_check"]
    assert check["acknowledged"] and not check["passed"] and check["k"] == 2


def test_release_anyway_changes_nothing_for_a_passing_release(people, tmp_path):
    recipe = _recipe(tmp_path, SAFE_RECIPE)
    assert _apply(people, recipe, tmp_path / "out.csv", "--release-anyway") == 0
    assert (tmp_path / "out.csv").exists()


def test_release_anyway_marks_the_bundle_and_its_report(people, tmp_path):
    import zipfile

    recipe = _recipe(tmp_path, SAFE_RECIPE.replace("k: 2", "k: 3"))  # k = 2 by hand
    bundle = tmp_path / "b.zip"
    assert (
        _apply(people, recipe, tmp_path / "out.csv", "--bundle", str(bundle), "--release-anyway")
        == 0
    )
    assert not bundle.exists()
    with zipfile.ZipFile(tmp_path / "b.NOT-ANONYMISED.zip") as archive:
        assert "RELEASED ANYWAY" in archive.read("report.md").decode()


@pytest.mark.parametrize("command", ["risk", "suda"])
def test_per_record_files_never_overwrite_the_data_through_a_hard_link(people, tmp_path, command):
    from core import cli

    link = tmp_path / "scores.csv"
    link.hardlink_to(people)  # the same file under another name
    before = people.read_bytes()
    args = [command, str(people), "--qi", "sex,race", "--per-record", str(link), "--force"]
    assert cli.main(args) == 2
    assert people.read_bytes() == before
    fresh = tmp_path / "fresh.csv"
    assert cli.main([command, str(people), "--qi", "sex,race", "--per-record", str(fresh)]) == 0
    assert cli.main([command, str(people), "--qi", "sex,race", "--per-record", str(fresh)]) == 2
    assert (
        cli.main([command, str(people), "--qi", "sex,race", "--per-record", str(fresh), "--force"])
        == 0
    )


def test_a_single_quasi_identifier_may_be_given_as_text(people, tmp_path):
    # sex alone: 4 women, 2 men -> k = 2 by hand
    recipe = _recipe(
        tmp_path,
        SAFE_RECIPE.replace("[sex, race]", "sex")
        + "not_quasi_identifiers: {race: the test is about sex alone}\n",
    )
    assert _apply(people, recipe, tmp_path / "out.csv", "--report", str(tmp_path / "r.json")) == 0
    check = json.loads((tmp_path / "r.json").read_text())["release_check"]
    assert check["quasi_identifiers"] == ["sex"] and check["k"] == 2


def test_decrypt_mapping_refuses_a_wrong_passphrase_or_a_non_file(tmp_path, capsys, monkeypatch):
    from core import cli
    from core.techniques.pseudonymisation import encrypt_table

    encrypted = tmp_path / "m.enc"
    encrypted.write_bytes(encrypt_table(pd.DataFrame({"name": ["Ann"]}), PASSPHRASE))
    monkeypatch.setenv("ANON_WRONG_PASSPHRASE", "not the passphrase at all")
    out = tmp_path / "m.csv"
    for source in (encrypted, tmp_path):
        args = [
            "decrypt-mapping",
            str(source),
            "--passphrase-env",
            "ANON_WRONG_PASSPHRASE",
            "--out",
            str(out),
        ]
        assert cli.main(args) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and "not the passphrase" not in err
    assert not out.exists()


def test_bundle_may_not_take_the_report_path(people, tmp_path, capsys):
    recipe = _recipe(tmp_path, SAFE_RECIPE)
    before = _files(tmp_path)
    same = str(tmp_path / "release.zip")
    assert _apply(people, recipe, tmp_path / "out.csv", "--report", same, "--bundle", same) == 2
    assert "its own path" in capsys.readouterr().err
    assert _files(tmp_path) == before


def test_an_error_naming_a_hostile_file_name_stays_one_terminal_line(tmp_path, capsys):
    """A file name with a newline and an ANSI escape must not forge a second 'error:' line
    or recolour the terminal: an error's text is one line (core.errors shows a line break as
    its escape, so the name stays recognisable) and the escape is shown as an escape."""
    from core.cli import main

    name = tmp_path / "x\nerror: all clear\x1b[32m.csv"
    assert main(["risk", str(name), "--qi", "a"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "\x1b" not in err and "x\\nerror: all clear\\x1b[32m.csv" in err


def test_risk_reports_population_uniqueness_with_a_population(adult_hierarchies_dir, capsys):
    """ARX harness (tests/data/arx/PopModelsHarness.java, ARX commit aacd487f): adult,
    QIs sex, age, race, marital-status, ARXPopulationModel.create(100,000,000):
    getFractionOfUniqueTuplesDankar() = 5.285857062654052E-5, model PITMAN. (In process:
    the entry point ``python -m core`` is run by the tests above.)"""
    from core import cli

    data = adult_hierarchies_dir / "adult.csv"
    args = ["risk", str(data), "--qi", "sex,age,race,marital-status", "--no-impact"]
    assert cli.main([*args, "--population", "1e8", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["population_uniqueness"] == pytest.approx(5.285857062654052e-05, rel=1e-6)
    assert figures["population_model_used"] == "pitman"
    assert figures["sampling_fraction"] == pytest.approx(30_162 / 1e8)
    assert cli.main([*args, "--population", "1e8"]) == 0
    text = capsys.readouterr().out
    assert "population_uniqueness: Of a population of 100,000,000 people" in text
    assert cli.main([*args, "--population", "1000"]) == 2
    assert "'population'" in capsys.readouterr().err


def test_search_with_hierarchical_t_closeness(adult_hierarchies_dir, capsys):
    """--t-hierarchy gives t-closeness with hierarchical distance (ARX's
    HierarchicalDistanceTCloseness); the optimum is the Python API's."""
    from core import cli
    from core.hierarchy import read_hierarchy
    from core.search import Target, search

    folder = adult_hierarchies_dir
    qis = ("sex", "race", "marital-status", "education")
    args = [
        "search",
        str(folder / "adult.csv"),
        "--k",
        "5",
        "--max-suppressed",
        "0.01",
        *(f"--hierarchy={c}={folder / f'adult_hierarchy_{c}.csv'}" for c in qis),
        "--sensitive",
        "occupation",
        "--t",
        "0.1",
        "--t-hierarchy",
        str(folder / "adult_hierarchy_occupation.csv"),
        "--json",
    ]
    assert cli.main(args) == 0
    got = json.loads(capsys.readouterr().out)
    assert "t-closeness t = 0.1 (hierarchical distance) on 'occupation'" in got["target"]
    df = pd.read_csv(folder / "adult.csv", sep=";")
    target = Target(
        k=5,
        max_suppressed=0.01,
        sensitive="occupation",
        t=0.1,
        t_distance="hierarchical",
        t_hierarchy=read_hierarchy(folder / "adult_hierarchy_occupation.csv"),
    )
    hierarchies = {c: read_hierarchy(folder / f"adult_hierarchy_{c}.csv") for c in qis}
    best = search(df, hierarchies, target).optimum
    assert got["optimum"]["levels"] == dict(best.levels)
    assert got["optimum"]["sensitive_figures"]["t"] == pytest.approx(best.sensitive_figures["t"])
    assert cli.main([*args[:-3], "--t-distance", "hierarchical"]) == 2  # no hierarchy given
    assert "hierarchy" in capsys.readouterr().err


def test_search_with_gs_factor_and_weights(adult_hierarchies_dir, capsys):
    """--gs-factor and --weight are ARX's gsFactor and attribute weights (core.search)."""
    from core import cli
    from core.hierarchy import read_hierarchy
    from core.search import Target, search

    folder = adult_hierarchies_dir
    qis = ("sex", "age", "race", "education")
    args = [
        "search",
        str(folder / "adult.csv"),
        "--k",
        "5",
        "--max-suppressed",
        "0.02",
        *(f"--hierarchy={c}={folder / f'adult_hierarchy_{c}.csv'}" for c in qis),
        "--measure",
        "arx_loss",
        "--gs-factor",
        "0.2",
        "--weight",
        "age=1",
        "--weight",
        "sex=0.1",
        "--json",
    ]
    assert cli.main(args) == 0
    got = json.loads(capsys.readouterr().out)
    df = pd.read_csv(folder / "adult.csv", sep=";")
    hierarchies = {c: read_hierarchy(folder / f"adult_hierarchy_{c}.csv") for c in qis}
    best = search(
        df,
        hierarchies,
        Target(k=5, max_suppressed=0.02),
        measure="arx_loss",
        gs_factor=0.2,
        weights={"age": 1.0, "sex": 0.1},
    ).optimum
    assert got["optimum"]["levels"] == dict(best.levels)
    assert got["optimum"]["measures"]["arx_loss"] == pytest.approx(best.measures["arx_loss"])
    assert "(gsFactor 0.2, age weight 1, sex weight 0.1)" in got["explanation"]
    assert cli.main([*args[:-3], "--weight", "age", "--json"]) == 2
    assert "must be COLUMN=NUMBER" in capsys.readouterr().err


def test_search_with_population_targets_and_recipe(adult_hierarchies_dir, tmp_path, capsys):
    """ARX harness (tests/data/arx/PopModelsHarness.java): adult, QIs sex, age, race,
    marital-status, education; AverageReidentificationRisk(0.02), 3% suppression,
    discernibility -> [0, 0, 1, 2, 1], 14 records suppressed, score 4,554,354."""
    from core import cli

    folder = adult_hierarchies_dir
    columns = ["sex", "age", "race", "marital-status", "education"]
    hierarchies = [f"--hierarchy={c}={folder / f'adult_hierarchy_{c}.csv'}" for c in columns]
    recipe = tmp_path / "recipe.yaml"
    code = cli.main(
        [
            "search",
            str(folder / "adult.csv"),
            *hierarchies,
            "--k",
            "1",
            "--max-suppressed",
            "0.03",
            "--max-average-risk",
            "0.02",
            "--measure",
            "discernibility",
            "--recipe-out",
            str(recipe),
            "--json",
        ]
    )
    assert code == 0
    optimum = json.loads(capsys.readouterr().out)["optimum"]
    assert [optimum["levels"][c] for c in columns] == [0, 0, 1, 2, 1]
    assert optimum["suppressed"] == 14 and optimum["measures"]["discernibility"] == 4_554_354
    assert optimum["table_figures"]["average_risk"] <= 0.02
    assert "average_risk:\n    max: 0.02" in recipe.read_text()
    assert cli.main(["search", str(folder / "adult.csv"), *hierarchies, "--k-map", "5"]) == 2
    assert "'population'" in capsys.readouterr().err


_HUGE_PAGES_PROBE = """
import os, runpy, sys
sys.argv = ["core", "--help"]
try:
    runpy.run_module("core", run_name="__main__")
except SystemExit:
    pass
from numpy._core.multiarray import _set_madvise_hugepage
print(_set_madvise_hugepage(True))  # the setting NumPy had: True when it asks for huge pages
"""


@pytest.mark.parametrize(("user_setting", "asks"), [(None, "False"), ("1", "True")])
def test_python_m_core_asks_numpy_for_no_huge_pages_unless_the_user_says(user_setting, asks):
    env = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    if user_setting is not None:
        env["NUMPY_MADVISE_HUGEPAGE"] = user_setting
    probe = subprocess.run(
        [sys.executable, "-c", _HUGE_PAGES_PROBE],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=ROOT,
    )
    assert probe.stdout.strip().splitlines()[-1] == asks, probe.stderr


_MAPPED_PROBE = """
import ctypes, sys
if sys.argv[1] == "tuned":
    from core.process import tune_for_large_tables
    tune_for_large_tables()
import numpy as np
class Info(ctypes.Structure):  # glibc's struct mallinfo2
    _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks",
                "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
mallinfo2 = ctypes.CDLL(None).mallinfo2
mallinfo2.restype = Info
if sys.argv[2] == "thread":  # 128 MiB, more than a thread's own arena's heap holds
    import threading
    arrays = []
    worker = threading.Thread(target=lambda: arrays.append(np.ones(2**24)))
    worker.start()
    worker.join()
else:
    array = np.ones(2**23)  # 64 MiB
print(mallinfo2().hblkhd)  # bytes in separately mapped blocks
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
@pytest.mark.parametrize(
    ("setting", "where", "mapped"),
    [
        ("tuned", "main", False),
        ("as is", "main", True),
        ("tuned", "thread", False),
        ("as is", "thread", True),
    ],
)
def test_large_arrays_come_from_the_heap_in_the_command_lines_process(setting, where, mapped):
    """core.process (python -m core) has glibc serve a 64 MiB array from its heap, which
    keeps freed memory for the next array, and a 128 MiB array made on another thread too
    (one arena for all threads); by default glibc maps both apart."""
    probe = subprocess.run(
        [sys.executable, "-c", _MAPPED_PROBE, setting, where],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert (int(probe.stdout.split()[-1]) >= 2**26) == mapped, probe.stdout


def test_the_small_cell_warning_names_no_value_and_no_source_file(tmp_path):
    """Issue 27: the aggregate step's warning printed the small groups' values (Gender=F,
    Age=30: one woman) and, as Python shows a warning, the server's source path."""
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(
        "seed: 3\nsteps:\n"
        "  - {step: aggregate, by: [Gender, Age], values: [Average number of trips per week],"
        " min_cell: 3}\n",
        encoding="utf-8",
    )
    done = run(
        "apply",
        str(TAXI),
        "--recipe",
        str(recipe),
        "--out",
        str(tmp_path / "o.csv"),
        "--release-anyway",
    )
    warning = [line for line in done.stderr.splitlines() if "fewer than 3" in line]
    assert len(warning) == 1 and warning[0].startswith("warning: "), done.stderr
    assert "Gender=" not in done.stderr and "=F" not in done.stderr
    assert ".py" not in done.stderr and str(ROOT) not in done.stderr


ESCAPED_NAME = "name\x1b]0;owned\x07\x1b[31m"  # retitles the terminal, turns it red


@pytest.mark.parametrize(
    "command",
    [
        ["classify"],
        ["risk", "--qi", ESCAPED_NAME],
        ["safe-harbor", "--reference-date", "2024-01-01"],
    ],
)
def test_control_characters_in_column_names_never_reach_the_terminal(tmp_path, capsys, command):
    """Issue 27: a column name's escape sequences reached the normal output of classify,
    risk and safe-harbor (errors were already neutralised)."""
    data = tmp_path / "people.csv"
    pd.DataFrame({ESCAPED_NAME: ["Tan Ah Kow", "Lim Mei Ling"], "age": [30, 41]}).to_csv(
        data, index=False
    )
    assert cli.main([command[0], str(data), *command[1:]]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "name\\x1b]0;owned\\x07\\x1b[31m" in out  # shown, as its Python escapes
