"""Generate the area-level (contextual) sample tables.

- ``sample_data/singapore_areas.csv``: one row per synthetic, Singapore-like subzone
  (planning area + subzone number, e.g. ``BDSZ03``) with its population and five contextual
  measures: ``share_poverty`` (% of residents in low-income households), ``median_income``
  (SGD per month, household), ``share_aged_65_plus`` (%), ``share_public_housing`` (% in
  HDB flats) and ``share_degree`` (% of adults with a degree). Shares have one decimal.
- ``sample_data/survey_respondents.csv``: survey respondents placed in those subzones with
  probability proportional to population, with personal attributes (age band, sex, race,
  housing type) and the contextual measures of their subzone already merged.

Every value is made up. The tables let the Area-level risk page show how contextual values
can pinpoint an area (Witkowski 2007, locational disclosure risk). A few subzones are large
(100,000+ residents, the paper's T5) and a few tiny, as in Singapore.

Run ``python scripts/make_area_data.py [--seed 2026] [--respondents 3000]``.
The same arguments always give the same bytes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.validation import make_rng, require_int  # noqa: E402

DEFAULT_SEED = 2026
DEFAULT_RESPONDENTS = 3000
OUT_DIR = ROOT / "sample_data"

# Planning area, code, number of subzones (Singapore has 55 planning areas, ~330 subzones).
PLANNING_AREAS: tuple[tuple[str, str, int], ...] = (
    ("Ang Mo Kio", "AM", 12),
    ("Bedok", "BD", 9),
    ("Bishan", "BS", 3),
    ("Bukit Batok", "BK", 8),
    ("Bukit Merah", "BM", 17),
    ("Bukit Panjang", "BP", 7),
    ("Bukit Timah", "BT", 10),
    ("Central Water Catchment", "CC", 1),
    ("Changi", "CH", 3),
    ("Choa Chu Kang", "CK", 7),
    ("Clementi", "CL", 8),
    ("Downtown Core", "DT", 11),
    ("Geylang", "GL", 5),
    ("Hougang", "HG", 10),
    ("Jurong East", "JE", 7),
    ("Jurong West", "JW", 9),
    ("Kallang", "KL", 9),
    ("Lim Chu Kang", "LK", 1),
    ("Mandai", "MD", 3),
    ("Marine Parade", "MP", 5),
    ("Museum", "MU", 3),
    ("Newton", "NT", 6),
    ("Novena", "NV", 7),
    ("Orchard", "OR", 3),
    ("Outram", "OT", 4),
    ("Pasir Ris", "PR", 8),
    ("Paya Lebar", "PL", 5),
    ("Pioneer", "PN", 5),
    ("Punggol", "PG", 7),
    ("Queenstown", "QT", 15),
    ("River Valley", "RV", 5),
    ("Rochor", "RC", 7),
    ("Seletar", "SL", 1),
    ("Sembawang", "SB", 8),
    ("Sengkang", "SK", 8),
    ("Serangoon", "SE", 7),
    ("Singapore River", "SR", 5),
    ("Southern Islands", "SI", 3),
    ("Sungei Kadut", "SK2", 2),
    ("Tampines", "TM", 5),
    ("Tanglin", "TN", 6),
    ("Tengah", "TH", 5),
    ("Toa Payoh", "TP", 12),
    ("Tuas", "TS", 6),
    ("Western Islands", "WI", 3),
    ("Woodlands", "WD", 9),
    ("Yishun", "YS", 9),
    ("Novena North", "NN", 4),
    ("Simpang", "SM", 3),
    ("Straits View", "SV", 1),
    ("Marina East", "ME", 1),
    ("Marina South", "MS", 1),
    ("North-Eastern Islands", "NE", 1),
    ("Western Water", "WW", 1),
    ("Changi Bay", "CB", 1),
)

AGE_BANDS = ("15-24", "25-34", "35-44", "45-54", "55-64", "65-74", "75+")
AGE_P = (0.14, 0.17, 0.18, 0.18, 0.16, 0.11, 0.06)
RACES = ("Chinese", "Malay", "Indian", "Others")
RACE_P = (0.74, 0.135, 0.09, 0.035)


def make_areas(rng: np.random.Generator) -> pd.DataFrame:
    """Subzones with population and five correlated contextual measures."""
    keys, names, towns = [], [], []
    for town, code, count in PLANNING_AREAS:
        for i in range(1, count + 1):
            keys.append(f"{code}SZ{i:02d}")
            names.append(f"{town} {i:02d}")
            towns.append(town)
    n = len(keys)
    # population: mostly 2,000-40,000; some near-empty (industrial, islands); a few very large
    population = np.round(np.clip(np.exp(rng.normal(9.3, 0.9, n)), 50, 95_000)).astype(int)
    tiny = rng.random(n) < 0.08
    population[tiny] = rng.integers(0, 300, tiny.sum())
    large = rng.choice(n, size=6, replace=False)
    population[large] = rng.integers(100_000, 135_000, large.size)
    # a latent "affluence" drives the measures, so they are correlated as in real tabulations
    affluence = rng.normal(0, 1, n)
    public_housing = np.clip(80 - 22 * affluence + rng.normal(0, 10, n), 0, 100)
    degree = np.clip(32 + 14 * affluence + rng.normal(0, 7, n), 1, 95)
    poverty = np.clip(9 - 4 * affluence + rng.normal(0, 3, n), 0, 60)
    aged = np.clip(rng.gamma(4.0, 4.0, n), 1, 60)
    income = np.clip(9000 * np.exp(0.35 * affluence + rng.normal(0, 0.15, n)), 1500, 40000)
    return pd.DataFrame(
        {
            "subzone": keys,
            "subzone_name": names,
            "planning_area": towns,
            "population": population,
            "share_poverty": np.round(poverty, 1),
            "median_income": (np.round(income / 10) * 10).astype(int),
            "share_aged_65_plus": np.round(aged, 1),
            "share_public_housing": np.round(public_housing, 1),
            "share_degree": np.round(degree, 1),
        }
    )


def make_respondents(areas: pd.DataFrame, n: int, rng: np.random.Generator) -> pd.DataFrame:
    """Respondents drawn in proportion to population, with the contextual values merged."""
    weights = areas["population"].to_numpy(dtype=float)
    area = rng.choice(len(areas), size=n, p=weights / weights.sum())
    public = areas["share_public_housing"].to_numpy()[area] / 100
    housing = np.where(
        rng.random(n) < public,
        rng.choice(["HDB 1-3 room", "HDB 4-room", "HDB 5-room/EC"], n, p=[0.25, 0.42, 0.33]),
        rng.choice(["Condominium", "Landed"], n, p=[0.7, 0.3]),
    )
    respondents = pd.DataFrame(
        {
            "respondent_id": [f"R{i:05d}" for i in range(1, n + 1)],
            "subzone": areas["subzone"].to_numpy()[area],
            "age_band": rng.choice(AGE_BANDS, n, p=AGE_P),
            "sex": rng.choice(["F", "M"], n),
            "race": rng.choice(RACES, n, p=RACE_P),
            "housing_type": housing,
        }
    )
    measures = [
        "share_poverty",
        "median_income",
        "share_aged_65_plus",
        "share_public_housing",
        "share_degree",
    ]
    return respondents.merge(areas[["subzone", *measures]], on="subzone", how="left")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--respondents", type=int, default=DEFAULT_RESPONDENTS)
    parser.add_argument("--out-dir", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    require_int("respondents", args.respondents, minimum=1)
    rng = make_rng(args.seed)
    areas = make_areas(rng)
    respondents = make_respondents(areas, args.respondents, rng)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    areas.to_csv(args.out_dir / "singapore_areas.csv", index=False, lineterminator="\n")
    respondents.to_csv(args.out_dir / "survey_respondents.csv", index=False, lineterminator="\n")
    print(f"{len(areas)} areas, {len(respondents)} respondents -> {args.out_dir}")


if __name__ == "__main__":
    main()
