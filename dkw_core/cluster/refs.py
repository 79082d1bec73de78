"""What a task carries instead of data: a reference a worker resolves itself.

A task never ships a corpus or a prepared model: it carries a :class:`CorpusRef` (dataset name
or path and sample size) or a :class:`ModelRef` (that plus vectors, ``k_max`` and neighbours
spec), and the worker loads the corpus from the archives and the model from the shared cache
once per process (bounded :class:`dkw_core.cache.Memo`). So the client never holds the
documents' texts, and a worker pays each load once, not once per task.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import cache, config
from ..types import DEFAULT_K

_CORPORA: cache.Memo = cache.Memo(maxsize=2)
_MODELS: cache.Memo = cache.Memo(maxsize=2)


@dataclass(frozen=True)
class CorpusRef:
    """A corpus as ``load_corpus(dataset)``, or its ``head(sample)`` — loaded where it is used."""

    dataset: str
    sample: int | None = None

    def load(self):
        def build():
            from ..corpora import load_corpus

            corpus = load_corpus(self.dataset)
            return corpus.head(self.sample) if self.sample else corpus

        return _CORPORA.get(_where(self), build)


@dataclass(frozen=True)
class ModelRef:
    """A prepared :class:`~dkw_core.keywords.KeywordModel`, loaded from the shared cache."""

    corpus: CorpusRef
    vectors: str | None = None  # a vectors file; None: DKW_VECTORS or the default
    k_max: int = DEFAULT_K
    neighbours: str = "cosine"

    def load(self):
        def build():
            from ..keywords import KeywordModel
            from ..vectors import load_vectors

            return KeywordModel.prepare(self.corpus.load(), load_vectors(self.vectors), k_max=self.k_max,
                                        neighbours=self.neighbours)

        return _MODELS.get(_where(self), build)


def _where(ref) -> tuple:
    """A memo key: the reference and the folders it is read from (tests switch them)."""
    return ref, str(config.archives_dir()), str(config.data_dir()), config.vectors_path(), config.crop_stopwords()
