"""One request path for keywords: :class:`KeywordRequest` → a model → :class:`KeywordAnswer`.

``extract_keywords`` (:mod:`dkw_core`), ``python -m dkw_core keywords`` and the app's text box
(Home's, through ``dkw_app.keywords_door``) all go through here, so the same text gets the same
keywords, defaults and model source everywhere:

* :func:`model_for` resolves a request once into where its statistics come from: the shipped
  statistics of a built-in corpus for new texts at the shipped settings (:mod:`.shipped`: no
  preparation, seconds from a fresh clone), else the prepared corpus (prepared now, or loaded
  from the cache), or the bag-of-words baseline;
* :func:`answer` gives one document's or one new text's keywords per metric, with the category
  a new text is weighted with. A new text is a batch of one on the one path of new texts
  (:func:`~.newtexts.text_keywords`), and :func:`text_answer` is the one builder of its answer
  and of its batch record (:meth:`KeywordAnswer.record`, what ``keywords --texts`` writes).

Defaults (metric, K, N, corpus, protocol) are the ones of :mod:`dkw_core.types`.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
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
    about: float | None = None              # 0 = about this text … 1 = about its category (the paper's words)

    @cached_property
    def shipped(self) -> bool:
        """Whether the shipped statistics answer this request (:func:`uses_shipped`), decided once
        per request: what the app's text box checks before answering is what :func:`model_for`
        then reads."""
        return uses_shipped(self)

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
    def about_value(self) -> float:
        """``about`` checked, else the default about (:func:`~.newtexts.text_about`, the one rule;
        a new text out of the corpus then gets 0 once its fit is known); the own-words baseline
        has none: 1."""
        from .newtexts import text_about

        return 1.0 if self.baseline else text_about(None, self.about)

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
    if request.shipped:
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
    about: float = 1.0                # the about-text … about-category blend the keywords were ranked with
    fit: object | None = None         # fit.CorpusFit of a new text: how well it fits the corpus
    category_words: dict[str, list[Keyword]] = field(default_factory=dict)  # the paper's words beside keyphrases
    problem: str | None = None        # why a new text of a batch has no keywords

    @property
    def method(self) -> str:
        return "baseline (own words)" if self.request.baseline else "latent (word vectors)"

    def to_dict(self) -> dict:
        """The JSON of ``keywords --json``: words per metric, their scores beside them."""
        out: dict[str, object] = {
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
        out["about"] = self.about
        if self.weighting is not None:  # which category the new text's words are weighted with, and how sure
            out.update(self.weighting.to_dict())  # type: ignore[attr-defined]
        if self.fit is not None:
            out.update(self.fit.to_dict())  # type: ignore[attr-defined]
        if self.category_words:
            out["category_words"] = {m: [kw.word for kw in kws] for m, kws in self.category_words.items()}
        return out

    def record(self) -> dict:
        """A new text's batch record (a line of ``keywords --texts``' JSONL, a row of its CSV,
        :mod:`.batch`): its id, the settings, its words per metric; ``about`` and
        ``out_of_corpus`` when its keyphrases were asked for (about below 1 or the default);
        ``problem`` when it has no keywords, else ``weighted_as`` and ``p`` under a posterior
        protocol."""
        req = self.request
        rec: dict = {"id": req.name, "split": "", "label": "", "protocol": self.protocol, "k": req.k_value,
                     "top": req.top_value, "keywords": {m: [kw.word for kw in kws] for m, kws in self.keywords.items()}}
        if req.about is None or req.about < 1.0:
            rec["about"] = self.about
            if self.fit is not None:
                rec["out_of_corpus"] = self.fit.out_of_corpus  # type: ignore[attr-defined]
        if self.problem is not None:
            rec["problem"] = self.problem
        elif self.weighting is not None:
            rec["weighted_as"] = self.weighting.category  # type: ignore[attr-defined]
            rec["p"] = round(self.weighting.probability, 4)  # type: ignore[attr-defined]
        return rec

    def describe(self) -> str:
        """One line on how the words were weighted: the category (and how sure), whether the text
        fits the corpus, and where the list sits between the text and its category."""
        parts = []
        if self.weighting is not None:
            parts.append(self.weighting.describe())  # type: ignore[attr-defined]
        if self.fit is not None and self.fit.out_of_corpus:  # type: ignore[attr-defined]
            parts.append(self.fit.describe(self.dataset.split("-")[0]) + "; keywords about the text itself")  # type: ignore[attr-defined]
        if not self.request.baseline:
            parts.append(f"about = {self.about:g} (0 about this text, 1 about its category)")
        return "; ".join(parts)


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
    metrics, k, top, about = request.metric_list, request.k_value, request.top_value, request.about_value
    if model is None:
        model = model_for(request, progress=progress)
    if request.text is not None:
        from .baseline import BaselineModel
        from .newtexts import text_keywords

        if isinstance(model, BaselineModel):
            raise InputError("--baseline works on corpus documents (--doc), not new texts")
        found = next(text_keywords(model, [(request.name or "text", request.text)], metrics=metrics, k=k, top=top,
                                   protocol=protocol, about=request.about, fit=True,
                                   alternatives=request.alternatives, tagging=tagging))
        if found.problem is not None:
            raise InputError(f"{found.name}: {found.problem}")
        return text_answer(request, model, found, protocol)
    result: dict[str, list[Keyword]] = {}
    category_words: dict[str, list[Keyword]] = {}
    for m in metrics:
        if request.baseline:
            result[m] = list(model.keywords(request.doc, metric=m, k=k, top=top, protocol=protocol))
            continue
        category_words[m] = list(model.keywords(request.doc, metric=m, k=k, top=top, protocol=protocol))
        result[m] = category_words[m] if about >= 1.0 else list(
            model.keywords(request.doc, metric=m, k=k, top=top, protocol=protocol, about=about))
    vectors = getattr(model, "vectors", None)
    return KeywordAnswer(request, protocol, result, dataset=model.corpus.key, source=source_of(model),
                         vectors=None if vectors is None else vectors.name,
                         neighbours=getattr(model, "neighbours", None), about=about,
                         category_words={} if about >= 1.0 else category_words)


def text_answer(request: KeywordRequest, model, found, protocol: str, name: str | None = None) -> KeywordAnswer:
    """THE builder of a new text's answer from its :class:`~.newtexts.TextKeywords`: what
    :func:`answer` and ``extract_keywords`` return, and (:meth:`KeywordAnswer.record`) the
    batch record of ``keywords --texts``. ``name``: the text's id in a batch."""
    from dataclasses import replace

    from .posterior import weighting_of

    weighted = PROTOCOL_INFO[protocol].posterior and found.posterior is not None and found.problem is None
    vectors = getattr(model, "vectors", None)
    return KeywordAnswer(replace(request, text=found.text, name=name or request.name), protocol, found.keywords,
                         dataset=model.corpus.key, source=source_of(model),
                         vectors=None if vectors is None else vectors.name,
                         neighbours=getattr(model, "neighbours", None),
                         weighting=weighting_of(found.posterior, model.categories) if weighted else None,
                         by_category=found.by_category, about=found.about, fit=found.fit,
                         category_words=found.category_words, problem=found.problem)


class KeywordList(list):
    """The keywords of :func:`extract_keywords` (a list of :class:`~.ranking.Keyword`) and how
    they were obtained: ``.weighting`` (the category that weighted the words and its P),
    ``.fit`` (:class:`~.fit.CorpusFit`: how well the text fits the corpus), ``.about`` and
    ``.category_words`` (the category's discriminative words beside the keyphrases);
    ``.describe()`` says it in one line."""

    answer: KeywordAnswer

    def __init__(self, words: list[Keyword], answer: KeywordAnswer, metric: str) -> None:
        super().__init__(words)
        self.answer = answer
        self.weighting = answer.weighting
        self.fit = answer.fit
        self.about = answer.about
        self.category_words = answer.category_words.get(metric, [])

    def describe(self) -> str:
        return self.answer.describe()


def keyword_list(request: KeywordRequest) -> KeywordList:
    """One new text's keywords as ``extract_keywords(text)`` returns them, from a request already
    built: the app's text box reads the request's source (:attr:`KeywordRequest.shipped`) before
    answering it, and the answer reads the same decision."""
    request.about_value  # noqa: B018 - a bad about fails before any work
    result = answer(request)
    m = request.metric_list[0]
    return KeywordList(result.keywords[m], result, m)


@overload
def extract_keywords(text: str, *, corpus: str = ..., metric: str | None = ..., k: int | None = ...,
                     top: int | None = ..., protocol: str | None = ..., about: float | None = ...) -> KeywordList: ...


@overload
def extract_keywords(text: Sequence[str], *, corpus: str = ..., metric: str | None = ..., k: int | None = ...,
                     top: int | None = ..., protocol: str | None = ...,
                     about: float | None = ...) -> list[KeywordList] | list[list[Keyword]]: ...


def extract_keywords(text, *, corpus: str = DEFAULT_CORPUS, metric: str | None = None, k: int | None = None,
                     top: int | None = None, protocol: str | None = None, about: float | None = None):
    """The keywords of a new text in one call (``None``: the one default of
    :mod:`dkw_core.types`): scored with the training statistics of ``corpus`` — the shipped
    ones for a built-in corpus at the default K, so a fresh clone answers without preparing
    anything — weighted under ``protocol`` (default label-free-top1), placed by ``about``
    between the text's own keyphrases (0) and its category's words (1, the paper's; default
    :data:`~dkw_core.types.DEFAULT_ABOUT`, docs/method.md §13). A text that fits the corpus
    poorly gets keywords about itself (``.fit``). Each :class:`~.ranking.Keyword` has
    ``.word``, ``.score`` and its provenance; the list says which category weighted the words
    (``.weighting``, ``.describe()``).

    Given a list of texts, it returns one list of keywords per text, computed as a batch at
    every ``about`` (:mod:`.newtexts`: one tagging stream, one nearest-word search over the
    batch's distinct phrases, one posterior product): below 1 (and by default) a
    :class:`KeywordList` per text, equal to the one ``extract_keywords(text)`` gives — its
    keyphrases and scores, ``.fit``, ``.about`` (0 for a text out of the corpus when ``about``
    is not given), ``.weighting`` and ``.category_words``; at ``about=1`` the paper's words,
    a plain list per text. A text without keywords (empty, no noun phrase) gets an empty list
    instead of an error."""
    if isinstance(text, str):
        return keyword_list(KeywordRequest(dataset=corpus, text=text, metrics=(metric,) if metric else (), k=k,
                                           top=top, protocol=protocol, about=about))
    texts = list(text)
    for i, t in enumerate(texts):
        if not isinstance(t, str):
            raise InputError(f"text {i} is a {type(t).__name__}, not a string")
    request = KeywordRequest(dataset=corpus, metrics=(metric,) if metric else (), k=k, top=top, protocol=protocol,
                             about=about)
    request.about_value  # noqa: B018 - a bad about fails before any work
    protocol, m = request.resolved_protocol, request.metric_list[0]
    model = model_for(request)
    from .newtexts import text_keywords

    found = text_keywords(model, [(f"text {i}", t) for i, t in enumerate(texts)], metrics=[m], k=request.k_value,
                          top=request.top_value, protocol=protocol, about=about)
    if request.about is not None and request.about_value >= 1.0:  # the paper's words: a plain list each
        return [f.keywords[m] for f in found]
    out: list[KeywordList | list] = []
    for f in found:
        out.append([] if f.problem is not None else KeywordList(f.keywords[m], text_answer(request, model, f, protocol),
                                                                m))
    return out
