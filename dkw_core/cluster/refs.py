"""What a task carries instead of data: a reference a worker resolves itself.

A task never ships a corpus or a prepared model: it carries a :class:`CorpusRef` (dataset name
or path and sample size), a :class:`ModelRef` (that plus vectors, ``k_max`` and neighbours
spec) or a :class:`ShippedRef` (a built-in corpus's shipped statistics: new texts answered
without preparing the corpus), and the worker loads the corpus from the archives and the model
from the shared cache (or the shipped statistics from ``dkw_core/shipped/``) once per process
(bounded :class:`dkw_core.cache.Memo`). So the client never holds the documents' texts, and a
worker pays each load once, not once per task.

A reference also carries the client's ``DKW_*`` settings (:func:`.scheduler.worker_env`, taken
when it is made), applied on the worker before loading: a task that reaches a worker through
joblib rather than :func:`.scheduler.run` still reads the client's folders.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import cache
from ..types import DEFAULT_K
from .scheduler import apply_env, worker_env

_CORPORA: cache.Memo = cache.Memo(maxsize=2)
_MODELS: cache.Memo = cache.Memo(maxsize=2)


def _settings() -> tuple[tuple[str, str], ...]:
    return tuple(sorted(worker_env().items()))


@dataclass(frozen=True)
class CorpusRef:
    """A corpus as ``load_corpus(dataset)``, or its ``head(sample)`` — loaded where it is used."""

    dataset: str
    sample: int | None = None
    env: tuple[tuple[str, str], ...] = field(default_factory=_settings, repr=False)

    def load(self):
        def build():
            from ..corpora import load_corpus

            corpus = load_corpus(self.dataset)
            return corpus.head(self.sample) if self.sample else corpus

        apply_env(dict(self.env))
        return _CORPORA.get(self, build)


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

        apply_env(dict(self.corpus.env))
        return _MODELS.get(self, build)


@dataclass(frozen=True)
class ShippedRef:
    """The shipped statistics of a built-in corpus (:func:`~dkw_core.keywords.shipped.load_shipped`,
    loaded once per worker): what new texts are scored with when they answer the request
    (:func:`~dkw_core.keywords.request.uses_shipped`), so no worker prepares the corpus."""

    dataset: str
    k: int = DEFAULT_K
    vectors: str | None = None
    env: tuple[tuple[str, str], ...] = field(default_factory=_settings, repr=False)

    def load(self):
        from ..keywords.shipped import load_shipped

        apply_env(dict(self.env))
        return load_shipped(self.dataset, k=self.k, vectors=self.vectors)
