"""The registry of built-in corpora and :func:`load_corpus`, the one way to open any corpus.

Archives are looked up in :func:`dkw_core.config.archives_dir` (``DKW_ARCHIVES``, default
``data/archives``). Parsed built-in corpora are cached (:mod:`dkw_core.cache`) keyed by the
archive's name, size and modification time, so a second load is fast. A missing archive is
downloaded on first use (:mod:`.download`: checksum or structure validated, atomic rename) unless
``DKW_DOWNLOAD=0`` or ``download=False``; then :class:`~dkw_core.errors.CorpusError` names the
file, the folder that was searched and the command that downloads it.
"""
from __future__ import annotations

import os
import tarfile
import zlib
from pathlib import Path

from .. import cache, config
from ..errors import CorpusError
from ..types import Progress, report
from .model import Corpus, Document
from .specs import CORPORA, corpus_spec
from .uploads import user_corpora, user_corpus_meta, user_corpus_path
from .user import load_csv, load_folder
from .webkb import WEBKB4_CLASSES, load_7sectors, sectors_key


def corpus_key(name: str, sample: int | None = None) -> str:
    """The cache key of built-in or stored user corpus ``name`` or of its ``head(sample)`` —
    without loading it."""
    if name not in CORPORA and name in user_corpora():
        key = str(user_corpus_meta(name).get("key") or name)  # the content key of the stored upload
        return f"{key}-head{sample}" if sample else key
    corpus_spec(name)
    key = name
    if name == "7sectors":  # not distributed: keyed by its files, as load_corpus keys it
        source = _local_source(name)
        key = sectors_key(source) if source is not None else name
    return f"{key}-head{sample}" if sample else key


def list_datasets() -> list[str]:
    """Names of the built-in corpora."""
    return list(CORPORA)


def list_corpora() -> list[str]:
    """Built-in corpora, then the user corpora stored under ``DKW_DATA_DIR`` (:mod:`.uploads`)."""
    return list(CORPORA) + [n for n in user_corpora() if n not in CORPORA]


def _local_source(name: str, archives: Path | None = None) -> Path | None:
    """The archive of built-in corpus ``name`` (7sectors: or its folder) if present, never downloaded."""
    folder = Path(archives or config.archives_dir())
    path = folder / corpus_spec(name).archive.archive
    if path.is_file():
        return path
    if name == "7sectors" and (folder / "7sectors").is_dir():
        return folder / "7sectors"
    return None


def available(name: str, *, archives: Path | None = None) -> bool:
    """Whether the archive of built-in corpus ``name`` is present (7sectors: archive or folder)."""
    return _local_source(name, archives) is not None


def dataset_info(name: str, *, archives: Path | None = None) -> dict:
    """``{"name", "train", "test", "categories", "available", "archive", ...}`` for a built-in corpus.

    Counts are the published ones (WebKB: what :func:`hash_split` gives on the published class
    counts); ``None`` where unknown (7 Sectors is not distributed).
    """
    if name not in CORPORA and name in user_corpora():
        meta = user_corpus_meta(name)
        return {"name": name, "train": meta.get("train"), "test": meta.get("test"),
                "categories": meta.get("categories"), "available": True, "archive": None, "url": None,
                "description": f"your corpus, from {meta.get('source')}; {meta.get('split')}"}
    spec = corpus_spec(name)
    return {"name": name, "train": spec.train, "test": spec.test, "categories": spec.categories,
            "available": available(name, archives=archives), "archive": spec.archive.archive,
            "url": spec.url, "description": spec.description}


# --------------------------------------------------------------------------- loading

def load_corpus(name_or_path: str | os.PathLike, *, archives: Path | None = None,
                progress: Progress | None = None, download: bool | None = None) -> Corpus:
    """Load a built-in corpus by name, a folder ``<split>/<category>/<file>``, or a ``.csv``
    (columns ``text,label,split``). ``progress(fraction, message)`` is called while parsing.
    ``download``: fetch a missing built-in archive first (default: ``DKW_DOWNLOAD``, on)."""
    name = str(name_or_path)
    if name in CORPORA:
        return _load_builtin(name, Path(archives) if archives else None, progress, download)
    if name in user_corpora():
        return load_csv(user_corpus_path(name))
    path = Path(name).expanduser()
    if path.is_dir():
        return load_folder(path, progress)
    if path.is_file() and path.suffix.lower() == ".csv":
        return load_csv(path)
    if path.exists():
        raise CorpusError(f"{path}: not a folder <split>/<category>/<file> nor a .csv file")
    raise CorpusError(f"unknown dataset {name!r}: not a built-in name ({', '.join(CORPORA)}) "
                      "and no such folder or .csv file")


def _missing_message(name: str, archives: Path) -> str:
    spec = CORPORA[name]
    if not spec.downloadable:
        return (f"{name}: archive {spec.archive.archive} not found in {archives}; put it (or a folder 7sectors/ with "
                "<sector>/<industry>/<file>) there or set DKW_ARCHIVES (source: the CMU World Wide Knowledge "
                "Base project, not publicly mirrored)")
    return (f"{name}: archive {spec.archive.archive} not found in {archives}; run `python -m dkw_core download {name}`, "
            f"put the file there or set DKW_ARCHIVES (source: {spec.url})")


def _ensure_archive(name: str, archives: Path | None, progress: Progress | None,
                    download: bool | None = None) -> Path:
    folder = Path(archives or config.archives_dir())
    spec = CORPORA[name]
    path = _local_source(name, folder)
    if path is not None:
        return path
    if spec.downloadable and (config.download_enabled() if download is None else download):
        from .download import fetch  # first use: download, validate, rename atomically

        return fetch(name, archives=folder, progress=progress)
    raise CorpusError(_missing_message(name, folder))


def _cache_path(name: str, source: Path) -> Path:
    """The parsed-corpus entry of an archive: keyed by its resolved path, size and mtime."""
    stat = source.stat()
    return cache.path("corpora", cache.key(str(source.resolve()), stat.st_size, stat.st_mtime_ns,
                                           readable=name) + ".pkl")


def _read_cached(path: Path) -> list[Document] | None:
    payload = cache.read_pickle(path)
    if payload is None:
        return None
    try:
        ids, texts, labels, splits = payload
    except (TypeError, ValueError):
        return None
    return [Document(i, t, label, s) for i, t, label, s in zip(ids, texts, labels, splits)]


def _write_cached(path: Path, docs: list[Document]) -> None:
    cache.write_pickle(path, ([d.id for d in docs], [d.text for d in docs], [d.label for d in docs],
                              [d.split for d in docs]))


def _load_builtin(name: str, archives: Path | None, progress: Progress | None,
                  download: bool | None = None) -> Corpus:
    source = _ensure_archive(name, archives, progress, download)
    if source.is_dir():  # 7sectors folder: not cached (its files may change)
        return load_7sectors(source, progress=progress)
    entry = _cache_path(name, source)
    key = sectors_key(source) if name == "7sectors" else None  # not distributed: keyed by content
    docs = _read_cached(entry)
    if docs is not None:
        report(progress, 1.0, f"{name}: loaded from cache")
        return Corpus(name, docs, key=key, sort=False)
    if name == "webkb4":  # same pages, same per-class hash split: reuse the parsed 7-class corpus
        full = _load_builtin("webkb", archives, progress, download)
        docs = [Document("webkb4/" + d.id.split("/", 1)[1], d.text, d.label, d.split)
                for d in full.documents if d.label in WEBKB4_CLASSES]
        corpus = Corpus(name, docs, sort=False)
        _write_cached(entry, corpus.documents)
        return corpus
    report(progress, 0.0, f"{name}: parsing {source.name}")
    try:
        docs = CORPORA[name].reader(source, name, progress)
    except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
        raise CorpusError(f"{name}: archive {source} is unreadable or truncated ({exc}); replace it") from exc
    corpus = Corpus(name, docs, key=key)
    _check_nonempty(corpus, source)
    _write_cached(entry, corpus.documents)
    report(progress, 1.0, f"{name}: {len(corpus)} documents")
    return corpus


def _check_nonempty(corpus: Corpus, source: Path) -> None:
    if not corpus.documents:
        raise CorpusError(f"{corpus.name}: no documents found in {source}; is it the right archive?")

