"""Benchmark every page's first open in a real browser, cold and warm: for each page a fresh
``python -m dkw_app.serve`` (what ``make run`` starts), Debian's Chromium opens it and the time runs
from the request until the page has drawn its content, its script is idle and no chart or table is
still a loading placeholder (*cold*: the server's
first visitor); then the same page is opened again in a new tab (*warm*: a second visitor, the
server's caches filled). The machine's 1-minute load average is recorded beside every figure.

    .venv/bin/python benchmarks/bench_pages.py [--pages Home Documents …] [--root CHECKOUT]
        [--after S] [--browser-cached] [--profile]

Uses ``DKW_DATA_DIR`` and ``DKW_ARCHIVES`` as set (prepared corpora make Documents and Categories
open on one); prints one JSON line per page and a Markdown table.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import IDLE, browser_page, free_port  # noqa: E402

#: URL paths of the pages ("" is Home), in the sidebar's order.
PAGES = {"Home": "", "Documents": "Documents", "Metrics": "Metrics", "Categories": "Categories",
         "Study_admin": "Study_admin", "Judge": "Judge", "Study_results": "Study_results"}
#: Drawn once a page has shown its content (a title, or the judge's first element).
CONTENT = "[data-testid='stMain'] [data-testid='stElementContainer']"


def _start(root: Path, env: dict[str, str], port: int, log) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "-m", "dkw_app.serve"], cwd=root, env={**env, "PORT": str(port)},
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=2).close()
            return server
        except OSError:
            time.sleep(0.5)
    raise RuntimeError("the server did not start")


#: A placeholder Streamlit draws while an element's code (a chart, a table) is still loading.
SKELETON = "[data-testid='stSkeleton']"


def _open(page, url: str) -> float:
    """Seconds until the page's script is idle and no element is still a loading placeholder."""
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(CONTENT, timeout=600_000)
    page.wait_for_timeout(200)  # the script may still be starting its first run
    page.wait_for_selector(IDLE, timeout=600_000)
    page.wait_for_selector(SKELETON, state="detached", timeout=600_000)  # charts and tables drawn
    return time.perf_counter() - start


def _sampler(pid: int, out: Path) -> subprocess.Popen:
    """py-spy sampling the server and its children (collapsed stacks, one line per stack)."""
    return subprocess.Popen(["py-spy", "record", "--subprocesses", "--idle", "--rate", "200", "--format", "raw",
                             "--pid", str(pid), "--output", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _stop(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)


def measure(root: Path, name: str, path: str, env: dict[str, str], logs: Path, profile: bool = False,
            after: float = 0.0, browser_cached: bool = False) -> dict:
    """One page: cold (a fresh server's first visitor, ``after`` seconds after it answered its
    health check) and warm. With ``browser_cached`` the browser has first loaded Home from another
    server on the same address, which is then stopped: the app's front-end files are in the
    browser's cache (a returning visitor after a server restart), the server is as cold as ever."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/{path}"
    with open(logs / f"{name}.log", "w") as log, browser_page() as page:
        if browser_cached:
            earlier = _start(root, env, port, log)
            try:
                _open(page, f"http://127.0.0.1:{port}/")
                page.goto("about:blank")
            finally:
                _stop(earlier)
        server = _start(root, env, port, log)
        try:
            time.sleep(after)
            sampler = _sampler(server.pid, logs / f"{name}.cold.txt") if profile else None
            load_cold = os.getloadavg()[0]
            cold = _open(page, url)
            if sampler is not None:
                sampler.send_signal(signal.SIGINT)
                sampler.wait(60)
            load_warm = os.getloadavg()[0]
            page.goto("about:blank")
            warm = _open(page, url)
        finally:
            _stop(server)
    return {"page": name, "cold_s": round(cold, 1), "warm_s": round(warm, 1),
            "load_cold": round(load_cold, 1), "load_warm": round(load_warm, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose app is timed")
    parser.add_argument("--pages", nargs="+", choices=list(PAGES), default=list(PAGES))
    parser.add_argument("--after", type=float, default=0.0,
                        help="seconds between the server's health check and the first visitor (default 0)")
    parser.add_argument("--browser-cached", action="store_true",
                        help="the browser has loaded the app's front end before (from an earlier server)")
    parser.add_argument("--profile", action="store_true",
                        help="sample each cold open with py-spy (installed separately) into the logs folder")
    args = parser.parse_args()
    root = args.root.resolve()
    logs = Path(tempfile.mkdtemp(prefix="dkw-bench-pages-"))
    env = {**os.environ, "PYTHONPATH": str(root), "DKW_HOST": "127.0.0.1"}
    rows = []
    for name in args.pages:
        row = measure(root, name, PAGES[name], env, logs, args.profile, args.after, args.browser_cached)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(f"\nlogs: {logs}\n\n| page | cold | warm | load (1 min) |\n|---|---|---|---|")
    for r in rows:
        print(f"| {r['page']} | {r['cold_s']} s | {r['warm_s']} s | {r['load_cold']}, {r['load_warm']} |")


if __name__ == "__main__":
    main()
