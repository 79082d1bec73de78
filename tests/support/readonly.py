"""Make a file or folder read-only for a test, also when the tests run as root (where mode bits
do not stop writes): ``chmod`` for a normal user, the immutable attribute (``chattr +i``) for
root. Skips the test where neither is possible."""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


def _chattr(flag: str, paths: list[Path]) -> bool:
    exe = shutil.which("chattr")
    if exe is None:
        return False
    return subprocess.run([exe, flag, *map(str, paths)], capture_output=True).returncode == 0


@contextlib.contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """Within the block, nothing can be written to ``paths`` (files, or folders: no new entry)."""
    items = [Path(p) for p in paths]
    if os.geteuid() == 0:
        if not _chattr("+i", items):
            pytest.skip("running as root without chattr: cannot make a path read-only")
        try:
            yield
        finally:
            _chattr("-i", items)
        return
    modes = {p: p.stat().st_mode for p in items}
    for p in items:
        p.chmod(modes[p] & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        yield
    finally:
        for p, m in modes.items():
            p.chmod(m)
