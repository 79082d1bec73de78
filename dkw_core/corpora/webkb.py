"""WebKB 4 Universities (``webkb-data.tar.gz``) and the CMU 7 Sectors layout.

``webkb``     8,282 pages, 7 classes (the paper's "webkb-flattened": label = class, university
              folder ignored).
``webkb4``    the common 4-class subset student / faculty / course / project (4,199 pages).
``7sectors``  ``[wrapper/]<sector>/<industry>/.../<file>`` HTML pages from ``7sectors.tar.gz`` or a
              folder; label = the top-level sector ("7sectors-flattened"). Not distributed here, so
              no checksum fixes its content: it is keyed by its files (:func:`sectors_key`).

**Split.** These corpora have no train/test split. :func:`hash_split` gives a deterministic
stratified 2/3–1/3 split: inside every class the documents are ordered by
``sha1("dkw-split-v1:" + <path below the corpus name>)`` and the first ``round(n/3)`` of them are
*test*, the rest *train*. It depends only on the file paths, so it is stable across runs and
machines, and ``webkb4`` documents get exactly the split they have in ``webkb``. Their ids carry
``all`` instead of a split (``webkb/all/course/cornell/<file>``) so an id never changes with the split.
"""
from __future__ import annotations

import hashlib
import os
import tarfile
from collections.abc import Callable, Iterable
from pathlib import Path

from .. import cache
from ..errors import CorpusError
from ..types import Progress, report
from ._archive import member_bytes, tar_members
from .html import html_page_to_text
from .model import Corpus, Document, name_text, safe_id_part

TEST_FRACTION = 1 / 3
"""Share of every class that :func:`hash_split` puts into the test split (WebKB, 7 Sectors)."""
_SPLIT_SALT = "dkw-split-v1:"
WEBKB4_CLASSES = ("course", "faculty", "project", "student")
WEBKB_CLASS_COUNTS = {"course": 930, "department": 182, "faculty": 1124, "other": 3764,
                      "project": 504, "staff": 137, "student": 1641}


def hash_split(paths: Iterable[tuple[str, str]], *, test_fraction: float = TEST_FRACTION) -> dict[str, str]:
    """Deterministic stratified split for corpora without one (WebKB, 7 Sectors).

    ``paths`` are ``(relative_path, label)`` pairs. Inside every label the paths are ordered by
    ``sha1("dkw-split-v1:" + path)`` and the first ``round(n * test_fraction)`` become ``"test"``.
    Returns ``{relative_path: "train" | "test"}``.
    """
    if not 0 <= test_fraction < 1:
        raise CorpusError(f"test_fraction must be in [0, 1), got {test_fraction}")
    by_label: dict[str, list[str]] = {}
    for rel, label in paths:
        by_label.setdefault(label, []).append(rel)
    result: dict[str, str] = {}
    for rels in by_label.values():
        rels.sort(key=lambda r: hashlib.sha1((_SPLIT_SALT + r).encode("utf-8", "surrogateescape")).hexdigest())
        n_test = int(len(rels) * test_fraction + 0.5)
        for i, rel in enumerate(rels):
            result[rel] = "test" if i < n_test else "train"
    return result


def _pages_to_documents(name: str, pages: list[tuple[str, str, bytes]], progress: Progress | None,
                        start: float = 0.3) -> list[Document]:
    """``pages`` = (relative path below the corpus root, label, raw bytes) → hash-split documents."""
    splits = hash_split((rel, label) for rel, label, _ in pages)
    docs = []
    for i, (rel, label, data) in enumerate(pages):
        docs.append(Document(f"{name}/all/{safe_id_part(rel)}", html_page_to_text(data), label, splits[rel]))
        if i % 100 == 0:
            report(progress, start + (1 - start) * 0.95 * i / len(pages), f"{name}: html→text {i}/{len(pages)}")
    return docs


def parse_webkb(path: Path, name: str, progress: Progress | None) -> list[Document]:
    pages = []
    for tar, member in tar_members(path):
        parts = member.name.split("/")
        if len(parts) < 4 or parts[0] != "webkb":
            continue
        label = parts[1]
        if name == "webkb4" and label not in WEBKB4_CLASSES:
            continue
        pages.append(("/".join(parts[1:]), label, member_bytes(tar, member)))
        if len(pages) % 500 == 0:
            report(progress, 0.3 * len(pages) / 8282, f"{name}: {len(pages)} pages read")
    if not pages:
        raise CorpusError(f"{name}: no webkb/<class>/<university>/<file> pages in {path}; is it webkb-data?")
    return _pages_to_documents(name, pages, progress)


def _sectors_pages(files: list[tuple[str, Callable[[], bytes]]], source: Path) -> list[tuple[str, str, bytes]]:
    """Strip wrapper folders down to ``<sector>/<industry>/.../<file>``; label = the sector. A name
    that is not UTF-8 keeps its undecodable bytes as ``\\x9b`` (:func:`~.model.name_text`)."""
    rels = [[p for p in name_text(rel).split("/") if p not in ("", ".")] for rel, _ in files]
    while rels and all(len(r) > 2 for r in rels) and len({r[0] for r in rels}) == 1:
        rels = [r[1:] for r in rels]  # drop a single wrapper folder such as "7sectors/"
    pages = []
    for parts, (_, read) in zip(rels, files):
        if len(parts) < 2:
            raise CorpusError(f"7sectors: file {'/'.join(parts)!r} in {source} is not inside a "
                              "<sector>/<industry>/ folder")
        pages.append(("/".join(parts), parts[0], read()))
    if not pages:
        raise CorpusError(f"7sectors: no <sector>/<industry>/<file> pages in {source}")
    return pages


def hidden(rel: str) -> bool:
    return any(p.startswith(".") or p == "__MACOSX" for p in rel.split("/"))


def _constant(data: bytes) -> Callable[[], bytes]:
    return lambda: data


def parse_sectors_archive(path: Path, name: str, progress: Progress | None) -> list[Document]:
    files: list[tuple[str, Callable[[], bytes]]] = []
    for tar, member in tar_members(path):
        if hidden(member.name):
            continue
        files.append((member.name, _constant(member_bytes(tar, member))))
    return _pages_to_documents(name, _sectors_pages(files, path), progress)


def _folder_files(path: Path) -> list[Path]:
    return [p for p in sorted(path.rglob("*")) if p.is_file() and not hidden(p.relative_to(path).as_posix())]


_SECTORS_KEYS: cache.Memo[str] = cache.Memo(maxsize=4)


def sectors_key(path: str | os.PathLike) -> str:
    """The cache key of a 7 Sectors folder or archive: ``7sectors-<hash of every file's path and
    bytes>``. The other built-in corpora are keyed by their name (their archives are fixed by
    checksums); 7 Sectors is not distributed, so an edited folder (or another archive) must get
    another key. Hashed once per process while no file's size or modification time changes."""
    path = Path(path)
    files = [path] if path.is_file() else _folder_files(path)
    stamps = []
    for f in files:
        st = f.stat()
        stamps.append((str(f.resolve()), st.st_size, st.st_mtime_ns))

    def build() -> str:
        h = hashlib.sha1()
        for f in files:
            h.update(f.relative_to(path).as_posix().encode("utf-8", "surrogateescape") + b"\x00")
            with f.open("rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
            h.update(b"\x00")
        return f"7sectors-{h.hexdigest()[:10]}"

    return _SECTORS_KEYS.get(tuple(stamps), build)


def load_7sectors(path: str | os.PathLike, *, progress: Progress | None = None) -> Corpus:
    """7 Sectors in the CMU layout from a folder or a ``.tar.gz``: ``[wrapper/]<sector>/<industry>/<file>``
    HTML pages, labelled with the top-level sector ("7sectors-flattened"), hash-split; keyed by
    its content (:func:`sectors_key`)."""
    path = Path(path)
    if path.is_file():
        try:
            return Corpus("7sectors", parse_sectors_archive(path, "7sectors", progress), key=sectors_key(path))
        except tarfile.TarError as exc:
            raise CorpusError(f"7sectors: {path} is not a readable tar archive ({exc})") from exc
    if not path.is_dir():
        raise CorpusError(f"7sectors: {path} is neither a folder nor an archive")
    files = [(p.relative_to(path).as_posix(), p.read_bytes) for p in _folder_files(path)]
    return Corpus("7sectors", _pages_to_documents("7sectors", _sectors_pages(files, path), progress),
                  key=sectors_key(path))

