"""Category posteriors for the label-free posterior weighting (docs/method.md §3).

The paper weights a document's words with its gold category; a new text has none. The
``label-free-posterior`` protocol weights them with the category posterior instead:

    score(w | d) = Σ_c P(c | d) · metric(w, c)

with P(c | d) from a calibrated text classifier — tf-idf (sublinear) + LinearSVC, calibrated
by Platt scaling (scikit-learn ``CalibratedClassifierCV``) — fitted on training texts only.
A training document gets an *out-of-fold* posterior (from a classifier that never saw it),
so it is weighted as a test document would be. It reduces to the paper's weighting when the
posterior is certain and right, and degrades gracefully when it is not. The labels of the
documents being weighted are never read.
"""
from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from ..errors import InputError

FOLDS = 5
SETTINGS = {"features": "tfidf-sublinear-min_df2", "classifier": "LinearSVC(C=0.5)", "calibration": "sigmoid-cv3",
            "train_posteriors": f"out-of-fold-{FOLDS}"}
"""What a posterior depends on besides the training texts and labels (enters cache keys)."""


def _pipeline(n_train_per_class_min: int):
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import LinearSVC

    cv = max(2, min(3, n_train_per_class_min))
    return make_pipeline(TfidfVectorizer(sublinear_tf=True, min_df=2 if n_train_per_class_min >= 3 else 1),
                         CalibratedClassifierCV(LinearSVC(C=0.5, random_state=0), method="sigmoid", cv=cv))


class CategoryPosterior:
    """P(c | d) over ``n_categories`` columns, fitted on training texts and labels only."""

    def __init__(self, n_categories: int) -> None:
        self.n_categories = int(n_categories)
        self._pipe = None
        self._classes: np.ndarray | None = None
        self._constant: np.ndarray | None = None

    def fit(self, texts: Sequence[str], labels: np.ndarray) -> "CategoryPosterior":
        labels = np.asarray(labels, dtype=np.int64)
        if len(texts) != len(labels):
            raise InputError(f"{len(texts)} texts but {len(labels)} labels")
        classes, counts = np.unique(labels, return_counts=True)
        if len(classes) < 2 or counts.min() < 2:  # too little to learn from: the class prior
            prior = np.zeros(self.n_categories)
            prior[classes] = counts / counts.sum()
            self._constant = prior
            return self
        self._pipe = _pipeline(int(counts.min()))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self._pipe.fit(list(texts), labels)
        self._classes = np.asarray(self._pipe.classes_)
        return self

    def predict(self, texts: Sequence[str]) -> np.ndarray:
        """(texts x categories) posteriors; every row sums to 1."""
        out = np.zeros((len(texts), self.n_categories))
        if not len(texts):
            return out
        if self._constant is not None:
            out[:] = self._constant
            return out
        if self._pipe is None:
            raise InputError("the category posterior is not fitted")
        out[:, self._classes] = self._pipe.predict_proba(list(texts))
        return out


def out_of_fold(texts: Sequence[str], labels: np.ndarray, n_categories: int, *, folds: int = FOLDS,
                seed: int = 0) -> np.ndarray:
    """Posteriors of training texts, each from a classifier fitted without it."""
    from sklearn.model_selection import StratifiedKFold

    labels = np.asarray(labels, dtype=np.int64)
    out = np.zeros((len(texts), n_categories))
    n_splits = int(min(folds, np.bincount(labels).max(initial=0), len(labels)))
    if n_splits < 2:
        return CategoryPosterior(n_categories).fit(texts, labels).predict(texts)
    splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a class smaller than n_splits: fine, its rows still get a posterior
        splits = list(splitter.split(np.zeros(len(labels)), labels))
    for fit_rows, held_out in splits:
        model = CategoryPosterior(n_categories).fit([texts[i] for i in fit_rows], labels[fit_rows])
        out[held_out] = model.predict([texts[i] for i in held_out])
    return out


def corpus_posteriors(texts: Sequence[str], labels: np.ndarray, train_rows: np.ndarray, n_categories: int
                      ) -> tuple[np.ndarray, CategoryPosterior]:
    """Posteriors of every document: out-of-fold for ``train_rows``, and from a classifier
    fitted on all of them for the rest. Only the labels of ``train_rows`` are read."""
    train_rows = np.asarray(train_rows)
    y = np.asarray(labels)[train_rows]
    train_texts = [texts[i] for i in train_rows]
    fitted = CategoryPosterior(n_categories).fit(train_texts, y)
    out = np.zeros((len(texts), n_categories))
    others = np.setdiff1d(np.arange(len(texts)), train_rows)
    out[others] = fitted.predict([texts[i] for i in others])
    out[train_rows] = out_of_fold(train_texts, y, n_categories)
    return out, fitted
