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

# Every technique function, re-exported for people who use the library directly
# (coordinates, dates and HIPAA Safe Harbor live in core/, NIST SP 800-188). Recipe steps
# reach their functions through core.techniques.registry, which needs nothing here.
from core.contextual.steps import recode_absolute, recode_percentile, suppress_contextual
from core.dates import age_from_dob, perturb_ages, perturb_intervals, shift_dates
from core.dp.release import dp_aggregate
from core.geo.transforms import displace_points, round_coordinates, snap_to_grid
from core.local_recoding import recode_locally
from core.safe_harbor import safe_harbor
from core.techniques.aggregation import STATS, aggregate
from core.techniques.cell_suppression import local_suppression
from core.techniques.generalisation import (
    DATE_UNITS,
    generalise_bands,
    generalise_by_rule,
    generalise_date,
    generalise_edges,
    generalise_hierarchy,
    generalise_mapping,
    top_bottom_code,
)
from core.techniques.masking import MASK_PRESETS, mask
from core.techniques.microaggregation import MICROAGGREGATION_METHODS, microaggregate
from core.techniques.perturbation import (
    CORRELATED_NOISE_METHODS,
    NOISE_DISTRIBUTIONS,
    ROUNDING_MODES,
    add_correlated_noise,
    add_noise,
    round_to_base,
)
from core.techniques.post_randomisation import pram
from core.techniques.pseudonymisation import (
    Pseudonymised,
    decrypt_table,
    double_code,
    encrypt_table,
    key_from_env,
    pseudonymise_hmac,
    pseudonymise_random,
)
from core.techniques.redaction import REDACTION_MODES, redact_text
from core.techniques.suppression import (
    remove_columns,
    suppress_below_k,
    suppress_failing_classes,
    suppress_records,
)
from core.techniques.swapping import swap

__all__ = [
    "CORRELATED_NOISE_METHODS",
    "DATE_UNITS",
    "MASK_PRESETS",
    "MICROAGGREGATION_METHODS",
    "NOISE_DISTRIBUTIONS",
    "REDACTION_MODES",
    "ROUNDING_MODES",
    "STATS",
    "Pseudonymised",
    "add_correlated_noise",
    "add_noise",
    "age_from_dob",
    "aggregate",
    "decrypt_table",
    "displace_points",
    "double_code",
    "dp_aggregate",
    "encrypt_table",
    "generalise_bands",
    "generalise_by_rule",
    "generalise_date",
    "generalise_edges",
    "generalise_hierarchy",
    "generalise_mapping",
    "key_from_env",
    "local_suppression",
    "mask",
    "microaggregate",
    "perturb_ages",
    "perturb_intervals",
    "pram",
    "pseudonymise_hmac",
    "pseudonymise_random",
    "recode_absolute",
    "recode_locally",
    "recode_percentile",
    "redact_text",
    "remove_columns",
    "round_coordinates",
    "round_to_base",
    "safe_harbor",
    "shift_dates",
    "snap_to_grid",
    "suppress_below_k",
    "suppress_failing_classes",
    "suppress_contextual",
    "suppress_records",
    "swap",
    "top_bottom_code",
]
