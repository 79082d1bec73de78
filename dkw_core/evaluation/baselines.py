"""Baselines evaluated beside the method, so a reader sees what the word vectors add.

* ``baseline-tfidf``: TF-IDF (``sublinear_tf=True``) on the documents' full text + LinearSVC
  (one-vs-rest), the standard strong text-categorisation baseline (docs/method.md §5 measured
  86.23 / 85.57 micro/macro F1 on 20NG bydate, 94.94 / 74.14 on R52). No keywords, no
  protocol (labels of test documents are never used for features). Shown as
  "tf-idf + LinearSVC (classifier)" (:data:`dkw_core.evaluation.names.METHOD_NAMES`), never to
  be confused with the tf-idf *keyword metric*.
* ``baseline-bow``: the same SVM on binary bag-of-words vectors of the N keywords a model
  ranks (``BaselineModel``: the documents' own words, no vectors; or any model with
  ``rank``/``vocabulary``), under the same protocol as the method.

Both return ``(scores, seconds, y_pred)`` like :func:`.protocols.evaluate_model`: the test
predictions are stored with the run, so the baselines take part in the per-document comparison
(McNemar, paired bootstrap, Holm; :mod:`.comparisons`).
"""
from __future__ import annotations

import inspect
import time

import numpy as np
import scipy.sparse as sp

from ..errors import InputError
from .classifiers import DEFAULT_CLASSIFIER, Scores, fit_predict, score_predictions
from .protocols import check_protocol


def split_texts(corpus, split: str) -> tuple[list[str], np.ndarray]:
    """Texts and category indices (in ``corpus.categories`` order) of one split."""
    index = {c: i for i, c in enumerate(corpus.categories)}
    docs = corpus.split(split)
    if not docs:
        raise InputError(f"{getattr(corpus, 'key', corpus)}: the {split} split is empty")
    return [d.text for d in docs], np.array([index[d.label] for d in docs], dtype=np.int64)


def tfidf_svm(
    train_texts: list[str],
    y_train: np.ndarray,
    test_texts: list[str],
    y_test: np.ndarray,
    categories: list[str],
    *,
    classifier: str = DEFAULT_CLASSIFIER,
) -> tuple[Scores, dict[str, float], np.ndarray]:
    """TF-IDF (sublinear tf) fitted on the training texts, classifier, scores and predictions on
    the test texts."""
    from sklearn.feature_extraction.text import TfidfVectorizer  # on use: the app's pages import this module

    t0 = time.perf_counter()
    vectorizer = TfidfVectorizer(sublinear_tf=True)
    try:
        X_train = vectorizer.fit_transform(train_texts)
    except ValueError as exc:  # empty vocabulary
        raise InputError(f"tf-idf baseline: {exc}") from exc
    X_test = vectorizer.transform(test_texts)
    t1 = time.perf_counter()
    y_pred = fit_predict(X_train, y_train, X_test, classifier=classifier)
    t2 = time.perf_counter()
    return score_predictions(y_test, y_pred, categories), {"features": t1 - t0, "classify": t2 - t1}, y_pred


def tfidf_baseline(corpus, *, classifier: str = DEFAULT_CLASSIFIER) -> tuple[Scores, dict[str, float], np.ndarray]:
    """TF-IDF + classifier on a corpus's train/test split: scores, seconds and the test
    predictions (in ``corpus.split("test")`` order, for the per-document comparisons)."""
    train_texts, y_train = split_texts(corpus, "train")
    test_texts, y_test = split_texts(corpus, "test")
    return tfidf_svm(train_texts, y_train, test_texts, y_test, list(corpus.categories), classifier=classifier)


def keyword_sets(index_matrix: np.ndarray, vocab_size: int) -> sp.csr_matrix:
    """Binary (docs x vocab) matrix of keyword index sets (-1 = padding, ignored)."""
    idx = np.asarray(index_matrix)
    rows, cols = np.nonzero(idx >= 0)
    data = np.ones(rows.size, dtype=np.float64)
    m = sp.csr_matrix((data, (rows, idx[rows, cols])), shape=(idx.shape[0], vocab_size))
    m.data[:] = 1.0  # duplicates (should not happen) stay binary
    return m


def _rank(model, split: str, *, metric: str, k: int | None, top: int, protocol: str) -> np.ndarray:
    params = inspect.signature(model.rank).parameters
    kwargs = {"metric": metric, "top": top, "protocol": protocol}
    if "k" in params and k is not None:
        kwargs["k"] = k
    return np.asarray(model.rank(split, **kwargs))


def bow_baseline(
    model,
    *,
    metric: str,
    top: int,
    protocol: str,
    k: int | None = None,
    classifier: str = DEFAULT_CLASSIFIER,
) -> tuple[Scores, dict[str, float], np.ndarray]:
    """Classifier on binary keyword-set vectors of the N keywords ``model`` ranks (no word vectors)."""
    check_protocol(protocol)
    t0 = time.perf_counter()
    V = len(model.vocabulary)
    X_train = keyword_sets(_rank(model, "train", metric=metric, k=k, top=top, protocol=protocol), V)
    X_test = keyword_sets(_rank(model, "test", metric=metric, k=k, top=top, protocol=protocol), V)
    t1 = time.perf_counter()
    y_pred = fit_predict(X_train, model.labels("train"), X_test, classifier=classifier)
    t2 = time.perf_counter()
    return (score_predictions(model.labels("test"), y_pred, list(model.categories)),
            {"keywords": t1 - t0, "classify": t2 - t1}, y_pred)
