"""What goes to a recipient holds nothing the released table does not (issue 25, item 5).

A table of people written here (names, street addresses, dates of birth, postal codes) is
released with hierarchies built from the data, as the Trade-offs page builds them (dates
to year, postal codes masked from the right), plus an address -> town file enumerated by
hand, and keyed pseudonyms with an encrypted identity mapping table. The recipient's
``--bundle`` is then scanned, file by file, for every original value that the released
table does not hold; the internal ``--archive`` must hold them (that is its purpose), say
so in its README, be written 0600, never over a file, and still reproduce the release.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from core.cli import EXIT_USER_ERROR, main
from core.hierarchy import build_hierarchy, store_hierarchy
from core.io import read_table
from core.recipe import Recipe, apply_recipe
from core.release.bundle import build_bundle, portable_recipe, recipient_recipe

ROOT = Path(__file__).resolve().parents[2]
KEY_ENV, PASS_ENV = "ANON_BUNDLE_TEST_KEY", "ANON_BUNDLE_TEST_PASSPHRASE"
IDENTIFYING = ("name", "address", "dob", "postal")
STREETS = {
    "Jalan Bukit Merah": "Bukit Merah",
    "Lorong Chuan": "Serangoon",
    "Toa Payoh North": "Toa Payoh",
    "Upper Serangoon Road": "Serangoon",
}
SURNAMES = ["Tan", "Lim", "Ng", "Goh", "Rahman", "Pillai", "Wong", "Chua"]
GIVEN = ["Ah Kow", "Mei Ling", "Siti", "Rajesh", "Wei Jie", "Hui Min", "Farid", "Kavitha"]


def _people(rows: int = 240) -> pd.DataFrame:
    """People with one address, date of birth and postal code each (seeded)."""
    rng = np.random.default_rng(2507)
    streets = rng.choice(list(STREETS), rows)
    born = pd.Timestamp("1961-01-01") + pd.to_timedelta(rng.integers(0, 3 * 365, rows), "D")
    return pd.DataFrame(
        {
            "name": [
                f"{SURNAMES[i % 8]} {GIVEN[(i // 8) % 8]} {chr(65 + i % 26)}{i}"
                for i in range(rows)
            ],
            "address": [
                f"Blk {100 + i} {s} #{i % 12 + 2:02d}-{i * 7 % 300 + 11:03d}"
                for i, s in enumerate(streets)
            ],
            "dob": born.strftime("%Y-%m-%d"),
            "postal": [f"5{i % 2 + 2}{n:04d}" for i, n in enumerate(rng.integers(0, 10000, rows))],
            "sex": rng.choice(["F", "M"], rows),
            "diagnosis": rng.choice(["asthma", "diabetes", "flu"], rows),
            # one astronaut: a value that points at one person
            "occupation": [
                "Astronaut" if i == 7 else ("Nurse", "Clerk")[i % 2] for i in range(rows)
            ],
        }
    )


@pytest.fixture
def release(tmp_path: Path, monkeypatch) -> Path:
    """The data, its hierarchies and the recipe in a folder, as a user would have them."""
    people = _people()
    people.to_csv(tmp_path / "people.csv", index=False)
    folder = tmp_path / "hierarchies"  # what the Trade-offs page writes: built from the data
    dob = store_hierarchy(
        build_hierarchy(people["dob"], "dates", levels=("month", "year")), folder, stem="dob"
    )
    postal = store_hierarchy(build_hierarchy(people["postal"]), folder, stem="postal")  # auto
    towns = "".join(
        f"{a};{STREETS[next(s for s in STREETS if s in a)]};*\n" for a in people["address"]
    )
    (tmp_path / "towns.csv").write_text(towns, encoding="utf-8")  # enumerated by hand
    (tmp_path / "recipe.yaml").write_text(
        "seed: 5\nquasi_identifiers: [address, dob, postal, sex]\nk: 2\nsteps:\n"
        # a recipe naming people: one record removed by name, a rare job grouped by name
        f"  - {{step: suppress_records, where: {{column: name, equals: '{people['name'][3]}'}}}}\n"
        "  - {step: generalise, column: occupation, mapping: {Astronaut: Other, Nurse: Health}}\n"
        f"  - {{step: pseudonymise, column: name, method: hmac, key_env: {KEY_ENV}}}\n"
        "  - {step: generalise, column: address, hierarchy: towns.csv, level: 1}\n"
        f"  - {{step: generalise, column: dob, hierarchy: {dob.relative_to(tmp_path)}, level: 2}}\n"
        f"  - {{step: generalise, column: postal, hierarchy: {postal.relative_to(tmp_path)}, "
        "level: 4}\n"
        "  - {step: suppress_records, below_k: 2, quasi_identifiers: [address, dob, postal, sex]}\n"
    )
    monkeypatch.setenv(KEY_ENV, "0123456789abcdef0123456789abcdef")
    monkeypatch.setenv(PASS_ENV, "Bundle-test passphrase 2026!")
    return tmp_path


def _apply(folder: Path, *extra: str) -> int:
    # --release-anyway: this file tests what is written, not the release check's verdict
    # (core/release/gate.py); every file is then marked, so names are found by glob.
    return main(
        [
            "apply",
            str(folder / "people.csv"),
            "--recipe",
            str(folder / "recipe.yaml"),
            "--out",
            str(folder / "out.csv"),
            "--mapping-passphrase-env",
            PASS_ENV,
            "--release-anyway",
            *extra,
        ]
    )


def _one(folder: Path, pattern: str) -> Path:
    (found,) = folder.glob(pattern)
    return found


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zipped:
        return {name: zipped.read(name) for name in zipped.namelist()}


def _unreleased_values(folder: Path) -> set[str]:
    """Every original identifying value that no cell of the released table holds: names,
    addresses, dates of birth, postal codes, and a job only one person has."""
    original = pd.read_csv(folder / "people.csv", dtype=str)
    released = pd.read_csv(_one(folder, "out*.csv"), dtype=str)
    cells = set(released.stack().astype(str))
    jobs = original["occupation"].value_counts()
    rare_jobs = set(jobs.index[jobs < 2])  # a job one person holds (the recipe's k = 2)
    assert rare_jobs == {"Astronaut"}
    values = (set(original[list(IDENTIFYING)].stack().astype(str)) | rare_jobs) - cells
    assert len(values) > 3 * 200  # names, addresses, dates of birth and postal codes
    return values


def _found(values: set[str], text: str) -> list[str]:
    """The values that occur in ``text`` as a whole (not inside a longer word or number:
    a postal code's digits may occur by chance inside a sha256 or a pseudonym)."""
    return sorted(
        v for v in values if re.search(rf"(?<![0-9A-Za-z]){re.escape(v)}(?![0-9A-Za-z])", text)
    )


def test_the_recipient_bundle_holds_no_original_value_it_does_not_release(release, capsys):
    assert _apply(release, "--bundle", str(release / "bundle.zip")) == 0, capsys.readouterr().err
    values = _unreleased_values(release)
    members = _members(_one(release, "bundle*.zip"))
    leaks = {
        name: _found(values, data.decode("utf-8", "replace")) for name, data in members.items()
    }
    assert {name: found[:3] for name, found in leaks.items() if found} == {}
    assert not any(name.startswith(("hierarchies/", "mapping/")) for name in members)
    readme = members["README.txt"].decode()
    # Hierarchies built from the data travel as rules; the hand-made file is named, not sent.
    assert "dates to month, then year, then *" in readme
    assert "towns.csv" not in readme and re.search(
        r"hierarchies/address-\w+\.csv: enumerated", readme
    )
    assert "Identity mapping tables were made; they are not in this bundle." in readme
    recipe = members["recipe.yaml"].decode()
    assert "hierarchy_rule" in recipe and "kind: masking" in recipe
    # Values the recipe names that point at fewer than k = 2 people are held back; a
    # category that many share is not (Nurse -> Health).
    assert "equals: '[held back 1]'" in recipe and "Astronaut" not in recipe
    assert "Nurse: Health" in recipe and "2 value(s) the recipe names are rare" in readme
    # The report describes the recipe the recipient has (rules), not files it does not.
    report = members["report.md"].decode()
    assert "dob → level 2: dates to year" in report and "towns.csv" not in report
    assert recipe.strip() in report


def test_rules_in_the_recipient_recipe_release_the_same_table(release):
    """The rule written for the recipient generalises exactly as the file it replaces."""
    original = read_table(release / "people.csv")
    recipe = Recipe.load(release / "recipe.yaml")
    kept = Recipe(tuple(s for s in recipe.steps if s.get("column") in ("dob", "postal")), seed=5)
    portable, files = portable_recipe(kept, base_dir=release)
    recipient = recipient_recipe(portable, files)
    assert recipient.replayable and not any("hierarchy" in s for s in recipient.recipe.steps)
    by_rule = apply_recipe(original, recipient.recipe).data
    by_file = apply_recipe(original, kept, base_dir=release).data
    pd.testing.assert_frame_equal(by_rule, by_file)
    assert by_rule.loc[0, "postal"] == str(original.loc[0, "postal"])[:2] + "****"  # level 4 of 6
    assert by_rule.loc[0, "dob"] == str(original.loc[0, "dob"])[:4]  # dates to year

    # Such a bundle alone re-runs the release from the original data (no hierarchy file).
    released = apply_recipe(original, kept, base_dir=release).data.to_csv(index=False).encode()
    bundle = build_bundle(
        released=released, released_name="out.csv", recipe=portable, hierarchies=files
    ).to_zip()
    _run_script(bundle, release / "recipient", release / "people.csv", released)


def _run_script(package: bytes, folder: Path, original: Path, released: bytes) -> None:
    folder.mkdir()
    with zipfile.ZipFile(io.BytesIO(package)) as zipped:
        zipped.extractall(folder)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        KEY_ENV: os.environ.get(KEY_ENV, ""),
        PASS_ENV: os.environ.get(PASS_ENV, ""),
        "ANON_MAPPING_PASSPHRASE": os.environ.get(PASS_ENV, ""),
    }
    run = subprocess.run(
        [
            sys.executable,
            "-B",
            str(folder / "anonymise.py"),
            str(original),
            str(folder / "OUT.csv"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert (folder / "OUT.csv").read_bytes() == released


def test_the_internal_archive_is_labelled_private_and_reproduces_the_release(release, capsys):
    archive_path = release / "records.zip"
    code = _apply(release, "--bundle", str(release / "bundle.zip"), "--archive", str(archive_path))
    assert code == 0, capsys.readouterr().err
    archive = _one(release, "records*.zip")
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
    members = _members(archive)
    readme = members["README.txt"].decode()
    assert readme.startswith("INTERNAL REPRODUCTION ARCHIVE: HOLDS PERSONAL DATA.")
    # It holds what the bundle may not: the hand-made file, the data-built files, the
    # encrypted identity mapping table (never the key or the passphrase).
    hierarchies = [n for n in members if n.startswith("hierarchies/")]
    assert len(hierarchies) == 3 and "mapping/name-mapping.enc" in members
    everything = b"".join(members.values())
    assert os.environ[KEY_ENV].encode() not in everything
    assert os.environ[PASS_ENV].encode() not in everything
    assert _found(_unreleased_values(release), everything.decode("utf-8", "replace"))
    with zipfile.ZipFile(archive) as zipped:  # unzipped, its files stay the owner's only
        assert {info.external_attr >> 16 for info in zipped.infolist()} == {0o600}
    # Every file is listed with its sha256 in the manifest.
    listed = dict(
        reversed(line.split("  ", 1)) for line in members["MANIFEST.sha256"].decode().splitlines()
    )
    assert set(listed) == set(members) - {"MANIFEST.sha256"}
    assert all(hashlib.sha256(members[n]).hexdigest() == d for n, d in listed.items())
    # From the archive and the original data, the script writes the released file again.
    released = _one(release, "out*.csv").read_bytes()
    again = release / "again"
    _run_script(archive.read_bytes(), again, release / "people.csv", released)
    # ... and so does `apply` with the archive's recipe (hierarchies next to it).
    code = main(
        [
            "apply",
            str(release / "people.csv"),
            "--recipe",
            str(again / "recipe.yaml"),
            "--out",
            str(again / "cli.csv"),
            "--mapping-passphrase-env",
            PASS_ENV,
            "--release-anyway",
        ]
    )
    assert code == 0, capsys.readouterr().err
    assert _one(again, "cli*.csv").read_bytes() == released


def test_an_existing_archive_is_never_replaced(release, capsys):
    archive = release / "records.zip"
    archive.write_bytes(b"an earlier release's records")
    code = _apply(release, "--archive", str(archive), "--force")
    assert code == EXIT_USER_ERROR
    assert "never replaced" in capsys.readouterr().err
    assert archive.read_bytes() == b"an earlier release's records"
    assert not list(release.glob("out*.csv"))  # refused before any work


def test_local_recoding_travels_with_rules_and_releases_the_same_table(tmp_path):
    """The Trade-offs page's local recoding (recode_locally) with hierarchies built from
    the data: the recipient's recipe names rules, no file, and replays to the same table."""
    from core.local_recoding import recode_suppressed
    from core.search import Target

    people = _people(240)[["dob", "postal", "sex"]]
    hierarchies = {
        "dob": build_hierarchy(people["dob"], "dates", levels=("month", "year")),
        "postal": build_hierarchy(people["postal"]),
    }
    result = recode_suppressed(people, hierarchies, Target(k=3, max_suppressed=0.3))
    paths = {c: store_hierarchy(h, tmp_path, stem=c).name for c, h in hierarchies.items()}
    recipe = Recipe(steps=(result.recipe_step(paths),), seed=1)
    assert len(recipe.steps[0]["rounds"]) > 1  # records recoded at other levels: local
    portable, files = portable_recipe(recipe, base_dir=tmp_path)
    recipient = recipient_recipe(portable, files)
    assert recipient.replayable and len(recipient.rules) == 2
    given = recipient.recipe.steps[0]["hierarchies"]
    assert given["dob"] == {"kind": "dates", "levels": ["month", "year"], "dayfirst": False}
    assert given["postal"] == {"kind": "masking", "char": "*", "height": 6}
    through_yaml = Recipe.from_yaml(recipient.recipe.to_yaml())
    pd.testing.assert_frame_equal(
        apply_recipe(people, through_yaml).data,
        apply_recipe(people, recipe, base_dir=tmp_path).data,
    )
