"""Benchmark: the dashboard as a person meets it, in a real Chromium, against a bare
Streamlit app in the same run (issue 31).

Usage: ``python bench/bench_dashboard_browser.py [--rows 1000000] [--repeat 5] [--folder DIR]``

Each round starts two cold servers one after the other (fresh processes, empty caches),
the anchor first in even rounds and the dashboard first in odd ones:

- the anchor, ``bench/bare_table_app.py``: ``pd.read_csv(engine="pyarrow")`` of the CSV and
  ``st.dataframe`` of its first 100 rows;
- the dashboard, ``app.py`` opened on the same CSV (``$ANON_DATA``, a new workspace file).

For each it times, in headless Chromium (Debian's ``/usr/bin/chromium`` driven by
Playwright), the seconds from ``page.goto`` to the first table drawn in the main area, and
from starting the server to that table. On the dashboard it then accepts the suggested roles
on Classify, saves them, and times the seconds from clicking Risk in the menu to the k
metric drawn (the risk report of the whole table, computed on that click). The table is
bench_risk's synthetic one (8 quasi-identifiers and a sensitive column), written by
bench_scale. Printed: the median and range of each time, and of the per-round ratio
dashboard / anchor. The machine's load is printed too: on a shared machine, read ratios.

The project's modules are compiled to bytecode first (``compileall``), as an installed
package's are and as the anchor's Streamlit and pandas are: a server started with
``PYTHONDONTWRITEBYTECODE=1`` (set in some shells and CI) would otherwise compile every
module of the library from source at each start, 0.2-0.4 s of the first table that a
person's second start of the dashboard does not pay.
"""

from __future__ import annotations

import argparse
import compileall
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from bench_scale import write_files  # noqa: E402
from browser_steps import (  # noqa: E402
    IDLE,
    MAIN,
    VIEWPORT,
    accept_roles,
    menu_link,
    metric_value,
    save_roles,
)

CHROMIUM = "/usr/bin/chromium"
TABLE = f'{MAIN} [data-testid="stDataFrame"]'
STARTUP_TIMEOUT_S = 120


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.read().decode().strip() == "ok"
    except OSError:
        return False


@contextmanager
def server(script: str, env: dict[str, str], log: Path) -> Iterator[tuple[str, float]]:
    """``streamlit run script`` on a free port; yields its URL and when it was started."""
    port = _free_port()
    streamlit = Path(sys.executable).with_name("streamlit")
    started = time.perf_counter()
    with log.open("wb") as output:
        process = subprocess.Popen(
            [str(streamlit), "run", script, "--server.port", str(port)],
            cwd=ROOT,
            stdout=output,
            stderr=subprocess.STDOUT,
            env={**os.environ, **env},
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + STARTUP_TIMEOUT_S
            while not _healthy(url):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"{script} did not start:\n{log.read_text()[-2000:]}")
                time.sleep(0.05)
            yield url, started
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def compile_project() -> None:
    """Bytecode for app.py and the library, written beside the sources (see above)."""
    compileall.compile_file(ROOT / "app.py", quiet=1)
    for folder in ("core", "ui", "pages"):
        compileall.compile_dir(ROOT / folder, quiet=1)


def first_table(browser, url: str, started: float) -> tuple[float, float, object, object]:
    """(seconds from goto to the first table, from the server's start to it, context, tab)."""
    context = browser.new_context(viewport=VIEWPORT)
    tab = context.new_page()
    tab.set_default_timeout(120_000)
    begin = time.perf_counter()
    tab.goto(url)
    tab.locator(TABLE).first.wait_for(state="visible")
    end = time.perf_counter()
    return end - begin, end - started, context, tab


def k_on_risk(tab, columns: int) -> float:
    """Roles accepted and saved on Classify, then the seconds from clicking Risk to k."""
    accept_roles(tab)
    save_roles(tab, columns)
    begin = time.perf_counter()
    menu_link(tab, "Risk").click()
    tab.locator(f'{MAIN} [data-testid="stMetricLabel"]', has_text="k").first.wait_for()
    tab.wait_for_selector(IDLE)
    seconds = time.perf_counter() - begin
    assert metric_value(tab, "k")  # the figure is drawn
    return seconds


def summary(name: str, values: list[float]) -> str:
    return (
        f"  {name:<46} median {statistics.median(values):6.2f} s"
        f"  (range {min(values):.2f}-{max(values):.2f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--folder", type=Path, help="keep the generated CSV here")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    compile_project()
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        folder = args.folder or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        csv = write_files(args.rows, folder, ["csv"])["csv"]
        columns = len(csv.open().readline().split(","))
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        times: dict[str, list[float]] = {
            "bare app: goto -> first table": [],
            "dashboard: goto -> first table": [],
            "bare app: server start -> first table": [],
            "dashboard: server start -> first table": [],
            "dashboard: click Risk -> k (roles saved)": [],
        }
        ratios: list[float] = []
        logs = Path(scratch)

        def bare_app() -> float:
            with server("bench/bare_table_app.py", {"BENCH_CSV": str(csv)}, logs / "bare.log") as (
                url,
                started,
            ):
                goto, cold, context, _ = first_table(browser, url, started)
                context.close()
            times["bare app: goto -> first table"].append(goto)
            times["bare app: server start -> first table"].append(cold)
            return goto

        def dashboard(round_: int) -> float:
            workspace = Path(scratch) / f"bench-{round_}.anon.db"
            env = {"ANON_DATA": str(csv), "ANON_WORKSPACE": str(workspace)}
            with server("app.py", env, logs / "app.log") as (url, started):
                seconds, cold, context, tab = first_table(browser, url, started)
                times["dashboard: goto -> first table"].append(seconds)
                times["dashboard: server start -> first table"].append(cold)
                times["dashboard: click Risk -> k (roles saved)"].append(k_on_risk(tab, columns))
                context.close()
            return seconds

        for round_ in range(args.repeat):
            # Alternating which goes first, so that neither always meets the machine as the
            # other left it (a server just stopped, a browser tab just closed).
            if round_ % 2 == 0:
                goto = bare_app()
                seconds = dashboard(round_)
            else:
                seconds = dashboard(round_)
                goto = bare_app()
            ratios.append(seconds / goto)
        browser.close()
    print(
        f"Dashboard in headless Chromium, {args.rows:,} rows, {args.repeat} rounds "
        f"(1-minute load {os.getloadavg()[0]:.2f})"
    )
    for name, values in times.items():
        print(summary(name, values))
    print(
        f"  first table, dashboard / bare app (per round)   median {statistics.median(ratios):.2f}x"
        f"  (range {min(ratios):.2f}-{max(ratios):.2f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
