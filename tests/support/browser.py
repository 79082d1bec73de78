"""Real-browser test support: start ``streamlit run`` on a free 127.0.0.1 port and drive
Debian's Chromium through Playwright (never ``playwright install``)."""
from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def streamlit_server(script: str = "app.py", env: dict[str, str] | None = None, timeout: float = 90):
    """Yield the base URL of a ``streamlit run`` of ``script`` on a free loopback port."""
    port = free_port()
    cmd = [sys.executable, "-m", "dkw_app.streamlit_main", "run", str(ROOT / script),
           "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    full_env = {**os.environ, **(env or {})}
    log = open(Path(full_env.get("DKW_DATA_DIR", "/tmp")) / f"streamlit-{port}.log", "w")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + timeout
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"streamlit did not start; see {log.name}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def require_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (.ci/run installs it)")


@contextlib.contextmanager
def browser_page(viewport=(1280, 900)):
    """A Playwright page in Debian's Chromium."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
            page.set_default_timeout(60_000)
            yield page
        finally:
            browser.close()


def wait_idle(page, timeout: float = 60_000) -> None:
    """Wait until the Streamlit script has finished running after an action."""
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE, timeout=timeout)


def appears(locator, timeout: float = 20_000) -> bool:
    """Whether ``locator`` is shown within ``timeout`` ms. Right after a navigation the script may
    report idle before it has drawn the page, so ``locator.count()`` can miss what is coming."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.first.wait_for(timeout=timeout)
    except PlaywrightTimeout:
        return False
    return True


def choose(page, group, option: str, *, tries: int = 3) -> None:
    """Pick ``option`` in the radio ``group`` (a ``stRadio`` locator) and check it stayed picked.

    Under load a click can land while the page redraws the group after the previous answer's
    rerun and be lost; it is repeated (at most ``tries`` times), as a participant would."""
    choice = group.locator("[data-testid=stRadioOption]").filter(has_text=re.compile(f"^{re.escape(option)}$"))
    for _ in range(tries):
        choice.click()
        wait_idle(page)
        if choice.locator("input").is_checked():
            return
    assert choice.locator("input").is_checked(), f"the answer {option!r} did not stay picked after {tries} clicks"
