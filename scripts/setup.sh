#!/usr/bin/env bash
# Set up everything the dashboard and the tests need on a fresh Debian machine (as root):
# a virtual environment in .venv with requirements-test.txt, Java for the Spark engine, and
# Debian's Chromium for the browser tests (Playwright drives /usr/bin/chromium; it never downloads a browser).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v python3 >/dev/null || need_apt+=(python3)
python3 -c "import venv, ensurepip" 2>/dev/null || need_apt+=(python3-venv)
# Java for the Spark engine (pyspark starts a JVM); Debian's headless runtime is enough.
command -v java >/dev/null || need_apt+=(default-jre-headless)
if [ "${1:-}" = "--with-browser" ]; then
  # The emoji font lets screenshots show the page icons instead of empty boxes.
  for package in chromium fonts-dejavu-core fonts-noto-color-emoji; do
    dpkg -s "$package" >/dev/null 2>&1 || need_apt+=("$package")
  done
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-test.txt
