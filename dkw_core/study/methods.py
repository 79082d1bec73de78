"""The keyword methods a study can compare, and how each one gets its keywords. The registry of
methods is :mod:`dkw_core.keywords.registry`, shared with the evaluation and the pages.

A method is one of:

* **dkw** — ``latent-5word-knn<K>-<metric>`` (the paper's method, any metric of
  :data:`~dkw_core.metrics.METRICS`, any K, optionally ``:<neighbours>`` such as
  ``latent-5word-knn90-rf:csls-k10``), under any protocol (docs/method.md §3);
* **baseline** — ``<metric>`` over the article's own words, e.g. ``tf-rf`` (the paper's method A);
* **extractor** — a third-party keyword extractor behind the small :class:`KeywordExtractor`
  interface, registered with :func:`register_extractor` (:mod:`dkw_core.keywords.extractors`).
  Built in: ``yake`` (YAKE!, Campos et al., Information Sciences 2020, single words),
  ``yake-n<k>`` (phrases of up to k words) and ``textrank`` (pytextrank);
* **imported** — keywords computed elsewhere (KeyBERT, an LLM, your own extractor) and read from
  a CSV or JSONL file by :func:`~.imports.read_imported`.

How many keywords a method shows (N) is the study's ``keywords_per_method`` or the method's own
``top``. The dkw and baseline keywords come from the study's keyword provider
(:func:`dkw_core.keywords.keywords_by_method` in real studies, a fake in tests).
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from ..keywords.extractors import (  # noqa: F401  (re-exported: the registry lives in dkw_core.keywords)
    KeywordExtractor,
    YakeExtractor,
    extractor_for,
    register_extractor,
)
from ..keywords.registry import check_method_spec, describe_methods, recorded_protocol  # noqa: F401
from ..keywords.registry import method_kind as _method_kind
from .imports import imported_methods, read_imported  # noqa: F401  (re-exported)
from .limits import storable_keywords
from .settings import DocumentLike, KeywordProvider, MethodSpec


def method_kind(spec: MethodSpec | str, *, strict: bool = False) -> str:
    """``dkw``, ``baseline``, ``extractor`` or ``imported`` (:func:`dkw_core.keywords.registry.method_kind`;
    a :class:`MethodSpec` holding imported keywords is ``imported``)."""
    if isinstance(spec, MethodSpec):
        if spec.imported:
            return "imported"
        spec = spec.name
    return _method_kind(spec, strict=strict)


def effective_protocol(spec: MethodSpec) -> str:
    """The protocol recorded for a method: its own for dkw and baseline, ``label-free`` for an
    extractor that reads no label, :data:`UNKNOWN_PROTOCOL` for imported keywords."""
    kind = method_kind(spec)
    if kind in ("imported", "extractor"):
        return recorded_protocol(kind, spec.name, spec.protocol or None)
    return spec.protocol


def method_keywords(spec: MethodSpec, *, documents: Mapping[str, DocumentLike], top: int,
                    provider: KeywordProvider, progress: Callable[[str], None] | None = None,
                    left_out: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """Keywords of ``documents`` (doc id -> document) by one method, best first, at most ``top`` each.

    A computed keyword the study cannot store (:func:`~.limits.storable_keywords`: longer than
    the keyword column, or holding a NUL) is left out and the method's next word takes its
    place; ``left_out`` (doc id -> words) receives the words left out. Imported keywords are
    returned as given (they were checked before any work)."""
    ids = list(documents)
    kind = method_kind(spec)
    if kind == "imported":
        return {d: [str(w) for w in spec.keywords.get(d, ())][:top] for d in ids}  # type: ignore[union-attr]
    if kind == "extractor":
        ext = extractor_for(spec.name)
        assert ext is not None
        out = {}
        for i, d in enumerate(ids):
            if progress and i % 20 == 0:
                progress(f"{spec.name}: {i} of {len(ids)} articles")
            out[d] = _storable(functools.partial(_extracted, ext, documents[d].text), top, d, left_out)
        return out
    name = spec.name.strip()
    result = provider(name, ids, top, spec.protocol)
    return {d: _storable(functools.partial(_provided, provider, name, d, spec.protocol), top, d, left_out,
                         first=list(result.get(d) or [])) for d in ids}


def _extracted(ext: KeywordExtractor, text: str, n: int) -> list[str]:
    return list(ext.extract(text, n))


def _provided(provider: KeywordProvider, name: str, doc_id: str, protocol: str, n: int) -> list[str]:
    return list(provider(name, [doc_id], n, protocol).get(doc_id) or [])


def _storable(get: Callable[[int], list[str]], top: int, doc_id: str, left_out: dict[str, list[str]] | None,
              first: list[str] | None = None) -> list[str]:
    """The first ``top`` storable words of ``get(n)`` (a method's best ``n`` words), asking for
    as many more as were left out until ``top`` are found or the method has no more."""
    words = get(top) if first is None else first
    asked = top
    while True:
        kept, dropped = storable_keywords(words, top)
        if not dropped or len(kept) == top or len(words) < asked:
            break
        asked = top + len(dropped)
        more = get(asked)
        if len(more) <= len(words):
            break
        words = more
    if dropped and left_out is not None:
        left_out.setdefault(doc_id, []).extend(dropped)
    return kept
