"""``python -m core``: the command line (see :mod:`core.cli`)."""

from core.cli import main

raise SystemExit(main())
