"""``python -m core``: the command line (see :mod:`core.cli`)."""

from core.process import tune_for_large_tables

tune_for_large_tables()  # before NumPy is imported

from core.cli import main  # noqa: E402 (after the setting above)

raise SystemExit(main())
