"""Command line: ``python -m core COMMAND ...`` (machine-readable with ``--json``).

Commands follow the guide's steps: ``classify`` (Step 1), ``apply`` (Steps 2-3 from a
recipe), ``risk`` (Step 4, Annex C), ``suda`` (Step 4, SUDA2 special uniques),
``reid-risk`` (Annex D), ``uniqueness`` (Gibbon & Aisbett), ``spatial-k`` (locations, NIST
SP 800-188), ``safe-harbor`` (HIPAA), ``log``, ``verify`` and ``verify-bundle`` (a
workspace's audit trail and the bundles recorded in it, Step 5), and
``decrypt-mapping`` (read back an encrypted identity mapping table).
A user mistake prints one clear line on stderr and exits with status 2; a traceback means
a bug. Every file a command writes follows :mod:`core.outputs`: never onto an input or
another output, never over an existing file without ``--force``, never over an identity
mapping table, all files of a command or none.

One module per command (its ``add_parser`` and ``run``), assembled by :mod:`core.cli.parser`;
what they share is in :mod:`core.cli.common`.
"""

from core.cli.common import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_USER_ERROR
from core.cli.parser import build_parser, main

__all__ = ["EXIT_BROKEN_PIPE", "EXIT_INTERRUPTED", "EXIT_USER_ERROR", "build_parser", "main"]
