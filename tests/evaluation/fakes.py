"""A tiny in-memory stand-in for ``KeywordModel`` on synthetic data (no corpus, no vectors file).

Vocabulary words belong to categories; a document of category c mostly contains words of c.
``rank`` follows the contract: label-aware scores each document with its own gold category,
label-free with the maximum over categories, and never reads the ranked split's labels then.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp


class FakeModel:
    def __init__(self, *, n_categories: int = 3, words_per_category: int = 8, docs_per_category: dict | None = None,
                 dim: int = 6, seed: int = 0, noise: float = 0.3) -> None:
        rng = np.random.default_rng(seed)
        docs_per_category = docs_per_category or {"train": 12, "test": 6}
        C, W = n_categories, words_per_category
        self.categories = [f"cat{c}" for c in range(C)]
        self.vocabulary = [f"w{c}_{i}" for c in range(C) for i in range(W)]
        V = len(self.vocabulary)
        owner = np.repeat(np.arange(C), W)
        centres = rng.normal(size=(C, dim))
        self.vectors = centres[owner] + 0.5 * rng.normal(size=(V, dim))
        self._labels: dict[str, np.ndarray] = {}
        self._counts: dict[str, sp.csr_matrix] = {}
        for split, n in docs_per_category.items():
            labels = np.repeat(np.arange(C), n)
            counts = np.zeros((labels.size, V))
            for d, c in enumerate(labels):
                own = rng.choice(np.flatnonzero(owner == c), size=4)
                other = rng.choice(V, size=int(6 * noise) + 1)
                np.add.at(counts[d], own, 1)
                np.add.at(counts[d], other, 1)
            self._labels[split] = labels
            self._counts[split] = sp.csr_matrix(counts)
        tr = self._counts["train"].toarray() > 0
        y = self._labels["train"]
        self._scores = np.stack([tr[y == c].mean(0) - tr[y != c].mean(0) for c in range(C)])  # (C x V)
        self.reads: list[str] = []  # splits whose labels were read

    def labels(self, split: str) -> np.ndarray:
        self.reads.append(split)
        return self._labels[split].copy()

    def term_counts(self, split: str, k: int) -> sp.csr_matrix:
        return self._counts[split]

    def metric_scores(self, metric: str, k: int) -> np.ndarray:
        return self._scores * (1 + k / 100)

    def doc_ids(self, split: str) -> list[str]:
        return [f"{split}/{i}" for i in range(len(self._labels[split]))]

    def rank(self, split: str, *, metric: str, k: int, top: int, protocol: str, labels=None) -> np.ndarray:
        tf = self._counts[split].toarray()
        present = tf > 0
        if protocol == "label-aware":
            s = self.metric_scores(metric, k)[self._labels[split] if labels is None else np.asarray(labels)]
        else:
            s = np.broadcast_to(self.metric_scores(metric, k).max(0), tf.shape)
        if metric.startswith("tf-"):
            s = s * tf
        s = np.where(present, s, -np.inf)
        order = np.argsort(-s, axis=1, kind="stable")[:, :top]
        ok = np.take_along_axis(present, order, 1)
        return np.where(ok, order, -1)

    def document_vectors(self, idx: np.ndarray) -> np.ndarray:
        idx = np.asarray(idx)
        out = np.zeros((idx.shape[0], self.vectors.shape[1]))
        for d, row in enumerate(idx):
            row = row[row >= 0]
            if row.size:
                v = self.vectors[row].sum(0)
                out[d] = v / (np.linalg.norm(v) or 1.0)
        return out

    def shuffled_test_labels(self, seed: int = 1) -> FakeModel:
        import copy

        other = copy.copy(self)
        other._labels = dict(self._labels)
        other._labels["test"] = np.random.default_rng(seed).permutation(self._labels["test"])
        other.reads = []
        return other
