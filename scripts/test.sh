#!/usr/bin/env bash
# Set up (if needed) and run every check: lint, format, unit/property/AppTest tests and
# the headless-Chromium browser walk-through (screenshots land in tests/screenshots/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --with-browser
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# Two test processes (pytest-xdist), one per core of the 2-core machines the suite is run on:
# the suite takes about 8 minutes instead of 13. TEST_WORKERS=0 runs it in one process.
.venv/bin/python -m pytest -n "${TEST_WORKERS:-2}" "$@"
