"""Corpus loaders: the paper's evaluation corpora and user corpora (Sajgalik et al. 2017, §5).

Built-in corpora (archives looked up in :func:`dkw_core.config.archives_dir`, i.e. ``DKW_ARCHIVES``):

``20ng``      20 Newsgroups "bydate" (``20news-bydate.tar.gz``): 11,314 train / 7,532 test, 20 groups.
              Text = latin-1 decode of the whole file including headers (as sklearn's ``load_files``).
``r52``       Reuters-21578 (``reuters21578.tar.gz``), ModApte split (``LEWISSPLIT`` TRAIN/TEST with
              ``TOPICS="YES"``), documents with exactly one topic, topics having at least one train and
              one test document: 52 classes, 6,532 / 2,568. Text = TITLE + BODY (entities unescaped;
              documents without TITLE/BODY use their whole ``<TEXT>`` with tags removed). Latin-1.
``r8``        The same filter restricted to acq, crude, earn, grain, interest, money-fx, ship, trade:
              5,485 / 2,189.
``webkb``     WebKB 4 Universities raw HTML (``webkb-data.tar.gz``): 8,282 pages, 7 classes
              (the paper's "webkb-flattened": label = class, university folder ignored).
``webkb4``    The common 4-class subset student / faculty / course / project (4,199 pages).
``7sectors``  The CMU WebKB industry-sector layout ``<sector>/<industry>/.../<file>`` (HTML pages),
              from ``7sectors.tar.gz`` or a folder ``7sectors/`` in the archives folder; label = the
              top-level sector (the paper's "7sectors-flattened"). Not distributed here.

**WebKB / 7 Sectors split.** These corpora have no train/test split. We use a deterministic
stratified 2/3–1/3 split (:func:`hash_split`): inside every class the documents are ordered by
``sha1("dkw-split-v1:" + <path below the corpus name>)`` and the first ``round(n/3)`` of them are
*test*, the rest *train*. It depends only on the file paths, so it is stable across runs and
machines, and ``webkb4`` documents get exactly the split they have in ``webkb``. Their ids carry
``all`` instead of a split (``webkb/all/course/cornell/<file>``) so an id never changes with the split.

**Ids** are stable and unique: ``20ng/test/comp.graphics/38758``, ``r52/train/earn/<NEWID>``,
``webkb/all/<class>/<university>/<file>``, ``7sectors/all/<sector>/<industry>/<file>``,
``<name>/<split>/<category>/<file>`` for a user folder, ``<name>/<split>/<label>/<row>`` for a CSV
(row = 1-based data row, or the value of an optional ``id`` column). Control characters in file
names (two WebKB names end in ``\\r``) are written as ``%0D`` etc.

**User corpora.** A folder ``<split>/<category>/<file>`` (split ``train`` or ``test``) of UTF-8 text
files, or a ``.csv`` with columns ``text,label,split`` (optional ``id``). Decision on bad files: a
binary file (NUL bytes) or a file that is not valid UTF-8 raises :class:`CorpusError` naming the
file — nothing is skipped silently. Hidden files (``.DS_Store``…) are ignored. Empty documents are
kept with ``text == ""`` (the keyword step raises a clear error for them). A user corpus's ``key`` is
``<name>-<content hash>`` so caches never mix two different folders of the same name.

**Download.** A missing archive is downloaded on first use into the archives folder
(:mod:`dkw_core.download`: checksum or structure validated, atomic rename), unless
``DKW_DOWNLOAD=0`` or ``download=False``; then :class:`CorpusError` names the file, the folder
searched and the command that downloads it.

**Cache.** Parsed built-in corpora are pickled under ``cache_dir("corpora")`` keyed by archive
name + size + mtime (+ a format version), so a second load is fast.
"""
from __future__ import annotations

import hashlib
import html
import io
import os
import pickle
import re
import tarfile
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from . import config
from .errors import CorpusError

__all__ = [
    "Document", "Corpus", "list_datasets", "dataset_info", "load_corpus", "available",
    "hash_split", "load_7sectors", "html_page_to_text", "TEST_FRACTION", "R8_TOPICS", "WEBKB4_CLASSES",
]

Progress = Callable[[float, str], None] | None

_FORMAT_VERSION = 2
TEST_FRACTION = 1 / 3
"""Share of every class that :func:`hash_split` puts into the test split (WebKB, 7 Sectors)."""
_SPLIT_SALT = "dkw-split-v1:"
R8_TOPICS = ("acq", "crude", "earn", "grain", "interest", "money-fx", "ship", "trade")
WEBKB4_CLASSES = ("course", "faculty", "project", "student")
_WEBKB_CLASS_COUNTS = {"course": 930, "department": 182, "faculty": 1124, "other": 3764,
                       "project": 504, "staff": 137, "student": 1641}


# --------------------------------------------------------------------------- data types

@dataclass(frozen=True)
class Document:
    """One labelled document of a corpus."""

    id: str
    text: str
    label: str
    split: str


_SPLIT_RANK = {"train": 0, "test": 1}


def _natural_key(text: str) -> tuple:
    """Sort key putting ``9`` before ``10``: digit runs compare as numbers."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in re.split(r"(\d+)", text) if part)


def _doc_sort_key(doc: Document) -> tuple:
    # id = <name>/<split or all>/<label>/<rest>: order by split, label, then the rest naturally.
    rest = doc.id.split("/", 3)[3] if doc.id.count("/") >= 3 else doc.id
    return (_SPLIT_RANK.get(doc.split, 2), doc.label, _natural_key(rest))


class Corpus:
    """A labelled corpus with a train and a test split (paper §5: 20NG, R52, R8, WebKB, 7 Sectors).

    ``documents`` are kept in the stable order: split (train first), category, file id
    (numeric ids numerically). ``key`` names the corpus in caches; it equals ``name`` for the
    full built-in corpora and differs for samples (``20ng-head15``) and user corpora.
    """

    def __init__(self, name: str, documents: Iterable[Document], categories: Iterable[str] | None = None,
                 *, key: str | None = None, sort: bool = True) -> None:
        docs = list(documents)
        if sort:
            docs.sort(key=_doc_sort_key)
        self.name = name
        self.key = key or name
        self.documents: list[Document] = docs
        present = {d.label for d in docs}
        self.categories: list[str] = sorted(set(categories) if categories is not None else present)
        missing = present - set(self.categories)
        if missing:
            raise CorpusError(f"{name}: documents have labels not in the category list: {sorted(missing)[:5]}")
        self._index: dict[str, int] = {}
        for i, doc in enumerate(docs):
            if doc.split not in _SPLIT_RANK:
                raise CorpusError(f"{name}: document {doc.id!r} has split {doc.split!r}; expected 'train' or 'test'")
            if doc.id in self._index:
                raise CorpusError(f"{name}: duplicate document id {doc.id!r}")
            self._index[doc.id] = i

    def split(self, split: str) -> list[Document]:
        """Documents of ``"train"``, ``"test"`` or ``"all"``."""
        if split == "all":
            return list(self.documents)
        if split not in _SPLIT_RANK:
            raise CorpusError(f"unknown split {split!r}; use 'train', 'test' or 'all'")
        return [d for d in self.documents if d.split == split]

    @property
    def train(self) -> list[Document]:
        return self.split("train")

    @property
    def test(self) -> list[Document]:
        return self.split("test")

    def get(self, doc_id: str) -> Document:
        """The document with id ``doc_id``; :class:`CorpusError` if this corpus has none."""
        try:
            return self.documents[self._index[doc_id]]
        except KeyError:
            example = self.documents[0].id if self.documents else "(corpus is empty)"
            raise CorpusError(f"{self.key}: no document with id {doc_id!r} "
                              f"({len(self.documents)} documents; ids look like {example!r})") from None

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._index

    def head(self, per_category: int, *, include: Iterable[str] = ()) -> "Corpus":
        """Deterministic sample: the first ``per_category`` documents of every (split, category)
        in the stable order, plus the documents named in ``include``."""
        if not isinstance(per_category, int) or per_category < 0:
            raise CorpusError(f"head(): per_category must be a non-negative integer, got {per_category!r}")
        include = list(dict.fromkeys(include))
        extra = {self._index[i] for i in include if self.get(i)}
        wanted: set[int] = set()
        seen: dict[tuple[str, str], int] = {}
        for i, doc in enumerate(self.documents):
            group = (doc.split, doc.label)
            if seen.get(group, 0) < per_category:
                seen[group] = seen.get(group, 0) + 1
                wanted.add(i)
        extra -= wanted  # documents already in the head do not change the sample or its key
        key = f"{self.name}-head{per_category}"
        if extra:
            key += "-" + hashlib.sha1("\n".join(sorted(self.documents[i].id for i in extra)).encode()).hexdigest()[:8]
        wanted |= extra
        docs = [self.documents[i] for i in sorted(wanted)]
        return Corpus(self.name, docs, key=key, sort=False)

    def __len__(self) -> int:
        return len(self.documents)

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents)

    def __repr__(self) -> str:
        return (f"Corpus({self.key!r}: {len(self.train)} train / {len(self.test)} test, "
                f"{len(self.categories)} categories)")


# --------------------------------------------------------------------------- registry

@dataclass(frozen=True)
class _Spec:
    archive: str
    url: str | None
    description: str


_SPECS: dict[str, _Spec] = {
    "20ng": _Spec("20news-bydate.tar.gz", "http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz",
                  "20 Newsgroups, bydate split"),
    "r52": _Spec("reuters21578.tar.gz", "https://kdd.ics.uci.edu/databases/reuters21578/reuters21578.tar.gz",
                 "Reuters-21578 ModApte, single-label, 52 topics"),
    "r8": _Spec("reuters21578.tar.gz", "https://kdd.ics.uci.edu/databases/reuters21578/reuters21578.tar.gz",
                "Reuters-21578 ModApte, single-label, 8 largest topics"),
    "webkb": _Spec("webkb-data.tar.gz",
                   "http://www.cs.cmu.edu/afs/cs.cmu.edu/project/theo-20/www/data/webkb-data.gtar.gz",
                   "WebKB 4 Universities, 7 classes (flattened), hash-stratified 2/3-1/3 split"),
    "webkb4": _Spec("webkb-data.tar.gz",
                    "http://www.cs.cmu.edu/afs/cs.cmu.edu/project/theo-20/www/data/webkb-data.gtar.gz",
                    "WebKB student/faculty/course/project, hash-stratified 2/3-1/3 split"),
    "7sectors": _Spec("7sectors.tar.gz", None,
                      "CMU WebKB industry sectors, flattened to the top-level sector, hash-stratified split"),
}


def _stratified_counts(class_counts: dict[str, int]) -> tuple[int, int]:
    test = sum(_n_test(n) for n in class_counts.values())
    return sum(class_counts.values()) - test, test


def _n_test(n: int) -> int:
    return int(n * TEST_FRACTION + 0.5)


_KNOWN_COUNTS: dict[str, tuple[int | None, int | None, int | None]] = {
    "20ng": (11314, 7532, 20),
    "r52": (6532, 2568, 52),
    "r8": (5485, 2189, 8),
    "webkb": (*_stratified_counts(_WEBKB_CLASS_COUNTS), 7),
    "webkb4": (*_stratified_counts({c: _WEBKB_CLASS_COUNTS[c] for c in WEBKB4_CLASSES}), 4),
    "7sectors": (None, None, 7),
}


def corpus_key(name: str, sample: int | None = None) -> str:
    """The cache key of built-in corpus ``name`` or of its ``head(sample)`` — without loading it."""
    _spec(name)
    return f"{name}-head{sample}" if sample else name


def list_datasets() -> list[str]:
    """Names of the built-in corpora."""
    return list(_SPECS)


def _spec(name: str) -> _Spec:
    try:
        return _SPECS[name]
    except KeyError:
        raise CorpusError(f"unknown dataset {name!r}; built-in datasets: {', '.join(_SPECS)} "
                          "(or give a folder <split>/<category>/<file> or a .csv with columns text,label,split)") from None


def _archive_path(name: str, archives: Path | None = None) -> Path:
    return Path(archives or config.archives_dir()) / _spec(name).archive


def available(name: str, *, archives: Path | None = None) -> bool:
    """Whether the archive of built-in corpus ``name`` is present (7sectors: archive or folder)."""
    folder = Path(archives or config.archives_dir())
    if name == "7sectors" and (folder / "7sectors").is_dir():
        return True
    return _archive_path(name, archives).is_file()


def dataset_info(name: str, *, archives: Path | None = None) -> dict:
    """``{"name", "train", "test", "categories", "available", "archive", ...}`` for a built-in corpus.

    Counts are the published ones (WebKB: what :func:`hash_split` gives on the published class
    counts); ``None`` where unknown (7 Sectors is not distributed).
    """
    spec = _spec(name)
    train, test, n_cat = _KNOWN_COUNTS[name]
    return {"name": name, "train": train, "test": test, "categories": n_cat,
            "available": available(name, archives=archives), "archive": spec.archive,
            "url": spec.url, "description": spec.description}


# --------------------------------------------------------------------------- loading

def load_corpus(name_or_path: str | os.PathLike, *, archives: Path | None = None,
                progress: Progress = None, download: bool | None = None) -> Corpus:
    """Load a built-in corpus by name, a folder ``<split>/<category>/<file>``, or a ``.csv``
    (columns ``text,label,split``). ``progress(fraction, message)`` is called while parsing.
    ``download``: fetch a missing built-in archive (default: ``DKW_DOWNLOAD``, on)."""
    name = str(name_or_path)
    if name in _SPECS:
        return _load_builtin(name, Path(archives) if archives else None, progress, download)
    path = Path(name).expanduser()
    if path.is_dir():
        return _load_folder(path, progress)
    if path.is_file() and path.suffix.lower() == ".csv":
        return _load_csv(path)
    if path.exists():
        raise CorpusError(f"{path}: not a folder <split>/<category>/<file> nor a .csv file")
    raise CorpusError(f"unknown dataset {name!r}: not a built-in name ({', '.join(_SPECS)}) "
                      "and no such folder or .csv file")


def _report(progress: Progress, fraction: float, message: str) -> None:
    if progress is not None:
        progress(min(1.0, max(0.0, fraction)), message)


def _missing_message(name: str, archives: Path) -> str:
    spec = _SPECS[name]
    if name == "7sectors":
        return (f"{name}: archive {spec.archive} not found in {archives}; put it (or a folder 7sectors/ with "
                "<sector>/<industry>/<file>) there or set DKW_ARCHIVES (source: the CMU World Wide Knowledge "
                "Base project, not publicly mirrored)")
    return (f"{name}: archive {spec.archive} not found in {archives}; run `python -m dkw_core download {name}`, "
            f"put the file there or set DKW_ARCHIVES (source: {spec.url})")


def _ensure_archive(name: str, archives: Path | None, progress: Progress, download: bool | None = None) -> Path:
    folder = Path(archives or config.archives_dir())
    path = folder / _SPECS[name].archive
    if path.is_file():
        return path
    if name == "7sectors" and (folder / "7sectors").is_dir():
        return folder / "7sectors"
    if name != "7sectors" and (config.download_enabled() if download is None else download):
        from .download import fetch  # first use: download, validate, rename atomically

        return fetch(name, archives=folder, progress=progress)
    raise CorpusError(_missing_message(name, folder))


def _cache_file(name: str, source: Path) -> Path:
    stat = source.stat()
    tag = f"{source.name}-{stat.st_size}-{stat.st_mtime_ns}-v{_FORMAT_VERSION}"
    digest = hashlib.sha1(f"{source.resolve()}|{tag}".encode()).hexdigest()[:12]
    return config.cache_dir("corpora") / f"{name}-{digest}.pkl"


def _read_cache(path: Path) -> list[Document] | None:
    try:
        with open(path, "rb") as fh:
            ids, texts, labels, splits = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError):
        return None
    return [Document(i, t, l, s) for i, t, l, s in zip(ids, texts, labels, splits)]


def _write_cache(path: Path, docs: list[Document]) -> None:
    payload = ([d.id for d in docs], [d.text for d in docs], [d.label for d in docs], [d.split for d in docs])
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            pickle.dump(payload, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError as exc:  # a read-only cache only costs speed
        tmp.unlink(missing_ok=True)
        warnings.warn(f"could not write corpus cache {path}: {exc}", stacklevel=3)


def _load_builtin(name: str, archives: Path | None, progress: Progress, download: bool | None = None) -> Corpus:
    source = _ensure_archive(name, archives, progress, download)
    if source.is_dir():  # 7sectors folder: not cached (its files may change)
        return load_7sectors(source, progress=progress)
    cache = _cache_file(name, source)
    docs = _read_cache(cache)
    if docs is not None:
        _report(progress, 1.0, f"{name}: loaded from cache")
        return Corpus(name, docs, sort=False)
    if name == "webkb4":  # same pages, same per-class hash split: reuse the parsed 7-class corpus
        full = _load_builtin("webkb", archives, progress, download)
        docs = [Document("webkb4/" + d.id.split("/", 1)[1], d.text, d.label, d.split)
                for d in full.documents if d.label in WEBKB4_CLASSES]
        corpus = Corpus(name, docs, sort=False)
        _write_cache(cache, corpus.documents)
        return corpus
    _report(progress, 0.0, f"{name}: parsing {source.name}")
    try:
        if name == "20ng":
            docs = _parse_20ng(source, progress)
        elif name in ("r52", "r8"):
            docs = _parse_reuters(source, name, progress)
        elif name in ("webkb", "webkb4"):
            docs = _parse_webkb(source, name, progress)
        else:
            docs = _parse_sectors_archive(source, name, progress)
    except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
        raise CorpusError(f"{name}: archive {source} is unreadable or truncated ({exc}); replace it") from exc
    corpus = Corpus(name, docs)
    _check_nonempty(corpus, source)
    _write_cache(cache, corpus.documents)
    _report(progress, 1.0, f"{name}: {len(corpus)} documents")
    return corpus


def _check_nonempty(corpus: Corpus, source: Path) -> None:
    if not corpus.documents:
        raise CorpusError(f"{corpus.name}: no documents found in {source}; is it the right archive?")


def _tar_members(path: Path) -> Iterator[tuple[tarfile.TarFile, tarfile.TarInfo]]:
    with tarfile.open(path, "r:*") as tar:
        for member in tar:
            if member.isfile():
                yield tar, member


def _safe_id_part(text: str) -> str:
    """File names as id parts: control characters (e.g. a trailing ``\\r``) become ``%0D``."""
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: f"%{ord(m.group()):02X}", text)


# 20 Newsgroups ------------------------------------------------------------------------

_20NG_RE = re.compile(r"(?:^|/)20news-bydate-(train|test)/([^/]+)/([^/]+)$")


def _parse_20ng(path: Path, progress: Progress) -> list[Document]:
    docs = []
    expected = 18846
    for tar, member in _tar_members(path):
        m = _20NG_RE.search(member.name)
        if not m:
            continue
        split, group, file_id = m.groups()
        data = tar.extractfile(member).read()
        docs.append(Document(f"20ng/{split}/{group}/{_safe_id_part(file_id)}", data.decode("latin-1"), group, split))
        if len(docs) % 500 == 0:
            _report(progress, len(docs) / expected * 0.95, f"20ng: {len(docs)} files read")
    return docs


# Reuters-21578 ------------------------------------------------------------------------

_REUTERS_RE = re.compile(r"<REUTERS([^>]*)>(.*?)</REUTERS>", re.S)
_ATTR_RE = re.compile(r'(\w+)="([^"]*)"')
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _reuters_field(body: str, tag: str) -> str | None:
    m = re.search(rf"<{tag}(?:\s[^>]*)?>(.*?)</{tag}>", body, re.S)  # <TEXT TYPE="UNPROC"> has attributes
    return m.group(1) if m else None


def _reuters_text(body: str) -> str:
    title = _reuters_field(body, "TITLE")
    text_body = _reuters_field(body, "BODY")
    if title is None and text_body is None:  # TYPE="UNPROC": raw text without sub-tags
        raw = _reuters_field(body, "TEXT") or ""
        text = re.sub(r"<[^>]+>", " ", raw)
    else:
        text = "\n".join(p.strip() for p in (title or "", text_body or "") if p.strip())
    text = _CONTROL_RE.sub("", html.unescape(text))
    return text.strip()


def _parse_reuters(path: Path, name: str, progress: Progress) -> list[Document]:
    records: list[tuple[str, str, str, str]] = []  # newid, split, topic, text
    sgm_seen = 0
    for tar, member in _tar_members(path):
        if not re.search(r"(?:^|/)reut2-\d+\.sgm$", member.name):
            continue
        sgm_seen += 1
        content = tar.extractfile(member).read().decode("latin-1")
        for m in _REUTERS_RE.finditer(content):
            attrs = dict(_ATTR_RE.findall(m.group(1)))
            split = attrs.get("LEWISSPLIT", "").lower()
            if attrs.get("TOPICS") != "YES" or split not in _SPLIT_RANK:
                continue
            topics = re.findall(r"<D>(.*?)</D>", _reuters_field(m.group(2), "TOPICS") or "")
            if len(topics) != 1:
                continue
            records.append((attrs["NEWID"], split, topics[0], _reuters_text(m.group(2))))
        _report(progress, sgm_seen / 22 * 0.95, f"{name}: {member.name} parsed")
    if not sgm_seen:
        raise CorpusError(f"{name}: no reut2-*.sgm files in {path}; is it the Reuters-21578 archive?")
    in_train = {t for _, s, t, _ in records if s == "train"}
    in_test = {t for _, s, t, _ in records if s == "test"}
    keep = in_train & in_test
    if name == "r8":
        keep &= set(R8_TOPICS)
    return [Document(f"{name}/{split}/{topic}/{newid}", text, topic, split)
            for newid, split, topic, text in records if topic in keep]


# WebKB and 7 Sectors -------------------------------------------------------------------

_HEADER_LINE = re.compile(rb"^(?:HTTP/\d|[A-Za-z][A-Za-z0-9-]*:)")
_HEADER_END = re.compile(rb"\r?\n[ \t]*\r?\n")


def _strip_mime_header(data: bytes) -> bytes:
    """Drop a leading HTTP/MIME header (``MIME-Version: 1.0`` … blank line) if the page has one."""
    start = data.lstrip()[:200]
    if _HEADER_LINE.match(start) and not start.startswith(b"<"):
        m = _HEADER_END.search(data)
        if m:
            return data[m.end():]
        return b""
    return data


def _html_converter():
    import html2text

    conv = html2text.HTML2Text()
    conv.ignore_links = True
    conv.ignore_images = True
    conv.ignore_emphasis = True
    conv.body_width = 0
    conv.unicode_snob = True
    return conv


def html_page_to_text(data: bytes) -> str:
    """A crawled page (optional MIME header + HTML) as plain text: header stripped, UTF-8 decoded
    (latin-1 if it is not UTF-8), then html2text with links and images ignored."""
    body = _strip_mime_header(data)
    try:
        markup = body.decode("utf-8")
    except UnicodeDecodeError:
        markup = body.decode("latin-1")
    markup = markup.replace("\x00", "")
    if not markup.strip():
        return ""
    try:
        text = _html_converter().handle(markup)
    except Exception:  # html2text chokes on some broken 1990s markup: fall back to tag stripping
        text = html.unescape(re.sub(r"<[^>]*>", " ", markup))
    text = _CONTROL_RE.sub("", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


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


def _pages_to_documents(name: str, pages: list[tuple[str, str, bytes]], progress: Progress,
                        start: float = 0.3) -> list[Document]:
    """``pages`` = (relative path below the corpus root, label, raw bytes) → hash-split documents."""
    splits = hash_split((rel, label) for rel, label, _ in pages)
    docs = []
    for i, (rel, label, data) in enumerate(pages):
        docs.append(Document(f"{name}/all/{_safe_id_part(rel)}", html_page_to_text(data), label, splits[rel]))
        if i % 100 == 0:
            _report(progress, start + (1 - start) * 0.95 * i / len(pages), f"{name}: html→text {i}/{len(pages)}")
    return docs


def _parse_webkb(path: Path, name: str, progress: Progress) -> list[Document]:
    pages = []
    for tar, member in _tar_members(path):
        parts = member.name.split("/")
        if len(parts) < 4 or parts[0] != "webkb":
            continue
        label = parts[1]
        if name == "webkb4" and label not in WEBKB4_CLASSES:
            continue
        pages.append(("/".join(parts[1:]), label, tar.extractfile(member).read()))
        if len(pages) % 500 == 0:
            _report(progress, 0.3 * len(pages) / 8282, f"{name}: {len(pages)} pages read")
    if not pages:
        raise CorpusError(f"{name}: no webkb/<class>/<university>/<file> pages in {path}; is it webkb-data?")
    return _pages_to_documents(name, pages, progress)


def _sectors_pages(files: list[tuple[str, Callable[[], bytes]]], source: Path) -> list[tuple[str, str, bytes]]:
    """Strip wrapper folders down to ``<sector>/<industry>/.../<file>``; label = the sector."""
    rels = [[p for p in rel.split("/") if p not in ("", ".")] for rel, _ in files]
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


def _hidden(rel: str) -> bool:
    return any(p.startswith(".") or p == "__MACOSX" for p in rel.split("/"))


def _parse_sectors_archive(path: Path, name: str, progress: Progress) -> list[Document]:
    files = []
    for tar, member in _tar_members(path):
        if _hidden(member.name):
            continue
        data = tar.extractfile(member).read()
        files.append((member.name, lambda d=data: d))
    return _pages_to_documents(name, _sectors_pages(files, path), progress)


def load_7sectors(path: str | os.PathLike, *, progress: Progress = None) -> Corpus:
    """7 Sectors in the CMU layout from a folder or a ``.tar.gz``: ``[wrapper/]<sector>/<industry>/<file>``
    HTML pages, labelled with the top-level sector ("7sectors-flattened"), hash-split."""
    path = Path(path)
    if path.is_file():
        try:
            return Corpus("7sectors", _parse_sectors_archive(path, "7sectors", progress))
        except tarfile.TarError as exc:
            raise CorpusError(f"7sectors: {path} is not a readable tar archive ({exc})") from exc
    if not path.is_dir():
        raise CorpusError(f"7sectors: {path} is neither a folder nor an archive")
    files = [(p.relative_to(path).as_posix(), p.read_bytes)
             for p in sorted(path.rglob("*")) if p.is_file() and not _hidden(p.relative_to(path).as_posix())]
    return Corpus("7sectors", _pages_to_documents("7sectors", _sectors_pages(files, path), progress))


# User corpora --------------------------------------------------------------------------

def _content_key(name: str, docs: list[Document]) -> str:
    h = hashlib.sha1()
    for d in docs:
        for field in (d.id, d.label, d.split, d.text):
            h.update(field.encode("utf-8", "surrogatepass"))
            h.update(b"\x00")
    return f"{name}-{h.hexdigest()[:10]}"


def _corpus_name(path: Path) -> str:
    name = re.sub(r"[^\w.-]+", "_", path.stem if path.is_file() else path.name).strip("_")
    return name or "corpus"


def _decode_user_file(data: bytes, where: str) -> str:
    if b"\x00" in data:
        raise CorpusError(f"{where}: binary file (contains NUL bytes); a corpus folder must hold only text files")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{where}: not valid UTF-8 text (byte {exc.start}); re-save it as UTF-8") from None


def _load_folder(path: Path, progress: Progress) -> Corpus:
    name = _corpus_name(path)
    top = sorted(p for p in path.iterdir() if not p.name.startswith("."))
    bad = [p.name for p in top if not (p.is_dir() and p.name in _SPLIT_RANK)]
    if bad or not top:
        raise CorpusError(f"{path}: expected a folder <split>/<category>/<file> with split 'train' and/or "
                          f"'test'; found {', '.join(bad) if bad else 'nothing'}")
    files = []
    for split_dir in top:
        for cat_dir in sorted(split_dir.iterdir()):
            if cat_dir.name.startswith("."):
                continue
            if not cat_dir.is_dir():
                raise CorpusError(f"{cat_dir}: files must sit in a category folder: <split>/<category>/<file>")
            for f in sorted(cat_dir.rglob("*")):
                if f.is_file() and not _hidden(f.relative_to(cat_dir).as_posix()):
                    files.append((split_dir.name, cat_dir.name, f))
    if not files:
        raise CorpusError(f"{path}: no text files under <split>/<category>/")
    docs = []
    for i, (split, label, f) in enumerate(files):
        text = _decode_user_file(f.read_bytes(), str(f))
        rel = _safe_id_part(f.relative_to(path / split / label).as_posix())
        docs.append(Document(f"{name}/{split}/{label}/{rel}", text, label, split))
        if i % 200 == 0:
            _report(progress, i / len(files), f"{name}: {i}/{len(files)} files read")
    docs.sort(key=_doc_sort_key)
    _report(progress, 1.0, f"{name}: {len(docs)} documents")
    return Corpus(name, docs, key=_content_key(name, docs), sort=False)


def _load_csv(path: Path) -> Corpus:
    import pandas as pd

    name = _corpus_name(path)
    try:
        raw = path.read_bytes()
        frame = pd.read_csv(io.BytesIO(raw), dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{path}: not valid UTF-8 text (byte {exc.start}); re-save it as UTF-8") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
        raise CorpusError(f"{path}: not a readable CSV file ({exc})") from None
    frame.columns = [str(c).strip().lower() for c in frame.columns]
    missing = [c for c in ("text", "label", "split") if c not in frame.columns]
    if missing:
        raise CorpusError(f"{path}: missing column(s) {', '.join(missing)}; expected columns text,label,split "
                          f"(found {', '.join(frame.columns)})")
    docs = []
    for row, rec in enumerate(frame.to_dict("records"), start=1):
        split = rec["split"].strip().lower()
        label = rec["label"].strip()
        where = f"{path}, data row {row}"
        if split not in _SPLIT_RANK:
            raise CorpusError(f"{where}: split is {rec['split']!r}; expected 'train' or 'test'")
        if not label:
            raise CorpusError(f"{where}: empty label")
        if "\x00" in rec["text"]:
            raise CorpusError(f"{where}: text contains NUL bytes (binary data)")
        doc_key = _safe_id_part(rec["id"].strip()) if "id" in frame.columns and rec["id"].strip() else str(row)
        docs.append(Document(f"{name}/{split}/{_safe_id_part(label).replace('/', '%2F')}/{doc_key.replace('/', '%2F')}", rec["text"], label, split))
    if not docs:
        raise CorpusError(f"{path}: the CSV has no data rows")
    docs.sort(key=_doc_sort_key)
    return Corpus(name, docs, key=_content_key(name, docs), sort=False)
