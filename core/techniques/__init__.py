"""Anonymisation techniques of the PDPC Guide to Basic Anonymisation, Annex A.

One module per family of techniques; each technique is a pure function
``(df, column(s), *, params..., seed=None) -> new DataFrame`` that never changes its input.

- :mod:`.suppression`: attribute and record suppression, suppression below k (Annex C)
- :mod:`.masking`: character masking and the Annex B presets
- :mod:`.pseudonymisation`: random and keyed pseudonyms, double coding
- :mod:`.redaction`: identifiers inside free text replaced by labels or keyed pseudonyms
- :mod:`.generalisation`: bands, custom ranges, top/bottom coding, mappings,
  hierarchies, dates
- :mod:`.swapping`: shuffling values between records
- :mod:`.perturbation`: base-x rounding and random noise
- :mod:`.aggregation`: summaries per group with a small-cell warning
- :mod:`.cell_suppression`: blank single cells to reach k (sdcMicro ``localSuppression``)
- :mod:`.microaggregation`: MDAV and individual ranking (sdcMicro ``microaggregation``)
- :mod:`.post_randomisation`: post-randomisation of categories (sdcMicro ``pram``)
- :mod:`core.local_recoding`: local recoding of records a global generalisation suppresses
"""

from __future__ import annotations

import importlib
from typing import Any

# Every technique function, re-exported for people who use the library directly
# (``from core.techniques import mask``; coordinates, dates and HIPAA Safe Harbor live in core/,
# NIST SP 800-188). The re-exports are loaded on first use (PEP 562): importing one technique
# module (core.techniques.suppression) runs this file, and an eager import of every family and
# of local recoding, DP, dates, geolocation and Safe Harbor would make each of them import the
# whole library (slow start-up of every command) and close import cycles through the search and
# the DP package. Recipe steps reach their functions through core.techniques.registry.
_HOME = {
    "recode_absolute": "core.contextual.steps",
    "recode_percentile": "core.contextual.steps",
    "suppress_contextual": "core.contextual.steps",
    "age_from_dob": "core.dates",
    "perturb_ages": "core.dates",
    "perturb_intervals": "core.dates",
    "shift_dates": "core.dates",
    "dp_aggregate": "core.dp.release",
    "displace_points": "core.geo.transforms",
    "round_coordinates": "core.geo.transforms",
    "snap_to_grid": "core.geo.transforms",
    "recode_locally": "core.local_recoding",
    "safe_harbor": "core.safe_harbor",
    "STATS": "core.techniques.aggregation",
    "aggregate": "core.techniques.aggregation",
    "local_suppression": "core.techniques.cell_suppression",
    "DATE_UNITS": "core.techniques.generalisation",
    "generalise_bands": "core.techniques.generalisation",
    "generalise_by_rule": "core.techniques.generalisation",
    "generalise_date": "core.techniques.generalisation",
    "generalise_edges": "core.techniques.generalisation",
    "generalise_hierarchy": "core.techniques.generalisation",
    "generalise_mapping": "core.techniques.generalisation",
    "top_bottom_code": "core.techniques.generalisation",
    "MASK_PRESETS": "core.techniques.masking",
    "mask": "core.techniques.masking",
    "MICROAGGREGATION_METHODS": "core.techniques.microaggregation",
    "microaggregate": "core.techniques.microaggregation",
    "CORRELATED_NOISE_METHODS": "core.techniques.perturbation",
    "NOISE_DISTRIBUTIONS": "core.techniques.perturbation",
    "ROUNDING_MODES": "core.techniques.perturbation",
    "add_correlated_noise": "core.techniques.perturbation",
    "add_noise": "core.techniques.perturbation",
    "round_to_base": "core.techniques.perturbation",
    "pram": "core.techniques.post_randomisation",
    "Pseudonymised": "core.techniques.pseudonymisation",
    "decrypt_table": "core.techniques.pseudonymisation",
    "double_code": "core.techniques.pseudonymisation",
    "encrypt_table": "core.techniques.pseudonymisation",
    "key_from_env": "core.techniques.pseudonymisation",
    "pseudonymise_hmac": "core.techniques.pseudonymisation",
    "pseudonymise_random": "core.techniques.pseudonymisation",
    "REDACTION_MODES": "core.techniques.redaction",
    "redact_text": "core.techniques.redaction",
    "remove_columns": "core.techniques.suppression",
    "suppress_below_k": "core.techniques.suppression",
    "suppress_failing_classes": "core.techniques.suppression",
    "suppress_records": "core.techniques.suppression",
    "swap": "core.techniques.swapping",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'core.techniques' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
