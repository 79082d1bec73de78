"""How well a new text fits the corpus whose statistics weight its words (docs/method.md §13).

A text about volcanoes scored with 20 Newsgroups' statistics is still "weighted as sci.space":
the posterior always names some category. Two signals tell such a text apart, both from what
ships with a corpus (no document needed):

* **P**: the category posterior's top probability (the tf-idf classifier's confidence);
* **similarity**: the cosine between the text's vector (the count-weighted, normalised sum of its
  phrase vectors, :attr:`~.keyphrases.TextArtefacts.centroid`) and the nearest category's
  vector (the normalised sum of the word vectors of the words its training documents contain,
  weighted by how many of them contain each: :attr:`~dkw_core.metrics.CategoryStats.own_freq`).
  The distance to the corpus is 1 − similarity.

A text is **out of the corpus** when its similarity is below :data:`MIN_SIMILARITY` *and* its P
below :data:`MIN_P`: thresholds chosen on training documents (20 Newsgroups' training split as
texts that fit, R8's and WebKB's training splits as texts that do not) and checked on their test
splits (``scripts/corpus_fit.py``, ``docs/results/keyphrases/corpus-fit.json``: 15 texts per
category and split; on the test splits precision 0.78 and recall 0.81 of "out of the corpus",
on the training splits 0.94 and 0.83). Such a text gets keywords about itself (``about`` = 0: its
own phrases ranked by their closeness to the text, :mod:`.keyphrases`), not a category's words.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MIN_SIMILARITY = 0.97
"""Below this similarity to the nearest category (and below :data:`MIN_P`) a text is out of the corpus."""
MIN_P = 0.60
"""Below this top posterior (and below :data:`MIN_SIMILARITY`) a text is out of the corpus."""


@dataclass(frozen=True)
class CorpusFit:
    """How well one text fits the corpus: the posterior's top P, the cosine to the nearest
    category, that category, and the verdict."""

    p: float
    similarity: float
    nearest: str
    out_of_corpus: bool

    @property
    def distance(self) -> float:
        return 1.0 - self.similarity

    def describe(self, corpus: str) -> str:
        fit = "fits" if not self.out_of_corpus else "does not fit"
        return (f"the text {fit} {corpus} (P = {self.p:.2f}, distance to the nearest category "
                f"{self.distance:.2f}; out of the corpus below P {MIN_P:.2f} and above distance "
                f"{1 - MIN_SIMILARITY:.2f})")

    def to_dict(self) -> dict:
        return {"fit_p": round(self.p, 4), "fit_similarity": round(self.similarity, 4),
                "fit_distance": round(self.distance, 4), "nearest_category": self.nearest,
                "out_of_corpus": self.out_of_corpus}


def category_centroids(own_freq: np.ndarray, word_matrix: np.ndarray) -> np.ndarray:
    """(categories x dim) unit vectors: each category's own-word counts times the word vectors."""
    m = np.asarray(own_freq, dtype=np.float64) @ np.asarray(word_matrix, dtype=np.float64)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1, norms)


def corpus_fit(centroid: np.ndarray, centroids: np.ndarray, posterior: np.ndarray, categories: list[str], *,
               min_similarity: float = MIN_SIMILARITY, min_p: float = MIN_P) -> CorpusFit:
    """The :class:`CorpusFit` of a text from its vector, the category vectors and its posterior row."""
    sims = centroids @ np.asarray(centroid, dtype=np.float64)
    j = int(np.argmax(sims))
    p = float(np.max(posterior))
    sim = float(sims[j])
    return CorpusFit(p=p, similarity=sim, nearest=str(categories[j]), out_of_corpus=sim < min_similarity and p < min_p)
