"""k-anonymity (PDPC guide, Annex C): every record shares its quasi-identifier values with
at least k - 1 others, so an attacker who knows them cannot single a person out among fewer
than k records (identity disclosure, Step 4). ARX ``KAnonymity``."""

from __future__ import annotations

import numpy as np

from core.measures.models.base import ClassTable, Parameter, PrivacyModel, Settings
from core.validation import require_int


class KAnonymityModel(PrivacyModel):
    name = "k_anonymity"
    label = "k-anonymity"
    title = "k-anonymity"
    parameters = (
        Parameter(
            "k",
            "k",
            "records each class must hold at least",
            example=5,
            flag="--k",
            cli={"type": int, "default": 5, "help": "target k (default 5)"},
        ),
    )
    needs_sensitive = False
    words = (
        "a group of look-alike records (same quasi-identifier values) holds at least k "
        "records (PDPC guide, Annex C; Step 4: the guide suggests k = 3 or 5)"
    )
    figure_words = "the size of the smallest class (the table is k-anonymous for this k)"

    def is_asked(self, settings: Settings) -> bool:
        return True  # k = 1 is the model every table meets; ClassModels always has a k

    def check(self, settings: Settings) -> None:
        require_int("k", settings["k"], minimum=1)

    def monotone_with_suppression(self, settings: Settings) -> bool:
        return True

    def monotone_with_generalisation(self, settings: Settings) -> bool:
        return True

    def failing(self, settings: Settings, table: ClassTable) -> np.ndarray:
        return np.asarray(table.sizes) < settings["k"]

    def figure(self, table: ClassTable) -> float | None:
        return int(table.smallest(table.sizes))

    def describe(self, settings: Settings) -> str:
        return f"k = {settings['k']}" if settings["k"] > 1 else ""


MODEL = KAnonymityModel()
