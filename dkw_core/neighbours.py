"""Step 3 — substitution: the K nearest cropped-vocabulary words of every phrase vector
(paper §3.3), by cosine similarity, for all query vectors at once in batched matrix products.

Selecting the top K of ~20,000 similarities per row dominates the cost, so each batch first
finds a per-row threshold from a strided subsample of the columns (a cheap partial sort),
keeps the few hundred candidates above it and sorts only those; rows where the threshold
leaves fewer than K candidates fall back to an exact ``argpartition``. The result is exact.
"""
from __future__ import annotations

import numpy as np

from .types import Progress

_STRIDE = 8


def _select(s: np.ndarray, k: int, thr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top-k of every row among the columns >= the row's threshold, sorted by decreasing
    value then increasing column; also returns how many columns passed each threshold."""
    n, v = s.shape
    mask = s >= thr[:, None]
    cnt = mask.sum(axis=1)
    flat = np.flatnonzero(mask)
    r, c = np.divmod(flat, v)
    vals = s.ravel()[flat]
    order = np.lexsort((c, -vals, r))
    r, c, vals = r[order], c[order], vals[order]
    starts = np.concatenate(([0], np.cumsum(cnt)[:-1]))
    pos = np.arange(len(r)) - np.repeat(starts, cnt)
    sel = pos < k
    idx = np.zeros((n, k), dtype=np.int64)
    sims = np.zeros((n, k), dtype=s.dtype)
    idx[r[sel], pos[sel]] = c[sel]
    sims[r[sel], pos[sel]] = vals[sel]
    return idx, sims, cnt


def _exact(s: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k: the threshold is each row's k-th largest value, so ties at the cut-off
    are all candidates and the lowest columns win."""
    v = s.shape[1]
    thr = np.partition(s, v - k, axis=1)[:, v - k] if k < v else s.min(axis=1)
    idx, sims, _ = _select(s, k, thr)
    return idx, sims


def _top_k(s: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-k columns of every row of ``s``, sorted by decreasing value then increasing column."""
    v = s.shape[1]
    sub = s[:, ::_STRIDE]
    kk = int(np.ceil(2 * k / _STRIDE)) + 4
    if v < 4 * k or kk >= sub.shape[1]:
        return _exact(s, k)
    thr = np.partition(sub, sub.shape[1] - kk, axis=1)[:, sub.shape[1] - kk]
    idx, sims, cnt = _select(s, k, thr)
    short = np.nonzero(cnt < k)[0]
    if len(short):
        idx[short], sims[short] = _exact(s[short], k)
    return idx, sims


def nearest(queries: np.ndarray, matrix: np.ndarray, k: int, *, batch_size: int = 1024,
            progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Indices and cosine similarities of the ``k`` rows of ``matrix`` nearest each query.

    ``matrix`` rows must be unit length; queries are normalised here (zero rows stay zero and
    get arbitrary neighbours with similarity 0 — callers drop them). Results are sorted by
    decreasing similarity, ties by increasing index. Returns ``(idx int32 [n, k],
    sims float32 [n, k])``.
    """
    n = queries.shape[0]
    k = min(k, matrix.shape[0])
    idx = np.empty((n, k), dtype=np.int32)
    sims = np.empty((n, k), dtype=np.float32)
    q = np.asarray(queries, dtype=np.float32)
    norms = np.linalg.norm(q, axis=1, keepdims=True)
    q = q / np.where(norms == 0, 1, norms)
    m = np.ascontiguousarray(matrix, dtype=np.float32)
    for start in range(0, n, batch_size):
        stop = min(n, start + batch_size)
        idx[start:stop], sims[start:stop] = _top_k(q[start:stop] @ m.T, k)
        if progress:
            progress(stop / n, f"nearest words of {stop:,}/{n:,} phrase vectors")
    return idx, sims
