"""core.release.bundle: the internal archive reproduces the release byte for byte; the recipient's
bundle holds no hierarchy file or identity mapping table (tests/core/test_bundle_recipient.py
scans it for original values)."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from core.errors import RecipeError
from core.io import read_table
from core.recipe import Recipe, apply_recipe
from core.release.bundle import build_archive, build_bundle, portable_recipe, released_bytes, replay
from core.release.report import build_report
from core.techniques.pseudonymisation import decrypt_table, encrypt_table

ROOT = Path(__file__).resolve().parents[2]


def _adult_recipe(hierarchy_dir: Path) -> Recipe:
    """Two ARX hierarchies (by path, as recipes made elsewhere have them) and a random step."""
    return Recipe(
        steps=(
            {
                "step": "generalise",
                "column": "age",
                "level": 2,
                "hierarchy": str(hierarchy_dir / "adult_hierarchy_age.csv"),
            },
            {
                "step": "generalise",
                "column": "education",
                "level": 1,
                "hierarchy": "adult_hierarchy_education.csv",
            },
            {"step": "swap", "columns": ["occupation"]},
            {"step": "remove", "columns": ["native-country"]},
        ),
        seed=2024,
        meta={"name": "adult release", "quasi_identifiers": ["age", "sex", "education"], "k": 5},
    )


@pytest.fixture
def adult_release(adult_hierarchies_dir: Path):
    original = read_table(adult_hierarchies_dir / "adult.csv")  # as the CLI and script read it
    as_written = _adult_recipe(adult_hierarchies_dir)
    recipe, hierarchies = portable_recipe(as_written, base_dir=adult_hierarchies_dir)
    result = apply_recipe(original, as_written, base_dir=adult_hierarchies_dir)
    return original, recipe, hierarchies, result


def test_portable_recipe_names_hierarchies_by_content(adult_hierarchies_dir: Path) -> None:
    recipe, files = portable_recipe(
        _adult_recipe(adult_hierarchies_dir), base_dir=adult_hierarchies_dir
    )
    age_text = (adult_hierarchies_dir / "adult_hierarchy_age.csv").read_text(encoding="utf-8")
    age_name = f"hierarchies/age-{hashlib.sha256(age_text.encode()).hexdigest()[:10]}.csv"
    assert recipe.steps[0]["hierarchy"] == age_name and files[age_name] == age_text
    assert sorted(files) == sorted(s["hierarchy"] for s in recipe.steps if "hierarchy" in s)


def test_a_missing_hierarchy_file_is_named(tmp_path: Path) -> None:
    recipe = Recipe(
        steps=({"step": "generalise", "column": "age", "level": 1, "hierarchy": "nowhere/age.csv"},)
    )
    with pytest.raises(RecipeError, match="Step 1.*'nowhere/age.csv'"):
        portable_recipe(recipe, base_dir=tmp_path)


def test_replay_from_content_matches_the_original_run(adult_release) -> None:
    original, recipe, hierarchies, result = adult_release
    again = replay(original, recipe, hierarchies)
    pd.testing.assert_frame_equal(again.data, result.data)


def test_archive_reproduces_the_release_byte_for_byte(adult_release, tmp_path: Path) -> None:
    original, recipe, hierarchies, result = adult_release
    released = released_bytes(result, "out.csv")
    report = build_report(original, result, recipe)
    archive = build_archive(
        released=released,
        released_name="out.csv",
        recipe=recipe,
        hierarchies=hierarchies,
        report=report,
    ).to_zip()

    # An empty folder with only the bundle and the original data; only `core` importable.
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    with zipfile.ZipFile(io.BytesIO(archive)) as zipped:
        zipped.extractall(folder)
    shutil.copy(ROOT / "tests" / "data" / "adult" / "adult.csv", folder / "ORIGINAL.csv")
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    # Run from another folder: hierarchies are found next to the script, not the caller.
    run = subprocess.run(
        [
            sys.executable,
            "-B",
            "elsewhere/anonymise.py",
            "elsewhere/ORIGINAL.csv",
            "elsewhere/OUT.csv",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert (folder / "OUT.csv").read_bytes() == (folder / "released.csv").read_bytes() == released
    # The manifest lists every other file with its sha256 (sha256sum -c format).
    manifest = (folder / "MANIFEST.sha256").read_text().splitlines()
    listed = dict(reversed(line.split("  ", 1)) for line in manifest)
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert set(listed) == on_disk - {"MANIFEST.sha256", "ORIGINAL.csv", "OUT.csv"}
    for name, digest in listed.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
    readme = (folder / "README.txt").read_text()
    assert "python anonymise.py ORIGINAL.csv OUT.csv" in readme
    assert hashlib.sha256(released).hexdigest() in readme
    assert {"report.md", "report.json", "recipe.yaml"} <= on_disk
    assert readme.startswith("INTERNAL REPRODUCTION ARCHIVE: HOLDS PERSONAL DATA.")


def test_bundle_names_enumerated_hierarchies_and_leaves_them_out(adult_release) -> None:
    """ARX's adult hierarchies are enumerated (no builder makes them): the recipient's
    recipe keeps their names, the files stay in the archive, the README says so."""
    original, recipe, hierarchies, result = adult_release
    bundle = build_bundle(
        released=released_bytes(result, "out.csv"),
        released_name="out.csv",
        recipe=recipe,
        hierarchies=hierarchies,
    )
    assert not any(name.startswith("hierarchies/") for name in bundle.files)
    readme = bundle.files["README.txt"].decode()
    for name in hierarchies:
        assert f"  {name}: enumerated (lists original values)." in readme
        assert f"hierarchy: {name}" in bundle.files["recipe.yaml"].decode()
    assert "re-run the release\n  from the internal reproduction archive" in readme
    assert "python anonymise.py" not in readme  # it could not run without those files


def test_bundle_zip_is_deterministic(adult_release) -> None:
    original, recipe, hierarchies, result = adult_release
    released = released_bytes(result, "out.csv")

    for build in (build_bundle, build_archive):

        def make(build=build) -> bytes:
            return build(
                released=released, released_name="out.csv", recipe=recipe, hierarchies=hierarchies
            ).to_zip()

        first = make()
        assert first == make()
        with zipfile.ZipFile(io.BytesIO(first)) as zipped:
            assert {info.date_time for info in zipped.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_archive_holds_mapping_tables_encrypted_only() -> None:
    mapping = pd.DataFrame({"original": ["S1234567D"], "pseudonym": ["P1"]})
    blob = encrypt_table(mapping, "a long passphrase")
    bundle = build_archive(
        released=b"a\n1\n",
        released_name="x.csv",
        recipe=Recipe(seed=1),
        hierarchies={},
        encrypted_mappings={"nric": blob},
    )
    archive = bundle.to_zip()
    with zipfile.ZipFile(io.BytesIO(archive)) as zipped:
        stored = zipped.read("mapping/nric.enc")
        everything = b"".join(zipped.read(n) for n in zipped.namelist())
    pd.testing.assert_frame_equal(decrypt_table(stored, "a long passphrase"), mapping)
    assert b"S1234567D" not in everything and b"a long passphrase" not in everything


def test_the_recipient_bundle_never_holds_a_mapping_table() -> None:
    """Not even encrypted: it links pseudonyms to people (PDPC guide, Annex A:
    Pseudonymisation, "keep the identity mapping table securely and apart")."""
    bundle = build_bundle(
        released=b"a\n1\n",
        released_name="x.csv",
        recipe=Recipe(seed=1),
        hierarchies={},
        made_mappings=True,
    )
    assert sorted(bundle.files) == ["README.txt", "anonymise.py", "recipe.yaml", "released.csv"]
    readme = bundle.files["README.txt"].decode()
    assert "Identity mapping tables were made; they are not in this bundle." in readme


def test_hostile_names_do_not_escape_the_archive() -> None:
    bundle = build_archive(
        released=b"a\n",
        released_name="../../etc/passwd",
        recipe=Recipe(seed=1),
        hierarchies={},
        encrypted_mappings={"../x": encrypt_table(pd.DataFrame({"a": [1]}), "a long passphrase")},
    )
    assert all(".." not in name and not name.startswith("/") for name in bundle.files)
    with pytest.raises(RecipeError, match="not a bundle file name"):
        build_archive(
            released=b"",
            released_name="x.csv",
            recipe=Recipe(seed=1),
            hierarchies={"../evil.csv": "x;*\n"},
        )


@pytest.mark.parametrize("build", [build_bundle, build_archive])
def test_a_bundle_needs_the_seed(build) -> None:
    with pytest.raises(RecipeError, match="seed"):
        build(released=b"", released_name="x.csv", recipe=Recipe(), hierarchies={})


def test_two_columns_whose_names_sanitise_alike_keep_both_mapping_tables() -> None:
    """'NRIC no' and 'NRIC/no' both became mapping/NRIC_no-mapping.enc: one table lost."""
    blobs = {
        f"{column}-mapping": encrypt_table(
            pd.DataFrame({"pseudonym": [column]}), "a long passphrase"
        )
        for column in ("NRIC no", "NRIC/no")
    }
    bundle = build_archive(
        released=b"a\n1\n",
        released_name="x.csv",
        recipe=Recipe(seed=1),
        hierarchies={},
        encrypted_mappings=blobs,
    )
    stored = {name: data for name, data in bundle.files.items() if name.startswith("mapping/")}
    assert sorted(stored.values()) == sorted(blobs.values())
    assert all("/" not in name.removeprefix("mapping/") for name in stored)
