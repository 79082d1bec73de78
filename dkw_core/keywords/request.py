"""One request path for keywords: :class:`KeywordRequest` → a model → :class:`KeywordAnswer`.

``extract_keywords`` (:mod:`dkw_core`), ``python -m dkw_core keywords`` and the app's text box
(``dkw_app.backend.text_keywords``) all go through here, so the same text gets the same
keywords, defaults and model source everywhere:

* :func:`model_for` resolves a request once into where its statistics come from: the shipped
  statistics of a built-in corpus for new texts at the shipped settings (:mod:`.shipped`: no
  preparation, seconds from a fresh clone), else the prepared corpus (prepared now, or loaded
  from the cache), or the bag-of-words baseline;
* :func:`answer` gives one document's or one new text's keywords per metric, with the category
  a new text is weighted with.

Defaults (metric, K, N, corpus, protocol) are the ones of :mod:`dkw_core.types`.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import overload

from ..errors import InputError
from ..types import (
    DEFAULT_CORPUS,
    DEFAULT_K,
    DEFAULT_METRIC,
    DEFAULT_PROTOCOL,
    DEFAULT_TOP,
    NEW_TEXT_PROTOCOL,
    PROTOCOL_INFO,
    Progress,
    check_protocol,
    scaled,
)
from .ranking import Keyword


@dataclass(frozen=True)
class KeywordRequest:
    """What to extract: a corpus document (``doc``), every document of a ``split``, or a new text
    (``text``; ``None`` with neither ``doc`` nor ``split``: new texts given elsewhere, e.g. a
    batch file), scored with the training statistics of ``dataset``. ``None`` fields take the
    one default."""

    dataset: str | None = None
    doc: str | None = None
    text: str | None = None
    split: str | None = None
    name: str | None = None                 # the text's name in messages and answers (a file name)
    metrics: tuple[str, ...] = ()           # () = (DEFAULT_METRIC,)
    k: int | None = None
    top: int | None = None
    protocol: str | None = None
    baseline: bool = False                  # the document's own words, no vectors (corpus documents)
    sample: int | None = None               # statistics from the first N documents per category and split
    vectors: str | None = None              # a vector file, else DKW_VECTORS, else GloVe 6B 50d
    neighbours: str | None = None           # step 3's spec, default plain cosine
    alternatives: bool = False              # an unsure new text: also its keywords under its two likeliest categories

    @property
    def new_text(self) -> bool:
        return self.doc is None and self.split is None

    @property
    def corpus(self) -> str:
        """The corpus whose statistics score the words: ``dataset``, else the document id's
        prefix, else the default corpus."""
        if self.dataset:
            return self.dataset
        return self.doc.split("/", 1)[0] if self.doc else DEFAULT_CORPUS

    @property
    def metric_list(self) -> list[str]:
        from ..metrics import get_metric

        metrics = list(dict.fromkeys(self.metrics or (DEFAULT_METRIC,)))
        for m in metrics:
            get_metric(m)
        return metrics

    @property
    def k_value(self) -> int:
        return DEFAULT_K if self.k is None else int(self.k)

    @property
    def top_value(self) -> int:
        return DEFAULT_TOP if self.top is None else int(self.top)

    @property
    def resolved_protocol(self) -> str:
        """``protocol``, else the paper's label-aware for corpus documents and label-free-top1
        for new texts, which have no gold category."""
        if not self.new_text:
            return check_protocol(self.protocol or DEFAULT_PROTOCOL)
        if self.protocol is not None and PROTOCOL_INFO[check_protocol(self.protocol)].reads_labels:
            raise InputError("a new text has no gold category: use --protocol label-free-top1 (the default for new "
                             "texts), label-free-posterior or label-free")
        return self.protocol or NEW_TEXT_PROTOCOL

    @property
    def neighbours_spec(self) -> str:
        from ..neighbours import neighbours_spec

        return neighbours_spec(self.neighbours)


def uses_shipped(request: KeywordRequest) -> bool:
    """Whether the shipped statistics answer this request: new texts of a built-in corpus at the
    shipped K, plain cosine, the vectors they were written with, the whole corpus."""
    from .shipped import shipped_available

    return (request.new_text and not request.baseline and request.sample is None
            and shipped_available(request.corpus, k=request.k_value, neighbours=request.neighbours_spec,
                                  vectors=request.vectors))


def load_request_corpus(request: KeywordRequest, progress: Progress | None = None):
    """The request's corpus (its first ``sample`` documents per category and split, keeping ``doc``)."""
    from ..corpora import load_corpus

    corpus = load_corpus(request.corpus, progress=progress)
    if request.sample:
        corpus = corpus.head(request.sample, include=[request.doc] if request.doc else ())
    if request.doc:
        corpus.get(request.doc)  # an unknown id fails before any heavy work
    return corpus


def model_for(request: KeywordRequest, *, progress: Progress | None = None):
    """Where the request's statistics come from, resolved once: a :class:`~.shipped.ShippedModel`
    (new texts at the shipped settings), a :class:`~.baseline.BaselineModel` (``baseline``) or
    the prepared :class:`~.model.KeywordModel` (prepared now when it is not cached)."""
    if uses_shipped(request):
        from .shipped import load_shipped

        return load_shipped(request.corpus, k=request.k_value, vectors=request.vectors)
    corpus = load_request_corpus(request, progress=scaled(progress, 0.0, 0.1))
    if request.baseline:
        from .baseline import BaselineModel

        if request.new_text:
            raise InputError("--baseline works on corpus documents (--doc), not new texts")
        return BaselineModel.prepare(corpus, progress=scaled(progress, 0.1, 1.0))
    from ..vectors import load_vectors
    from .model import KeywordModel

    return KeywordModel.prepare(corpus, load_vectors(request.vectors), k_max=max(request.k_value, DEFAULT_K),
                                progress=scaled(progress, 0.1, 1.0), neighbours=request.neighbours_spec)


def source_of(model) -> str:
    """How an answer's statistics were obtained, for its caption and JSON."""
    from .baseline import BaselineModel

    if isinstance(model, BaselineModel):
        return "own words"
    return getattr(model, "source", "prepared corpus")


@dataclass
class KeywordAnswer:
    """One document's or new text's keywords per metric, and how they were obtained."""

    request: KeywordRequest
    protocol: str
    keywords: dict[str, list[Keyword]]
    dataset: str                      # the corpus's content key
    source: str                       # "shipped statistics", "prepared corpus" or "own words"
    vectors: str | None
    neighbours: str | None
    weighting: object | None = None   # posterior.Weighting of a new text under a posterior protocol
    by_category: dict[str, dict[str, list[Keyword]]] = field(default_factory=dict)

    @property
    def method(self) -> str:
        return "baseline (own words)" if self.request.baseline else "latent (word vectors)"

    def to_dict(self) -> dict:
        """The JSON of ``keywords --json``: words per metric, their scores beside them."""
        out = {
            "doc": self.request.doc or self.request.name,
            "keywords": {m: [kw.word for kw in kws] for m, kws in self.keywords.items()},
            "scores": {m: [kw.score for kw in kws] for m, kws in self.keywords.items()},
            "protocol": self.protocol,
            "dataset": self.dataset,
            "method": self.method,
            "source": self.source,
            "vectors": self.vectors,
            "neighbours": self.neighbours,
            "k": None if self.request.baseline else self.request.k_value,
            "top": self.request.top_value,
        }
        if self.weighting is not None:  # which category the new text's words are weighted with, and how sure
            out.update(self.weighting.to_dict())  # type: ignore[attr-defined]
        return out


def answer(request: KeywordRequest, *, model=None, progress: Progress | None = None,
           tagging: Progress | None = None) -> KeywordAnswer:
    """The keywords of the request's document or new text, per metric. ``model``: one already
    resolved (the app's cached prepared model), else :func:`model_for`. ``tagging`` reports
    a long new text's tagging."""
    if request.doc is not None and request.text is not None:
        raise InputError("give a document id or a new text, not both")
    if request.doc is None and request.text is None:
        raise InputError("give a document id or a new text")
    protocol = request.resolved_protocol
    metrics, k, top = request.metric_list, request.k_value, request.top_value
    if model is None:
        model = model_for(request, progress=progress)
    result: dict[str, list[Keyword]] = {}
    weighting = None
    by_category: dict[str, dict[str, list[Keyword]]] = {}
    if request.text is not None:
        if not hasattr(model, "keywords_for_text"):
            raise InputError("--baseline works on corpus documents (--doc), not new texts")
        extra: dict = {"name": request.name} if request.name else {}
        if tagging is not None:
            extra["progress"] = tagging
        for m in metrics:
            result[m] = list(model.keywords_for_text(request.text, metric=m, k=k, top=top, protocol=protocol,
                                                     **extra))
        if PROTOCOL_INFO[protocol].posterior:
            weighting = model.text_weighting(request.text)
            if request.alternatives and weighting.unsure and weighting.runner_up is not None:
                for cat in (weighting.category, weighting.runner_up):
                    by_category[cat] = {m: list(model.keywords_for_text(request.text, metric=m, k=k, top=top,
                                                                        label=cat, **extra)) for m in metrics}
    else:
        for m in metrics:
            result[m] = list(model.keywords(request.doc, metric=m, k=k, top=top, protocol=protocol))
    vectors = getattr(model, "vectors", None)
    return KeywordAnswer(request, protocol, result, dataset=model.corpus.key, source=source_of(model),
                         vectors=None if vectors is None else vectors.name,
                         neighbours=getattr(model, "neighbours", None), weighting=weighting, by_category=by_category)


@overload
def extract_keywords(text: str, *, corpus: str = ..., metric: str | None = ..., k: int | None = ...,  # type: ignore[overload-overlap]
                     top: int | None = ..., protocol: str | None = ...) -> list[Keyword]: ...


@overload
def extract_keywords(text: Sequence[str], *, corpus: str = ..., metric: str | None = ..., k: int | None = ...,
                     top: int | None = ..., protocol: str | None = ...) -> list[list[Keyword]]: ...


def extract_keywords(text, *, corpus: str = DEFAULT_CORPUS, metric: str | None = None, k: int | None = None,
                     top: int | None = None, protocol: str | None = None):
    """The keywords of a new text in one call (``None``: the one default of
    :mod:`dkw_core.types`): scored with the training statistics of ``corpus`` — the shipped
    ones for a built-in corpus at the default K, so a fresh clone answers without preparing
    anything — weighted under ``protocol`` (default label-free-top1). Each
    :class:`~.ranking.Keyword` has ``.word``, ``.score`` and its provenance.

    Given a list of texts, it returns one list of keywords per text, computed as a batch
    (:mod:`.newtexts`: one tagging stream, one nearest-word search, one posterior product),
    the same keywords as one text at a time; a text without keywords (empty, no noun phrase)
    gets an empty list instead of an error."""
    if isinstance(text, str):
        request = KeywordRequest(dataset=corpus, text=text, metrics=(metric,) if metric else (), k=k, top=top,
                                 protocol=protocol)
        return answer(request).keywords[request.metric_list[0]]
    texts = list(text)
    for i, t in enumerate(texts):
        if not isinstance(t, str):
            raise InputError(f"text {i} is a {type(t).__name__}, not a string")
    request = KeywordRequest(dataset=corpus, metrics=(metric,) if metric else (), k=k, top=top, protocol=protocol)
    protocol = request.resolved_protocol
    model = model_for(request)
    from .newtexts import discriminative, rank_new_texts

    ranking = discriminative(metric=request.metric_list[0], k=request.k_value, top=request.top_value,
                             protocol=protocol)
    return rank_new_texts(model, texts, ranking, protocol=protocol)
