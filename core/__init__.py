"""Anonymisation library following the PDPC (Singapore) Guide to Basic Anonymisation.

The guide's five steps map onto modules: Step 1 (know your data) -> :mod:`core.schema`;
Step 2 (de-identify) and Step 3 (Annex A techniques) -> :mod:`core.techniques`;
Step 4 (compute your risk, Annex C/D) -> :mod:`core.measures` and :mod:`core.risk`;
Step 5 (manage residual risk) -> :mod:`core.release.report`. Every change to data goes through
:mod:`core.recipe`, so a result can be replayed. This package never imports streamlit.
"""

__version__ = "0.1.0"
