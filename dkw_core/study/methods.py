"""The keyword methods a study can compare, and how each one gets its keywords.

A method is one of:

* **dkw** — ``latent-5word-knn<K>-<metric>`` (the paper's method, any metric of
  :data:`~dkw_core.metrics.METRICS`, any K, optionally ``:<neighbours>`` such as
  ``latent-5word-knn90-rf:csls-k10``), under any protocol (docs/method.md §3);
* **baseline** — ``<metric>`` over the article's own words, e.g. ``tf-rf`` (the paper's method A);
* **extractor** — a third-party keyword extractor behind the small :class:`KeywordExtractor`
  interface, registered with :func:`register_extractor`. Built in: ``yake`` (YAKE!, Campos et
  al., Information Sciences 2020, single words) and ``yake-n<k>`` (phrases of up to k words);
* **imported** — keywords computed elsewhere (KeyBERT, an LLM, your own extractor) and read from
  a CSV or JSONL file by :func:`~.imports.read_imported`.

How many keywords a method shows (N) is the study's ``keywords_per_method`` or the method's own
``top``. The dkw and baseline keywords come from the study's keyword provider
(:func:`dkw_core.keywords.keywords_by_method` in real studies, a fake in tests).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from ..errors import InputError
from .imports import imported_methods, read_imported  # noqa: F401  (re-exported)
from .settings import UNKNOWN_PROTOCOL, DocumentLike, KeywordProvider, MethodSpec


class KeywordExtractor(Protocol):
    """A third-party keyword extractor: one text in, its keywords out, best first.

    ``reads_labels`` says whether it reads the article's category (recorded as the method's
    protocol: ``label-free`` when it does not)."""

    reads_labels: bool

    def extract(self, text: str, top: int) -> list[str]: ...


@dataclass(frozen=True)
class _Registered:
    pattern: re.Pattern[str]
    factory: Callable[[re.Match[str]], KeywordExtractor]
    example: str
    help: str


_EXTRACTORS: list[_Registered] = []


def register_extractor(pattern: str, factory: Callable[[re.Match[str]], KeywordExtractor], *, example: str,
                       help: str) -> None:
    """Offer a third-party extractor to studies under spec names matching ``pattern`` (a full
    match); ``factory(match)`` builds it. This is all a new extractor needs."""
    _EXTRACTORS.append(_Registered(re.compile(pattern), factory, example, help))


class YakeExtractor:
    """YAKE! (package ``yake``): statistical, unsupervised, one text at a time; reads no label.
    Keywords are lower-cased (dkw's vocabulary is lower-case, so a word both produce is shown
    once) and repeated ones dropped."""

    reads_labels = False

    def __init__(self, max_words: int = 1, language: str = "en") -> None:
        self.max_words = max_words
        self.language = language

    def extract(self, text: str, top: int) -> list[str]:
        import yake

        found = yake.KeywordExtractor(lan=self.language, n=self.max_words, top=top * 2).extract_keywords(text)
        words = list(dict.fromkeys(str(kw).strip().lower() for kw, _score in found if str(kw).strip()))
        return words[:top]


def _yake(match: re.Match[str]) -> KeywordExtractor:
    n = int(match.group(1) or 1)
    if not 1 <= n <= 5:
        raise InputError(f"yake-n{n}: phrases of 1 to 5 words")
    return YakeExtractor(max_words=n)


register_extractor(r"yake(?:-n(\d+))?", _yake, example="yake",
                   help="YAKE! (third-party, unsupervised, reads no label): single words; yake-n3 for "
                        "phrases of up to 3 words")


def extractor_for(spec: str) -> KeywordExtractor | None:
    """The registered extractor named by ``spec``, or None when ``spec`` is no extractor."""
    for reg in _EXTRACTORS:
        m = reg.pattern.fullmatch(spec.strip())
        if m:
            return reg.factory(m)
    return None


def method_kind(spec: MethodSpec | str, *, strict: bool = False) -> str:
    """``dkw``, ``baseline``, ``extractor`` or ``imported``. A spec dkw does not parse is
    ``other`` (left to the study's keyword provider, e.g. a test's fake), or with ``strict``
    an :class:`InputError`."""
    if isinstance(spec, MethodSpec):
        if spec.imported:
            return "imported"
        spec = spec.name
    if extractor_for(spec) is not None:
        return "extractor"
    from ..keywords.methods import parse_method

    try:
        return "dkw" if parse_method(spec.strip())["kind"] == "latent" else "baseline"
    except InputError:
        if strict:
            raise
        return "other"


def check_method_spec(spec: str) -> None:
    """Raise :class:`InputError` (one line) when ``spec`` names no built-in method."""
    if not spec or not spec.strip():
        raise InputError("a method needs a name")
    try:
        method_kind(spec, strict=True)
    except InputError as exc:
        raise InputError(f"unknown method {spec!r}: {exc}; use latent-5word-knn<K>-<metric>[:<neighbours>], "
                         f"a metric name such as tf-rf, or {', '.join(r.example for r in _EXTRACTORS)}") from None


def describe_methods() -> list[dict[str, str]]:
    """Rows ``{"spec", "kind", "help"}`` of the built-in methods (for forms and ``--help``)."""
    rows = [{"spec": "latent-5word-knn90-rf", "kind": "dkw",
             "help": "dkw (this method): K nearest words, any metric, e.g. latent-5word-knn30-tds; "
                     "another neighbours spec after a colon, e.g. latent-5word-knn90-rf:csls-k10"},
            {"spec": "tf-rf", "kind": "baseline", "help": "a metric over the article's own words (the paper's A)"}]
    rows += [{"spec": r.example, "kind": "extractor", "help": r.help} for r in _EXTRACTORS]
    rows.append({"spec": "(file)", "kind": "imported",
                 "help": "keywords imported from a CSV or JSONL file: document id, method name, ordered keywords"})
    return rows


def effective_protocol(spec: MethodSpec) -> str:
    """The protocol recorded for a method: its own for dkw and baseline, ``label-free`` for an
    extractor that reads no label, :data:`UNKNOWN_PROTOCOL` for imported keywords."""
    kind = method_kind(spec)
    if kind == "imported":
        return spec.protocol if spec.protocol else UNKNOWN_PROTOCOL
    if kind == "extractor":
        ext = extractor_for(spec.name)
        return spec.protocol if ext is not None and ext.reads_labels else "label-free"
    return spec.protocol


def method_keywords(spec: MethodSpec, *, documents: Mapping[str, DocumentLike], top: int,
                    provider: KeywordProvider, progress: Callable[[str], None] | None = None) -> dict[str, list[str]]:
    """Keywords of ``documents`` (doc id -> document) by one method, best first, at most ``top`` each."""
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
            out[d] = ext.extract(documents[d].text, top)[:top]
        return out
    result = provider(spec.name.strip(), ids, top, spec.protocol)
    return {d: list(result.get(d) or [])[:top] for d in ids}
