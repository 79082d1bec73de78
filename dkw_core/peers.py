"""The field's standard category-vs-peers word scores on a (categories x words) count matrix.

Pure numpy/scipy.sparse, no state. Both functions take ``counts`` (C x V), the count of word
``w`` in category ``c`` (dense or sparse, finite, non-negative) and return dense (C x V)
float64 scores, finite everywhere.

* :func:`fightin_words` — Monroe, Colaresi & Quinn (2008), "Fightin' Words: Lexical Feature
  Selection and Evaluation for Identifying the Content of Political Conflict", Political
  Analysis 16(4), §3.5: the log-odds ratio with an informative Dirichlet prior, z-scored.
* :func:`ctfidf` — Grootendorst (2022), "BERTopic: Neural topic modeling with a class-based
  TF-IDF procedure", arXiv:2203.05794, §3.3: class-based tf-idf.

It lives beside :mod:`dkw_core.metrics` (not under ``keywords/``) because the registry's
``lo`` metric is :func:`fightin_words` on the document counts A: one formula, one definition.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse

from dkw_core.errors import InputError

__all__ = ["DEFAULT_PRIOR_FRACTION", "fightin_words", "ctfidf"]

#: Default total prior mass α0 as a fraction of the total count n of ``counts``.
DEFAULT_PRIOR_FRACTION = 0.01


def _count_matrix(counts, label: str = "counts") -> np.ndarray:
    try:
        if scipy.sparse.issparse(counts):
            arr = np.asarray(counts.toarray(), dtype=np.float64)
        else:
            arr = np.asarray(counts, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{label} must be a numeric (categories x words) matrix: {exc}") from None
    if arr.ndim != 2:
        raise InputError(f"{label} must be a (categories x words) matrix, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise InputError(f"{label} must hold finite non-negative counts")
    return arr


def fightin_words(counts, prior=None, alpha0: float | None = None) -> np.ndarray:
    r"""Fightin' Words z-scores: each category against the rest (all other categories pooled).

    Monroe, Colaresi & Quinn 2008, §3.5 ("informative Dirichlet prior"), Eqs. 16–22. For
    category ``i`` and the pooled rest ``j`` (``y_w^j = Σ_{c≠i} y_w^c``, ``n^j = Σ_w y_w^j``)::

        δ_w = ln((y_w^i + α_w) / (n^i + α0 − y_w^i − α_w))
            − ln((y_w^j + α_w) / (n^j + α0 − y_w^j − α_w))
        σ²(δ_w) ≈ 1 / (y_w^i + α_w) + 1 / (y_w^j + α_w)
        z_w = δ_w / sqrt(σ²(δ_w))

    Prior (the paper's informative prior, background word frequencies scaled to a total mass
    α0): ``α_w = α0 · π_w`` with ``π_w = b_w / Σ_v b_v``, where the background ``b`` is
    ``prior`` if given (V,) non-negative, else the word totals of the whole corpus
    ``Σ_c y_w^c``. ``alpha0`` defaults to ``DEFAULT_PRIOR_FRACTION`` (0.01) × the total count
    ``n = Σ_{c,w} y_w^c`` (a weak prior that only steadies rare words); a given ``alpha0``
    must be > 0.

    Zero rules: a word with ``α_w = 0`` and no count anywhere scores 0; a cell whose
    log-odds is undefined (a word holding all the mass of both sides, e.g. a one-word
    vocabulary) scores 0; all-zero ``counts`` give all zeros. A word with a count but
    ``α_w = 0`` (a ``prior`` of 0 for an observed word) is an :class:`InputError`.
    """
    y = _count_matrix(counts)
    total_w = y.sum(axis=0)
    n_total = float(total_w.sum())
    if n_total == 0:
        return np.zeros(y.shape, dtype=np.float64)
    if prior is None:
        background = total_w
    else:
        background = np.asarray(prior, dtype=np.float64)
        if background.shape != (y.shape[1],):
            raise InputError(f"prior must have one entry per word ({y.shape[1]}), got shape {background.shape}")
        if not np.all(np.isfinite(background)) or np.any(background < 0) or background.sum() == 0:
            raise InputError("prior must hold finite non-negative weights, not all zero")
        if np.any((background == 0) & (total_w > 0)):
            raise InputError("prior is 0 for a word that has a count; the log-odds would be infinite")
    if alpha0 is None:
        a0 = DEFAULT_PRIOR_FRACTION * n_total
    else:
        a0 = float(alpha0)
        if not np.isfinite(a0) or a0 <= 0:
            raise InputError(f"alpha0 must be a positive number, got {alpha0!r}")
    alpha = a0 * background / background.sum()  # (V,)

    n_i = y.sum(axis=1, keepdims=True)  # (C, 1)
    y_j = total_w[None, :] - y
    n_j = n_total - n_i
    num_i, num_j = y + alpha, y_j + alpha
    den_i, den_j = n_i + a0 - num_i, n_j + a0 - num_j
    defined = (num_i > 0) & (num_j > 0) & (den_i > 0) & (den_j > 0)
    z = np.zeros(y.shape, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = np.log(num_i / den_i) - np.log(num_j / den_j)
        var = 1.0 / num_i + 1.0 / num_j
        np.divide(delta, np.sqrt(var), out=z, where=defined)
    return z


def ctfidf(counts) -> np.ndarray:
    r"""Class-based tf-idf (Grootendorst 2022, BERTopic §3.3)::

        W_{w,c} = tf(w, c) / |c| · ln(1 + A / f(w))

    ``tf(w, c)`` the count of w in class c, ``|c| = Σ_w tf(w, c)`` the class's number of
    words (BERTopic's L1 row normalisation), ``f(w) = Σ_c tf(w, c)`` the word's count over all
    classes, ``A`` the average number of words per class (``n / C``; BERTopic's
    ``ClassTfidfTransformer`` truncates it to an integer, here it is exact).

    Zero rules: an empty class (``|c| = 0``) scores 0; a word with ``f(w) = 0`` scores 0
    (its tf is 0 in every class). Scores are ≥ 0.
    """
    tf = _count_matrix(counts)
    size = tf.sum(axis=1, keepdims=True)
    freq = tf.sum(axis=0, keepdims=True)
    avg = float(size.mean()) if tf.shape[0] else 0.0
    norm = np.zeros(tf.shape, dtype=np.float64)
    np.divide(tf, size, out=norm, where=size > 0)
    idf = np.zeros(freq.shape, dtype=np.float64)
    np.divide(avg, freq, out=idf, where=freq > 0)
    return norm * np.log1p(idf)
