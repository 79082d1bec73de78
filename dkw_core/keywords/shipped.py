"""Shipped training statistics: keywords of a new text from a fresh clone, with no preparation.

A new text's keywords under the label-free protocols need only what the training split
*counts*, never its documents: the (categories x cropped vocabulary) statistics at K
(:class:`~dkw_core.metrics.CategoryStats`), the category names and the category posterior.
For each built-in corpus they ship in ``dkw_core/shipped/`` (format and command in its
README), written by ``scripts/ship_stats.py`` from a prepared corpus:

* ``<corpus>-k<K>-stats.npz``: doc_freq, term_freq (only the columns with a non-zero count)
  and n_docs, the categories, and the meta data a consistency check reads (corpus key, vectors
  name, a hash of the cropped vocabulary, K, neighbours spec, dkw version);
* ``<corpus>-posterior.npz``: the posterior as a :class:`~.compact.CompactPosterior`.

:class:`ShippedStatistics` is a source of statistics that a :class:`~.model.KeywordModel`
without documents reads (:meth:`~.model.KeywordModel.of_statistics`): a new text is tagged and
searched exactly as with the prepared corpus (same code), its words scored with the shipped
statistics. It is used only where it gives the prepared model's statistics: built-in corpus,
K = the shipped K, plain cosine neighbours, the vectors the files were written with
(:func:`shipped_available`). Corpus documents, other K, a slice or other vectors need the
prepared corpus.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .. import cache
from ..errors import InputError
from ..metrics import CategoryStats
from ..types import DEFAULT_K
from ..vectors import load_vectors, vectors_name
from .compact import CompactPosterior
from .model import KeywordModel

FORMAT = 1
SHIPPED_DIR = Path(__file__).resolve().parent.parent / "shipped"
"""``dkw_core/shipped/``: package data (pyproject.toml), < 2 MB per file."""


def stats_path(dataset: str, k: int = DEFAULT_K, folder: Path | None = None) -> Path:
    return (folder or SHIPPED_DIR) / f"{dataset}-k{k}-stats.npz"


def posterior_path(dataset: str, folder: Path | None = None) -> Path:
    return (folder or SHIPPED_DIR) / f"{dataset}-posterior.npz"


def vocabulary_hash(words: list[str]) -> str:
    """A short content hash of a cropped vocabulary (the statistics' columns)."""
    return hashlib.blake2b("\n".join(words).encode("utf-8"), digest_size=8).hexdigest()


# -- reading -----------------------------------------------------------------------------------
def read_meta(path: Path) -> dict | None:
    """The meta data of a shipped statistics file (``None``: missing, unreadable or another format).
    Read once per file version (its size and modification time): every new text asks whether
    shipped statistics answer it, and opening the archive each time was 4 % of one text's CPU."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    meta = _read_meta(str(path), st.st_mtime_ns, st.st_size)
    return None if meta is None else dict(meta)


@lru_cache(maxsize=64)
def _read_meta(path: str, _mtime_ns: int, _size: int) -> dict | None:
    try:
        with np.load(path) as z:
            meta = json.loads(str(z["meta"]))
    except (OSError, ValueError, KeyError):
        return None
    return meta if meta.get("format") == FORMAT else None


def read_stats(path: Path) -> tuple[dict, list[str], CategoryStats]:
    """(meta, categories, statistics over the whole cropped vocabulary) of a shipped file."""
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
        cols = z["cols"].astype(np.int64)
        shape = (len(z["categories"]), int(meta["vocabulary_size"]))
        doc_freq, term_freq = np.zeros(shape), np.zeros(shape)
        doc_freq[:, cols], term_freq[:, cols] = z["doc_freq"], z["term_freq"]
        own_freq = None
        if "own_freq" in z.files:  # files shipped before lo-own lack it
            own_freq = np.zeros(shape)
            own_freq[:, cols] = z["own_freq"]
        return meta, [str(c) for c in z["categories"]], CategoryStats(doc_freq=doc_freq, n_docs=z["n_docs"],
                                                                     term_freq=term_freq, own_freq=own_freq)


def read_posterior(path: Path) -> CompactPosterior:
    with np.load(path) as z:
        return CompactPosterior.from_arrays({k: z[k] for k in z.files})


# -- the model ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _CorpusName:
    """What a new text's messages and answers read of a corpus: its name and content key."""

    name: str
    key: str


class ShippedStatistics:
    """A built-in corpus's shipped training statistics at one K: the source of statistics a
    :class:`~.model.KeywordModel` of new texts reads (:meth:`~.model.KeywordModel.of_statistics`),
    with the category names, the compact posterior and the neighbours spec they were counted
    under. No documents: a corpus document, or another K, needs the prepared corpus."""

    source = "shipped statistics"

    def __init__(self, dataset: str, meta: dict, categories: list[str], stats: CategoryStats,
                 posterior: CompactPosterior) -> None:
        self.corpus = _CorpusName(dataset, str(meta["corpus_key"]))
        self.categories = list(categories)
        self.meta = meta
        self.k = int(meta["k"])
        self.neighbours = str(meta["neighbours"])
        self._stats = stats
        self._posterior = posterior

    def _prepare_instead(self) -> str:
        return f"needs the prepared corpus (python -m dkw_core prepare --dataset {self.corpus.name})"

    def check_k(self, k: int | None) -> int:
        if k is not None and int(k) != self.k:
            raise InputError(f"the shipped statistics of {self.corpus.name} are for K = {self.k}; another K "
                             + self._prepare_instead())
        return self.k

    def category_stats(self, k: int | None = None) -> CategoryStats:
        self.check_k(k)
        return self._stats

    def posterior_model(self) -> CompactPosterior:
        return self._posterior

    def documents_refusal(self) -> str:
        return (f"the shipped statistics of {self.corpus.name} score new texts only; corpus documents "
                + self._prepare_instead().replace("needs", "need", 1))


def shipped_available(dataset: str, *, k: int = DEFAULT_K, neighbours: str = "cosine",
                      vectors: str | None = None) -> bool:
    """Whether shipped statistics answer a new text of ``dataset`` at this K, neighbours spec and
    vectors (path or ``None`` for the default; compared by name, without loading them)."""
    meta = read_meta(stats_path(dataset, k))
    return (meta is not None and posterior_path(dataset).is_file() and meta.get("neighbours") == neighbours
            and meta.get("vectors") == vectors_name(vectors) and meta.get("corpus_key") == dataset)


_LOADED: cache.Memo[KeywordModel] = cache.Memo(maxsize=4)


def load_shipped(dataset: str, *, k: int = DEFAULT_K, vectors: str | None = None,
                 folder: Path | None = None) -> KeywordModel:
    """The model of new texts of a built-in corpus that reads its :class:`ShippedStatistics`
    (loaded once per process) from ``folder`` (default ``dkw_core/shipped/``); an
    :class:`InputError` when the files are missing or were written for other vectors."""
    def build() -> KeywordModel:
        path = stats_path(dataset, k, folder)
        if read_meta(path) is None or not posterior_path(dataset, folder).is_file():
            raise InputError(f"no shipped statistics for {dataset} at K = {k} in {folder or SHIPPED_DIR}")
        meta, categories, stats = read_stats(path)
        vecs = load_vectors(vectors)
        if meta["vectors"] != vecs.name or meta["vocabulary_hash"] != vocabulary_hash(vecs.cropped_words):
            raise InputError(f"the shipped statistics of {dataset} were written with the vectors {meta['vectors']}, "
                             f"not {vecs.name}; prepare the corpus for these vectors")
        shipped = ShippedStatistics(dataset, meta, categories, stats, read_posterior(posterior_path(dataset, folder)))
        return KeywordModel.of_statistics(shipped, vecs)

    return _LOADED.get((dataset, k, vectors_name(vectors), str(folder)), build)
