"""Benchmark the Metrics page's first visit in a real browser: ``streamlit run app.py`` in a fresh
process with an empty data folder (the shipped reference results of ``docs/results`` are charted),
Debian's Chromium opens ``/Metrics`` and the time runs until a chart is drawn and the script is
idle; then the Significance tab is clicked and timed the same way. Prints a JSON summary, with the
number of "default hashing method failed" warnings in the server log.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_metrics_page.py [--root CHECKOUT]

``--root`` times another checkout (e.g. a ``git worktree`` of an older commit) with this script.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import IDLE, browser_page, free_port  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose app is timed")
    root = parser.parse_args().root.resolve()
    data = Path(tempfile.mkdtemp(prefix="dkw-bench-metrics-"))
    env = {**os.environ, "PYTHONPATH": str(root), "DKW_DATA_DIR": str(data), "DKW_ARCHIVES": str(root / "data/archives")}
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = data / "server.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "dkw_app.streamlit_main", "run", "app.py", "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
             "--browser.gatherUsageStats", "false"], cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            for _ in range(240):
                try:
                    urllib.request.urlopen(url + "/_stcore/health", timeout=2).close()
                    break
                except OSError:
                    time.sleep(0.5)
            with browser_page() as page:
                start = time.perf_counter()
                page.goto(f"{url}/Metrics")
                page.wait_for_selector("[data-testid='stVegaLiteChart'] svg.marks", timeout=600_000)  # the Overview's chart
                page.wait_for_selector(IDLE, timeout=600_000)
                first = time.perf_counter() - start
                start = time.perf_counter()
                page.get_by_role("tab", name="Significance").click()
                page.wait_for_timeout(300)  # the rerun starts
                page.wait_for_selector(IDLE, timeout=600_000)
                significance = time.perf_counter() - start
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps({"root": str(root), "first_visit_s": round(first, 1), "significance_tab_s": round(significance, 1),
                      "hashing_warnings": log_path.read_text().count("default hashing method failed"),
                      "load_average": os.getloadavg()}))


if __name__ == "__main__":
    main()
