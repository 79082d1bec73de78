"""Keyword methods named by a spec string (the human study's methods A and B).

``latent-5word-knn90-rf`` is the paper's method with phrases of at most 5 words, K = 90 and
rf; ``latent-5word-knn90-rf:csls-k10`` the same with another neighbours spec
(docs/method.md §1 step 3); a bare metric name (``tf-rf``) is that metric over the document's
own words (:mod:`.baseline`); ``keyphrases-a0.4-knn90-lo-own`` the document's own keyphrases
ranked with lo-own at K = 90 and ``about`` = 0.4 (:mod:`.keyphrases`). Models are kept in a
bounded in-process cache.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .. import cache
from ..errors import InputError
from ..metrics import get_metric
from ..phrases import MAX_PHRASE_LEN
from ..types import DEFAULT_K, DEFAULT_PROTOCOL, Progress
from ..validation import check_k
from .baseline import BaselineModel
from .model import KeywordModel

_LATENT = re.compile(r"^latent-(\d+)word-knn(\d+)-(.+)$")
_KEYPHRASES = re.compile(r"^keyphrases-a([0-9.]+)-knn(\d+)-(.+)$")
_MODELS: cache.Memo[KeywordModel | BaselineModel] = cache.Memo(maxsize=4)


def parse_method(spec: str) -> dict:
    """``latent-5word-knn90-rf`` → ``{"kind": "latent", "k": 90, "metric": "rf", "neighbours": None}``;
    ``latent-5word-knn90-rf:csls-k10`` → the same with ``"neighbours": "csls-k10"``;
    ``tf-rf`` → ``{"kind": "baseline", "k": None, "metric": "tf-rf", "neighbours": None}``;
    ``keyphrases-a0.4-knn90-lo-own`` → the latent method's entry with ``"about": 0.4``: the
    document's own keyphrases (:mod:`.keyphrases`, docs/method.md §13)."""
    base, _sep, neighbours = spec.partition(":")
    kp = _KEYPHRASES.match(base)
    if kp:
        from .keyphrases import check_about

        about = check_about(kp.group(1))
        parsed = parse_method(f"latent-{MAX_PHRASE_LEN}word-knn{kp.group(2)}-{kp.group(3)}"
                              + (f":{neighbours}" if neighbours else ""))
        return {**parsed, "about": about}
    m = _LATENT.match(base)
    if m:
        max_len, k, metric = int(m.group(1)), int(m.group(2)), m.group(3)
        if max_len != MAX_PHRASE_LEN:
            raise InputError(f"{spec}: only {MAX_PHRASE_LEN}-word phrases are supported")
        try:
            check_k(k)
        except InputError as exc:
            raise InputError(f"{spec}: {exc}") from None
        get_metric(metric)
        nb = None
        if neighbours:
            from ..neighbours import check_neighbours

            nb = check_neighbours(neighbours)
            nb = None if nb == "cosine" else nb
        return {"kind": "latent", "k": k, "metric": metric, "neighbours": nb}
    if neighbours:
        raise InputError(f"{spec}: a neighbours spec applies to latent-… methods only")
    get_metric(spec)
    return {"kind": "baseline", "k": None, "metric": spec, "neighbours": None}


def model_for(corpus, spec: str, *, progress: Progress | None = None) -> KeywordModel | BaselineModel:
    """The (process-cached) model a method spec needs for ``corpus``."""
    p = parse_method(spec)
    k_max = max(DEFAULT_K, p["k"] or 0)
    if p["kind"] == "latent":
        nb = p["neighbours"]
        key = (corpus.key, "latent", k_max) + ((nb,) if nb else ())
        return _MODELS.get(key, lambda: KeywordModel.prepare(corpus, k_max=k_max, progress=progress,
                                                             **({"neighbours": nb} if nb else {})))
    return _MODELS.get((corpus.key, "baseline"), lambda: BaselineModel.prepare(corpus, progress=progress))


def keywords_by_method(spec: str, *, dataset, doc_ids: Sequence[str], top: int,
                       protocol: str = DEFAULT_PROTOCOL, progress: Progress | None = None) -> dict[str, list[str]]:
    """Keywords of the given documents by a method spec. ``dataset`` is a corpus name or a
    loaded corpus."""
    from ..corpora import load_corpus

    corpus = load_corpus(dataset) if isinstance(dataset, str) else dataset
    p = parse_method(spec)
    model = model_for(corpus, spec, progress=progress)
    extra = {"about": p["about"]} if p.get("about") is not None else {}
    return {d: [kw.word for kw in model.keywords(d, metric=p["metric"], k=p["k"], top=top, protocol=protocol, **extra)]
            for d in doc_ids}
