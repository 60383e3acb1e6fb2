"""Shared test fixtures (one place, as STYLE.md asks)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

ADULT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "adult"


@pytest.fixture(scope="session")
def adult_hierarchies_dir() -> Path:
    """Folder with adult.csv and its ARX hierarchies (adult_hierarchy_<column>.csv)."""
    if not (ADULT_DIR / "adult_hierarchy_age.csv").is_file():
        pytest.skip(f"adult data set not found in {ADULT_DIR}")
    return ADULT_DIR


@pytest.fixture(scope="session")
def _adult_table() -> pd.DataFrame:
    path = ADULT_DIR / "adult.csv"
    if not path.is_file():
        pytest.skip(f"adult data set not found at {path}")
    return pd.read_csv(path, sep=";")


@pytest.fixture
def adult(_adult_table: pd.DataFrame) -> pd.DataFrame:
    """The adult census table (30,162 rows); a fresh copy for each test."""
    return _adult_table.copy()
