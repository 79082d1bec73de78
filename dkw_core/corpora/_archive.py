"""Reading tar archives (shared by the archive readers)."""
from __future__ import annotations

import tarfile
from collections.abc import Iterator
from pathlib import Path

def tar_members(path: Path) -> Iterator[tuple[tarfile.TarFile, tarfile.TarInfo]]:
    with tarfile.open(path, "r:*") as tar:
        for member in tar:
            if member.isfile():
                yield tar, member

