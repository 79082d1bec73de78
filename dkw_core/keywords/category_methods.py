"""A category's word list under any method, with the counts behind each score and its quality.

The Categories page shows *why* a word is on a list, as scattertext does: each word's frequency
in the category against elsewhere, the list's words marked, the score beside. A method is one
of dkw's metrics (:data:`dkw_core.metrics.METRICS`) or a peer of :data:`PEERS`:

* a **metric** ranks the words of the model it is given exactly as
  :func:`dkw_core.keywords.categories.category_keywords` does (words over-represented in the
  category, ties to the lower vocabulary index); its frequencies are the counts the metric
  reads, training **documents** of the category whose phrases reach the word (A) against
  those of the other categories (C);
* a **peer** (Fightin' Words, c-TF-IDF: :mod:`dkw_core.peers`) scores the model's
  (categories x words) **occurrence** counts of the training split, ``term_freq``; given the
  bag-of-words :class:`~dkw_core.keywords.baseline.BaselineModel`, those are the category's
  own words. Candidates are the words that occur in the category.

:func:`list_quality_of` measures a list with :func:`dkw_core.quality.list_quality` (NPMI over
the test split's word tokens, exclusivity over the training split), cached on disk per corpus
content and list.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

import numpy as np

from .. import cache
from ..errors import InputError
from ..metrics import METRICS
from ..peers import ctfidf, fightin_words
from ..quality import DEFAULT_TOPN, ListQuality, list_quality, word_tokens
from ..types import DEFAULT_TOP
from ..validation import check_count, check_top
from .categories import category_scores_of
from .ranking import order_scores

__all__ = ["PEERS", "Peer", "TermPoint", "CategoryTerms", "method_names", "is_peer", "category_terms",
           "quality_texts", "list_quality_of", "DEFAULT_BACKGROUND"]

#: Words of the category drawn behind the list's words (see :func:`category_terms`).
DEFAULT_BACKGROUND = 600
#: Background words kept per cell of the (in category, elsewhere) grid, half an octave a side.
_PER_CELL = 3


@dataclass(frozen=True)
class Peer:
    """A peer method: the field's standard score on (categories x words) occurrence counts."""

    label: str
    scores: Callable[[np.ndarray], np.ndarray]
    reference: str


#: The field's standards, scored over a model's occurrence counts (the own words of a
#: ``BaselineModel``). Registered own-words methods may take their place.
PEERS: dict[str, Peer] = {
    "fightin-words": Peer("Fightin' Words", fightin_words, "Monroe, Colaresi & Quinn 2008"),
    "c-tf-idf": Peer("c-TF-IDF", ctfidf, "Grootendorst 2022 (BERTopic)"),
}


def method_names() -> list[str]:
    """dkw's metrics (registry order), then the peers."""
    return [*METRICS, *PEERS]


def is_peer(method: str) -> bool:
    return method in PEERS


@dataclass(frozen=True)
class TermPoint:
    """One word: its score, its counts in the category and elsewhere, its rank on the list (0:
    not on it, drawn for context)."""

    word: str
    score: float
    in_category: float
    elsewhere: float
    rank: int


@dataclass(frozen=True)
class CategoryTerms:
    """A category's list under a method and the counts it was computed from."""

    category: str
    method: str
    unit: str              # "documents" (a metric's A and C) or "occurrences" (a peer's word counts)
    in_total: float        # training documents (or word occurrences) of the category
    elsewhere_total: float  # … of the other categories
    points: tuple[TermPoint, ...]  # the list's words (rank 1, 2, …), then the background words

    @property
    def top(self) -> list[TermPoint]:
        return [p for p in self.points if p.rank]

    @property
    def words(self) -> list[str]:
        return [p.word for p in self.top]


def _category_index(model, category: str) -> int:
    if category not in model.categories:
        raise InputError(f"unknown category {category!r} for corpus {model.corpus.name}; "
                         f"one of {', '.join(model.categories)}")
    return model.categories.index(category)


def category_terms(model, category: str, method: str, *, k: int | None = None, top: int = DEFAULT_TOP,
                   background: int = DEFAULT_BACKGROUND) -> CategoryTerms:
    """The ``top`` words of ``category`` under ``method`` (a metric of the registry or a peer
    of :data:`PEERS`) from ``model``'s training split, each with its score and counts in the
    category and elsewhere, followed by up to ``background`` other words of the category with
    theirs: the shape of its vocabulary, as scattertext draws it — the (in category, elsewhere)
    plane cut into cells half an octave a side, the most frequent words of each cell (at most
    three), the most frequent first when there are more than ``background``."""
    top = check_top(top)
    background = check_count("background", background, 0, 100_000)
    if method not in METRICS and method not in PEERS:
        raise InputError(f"unknown method {method!r}; one of {', '.join(method_names())}")
    c = _category_index(model, category)
    k = model._check_k(k)
    stats = model.category_stats(k)
    if method in PEERS:
        counts = stats.term_freq
        scores = np.asarray(PEERS[method].scores(counts)[c], dtype=np.float64)
        mask = counts[c] > 0
        unit = "occurrences"
    else:
        counts = stats.doc_freq
        scores, mask = category_scores_of(model, category, metric=method, k=k)
        unit = "documents"
    inside = counts[c]
    elsewhere = counts.sum(axis=0) - inside
    cols = np.flatnonzero(mask)
    chosen = cols[order_scores(cols, scores[cols], top)]
    rest = _background(inside, elsewhere, np.setdiff1d(np.flatnonzero(inside > 0), chosen), background)
    totals = counts.sum(axis=1) if unit == "occurrences" else stats.n_docs

    def point(w: int, rank: int) -> TermPoint:
        return TermPoint(model.vocabulary[w], float(scores[w]), float(inside[w]), float(elsewhere[w]), rank)

    return CategoryTerms(category, method, unit, float(totals[c]), float(totals.sum() - totals[c]),
                         tuple([*(point(w, i) for i, w in enumerate(chosen, 1)), *(point(w, 0) for w in rest)]))


def _background(inside: np.ndarray, elsewhere: np.ndarray, cols: np.ndarray, limit: int) -> np.ndarray:
    """Up to ``limit`` of ``cols`` spread over the (in category, elsewhere) plane: per
    half-octave cell its most frequent words (ties to the lower index), then the most frequent."""
    if limit == 0 or cols.size == 0:
        return cols[:0]
    total = inside[cols] + elsewhere[cols]
    cell = (np.floor(2 * np.log2(1 + inside[cols])) * 1000 + np.floor(2 * np.log2(1 + elsewhere[cols])))
    order = np.lexsort((cols, -total, cell))
    sorted_cell = cell[order]
    first = np.r_[0, np.flatnonzero(np.diff(sorted_cell)) + 1]  # where each cell starts in ``order``
    rank_in_cell = np.arange(order.size) - np.repeat(first, np.diff(np.r_[first, order.size]))
    kept = order[rank_in_cell < _PER_CELL]
    kept = kept[np.lexsort((cols[kept], -total[kept]))][:limit]
    return cols[kept]


@dataclass(frozen=True)
class QualityTexts:
    """What :func:`dkw_core.quality.list_quality` reads: the test split's word tokens (the
    reference of NPMI) and the training split's tokens and labels (exclusivity)."""

    corpus_key: str
    reference: list[list[str]]
    train_tokens: list[list[str]]
    train_labels: list[str]


def quality_texts(own) -> QualityTexts:
    """The word tokens of a :class:`~dkw_core.keywords.baseline.BaselineModel`'s tagged corpus
    (:func:`dkw_core.quality.word_tokens`), split into the reference and the training part."""
    docs = own.corpus.documents
    tokens = {d.id: word_tokens(own._tagged[d.id]) for d in docs}
    return QualityTexts(own.corpus.key, [tokens[d.id] for d in docs if d.split == "test"],
                        [tokens[d.id] for d in docs if d.split == "train"],
                        [d.label for d in docs if d.split == "train"])


def list_quality_of(corpus_key: str, category: str, words: Sequence[str],
                    texts: Callable[[], QualityTexts], *, topn: int = DEFAULT_TOPN) -> ListQuality:
    """The quality of one category's list (:func:`dkw_core.quality.list_quality`), cached on
    disk per (corpus content, category, words, ``topn``): NPMI takes seconds on a full corpus.
    ``texts()`` is called only when the entry is missing."""
    words = list(words)
    if not words:
        raise InputError(f"category {category!r} has no words to measure")
    layout = tuple(f.name for f in fields(ListQuality))  # a changed ListQuality never reads an old entry
    target = cache.path("quality", cache.key(corpus_key, category, tuple(words[:topn]), topn, layout,
                                             readable=f"{corpus_key}-{category}") + ".pkl")
    found = cache.read_pickle(target)
    if isinstance(found, ListQuality):
        return found
    data = texts()
    if data.corpus_key != corpus_key:
        raise InputError(f"quality texts of corpus {data.corpus_key}, not {corpus_key}")
    quality = list_quality({category: words}, data.reference, data.train_tokens, data.train_labels, topn=topn)
    cache.write_pickle(target, quality)
    return quality
