"""β-likeness (Cao and Karras 2012; PDPC guide, Step 4): no class raises the share of a
sensitive value by more than β relative to its share in the whole table ((q - p) / p <= β;
enhanced: <= min(β, -ln p), stricter for rare values). ARX ``BasicBLikeness`` and
``EnhancedBLikeness``."""

from __future__ import annotations

import numpy as np

from core.errors import ParameterError
from core.measures.models.base import ClassTable, Parameter, PrivacyModel, Settings
from core.validation import require_positive


class BetaLikenessModel(PrivacyModel):
    name = "beta_likeness"
    label = "beta-likeness"
    title = "β-likeness"
    parameters = (
        Parameter(
            "beta",
            "beta",
            "the largest relative gain (share in class - share in table) / share in table",
            example=1.0,
            flag="--beta",
            cli={
                "type": float,
                "help": "β-likeness of the sensitive column: (share in a class - share in "
                "the table) / share in the table at most β",
            },
        ),
        Parameter(
            "enhanced",
            "enhanced_beta",
            "enhanced β-likeness: the gain at most min(β, -ln p)",
            flag="--enhanced-beta",
            cli={"action": "store_true", "help": "enhanced β-likeness (with --beta)"},
        ),
    )
    words = (
        "no sensitive value's share in the class exceeds its share p in the whole table by "
        "more than β p (enhanced: min(β, -ln p) p); Cao and Karras 2012, PDPC guide, Step 4"
    )
    figure_words = "the largest relative gain of a value's share in a class over the table's"

    def check(self, settings: Settings) -> None:
        if settings["beta"] is not None:
            require_positive("beta", settings["beta"])
        if not isinstance(settings["enhanced_beta"], bool | np.bool_):
            raise ParameterError(
                f"Parameter 'enhanced_beta' must be true or false, got "
                f"{settings['enhanced_beta']!r}."
            )

    def monotone_with_generalisation(self, settings: Settings) -> bool:
        return True  # a merged class's shares are averages of its parts' (ARX BasicBLikeness)

    def failing(self, settings: Settings, table: ClassTable) -> np.ndarray:
        dist = table.needs_dist()
        if settings["enhanced_beta"]:
            return ~dist.beta_enhanced_ok(settings["beta"])
        return dist.beta() > settings["beta"] + 1e-12

    def figure(self, table: ClassTable) -> float | None:
        return table.largest(table.needs_dist().beta())

    def node_figures(self, settings: Settings, table: ClassTable) -> dict[str, float]:
        return {"beta": float(self.figure(table))}

    def describe(self, settings: Settings) -> str:
        kind = "enhanced" if settings["enhanced_beta"] else "basic"
        return f"{kind} beta-likeness beta = {settings['beta']:g} on '{settings['sensitive']}'"


MODEL = BetaLikenessModel()
