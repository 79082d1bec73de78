"""Classifiers on document vectors and their scores (paper §4.2.3 "Choice of a classifier").

The paper reports a linear SVM with the one-against-all (one-vs-rest) strategy, which it
found "substantially better" than libSVM's default one-against-one; kNN (cosine and
Euclidean distance) and LDA are its weaker alternatives. All come from scikit-learn.
Scores are micro- and macro-averaged F1 (paper eq. micro/macro F1), per-category
precision/recall/F1 and the confusion matrix.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError

if TYPE_CHECKING:
    from sklearn.base import ClassifierMixin
    from sklearn.svm import LinearSVC

# scikit-learn is imported where a classifier is made or scored, not when this module is: the
# app's pages import it (through the results store) and most never fit anything.

DEFAULT_CLASSIFIER = "svm-ovr"


def _svm() -> LinearSVC:
    from sklearn.svm import LinearSVC

    # liblinear's coordinate order is random: seeded, a run gives the same F1 in every process
    # (a worker of a Dask cluster included), not one that depends on numpy's global state
    return LinearSVC(C=1.0, max_iter=5000, random_state=0)


def _svm_ovo() -> ClassifierMixin:
    from sklearn.multiclass import OneVsOneClassifier

    return OneVsOneClassifier(_svm())


def _knn(metric: str) -> Callable[[], ClassifierMixin]:
    def make() -> ClassifierMixin:
        from sklearn.neighbors import KNeighborsClassifier

        return KNeighborsClassifier(n_neighbors=5, metric=metric)
    return make


def _lda() -> ClassifierMixin:
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    return LinearDiscriminantAnalysis()


#: name -> factory of a fresh, unfitted scikit-learn classifier.
CLASSIFIERS: dict[str, Callable[[], ClassifierMixin]] = {
    "svm-ovr": _svm,  # sklearn's LinearSVC is one-vs-rest (paper's choice)
    "svm-ovo": _svm_ovo,
    "knn-cosine": _knn("cosine"),
    "knn-euclidean": _knn("euclidean"),
    "lda": _lda,
}

CLASSIFIER_LABELS = {
    "svm-ovr": "linear SVM one-vs-rest",
    "svm-ovo": "linear SVM one-vs-one",
    "knn-cosine": "5-NN cosine",
    "knn-euclidean": "5-NN Euclidean",
    "lda": "LDA",
}


def make_classifier(name: str = DEFAULT_CLASSIFIER) -> ClassifierMixin:
    """A fresh classifier by name (one of :data:`CLASSIFIERS`)."""
    try:
        return CLASSIFIERS[name]()
    except KeyError:
        raise InputError(f"unknown classifier {name!r}; choose one of {', '.join(CLASSIFIERS)}") from None


@dataclass
class Scores:
    """Scores of one prediction. F1 values are fractions in [0, 1]."""

    micro_f1: float
    macro_f1: float
    categories: list[str]
    precision: list[float] = field(default_factory=list)
    recall: list[float] = field(default_factory=list)
    f1: list[float] = field(default_factory=list)
    support: list[int] = field(default_factory=list)
    confusion: list[list[int]] = field(default_factory=list)

    def per_category(self) -> list[dict]:
        return [
            {"category": c, "precision": p, "recall": r, "f1": f, "support": s}
            for c, p, r, f, s in zip(self.categories, self.precision, self.recall, self.f1, self.support)
        ]

    def to_dict(self) -> dict:
        return {
            "micro_f1": self.micro_f1,
            "macro_f1": self.macro_f1,
            "per_category": self.per_category(),
            "confusion": self.confusion,
            "categories": self.categories,
        }


def score_predictions(y_true: np.ndarray, y_pred: np.ndarray, categories: list[str]) -> Scores:
    """Micro/macro F1 (sklearn ``f1_score``), per-category P/R/F1 and the confusion matrix.

    Macro F1 averages over every category of ``categories`` (a category absent from both
    truth and prediction counts as F1 = 0, ``zero_division=0``), as the paper's macro F1 does.
    """
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if y_true.shape != y_pred.shape or y_true.size == 0:
        raise InputError(f"cannot score {y_pred.size} predictions against {y_true.size} labels")
    from sklearn.metrics import confusion_matrix, f1_score, precision_recall_fscore_support

    labels = np.arange(len(categories))
    present = np.unique(np.concatenate([y_true, y_pred]))
    # macro over the categories that occur in truth or prediction (sklearn convention when labels=None)
    micro = float(f1_score(y_true, y_pred, average="micro", labels=labels, zero_division=0))
    macro = float(f1_score(y_true, y_pred, average="macro", labels=present, zero_division=0))
    p, r, f, s = precision_recall_fscore_support(y_true, y_pred, labels=labels, zero_division=0)
    cm = confusion_matrix(y_true, y_pred, labels=labels)
    return Scores(
        micro_f1=micro,
        macro_f1=macro,
        categories=list(categories),
        precision=[float(x) for x in p],
        recall=[float(x) for x in r],
        f1=[float(x) for x in f],
        support=[int(x) for x in s],
        confusion=cm.tolist(),
    )


def _dense(X: Any) -> np.ndarray:
    """A sparse matrix as an array (LDA needs one); an array as it is."""
    return X.toarray() if hasattr(X, "toarray") else X


def fit_predict(
    X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray, *, classifier: str = DEFAULT_CLASSIFIER
) -> np.ndarray:
    """Train ``classifier`` on the training vectors and predict the test vectors.

    Only the *training* labels are passed in; the test labels never reach this function.
    A training set with a single category predicts that category (nothing to learn).
    """
    X_train = np.asarray(X_train, dtype=np.float64) if not hasattr(X_train, "tocsr") else X_train
    X_test = np.asarray(X_test, dtype=np.float64) if not hasattr(X_test, "tocsr") else X_test
    y_train = np.asarray(y_train)
    if X_train.shape[0] != y_train.shape[0]:
        raise InputError(f"{X_train.shape[0]} training vectors but {y_train.shape[0]} labels")
    if X_train.shape[0] == 0:
        raise InputError("no training documents to fit a classifier on")
    classes = np.unique(y_train)
    if classes.size == 1:
        return np.full(X_test.shape[0], classes[0])
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.neighbors import KNeighborsClassifier

    model = make_classifier(classifier)
    if isinstance(model, KNeighborsClassifier):
        model.set_params(n_neighbors=min(model.n_neighbors, X_train.shape[0]))
    if isinstance(model, LinearDiscriminantAnalysis):
        X_train, X_test = _dense(X_train), _dense(X_test)
    from ..expected_warnings import fit_warnings_expected

    with fit_warnings_expected():  # convergence on tiny samples, LDA's collinear variables
        model.fit(X_train, y_train)
    return model.predict(X_test)


def check_evaluable(categories, name: str = "the corpus") -> None:
    """Refuse to classify a corpus with fewer than two categories: every document would be
    "right" and F1 a meaningless 100. (Its keywords still work.)"""
    cats = list(categories)
    if len(cats) < 2:
        from ..errors import InputError

        raise InputError(f"{name} has {len(cats)} categor{'y' if len(cats) == 1 else 'ies'} "
                         f"({', '.join(map(str, cats)) or 'none'}); classification needs at least two, so there is "
                         "nothing to evaluate (its keywords still work)")
