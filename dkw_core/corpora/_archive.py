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



def member_bytes(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    """The content of a regular file ``member`` (as yielded by :func:`tar_members`)."""
    fh = tar.extractfile(member)
    return fh.read() if fh is not None else b""
