"""Step 3 — substitution: the K nearest cropped-vocabulary words of every phrase vector
(paper §3.3), for all query vectors at once in batched matrix products.

Selecting the top K of ~20,000 scores per row dominates the cost, so each batch first
finds a per-row threshold from a strided subsample of the columns (a cheap partial sort),
keeps the few hundred candidates above it and sorts only those; rows where the threshold
leaves fewer than K candidates fall back to an exact ``argpartition``. The result is exact.

How "nearest" is scored is a choice, named by a *neighbours spec* (docs/method.md, step 3):

* ``cosine`` — the paper's plain cosine similarity (the default).
* ``csls-k<k>`` — cross-domain similarity local scaling (Conneau et al., ICLR 2018):
  ``score(q, w) = 2 cos(q, w) − r_w`` with ``r_w`` the mean cosine of word ``w`` to its ``k``
  nearest *other words of the cropped vocabulary*. A hub word sits in a dense region, so its
  ``r_w`` is high and it is discounted. The vocabulary (not a corpus's phrase vectors) is the
  neighbourhood so that ``r_w`` depends on the vector model only: a corpus document, a new
  text and the estimator's texts are scored in the same space, no test document's text
  enters it, and it costs one vocabulary x vocabulary product. Phrase vectors are normalised
  sums of these same word vectors, so the vocabulary samples the space the queries live in.
  The query's own ``r_q`` term of CSLS is constant per query and does not change its ranking,
  so it is left out.
* ``abtt-d<D>`` — all-but-the-top (Mu & Viswanath, ICLR 2018): subtract the mean of the cropped
  vocabulary's unit vectors and project out their top ``D`` principal components, from the
  vocabulary and from every query alike, renormalise, then plain cosine.

The scores a search returns are the ones it ranks by: cosine, the CSLS score, or cosine after
all-but-the-top.

Every matrix product here runs on one BLAS thread (:func:`one_blas_thread`). OpenBLAS gives
last-bit different products with one thread and with two, enough to reorder a few near-tied
neighbours (4 of 37,440 phrase vectors on a 20ng sample); pinned to one thread the neighbours
are the same on a laptop, on a 64-core server and on every Dask worker (tests/cluster/), and
on 2 cores it is no slower: the top-K selection, not the product, dominates.
"""
from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .errors import InputError
from .types import DEFAULT_K, Progress
from .validation import MAX_K, check_count, check_k_max

_STRIDE = 8

DEFAULT_NEIGHBOURS = "cosine"
"""The neighbours spec used when none is given (the paper's plain cosine)."""
DEFAULT_CSLS_K = 10   # Conneau et al.'s neighbourhood size
DEFAULT_ABTT_D = 3    # Mu & Viswanath: about dimension / 100 components; 3 for 300 d
NEIGHBOURS_CHOICES = ("cosine", "csls-k10", "abtt-d3")
"""The specs offered in menus (any ``csls-k<k>`` / ``abtt-d<D>`` is accepted)."""


def _select(s: np.ndarray, k: int, thr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top-k of every row among the columns >= the row's threshold, sorted by decreasing
    value then increasing column; also returns how many columns passed each threshold."""
    n, v = s.shape
    mask = s >= thr[:, None]
    cnt = mask.sum(axis=1)
    flat = np.flatnonzero(mask)
    r, c = np.divmod(flat, v)
    vals = s.ravel()[flat]
    order = _row_value_column_order(r, vals, c) if n < 1 << 16 and v < 1 << 16 else np.lexsort((c, -vals, r))
    r, c, vals = r[order], c[order], vals[order]
    starts = np.concatenate(([0], np.cumsum(cnt)[:-1]))
    pos = np.arange(len(r)) - np.repeat(starts, cnt)
    sel = pos < k
    idx = np.zeros((n, k), dtype=np.int64)
    sims = np.zeros((n, k), dtype=s.dtype)
    idx[r[sel], pos[sel]] = c[sel]
    sims[r[sel], pos[sel]] = vals[sel]
    return idx, sims, cnt


def _row_value_column_order(r: np.ndarray, vals: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The order of ``np.lexsort((c, -vals, r))`` with one sort of packed 64-bit keys: row (16
    bits), the float32 of -value mapped to an order-preserving unsigned integer (32 bits), column
    (16 bits). About 3x faster than the three-key lexsort on the candidates of a batch."""
    return np.argsort(_packed(r, vals, c), kind="stable")


def _sorted_by_row_value_column(r: np.ndarray, vals: np.ndarray, c: np.ndarray
                                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(r, vals, c)`` in the order of ``np.lexsort((c, -vals, r))`` (rows below 2**16, columns
    below 2**16, each (row, column) once): the packed keys of :func:`_row_value_column_order`
    sorted with ``np.sort`` (unique keys, so no stable argsort is needed; numpy's SIMD sort is
    about 10x faster on a batch's candidates) and unpacked again. Zero scores are packed as one
    value (``-0.0`` and ``0.0`` tie, as in ``lexsort``)."""
    key = np.sort(_packed(r, vals + np.float32(0.0), c))
    f = ((key >> np.uint64(16)) & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    f = np.where(f & np.uint32(0x80000000), f & np.uint32(0x7FFFFFFF), ~f)
    return ((key >> np.uint64(48)).astype(np.intp), -f.view(np.float32),
            (key & np.uint64(0xFFFF)).astype(np.intp))


def _packed(r: np.ndarray, vals: np.ndarray, c: np.ndarray) -> np.ndarray:
    """One 64-bit key per entry, ordered as (row, -value, column): row (16 bits), the float32 of
    -value mapped to an order-preserving unsigned integer (32 bits), column (16 bits)."""
    f = np.ascontiguousarray(-vals, dtype=np.float32).view(np.uint32)
    f = np.where(f & np.uint32(0x80000000), ~f, f | np.uint32(0x80000000))
    return (r.astype(np.uint64) << np.uint64(48)) | (f.astype(np.uint64) << np.uint64(16)) | c.astype(np.uint64)


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


def _normalise(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(norms == 0, 1, norms)


def nearest(queries: np.ndarray, matrix: np.ndarray, k: int, *, batch_size: int | None = None,
            progress: Progress | None = None, bias: np.ndarray | None = None,
            scale: float = 1.0, row_exact: bool = False, matrix64: np.ndarray | None = None,
            matrix_t: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Indices and scores of the ``k`` rows of ``matrix`` nearest each query.

    ``matrix`` rows must be unit length; queries are normalised here (zero rows stay zero and
    get arbitrary neighbours — callers drop them). The score is ``scale * cos(q, row) - bias[row]``
    (plain cosine by default; CSLS is ``scale=2``, ``bias=r``). Results are sorted by
    decreasing score, ties by increasing index. Returns ``(idx int32 [n, k], scores float32 [n, k])``.

    ``row_exact``: each query's neighbours and scores independent of the other queries of the
    call. A float32 product's last bit depends on the row's place in the BLAS kernel's blocks
    (how many rows, where this one sits), enough to reorder near-tied neighbours. So the
    float32 product only picks candidates (every column within :data:`RESCORE_MARGIN` of the
    row's k-th score, a superset of the true top k), and the candidates' scores are computed
    again one dot product each in float64, rounded to float32, and ranked: a row gets the same
    neighbours and scores searched alone or among thousands (new texts one at a time and as a
    batch, :mod:`dkw_core.keywords.newtexts`).

    ``batch_size``: queries per product (default :data:`ROW_EXACT_BATCH` with ``row_exact``,
    whose results do not depend on it, else 1024, the size prepared corpora were searched in).
    ``matrix64``: ``matrix`` in float64 for the rescoring (a :class:`NeighbourSearch` keeps it, so
    a search of one text's few phrases does not convert the vocabulary again). ``matrix_t``: its
    transpose, contiguous, for a ``row_exact`` search's float32 product (20-35 % less CPU than
    ``q @ matrix.T``, most for a few queries); its last bits may differ, which only moves scores
    well inside :data:`RESCORE_MARGIN`, so the neighbours and scores are the same.
    """
    batch_size = batch_size or (ROW_EXACT_BATCH if row_exact else 1024)
    n = queries.shape[0]
    k = min(k, matrix.shape[0])
    idx = np.empty((n, k), dtype=np.int32)
    sims = np.empty((n, k), dtype=np.float32)
    q = _normalise(queries)
    m = np.ascontiguousarray(matrix, dtype=np.float32)
    b = None if bias is None else np.asarray(bias, dtype=np.float32)[None, :]
    m64 = q64 = None
    if row_exact:  # the rescoring's float64 operands, converted once per search, not per candidate
        m64 = matrix64 if matrix64 is not None else m.astype(np.float64)
        q64 = q.astype(np.float64)
    with one_blas_thread():
        for start in range(0, n, batch_size):
            stop = min(n, start + batch_size)
            s = q[start:stop] @ (matrix_t if row_exact and matrix_t is not None else m.T)
            _score(s, scale, b)
            if row_exact:
                assert q64 is not None
                idx[start:stop], sims[start:stop] = _rescored(q64[start:stop], m, s, k, scale, b, m64)
            else:
                idx[start:stop], sims[start:stop] = _top_k(s, k)
            if progress:
                progress(stop / n, f"nearest words of {stop:,}/{n:,} phrase vectors")
    return idx, sims


ROW_EXACT_BATCH = 256
"""Queries per product of a ``row_exact`` search: its score matrix (256 x a 20,000-word
vocabulary, 20 MB) stays nearer the caches than 1,024 rows' (about 25 % less CPU on GloVe 50d)."""

RESCORE_MARGIN = 1e-4
"""Candidates of a ``row_exact`` search: float32 scores within this of the row's k-th (the
float32 product's error is below 1e-5 for unit vectors of a few hundred dimensions)."""


def _rescored(q: np.ndarray, m: np.ndarray, s: np.ndarray, k: int, scale: float,
              b: np.ndarray | None, m64: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Top-k of every row of ``s`` (float32 scores of queries ``q``), the candidates' scores
    recomputed one dot product each in float64 (see :func:`nearest`'s ``row_exact``). ``m64``:
    ``m`` in float64, made once per search (then ``q`` is passed in float64 too)."""
    n, v = s.shape
    r, c = _candidates(s, k)
    q64 = q.astype(np.float64) if m64 is None else q  # m64 given: q is float64 already
    exact = np.einsum("ij,ij->i", q64[r], (m.astype(np.float64) if m64 is None else m64)[c]).astype(np.float32)
    if scale != 1.0:
        exact *= np.float32(scale)
    if b is not None:
        exact -= b[0, c]
    if n < 1 << 16 and v < 1 << 16:
        r, exact, c = _sorted_by_row_value_column(r, exact, c)
    else:
        order = np.lexsort((c, -exact, r))
        r, c, exact = r[order], c[order], exact[order]
    counts = np.bincount(r, minlength=n)
    pos = np.arange(len(r)) - np.repeat(np.concatenate(([0], np.cumsum(counts)[:-1])), counts)
    sel = pos < k
    idx = np.zeros((n, k), dtype=np.int64)
    sims = np.zeros((n, k), dtype=np.float32)
    idx[r[sel], pos[sel]] = c[sel]
    sims[r[sel], pos[sel]] = exact[sel]
    return idx, sims


def _candidates(s: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of every entry of ``s`` at or above its row's k-th largest value less
    :data:`RESCORE_MARGIN` (the candidates of a ``row_exact`` search), in one pass over ``s``: a
    lower bound of the k-th largest from every :data:`_STRIDE`-th column (as :func:`_top_k`
    takes it), the entries above it less the margin, and among them the k-th largest. A row with
    fewer than k entries above its bound is done exactly (full partition) instead."""
    n, v = s.shape
    margin = np.float32(RESCORE_MARGIN)
    sub = s[:, ::_STRIDE]
    kk = int(np.ceil(2 * k / _STRIDE)) + 4
    if v < 4 * k or kk >= sub.shape[1]:
        thr = np.partition(s, v - k, axis=1)[:, v - k] if k < v else s.min(axis=1)
    else:
        thr = np.partition(sub, sub.shape[1] - kk, axis=1)[:, sub.shape[1] - kk]
    flat = np.flatnonzero(s >= (thr - margin)[:, None])
    r, c = np.divmod(flat, v)
    vals = s.ravel()[flat]
    if n < 1 << 16 and v < 1 << 16:
        r, vals, c = _sorted_by_row_value_column(r, vals, c)
    else:
        order = np.lexsort((c, -vals, r))
        r, c, vals = r[order], c[order], vals[order]
    cnt = np.bincount(r, minlength=n)
    starts = np.concatenate(([0], np.cumsum(cnt)[:-1]))
    ok = np.bincount(r[vals >= thr[r]], minlength=n) >= k  # the row's k-th largest is >= its bound
    kth = np.full(n, np.inf, dtype=np.float32)
    kth[ok] = vals[starts[ok] + k - 1]
    keep = vals >= (kth - margin)[r]
    r, c = r[keep], c[keep]
    short = np.flatnonzero(~ok)
    if len(short):
        _, top = _exact(s[short], k)
        rr, cc = np.nonzero(s[short] >= (top[:, -1] - margin)[:, None])
        r, c = np.concatenate((r, short[rr])), np.concatenate((c, cc))
    return r, c


def _score(s: np.ndarray, scale: float, b: np.ndarray | None) -> None:
    """In place: ``scale * s - b``."""
    if scale != 1.0:
        s *= np.float32(scale)
    if b is not None:
        s -= b


# -- hubness-aware retrieval ------------------------------------------------------------------
_SPEC = re.compile(r"^(?:(cosine)|(csls)(?:-k(\d+))?|(abtt)(?:-d(\d+))?)$")


@dataclass(frozen=True)
class Retrieval:
    """A parsed neighbours spec: ``kind`` in {cosine, csls, abtt} and its one parameter."""

    kind: str = "cosine"
    csls_k: int = 0
    abtt_d: int = 0

    @property
    def spec(self) -> str:
        """The canonical spec string (cache keys and stored results use it)."""
        if self.kind == "csls":
            return f"csls-k{self.csls_k}"
        if self.kind == "abtt":
            return f"abtt-d{self.abtt_d}"
        return "cosine"

    def describe(self) -> str:
        if self.kind == "csls":
            return f"CSLS, r_w over each word's {self.csls_k} nearest vocabulary words"
        if self.kind == "abtt":
            return f"all-but-the-top, mean and top {self.abtt_d} principal components removed"
        return "plain cosine"


def parse_neighbours(spec: str | Retrieval | None) -> Retrieval:
    """``cosine``, ``csls[-k<k>]`` or ``abtt[-d<D>]`` (a one-line error otherwise)."""
    if isinstance(spec, Retrieval):
        return spec
    text = (spec or DEFAULT_NEIGHBOURS).strip().lower()
    m = _SPEC.match(text)
    if not m:
        raise InputError(f"unknown neighbours {spec!r}: use cosine, csls-k<k> (e.g. csls-k10) or abtt-d<D> (e.g. abtt-d3)")
    if m.group(1):
        return Retrieval()
    if m.group(2):
        k = int(m.group(3)) if m.group(3) else DEFAULT_CSLS_K
        if k < 1:
            raise InputError(f"neighbours {spec!r}: the CSLS neighbourhood k must be at least 1")
        return Retrieval("csls", csls_k=k)
    d = int(m.group(5)) if m.group(5) else DEFAULT_ABTT_D
    if d < 0:
        raise InputError(f"neighbours {spec!r}: D must be at least 0")
    return Retrieval("abtt", abtt_d=d)


def neighbours_spec(spec: str | Retrieval | None) -> str:
    """The canonical spec of ``spec`` (``"csls"`` → ``"csls-k10"``)."""
    return parse_neighbours(spec).spec


_THREADPOOLS = None  # threadpoolctl's view of the loaded BLAS libraries, found once per process


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Matrix products on one BLAS thread: the same bits whatever the machine's core count."""
    global _THREADPOOLS
    if _THREADPOOLS is None:
        from threadpoolctl import ThreadpoolController

        _THREADPOOLS = ThreadpoolController()  # scanning the loaded libraries costs milliseconds
    with _THREADPOOLS.limit(limits=1, user_api="blas"):
        yield


def csls_radius(matrix: np.ndarray, k: int, *, batch_size: int = 1024) -> np.ndarray:
    """``r_w``: the mean cosine of every row of ``matrix`` (unit rows) to its ``k`` nearest
    other rows (itself excluded)."""
    v = matrix.shape[0]
    k = min(k, v - 1)
    if k < 1:
        return np.zeros(v, dtype=np.float32)
    m = np.ascontiguousarray(matrix, dtype=np.float32)
    r = np.empty(v, dtype=np.float32)
    for start in range(0, v, batch_size):
        stop = min(v, start + batch_size)
        s = m[start:stop] @ m.T
        s[np.arange(stop - start), np.arange(start, stop)] = -np.inf  # not its own neighbour
        _, top = _top_k(s, k)
        r[start:stop] = top.mean(axis=1)
    return r


def abtt_basis(matrix: np.ndarray, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Mean and top-``d`` principal directions (``d x dim``) of ``matrix``'s rows."""
    m = np.asarray(matrix, dtype=np.float64)
    mu = m.mean(axis=0)
    d = min(d, m.shape[1])
    if d == 0:
        return mu.astype(np.float32), np.zeros((0, m.shape[1]), dtype=np.float32)
    _, _, vt = np.linalg.svd(m - mu, full_matrices=False)
    return mu.astype(np.float32), vt[:d].astype(np.float32)


def abtt_transform(x: np.ndarray, mu: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """Subtract ``mu``, project out ``basis``, renormalise (rows that were zero stay zero)."""
    x = np.asarray(x, dtype=np.float32)
    zero = ~np.any(x, axis=1)
    y = x - mu
    if len(basis):
        y = y - (y @ basis.T) @ basis
    y[zero] = 0
    return _normalise(y)


class NeighbourSearch:
    """Exact top-K retrieval over one vocabulary matrix under one :class:`Retrieval`.

    Built once per (vectors, spec) — :func:`searcher` — so ``r_w`` or the principal components
    are computed once and every query batch is one GEMM plus the exact top-K selection.
    """

    def __init__(self, matrix: np.ndarray, neighbours: str | Retrieval | None = None):
        self.retrieval = parse_neighbours(neighbours)
        self.spec = self.retrieval.spec
        base = np.ascontiguousarray(matrix, dtype=np.float32)
        self.bias: np.ndarray | None = None
        self.mu: np.ndarray | None = None
        self.basis: np.ndarray | None = None
        with one_blas_thread():
            self._fit(base)

    def _fit(self, base: np.ndarray) -> None:
        if self.retrieval.kind == "csls":
            self.matrix = base
            self.bias = csls_radius(base, self.retrieval.csls_k)
        elif self.retrieval.kind == "abtt":
            self.mu, self.basis = abtt_basis(base, self.retrieval.abtt_d)
            self.matrix = np.ascontiguousarray(abtt_transform(base, self.mu, self.basis))
        else:
            self.matrix = base

    def queries(self, queries: np.ndarray) -> np.ndarray:
        """The query vectors as this retrieval compares them (normalised; all-but-the-top applied)."""
        q = _normalise(queries)
        if self.retrieval.kind != "abtt":
            return q
        assert self.mu is not None and self.basis is not None  # set by __init__ for "abtt"
        with one_blas_thread():
            return abtt_transform(q, self.mu, self.basis)

    def scores(self, queries: np.ndarray) -> np.ndarray:
        """Full score matrix (queries x vocabulary), for tests and small inputs."""
        s = self.queries(queries) @ self.matrix.T
        if self.bias is not None:
            s = 2 * s - self.bias[None, :]
        return s

    def nearest(self, queries: np.ndarray, k: int, *, batch_size: int | None = None,
                progress: Progress | None = None, row_exact: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Indices and scores of the ``k`` best words of every query (see :func:`nearest`)."""
        m64 = mt = None
        if row_exact:  # kept for every later search: the float64 rescoring and the product's layout
            if "_matrix64" not in self.__dict__:
                self.__dict__["_matrix64"] = self.matrix.astype(np.float64)
                self.__dict__["_matrix_t"] = np.ascontiguousarray(self.matrix.T)
            m64, mt = self.__dict__["_matrix64"], self.__dict__["_matrix_t"]
        if self.bias is None:
            return nearest(self.queries(queries), self.matrix, k, batch_size=batch_size, progress=progress,
                           row_exact=row_exact, matrix64=m64, matrix_t=mt)
        return nearest(self.queries(queries), self.matrix, k, batch_size=batch_size, progress=progress,
                       bias=self.bias, scale=2.0, row_exact=row_exact, matrix64=m64, matrix_t=mt)


def searcher(vectors, neighbours: str | Retrieval | None = None) -> NeighbourSearch:
    """The :class:`NeighbourSearch` of a :class:`dkw_core.vectors.Vectors`' cropped vocabulary,
    built once per vectors object and spec (kept on the vectors object); the spec's parameter
    is checked against the vectors (:func:`check_neighbours`)."""
    spec = check_neighbours(neighbours, dim=int(vectors.cropped_matrix.shape[1]),
                            vocabulary_size=len(vectors.cropped_matrix))
    built = vectors.__dict__.setdefault("_neighbour_searchers", {})
    if spec not in built:
        built[spec] = NeighbourSearch(vectors.cropped_matrix, spec)
    return built[spec]


def check_neighbours(spec, *, dim: int | None = None, vocabulary_size: int | None = None) -> str:
    """The canonical neighbours spec, its parameter checked against what is known: the CSLS k
    at most :data:`dkw_core.validation.MAX_K` − 1 and below the vocabulary's size, the all-but-the-top D below the
    vectors' dimension (removing every component would leave zero vectors)."""
    r = parse_neighbours(spec)
    if r.kind == "csls":
        hi = (vocabulary_size if vocabulary_size is not None else MAX_K) - 1
        check_count(f"the CSLS neighbourhood k of {r.spec}", r.csls_k, 1, hi,
                    why="fewer than the words in the cropped vocabulary")
    elif r.kind == "abtt" and dim is not None:
        check_count(f"the all-but-the-top D of {r.spec}", r.abtt_d, 0, dim - 1,
                    why=f"fewer than the vectors' {dim} dimensions")
    return r.spec


def check_prepare(k_max, neighbours, vectors) -> tuple[int, str]:
    """The ``k_max`` and canonical neighbours spec a preparation uses, checked against the loaded
    ``vectors`` before any tagging — the one rule of ``KeywordModel.prepare`` and
    ``prepare_on_cluster``: a ``k_max`` up to the default :data:`DEFAULT_K` is capped at the cropped
    vocabulary's size (a small vector model gets all its words), a larger one must fit in it."""
    k_max = check_k_max(k_max)
    size = len(vectors.cropped_words)
    k_max = min(k_max, size) if k_max <= DEFAULT_K else check_k_max(k_max, size, vectors=vectors.name)
    return k_max, check_neighbours(neighbours, dim=vectors.dim, vocabulary_size=size)
