"""The names of the risk figures, each with its plain sentence and guide section.

"P(re-ID)" used to name three different figures (issue 29, "One vocabulary"): the Annex D
probability in the sidebar and on Risk (P(attempt) / k), 1 / k on Trade-offs, and 1 / k
again in History's log (0.167 for a k = 6 release whose check said 0.1 = 0.6 / 6). Each
figure has one name here, and every page, the release check, the report and the command
line take it from here, so one name always means one figure.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ANNEX_D_P_REID", "P_ATTEMPT", "RECORD_RISK", "FigureName"]


@dataclass(frozen=True)
class FigureName:
    """A figure's name as shown, its one plain sentence and the guide section it comes from."""

    name: str
    sentence: str
    section: str

    def help(self) -> str:
        """The sentence and its source, for a tooltip or a caption."""
        return f"{self.sentence} ({self.section})"


#: 1 / k: the prosecutor risk of the most exposed record (what History's log records).
RECORD_RISK = FigureName(
    name="highest record risk (1/k)",
    sentence=(
        "The chance that the most exposed record is re-identified by someone who tries: "
        "1 divided by the size of its group of look-alike records (k)."
    ),
    section="PDPC guide, Annex D (prosecutor risk)",
)

#: P(attempt): the chance that someone tries, from the controls and motivation (Annex D).
P_ATTEMPT = FigureName(
    name="P(attempt)",
    sentence=(
        "The chance that someone tries to re-identify a record: the largest of an insider "
        "attack, recognition by an acquaintance and a data breach, set by the controls in "
        "place and the motivation."
    ),
    section="PDPC guide, Annex D",
)

#: P(attempt) / k: the probability compared with the threshold for the harm (Annex D).
ANNEX_D_P_REID = FigureName(
    name="Annex D P(re-ID)",
    sentence=(
        "The chance that a record is re-identified: the chance of an attempt times the "
        "highest record risk 1/k. At or below the threshold for the harm a disclosure "
        "would do, the risk is acceptable."
    ),
    section="PDPC guide, Annex D",
)
