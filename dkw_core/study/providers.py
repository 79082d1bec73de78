"""Where a study's articles and keywords come from.

Real studies: :func:`dkw_core.corpora.load_corpus` and
:func:`dkw_core.keywords.keywords_by_method` under each method's protocol chosen at creation
(default label-aware, as in the paper's study; label-free available).
Tests and demos: the built-in tiny corpus and fake provider of :mod:`.demo`, only when the
switch ``DKW_STUDY_FAKE_KEYWORDS=1`` is set.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..errors import InputError
from collections.abc import Callable

from ..types import Progress
from .demo import DEMO_CORPUS, FAKE_ENV, demo_corpus, fake_enabled, fake_provider
from .errors import cancellable
from .settings import DocumentLike, KeywordProvider


def corpus_choices() -> list[str]:
    """Corpora offered for a study (the demo corpus only with the fake switch on)."""
    try:
        from ..corpora import list_datasets

        names = list_datasets()
    except ImportError:  # core not installed in this checkout
        names = []
    return ([DEMO_CORPUS] if fake_enabled() else []) + names


def source(corpus: str, *, progress: Progress | None = None, cancel: Callable[[], bool] | None = None,
           ) -> tuple[Sequence[DocumentLike], list[str], KeywordProvider]:
    """``(documents, categories, provider)`` for a corpus name. ``cancel()`` true stops loading
    and keyword preparation at their next progress report (:class:`~.errors.Cancelled`; caches
    are written atomically, so nothing half-written stays)."""
    progress = cancellable(progress, cancel) if cancel is not None else progress
    if corpus == DEMO_CORPUS:
        if not fake_enabled():
            raise InputError(f"corpus {DEMO_CORPUS!r} is a test/demo corpus; set {FAKE_ENV}=1 to use it")
        c = demo_corpus()
        return c.documents, list(c.categories), fake_provider
    from ..corpora import load_corpus
    from ..keywords import keywords_by_method

    loaded = load_corpus(corpus, progress=progress)

    def provider(spec: str, doc_ids: list[str], top: int, protocol: str = "label-aware") -> dict[str, list[str]]:
        return keywords_by_method(spec, dataset=loaded, doc_ids=doc_ids, top=top, protocol=protocol,
                                  progress=progress)

    return loaded.documents, list(loaded.categories), provider
