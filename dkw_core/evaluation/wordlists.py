"""A method's word lists and how a reader would take them (issue 28; the measures are
:mod:`dkw_core.quality`).

A *method* is a prepared model and a metric: a :class:`~dkw_core.keywords.KeywordModel` ranks
latent words (the paper's method, K nearest words per phrase), a
:class:`~dkw_core.keywords.BaselineModel` a document's own words (``fw`` there is Fightin' Words,
``ctfidf`` c-TF-IDF: the field's standard peers). Its lists are

* ``"categories"``: each category's vocabulary (:func:`category_lists`, the ``categories``
  command and the Categories page: training-split statistics, over-represented words only), or
* ``"documents"``: each test document's keywords under the protocol (:func:`document_lists`).

:func:`method_quality` scores them with :func:`dkw_core.quality.list_quality` and adds the F1
the same method's document keywords give (:func:`method_f1`, the evaluation's own code: keyword-
vector sums + classifier for a latent method, :func:`.baselines.bow_baseline`'s binary keyword
sets for own words, since own words have no vectors here).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..quality import DEFAULT_TOPN, ListF1, ListQuality, list_quality, word_tokens
from ..types import NEW_TEXT_PROTOCOL, check_protocol
from .classifiers import CLASSIFIER_LABELS, DEFAULT_CLASSIFIER

__all__ = ["LIST_KINDS", "MethodQuality", "ReferenceTokens", "reference_tokens", "category_lists",
           "document_lists", "method_f1", "method_quality"]

#: What a method's lists can be.
LIST_KINDS: tuple[str, ...] = ("categories", "documents")


@dataclass(frozen=True)
class ReferenceTokens:
    """The tokens every measure reads: the test split's (NPMI) and the training split's with their
    labels (exclusivity), :func:`dkw_core.quality.word_tokens` of each document."""

    test: list[list[str]]
    train: list[list[str]]
    train_labels: list[str]


def reference_tokens(corpus) -> ReferenceTokens:
    """:class:`ReferenceTokens` of a corpus (its tagging is cached, so this reads the cache)."""
    from ..phrases import tag_corpus

    tagged = tag_corpus(corpus)
    train = [d for d in corpus.documents if d.split == "train"]
    return ReferenceTokens(test=[word_tokens(tagged[d.id]) for d in corpus.documents if d.split == "test"],
                           train=[word_tokens(tagged[d.id]) for d in train], train_labels=[d.label for d in train])


def _own_words(model) -> bool:
    from ..keywords.baseline import BaselineModel

    return isinstance(model, BaselineModel)


def _k(model, k: int | None) -> int | None:
    return None if _own_words(model) else k


def category_lists(model, *, metric: str, k: int | None, top: int = DEFAULT_TOPN) -> dict[str, list[str]]:
    """Every category's ``top`` words under ``metric`` (K ignored for own words), as the
    ``categories`` command gives them."""
    from ..keywords.categories import category_keywords

    return {c: [w.word for w in category_keywords(model, c, metric=metric, k=_k(model, k), top=top, phrases=0)]
            for c in model.categories}


def document_lists(model, *, metric: str, k: int | None, top: int = DEFAULT_TOPN,
                   protocol: str = NEW_TEXT_PROTOCOL) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Every test document's ``top`` keywords under ``protocol`` and its gold category (read
    only to measure exclusivity, after the ranking)."""
    check_protocol(protocol)
    rows = model.rank("test", metric=metric, k=_k(model, k), top=top, protocol=protocol)
    ids = model.doc_ids("test")
    words = dict(zip(ids, model.words(rows)))
    gold = {d: model.categories[int(c)] for d, c in zip(ids, model.labels("test"))}
    keep = [d for d in ids if words[d]]  # a document none of whose words is known has no list
    return {d: words[d] for d in keep}, {d: gold[d] for d in keep}


def method_f1(model, *, metric: str, k: int | None, top: int = DEFAULT_TOPN, protocol: str = NEW_TEXT_PROTOCOL,
              classifier: str = DEFAULT_CLASSIFIER) -> ListF1:
    """The F1 the method's document keywords give on the test split, by the evaluation's code:
    :func:`.protocols.evaluate_model` (keyword-vector sums) for latent words,
    :func:`.baselines.bow_baseline` (binary keyword sets) for own words."""
    check_protocol(protocol)
    clf = CLASSIFIER_LABELS.get(classifier, classifier)
    if _own_words(model):
        from .baselines import bow_baseline

        scores, _, _ = bow_baseline(model, metric=metric, top=top, protocol=protocol, classifier=classifier)
        means = (f"the test documents' own-word keywords (N={top}, {protocol}) as binary keyword sets, "
                 f"classifier {clf}")
    else:
        from .protocols import evaluate_model

        if k is None:
            raise InputError("latent words need a K")
        scores, _, _ = evaluate_model(model, metric=metric, k=k, top=top, protocol=protocol, classifier=classifier)
        means = (f"the test documents' keywords (K={k}, N={top}, {protocol}) as keyword-vector sums, "
                 f"classifier {clf}")
    return ListF1(micro_f1=float(scores.micro_f1), macro_f1=float(scores.macro_f1), top=int(top), protocol=protocol,
                  means=means)


@dataclass(frozen=True)
class MethodQuality:
    """A method's lists and their quality."""

    lists: dict[str, list[str]]
    quality: ListQuality


def method_quality(model, *, metric: str, k: int | None, lists: str = "categories", top: int = DEFAULT_TOPN,
                   protocol: str = NEW_TEXT_PROTOCOL, classifier: str = DEFAULT_CLASSIFIER,
                   tokens: ReferenceTokens | None = None, f1: bool = True) -> MethodQuality:
    """The method's ``lists`` (``"categories"`` or ``"documents"``) scored by
    :func:`dkw_core.quality.list_quality`, with the F1 of its document keywords at N = ``top``
    under ``protocol`` (``f1=False`` leaves it out). ``tokens`` saves re-reading the tagging
    when several methods of one corpus are measured."""
    if lists not in LIST_KINDS:
        raise InputError(f"unknown kind of word lists {lists!r}; one of {', '.join(LIST_KINDS)}")
    tokens = tokens or reference_tokens(model.corpus)
    categories = None
    if lists == "categories":
        words = category_lists(model, metric=metric, k=k, top=top)
    else:
        words, categories = document_lists(model, metric=metric, k=k, top=top, protocol=protocol)
    words = {name: ws for name, ws in words.items() if ws}
    score = method_f1(model, metric=metric, k=k, top=top, protocol=protocol, classifier=classifier) if f1 else None
    quality = list_quality(words, tokens.test, tokens.train, tokens.train_labels, categories=categories, topn=top,
                           f1=score)
    return MethodQuality(lists=words, quality=quality)
