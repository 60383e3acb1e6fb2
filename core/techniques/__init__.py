"""Anonymisation techniques of the PDPC Guide to Basic Anonymisation, Annex A.

One module per family of techniques; each technique is a pure function
``(df, column(s), *, params..., seed=None) -> new DataFrame`` that never changes its input.

- :mod:`.suppression`: attribute and record suppression, suppression below k (Annex C)
- :mod:`.masking`: character masking and the Annex B presets
- :mod:`.pseudonymisation`: random and keyed pseudonyms, double coding
- :mod:`.generalisation`: bands, custom ranges, top/bottom coding, mappings,
  hierarchies, dates
- :mod:`.swapping`: shuffling values between records
- :mod:`.perturbation`: base-x rounding and random noise
- :mod:`.aggregation`: summaries per group with a small-cell warning
"""

from core.techniques.aggregation import STATS, aggregate
from core.techniques.generalisation import (
    DATE_UNITS,
    generalise_bands,
    generalise_date,
    generalise_edges,
    generalise_hierarchy,
    generalise_mapping,
    top_bottom_code,
)
from core.techniques.masking import MASK_PRESETS, mask
from core.techniques.perturbation import (
    NOISE_DISTRIBUTIONS,
    ROUNDING_MODES,
    add_noise,
    round_to_base,
)
from core.techniques.pseudonymisation import (
    Pseudonymised,
    decrypt_table,
    double_code,
    encrypt_table,
    key_from_env,
    pseudonymise_hmac,
    pseudonymise_random,
)
from core.techniques.suppression import remove_columns, suppress_below_k, suppress_records
from core.techniques.swapping import swap

__all__ = [
    "DATE_UNITS",
    "MASK_PRESETS",
    "NOISE_DISTRIBUTIONS",
    "ROUNDING_MODES",
    "STATS",
    "Pseudonymised",
    "add_noise",
    "aggregate",
    "decrypt_table",
    "double_code",
    "encrypt_table",
    "generalise_bands",
    "generalise_date",
    "generalise_edges",
    "generalise_hierarchy",
    "generalise_mapping",
    "key_from_env",
    "mask",
    "pseudonymise_hmac",
    "pseudonymise_random",
    "remove_columns",
    "round_to_base",
    "suppress_below_k",
    "suppress_records",
    "swap",
    "top_bottom_code",
]
