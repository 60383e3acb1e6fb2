"""The privacy budget of a release: the ε (and δ) it may spend, charged query by query
(sequential composition), and the one check of an ε and of a δ.

Separate from the noise because the ledger, the command line and the dashboard keep a
budget across releases without drawing any noise.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from numbers import Real
from typing import Any

from core.errors import ParameterError
from core.validation import (
    require_positive,
)

_TOLERANCE = 1e-9  # relative slack when adding up floating-point ε


#: The ε accepted for a release and for each of its queries (checked by
#: :func:`require_epsilon`). Measured with OpenDP 0.x as used here (count: sensitivity 1):
#: above about 745 per query the discrete Laplace noise is exp(-ε) = 0 (no noise at all)
#: and OpenDP's Gaussian cannot be calibrated below σ of about 0.001; below about 1e-9 the
#: integer noise of a count saturates at ±2**31 (OpenDP samples 32-bit integers), and at
#: 1e-16 and below the Gaussian calibration divides by zero. Within [1e-6, 100] every
#: mechanism works; beyond ε of about 10 the guarantee is already void in practice
#: (exp(10) is about 22,000), so 100 is a generous ceiling, and 1e-6 gives a count noise of
#: about ±3 million, more than any table here needs.
MIN_EPSILON = 1e-6
MAX_EPSILON = 100.0


class BudgetExceededError(ParameterError):
    """A query would spend more ε (or δ) than is left in the privacy budget."""


@dataclass(frozen=True)
class Charge:
    """One query's privacy cost, as recorded in the budget's ledger."""

    query: str
    epsilon: float
    delta: float = 0.0


class PrivacyBudget:
    """The total ε (and δ) of one release, spent query by query (sequential composition).

    Each query charges its ε and δ; the costs add up, and a query that would take the
    total above the budget is refused with :class:`BudgetExceededError` before any noise
    is drawn. Queries over disjoint cells of one cross-tabulation are *one* query
    (parallel composition): one person is in one cell only.
    """

    def __init__(self, epsilon: float, delta: float = 0.0, charges: Iterable[Charge] = ()) -> None:
        self.epsilon = require_positive("budget epsilon", epsilon)
        self.delta = require_delta("budget delta", delta)
        self._charges: list[Charge] = []
        for charge in charges:
            self.charge(charge.query, charge.epsilon, charge.delta)

    @property
    def charges(self) -> tuple[Charge, ...]:
        return tuple(self._charges)

    @property
    def spent_epsilon(self) -> float:
        return math.fsum(c.epsilon for c in self._charges)

    @property
    def spent_delta(self) -> float:
        return math.fsum(c.delta for c in self._charges)

    @property
    def remaining_epsilon(self) -> float:
        return max(self.epsilon - self.spent_epsilon, 0.0)

    @property
    def remaining_delta(self) -> float:
        return max(self.delta - self.spent_delta, 0.0)

    def can_afford(self, epsilon: float, delta: float = 0.0) -> bool:
        slack = _TOLERANCE * max(self.epsilon, 1.0)
        eps_ok = self.spent_epsilon + epsilon <= self.epsilon + slack
        delta_ok = self.spent_delta + delta <= self.delta + _TOLERANCE * max(self.delta, 1e-12)
        return eps_ok and delta_ok

    def require(self, what: str, epsilon: float, delta: float = 0.0) -> None:
        """Raise :class:`BudgetExceededError` if ``epsilon``/``delta`` do not fit."""
        if self.can_afford(epsilon, delta):
            return
        asked = f"ε = {epsilon:g}" + (f", δ = {delta:g}" if delta else "")
        raise BudgetExceededError(
            f"{what} needs {asked}, but the privacy budget has only ε = "
            f"{self.remaining_epsilon:g} (δ = {self.remaining_delta:g}) left of ε = "
            f"{self.epsilon:g} (δ = {self.delta:g}) after {len(self._charges)} earlier "
            "query(ies). Lower ε, ask fewer queries, or start a new release with a budget "
            "agreed in advance (more ε means less privacy for everyone in the data)."
        )

    def charge(self, query: str, epsilon: float, delta: float = 0.0) -> Charge:
        """Record a query's cost, or refuse it if it would exceed the budget."""
        epsilon = require_positive(f"epsilon of query '{query}'", epsilon)
        delta = require_delta(f"delta of query '{query}'", delta)
        self.require(f"Query '{query}'", epsilon, delta)
        charge = Charge(query, epsilon, delta)
        self._charges.append(charge)
        return charge

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget": {"epsilon": self.epsilon, "delta": self.delta},
            "spent": {"epsilon": self.spent_epsilon, "delta": self.spent_delta},
            "charges": [
                {"query": c.query, "epsilon": c.epsilon, "delta": c.delta} for c in self._charges
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PrivacyBudget:
        try:
            budget = data["budget"]
            charges = [
                Charge(str(c["query"]), float(c["epsilon"]), float(c.get("delta", 0.0)))
                for c in data.get("charges", [])
            ]
            return cls(float(budget["epsilon"]), float(budget.get("delta", 0.0)), charges)
        except (KeyError, TypeError, ValueError) as error:
            raise ParameterError(
                f"The privacy ledger is not readable ({error!r}): it needs 'budget' "
                "{epsilon, delta} and a 'charges' list. Start a new ledger file."
            ) from None

    def __repr__(self) -> str:
        return (
            f"PrivacyBudget(epsilon={self.epsilon:g}, delta={self.delta:g}, "
            f"spent_epsilon={self.spent_epsilon:g}, queries={len(self._charges)})"
        )


def require_epsilon(name: str, value: object) -> float:
    """The one check of an ε (a release's or one query's): in [MIN_EPSILON, MAX_EPSILON]."""
    epsilon = require_positive(name, value)
    if not MIN_EPSILON <= epsilon <= MAX_EPSILON:
        raise ParameterError(
            f"Parameter '{name}' is {epsilon:g}, outside the range {MIN_EPSILON:g} to "
            f"{MAX_EPSILON:g} that this tool releases with (OpenDP's noise is meaningless "
            "beyond it). Typical values are 0.1 to 5."
        )
    return epsilon


def require_delta(name: str, value: object) -> float:
    """The one check of a δ: a probability from 0 up to (not including) 1."""
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value < 1:
        raise ParameterError(
            f"Parameter '{name}' must be a probability from 0 up to (not including) 1, "
            f"got {value!r}; typical values are far below 1/records, e.g. 1e-6."
        )
    return float(value)
