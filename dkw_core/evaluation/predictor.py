"""The keyword predictor of the parameter searches: ``predict(setup, train_idx, val_idx)``
backed by a prepared ``KeywordModel`` (fold-local statistics, :mod:`.foldstats`), and how a
Dask worker rebuilds it from the model's reference."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from ..types import POSTERIOR_PROTOCOLS
from .classifiers import DEFAULT_CLASSIFIER, fit_predict
from .foldstats import fold_scores, rank_rows, training_counts


@dataclass(frozen=True, order=True)
class Setup:
    """One candidate parameter setup: K nearest words, weighting metric, N keywords."""

    k: int
    metric: str
    top: int

    def __str__(self) -> str:
        return f"K={self.k}, metric={self.metric}, N={self.top}"


class ModelPredictor:
    """``predict`` for :func:`parameter_search` backed by a prepared ``KeywordModel``.

    For every fold (identified by its training and validation positions) and every (metric, K)
    it counts the category statistics from the fold's training documents only
    (:func:`fold_scores`), ranks the fold's documents once with ``top = max N`` from the
    model's cached term counts (never re-tagging nor re-searching neighbours) and keeps the
    index matrices; every setup then slices its first N keywords, builds the document vectors
    (normalised sum of keyword vectors) and trains ``classifier`` on the fold's training part.

    ``labels`` (default: the model's training labels) are the only labels read; a test may
    pass altered labels to check that a validation document's label-free vector ignores them.
    """

    #: folds kept in memory (one round of Algorithm 2 uses at most 5)
    MAX_FOLDS = 5

    def __init__(self, model, *, protocol: str, classifier: str = DEFAULT_CLASSIFIER, max_top: int,
                 labels: np.ndarray | None = None, ref=None) -> None:
        if model is None and (ref is None or labels is None):
            raise InputError("a predictor without a local model needs its reference and the training labels")
        self.model = model  # None on the client of a Dask session: only the workers load it
        self.ref = ref  # a dkw_core.cluster.ModelRef: how a Dask worker finds the same model
        self.protocol = protocol
        self.classifier = classifier
        self.max_top = int(max_top)
        self.labels = np.asarray(model.labels("train") if labels is None else labels)
        self._folds: dict[bytes, dict] = {}
        self.fold_count = 0  # distinct folds whose statistics were counted
        self._counts_key: tuple[int, bytes] | None = None
        self._counts: Any = None  # (documents x vocabulary) counts of the current round
        self._counts_pos: np.ndarray | None = None
        self._post_counts = None  # label-free-posterior: term counts of the training texts

    def __reduce__(self):
        """Pickled (for a Dask worker) as the model's reference, never the model: the worker
        loads it from the shared cache once and keeps one predictor, with its fold caches."""
        if self.ref is None:
            raise InputError("this predictor's model has no reference a cluster worker could load")
        own = self.model is not None and np.array_equal(self.labels, self.model.labels("train"))
        labels = None if own else self.labels
        return _predictor_on_worker, (self.ref, self.protocol, self.classifier, self.max_top, labels)

    def _fold(self, train_pos: np.ndarray, val_pos: np.ndarray) -> dict:
        key = hashlib.sha1(np.asarray(train_pos, dtype=np.int64).tobytes() + b"|"
                           + np.asarray(val_pos, dtype=np.int64).tobytes()).digest()
        if key in self._folds:
            self._folds[key] = self._folds.pop(key)  # most recently used last
        else:
            while len(self._folds) >= self.MAX_FOLDS:
                self._folds.pop(next(iter(self._folds)))
            self._folds[key] = {"stats": {}, "scores": {}, "ranks": {}}
            self.fold_count += 1
        return self._folds[key]

    def _round_counts(self, k: int, train_pos: np.ndarray, val_pos: np.ndarray):
        """A counts getter for the documents of this fold's round (train and validation parts),
        computed once per (K, round) for those documents only; one K is kept at a time (the
        setups of a round are K-major)."""
        union = np.union1d(train_pos, val_pos)
        key = (k, hashlib.sha1(union.astype(np.int64).tobytes()).digest())
        if self._counts_key != key:
            self._counts_key = key
            self._counts = training_counts(self.model, union, k)
            self._counts_pos = union
        counts, where = self._counts, self._counts_pos
        assert where is not None  # set just above
        return lambda pos: counts[np.searchsorted(where, np.asarray(pos))]

    def fold_ranks(self, metric: str, k: int, train_pos: np.ndarray, val_pos: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
        """(training part, validation part) keyword indices (``max_top`` columns) of one fold,
        ranked with statistics of the fold's training part only."""
        fold = self._fold(train_pos, val_pos)
        if (metric, k) not in fold["ranks"]:
            self._forget_other_k(k)
            rows_of = self._round_counts(k, train_pos, val_pos)
            scores = fold_scores(self.model, metric, k, train_pos, self.labels, cache=fold, counts=rows_of)
            weights = self._fold_posteriors(fold, train_pos, val_pos)
            out = []
            for pos, w in zip((train_pos, val_pos), weights):
                labels = self.labels[pos] if self.protocol == "label-aware" else None
                if w is not None:  # a posterior protocol: no label of these documents is read
                    from ..keywords.posterior import rank_arguments

                    labels, w = rank_arguments(self.protocol, w)
                idx = rank_rows(self.model, pos, metric=metric, k=k, scores=scores, labels=labels, top=self.max_top,
                                counts=rows_of(pos), weights=w)
                small = np.int16 if len(self.model.vocabulary) < np.iinfo(np.int16).max else np.int32
                out.append(idx.astype(small))
            fold["ranks"][(metric, k)] = tuple(out)
        return fold["ranks"][(metric, k)]

    def _forget_other_k(self, k: int) -> None:
        """Drop every fold's statistics, scores and rankings of other K values: setups come
        K-major, and the per-K matrices of every metric would otherwise pile up in memory."""
        for fold in self._folds.values():
            for name in ("ranks", "scores"):
                for key in [key for key in fold[name] if key[1] != k]:
                    del fold[name][key]
            for key in [key for key in fold["stats"] if key != k]:
                del fold["stats"][key]

    def _fold_posteriors(self, fold: dict, train_pos: np.ndarray, val_pos: np.ndarray) -> tuple:
        """label-free-posterior (and -top1): category posteriors of the fold's documents from classifiers
        fitted on every training-split document outside the fold's validation part
        (out-of-fold for the fold's training part; :func:`~dkw_core.keywords.posterior.fold_posteriors`);
        (None, None) under the other protocols."""
        if self.protocol not in POSTERIOR_PROTOCOLS:
            return None, None
        if "posteriors" not in fold:
            from ..keywords.posterior import fold_posteriors

            fold["posteriors"] = fold_posteriors(self._posterior_counts(), self.labels, train_pos, val_pos,
                                                 len(self.model.categories))
        return fold["posteriors"]

    def _posterior_counts(self):
        """Term counts of every training text for the posterior classifiers (no label read)."""
        if self._post_counts is None:
            from ..keywords.posterior import count_features

            docs = self.model.corpus.documents
            self._post_counts = count_features([docs[i].text for i in self.model.rows("train")])
        return self._post_counts

    def fold_vectors(self, setup: Setup, train_pos: np.ndarray, val_pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        tr, va = self.fold_ranks(setup.metric, setup.k, train_pos, val_pos)
        def vectors(idx: np.ndarray) -> np.ndarray:
            return np.asarray(self.model.document_vectors(idx[:, : setup.top].astype(np.int64)))

        return vectors(tr), vectors(va)

    def __call__(self, setup: Setup, train_pos: np.ndarray, val_pos: np.ndarray) -> np.ndarray:
        X_tr, X_va = self.fold_vectors(setup, train_pos, val_pos)
        return fit_predict(X_tr, self.labels[train_pos], X_va, classifier=self.classifier)


_PREDICTORS: dict = {}


def _predictor_on_worker(ref, protocol: str, classifier: str, max_top: int, labels) -> ModelPredictor:
    key = (ref, protocol, classifier, max_top, None if labels is None else hashlib.sha1(labels.tobytes()).hexdigest())
    if key not in _PREDICTORS:
        _PREDICTORS.clear()  # one search at a time per worker
        _PREDICTORS[key] = ModelPredictor(ref.load(), protocol=protocol, classifier=classifier, max_top=max_top,
                                          labels=labels, ref=ref)
    return _PREDICTORS[key]
