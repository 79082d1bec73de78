"""Start ``python -m dkw_app.serve`` (what ``make run`` runs) on a free loopback port."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.support.browser import ROOT, free_port


def start(data_dir: Path, env: dict[str, str] | None = None, timeout: float = 90):
    """``(process, base URL, log file)`` once the server answers its health check."""
    port = free_port()
    full = {**os.environ, "PORT": str(port), "DKW_HOST": "127.0.0.1", "DKW_DATA_DIR": str(data_dir), **(env or {})}
    log = open(data_dir / f"serve-{port}.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "dkw_app.serve", "--server.fileWatcherType", "none"], cwd=ROOT,
                            env=full, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + timeout
    while True:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc, url, log
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            log.close()
            raise RuntimeError(f"the server did not start; see {log.name}")
        time.sleep(0.3)


@contextlib.contextmanager
def served(data_dir: Path, env: dict[str, str] | None = None):
    """Yield the base URL of a running ``dkw_app.serve``; stopped with SIGTERM afterwards."""
    proc, url, log = start(data_dir, env)
    try:
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
