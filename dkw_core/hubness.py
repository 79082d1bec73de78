"""Hubness of step 3: how unevenly the cropped vocabulary is shared out as nearest words.

The *k-occurrence* ``N_k(w)`` of a word is the number of unique phrase vectors of a corpus
that have ``w`` among their ``k`` nearest words (Radovanović, Nanopoulos & Ivanović, JMLR
2010). Without hubs it would be about ``k · queries / vocabulary`` for every word; in a
space with hubs its distribution is strongly right-skewed: a few words are neighbours of a
large share of all phrases and then dominate every metric that multiplies by tf(w, d)
(docs/method.md, step 3). Reported figures:

* ``skewness`` of ``N_k`` over the cropped vocabulary (``scipy.stats.skew``);
* ``top1_share``: the share of all ``queries · k`` neighbour slots held by the 1 % of words
  with the largest ``N_k``;
* ``never_share``: the share of words that are nobody's neighbour (anti-hubs);
* ``hubs``: the 20 words with the largest ``N_k``, with their share of queries.

Every unique phrase vector counts once, whatever the number of its occurrences.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from .errors import InputError

TOP_HUBS = 20


@dataclass
class Hub:
    word: str
    k_occurrence: int
    query_share: float  # share of the phrase vectors that have this word among their k nearest


@dataclass
class HubnessReport:
    k: int
    queries: int            # unique phrase vectors
    vocabulary: int         # cropped vocabulary size
    skewness: float
    top1_share: float       # share of neighbour slots held by the top 1 % of words
    never_share: float      # share of words never among anyone's k nearest
    max_k_occurrence: int
    hubs: list[Hub] = field(default_factory=list)
    dataset: str = ""
    vectors: str = ""
    neighbours: str = "cosine"

    def to_dict(self) -> dict:
        return asdict(self)


def k_occurrence(nbr_idx: np.ndarray, k: int, vocabulary_size: int) -> np.ndarray:
    """``N_k(w)`` for every word id: how many rows of ``nbr_idx`` have it in their first k columns."""
    if not 1 <= k <= nbr_idx.shape[1]:
        raise InputError(f"k must be between 1 and {nbr_idx.shape[1]} (the prepared k_max), got {k}")
    return np.bincount(np.asarray(nbr_idx[:, :k], dtype=np.int64).ravel(), minlength=vocabulary_size)


def hubness_of(nbr_idx: np.ndarray, vocabulary: list[str], k: int, *, top: int = TOP_HUBS) -> HubnessReport:
    """Hubness figures of a neighbour table (queries x k_max word ids)."""
    from scipy.stats import skew

    n = int(nbr_idx.shape[0])
    if n == 0:
        raise InputError("no phrase vectors to measure")
    counts = k_occurrence(nbr_idx, k, len(vocabulary))
    order = np.lexsort((np.arange(len(counts)), -counts))  # largest first, ties by word id
    n_top = max(1, math.ceil(0.01 * len(counts)))
    slots = float(n * k)
    return HubnessReport(
        k=int(k), queries=n, vocabulary=len(vocabulary),
        skewness=float(skew(counts.astype(np.float64))) if counts.min() != counts.max() else 0.0,
        top1_share=float(counts[order[:n_top]].sum() / slots),
        never_share=float((counts == 0).mean()),
        max_k_occurrence=int(counts.max()),
        hubs=[Hub(vocabulary[i], int(counts[i]), float(counts[i] / n)) for i in order[:top]],
    )


def model_hubness(model, k: int | None = None, *, top: int = TOP_HUBS) -> HubnessReport:
    """Hubness of a prepared :class:`dkw_core.keywords.KeywordModel` over all its unique phrase vectors."""
    k = model.k_max if k is None else int(k)
    report = hubness_of(model.nbr_idx, model.vocabulary, k, top=top)
    report.dataset = model.corpus.key
    report.vectors = model.vectors.name
    report.neighbours = getattr(model, "neighbours", "cosine")
    return report
