#!/usr/bin/env bash
# Set up (if needed) and start the dashboard with the sample data on http://127.0.0.1:8501
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The project's workspace (data set, roles, recipe versions, audit log): $ANON_WORKSPACE,
# else workspace.anon.db here (git-ignored). See docs/guide/step5-release.md (Workspace).
export ANON_WORKSPACE="${ANON_WORKSPACE:-$PWD/workspace.anon.db}"
exec .venv/bin/streamlit run app.py "$@"
