"""The workspace walk-through on the guide's Annex C taxi table, worked out by hand: shared
by the AppTest flow (tests/pages/test_workspace_flow.py) and the same walk clicked in
Chromium (tests/browser/test_workspace_walkthrough.py), so both check the same figures.

Importable from both folders because pytest puts tests/ (the folder of tests/conftest.py)
on ``sys.path``.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
TAXI = "guide_annex_c_taxi.csv"
TAXI_TABLE = pd.read_csv(ROOT / "sample_data" / TAXI)


def decade(age: int) -> str:
    """Annex C's age bands: 21 -> "20-29", 30 -> "30-39"."""
    return f"{age // 10 * 10}-{age // 10 * 10 + 9}"


#: An ARX hierarchy for the taxi ages (value; decade; *), as a person would upload it.
AGE_HIERARCHY = "".join(f"{age};{decade(age)};*\n" for age in sorted(set(TAXI_TABLE["Age"])))


def k_by_hand(levels: Mapping[str, int]) -> int:
    """Smallest group over the columns of ``levels`` after generalising each to its level:
    Age 0 as is, 1 its decade, 2 "*"; any other column "*" from level 1 (suppressed)."""
    table = TAXI_TABLE[list(levels)].copy()
    if "Age" in levels:
        table["Age"] = [[age, decade(age), "*"][levels["Age"]] for age in table["Age"]]
    for column in (c for c, level in levels.items() if c != "Age" and level):
        table[column] = "*"
    return int(table.groupby(list(levels)).size().min())


def recipient_files(bundle: bytes) -> list[str]:
    """The files of the recipient's release bundle: no hierarchy file (the uploaded age
    hierarchy lists original ages), no identity mapping table (issue 25, item 5)."""
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        names = archive.namelist()
    assert {"released.csv", "anonymise.py", "recipe.yaml", "README.txt"} <= set(names), names
    assert not any(name.startswith(("hierarchies/", "mapping/")) for name in names), names
    return names


def reproduce_archive(archive_bytes: bytes, folder: Path) -> tuple[list[str], bytes, bytes]:
    """Unpack the internal reproduction archive in the empty ``folder`` beside the original
    taxi table and run ``python anonymise.py ORIGINAL.csv OUT.csv`` there, with only the
    project's core importable. Returns the archive's file names, its released.csv and the
    OUT.csv written."""
    folder.mkdir()
    with zipfile.ZipFile(io.BytesIO(archive_bytes)) as archive:
        names = archive.namelist()
        archive.extractall(folder)
        readme = archive.read("README.txt").decode()
    assert readme.startswith("INTERNAL REPRODUCTION ARCHIVE: HOLDS PERSONAL DATA.")
    assert {"released.csv", "anonymise.py"} <= set(names), names
    assert any(name.startswith("hierarchies/") for name in names), names
    shutil.copy(ROOT / "sample_data" / TAXI, folder / "ORIGINAL.csv")
    run = subprocess.run(
        [sys.executable, "anonymise.py", "ORIGINAL.csv", "OUT.csv"],
        cwd=folder,
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr
    return names, (folder / "released.csv").read_bytes(), (folder / "OUT.csv").read_bytes()
