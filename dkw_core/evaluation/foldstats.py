"""Fold-local statistics of Algorithm 2's cross-validation (docs/method.md, evaluation protocols).

Inside every cross-validation fold the category statistics (A, B, C, D, per-category term
frequencies, hence idf and every metric score) are counted from the fold's training part only;
a validation document's own words and label never enter the scores it is ranked with.
"""
from __future__ import annotations

import numpy as np


def training_counts(model, positions: np.ndarray, k: int):
    """tf(w, d) of the training documents at ``positions`` (rows in that order)."""
    rows_only = getattr(model, "term_counts_rows", None)
    if rows_only is not None:
        return rows_only("train", np.asarray(positions), k)
    return model.term_counts("train", k)[np.asarray(positions)]


def fold_scores(model, metric: str, k: int, train_pos: np.ndarray, labels: np.ndarray, *,
                cache: dict | None = None, counts=None) -> np.ndarray:
    """(categories x vocabulary) scores of ``metric``'s base from the training documents at
    ``train_pos`` only (their term counts and ``labels[train_pos]``): statistics, idf and
    every other fitted quantity of the fold."""
    from ..metrics import CategoryStats, category_scores, get_metric

    base = get_metric(metric).base
    cache = cache if cache is not None else {"stats": {}, "scores": {}}
    if (base, k) not in cache["scores"]:
        if k not in cache["stats"]:
            matrix = counts(train_pos) if counts is not None else training_counts(model, train_pos, k)
            own_rows = getattr(model, "own_counts_rows", None)  # the fold's own words, for lo-own
            own = own_rows("train", np.asarray(train_pos)) if own_rows is not None else None
            cache["stats"][k] = CategoryStats.from_matrices(matrix, labels[np.asarray(train_pos)],
                                                            len(model.categories), own=own)
        cache["scores"][(base, k)] = category_scores(base, cache["stats"][k])
    return cache["scores"][(base, k)]


def rank_rows(model, positions: np.ndarray, *, metric: str, k: int, scores: np.ndarray,
              labels: np.ndarray | None, top: int, counts=None, weights: np.ndarray | None = None) -> np.ndarray:
    """Top-``top`` keyword indices of the training documents at ``positions`` under the given
    scores: with ``labels`` each row is scored with its own category (label-aware), without
    them with the maximum over categories (label-free)."""
    from ..keywords import top_n
    from ..metrics import get_metric

    if counts is None:
        counts = training_counts(model, positions, k)
    return top_n(counts, scores, labels=labels, use_tf=get_metric(metric).tf, top=top, weights=weights)
