"""The words of a release that are known before any work: the guide's use cases (their
names, applicable steps and suggested k) and the mark a release made despite the gate
carries in its file names.

Constants only, importing nothing of the library, so that ``python -m core apply --help``
and the Report page can list them without importing the techniques, the risk measures and
the gate that use them (issue 31: start-up). :mod:`core.release.report` and
:mod:`core.release.gate` use them from here.
"""

from __future__ import annotations

#: The guide's use cases (The anonymisation process, "Use cases").
USE_CASES: dict[str, str] = {
    "internal_deidentified": "Internal data sharing (de-identified data)",
    "internal_anonymised": "Internal data sharing (anonymised data)",
    "external": "External data sharing",
    "long_term": "Long-term data retention",
    "synthetic": "Synthetic data",
}

#: Applicable steps per use case (the guide's "Applicable steps").
APPLICABLE_STEPS: dict[str, tuple[int, ...]] = {
    "internal_deidentified": (1, 2, 5),
    "internal_anonymised": (1, 2, 3, 4, 5),
    "external": (1, 2, 3, 4, 5),
    "long_term": (1, 2, 3, 4, 5),
    "synthetic": (1, 2, 3),
}

#: Suggested k by use case (Step 4 note: 5 or more for external sharing, 3 internal).
SUGGESTED_K: dict[str, int] = {
    "internal_deidentified": 3,
    "internal_anonymised": 3,
    "external": 5,
    "long_term": 3,
    "synthetic": 5,
}

#: Inserted into the file name of a release made despite the gate's objections
#: (:func:`core.release.gate.marked_name`).
NOT_ANONYMISED_MARK = "NOT-ANONYMISED"
