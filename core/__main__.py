"""``python -m core``: the command line (see :mod:`core.cli`)."""

from core.process import skip_last_collection, tune_for_large_tables

tune_for_large_tables()  # before NumPy is imported

from core.cli import main  # noqa: E402 (after the setting above)

try:
    code = main()
finally:  # also after --help and errors
    skip_last_collection()
raise SystemExit(code)
