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

Inside Algorithm 2 (:func:`fold_posteriors`) a fold's posteriors come from classifiers fitted
on every training-split document outside the fold's validation part: the validation labels
are never read, and the classifier is as strong as the final model's (docs/method.md §3).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..errors import InputError
from ..expected_warnings import fit_warnings_expected

FOLDS = 5
CALIBRATION_FOLDS = 3
MIN_DF2_DOCS = 100
SETTINGS = {"features": f"tfidf-sublinear-min_df2-from-{MIN_DF2_DOCS}-docs", "classifier": "LinearSVC(C=0.5, seed 0)",
            "calibration": f"sigmoid-stratified-cv{CALIBRATION_FOLDS}-small-categories-kept",
            "train_posteriors": f"out-of-fold-{FOLDS}"}
"""What a posterior depends on besides the training texts and labels (enters cache keys)."""

FOLD_SCHEME = f"outside-validation, out-of-fold-{FOLDS} for the fold's training part"
"""How Algorithm 2 fits a fold's posteriors (:func:`fold_posteriors`; enters stored search keys)."""


def as_weights(protocol: str, posteriors: np.ndarray) -> np.ndarray:
    """Category weights of documents with these posteriors (rows) under a posterior protocol:
    the posterior itself (``label-free-posterior``) or a one-hot row of its most probable
    category (``label-free-top1``: the paper's weighting with the predicted category)."""
    posteriors = np.asarray(posteriors, dtype=np.float64)
    if protocol == "label-free-posterior":
        return posteriors
    if protocol == "label-free-top1":
        out = np.zeros_like(posteriors)
        if posteriors.size:
            out[np.arange(posteriors.shape[0]), posteriors.argmax(axis=1)] = 1.0
        return out
    raise InputError(f"{protocol!r} does not weight with the category posterior")


UNSURE_BELOW = 0.5
"""A posterior whose most probable category has P below this is *unsure* (docs/method.md §3)."""
UNSURE_MARGIN = 0.2
"""A posterior whose two most probable categories are within this of each other is *unsure*."""


@dataclass(frozen=True)
class Weighting:
    """Which category a new text's words are weighted with, and how sure the posterior is:
    shown beside its keywords ("weighted as comp.graphics, P = 0.93")."""

    category: str
    probability: float
    runner_up: str | None = None
    runner_up_probability: float = 0.0

    @property
    def unsure(self) -> bool:
        """Top P below :data:`UNSURE_BELOW`, or the top two within :data:`UNSURE_MARGIN`."""
        return self.probability < UNSURE_BELOW or (
            self.runner_up is not None and self.probability - self.runner_up_probability < UNSURE_MARGIN)

    def describe(self, name: Callable[[str], str] = str) -> str:
        """"weighted as comp.graphics, P = 0.93" (and the runner-up when unsure); each category
        name through ``name`` (a page passes its markdown escape, which also isolates the name:
        an override in a category then cannot reverse the rest of the sentence)."""
        text = f"weighted as {name(self.category)}, P = {self.probability:.2f}"
        if self.unsure and self.runner_up is not None:
            text += f" (unsure: {name(self.runner_up)}, P = {self.runner_up_probability:.2f})"
        return text

    def to_dict(self) -> dict:
        return {"weighted_as": self.category, "p": round(self.probability, 4), "runner_up": self.runner_up,
                "runner_up_p": round(self.runner_up_probability, 4), "unsure": self.unsure}


def weighting_of(posterior: np.ndarray, categories: Sequence[str]) -> Weighting:
    """The :class:`Weighting` of one posterior row (ties go to the lower category index, as argmax)."""
    row = np.asarray(posterior, dtype=np.float64).ravel()
    if row.size != len(categories) or not row.size:
        raise InputError(f"a posterior over {len(categories)} categories has {row.size} entries")
    order = np.argsort(-row, kind="stable")
    second = order[1] if row.size > 1 else None
    return Weighting(str(categories[order[0]]), float(row[order[0]]),
                     None if second is None else str(categories[second]),
                     0.0 if second is None else float(row[second]))


def rank_arguments(protocol: str, posteriors: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    """``(labels, weights)`` for :func:`~dkw_core.keywords.top_n` under a posterior protocol:
    top-1 ranks with the predicted category as label-aware ranks with the gold one (same
    keywords as one-hot weights, without the dense product)."""
    if protocol == "label-free-top1":
        return np.asarray(posteriors).argmax(axis=1), None
    return None, as_weights(protocol, posteriors)


def _learnable(labels: np.ndarray) -> bool:
    """At least two categories with two documents each: every calibration fold then trains on
    two categories or more. Anything less gets the class prior."""
    return int((np.bincount(labels) >= 2).sum()) >= 2


def _min_df(n_docs: int) -> int:
    """Words seen in one training document only are left out, except on toy corpora."""
    return 2 if n_docs >= MIN_DF2_DOCS else 1


def _calibrated(labels: np.ndarray):
    """LinearSVC with Platt scaling on 3 stratified calibration folds (fewer if no category has
    3 documents). The folds are handed over as a list so that a category with fewer documents
    than folds is kept (sklearn refuses an integer ``cv`` then): its calibrated probability
    comes from the folds whose classifier saw it. R52 has categories with one training document."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.model_selection import StratifiedKFold
    from sklearn.svm import LinearSVC

    n_splits = int(min(CALIBRATION_FOLDS, np.bincount(labels).max()))
    with fit_warnings_expected():  # a category smaller than n_splits
        splits = list(StratifiedKFold(n_splits=n_splits).split(np.zeros(len(labels)), labels))
    # random_state: liblinear's coordinate descent shuffles; seeded, a fit is repeatable (the
    # fold-local checks compare posteriors exactly).
    return CalibratedClassifierCV(LinearSVC(C=0.5, random_state=0), method="sigmoid", cv=splits)


def _pipeline(labels: np.ndarray):
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import make_pipeline

    return make_pipeline(TfidfVectorizer(sublinear_tf=True, min_df=_min_df(len(labels))), _calibrated(labels))


class CategoryPosterior:
    """P(c | d) over ``n_categories`` columns, fitted on training texts and labels only."""

    def __init__(self, n_categories: int) -> None:
        self.n_categories = int(n_categories)
        self._pipe: Any = None  # the fitted scikit-learn pipeline
        self._classes: np.ndarray | None = None
        self._constant: np.ndarray | None = None

    def fit(self, texts: Sequence[str], labels: np.ndarray) -> CategoryPosterior:
        labels = np.asarray(labels, dtype=np.int64)
        if len(texts) != len(labels):
            raise InputError(f"{len(texts)} texts but {len(labels)} labels")
        classes, counts = np.unique(labels, return_counts=True)
        if not _learnable(labels):  # too little to learn from: the class prior
            prior = np.zeros(self.n_categories)
            prior[classes] = counts / counts.sum()
            self._constant = prior
            return self
        self._pipe = _pipeline(labels)
        with fit_warnings_expected():
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
    out[train_rows] = out_of_fold_counts(count_features(train_texts), y, n_categories)
    return out, fitted


def out_of_fold_counts(counts: sp.csr_matrix, labels: np.ndarray, n_categories: int, *, folds: int = FOLDS,
                       seed: int = 0) -> np.ndarray:
    """Posteriors of the rows of a :func:`count_features` matrix (the texts tokenised once), each
    from a classifier fitted without it."""
    labels = np.asarray(labels, dtype=np.int64)
    out = np.zeros((counts.shape[0], n_categories))
    groups = _groups(labels, folds, seed)
    if len(groups) < 2:
        return MatrixPosterior(n_categories).fit(counts, labels).predict(counts)
    everyone = np.arange(len(labels))
    for held_out in groups:
        fit_rows = np.setdiff1d(everyone, held_out)
        out[held_out] = MatrixPosterior(n_categories).fit(counts[fit_rows], labels[fit_rows]).predict(counts[held_out])
    return out


def count_features(texts: Sequence[str]) -> sp.csr_matrix:
    """Raw term counts of ``texts`` with the classifier's tokenizer (``TfidfVectorizer``'s
    defaults). Counting reads no label and no other document; which columns a fit keeps
    (min_df) and their idf are decided by the fit rows alone (:class:`MatrixPosterior`), so a
    classifier fitted on some rows of this matrix equals :class:`CategoryPosterior` fitted on
    those rows' texts, without tokenising the texts again for every fit."""
    from sklearn.feature_extraction.text import CountVectorizer

    return sp.csr_matrix(CountVectorizer().fit_transform(list(texts)))


class MatrixPosterior:
    """:class:`CategoryPosterior` on rows of a :func:`count_features` matrix (same features,
    classifier and calibration; the vocabulary is the fit rows' words with document frequency
    >= min_df among the fit rows, the idf theirs)."""

    def __init__(self, n_categories: int) -> None:
        self.n_categories = int(n_categories)
        self._cols: np.ndarray | None = None
        self._tfidf: Any = None
        self._clf: Any = None
        self._classes: np.ndarray | None = None
        self._constant: np.ndarray | None = None

    def fit(self, counts: sp.csr_matrix, labels: np.ndarray) -> MatrixPosterior:
        from sklearn.feature_extraction.text import TfidfTransformer

        labels = np.asarray(labels, dtype=np.int64)
        if counts.shape[0] != len(labels):
            raise InputError(f"{counts.shape[0]} rows but {len(labels)} labels")
        classes, n = np.unique(labels, return_counts=True)
        if not _learnable(labels):  # as CategoryPosterior: the class prior
            prior = np.zeros(self.n_categories)
            prior[classes] = n / n.sum()
            self._constant = prior
            return self
        min_df = _min_df(len(labels))
        df = np.asarray((counts > 0).sum(axis=0)).ravel()
        self._cols = np.flatnonzero(df >= min_df)
        fit_x = counts[:, self._cols]
        self._tfidf = TfidfTransformer(sublinear_tf=True).fit(fit_x)
        clf = _calibrated(labels)
        with fit_warnings_expected():
            clf.fit(self._tfidf.transform(fit_x), labels)
        self._clf, self._classes = clf, np.asarray(clf.classes_)
        return self

    def predict(self, counts: sp.csr_matrix) -> np.ndarray:
        out = np.zeros((counts.shape[0], self.n_categories))
        if not counts.shape[0]:
            return out
        if self._constant is not None:
            out[:] = self._constant
            return out
        if self._clf is None:
            raise InputError("the category posterior is not fitted")
        out[:, self._classes] = self._clf.predict_proba(self._tfidf.transform(counts[:, self._cols]))
        return out


def _groups(labels: np.ndarray, folds: int, seed: int) -> list[np.ndarray]:
    """Stratified (when possible) groups of positions ``0..len(labels)-1``."""
    from sklearn.model_selection import KFold, StratifiedKFold

    n_splits = int(min(folds, np.bincount(labels).max(initial=0), len(labels)))
    if n_splits < 2:
        return [np.arange(len(labels))] if len(labels) else []
    with fit_warnings_expected():
        try:
            splits = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed).split(labels, labels)
            return [held for _, held in splits]
        except ValueError:
            return [held for _, held in KFold(n_splits=n_splits, shuffle=True, random_state=seed).split(labels)]


def fold_posteriors(counts: sp.csr_matrix, labels: np.ndarray, train_pos: np.ndarray, val_pos: np.ndarray,
                    n_categories: int, *, folds: int = FOLDS, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Posteriors of one cross-validation fold of Algorithm 2, never reading a validation label.

    ``counts`` (:func:`count_features`) and ``labels`` cover the whole training split;
    ``train_pos`` and ``val_pos`` are the fold's parts (positions into them). The classifiers
    are fitted on *every* training-split document outside ``val_pos`` — the fold's training
    part and the documents the round's subsample left out — as the final model's classifier is
    fitted on the whole training split:

    - a validation document gets the posterior of the classifier fitted on all of them;
    - a document of the fold's training part gets an out-of-fold posterior: the training part
      is cut into ``folds`` groups and each group is predicted by a classifier fitted on the
      others and on the rest (never on itself), as a training document of the final model.

    Only ``labels`` of positions outside ``val_pos`` are read.
    """
    labels = np.asarray(labels, dtype=np.int64)
    train_pos, val_pos = np.asarray(train_pos, dtype=np.int64), np.asarray(val_pos, dtype=np.int64)
    if np.intersect1d(train_pos, val_pos).size:
        raise InputError("a fold's training and validation parts overlap")
    rest = np.setdiff1d(np.arange(counts.shape[0]), val_pos)
    post_va = MatrixPosterior(n_categories).fit(counts[rest], labels[rest]).predict(counts[val_pos])
    post_tr = np.zeros((len(train_pos), n_categories))
    for group in _groups(labels[train_pos], folds, seed):
        fit_rows = np.setdiff1d(rest, train_pos[group])
        post_tr[group] = MatrixPosterior(n_categories).fit(counts[fit_rows], labels[fit_rows]).predict(
            counts[train_pos[group]])
    return post_tr, post_va
