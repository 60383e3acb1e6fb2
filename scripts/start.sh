#!/usr/bin/env bash
# Set up (if needed) and start the dashboard with the sample data on http://127.0.0.1:8501
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/streamlit run app.py "$@"
