"""Shared test fixtures (one place, as STYLE.md asks)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

# Vendored from ARX (Apache-2.0) so that a fresh clone runs every test; see data/adult/README.md.
ADULT_DIR = Path(__file__).resolve().parent / "data" / "adult"


@pytest.fixture(scope="session")
def adult_hierarchies_dir() -> Path:
    """Folder with adult.csv and its ARX hierarchies (adult_hierarchy_<column>.csv)."""
    return ADULT_DIR


@pytest.fixture(scope="session")
def _adult_table() -> pd.DataFrame:
    return pd.read_csv(ADULT_DIR / "adult.csv", sep=";")


@pytest.fixture
def adult(_adult_table: pd.DataFrame) -> pd.DataFrame:
    """The adult census table (30,162 rows); a fresh copy for each test."""
    return _adult_table.copy()


@pytest.fixture(scope="session")
def spark():
    """One local Spark session for every Spark test (starting Java takes seconds)."""
    pytest.importorskip("pyspark")
    from core.engines.spark_engine import spark_session

    # short jobs on small tables: quick JIT and no code generation start faster
    quick_start = {
        "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
        "spark.sql.codegen.wholeStage": "false",
        "spark.sql.shuffle.partitions": "2",
    }
    session = spark_session("local[2]", quick_start)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
