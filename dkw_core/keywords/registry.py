"""The one registry of keyword methods, read by the study, the evaluation, the command line and
the pages. A method is named by a spec string:

==========  =====================================================================================
kind        spec
==========  =====================================================================================
dkw         ``latent-5word-knn<K>-<metric>[:<neighbours>]`` — the paper's method, any metric of
            :data:`~dkw_core.metrics.METRICS`, under any protocol (``[@protocol]`` on the
            command line; docs/method.md §3)
dkw         ``keyphrases-a<about>-knn<K>-<metric>[:<neighbours>]`` — the document's own phrases
            ranked by the blend of their closeness to the text and the discrimination of their
            latent neighbourhood (:mod:`.keyphrases`, docs/method.md §13)
baseline    ``<metric>`` over the document's own words, e.g. ``tf-rf`` (the paper's method A)
extractor   a third-party extractor of :mod:`.extractors` (``yake``, ``yake-n3``, ``textrank``,
            anything added with :func:`~.extractors.register_extractor`)
imported    keywords computed elsewhere, read from a CSV or JSONL file (:mod:`.imports`)
==========  =====================================================================================

What each method reads is recorded with it (:func:`reads_labels`): dkw and the baselines read
the labels their protocol reads; an extractor says so itself; imported keywords are unknown.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..types import PROTOCOL_INFO, UNKNOWN_PROTOCOL
from .extractors import extractor_for, is_extractor, registered_extractors

#: What a method reads, in words, by :func:`reads_labels`'s answer.
READS = {True: "reads the document's category", False: "reads no label", None: "unknown (computed elsewhere)"}


def method_kind(spec: str, *, strict: bool = False) -> str:
    """``dkw`` (its latent words or keyphrases), ``baseline`` or ``extractor`` for a built-in spec. A spec dkw does not parse is
    ``other`` (left to a caller's own provider, e.g. a test's fake), or with ``strict`` an
    :class:`InputError`. Imported keywords have no spec: their kind is ``imported``."""
    if is_extractor(spec):
        return "extractor"
    from .methods import parse_method

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
        examples = ", ".join(r.example for r in registered_extractors())
        raise InputError(f"unknown method {spec!r}: {exc}; use latent-5word-knn<K>-<metric>[:<neighbours>], "
                         f"a metric name such as tf-rf, or {examples}") from None


def reads_labels(kind: str, spec: str = "", protocol: str | None = None) -> bool | None:
    """Whether a method's keywords read the document's category: for dkw and the baselines,
    what their protocol reads; for an extractor, what it declares; None for imported keywords."""
    if kind == "extractor":
        ext = extractor_for(spec)
        return bool(ext.reads_labels) if ext is not None else None
    if kind in ("dkw", "baseline") and protocol in PROTOCOL_INFO:
        return bool(PROTOCOL_INFO[protocol].reads_labels)
    return None


def recorded_protocol(kind: str, spec: str = "", protocol: str | None = None) -> str:
    """The protocol recorded for a method: its own for dkw and baseline, ``label-free`` for an
    extractor that reads no label, :data:`UNKNOWN_PROTOCOL` for imported keywords."""
    if kind == "imported":
        return protocol or UNKNOWN_PROTOCOL
    if kind == "extractor":
        return protocol or "label-aware" if reads_labels(kind, spec) else "label-free"
    return protocol or UNKNOWN_PROTOCOL


@dataclass(frozen=True)
class MethodRow:
    spec: str
    kind: str
    help: str


def describe_methods() -> list[dict[str, str]]:
    """Rows ``{"spec", "kind", "help"}`` of every method (for forms, ``--help`` and the pages)."""
    rows = [MethodRow("latent-5word-knn90-rf", "dkw",
                      "dkw (this method): K nearest words, any metric, e.g. latent-5word-knn30-tds; another "
                      "neighbours spec after a colon, e.g. latent-5word-knn90-rf:csls-k10"),
            MethodRow(keyphrases_spec(), "dkw",
                      "the document's own keyphrases, ranked between 'about this text' (a0) and 'about its "
                      "category' (a1, the paper's words) by the discrimination of their latent neighbourhood"),
            MethodRow("tf-rf", "baseline", "a metric over the article's own words (the paper's A)")]
    rows += [MethodRow(r.example, "extractor", r.help) for r in registered_extractors()]
    rows.append(MethodRow("(file)", "imported",
                          "keywords imported from a CSV or JSONL file: document id, method name, ordered keywords"))
    return [{"spec": r.spec, "kind": r.kind, "help": r.help} for r in rows]


def is_keyphrases(spec: str) -> bool:
    """Whether a spec names dkw's keyphrase method (``keyphrases-a0.4-knn90-lo-own``)."""
    return spec.strip().startswith("keyphrases-")


def keyphrases_spec(about: float | None = None, k: int | None = None, metric: str | None = None) -> str:
    """The spec of the keyphrase method (defaults: :data:`~dkw_core.types.DEFAULT_ABOUT`, K, metric)."""
    from ..types import DEFAULT_ABOUT, DEFAULT_K, DEFAULT_METRIC

    a = DEFAULT_ABOUT if about is None else about
    return f"keyphrases-a{a:g}-knn{k or DEFAULT_K}-{metric or DEFAULT_METRIC}"


def extractor_specs() -> list[str]:
    """The example spec of every registered extractor (``yake``, ``textrank``, …): the columns a
    page offers beside dkw's metrics."""
    return [r.example for r in registered_extractors()]
