"""R's default random numbers (Mersenne-Twister, ``set.seed``, ``runif``) in NumPy.

sdcMicro's tests build their data with ``set.seed(s); runif(...)``; this reproduces those
tables exactly so that sdcMicro's expected figures can be checked here. R seeds the
generator by scrambling the seed with the LCG ``seed = 69069 * seed + 1`` (50 times,
then once per word of state, the first word being the position) and turns each 32-bit
output into ``u = x * 2^-32`` (R's RNG.c). Checked against the values sdcMicro's
test_suda2.R prints for ``set.seed(3); runif(30, 1, 100)[21:30]``.
"""

from __future__ import annotations

import numpy as np


class RRandom:
    """``RRandom(3).runif(30, 1, 100)`` is R's ``set.seed(3); runif(30, 1, 100)``."""

    def __init__(self, seed: int) -> None:
        state = seed & 0xFFFFFFFF
        for _ in range(50):
            state = (69069 * state + 1) & 0xFFFFFFFF
        words = []
        for _ in range(625):
            state = (69069 * state + 1) & 0xFFFFFFFF
            words.append(state)
        self._bits = np.random.MT19937()
        self._bits.state = {
            "bit_generator": "MT19937",
            "state": {"key": np.array(words[1:], dtype=np.uint32), "pos": 624},
        }

    def runif(self, n: int, low: float = 0.0, high: float = 1.0) -> np.ndarray:
        return low + (high - low) * self._bits.random_raw(n) * 2.3283064365386963e-10
