"""Where a study's articles and keywords come from.

Real studies: :func:`dkw_core.corpora.load_corpus` and
:func:`dkw_core.keywords.keywords_by_method` under each method's protocol chosen at creation
(default label-aware, as in the paper's study; label-free available).
Tests and demos: the built-in tiny corpus and fake provider of :mod:`.demo`, only when the
switch ``DKW_STUDY_FAKE_KEYWORDS=1`` is set.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import InputError
from ..types import Progress
from .demo import DEMO_CORPUS, FAKE_ENV, demo_corpus, fake_enabled, fake_provider
from .errors import cancellable
from .settings import DocumentLike, KeywordProvider


def corpus_choices() -> list[str]:
    """Corpora a study can be drawn from, as the CLI accepts them: built-in corpora whose archive
    is present or can be downloaded (not one that could only fail), then the corpora uploaded in
    the app; the demo corpus first with the fake switch on. A folder or CSV path is accepted too
    (not listed)."""
    try:
        from .. import config
        from ..corpora import download, registry

        builtin = [n for n in registry.list_datasets()
                   if registry.available(n) or (config.download_enabled() and n in download.DOWNLOADABLE)]
        uploaded = [n for n in registry.list_corpora() if n not in registry.list_datasets()]
    except ImportError:  # core not installed in this checkout
        builtin, uploaded = [], []
    return ([DEMO_CORPUS] if fake_enabled() else []) + builtin + uploaded


def source(corpus: str, *, progress: Progress | None = None, cancel: Callable[[], bool] | None = None,
           sample: int | None = None) -> tuple[Sequence[DocumentLike], list[str], KeywordProvider]:
    """``(documents, categories, provider)`` for a corpus name; with ``sample`` only its first
    ``sample`` documents per category and split (``Corpus.head``, the app's working slice: the
    keywords are then computed on that slice alone). ``cancel()`` true stops loading
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
    if sample:
        loaded = loaded.head(sample)

    def provider(spec: str, doc_ids: list[str], top: int, protocol: str = "label-aware") -> dict[str, list[str]]:
        return keywords_by_method(spec, dataset=loaded, doc_ids=doc_ids, top=top, protocol=protocol,
                                  progress=progress)

    return loaded.documents, list(loaded.categories), provider
