"""One :class:`CorpusSpec` per built-in corpus: every fact about it, in one place.

A spec names the corpus's archive (:class:`ArchiveSpec`: file name, download sources with their
published checksums, and the structure a valid copy has), the published counts (train, test,
categories), a one-line description and the reader that parses the archive. The registry
(:func:`dkw_core.corpora.load_corpus`, :func:`~dkw_core.corpora.dataset_info`), the downloader
(:mod:`.download`) and the ``download`` command all read :data:`CORPORA`.

Corpora that share an archive share its :class:`ArchiveSpec` object (``r52`` and ``r8``;
``webkb`` and ``webkb4``).
"""
from __future__ import annotations

import re
import tarfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CorpusError
from ..types import Progress
from .model import Document
from .newsgroups import parse_20ng
from .reuters import parse_reuters
from .webkb import TEST_FRACTION, WEBKB4_CLASSES, WEBKB_CLASS_COUNTS, parse_sectors_archive, parse_webkb

__all__ = ["Source", "ArchiveSpec", "CorpusSpec", "CORPORA", "DOWNLOADABLE", "corpus_spec"]


@dataclass(frozen=True)
class Source:
    """One place an archive can be downloaded from."""

    url: str
    sha256: str | None = None  # published checksum of the file served there
    member: str | None = None  # the file is a .zip holding the archive under this name
    mirror: bool = False       # a copy kept by someone else (not the corpus's own page)


# --------------------------------------------------------------------------- structure checks

def _members(path: Path):
    with tarfile.open(path, "r:*") as tar:
        for member in tar:  # iterating reads (and CRC-checks) the whole gzip stream
            if member.isfile():
                yield member


def _count_20ng(path: Path) -> dict[str, int]:
    counts = {"train": 0, "test": 0}
    groups: set[str] = set()
    pattern = re.compile(r"(?:^|/)20news-bydate-(train|test)/([^/]+)/[^/]+$")
    for member in _members(path):
        m = pattern.search(member.name)
        if m:
            counts[m.group(1)] += 1
            groups.add(m.group(2))
    return {**counts, "groups": len(groups)}


def _count_reuters(path: Path) -> dict[str, int]:
    files = docs = 0
    with tarfile.open(path, "r:*") as tar:
        for member in tar:
            if member.isfile() and re.search(r"(?:^|/)reut2-\d+\.sgm$", member.name):
                files += 1
                fh = tar.extractfile(member)
                docs += fh.read().count(b"<REUTERS ") if fh is not None else 0
    return {"sgm files": files, "documents": docs}


def _count_webkb(path: Path) -> dict[str, int]:
    pages = 0
    classes: set[str] = set()
    for member in _members(path):
        parts = member.name.split("/")
        if len(parts) >= 4 and parts[0] == "webkb":
            pages += 1
            classes.add(parts[1])
    return {"pages": pages, "classes": len(classes)}


def _count_nothing(path: Path) -> dict[str, int]:
    return {}


@dataclass(frozen=True)
class ArchiveSpec:
    """An archive: its file name, where to get it, and what a valid copy holds."""

    archive: str
    sources: tuple[Source, ...]
    count: Callable[[Path], dict[str, int]]
    expected: Mapping[str, int] = field(default_factory=dict)


_20NG_SHA256 = "8f1b2514ca22a5ade8fbb9cfa5727df95fa587f4c87b786e15c759fa66d95610"  # as scikit-learn pins it
_20NG = ArchiveSpec(
    "20news-bydate.tar.gz",
    (Source("https://ndownloader.figshare.com/files/5975967", _20NG_SHA256, mirror=True),
     Source("http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz", _20NG_SHA256)),
    _count_20ng, {"train": 11314, "test": 7532, "groups": 20})
_REUTERS = ArchiveSpec(
    "reuters21578.tar.gz",
    (Source("https://kdd.ics.uci.edu/databases/reuters21578/reuters21578.tar.gz"),
     Source("https://archive.ics.uci.edu/static/public/137/reuters+21578+text+categorization+collection.zip",
            member="reuters21578.tar.gz")),
    _count_reuters, {"sgm files": 22, "documents": 21578})
_WEBKB = ArchiveSpec(
    "webkb-data.tar.gz",
    (Source("http://www.cs.cmu.edu/afs/cs.cmu.edu/project/theo-20/www/data/webkb-data.gtar.gz"),),
    _count_webkb, {"pages": 8282, "classes": 7})
_SECTORS = ArchiveSpec("7sectors.tar.gz", (), _count_nothing)  # not publicly mirrored


# --------------------------------------------------------------------------- corpora

Reader = Callable[[Path, str, Progress | None], list[Document]]
"""``reader(archive_path, corpus_name, progress)`` → the corpus's documents."""


def _read_20ng(path: Path, name: str, progress: Progress | None) -> list[Document]:
    return parse_20ng(path, progress)


def _stratified_counts(class_counts: dict[str, int]) -> tuple[int, int]:
    """(train, test) that :func:`~dkw_core.corpora.hash_split` gives on the published class counts."""
    test = sum(int(n * TEST_FRACTION + 0.5) for n in class_counts.values())
    return sum(class_counts.values()) - test, test


@dataclass(frozen=True)
class CorpusSpec:
    """A built-in corpus: its archive, published counts (``None``: unknown), description, reader."""

    name: str
    description: str
    archive: ArchiveSpec
    train: int | None
    test: int | None
    categories: int | None
    reader: Reader

    @property
    def downloadable(self) -> bool:
        return bool(self.archive.sources)

    @property
    def url(self) -> str | None:
        """The corpus's own download page (mirrors left out); ``None`` when it has none."""
        return next((s.url for s in self.archive.sources if not s.mirror), None)


_WEBKB_COUNTS = _stratified_counts(WEBKB_CLASS_COUNTS)
_WEBKB4_COUNTS = _stratified_counts({c: WEBKB_CLASS_COUNTS[c] for c in WEBKB4_CLASSES})

CORPORA: dict[str, CorpusSpec] = {spec.name: spec for spec in (
    CorpusSpec("20ng", "20 Newsgroups, bydate split", _20NG, 11314, 7532, 20, _read_20ng),
    CorpusSpec("r52", "Reuters-21578 ModApte, single-label, 52 topics", _REUTERS, 6532, 2568, 52, parse_reuters),
    CorpusSpec("r8", "Reuters-21578 ModApte, single-label, 8 largest topics", _REUTERS, 5485, 2189, 8,
               parse_reuters),
    CorpusSpec("webkb", "WebKB 4 Universities, 7 classes (flattened), hash-stratified 2/3-1/3 split", _WEBKB,
               *_WEBKB_COUNTS, 7, parse_webkb),
    CorpusSpec("webkb4", "WebKB student/faculty/course/project, hash-stratified 2/3-1/3 split", _WEBKB,
               *_WEBKB4_COUNTS, 4, parse_webkb),
    CorpusSpec("7sectors", "CMU WebKB industry sectors, flattened to the top-level sector, hash-stratified split",
               _SECTORS, None, None, 7, parse_sectors_archive),
)}
"""Every built-in corpus by name, in the order they are listed."""

DOWNLOADABLE: tuple[str, ...] = tuple(name for name, spec in CORPORA.items() if spec.downloadable)
"""The corpora whose archive can be downloaded (all but 7 Sectors)."""


def corpus_spec(name: str) -> CorpusSpec:
    """The spec of built-in corpus ``name``; :class:`CorpusError` naming the built-in ones otherwise."""
    try:
        return CORPORA[name]
    except KeyError:
        raise CorpusError(f"unknown dataset {name!r}; built-in datasets: {', '.join(CORPORA)} "
                          "(or give a folder <split>/<category>/<file> or a .csv with columns text,label,split)") from None
