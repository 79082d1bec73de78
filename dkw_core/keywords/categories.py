"""Each category's own vocabulary: its most discriminative words, from the training split.

The metrics of step 4 score every (word, category) pair (docs/method.md §2), so a prepared
corpus already knows which words describe a category best. :func:`category_keywords` ranks a
category's words by ``metric_scores(metric, k)[category]`` — statistics of the training split
only — and tells, for each word, how many training documents of the category reach it and
through which of their phrases (docs/method.md §7).

Candidates are the words *over-represented* in the category: reached by at least one of its
training documents and by a larger share of its documents than of the whole training split
(A / (A + B) > (A + C) / N). Symmetric metrics (ig, chi2) also reward words a category
*lacks*; those would not describe it. A ``tf-`` metric multiplies its base score by tf(w, c),
the word's occurrences in the category's training documents. Ties go to the more frequent
word (the lower vocabulary index), as for a document's keywords.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..metrics import get_metric
from ..types import DEFAULT_TOP, MAX_TOP
from ..validation import check_count, check_top
from .ranking import order_scores

__all__ = ["CategoryWord", "category_keywords", "category_scores_of", "compare_categories"]


@dataclass(frozen=True)
class CategoryWord:
    """One discriminative word of a category."""

    word: str
    score: float
    documents: int     # training documents of the category whose phrases reach the word (A)
    share: float       # documents / training documents of the category
    elsewhere: float   # share of the other categories' training documents that reach it, C / (C + D)
    phrases: tuple[tuple[str, int], ...] = ()  # (phrase, documents of the category containing it), most first

    def to_dict(self) -> dict:
        return {"word": self.word, "score": self.score, "documents": self.documents, "share": self.share,
                "elsewhere": self.elsewhere, "phrases": [{"phrase": p, "documents": n} for p, n in self.phrases]}


def _category_index(model, category: str) -> int:
    if category not in model.categories:
        raise InputError(f"unknown category {category!r} for corpus {model.corpus.name}; "
                         f"one of {', '.join(model.categories)}")
    return model.categories.index(category)


def category_scores_of(model, category: str, *, metric: str, k: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, candidate mask)`` over the vocabulary for one category: the metric's scores of
    the training split (× tf(w, c) for a ``tf-`` metric) and which words are over-represented in it."""
    c = _category_index(model, category)
    m = get_metric(metric)
    stats = model.category_stats(k)
    scores = np.asarray(model.metric_scores(metric, k)[c], dtype=np.float64)
    if m.tf:
        scores = scores * stats.term_freq[c]
    a = stats.doc_freq[c]
    n_c, n = float(stats.n_docs[c]), float(stats.n_docs.sum())
    reach = stats.doc_freq.sum(axis=0)
    mask = (a > 0) & (a * n > reach * n_c)
    return scores, mask


def category_keywords(model, category: str, *, metric: str, k: int | None = None, top: int = DEFAULT_TOP,
                      phrases: int = 5) -> list[CategoryWord]:
    """The ``top`` most discriminative words of ``category`` under ``metric`` and K = ``k``, with
    their provenance across the category's training documents (``phrases`` phrases per word;
    0 = none, and no phrase provenance is computed)."""
    top = check_top(top)
    phrases = check_count("phrases", phrases, 0, MAX_TOP)
    model._check_k(k)
    c = _category_index(model, category)
    scores, mask = category_scores_of(model, category, metric=metric, k=k)
    cols = np.flatnonzero(mask)
    chosen = cols[order_scores(cols, scores[cols], top)]
    stats = model.category_stats(k)
    n_c = float(stats.n_docs[c])
    others = float(stats.n_docs.sum()) - n_c
    reach = stats.doc_freq.sum(axis=0)
    prov = _phrase_provenance(model, c, chosen, k, phrases) if phrases > 0 else {}
    return [CategoryWord(model.vocabulary[w], float(scores[w]), int(stats.doc_freq[c, w]),
                         float(stats.doc_freq[c, w] / n_c) if n_c else 0.0,
                         float((reach[w] - stats.doc_freq[c, w]) / others) if others else 0.0,
                         prov.get(int(w), ())) for w in chosen]


def _phrase_provenance(model, c: int, words: np.ndarray, k: int | None, limit: int) -> dict[int, tuple]:
    """For each word, the phrases of the category's training documents whose K nearest words
    include it, with how many of those documents contain each phrase (most first)."""
    if not hasattr(model, "index"):  # the bag-of-words baseline: a word is its own phrase
        return {}
    k = model._check_k(k)
    rows = model.rows("train")[model.labels("train") == c]
    docs = model.doc_phrase[rows].tocsc()
    df = np.diff((docs > 0).astype(np.int8).tocsc().indptr)  # documents of c containing each phrase
    present = np.flatnonzero(df)
    uids = model.phrase_uid[present]
    present, uids = present[uids >= 0], uids[uids >= 0]
    near = model.nbr_idx[uids, :k]
    out: dict[int, tuple] = {}
    for w in words:
        hit = present[(near == w).any(axis=1)]
        order = sorted(hit, key=lambda p: (-df[p], model.phrases[p]))[:limit]
        out[int(w)] = tuple((model.phrases[p], int(df[p])) for p in order)
    return out


def compare_categories(first: Sequence[str | CategoryWord], second: Sequence[str | CategoryWord]) -> dict[str, list[str]]:
    """Words of two categories' lists (words or :class:`CategoryWord`): ``shared``, ``only_first``,
    ``only_second`` (each in list order)."""
    a = [w if isinstance(w, str) else w.word for w in first]
    b = [w if isinstance(w, str) else w.word for w in second]
    sb, sa = set(b), set(a)
    return {"shared": [w for w in a if w in sb], "only_first": [w for w in a if w not in sb],
            "only_second": [w for w in b if w not in sa]}
