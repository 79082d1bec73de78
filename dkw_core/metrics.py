"""Word-weighting metrics: the registry of paper §2 (Table 2, Formulas 1–2; docs/method.md §2).

Every metric scores a word ``w`` for a category ``c`` from statistics of the **training**
split, counted over **documents** (Lan et al. 2006; paper footnote on global frequency).

ABCD table for word w and category c:

* ``A`` documents of c containing w, ``B`` documents of c without w,
* ``C`` documents outside c containing w, ``D`` documents outside c without w,
* ``N = A + B + C + D``.

Decisions taken where the paper is silent (all values are finite, never NaN/inf):

* **Log base.** ``rf`` uses ``log2`` (Lan et al. 2006). Every other logarithm is natural
  (``ln``); a change of base multiplies a metric by a constant and leaves every ranking
  unchanged.
* **Zero counts.** ``0 · log 0 = 0`` (scipy ``xlogy``/``entr`` convention); a ratio whose
  denominator is zero is 0 unless the metric's own docstring says otherwise. Each base
  metric function below states its zero rules.
* **thd ranks.** Ascending frequency order (the most frequent word has the highest rank),
  ties receive their **average** rank (``scipy.stats.rankdata(method="average")``); a word
  with frequency 0 in a vocabulary has rank 0 and is not counted in ``|V|``.

Adding a metric is one entry in ``_BASE_SPECS``: its ``tf-`` variant is derived.
The ``tf-`` variants multiply the base score by tf(w, d); :func:`category_scores` returns
the **base** score only, the caller applies the tf factor when ``Metric.tf`` is true.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse
from scipy.special import entr, xlogy

from dkw_core.errors import InputError
from dkw_core.peers import ctfidf, fightin_words

__all__ = [
    "CategoryStats",
    "Metric",
    "METRICS",
    "PAPER_METRICS",
    "SEARCH_EXCLUDED",
    "get_metric",
    "category_scores",
    "abcd",
]


# --------------------------------------------------------------------------- statistics


@dataclass(frozen=True, eq=False)
class CategoryStats:
    """Training-split statistics of the substituted words, counted over documents.

    ``doc_freq``  (C x V) A: number of training documents of category c containing w.
    ``n_docs``    (C,) number of training documents per category.
    ``term_freq`` (C x V) tf(w, c): total occurrences of w in category c (for tf-dcf, thd).
    ``own_freq``  (C x V) or ``None``: number of training documents of category c in which w
                  itself occurs (an own word, not a substituted one; for lo-own). ``None``
                  when the statistics were counted without it.
    """

    doc_freq: np.ndarray
    n_docs: np.ndarray
    term_freq: np.ndarray
    own_freq: np.ndarray | None = None

    def __post_init__(self) -> None:
        doc_freq = np.asarray(self.doc_freq, dtype=np.float64)
        n_docs = np.asarray(self.n_docs, dtype=np.float64)
        term_freq = np.asarray(self.term_freq, dtype=np.float64)
        if doc_freq.ndim != 2:
            raise InputError(f"doc_freq must be a (categories x words) matrix, got shape {doc_freq.shape}")
        if n_docs.shape != (doc_freq.shape[0],):
            raise InputError(
                f"n_docs must have one entry per category ({doc_freq.shape[0]}), got shape {n_docs.shape}"
            )
        if term_freq.shape != doc_freq.shape:
            raise InputError(f"term_freq shape {term_freq.shape} differs from doc_freq shape {doc_freq.shape}")
        for label, arr in (("doc_freq", doc_freq), ("n_docs", n_docs), ("term_freq", term_freq)):
            if not np.all(np.isfinite(arr)) or np.any(arr < 0):
                raise InputError(f"{label} must hold finite non-negative counts")
        if np.any(doc_freq > n_docs[:, None]):
            raise InputError("doc_freq exceeds the number of documents of its category")
        if self.own_freq is not None:
            own_freq = np.asarray(self.own_freq, dtype=np.float64)
            if own_freq.shape != doc_freq.shape:
                raise InputError(f"own_freq shape {own_freq.shape} differs from doc_freq shape {doc_freq.shape}")
            if not np.all(np.isfinite(own_freq)) or np.any(own_freq < 0):
                raise InputError("own_freq must hold finite non-negative counts")
            if np.any(own_freq > n_docs[:, None]):
                raise InputError("own_freq exceeds the number of documents of its category")
            object.__setattr__(self, "own_freq", own_freq)
        object.__setattr__(self, "doc_freq", doc_freq)
        object.__setattr__(self, "n_docs", n_docs)
        object.__setattr__(self, "term_freq", term_freq)

    @property
    def n_categories(self) -> int:
        """Number of categories (rows)."""
        return int(self.doc_freq.shape[0])

    @property
    def n_words(self) -> int:
        """Vocabulary size (columns)."""
        return int(self.doc_freq.shape[1])

    @classmethod
    def from_matrices(
        cls, counts: scipy.sparse.spmatrix | np.ndarray, labels: np.ndarray, n_categories: int,
        own: scipy.sparse.spmatrix | np.ndarray | None = None,
    ) -> CategoryStats:
        """Count the statistics from a (docs x V) tf(w, d) matrix and a category index per doc;
        ``own``, a (docs x V) matrix of the words each document itself contains (any positive
        entry counts once), gives ``own_freq``.

        Uses sparse products (one-hot label matrix @ binarised counts), no loop over documents.
        """
        try:
            matrix = scipy.sparse.csr_matrix(counts, dtype=np.float64)
            own_matrix = None if own is None else scipy.sparse.csr_matrix(own, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise InputError(f"counts must be a numeric (documents x words) matrix: {exc}") from None
        if own_matrix is not None and own_matrix.shape != matrix.shape:
            raise InputError(f"own counts shape {own_matrix.shape} differs from counts shape {matrix.shape}")
        labels_arr = np.asarray(labels)
        n_cat = int(n_categories)
        if n_cat < 1:
            raise InputError(f"n_categories must be at least 1, got {n_categories}")
        if labels_arr.ndim != 1 or labels_arr.shape[0] != matrix.shape[0]:
            raise InputError(
                f"labels must hold one category index per document ({matrix.shape[0]}), got shape {labels_arr.shape}"
            )
        if labels_arr.size and not np.issubdtype(labels_arr.dtype, np.integer):
            raise InputError(f"labels must be integer category indices, got dtype {labels_arr.dtype}")
        labels_arr = labels_arr.astype(np.int64, copy=False)
        if labels_arr.size and (labels_arr.min() < 0 or labels_arr.max() >= n_cat):
            raise InputError(f"labels must lie in [0, {n_cat - 1}]")
        for m in (matrix, own_matrix):
            if m is not None and m.nnz and (m.data.min() < 0 or not np.all(np.isfinite(m.data))):
                raise InputError("counts must be finite and non-negative")
        n_doc = matrix.shape[0]
        one_hot = scipy.sparse.csr_matrix(
            (np.ones(n_doc), (labels_arr, np.arange(n_doc))), shape=(n_cat, n_doc)
        )
        def documents_with(m: scipy.sparse.csr_matrix) -> np.ndarray:
            present = m.copy()
            present.data = (present.data > 0).astype(np.float64)
            return np.asarray((one_hot @ present).toarray(), dtype=np.float64)

        doc_freq = documents_with(matrix)
        term_freq = np.asarray((one_hot @ matrix).toarray(), dtype=np.float64)
        n_docs = np.bincount(labels_arr, minlength=n_cat).astype(np.float64)
        own_freq = None if own_matrix is None else documents_with(own_matrix)
        return cls(doc_freq=doc_freq, n_docs=n_docs, term_freq=term_freq, own_freq=own_freq)

    def abcd_table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """A, B, C, D as (C x V) float arrays (see module docstring)."""
        a = self.doc_freq
        n_c = self.n_docs[:, None]
        b = n_c - a
        c = a.sum(axis=0, keepdims=True) - a
        d = self.n_docs.sum() - n_c - c
        return a, b, c, d


# --------------------------------------------------------------------------- ABCD metrics


def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den with 0 where den == 0."""
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64))
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _rf(a, b, c, d) -> np.ndarray:
    """rf (relevance frequency, Lan et al. 2006): log2(2 + A / max(C, 1)).

    Zero rules: none needed (max(C, 1) guards the division); A = 0 gives log2 2 = 1.
    """
    return np.log2(2.0 + a / np.maximum(c, 1.0))


def _tds(a, b, c, d) -> np.ndarray:
    """tds (term domain specificity): (A / (A + B)) / ((A + C) / N) = A·N / ((A + B)(A + C)).

    Zero rules: A + B = 0 (empty category) or A + C = 0 (word in no document) → 0
    (in both cases A = 0, so the limit of the numerator is 0).
    """
    n = a + b + c + d
    return _safe_div(a * n, (a + b) * (a + c))


def _ig(a, b, c, d) -> np.ndarray:
    """ig (information gain): mutual information of w-presence and c-membership, natural log.

    Σ over the four cells X ∈ {A, B, C, D} of (X / N) · ln(X · N / (row(X) · col(X))).
    The paper's Table 2 prints products where sums belong (a typo, docs/method.md §2).
    Zero rules: a cell X = 0 contributes 0 (0 · log 0 = 0); N = 0 → 0.
    """
    n = a + b + c + d
    total = np.zeros(np.broadcast(a, b, c, d).shape, dtype=np.float64)
    for x, row, col in ((a, a + b, a + c), (b, a + b, b + d), (c, c + d, a + c), (d, c + d, b + d)):
        # x > 0 implies row, col, n > 0; x = 0 gives xlogy(0, 0) = 0.
        total += _safe_div(xlogy(x, _safe_div(x * n, row * col)), n)
    # Mutual information is non-negative; clip round-off below zero.
    return np.maximum(total, 0.0)


def _class_entropy(a, b, c, d) -> np.ndarray:
    """H(c) = −P(c) ln P(c) − P(¬c) ln P(¬c) with 0 · ln 0 = 0; N = 0 → 0."""
    n = a + b + c + d
    return entr(_safe_div(a + b, n)) + entr(_safe_div(c + d, n))


def _gr(a, b, c, d) -> np.ndarray:
    """gr (gain ratio): ig / H(c), natural logs.

    Zero rules: H(c) = 0 (every document in c, or none, or N = 0) → 0.
    """
    return _safe_div(_ig(a, b, c, d), _class_entropy(a, b, c, d))


def _chi2(a, b, c, d) -> np.ndarray:
    """chi2: N (AD − BC)² / ((A + B)(C + D)(A + C)(B + D)) (Pearson, no continuity correction).

    Zero rules: a zero denominator (an empty row or column of the 2x2 table) → 0.
    """
    n = a + b + c + d
    return _safe_div(n * (a * d - b * c) ** 2, (a + b) * (c + d) * (a + c) * (b + d))


def _idf(a, b, c, d) -> np.ndarray:
    """idf: ln(N / (A + C)), label-free (same value for every category).

    Zero rules: A + C = 0 (word in no training document) → ln(N / 1) = ln N;
    N = 0 (no training document) → 0.
    """
    n = a + b + c + d
    return np.log(np.maximum(n, 1.0) / np.maximum(a + c, 1.0))


# --------------------------------------------------------------------------- other metrics


def _tf_dcf(stats: CategoryStats) -> np.ndarray:
    """tf-dcf (Lopes et al. 2016, paper Formula 1): tf(w,c) / Π_{d≠c} (1 + ln(1 + tf(w,d))).

    tf(w, c) counts occurrences of w over the substituted words of category c's training
    documents. The product is over the other categories only (docs/method.md §2) and is taken
    as exp(Σ ln(...)), a sum over all categories minus the own one. Every factor is ≥ 1,
    so no zero guard is needed; a word absent from c scores 0; with one category the empty
    product is 1. Tiny values may underflow to 0.0 with many categories (the paper's
    observation), never to NaN.
    """
    tf = stats.term_freq
    log_factor = np.log1p(np.log1p(tf))
    log_den = log_factor.sum(axis=0, keepdims=True) - log_factor
    return tf * np.exp(-log_den)


def _ascending_ranks(freq: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ranks of the nonzero entries of each row in ascending frequency (1 = rarest present word).

    Ties share their average rank; zero entries get rank 0. Returns (ranks, |V| per row).
    """
    freq = np.atleast_2d(freq)
    zeros = (freq == 0).sum(axis=1, keepdims=True)
    # Zeros are the smallest values, so they occupy ranks 1..z; shift the others down by z.
    from scipy.stats import rankdata  # here, not at import: scipy.stats costs a page's first open half a second

    ranks = rankdata(freq, method="average", axis=1) - zeros
    ranks = np.where(freq > 0, ranks, 0.0)
    return ranks, (freq.shape[1] - zeros).astype(np.float64)


def _thd(stats: CategoryStats) -> np.ndarray:
    """thd (termhood, Kit & Liu 2008, paper Formula 2): r(w,c)/|V_c| − r(w,all)/|V_all|.

    r(w, c) is the rank of w among the words with nonzero tf(w, c) in ascending frequency
    order (the most frequent word has rank |V_c|); r(w, all) likewise on Σ_c tf(w, c).
    Ties get their average rank (``scipy.stats.rankdata(method="average")``). A word absent
    from a vocabulary has rank 0. Zero rules: |V_c| = 0 (category without words) → that
    term is 0, likewise |V_all| = 0.
    """
    ranks_c, size_c = _ascending_ranks(stats.term_freq)
    ranks_g, size_g = _ascending_ranks(stats.term_freq.sum(axis=0, keepdims=True))
    return _safe_div(ranks_c, size_c) - _safe_div(ranks_g, size_g)


def _lo(stats: CategoryStats) -> np.ndarray:
    """lo (informative-prior log-odds, not in the paper): Fightin' Words on the document counts.

    :func:`dkw_core.peers.fightin_words` (Monroe, Colaresi & Quinn 2008) applied to A, the
    documents of c containing w, against C, the documents outside c containing w (the other
    categories pooled), with the prior from the overall document frequencies A + C scaled to
    the default total mass. A z-score: positive where w is over-represented in c, negative
    where under-represented, 0 for a word in no document.
    """
    return fightin_words(stats.doc_freq)


# The field's standard word scores on word *occurrences*, as their authors define
# them; over a document's own words (``keywords.baseline``) they are the peers dkw is held against.


def _fw(stats: CategoryStats) -> np.ndarray:
    """fw (Fightin' Words, not in the paper): :func:`dkw_core.peers.fightin_words` on tf(w, c).

    Monroe, Colaresi & Quinn 2008 as scattertext applies it: the informative-prior log-odds
    z-score of the word's occurrences in c against its occurrences in the other categories
    pooled, the prior from the overall word counts. It differs from ``lo`` only in counting
    occurrences (tf(w, c)) where ``lo`` counts documents (A). 0 for a word that never occurs.
    """
    return fightin_words(stats.term_freq)


def _ctfidf(stats: CategoryStats) -> np.ndarray:
    """ctfidf (class-based tf-idf, not in the paper): :func:`dkw_core.peers.ctfidf` on tf(w, c).

    Grootendorst 2022 (BERTopic's topic words): tf(w, c) / |c| · ln(1 + A_avg / f(w)).
    0 for a word absent from c, and for an empty category.
    """
    return ctfidf(stats.term_freq)

# --------------------------------------------------------------------------- lo-own (latent and own words)


def _dispersion_scaled(z: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """z-scores divided by the square root of their Pearson dispersion φ = mean z² over every
    (category, word) cell of the words with a count (McCullagh & Nelder 1989, §4.5: the
    quasi-likelihood scale of over-dispersed counts). Zero rule: φ = 0 (no count, or every
    z-score 0) gives all zeros."""
    seen = counts.sum(axis=0) > 0
    phi = float(np.mean(z[:, seen] ** 2)) if seen.any() else 0.0
    return z / np.sqrt(phi) if phi > 0 else np.zeros_like(z)


def _lo_own(stats: CategoryStats) -> np.ndarray:
    """lo-own (not in the paper): the latent and the own-word log-odds z-scores, each corrected
    for its over-dispersion, combined by Stouffer's method (docs/method.md §11)::

        lo-own(w, c) = (z_A(w, c) / √φ_A + z_O(w, c) / √φ_O) / √2

    ``z_A`` is :func:`_lo` (Fightin' Words on A, the documents whose phrases *reach* w among
    their K nearest words); ``z_O`` the same formula on ``own_freq``, the documents in which
    w *itself* occurs; φ their Pearson dispersions (:func:`_dispersion_scaled`). A word reached
    through one off-sense neighbour of a frequent phrase (R8 earn: *cts* → *sedan*) has a
    large z_A but no own-word evidence; a word a category both uses and reaches keeps both.
    Zero rules: those of :func:`fightin_words` and :func:`_dispersion_scaled`. Statistics
    counted without ``own_freq`` are an :class:`InputError`.
    """
    if stats.own_freq is None:
        raise InputError("metric lo-own needs the own-word document counts (own_freq) of the training split; "
                         "these statistics were counted without them")
    latent = _dispersion_scaled(fightin_words(stats.doc_freq), stats.doc_freq)
    own = _dispersion_scaled(fightin_words(stats.own_freq), stats.own_freq)
    return (latent + own) / np.sqrt(2.0)


# --------------------------------------------------------------------------- registry


AbcdFn = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Metric:
    """A registered word-weighting metric (paper §2, Table 2)."""

    name: str  # "tf-rf"
    base: str  # "rf"
    tf: bool  # multiply by tf(w, d)
    label_free: bool  # True only for idf / tf-idf (same score for every category)
    description: str
    reference: str


@dataclass(frozen=True)
class _BaseSpec:
    name: str
    description: str
    reference: str
    label_free: bool
    scores: Callable[[CategoryStats], np.ndarray]
    abcd_fn: AbcdFn | None = None


def _from_abcd(fn: AbcdFn) -> Callable[[CategoryStats], np.ndarray]:
    def scores(stats: CategoryStats) -> np.ndarray:
        return fn(*stats.abcd_table())

    scores.__doc__ = fn.__doc__
    return scores


def _abcd_spec(name: str, description: str, reference: str, fn: AbcdFn, *, label_free: bool = False) -> _BaseSpec:
    return _BaseSpec(name, description, reference, label_free, _from_abcd(fn), fn)


_LAN = "Lan et al. 2006; Sajgalik et al. 2017, Table 2"
# One entry per base metric; the tf- variant is derived. Order = registry order.
_BASE_SPECS: tuple[_BaseSpec, ...] = (
    _abcd_spec("rf", "relevance frequency log2(2 + A/max(C,1))", _LAN, _rf),
    _abcd_spec("tds", "term domain specificity (A/(A+B)) / ((A+C)/N)", "Sajgalik et al. 2017, Table 2", _tds),
    _abcd_spec("ig", "information gain (mutual information of word presence and category)",
               "Sajgalik et al. 2017, Table 2 (typo corrected, docs/method.md §2)", _ig),
    _abcd_spec("gr", "gain ratio ig / H(c)", "Sajgalik et al. 2017, Table 2", _gr),
    _abcd_spec("chi2", "chi-square N(AD-BC)^2 / ((A+B)(C+D)(A+C)(B+D))", "Sajgalik et al. 2017, Table 2", _chi2),
    _abcd_spec("idf", "inverse document frequency ln(N/(A+C)), label-free", "Sajgalik et al. 2017, Table 2",
               _idf, label_free=True),
    _BaseSpec("tf-dcf", "term frequency - disjoint corpora frequency tf(w,c) / prod_{d!=c} (1+ln(1+tf(w,d)))",
              "Lopes et al. 2016; Sajgalik et al. 2017, Formula 1", False, _tf_dcf),
    _BaseSpec("thd", "termhood r(w,c)/|V_c| - r(w,all)/|V_all| (ascending frequency ranks)",
              "Kit & Liu 2008; Sajgalik et al. 2017, Formula 2", False, _thd),
    _BaseSpec("lo", "informative-prior log-odds z-score of A vs C (Fightin' Words on the neighbour-set "
              "document counts; not in the paper)", "Monroe, Colaresi & Quinn 2008", False, _lo),
    # the peers on word occurrences, not in the paper
    _BaseSpec("fw", "Fightin' Words: informative-prior log-odds z-score of tf(w,c) vs the other categories' "
              "occurrences (not in the paper)", "Monroe, Colaresi & Quinn 2008", False, _fw),
    _BaseSpec("ctfidf", "class-based tf-idf tf(w,c)/|c| * ln(1 + avg|c|/f(w)) (BERTopic; not in the paper)",
              "Grootendorst 2022", False, _ctfidf),

    # the latent and own-word log-odds combined (docs/method.md §11)
    _BaseSpec("lo-own", "lo of the neighbour-set counts and of the own-word counts, each over-dispersion "
              "scaled, Stouffer-combined (not in the paper)",
              "Monroe, Colaresi & Quinn 2008; Stouffer et al. 1949; docs/method.md §11", False, _lo_own),
)
_SPECS: dict[str, _BaseSpec] = {spec.name: spec for spec in _BASE_SPECS}


def _build_registry() -> dict[str, Metric]:
    registry: dict[str, Metric] = {}
    for spec in _BASE_SPECS:
        registry[spec.name] = Metric(spec.name, spec.name, False, spec.label_free, spec.description, spec.reference)
    for spec in _BASE_SPECS:
        name = f"tf-{spec.name}"
        registry[name] = Metric(
            name, spec.name, True, spec.label_free, f"tf(w,d) x {spec.description}", spec.reference
        )
    return registry


METRICS: dict[str, Metric] = _build_registry()
PAPER_METRICS: tuple[str, ...] = (
    "tf-idf", "tf-ig", "tf-rf", "tf-tds", "tf-tf-dcf", "tf-thd", "tf-dcf",
    "ig", "rf", "tds", "thd", "tf-chi2", "chi2",
)
SEARCH_EXCLUDED: tuple[str, ...] = ("chi2", "tf-chi2")  # paper §4.2.2: left out of Algorithm 2


def get_metric(name: str) -> Metric:
    """The registered metric ``name``; :class:`InputError` listing the valid names if unknown."""
    try:
        return METRICS[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown metric {name!r}; valid metrics: {', '.join(METRICS)}") from None


def category_scores(name: str, stats: CategoryStats) -> np.ndarray:
    """(C x V) float64 scores of the BASE metric of ``name`` (a base or a ``tf-`` name).

    The tf(w, d) factor of ``tf-`` variants is NOT applied: the caller multiplies by it
    when ``get_metric(name).tf``. Label-free metrics (idf) give identical rows.
    """
    metric = get_metric(name)
    if not isinstance(stats, CategoryStats):
        raise InputError(f"stats must be a CategoryStats, got {type(stats).__name__}")
    scores = np.asarray(_SPECS[metric.base].scores(stats), dtype=np.float64)
    scores = np.broadcast_to(scores, stats.doc_freq.shape).copy()
    if not np.all(np.isfinite(scores)):  # pragma: no cover - guarded by construction
        raise InputError(f"metric {name!r} produced non-finite scores")
    return scores


def abcd(name: str, A, B, C, D) -> np.ndarray:  # noqa: N803 - the paper's names
    """Score ABCD count arrays (broadcast together) with metric ``name``.

    ``name`` is an ABCD metric (rf, tds, ig, gr, chi2, idf) or its ``tf-`` variant (the
    base is used, no tf factor). Counts must be finite and non-negative.
    """
    metric = get_metric(name)
    spec = _SPECS[metric.base]
    if spec.abcd_fn is None:
        valid = [s.name for s in _BASE_SPECS if s.abcd_fn is not None]
        raise InputError(f"metric {name!r} is not defined on an ABCD table; ABCD metrics: {', '.join(valid)}")
    try:
        arrays = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (A, B, C, D)))
    except (TypeError, ValueError) as exc:
        raise InputError(f"A, B, C, D must be numeric arrays of broadcastable shapes: {exc}") from None
    for label, arr in zip("ABCD", arrays):
        if not np.all(np.isfinite(arr)) or np.any(arr < 0):
            raise InputError(f"{label} must hold finite non-negative counts")
    return np.asarray(spec.abcd_fn(*arrays), dtype=np.float64)
