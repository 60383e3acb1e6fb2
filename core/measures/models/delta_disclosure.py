"""δ-disclosure privacy (Brickell and Shmatikov 2008; PDPC guide, Step 4): in every class,
the share of each sensitive value present is within a factor e^δ of its share in the whole
table (|ln(q / p)| < δ), so no class raises or lowers the odds of a value much. ARX
``DDisclosurePrivacy`` (which states δ in log2 units; we use natural logs, as pycanon)."""

from __future__ import annotations

import numpy as np

from core.measures.models.base import ClassTable, Parameter, PrivacyModel, Settings
from core.validation import require_positive


class DeltaDisclosureModel(PrivacyModel):
    name = "delta_disclosure"
    label = "delta-disclosure"
    title = "δ-disclosure privacy"
    parameters = (
        Parameter(
            "delta",
            "delta",
            "the largest |ln(share in class / share in table)| (natural log)",
            example=1.5,
            flag="--delta",
            cli={
                "type": float,
                "help": "δ-disclosure privacy of the sensitive column: |ln(share in a class "
                "/ share in the table)| below δ",
            },
        ),
    )
    words = (
        "every sensitive value present in the class has a share within a factor e^δ of its "
        "share in the whole table (Brickell and Shmatikov 2008; PDPC guide, Step 4)"
    )
    figure_words = "the largest |ln(share in a class / share in the table)| of a value"

    def check(self, settings: Settings) -> None:
        if settings["delta"] is not None:
            require_positive("delta", settings["delta"])

    # Not monotone either way (ARX DDisclosurePrivacy: PrivacyCriterion(false, false)): a
    # merge can bring a value's share nearer to or further from the table's.

    def failing(self, settings: Settings, table: ClassTable) -> np.ndarray:
        return table.needs_dist().delta() >= settings["delta"]

    def figure(self, table: ClassTable) -> float | None:
        return table.largest(table.needs_dist().delta())

    def node_figures(self, settings: Settings, table: ClassTable) -> dict[str, float]:
        return {"delta": float(self.figure(table))}

    def describe(self, settings: Settings) -> str:
        return (
            f"delta-disclosure privacy delta = {settings['delta']:g} on '{settings['sensitive']}'"
        )


MODEL = DeltaDisclosureModel()
