#!/usr/bin/env bash
# Set up (if needed) and run every check: lint, format, unit/property/AppTest tests and
# the headless-Chromium browser walk-through (screenshots land in tests/screenshots/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --with-browser
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/python -m pytest "$@"
