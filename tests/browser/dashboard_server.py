"""Start and stop the dashboard for the browser tests (one place for conftest and tests)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT_S = 60


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.read().decode().strip() == "ok"
    except OSError:
        return False


@contextmanager
def run_dashboard(folder: Path, workspace: Path) -> Iterator[str]:
    """``streamlit run app.py`` on a free port with its own workspace file (never
    workspace.anon.db in the repository); yields its URL and stops it afterwards."""
    streamlit = Path(sys.executable).with_name("streamlit")
    port = _free_port()
    folder.mkdir(parents=True, exist_ok=True)
    log_path = folder / "server.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        [
            str(streamlit),
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "ANON_WORKSPACE": str(workspace)},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _healthy(f"{url}/_stcore/health"):
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                output = log_path.read_text(errors="replace")[-3000:]
                pytest.fail(
                    f"The dashboard did not answer on {url}/_stcore/health within "
                    f"{STARTUP_TIMEOUT_S} s (exit code {process.poll()}). Server output:\n"
                    f"{output}"
                )
            time.sleep(0.25)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()
