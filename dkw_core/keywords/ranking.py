"""Step 5 — top-N keywords of each document (paper §3.3), and what a keyword carries."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp


@dataclass(frozen=True)
class Provenance:
    """A phrase of the document that led to a keyword."""

    phrase: str
    similarity: float  # cosine similarity of the phrase vector and the keyword
    count: int         # occurrences of the phrase in the document


@dataclass(frozen=True)
class Keyword:
    word: str
    score: float
    tf: int
    provenance: tuple[Provenance, ...] = field(default=())


def top_n(counts: sp.csr_matrix, scores: np.ndarray, *, labels: np.ndarray | None, use_tf: bool,
          top: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Top-``top`` column indices per row of ``counts`` (words present in the document).

    ``scores`` is (categories x vocabulary). With ``labels`` each row is scored with its own
    category's row (label-aware); with ``weights`` (rows x categories) with the weighted sum
    of the category rows (label-free posterior); with neither, with the maximum over
    categories (label-free).
    The ``tf-`` variants multiply by the row's counts. Ties go to the lower (more frequent)
    column. Rows with fewer words are padded with -1.
    """
    counts = counts.tocsr()
    out = np.full((counts.shape[0], top), -1, dtype=np.int32)
    free = scores.max(axis=0) if labels is None and weights is None else None
    indptr, indices, data = counts.indptr, counts.indices, counts.data
    for r in range(counts.shape[0]):
        lo, hi = indptr[r], indptr[r + 1]
        if lo == hi:
            continue
        cols = indices[lo:hi]
        if labels is not None:
            s = scores[labels[r], cols].astype(np.float64)
        elif weights is not None:
            s = weights[r] @ scores[:, cols].astype(np.float64)
        else:
            assert free is not None  # neither labels nor weights: the maximum over categories
            s = free[cols].astype(np.float64)
        if use_tf:
            s = s * data[lo:hi]
        if hi - lo > top:
            keep = np.argpartition(-s, top - 1)[:top]
            # widen to every column tied with the cut-off so the tie rule is exact
            cut = s[keep].min()
            keep = np.nonzero(s >= cut)[0]
            cols_k, s_k = cols[keep], s[keep]
        else:
            cols_k, s_k = cols, s
        order = np.lexsort((cols_k, -s_k))[:top]
        out[r, : len(order)] = cols_k[order]
    return out


def order_scores(cols: np.ndarray, scores: np.ndarray, top: int) -> np.ndarray:
    """Positions of the ``top`` best scores, ties to the lower column (as :func:`top_n`)."""
    return np.lexsort((cols, -scores))[:top]


def document_vectors(word_matrix: np.ndarray, index_rows: np.ndarray) -> np.ndarray:
    """Step 6 — the normalised sum of the keyword vectors of each row (paper §4.2.1).

    ``index_rows`` holds row indices of ``word_matrix`` (-1 = no keyword); a row without
    keywords gives a zero vector."""
    dim = word_matrix.shape[1]
    mat = np.vstack([word_matrix, np.zeros((1, dim), dtype=word_matrix.dtype)])
    rows = np.where(index_rows < 0, word_matrix.shape[0], index_rows)
    summed = mat[rows].sum(axis=1)
    norms = np.linalg.norm(summed, axis=1, keepdims=True)
    return summed / np.where(norms == 0, 1, norms)


def keyword_vectors(vectors, rows: Sequence[Sequence[str]], top: int) -> np.ndarray:
    """(documents x dim): the normalised sum of the vectors of each row's first ``top``
    keywords (paper §4.2.1); a multiword keyword's vector by Algorithm 1, a keyword with no
    known word left out, a document without any a zero vector."""
    unique: dict[str, int] = {}
    units: list[tuple[int, ...]] = []
    index = np.full((len(rows), max(1, top)), -1, dtype=np.int64)
    for r, words in enumerate(rows):
        col = 0
        for word in words:
            if col >= top:
                break
            i = unique.get(word)
            if i is None:
                u = vectors.units(str(word).split())
                i = unique[word] = len(units) if u else -1
                if u:
                    units.append(u)
            if i >= 0:
                index[r, col] = i
                col += 1
    matrix = vectors.compose(units) if units else np.zeros((0, vectors.dim), dtype=np.float32)
    return document_vectors(matrix, index)
