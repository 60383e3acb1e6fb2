"""Write sample_data/survey_households.csv: a synthetic household survey with weights.

A 1-in-50 style sample of 702 people in 240 households, with the sampling weight each
record carries (how many people of the population it stands for) and the household id,
so that the survey risk measures (sampling weights, household risk, SUDA2) and the survey
methods (local suppression, microaggregation, PRAM, correlated noise) can be tried on the
dashboard. Seeded: running it again writes the same file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parents[1] / "sample_data" / "survey_households.csv"
REGIONS = ["Central", "East", "North", "North-East", "West"]
AGE_BANDS = ["0-14", "15-24", "25-34", "35-44", "45-54", "55-64", "65-74", "75+"]
EDUCATION = ["No formal", "Primary", "Secondary", "Post-secondary", "Diploma", "Degree"]
HOUSING = ["HDB 1-3 room", "HDB 4-room", "HDB 5-room/EC", "Condominium", "Landed"]


def main() -> None:
    rng = np.random.default_rng(2024)
    rows = []
    person = 0
    for household in range(1, 241):
        size = int(rng.choice([1, 2, 3, 4, 5], p=[0.15, 0.25, 0.25, 0.25, 0.10]))
        region = REGIONS[rng.integers(len(REGIONS))]
        housing = HOUSING[int(rng.choice(5, p=[0.2, 0.3, 0.25, 0.15, 0.1]))]
        weight = round(float(rng.uniform(30, 70)), 1)  # one weight per household (cluster)
        for _ in range(size):
            person += 1
            age = AGE_BANDS[rng.integers(len(AGE_BANDS))]
            income = 0 if age == "0-14" else round(float(rng.lognormal(8.1, 0.6)), -1)
            rows.append(
                {
                    "person_id": f"P{person:04d}",
                    "household_id": f"H{household:03d}",
                    "region": region,
                    "housing_type": housing,
                    "household_size": size,
                    "sex": "F" if rng.random() < 0.51 else "M",
                    "age_band": age,
                    "education": EDUCATION[rng.integers(len(EDUCATION))],
                    "monthly_income": income,
                    "monthly_spending": round(income * float(rng.uniform(0.4, 0.9)), -1),
                    "weight": weight,
                }
            )
    pd.DataFrame(rows).to_csv(OUT, index=False)
    print(f"wrote {len(rows)} people in 240 households to {OUT}")


if __name__ == "__main__":
    main()
