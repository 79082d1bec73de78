"""The one on-disk and in-process cache of dkw.

Every cache entry lives under ``<DKW_DATA_DIR>/cache/v<CACHE_VERSION>/<kind>/`` and is named
by :func:`key` from the *content* it depends on (a corpus's content key, the vectors' name,
settings), never by a display name alone, so an edited document or another setting can
never be served from an old entry. Writes are atomic: a file or folder is written under a
temporary name in the same folder and renamed into place, so a reader sees either the old
entry, the new one or none, never half of one. A damaged entry reads as missing.

In-process caches are :class:`Memo` objects: bounded, least recently used first out.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import re
import shutil
import tempfile
import warnings
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Generic, TypeVar

from .config import cache_dir, data_dir

CACHE_VERSION = 3
"""Bump when any cached layout changes: older entries are then simply not found."""

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
_T = TypeVar("_T")


def key(*parts: object, readable: str = "") -> str:
    """A file-system-safe cache key: an optional readable prefix and a hash of ``parts``."""
    digest = hashlib.sha1(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    prefix = _SAFE.sub("-", readable).strip("-")[:80]
    return f"{prefix}__{digest}" if prefix else digest


def folder(kind: str) -> Path:
    """``<DKW_DATA_DIR>/cache/v<CACHE_VERSION>/<kind>``, created on demand (in a read-only data
    folder it is not created: reads then find nothing and writes say, once, that nothing is saved)."""
    try:
        return cache_dir(f"v{CACHE_VERSION}", kind)
    except OSError:
        return data_dir().joinpath("cache", f"v{CACHE_VERSION}", kind)


def path(kind: str, name: str) -> Path:
    return folder(kind) / name


def text_hash(text: str) -> str:
    """Content hash of one document's text (tagging entries are keyed by it)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


@contextmanager
def atomic_file(target: Path) -> Iterator[Path]:
    """Yield a temporary path next to ``target``; renamed onto ``target`` if the block succeeds."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.replace(tmp_path, target)
    finally:
        tmp_path.unlink(missing_ok=True)


@contextmanager
def atomic_dir(target: Path) -> Iterator[Path]:
    """Yield a fresh temporary folder next to ``target``; it replaces ``target`` on success."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    try:
        yield tmp
        if target.exists():
            old = target.with_name(f".{target.name}.old{os.getpid()}")
            os.replace(target, old)
            os.replace(tmp, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class CacheWarning(UserWarning):
    """A cache entry was damaged (checksum mismatch) and is rebuilt, or could not be saved."""


def notice(message: str) -> None:
    """One line for the user about the cache (a damaged entry rebuilt, nothing saved)."""
    warnings.warn(message, CacheWarning, stacklevel=3)


_TOLD_UNSAVED: set[str] = set()


def unsaved(where: Path, exc: OSError) -> None:
    """Say once per process (per data folder) that the cache cannot be written: results are
    computed from what is cached, and nothing new is kept."""
    root = str(data_dir())
    if root in _TOLD_UNSAVED:
        return
    _TOLD_UNSAVED.add(root)
    notice(f"nothing could be saved in the data folder {root} (read-only or full: {exc.strerror or exc}); "
           "answering from what is cached, new results are not kept")


def file_checksum(target: Path) -> str:
    """BLAKE2b of a cached file's bytes (stored beside an entry, verified when it is read)."""
    h = hashlib.blake2b(digest_size=16)
    with target.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


_PICKLE_MAGIC = b"DKWPKL1\n"


def write_pickle(target: Path, obj: Any) -> bool:
    """Pickle ``obj`` atomically; a read-only or full disk only costs speed (warns, returns False)."""
    try:
        payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        with atomic_file(target) as tmp, tmp.open("wb") as fh:
            fh.write(_PICKLE_MAGIC + hashlib.blake2b(payload, digest_size=16).digest() + payload)
        return True
    except OSError as exc:
        unsaved(target.parent, exc)
        return False


def read_pickle(target: Path) -> Any | None:
    """The pickled object, or ``None`` when the entry is missing or damaged (then rebuilt). A
    checksum written with the entry is verified; a mismatch is reported in one line."""
    try:
        data = target.read_bytes()
    except OSError:
        return None
    try:
        if data.startswith(_PICKLE_MAGIC):
            head = len(_PICKLE_MAGIC)
            digest, payload = data[head:head + 16], data[head + 16:]
            if hashlib.blake2b(payload, digest_size=16).digest() != digest:
                notice(f"cache entry {target.name} is damaged (checksum mismatch); rebuilding it")
                return None
            return pickle.loads(payload)
        return pickle.loads(data)  # written before entries carried a checksum
    except Exception:  # noqa: BLE001 - a truncated or foreign cache file is never trusted
        return None


def remove(target: Path) -> None:
    if target.is_dir():
        shutil.rmtree(target, ignore_errors=True)
    else:
        target.unlink(missing_ok=True)


class Memo(Generic[_T]):
    """A bounded in-process cache (least recently used out), e.g. loaded models or vectors."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict[Hashable, _T] = OrderedDict()

    def get(self, item_key: Hashable, build: Callable[[], _T]) -> _T:
        if item_key in self._items:
            self._items.move_to_end(item_key)
            return self._items[item_key]
        value = build()
        self._items[item_key] = value
        while len(self._items) > self.maxsize:
            self._items.popitem(last=False)
        return value

    def __contains__(self, item_key: Hashable) -> bool:
        return item_key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        self._items.clear()
