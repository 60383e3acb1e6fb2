"""(α,k)-anonymity (Wong et al. 2006; PDPC guide, Annex C and Step 4): besides k, no
sensitive value makes up more than a share α of a class, so the most likely value of a
class is not too likely."""

from __future__ import annotations

import numpy as np

from core.errors import ParameterError
from core.measures.models.base import ClassTable, Parameter, PrivacyModel, Settings
from core.validation import require_probability


class AlphaKModel(PrivacyModel):
    name = "alpha_k"
    label = "(alpha,k)-anonymity"
    title = "(α,k)-anonymity"
    parameters = (
        Parameter(
            "alpha",
            "alpha",
            "the largest share one sensitive value may take in a class (0-1)",
            example=0.8,
            flag="--alpha",
            cli={
                "type": float,
                "help": "(α,k)-anonymity: no value of the sensitive column above a share α "
                "of its class",
            },
        ),
    )
    words = (
        "no sensitive value makes up more than a share α of the class (Wong et al. 2006; "
        "PDPC guide, Annex C and Step 4)"
    )
    figure_words = "the largest share one sensitive value takes in a class"

    def check(self, settings: Settings) -> None:
        alpha = settings["alpha"]
        if alpha is not None and require_probability("alpha", alpha) == 0:
            raise ParameterError("Parameter 'alpha' must be greater than 0.")

    def monotone_with_generalisation(self, settings: Settings) -> bool:
        return True  # a merged class's largest share is at most its parts' largest

    def failing(self, settings: Settings, table: ClassTable) -> np.ndarray:
        return table.needs_dist().alpha() > settings["alpha"] + 1e-12

    def figure(self, table: ClassTable) -> float | None:
        return table.largest(table.needs_dist().alpha())

    def node_figures(self, settings: Settings, table: ClassTable) -> dict[str, float]:
        return {"alpha": float(self.figure(table))}

    def describe(self, settings: Settings) -> str:
        return f"(alpha,k)-anonymity alpha = {settings['alpha']:g} on '{settings['sensitive']}'"


MODEL = AlphaKModel()
