"""The privacy ledger file: the budget and every release that spent it, read within
limits and replaced atomically, so a release made of several commands keeps one total ε.
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

from core.dp.budget import PrivacyBudget
from core.dp.release import SOURCE, DPRelease
from core.errors import ParameterError
from core.outputs import Output, write_outputs

#: Largest ledger file read (an entry per release is about a kilobyte).
MAX_LEDGER_BYTES = 64 * 2**20


def _read_ledger(path: Path) -> Any:
    """The ledger file's JSON: a regular file (a FIFO would be waited on for ever) of
    at most :data:`MAX_LEDGER_BYTES`, one line of error otherwise."""
    try:
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise ParameterError(f"The privacy ledger '{path}' is not a regular file.")
            raw = file.read(MAX_LEDGER_BYTES + 1)
        if len(raw) > MAX_LEDGER_BYTES:
            raise ParameterError(
                f"The privacy ledger '{path}' is larger than "
                f"{MAX_LEDGER_BYTES // 2**20} MiB: not a ledger."
            )
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError) as error:  # RecursionError: "[[[[..." nested
        reason = "nested too deep" if isinstance(error, RecursionError) else error
        raise ParameterError(f"Cannot read the privacy ledger '{path}': {reason}.") from None
    return data


def open_ledger(path: str | Path, *, epsilon: float | None, delta: float = 0.0) -> PrivacyBudget:
    """The budget recorded in the ledger file at ``path``, or a new one of ``epsilon``/``delta``.

    A release made of several commands shares one ledger, so its total ε is enforced across
    them. A budget given for an existing ledger must match the recorded one.
    """
    path = Path(path)
    if not path.exists():
        if epsilon is None:
            raise ParameterError("A new ledger needs a budget: give --budget (total ε).")
        return PrivacyBudget(epsilon, delta)
    budget = PrivacyBudget.from_dict(_read_ledger(path))
    if epsilon is not None and not math.isclose(epsilon, budget.epsilon):
        raise ParameterError(
            f"The ledger '{path}' records a budget of ε = {budget.epsilon:g}; a release's "
            f"budget cannot change to {epsilon:g}. Omit --budget, or start a new ledger file."
        )
    return budget


def write_ledger(
    path: str | Path, release: DPRelease, budget: PrivacyBudget, **about: Any
) -> dict[str, Any]:
    """Add ``release`` (with ``about``, e.g. input and output files) to the ledger file.

    The file is replaced atomically and durably (temporary file, fsync, rename, fsync of
    the folder: :func:`core.outputs.write_outputs`), so a crash leaves the old ledger or
    the new one, never half of one. Call it *before* writing the noisy table: a release
    must never exist without the record of the ε it spent.
    """
    path = Path(path)
    releases: list[Any] = []
    if path.exists():
        releases = _read_ledger(path).get("releases", [])
    entry = {k: v for k, v in release.ledger().items() if k not in ("budget", "spent", "charges")}
    entry.update(about)
    data = {**budget.to_dict(), "source": SOURCE, "releases": [*releases, entry]}
    text = json.dumps(data, indent=2, ensure_ascii=False)
    write_outputs([(Output("privacy ledger", path, update=True), text.encode("utf-8"))])
    return data
