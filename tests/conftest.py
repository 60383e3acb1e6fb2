"""Shared test fixtures (one place, as STYLE.md asks)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
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


def people_table(rows: int = 5000, seed: int = 30) -> pd.DataFrame:
    """A table of dates of birth (1950-1999, written ISO or day first), Singapore postal
    codes in six sectors (stored as numbers: sector 07's lose their leading zero) and the
    addresses they belong to (block, street of the sector, unit, postal code)."""
    rng = np.random.default_rng(seed)
    days = rng.integers(0, (pd.Timestamp("1999-12-31") - pd.Timestamp("1950-01-01")).days, rows)
    born = pd.Timestamp("1950-01-01") + pd.to_timedelta(days, unit="D")
    day_first = rng.random(rows) < 0.3
    dob = np.where(day_first, born.strftime("%d/%m/%Y"), born.strftime("%Y-%m-%d"))
    streets = {
        7: ["Anson Road", "Tanjong Pagar Road"],
        15: ["Jalan Bukit Merah", "Lengkok Bahru"],
        31: ["Toa Payoh Lorong 1", "Kim Keat Avenue"],
        52: ["Tampines Street 21", "Tampines Avenue 4"],
        56: ["Ang Mo Kio Avenue 3", "Ang Mo Kio Street 21"],
        64: ["Jurong West Street 41", "Boon Lay Drive"],
    }
    sector = rng.choice(list(streets), rows)
    postal = sector * 10_000 + rng.integers(0, 10_000, rows)
    street = np.array(
        [streets[s][i] for s, i in zip(sector, rng.integers(0, 2, rows), strict=True)]
    )
    block = rng.integers(1, 999, rows)
    unit = [
        f"#{f:02d}-{u:02d}"
        for f, u in zip(rng.integers(1, 30, rows), rng.integers(1, 99, rows), strict=True)
    ]
    addr = [
        f"Blk {b} {s} {u} Singapore {p:06d}"
        for b, s, u, p in zip(block, street, unit, postal, strict=True)
    ]
    return pd.DataFrame({"dob": dob, "postal": postal, "addr": addr})


@pytest.fixture
def people() -> pd.DataFrame:
    """5,000 people: dates of birth, postal codes and addresses (:func:`people_table`)."""
    return people_table()


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
