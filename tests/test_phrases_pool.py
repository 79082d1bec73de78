"""The spaCy tagging pool of ``prepare`` (dkw_core/phrases.py) stops with its parent: killed by
SIGTERM, SIGINT or outright (parent death), ``python -m dkw_core prepare`` leaves no worker."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[1]
SENTENCE = ("The team won the game after the coach changed the player and the league praised the striker. "
            "The rocket reached orbit around the planet while the mission control watched the launch. ")


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory):
    """400 documents: enough for prepare to start its pool (200 or more to tag) and to take a while."""
    root = tmp_path_factory.mktemp("pool") / "many"
    for split in ("train", "test"):
        for label in ("sport", "space"):
            (root / split / label).mkdir(parents=True)
            for i in range(100):
                (root / split / label / f"{i}.txt").write_text(f"Document {i}. " + SENTENCE * 12)
    return root


def _launch(folder: Path, data: Path) -> subprocess.Popen:
    env = {**os.environ, "DKW_DATA_DIR": str(data), "DKW_N_PROCESS": "2"}
    return subprocess.Popen([sys.executable, "-m", "dkw_core", "prepare", "--dataset", str(folder)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _pool_started(proc: subprocess.Popen) -> psutil.Process:
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # wait until the two tagging workers run
        if proc.poll() is not None:
            pytest.fail(f"prepare ended before its pool started: {proc.stderr.read().decode()[-500:]}")
        if len(parent.children()) >= 2:
            return parent
        time.sleep(0.2)
    proc.kill()
    pytest.fail("the tagging pool never started")


def _gone(children: list[psutil.Process], seconds: float = 10.0) -> list[psutil.Process]:
    _, alive = psutil.wait_procs(children, timeout=seconds)
    for p in alive:  # never leave them behind, even when the test fails
        p.kill()
    return alive


def test_killing_prepare_leaves_no_tagging_worker(big_folder, tmp_path):
    """Three prepares at once (one start-up time): killed by SIGTERM, SIGINT and SIGKILL."""
    hows = ("SIGTERM", "SIGINT", "SIGKILL")
    procs = {how: _launch(big_folder, tmp_path / f"data-{how}") for how in hows}
    parents = {how: _pool_started(proc) for how, proc in procs.items()}
    children = {how: p.children(recursive=True) for how, p in parents.items()}
    time.sleep(1.0)  # mid-tagging
    for how, parent in parents.items():
        parent.send_signal(getattr(signal, how))
    for parent in parents.values():
        parent.wait(timeout=30)
    left = {how: len(_gone(kids)) for how, kids in children.items()}
    assert left == dict.fromkeys(hows, 0), f"tagging workers that outlived prepare: {left}"
